// What a read step (actions/read.c) takes from an element: a table's rows as
// objects keyed by its column headers, a field's value, or the element's text.
// arguments: [element, what]; answers {value} or {refused: why}.
// (never "error": WebDriver takes a script answer with that key for its own error)
const [el, what] = arguments;
const clean = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
if (!el || !el.isConnected) return {refused: 'gone'};
if (el.closest('[data-agent-hidden]')) return {refused: 'hidden'};
const SECRET = 'input[type=password], [data-agent-secret], [autocomplete~="one-time-code"], [autocomplete^="cc-"]';
const isSecret = (e) => e.matches(SECRET) || !!e.closest('[data-agent-secret]');
// text without hidden regions or secret fields' values
const textOf = (e) => {
  if (!e.querySelector('[data-agent-hidden], [data-agent-secret]')) return clean(e.innerText);
  let t = '';
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) t += ' ' + c.nodeValue;
      else if (c.nodeType === 1 && !c.hasAttribute('data-agent-hidden') && !c.hasAttribute('data-agent-secret') &&
               !/^(SCRIPT|STYLE|TEMPLATE)$/.test(c.tagName)) walk(c);
    }
  };
  walk(e);
  return clean(t);
};
if (what === 'text') return {value: textOf(el)};
if (what === 'value') {
  const f = el.matches('input, select, textarea') ? el : el.querySelector('input, select, textarea');
  if (!f) return {value: textOf(el), from: 'text'};
  if (isSecret(f)) return {refused: 'secret'};
  if (f.type === 'checkbox' || f.type === 'radio') return {value: f.checked};
  if (f.tagName === 'SELECT') {
    const labels = [...f.selectedOptions].map((o) => clean(o.label || o.text));
    return {value: f.multiple ? labels : (labels[0] || '')};
  }
  if (f.type === 'file') return {value: [...(f.files || [])].map((x) => x.name)};
  return {value: f.value};
}
if (what === 'rows') {
  const table = el.matches('table, [role=table], [role=grid]') ? el
    : el.closest('table, [role=table], [role=grid]') || el.querySelector('table, [role=table], [role=grid]');
  if (!table) return {refused: 'no table'};
  const native = table.tagName === 'TABLE';
  const allRows = native ? [...table.rows] : [...table.querySelectorAll('[role=row]')];
  const cellsOf = (r) => native ? [...r.cells] : [...r.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')];
  const isHead = (r) => (native && r.parentElement && r.parentElement.tagName === 'THEAD') ||
    (cellsOf(r).length > 0 && cellsOf(r).every((c) => c.tagName === 'TH' || c.getAttribute('role') === 'columnheader'));
  const head = allRows.find(isHead);
  const headers = [];
  if (head) {
    for (const c of cellsOf(head)) {
      let h = textOf(c) || ('column ' + (headers.length + 1));
      for (let k = 2; headers.includes(h); k++) h = (textOf(c) || 'column') + ' ' + k;
      headers.push(h);
      for (let s = 1; s < (c.colSpan || 1); s++) headers.push(h + ' ' + (s + 1));
    }
  }
  // rows as lists of cells, keyed in C (a browser's JSON sorts object keys; columns keep their order)
  const rows = [];
  let width = headers.length;
  for (const r of allRows) {
    if (isHead(r) || r.getAttribute('aria-hidden') === 'true' || r.hidden || r.closest('[data-agent-hidden]')) continue;
    const cells = cellsOf(r);
    // an empty table's "No data" line spans every column: not a row
    if (cells.length === 1 && headers.length > 1 && (cells[0].colSpan || 1) >= headers.length) continue;
    if (!cells.length) continue;
    rows.push(cells.map((c) => {
      const input = c.querySelector('input, select, textarea');
      return input && !textOf(c)
        ? (isSecret(input) ? '[redacted]' : input.type === 'checkbox' ? input.checked : input.value) : textOf(c);
    }));
    width = Math.max(width, cells.length);
  }
  for (let i = headers.length; i < width; i++) headers.push('column ' + (i + 1));
  return {value: {headers, rows}, table: true};
}
return {refused: 'what'};

/* perception/html_view.js — the html observation mode's text, written in the
 * page from the DOM the browser already parsed.  Included by providers.js,
 * which calls it when the mode is html (its stampIds argument); the C side
 * (perception/view_html.c) adds the tab header and resolves the ids.
 *
 * eousHtmlView(doc) -> {text, capped}:
 *   1. stamps data-eous-id="1", "2", … on the interactive elements, the
 *      document's in document order, then those in open shadow roots; the
 *      ids resolve to backend node ids through the DOM snapshot (CDP) or the
 *      in-page tree's marks (axtree.js, without CDP);
 *   2. writes the elements one a line, indented a space a level, pruned:
 *      - dropped with all they hold: script, style, noscript, template, head,
 *        meta, link, svg, path, iframe, object, embed, canvas; elements with
 *        hidden, data-agent-hidden, aria-hidden="true", an inline style of
 *        display:none or visibility:hidden, <input type=hidden>, and those
 *        vis_hidden.js stamped data-eous-vh="1" (no text a person can see);
 *      - shown through (their children at their level): html, body, slot, a
 *        div or span with no role, aria-label or data-eous-id;
 *      - kept attributes (KEEP), in the element's order, values escaped
 *        (< & " as entities; tab, CR, LF as a space); a secret field's value
 *        (perc_is_secret_field's rule) and any text under data-agent-secret
 *        or a secret field is "[redacted]";
 *      - text: one line per run of adjacent text nodes that is not only
 *        spaces, tabs and line breaks, escaped as attributes are but for ";
 *        an element's own text is left out when it is stamped data-eous-vh="2".
 *      Past PERC_MAX_DEPTH (512) printed levels nothing deeper is written
 *      (capped says so).
 * The walk follows the flat tree, as a person sees the page: an open shadow
 * root's content in place of its host's children, a slot showing what is
 * assigned to it.
 *
 * Before this script the page's outerHTML was re-parsed with libxml2 in C.
 * The text is byte for byte the same on the fixture pages and Playground
 * routes compared (tests/fixtures/pages, hostile, e2e, native; the
 * Playground's six routes; with CDP and without), but where libxml2 read the
 * markup otherwise than the browser had built the DOM:
 *   - a <div> a script put in a <p>: libxml2 closed the <p> before it, so the
 *     div's text escaped a data-agent-secret or hidden paragraph;
 *   - nesting past libxml2's 256 levels: everything after was cut;
 *   - open shadow roots (outerHTML has none): their content was missing, and
 *     a host's slotted children showed even when the shadow tree put their
 *     slot in a data-agent-hidden region (tests/fixtures/pages/marks.html).
 * Adjacent text nodes are one line, as the re-parse joined them.
 * test_perc_w3c html_view_reads_the_built_dom_* holds these. */
const eousHtmlView = (function () {
  const DROP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'svg', 'path', 'iframe',
    'object', 'embed', 'canvas']);
  const KEEP = new Set(['href', 'type', 'name', 'value', 'placeholder', 'aria-label', 'title', 'alt', 'role', 'checked',
    'selected', 'disabled', 'for', 'aria-expanded', 'aria-selected', 'aria-checked', 'aria-valuenow', 'required']);
  const INTERACTIVE = 'a[href],button,input,select,textarea,option,summary,[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=switch],[role=tab],[role=menuitem],[role=option],[role=combobox],' +
    '[role=slider],[role=textbox],[role=treeitem],[tabindex]:not([tabindex="-1"]),[contenteditable=true]';
  const MAX_DEPTH = 512; /* PERC_MAX_DEPTH, perception/perc_int.h */
  const ENT = {'<': '&lt;', '&': '&amp;', '"': '&quot;', '\n': ' ', '\r': ' ', '\t': ' '};
  const esc = (s, attr) => s.replace(attr ? /[<&"\n\r\t]/g : /[<&\n\r\t]/g, c => ENT[c]);
  const lc = s => (s == null ? '' : String(s)).toLowerCase();

  /* the document and every open shadow root under it, the document first */
  function roots(doc) {
    const out = [doc];
    for (let k = 0; k < out.length; k++)
      for (const e of out[k].querySelectorAll('*')) if (e.shadowRoot) out.push(e.shadowRoot);
    return out;
  }
  function stamp(doc) {
    const all = roots(doc);
    for (const r of all) r.querySelectorAll('[data-eous-id]').forEach(e => e.removeAttribute('data-eous-id'));
    let n = 0;
    for (const r of all) r.querySelectorAll(INTERACTIVE).forEach(e => e.setAttribute('data-eous-id', String(++n)));
  }
  function hidden(e, tag) {
    if (e.hasAttribute('hidden') || e.hasAttribute('data-agent-hidden') || e.getAttribute('data-eous-vh') === '1' ||
        e.getAttribute('aria-hidden') === 'true')
      return true;
    const st = e.getAttribute('style');
    if (st != null && /display: ?none|visibility: ?hidden/.test(st)) return true;
    return tag === 'input' && lc(e.getAttribute('type')) === 'hidden';
  }
  /* perc_is_secret_field (perception/marks.c), the rule every view applies */
  function secretField(e, tag) {
    const ac = e.getAttribute('autocomplete');
    return (tag === 'input' && lc(e.getAttribute('type')) === 'password') ||
      (ac != null && (ac === 'one-time-code' || ac.startsWith('cc-') || ac === 'current-password' ||
        ac === 'new-password'));
  }
  function kidsOf(e, tag) {
    if (e.shadowRoot) return e.shadowRoot.childNodes;
    if (tag === 'slot') { const a = e.assignedNodes({flatten: true}); if (a.length) return a; }
    return e.childNodes;
  }
  /* elements, and each run of adjacent text nodes as one [string, its parent] */
  function items(list) {
    const out = [];
    let text = null, parent = null;
    for (const n of list) {
      if (n.nodeType === 3) {
        if (text === null) parent = n.parentNode;
        text = text === null ? n.data : text + n.data;
        continue;
      }
      if (text !== null) out.push([text, parent]), text = null;
      if (n.nodeType === 1) out.push(n);
    }
    if (text !== null) out.push([text, parent]);
    return out;
  }
  function line(e, tag, depth, secret) {
    let s = ' '.repeat(depth) + '<' + tag;
    const id = e.getAttribute('data-eous-id');
    if (id != null) s += ' id="' + esc(id, true) + '"';
    for (const a of e.attributes) {
      const an = lc(a.name);
      if (KEEP.has(an)) s += ' ' + an + '="' + (secret && an === 'value' ? '[redacted]' : esc(a.value, true)) + '"';
    }
    return s + '>';
  }
  /* iterative: pages nest deeper than the JS stack allows */
  function write(doc) {
    const lines = [];
    let capped = false;
    const stack = doc.documentElement ? [[doc.documentElement, 0, false]] : [];
    const push = (list, depth, secret) => {
      const it = items(list);
      for (let i = it.length - 1; i >= 0; i--) stack.push([it[i], depth, secret]);
    };
    while (stack.length) {
      const [n, depth, secret] = stack.pop();
      if (Array.isArray(n)) {
        const [text, parent] = n;
        if (/^[ \n\t\r]*$/.test(text) || (parent && parent.nodeType === 1 && parent.getAttribute('data-eous-vh') === '2'))
          continue;
        lines.push(' '.repeat(depth) + (secret ? '[redacted]' : esc(text, false)));
        continue;
      }
      const tag = lc(n.localName);
      if (DROP.has(tag) || hidden(n, tag)) continue;
      const sec = secret || n.hasAttribute('data-agent-secret') || secretField(n, tag);
      const through = tag === 'html' || tag === 'body' || tag === 'slot' || ((tag === 'div' || tag === 'span') &&
        !n.hasAttribute('role') && !n.hasAttribute('data-eous-id') && !n.hasAttribute('aria-label'));
      if (through) { push(kidsOf(n, tag), depth, sec); continue; }
      if (depth >= MAX_DEPTH) { capped = true; continue; }
      lines.push(line(n, tag, depth, sec));
      push(kidsOf(n, tag), depth + 1, sec);
    }
    return {text: lines.length ? lines.join('\n') + '\n' : '', capped};
  }
  return function (doc) {
    stamp(doc);
    return write(doc);
  };
})();

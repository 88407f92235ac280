/* A month calendar, as date pickers draw one: a table or grid of day cells
 * that each name their date, by an ISO date in title, data-date, data-day or
 * datetime (Ant Design, Bootstrap's datepicker, react-day-picker) or by an
 * aria-label such as "Tuesday, July 15th, 2025" (flatpickr, react-datepicker).
 * nativeCalendarDays(t) is [{cell, date: 'YYYY-MM-DD', off, on}] for the
 * month most of its cells show (its neighbours' leading and trailing days
 * left out), or null when t is no such calendar: seven cells to a row, the
 * month's days each once, in order.  A day is off when its cell
 * says disabled (aria-disabled, a disabled button, or a class ending in
 * "disabled", the one way Ant Design and jQuery UI say it) and on when it is
 * the chosen one.  One definition for the view (native.js) and the tool
 * (actions/native_call.js), so the two never disagree. */
const NATIVE_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september',
  'october', 'november', 'december'];
const nativeIsoDate = (y, m, d) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return String(y).padStart(4, '0') + '-' + String(m).padStart(2, '0') + '-' + String(d).padStart(2, '0');
};
/* "July 15, 2025", "15 July 2025", "Tue Jul 15th 2025": the month's name (or its first three letters) */
const nativeWordDate = s => {
  const t = String(s || '').toLowerCase().replace(/(\d)(st|nd|rd|th)\b/g, '$1');
  const mon = '(' + NATIVE_MONTHS.map(m => m.slice(0, 3) + '(?:' + m.slice(3) + ')?').join('|') + ')\\.?';
  let m = new RegExp('\\b' + mon + '\\s+(\\d{1,2}),?\\s+(\\d{4})\\b').exec(t);
  if (m) return nativeIsoDate(Number(m[3]), NATIVE_MONTHS.findIndex(x => x.startsWith(m[1].slice(0, 3))) + 1, Number(m[2]));
  m = new RegExp('\\b(\\d{1,2})\\s+' + mon + ',?\\s+(\\d{4})\\b').exec(t);
  if (m) return nativeIsoDate(Number(m[3]), NATIVE_MONTHS.findIndex(x => x.startsWith(m[2].slice(0, 3))) + 1, Number(m[1]));
  return null;
};
const nativeCellDate = cell => {
  const els = [cell, ...Array.from(cell.querySelectorAll('[title],[data-date],[data-day],[datetime],[aria-label]')).slice(0, 3)];
  for (const e of els) for (const a of ['title', 'data-date', 'data-day', 'datetime']) {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?![\d])/.exec(e.getAttribute(a) || '');
    if (m) return nativeIsoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  for (const e of els) { const d = nativeWordDate(e.getAttribute('aria-label')); if (d) return d; }
  return null;
};
const nativeClassSays = (el, re) => [el, ...Array.from(el.querySelectorAll('*')).slice(0, 3)]
  .some(e => typeof e.className === 'string' && e.className.split(/\s+/).some(c => re.test(c)));
const nativeCalendarDays = t => {
  const cells = Array.from(t.querySelectorAll('td,[role=gridcell]')).filter(c => c.closest('table,[role=grid]') === t);
  if (cells.length < 28 || cells.length > 62) return null;
  /* a week to a row: a data table's column of dates is no calendar */
  const rows = new Map();
  for (const c of cells) { const r = c.closest('tr,[role=row]') || c.parentElement; rows.set(r, (rows.get(r) || 0) + 1); }
  if ([...rows.values()].some(n => n !== 7)) return null;
  const dated = cells.map(cell => ({cell, date: nativeCellDate(cell)})).filter(x => x.date);
  if (dated.length < 28) return null;
  const count = new Map();
  for (const x of dated) count.set(x.date.slice(0, 7), (count.get(x.date.slice(0, 7)) || 0) + 1);
  const month = [...count].sort((a, b) => b[1] - a[1])[0][0];
  const days = dated.filter(x => x.date.startsWith(month));
  /* the month's days in order, one after another */
  if (days.length < 28 || days.some((x, i) => Number(x.date.slice(8)) !== i + 1)) return null;
  for (const x of days) {
    const b = x.cell.querySelector('button');
    x.off = x.cell.getAttribute('aria-disabled') === 'true' || !!x.cell.querySelector('[aria-disabled=true]') ||
      !!(b && b.disabled) || nativeClassSays(x.cell, /(^|[-_])disabled$/i);
    x.on = [x.cell, ...x.cell.querySelectorAll('[aria-selected],[aria-pressed]')].some(e =>
      e.getAttribute('aria-selected') === 'true' || e.getAttribute('aria-pressed') === 'true') ||
      nativeClassSays(x.cell, /(^|[-_])selected$/i);
  }
  return days;
};

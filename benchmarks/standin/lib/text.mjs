// lib/text.mjs — how the stand-in compares text: as a person reading it would,
// ignoring case, accents and the kind and amount of white space.

// Lower case, accents off (NFKD, combining marks dropped), every run of white
// space (no-break spaces included) one space, trimmed.
export function norm(s) {
  return String(s ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .toLowerCase();
}

const WORD = /[\p{L}\p{N}]/u;

// 1 when needle occurs in hay with no letter or digit glued to either end
// (both already normalised): "2" is not seen in "12", "paris" is in "paris, france".
export function hasWords(hay, needle) {
  if (!needle) return true;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const before = i > 0 ? hay[i - 1] : '';
    const after = hay[i + needle.length] ?? '';
    const glued = (c, edge) => c && WORD.test(c) && WORD.test(edge);
    if (!glued(before, needle[0]) && !glued(after, needle[needle.length - 1])) return true;
  }
  return false;
}

// The ways a person may see the date YYYY-MM-DD printed.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
  'October', 'November', 'December'];
export function dateForms(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return [iso];
  const [, y, mo, d] = m;
  const month = MONTHS[Number(mo) - 1];
  if (!month) return [iso];
  const day = String(Number(d));
  return [iso, `${y}/${mo}/${d}`, `${d}/${mo}/${y}`, `${mo}/${d}/${y}`, `${d}.${mo}.${y}`,
    `${month} ${day}, ${y}`, `${month.slice(0, 3)} ${day}, ${y}`, `${day} ${month} ${y}`,
    `${day} ${month.slice(0, 3)} ${y}`];
}

// A number as a person would write the result of a sum: at most two decimals, no trailing zeros.
export function formatNumber(x) {
  const r = Math.round(x * 100) / 100;
  return String(Number.isInteger(r) ? r : Number(r.toFixed(2)));
}

// A cell's number ("1,234.50 EUR" → 1234.5), or NaN.
export function cellNumber(s) {
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(String(s).replace(/\u00a0/g, ''));
  return m ? Number(m[0].replace(/,/g, '')) : NaN;
}

/* A link's accessible name as Chromium computes it in the common cases:
 * aria-labelledby, aria-label, then its rendered text (innerText leaves out
 * what CSS hides, as the accessibility tree does) or its images' alt text,
 * then its title.  One definition for the view (native.js lists a link
 * group's names) and the tool (actions/native_call.js opens a link by one),
 * so the two never disagree. */
const nativeLinkName = a => {
  const sq = s => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  const ids = (a.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
  let n = sq(ids.map(i => { const r = document.getElementById(i); return r ? r.textContent : ''; }).join(' '));
  if (!n) n = sq(a.getAttribute('aria-label'));
  if (!n) n = sq(a.innerText);
  if (!n) n = sq(Array.from(a.querySelectorAll('img[alt]')).map(i => i.getAttribute('alt')).join(' '));
  if (!n) n = sq(a.getAttribute('title'));
  return n;
};

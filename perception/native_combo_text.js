/* The text a combobox shows as its value when no input holds it: (an element
 * with no input, APG's select-only) its own text, else the text beside a
 * read-only input, up to the nearest ancestor that holds another control
 * (antd's Select), leaving out a placeholder, the popup, the label, a live
 * region repeating the value and what is not rendered (an element the combobox holds
 * itself is its value, even when aria-labelledby names it too: OOUI's dropdown names its
 * handle by the field's label and the choice shown).  One definition for
 * the view (native.js prints it) and the tools (actions/native_call.js read
 * a pick back with it), so the two never disagree.  besides: start from the
 * surroundings even for an element with no input (a several-choice
 * combobox's chosen tags). */
const nativeComboRuns = (cb, input, besides, els) => {
  const NEAR = 'input,select,textarea,button,a[href],[role=combobox],[role=button],[role=link],[tabindex]';
  const w0 = input || besides ? null : cb;
  let w = w0 || cb;
  if (!w0) while (w.parentElement && w.parentElement !== document.body &&
    !Array.from(w.parentElement.querySelectorAll(NEAR)).some(e => !w.contains(e))) w = w.parentElement;
  const named = new Set((cb.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean));
  const runs = [];
  const walk = n => { for (const c of n.childNodes) {
    if (c.nodeType === 3) { const s = c.data.replace(/\s+/g, ' ').trim(); if (s) { runs.push(s); if (els) els.push(n); } }
    else if (c.nodeType === 1 && !/placeholder/i.test(typeof c.className === 'string' ? c.className : '') &&
      c.getAttribute('role') !== 'listbox' && c.tagName !== 'LABEL' && c.getAttribute('aria-hidden') !== 'true' &&
      !c.hasAttribute('aria-live') && !(named.has(c.id) && !(w0 && w0.contains(c))) && c.getClientRects().length) walk(c);
  } };
  walk(w);
  return runs;
};
const nativeComboText = (cb, input, besides) => nativeComboRuns(cb, input, besides).join(' ');
/* A combobox of several choices: its listbox (or itself) says aria-multiselectable, or, as antd's
 * Select (rc-select) and react-select say it only by a class, a widget class ending in "multiple"
 * or "is-multi" between the combobox and its fourth ancestor. */
const nativeComboMulti = (cb, lb) => {
  if (cb.getAttribute('aria-multiselectable') === 'true' || (lb && lb.getAttribute('aria-multiselectable') === 'true')) return true;
  for (let e = cb, i = 0; e && e !== document.body && i < 5; e = e.parentElement, i++)
    if (typeof e.className === 'string' && /(^|\s)[\w-]*(-multiple|--is-multi)(\s|$)/.test(e.className)) return true;
  return false;
};
/* What a several-choice combobox holds chosen: with an input, each text beside it (a tag per
 * choice, as antd and react-select render them; els gets the element holding each); a
 * select-only one, its listbox's options that say aria-selected. */
const nativeComboChosen = (cb, input, lb, els) => {
  if (input) return nativeComboRuns(cb, input, false, els);
  const on = lb ? Array.from(lb.querySelectorAll('[role=option][aria-selected=true]')) : [];
  return on.map(o => (o.getAttribute('aria-label') || o.textContent).replace(/\s+/g, ' ').trim()).filter(Boolean);
};

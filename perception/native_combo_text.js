/* The text a combobox shows as its value when no input holds it: (an element
 * with no input, APG's select-only) its own text, else the text beside a
 * read-only input, up to the nearest ancestor that holds another control
 * (antd's Select), leaving out a placeholder, the popup, the label, a live
 * region repeating the value and what is not rendered.  One definition for
 * the view (native.js prints it) and the tools (actions/native_call.js read
 * a pick back with it), so the two never disagree.  besides: start from the
 * surroundings even for an element with no input (a several-choice
 * combobox's chosen tags). */
const nativeComboText = (cb, input, besides) => {
  const NEAR = 'input,select,textarea,button,a[href],[role=combobox],[role=button],[role=link],[tabindex]';
  const w0 = input || besides ? null : cb;
  let w = w0 || cb;
  if (!w0) while (w.parentElement && w.parentElement !== document.body &&
    !Array.from(w.parentElement.querySelectorAll(NEAR)).some(e => !w.contains(e))) w = w.parentElement;
  const named = new Set((cb.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean));
  let t = '';
  const walk = n => { for (const c of n.childNodes) {
    if (c.nodeType === 3) t += c.data + ' ';
    else if (c.nodeType === 1 && !/placeholder/i.test(typeof c.className === 'string' ? c.className : '') &&
      c.getAttribute('role') !== 'listbox' && c.tagName !== 'LABEL' && c.getAttribute('aria-hidden') !== 'true' &&
      !c.hasAttribute('aria-live') && !named.has(c.id) && c.getClientRects().length) walk(c);
  } };
  walk(w);
  return t;
};

/* An atomic click or type prepared in the one script that also finds the
 * target: the element comes as the driver's reference built from the node's
 * backend id (perc_obs_element_prefix), so no lookup goes first.
 * prepare_el.js's checks and facts, scrolled into view, the element (and the
 * field to type into), and
 *   hit    whether a pointer at the centre of what is clicked (the field, for
 *          a type) at (hx, hy) lands on it, so the click, and the keys with
 *          it, go at once as real input events (not for a checkbox or radio,
 *          whose state after the click is read through the element);
 *   block  for a form's submit control, what of the form the browser's
 *          validation blocks (the click still goes).
 * args: element, wantType. */
return (function(el, wantType) {
// @include page_helpers.js
// @include widgets.js
// @include prepare_el.js
// @include form_block.js
// @include hit_test.js
  if (el && el.nodeType !== 1) el = el.parentElement;
  const out = prepareEl(el, true, wantType);
  if (!out.el) return out;
  out.hit = false;
  const at = (el.getAttribute('type') || '').toLowerCase(), tag = el.tagName;
  if (tag === 'INPUT' && (at === 'checkbox' || at === 'radio')) return out;
  if ((tag === 'BUTTON' && (!at || at === 'submit')) || (tag === 'INPUT' && (at === 'submit' || at === 'image')))
    out.block = formBlock(el);
  const te = wantType ? out.typeEl : el;
  if (!te) return out;
  const r = te.getBoundingClientRect();
  out.hx = r.left + r.width / 2; out.hy = r.top + r.height / 2;
  out.hit = r.width >= 1 && r.height >= 1 && reaches(te, out.hx, out.hy);
  return out;
}).apply(null, arguments);

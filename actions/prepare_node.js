/* CDP Runtime.callFunctionOn body on the target node: prepare.js's checks
 * and facts, by value and in the same call that finds the node, plus hit:
 * whether a pointer at the target's centre lands on it (or inside it), so a
 * click can go there at once as real input events (not for a form's submit
 * control or a checkbox or radio, whose effects are read through the
 * element afterwards).  args: scroll. */
function(scroll) {
// @include page_helpers.js
// @include widgets.js
// @include prepare_el.js
// @include hit_test.js
  let el = this;
  if (el && el.nodeType !== 1) el = el.parentElement;
  const out = prepareEl(el, scroll, false);
  if (!out.el) return out;
  delete out.el;
  out.hit = false;
  /* a form's submit control (the form's validity) and a checkbox or radio (its
   * state after the click) are read through the element: the W3C way */
  const t = (el.type || '').toLowerCase();
  if ((el.form && (t === 'submit' || t === 'image')) || (el.tagName === 'INPUT' && (t === 'checkbox' || t === 'radio')))
    return out;
  out.hit = out.w >= 1 && out.h >= 1 && reaches(el, out.x, out.y);
  return out;
}

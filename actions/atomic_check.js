/* What an atomic action did to a native control (actions/atomic.c):
 * args: element, what, text, quietMs, capMs.
 *   "set"      a date, time, month, week or datetime-local input takes its
 *              value whole (typed digits fill the parts the locale shows, not
 *              the value): the native setter, input and change, read back.
 *   "readback" a typed number: what the field holds now.
 *   "checked"  a checkbox or radio after the page settled from the click.
 *   "validity" before a click on a submit button: the first field whose
 *              validation blocks the form, and the browser's message. */
return (async function(el, what, text, quiet, cap) {
// @include page_helpers.js
// @include form_block.js
  if (what === 'set') {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, text);
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    await new Promise(r => setTimeout(r, 0));
    return {value: String(el.value), message: el.validationMessage || ''};
  }
  if (what === 'readback') return {value: String(el.value), message: el.validationMessage || ''};
  if (what === 'checked') {
    /* from the click (its first input event, quiet_hook.js), with the cap */
    const q = window.__eous_quiet__;
    await settle({quiet, cap, mark: q && q.input < performance.now() ? q.input : null});
    return {checked: !!el.checked};
  }
  if (what === 'validity') return formBlock(el);
  return null;
}).apply(null, arguments);

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
  if (what === 'set') {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, text);
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    await new Promise(r => setTimeout(r, 0));
    return {value: String(el.value), message: el.validationMessage || ''};
  }
  if (what === 'readback') return {value: String(el.value), message: el.validationMessage || ''};
  if (what === 'checked') {
    await settle(quiet, cap);
    return {checked: !!el.checked};
  }
  if (what === 'validity') {
    const form = el.form;
    if (!form || el.formNoValidate || form.hasAttribute('novalidate')) return {blocked: false};
    const fields = Array.from(Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'elements').get.call(form));
    const bad = fields.find(f => f.willValidate && !f.validity.valid);
    if (!bad) return {blocked: false};
    const ids = (bad.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    let label = ids.map(i => { const r = document.getElementById(i); return r ? r.textContent : ''; }).join(' ').trim() ||
      bad.getAttribute('aria-label') || (bad.labels && bad.labels[0] ? bad.labels[0].textContent : '') ||
      bad.getAttribute('title') || bad.getAttribute('placeholder') || bad.getAttribute('name') || '';
    label = label.replace(/\s+/g, ' ').replace(/[\s:*]+$/, '').trim();
    return {blocked: true, label, message: bad.validationMessage || 'invalid'};
  }
  return null;
}).apply(null, arguments);

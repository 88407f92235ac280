/* formBlock(el): before a click on a form's submit control, the first field
 * whose validation blocks the form and the browser's message ({blocked,
 * label, message}), or {blocked: false}. */
const formBlock = el => {
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
};

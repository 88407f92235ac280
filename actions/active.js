/* The focused element's marks (press can activate it). */
return (function() {
// @include page_helpers.js
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement)
    el = el.shadowRoot.activeElement;
  const out = {url: String(location.href), w: innerWidth, h: innerHeight};
  if (!el || el === document.body) return out;
  out.hidden = !!closestDeep(el, '[data-agent-hidden]');
  const c = closestDeep(el, '[data-agent-confirm]');
  out.confirm = c ? (c.getAttribute('data-agent-confirm') || '') : null;
  out.role = el.getAttribute('role') || el.tagName.toLowerCase();
  out.name = norm(el.getAttribute('aria-label') || el.innerText || '').slice(0, 80);
  return out;
})();

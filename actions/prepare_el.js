/* prepareEl(el, scroll, wantType): checks a target's marks before any side
 * effect, scrolls it into view and says what it is (prepare.js hands back the
 * element with it; prepare_node.js, run on the node through CDP, its facts by
 * value with whether a click at its centre would reach it). */
const prepareEl = (el, scroll, wantType) => {
  if (!el || !el.isConnected) return {gone: true};
  const out = {url: String(location.href)};
  if (closestDeep(el, '[data-agent-hidden]')) { out.hidden = true; return out; }
  const c = closestDeep(el, '[data-agent-confirm]');
  out.confirm = c ? (c.getAttribute('data-agent-confirm') || '') : null;
  const comp = closestDeep(el, '[data-cid],[data-cid-owner]');
  out.cid = comp ? (comp.getAttribute('data-cid') || comp.getAttribute('data-cid-owner')) : null;
  if (scroll) {
    try { el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'}); }
    catch (e) { el.scrollIntoView(); }
  }
  const r = el.getBoundingClientRect();
  out.x = r.left + r.width / 2; out.y = r.top + r.height / 2; out.w = r.width; out.h = r.height;
  out.vw = innerWidth; out.vh = innerHeight;
  out.tag = el.tagName.toLowerCase(); out.role = el.getAttribute('role') || '';
  out.type = el.getAttribute('type') || '';
  out.name = norm(el.getAttribute('aria-label') || el.getAttribute('title') || el.innerText || el.value ||
    el.getAttribute('placeholder') || '').slice(0, 80);
  out.disabled = !!el.disabled || el.getAttribute('aria-disabled') === 'true';
  out.combobox = out.role === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox' ||
    !!(el.closest && el.closest(WIDGETS.comboboxRoot));
  out.el = el;
  if (wantType) {
    const ed = e => e && (e.isContentEditable || e.tagName === 'TEXTAREA' ||
      (e.tagName === 'INPUT' && !['button', 'submit', 'checkbox', 'radio', 'file', 'image', 'reset', 'range',
        'color', 'hidden'].includes((e.type || '').toLowerCase())));
    let te = el;
    /* a part of a date or time input (its spinbuttons live in the input's own
     * shadow root): typing goes to the input, which takes the value whole */
    const host = el.getRootNode && el.getRootNode().host;
    if (!ed(el) && host && host.tagName === 'INPUT' && !host.contains(el)) {
      te = host; out.tag = 'input'; out.type = host.getAttribute('type') || '';
    }
    if (!ed(te)) {
      const inner = el.querySelector('input:not([type=hidden]),textarea,[contenteditable=""],[contenteditable=true]');
      if (inner) te = inner;
    }
    out.typeEl = te; out.editable = ed(te);
    /* nothing to clear or to move the caret past: the keys that would do it are left out
     * (a Backspace in an empty tags field removes the last tag) */
    try { out.empty = te.isContentEditable ? !te.textContent : te.value === ''; } catch (e) { out.empty = false; }
    out.typeDisabled = !!te.disabled || !!te.readOnly;
  }
  return out;
};

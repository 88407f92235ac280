/* browser_drag in the page.  args: mode, the source element, the target element.
 * "probe": both scrolled into view as far as they fit; their centres in
 * viewport pixels, the page's marks over each (data-agent-hidden,
 * data-agent-confirm) and whether the source takes part in HTML5 drag and drop
 * (it or an ancestor is draggable="true"); from then on the browser's own
 * dragstart and drop are noted.
 * "fired": whether they came during the pointer drag (a recent chromedriver
 * turns pointer actions into a real drag; an older one or another driver fires
 * none).
 * "html5": when they did not, the sequence dispatched in the page with one
 * DataTransfer the page's handlers share, as a browser's own drag fires it:
 * dragstart, drag on the source; dragenter, dragover on the target; drop there
 * when a dragover handler accepted it (preventDefault); dragend on the source.
 * Returns what the page did. */
/* a text node of the view (StaticText) stands for the element holding it */
const [mode, src, dst] = Array.from(arguments, (n) => (n && n.nodeType === Node.TEXT_NODE ? n.parentElement : n));
if (!src || !dst || !src.isConnected || !dst.isConnected)
  return {gone: true};
const centre = (el) => {
  const r = el.getBoundingClientRect();
  return {x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2), w: r.width, h: r.height};
};
if (mode === 'probe') {
  src.scrollIntoView({block: 'center', inline: 'center'});
  const a = centre(src), b = centre(dst);
  /* the target off screen: bring it in, keeping the source in view when both fit */
  if (b.y < 0 || b.y > innerHeight || b.x < 0 || b.x > innerWidth)
    dst.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const draggable = src.closest('[draggable="true"]');
  const seen = window.__eous_drag_seen__ = {dragstart: false, drop: false};
  for (const t of ['dragstart', 'drop'])
    document.addEventListener(t, (e) => { if (e.isTrusted) seen[t] = true; }, {capture: true, once: true});
  const mark = (el) => { const c = el.closest('[data-agent-confirm]'); return c ? c.getAttribute('data-agent-confirm') || '' : null; };
  return {html5: !!draggable, s: centre(src), e: centre(dst), vw: innerWidth, vh: innerHeight,
          sHidden: !!src.closest('[data-agent-hidden]'), eHidden: !!dst.closest('[data-agent-hidden]'),
          sConfirm: mark(src), eConfirm: mark(dst)};
}
if (mode === 'fired') {
  const seen = window.__eous_drag_seen__ || {};
  delete window.__eous_drag_seen__;
  return {dragstart: !!seen.dragstart, drop: !!seen.drop};
}
const dt = new DataTransfer();
const s = centre(src), e = centre(dst);
const fire = (el, type, at) => {
  const ev = new DragEvent(type, {bubbles: true, cancelable: true, composed: true, dataTransfer: dt,
                                  clientX: at.x, clientY: at.y, screenX: at.x, screenY: at.y, view: window});
  return el.dispatchEvent(ev); /* false: a handler called preventDefault */
};
const from = src.closest('[draggable="true"]') || src;
if (!fire(from, 'dragstart', s))
  return {started: false};
fire(from, 'drag', s);
fire(dst, 'dragenter', e);
const accepted = !fire(dst, 'dragover', e);
let dropped = false;
if (accepted) {
  fire(dst, 'drop', e);
  dropped = true;
} else {
  fire(dst, 'dragleave', e);
}
fire(from, 'dragend', e);
return {started: true, accepted, dropped, types: Array.from(dt.types)};

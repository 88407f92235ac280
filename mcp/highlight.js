/* browser_highlight / browser_hide_highlight (--caps devtools): a box drawn over
 * an element until hidden or the page goes, following it as the page scrolls.
 * aria-hidden and pointer-events none, so neither eous's view nor a click sees
 * it.  args: mode ("show" | "hide"), the element (null with hide: every box),
 * style (CSS added to the box's own).  Answers 1 (done), 0 (no box to hide),
 * -1 (the element left the page). */
const [mode, el, style] = arguments;
const all = window.__eousHighlights || (window.__eousHighlights = new Map());
const drop = (e) => {
  const box = all.get(e);
  if (box) { box.remove(); all.delete(e); }
};
if (mode === 'hide') {
  if (el) {
    const had = all.has(el);
    drop(el);
    return had ? 1 : 0;
  }
  const n = all.size;
  for (const e of [...all.keys()]) drop(e);
  return n ? 1 : 0;
}
if (!el || !el.isConnected)
  return -1;
drop(el);
const box = document.createElement('div');
box.setAttribute('aria-hidden', 'true');
box.style.cssText = 'position:fixed;pointer-events:none;z-index:2147483647;box-sizing:border-box;' +
  'outline:2px solid #e0f;background:rgba(224,0,255,.15);' + (style || '');
(document.body || document.documentElement).appendChild(box);
all.set(el, box);
const place = () => {
  if (all.get(el) !== box) return;
  const r = el.getBoundingClientRect();
  Object.assign(box.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
  requestAnimationFrame(place);
};
place();
return 1;

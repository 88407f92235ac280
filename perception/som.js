/* Set-of-marks overlay for a vision screenshot.  arguments[0]: a list of
 * {label, kind, x, y, w, h} boxes in viewport pixels (CDP content quads) to
 * draw, or null to remove the overlay.  One fixed, pointer-events-free layer
 * on <html>, outside the page's flow: it covers the page without moving it,
 * and is removed right after the capture.  Returns the labels drawn (boxes
 * off screen are skipped) and the viewport, for the capture's clip. */
return (function(marks) {
  const id = '__eous_som__';
  const old = document.getElementById(id);
  if (old) old.remove();
  const view = {w: innerWidth, h: innerHeight, x: scrollX, y: scrollY, drawn: []};
  if (!marks) return view;
  const layer = document.createElement('div');
  layer.id = id;
  layer.setAttribute('aria-hidden', 'true');
  layer.style.cssText = 'position:fixed;left:0;top:0;width:0;height:0;overflow:visible;' +
    'z-index:2147483647;pointer-events:none;contain:layout;';
  const colours = {component: '#d81b60', element: '#1565c0'};
  for (const m of marks) {
    if (!(m.w > 0 && m.h > 0) || m.x >= view.w || m.y >= view.h || m.x + m.w <= 0 || m.y + m.h <= 0) continue;
    const c = colours[m.kind] || colours.element;
    const box = document.createElement('div');
    box.style.cssText = 'position:fixed;box-sizing:border-box;border:2px solid ' + c + ';' +
      'left:' + m.x + 'px;top:' + m.y + 'px;width:' + m.w + 'px;height:' + m.h + 'px;';
    const tag = document.createElement('div');
    tag.textContent = m.label;
    tag.style.cssText = 'position:absolute;left:-2px;top:' + (m.y >= 14 ? '-14px' : '0') + ';' +
      'background:' + c + ';color:#fff;font:bold 11px/13px monospace;padding:0 2px;white-space:nowrap;';
    box.appendChild(tag);
    layer.appendChild(box);
    view.drawn.push(m.label);
  }
  document.documentElement.appendChild(layer);
  return view;
})(arguments[0]);

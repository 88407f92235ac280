/* The coordinate tools (--caps vision): what is under viewport point (x, y),
 * so the action there is checked as a click on that element would be: the
 * element and up to 12 ancestors (the first one the view shows names it),
 * whether a data-agent-hidden region holds it and the nearest
 * data-agent-confirm sentence over it.  args: x, y, scroll (a wheel: the chain
 * starts at the nearest element there that scrolls, which is what the wheel moves). */
const [x, y, scroll] = arguments;
const el = document.elementFromPoint(x, y);
if (!el)
  return {none: true, vw: innerWidth, vh: innerHeight, url: location.href};
let top = el;
for (let e = el; scroll && e; e = e.parentElement) {
  const cs = getComputedStyle(e);
  if (/auto|scroll/.test(cs.overflowX + cs.overflowY) &&
      (e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth)) {
    top = e;
    break;
  }
}
const chain = [];
for (let e = top; e && chain.length < 13; e = e.parentElement)
  chain.push(e);
const conf = el.closest('[data-agent-confirm]');
return {chain, hidden: !!el.closest('[data-agent-hidden]'),
        confirm: conf ? conf.getAttribute('data-agent-confirm') || '' : null,
        tag: el.tagName.toLowerCase(), text: (el.innerText || el.value || '').trim().slice(0, 60),
        vw: innerWidth, vh: innerHeight, url: location.href};

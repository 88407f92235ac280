/* The coordinate tools (--caps vision): what is under viewport point (x, y),
 * so the action there is checked as a click on that element would be: the
 * element and up to 12 ancestors (the first one the view shows names it),
 * whether a data-agent-hidden region holds it and the nearest
 * data-agent-confirm sentence over it.  args: x, y. */
const [x, y] = arguments;
const el = document.elementFromPoint(x, y);
if (!el)
  return {none: true, vw: innerWidth, vh: innerHeight, url: location.href};
const chain = [];
for (let e = el; e && chain.length < 13; e = e.parentElement)
  chain.push(e);
const conf = el.closest('[data-agent-confirm]');
return {chain, hidden: !!el.closest('[data-agent-hidden]'),
        confirm: conf ? conf.getAttribute('data-agent-confirm') || '' : null,
        tag: el.tagName.toLowerCase(), text: (el.innerText || el.value || '').trim().slice(0, 60),
        vw: innerWidth, vh: innerHeight, url: location.href};

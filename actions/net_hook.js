/* Counts the page's fetch and XMLHttpRequest calls in flight and when the
 * last one started or ended, from the document's start, so a wait step's
 * network_idle (wait.js) can tell a quiet network.  Installed for every new
 * document through CDP; without CDP there is no record and such a wait says so. */
(function() {
  if (window.__eous_net__) return;
  const n = {pending: 0, last: performance.now()};
  const start = () => { n.pending++; n.last = performance.now(); };
  const end = () => { n.pending = Math.max(0, n.pending - 1); n.last = performance.now(); };
  try {
    const f = window.fetch;
    if (f) window.fetch = function() { start(); return f.apply(this, arguments).finally(end); };
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function() { start(); this.addEventListener('loadend', end, {once: true}); return send.apply(this, arguments); };
    window.__eous_net__ = n;
  } catch (e) {}
})();

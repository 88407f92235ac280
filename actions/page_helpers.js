/* Helpers shared by the executor's page scripts, included by the scripts
 * that use them (the @include rule in CMakeLists.txt). */
const closestDeep = (el, sel) => { /* closest() that climbs out of shadow roots */
  for (let n = el; n; ) {
    const c = n.closest ? n.closest(sel) : null;
    if (c) return c;
    const r = n.getRootNode ? n.getRootNode() : null;
    n = r && r.host ? r.host : null;
  }
  return null;
};
/* Resolves once readyState is complete and the DOM has been quiet for `quiet`
 * ms, or after `cap` ms. */
const settle = (quiet, cap) => new Promise(resolve => {
  const t0 = performance.now();
  let last = t0;
  let mo = null;
  try {
    mo = new MutationObserver(() => { last = performance.now(); });
    mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  } catch (e) {}
  const tick = () => {
    const now = performance.now();
    if (now - t0 >= cap || (document.readyState === 'complete' && now - last >= quiet)) {
      if (mo) mo.disconnect();
      resolve({ms: now - t0, capped: now - t0 >= cap});
      return;
    }
    setTimeout(tick, Math.max(10, Math.min(50, quiet / 3)));
  };
  tick();
});
const norm = t => String(t == null ? '' : t).replace(/\s+/g, ' ').trim();
const fold = t => norm(t).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

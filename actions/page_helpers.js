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
 * ms, or after `cap` ms.  Quiet counts from now, or with afterLoad (a new
 * document) from the later of its load event and its last change as
 * quiet_hook.js saw them since the document started: a page that went quiet
 * before our script arrived is not waited on again. */
const settle = (quiet, cap, afterLoad) => new Promise(resolve => {
  const t0 = performance.now();
  let last = t0;
  const q = afterLoad ? window.__eous_quiet__ : null;
  const nav = q && performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : null;
  if (q && nav && nav.loadEventEnd > 0 && document.readyState === 'complete')
    last = Math.min(t0, Math.max(nav.loadEventEnd, q.since, q.last));
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
    /* wake when the quiet time would be up (a change meanwhile moves it on), not a tick later */
    const left = document.readyState === 'complete' ? last + quiet - now : Math.min(50, quiet / 3);
    setTimeout(tick, Math.max(5, Math.min(left, t0 + cap - now)));
  };
  tick();
});
const norm = t => String(t == null ? '' : t).replace(/\s+/g, ' ').trim();
const fold = t => norm(t).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

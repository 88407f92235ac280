/* Popup options (antd Select/Cascader portals, ARIA listboxes): waits up to
 * waitMs for a visible option whose accessible name equals want; hit: a
 * pointer at its centre (x, y) lands on it.
 * args: want, waitMs. */
return (async function(want, waitMs) {
// @include page_helpers.js
// @include widgets.js
// @include hit_test.js
  const name = e => norm(e.getAttribute('aria-label') || e.getAttribute('title') || e.innerText || e.textContent);
  const visible = e => {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && !closestDeep(e, '[data-agent-hidden]');
  };
  /* looks again at the page's next change, or 40 ms on: a timer of the page's own
   * setTimeout (quiet_hook.js's) would hold the settle after the step */
  const st = (window.__eous_quiet__ && window.__eous_quiet__.st) || setTimeout;
  const changeOr40ms = () => new Promise(resolve => {
    let mo = null;
    const done = () => { if (mo) mo.disconnect(); resolve(); };
    try {
      mo = new MutationObserver(done);
      mo.observe(document.body || document.documentElement, {subtree: true, childList: true, attributes: true});
    } catch (e) {}
    st.call(window, done, 40);
  });
  const OPENING_MS = 2500;
  const t0 = performance.now();
  let names = [];
  for (;;) {
    let all = Array.from(document.querySelectorAll(WIDGETS.popupOption)).filter(visible);
    const opts = all.filter(e => !e.matches(WIDGETS.menuEntry));
    if (opts.length) all = opts;
    names = all.map(name);
    let hit = all.filter(e => name(e) === norm(want));
    if (!hit.length) hit = all.filter(e => fold(name(e)) === fold(want));
    if (hit.length) {
      const e = hit[0];
      const dis = e.getAttribute('aria-disabled') === 'true' || WIDGETS.disabledClass.test(e.className || '');
      const c = closestDeep(e, '[data-agent-confirm]');
      e.scrollIntoView({block: 'nearest', behavior: 'instant'});
      const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
      return {found: true, el: e, disabled: dis, confirm: c ? c.getAttribute('data-agent-confirm') : null,
        x, y, hit: r.width >= 1 && r.height >= 1 && reaches(e, x, y)};
    }
    /* only a menu's entries (a site's navigation) or nothing: the popup may still be opening, as an antd
     * select's does late on a loaded machine; its options are waited for longer */
    if (performance.now() - t0 >= (opts.length ? waitMs : Math.max(waitMs, OPENING_MS))) break;
    await changeOr40ms();
  }
  const a = document.activeElement;
  const canType = !!(a && a.tagName === 'INPUT' && !a.readOnly && !a.disabled);
  return {found: false, options: Array.from(new Set(names)).slice(0, 40), canType};
}).apply(null, arguments);

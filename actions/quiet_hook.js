/* What the page is still doing, recorded from the moment a document starts,
 * for settle (page_helpers.js): the time of its last change that matters,
 * the fetch/XHR requests in flight, the short timers pending, whether a
 * navigation has begun.  Installed for every new document through CDP;
 * without CDP the first settle installs it, so what ran before that is
 * unknown and settle counts from then.
 *
 * A change matters unless its target is animating: an element changed in
 * more than ANIM separate mutation batches within the last ANIM_MS (a clock
 * showing milliseconds, a spinner turned by script, a progress bar, even at
 * the few frames a second of a loaded machine) keeps changing without a
 * step having to wait for it.  A render is one batch; a chained render two
 * or three.
 * Timers: a setTimeout of at most TIMER_MAX ms (a debounced search's 300 ms,
 * a render deferred by 0 ms) is pending work; a longer one (a clock's
 * second, a poll) is not, nor one whose callback already ran since the
 * action (a polling loop re-arming itself), nor one set by a timer that
 * was set by a timer (a chain).
 * Requests: a fetch or XHR counts from its start to its end, except to a
 * URL that once stayed open longer than LONG ms (a long poll). */
(function() {
  if (window.__eous_quiet__) return;
  const now = () => performance.now();
  const st = window.setTimeout, ct = window.clearTimeout, f = window.fetch;
  const ANIM = 3, ANIM_MS = 2000, TIMER_MAX = 600, LONG = 1500;
  const q = {since: now(), last: 0, changes: 0, depth: 0, nav: 0, reqSeq: 0,
    reqs: new Map(), timers: new Map(), fired: new WeakMap(), longUrls: new Set(), st};
  window.__eous_quiet__ = q;
  const touch = () => { q.last = now(); };
  try {
    const seen = new WeakMap(); /* element -> times of its recent batches */
    new MutationObserver(recs => {
      const t = now(), batch = new Set();
      let matters = false;
      for (const r of recs) {
        if (batch.has(r.target)) continue;
        batch.add(r.target);
        const times = (seen.get(r.target) || []).filter(x => t - x < ANIM_MS);
        times.push(t);
        seen.set(r.target, times);
        if (times.length <= ANIM) matters = true;
      }
      if (matters) { q.last = t; q.changes++; }
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  } catch (e) {}
  try {
    window.setTimeout = function(fn, ms, ...rest) {
      const d = Number(ms) || 0;
      if (typeof fn !== 'function' || d > TIMER_MAX || q.depth > 1) return st.call(window, fn, ms, ...rest);
      const rec = {at: now(), due: now() + d, depth: q.depth, fn};
      let id = 0;
      const run = function() {
        q.timers.delete(id);
        q.fired.set(fn, now());
        const d0 = q.depth;
        q.depth = rec.depth + 1;
        try { return fn.apply(this, arguments); } finally { q.depth = d0; touch(); }
      };
      id = st.call(window, run, ms, ...rest);
      q.timers.set(id, rec);
      return id;
    };
    window.clearTimeout = function(id) {
      q.timers.delete(id);
      return ct.apply(window, arguments);
    };
  } catch (e) {}
  const begin = url => {
    const id = ++q.reqSeq;
    let u = '';
    try { u = String(new URL(String(url), location.href)).replace(/[?#].*$/, ''); } catch (e) {}
    q.reqs.set(id, {at: now(), url: u});
    return id;
  };
  const end = id => {
    const r = q.reqs.get(id);
    q.reqs.delete(id);
    if (r && now() - r.at > LONG && r.url) q.longUrls.add(r.url);
    touch();
  };
  try {
    if (typeof f === 'function')
      window.fetch = function(input) {
        const id = begin(input && input.url ? input.url : input);
        let p;
        try { p = f.apply(window, arguments); } catch (e) { end(id); throw e; }
        Promise.resolve(p).then(() => end(id), () => end(id));
        return p;
      };
  } catch (e) {}
  try {
    const X = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
    if (X) {
      const open = X.open, send = X.send;
      X.open = function(method, url) {
        this.__eous_url__ = url;
        return open.apply(this, arguments);
      };
      X.send = function() {
        const id = begin(this.__eous_url__);
        this.addEventListener('loadend', () => end(id), {once: true});
        try { return send.apply(this, arguments); } catch (e) { end(id); throw e; }
      };
    }
  } catch (e) {}
  try {
    /* a cross-document navigation has begun: the step waits for the new document */
    const nv = window.navigation;
    if (nv && nv.addEventListener) {
      nv.addEventListener('navigate', e => {
        if (e.destination && e.destination.sameDocument) return;
        q.nav = now();
        /* cancelled, or taken over by the page's router (then it ends here) */
        st(() => { if (e.defaultPrevented) q.nav = 0; }, 0);
      });
      nv.addEventListener('navigatesuccess', () => { q.nav = 0; touch(); });
      nv.addEventListener('navigateerror', () => { q.nav = 0; touch(); });
    }
    /* back to a document the back/forward cache kept: the navigation that left it is over */
    window.addEventListener('pageshow', e => { if (e.persisted) { q.nav = 0; touch(); } });
  } catch (e) {}
})();

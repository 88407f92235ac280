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
 * Inert timers: a callback that, each time it ran on this document, did
 * nothing a step could see — no change that matters, no request, no timer,
 * frame, message or navigation asked for, no promise returned, the focused
 * field, its value and its checked state as they were, then or in the
 * microtasks it left (a property a script sets on another control goes
 * unseen)
 * (antd's click listener on <html> forgets the pointer's position 100 ms
 * after every click) — is known by its delay and source text (q.inert), and
 * the settle does not wait for it again; one that once did something is
 * always waited for.  A timer armed after a key or input event (a search
 * debounced after typing) is waited for whatever its callback did before.
 * Armed by a key: a setTimeout or setInterval registered while a key or
 * input event is being dispatched (a live search's debounce, Redmine's
 * search interval reset on keyup) with a delay of at most KEY_MAX ms is
 * waited for until it first runs, even when the same callback ran since the
 * action or was set by a timer's timer (its named search function ran for an
 * earlier key); an interval the key did not arm is a poll.
 * Requests: a fetch or XHR counts from its start to its end, except to a
 * URL that once stayed open longer than LONG ms (a long poll); a fetch whose
 * body the page starts reading in the task its headers came in (r.json())
 * ends when that read does, so the answer's render is what follows it. */
(function() {
  if (window.__eous_quiet__) return;
  const now = () => performance.now();
  const st = window.setTimeout, ct = window.clearTimeout, f = window.fetch;
  const ANIM = 3, ANIM_MS = 2000, TIMER_MAX = 600, KEY_MAX = 1000, LONG = 1500;
  const si = window.setInterval, ci = window.clearInterval;
  /* doc: this document, as the settle tells a new one from the one it last settled (settle.js) */
  const q = {doc: Math.random().toString(36).slice(2, 12), since: now(), last: 0, changes: 0, depth: 0, nav: 0, reqSeq: 0, asked: 0, keyAt: -1, input: Infinity,
    inKey: false,
    reqs: new Map(), timers: new Map(), fired: new WeakMap(), longUrls: new Set(), inert: new Map(), st};
  window.__eous_quiet__ = q;
  const touch = () => { q.last = now(); };
  let mo = null, onRecs = null;
  try {
    const seen = new WeakMap(); /* element -> times of its recent batches */
    onRecs = recs => {
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
    };
    mo = new MutationObserver(onRecs);
    mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  } catch (e) {}
  /* the first trusted input event since the last settle (settle.js: when the
   * action began, in page time), and the last key or input event (a timer
   * armed after one is a debounce of typing) */
  const KEYS = new Set(['keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'compositionend', 'paste']);
  for (const type of ['pointerdown', 'mousedown', 'click', 'wheel', 'touchstart', ...KEYS])
    try {
      window.addEventListener(type, e => {
        const t = now();
        if (e.isTrusted && t < q.input) q.input = t;
        if (!KEYS.has(type)) return;
        q.keyAt = t;
        /* the key's dispatch: until it bubbles back to window, or its task ends
         * (a listener that stops propagation) */
        q.inKey = true;
        st.call(window, () => { q.inKey = false; }, 0);
      }, true);
      if (KEYS.has(type)) window.addEventListener(type, () => { q.inKey = false; }, false);
    } catch (e) {}
  /* more work asked for (a frame, a message: React's scheduler, a microtask); the
   * originals stay for the hook's and the settle's own use */
  const counted = (obj, name) => {
    try {
      const orig = obj && obj[name];
      if (typeof orig !== 'function') return null;
      obj[name] = function() { q.asked++; return orig.apply(this, arguments); };
      return orig;
    } catch (e) { return null; }
  };
  const qm = counted(window, 'queueMicrotask');
  counted(window, 'postMessage');
  q.post = counted(window.MessagePort && window.MessagePort.prototype, 'postMessage');
  /* frames asked for whose callback has not run yet (q.frames(): a call's trusted settle waits for them) */
  const raf = (() => {
    try {
      const orig = window.requestAnimationFrame, cancel = window.cancelAnimationFrame;
      if (typeof orig !== 'function') return null;
      const pending = new Set();
      q.frames = () => pending.size;
      window.requestAnimationFrame = function(fn) {
        q.asked++;
        if (typeof fn !== 'function') return orig.apply(window, arguments);
        const id = orig.call(window, function() { pending.delete(id); return fn.apply(this, arguments); });
        pending.add(id);
        return id;
      };
      if (typeof cancel === 'function')
        window.cancelAnimationFrame = function(id) { pending.delete(id); return cancel.apply(window, arguments); };
      return orig;
    } catch (e) { return null; }
  })();
  q.raf = raf ? fn => raf.call(window, fn) : null;
  const micro = fn => (qm ? qm.call(window, fn) : Promise.resolve().then(fn));
  const keys = new WeakMap(); /* callback -> its key in q.inert ('' when it has none) */
  const keyOf = (fn, d) => {
    let k = keys.get(fn);
    if (k === undefined) {
      let src = '';
      try { src = Function.prototype.toString.call(fn); } catch (e) {}
      /* a bound or native function shows no source: never known inert */
      k = !src || /\[native code\]\s*\}\s*$/.test(src) ? '' : d + ':' + src.length + ':' + src.slice(0, 400);
      keys.set(fn, k);
    }
    return k;
  };
  const state = () => {
    const a = document.activeElement;
    let v = null, c = null;
    try { v = a && 'value' in a ? a.value : null; c = a && 'checked' in a ? a.checked : null; } catch (e) {}
    return {changes: q.changes, reqSeq: q.reqSeq, asked: q.asked, nav: q.nav, a, v, c, url: location.href};
  };
  const changed = b => {
    if (mo) { const recs = mo.takeRecords(); if (recs.length) onRecs(recs); }
    const n = state();
    return n.changes !== b.changes || n.reqSeq !== b.reqSeq || n.asked !== b.asked || n.nav !== b.nav ||
      n.a !== b.a || n.v !== b.v || n.c !== b.c || n.url !== b.url;
  };
  /* what a callback's run showed; once it did something it is never inert */
  const learn = (k, did) => {
    if (!k || q.inert.get(k) === -1) return;
    q.inert.set(k, did ? -1 : (q.inert.get(k) || 0) + 1);
  };
  /* a pending timer whose callback ran on this document and never did anything */
  q.known = rec => q.inert.get(keyOf(rec.fn, rec.d)) > 0;
  try {
    window.setTimeout = function(fn, ms, ...rest) {
      q.asked++;
      const d = Number(ms) || 0, key = q.inKey && d <= KEY_MAX;
      if (typeof fn !== 'function' || (!key && (d > TIMER_MAX || q.depth > 1))) return st.call(window, fn, ms, ...rest);
      const rec = {at: now(), due: now() + d, depth: q.depth, fn, d, keyAt: q.keyAt, key};
      let id = 0;
      const run = function() {
        q.timers.delete(id);
        q.fired.set(fn, now());
        const d0 = q.depth;
        q.depth = rec.depth + 1;
        const k = keyOf(fn, d), before = state();
        let r;
        try {
          r = fn.apply(this, arguments);
          return r;
        } finally {
          q.depth = d0;
          if ((r != null && typeof r.then === 'function') || changed(before)) {
            learn(k, true);
            touch();
          } else {
            /* what it left to the microtasks after it, looked at once they ran */
            micro(() => micro(() => micro(() => {
              const did = changed(before);
              learn(k, did);
              if (did) touch();
            })));
          }
        }
      };
      id = st.call(window, run, ms, ...rest);
      q.timers.set(id, rec);
      return id;
    };
    window.clearTimeout = function(id) {
      q.timers.delete(id);
      return ct.apply(window, arguments);
    };
    /* an interval a key (re)armed: its first run is the search the key asked for */
    window.setInterval = function(fn, ms, ...rest) {
      q.asked++;
      const d = Number(ms) || 0;
      if (typeof fn !== 'function' || !q.inKey || d > KEY_MAX) return si.call(window, fn, ms, ...rest);
      const rec = {at: now(), due: now() + d, depth: 0, fn, d, keyAt: q.keyAt, key: true};
      let id = 0;
      const run = function() {
        q.timers.delete(id);
        const d0 = q.depth, before = state();
        q.depth = 1;
        try {
          return fn.apply(this, arguments);
        } finally {
          q.depth = d0;
          if (changed(before)) touch();
        }
      };
      id = si.call(window, run, ms, ...rest);
      q.timers.set(id, rec);
      return id;
    };
    window.clearInterval = function(id) {
      q.timers.delete(id);
      return ci.apply(window, arguments);
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
  const bodies = new WeakMap(); /* a fetch's Response -> its request, until its body is asked for */
  try {
    if (typeof f === 'function')
      window.fetch = function(input) {
        const id = begin(input && input.url ? input.url : input);
        let p;
        try { p = f.apply(window, arguments); } catch (e) { end(id); throw e; }
        Promise.resolve(p).then(res => {
          if (res && typeof res === 'object') bodies.set(res, id);
          /* the page's own then-callbacks run first: a body read they began holds the request */
          st.call(window, () => { const r = q.reqs.get(id); if (r && !r.body) end(id); }, 0);
        }, () => end(id));
        return p;
      };
    const R = window.Response && window.Response.prototype;
    for (const m of ['text', 'json', 'arrayBuffer', 'blob', 'formData']) {
      const orig = R && R[m];
      if (typeof orig !== 'function') continue;
      R[m] = function() {
        const id = bodies.get(this), r = id ? q.reqs.get(id) : null;
        const p = orig.apply(this, arguments);
        if (r) {
          bodies.delete(this);
          r.body = true;
          Promise.resolve(p).then(() => end(id), () => end(id));
        }
        return p;
      };
    }
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

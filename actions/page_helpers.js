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
/* Settles the page after an action; resolves {ms, capped, waited}.
 * o: {quiet, cap, afterLoad, mark, short, trust, navOut, quick}.
 * quiet > 0 (--settle quiet:MS): readyState complete and no DOM mutation for
 * `quiet` ms; quiet counts from now, or with afterLoad (a new document) from
 * the later of its load event and its last change as quiet_hook.js saw them
 * since the document started, so a page that went quiet before our script
 * arrived is not waited on again.
 * quiet == 0 (the rule): settled when readyState is complete, no
 * cross-document navigation has begun, no fetch/XHR that began since `mark`
 * (the action's start, page time) is in flight, no short timer set since
 * `mark` is pending (a debounce; not one whose callback is known inert,
 * unless a key of the action came before it; one a key's dispatch armed,
 * always), no CSS transition or animation of at most
 * a second that began since `mark` is running (unless it only paints: paintOnly), two animation frames passed without a change
 * that matters, and the last change, timer or response is `short` ms old
 * (chained renders).  What matters is quiet_hook.js's to say.
 * Either way at most `cap` ms; `waited` names what held it last.  With navOut
 * a navigation begun ends the rule at once, waited 'navigation': whether it
 * replaces the document (a slow server's answer may take longer than `cap`)
 * or comes to nothing here (a 204, a download) only the browser knows, and
 * the caller waits on it there (actions/ctx.c). */
const settle = o => {
  if (o.quiet > 0) return settleQuiet(o.quiet, o.cap, o.afterLoad);
  return settleRule(o.cap, o.mark == null ? performance.now() : o.mark, o.short == null ? 30 : o.short, o.trust,
                    o.navOut, o.quick);
};
const settleQuiet = (quiet, cap, afterLoad) => new Promise(resolve => {
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
  let due = t0;
  const tick = () => {
    const now = performance.now();
    /* a tick that ran late found a page that could not run either (a starved
     * renderer on a loaded machine): its silence is no quiet, so its overdue
     * timers go first and a tick on time looks again */
    const late = now - due > 50;
    if (now - t0 >= cap || (!late && document.readyState === 'complete' && now - last >= quiet)) {
      if (mo) mo.disconnect();
      resolve({ms: now - t0, capped: now - t0 >= cap, waited: now - t0 >= cap ? 'quiet' : ''});
      return;
    }
    /* wake when the quiet time would be up (a change meanwhile moves it on), not a tick later */
    const left = document.readyState === 'complete' ? last + quiet - now : Math.min(50, quiet / 3);
    const wait = late ? 5 : Math.max(5, Math.min(left, t0 + cap - now));
    due = now + wait;
    setTimeout(tick, wait);
  };
  tick();
});
/* An animation of how a thing is painted alone (a shadow, an outline, a colour: antd's click
 * wave on a button), not of where it is or whether it shows: decoration a step need not wait for. */
const PAINT_ONLY = /^(box-shadow|text-shadow|outline(-(color|width|offset|style))?|color|caret-color|fill|stroke|(background|border(-(top|right|bottom|left))?|text-decoration|column-rule)-color)$/;
const paintOnly = a => {
  if (a.transitionProperty) return PAINT_ONLY.test(a.transitionProperty);
  const props = new Set();
  try {
    for (const k of a.effect.getKeyframes())
      for (const p of Object.keys(k))
        if (!['offset', 'computedOffset', 'easing', 'composite'].includes(p))
          props.add(p.replace(/[A-Z]/g, c => '-' + c.toLowerCase()));
  } catch (e) { return false; }
  return props.size > 0 && [...props].every(p => PAINT_ONLY.test(p));
};
/* What still holds the page at time t ('' when nothing does), for settleRule. */
const settleBusy = (q, mark) => {
  if (document.readyState !== 'complete') return 'load';
  if (!q) return '';
  if (q.nav) return 'navigation';
  for (const r of q.reqs.values())
    if (r.at >= mark && !q.longUrls.has(r.url)) return 'request';
  for (const r of q.timers.values()) {
    if (r.at < mark) continue;
    /* armed in a key's dispatch (a live search's debounce): until it runs, whatever ran before */
    if (r.key) return 'timer';
    if (r.depth <= 1 && !(q.fired.get(r.fn) >= mark) &&
        /* known inert, unless armed after a key of this action (a debounce of typing) */
        !(q.known && !(r.keyAt >= mark) && q.known(r)))
      return 'timer';
  }
  try {
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running') continue;
      /* a short one (a menu opening, a fade): a longer one is decoration (a toast's countdown) */
      const end = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming().endTime : Infinity;
      const start = a.startTime == null ? performance.now() : a.startTime;
      if (end <= 1000 && start >= mark && !paintOnly(a)) return 'animation';
    }
  } catch (e) {}
  return '';
};
/* trust (a call whose page awaited its own settle before answering, call.js): settled at once when,
 * after the messages the page posted before (React's scheduler) ran, nothing changed, no work was
 * asked for since the answer, no frame the page asked for is pending and nothing above holds it;
 * otherwise the rule as always.  quick (the settle after an action, settle.js): the same check after
 * one frame (the page's frame callbacks, its resize and intersection observers and the transitions a
 * change started had their turn) and the posted messages' turn after it, when the hook saw the whole
 * action: what the action's own events caused is done, and nothing is left to chain another render. */
const settleRule = (cap, mark, short, trust, navOut, quick) => new Promise(resolve => {
  const t0 = performance.now();
  const q = window.__eous_quiet__ || null;
  /* without the hook (no CDP: this script installs it) a change before now is unknown */
  let last = q && q.last ? q.last : t0, seen = q ? q.changes : 0, frames = 0, waited = '';
  const st = (q && q.st) || setTimeout;
  const frame = fn => {
    let done = false;
    const go = () => { if (!done) { done = true; fn(); } };
    (q && q.raf ? q.raf : requestAnimationFrame)(go);
    st(go, 50); /* a hidden tab gets no frames */
  };
  const tick = () => {
    const now = performance.now();
    frames++;
    if (q) {
      if (q.changes !== seen) frames = 0;
      seen = q.changes;
      last = Math.max(last, q.last);
    }
    const busy = settleBusy(q, mark);
    if (busy) waited = busy;
    if (busy === 'navigation' && navOut) return resolve({ms: now - t0, capped: false, waited: busy});
    if (now - t0 >= cap) return resolve({ms: now - t0, capped: true, waited: busy || 'change'});
    if (!busy && frames >= 2 && now - last >= short) return resolve({ms: now - t0, capped: false, waited});
    frame(tick);
  };
  if (!((trust || (quick && q && q.since <= mark)) && q && q.post && q.frames && window.MessageChannel))
    return frame(tick);
  const asked = q.asked;
  /* one posted message's turn: after those the page posted, in order */
  const turn = () => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      if (q.changes === seen && q.asked === asked && !q.frames() && !settleBusy(q, mark))
        return resolve({ms: performance.now() - t0, capped: false, waited: trust ? 'trusted' : 'quick'});
      frame(tick);
    };
    q.post.call(ch.port2, null);
  };
  if (trust) turn();
  else frame(turn);
});
/* The value history's read the action's changes asked for (history_hook.js), taken when the action has
 * settled: its changes are stamped inside the action (the agent's), and no settle waits for its timer. */
const historyNow = () => {
  const H = window.__eous_history__;
  if (!H || !H.pending) return;
  clearTimeout(H.pending);
  try { H.check(); } catch (e) {}
};
const norm = t => String(t == null ? '' : t).replace(/\s+/g, ' ').trim();
const fold = t => norm(t).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

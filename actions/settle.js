/* Settle (page_helpers.js settle).  args: quiet (0 = the rule), cap (ms),
 * afterLoad (a new document: quiet counts from its load, and the rule from
 * its start), withDialogs (also
 * return the dialogs recorded meanwhile, see dialogs.js), since (ms since the
 * action began, as the caller measured it: what began since counts, or
 * since the action's first input event when the page saw one earlier), short
 * (the rule's quiet for chained renders), navOver (the `nav` this script
 * answered before, {doc, at}: the driver saw that navigation end; in its own
 * document it came to nothing and is forgotten, one begun since is not).
 * A navigation begun ends the rule at once (navOut), answered as `nav`: the
 * caller waits for it on the driver's side (actions/ctx.c).  lastDoc: the
 * document (`doc`, answered) the last settle ran in; another is a new one. */
return (async function(quiet, cap, afterLoad, withDialogs, since, shortQuiet, navOver, lastDoc) {
// @include quiet_hook.js
// @include page_helpers.js
// @include dialogs.js
  const q = window.__eous_quiet__;
  /* after the driver's wait for the navigation answered before (navOver): in its document it came to
   * nothing (a 204, a download) and is forgotten; any other document is the one it loaded */
  if (navOver && q) {
    if (q.doc !== navOver.doc) afterLoad = true;
    else if (q.nav === navOver.at) q.nav = 0;
  }
  /* not the document the last settle ran in: the action (or the page) loaded this one */
  if (lastDoc && q && q.doc !== lastDoc) afterLoad = true;
  let mark = performance.now() - (since || 0);
  /* the action's first input event: a driver slow to start this script
   * (a loaded machine) would put the mark after what the action began */
  if (q && q.input < mark) mark = q.input;
  /* a new document: all it began since its start came after the action, however late this script started
   * (a loaded machine's driver, the wait for a navigation: a timer its script armed at load is waited for) */
  if (afterLoad && q && q.since < mark) mark = q.since;
  const s = await settle({quiet, cap, afterLoad, mark, short: shortQuiet, navOut: true, quick: true});
  if (q) q.input = Infinity;
  historyNow();
  return {ms: s.ms, capped: s.capped, waited: s.waited,
    nav: s.waited === 'navigation' && q ? {doc: q.doc, at: q.nav} : undefined, doc: q ? q.doc : undefined, w: innerWidth, h: innerHeight, url: String(location.href),
    dialogs: withDialogs ? takeDialogs() : undefined};
}).apply(null, arguments);

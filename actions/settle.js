/* Settle (page_helpers.js settle).  args: quiet (0 = the rule), cap (ms),
 * afterLoad (a new document: quiet counts from its load), withDialogs (also
 * return the dialogs recorded meanwhile, see dialogs.js), since (ms since the
 * action began, as the caller measured it: what began since counts), short
 * (the rule's quiet for chained renders). */
return (async function(quiet, cap, afterLoad, withDialogs, since, shortQuiet) {
// @include quiet_hook.js
// @include page_helpers.js
// @include dialogs.js
  const mark = performance.now() - (since || 0);
  const s = await settle({quiet, cap, afterLoad, mark, short: shortQuiet});
  return {ms: s.ms, capped: s.capped, waited: s.waited, w: innerWidth, h: innerHeight, url: String(location.href),
    dialogs: withDialogs ? takeDialogs() : undefined};
}).apply(null, arguments);

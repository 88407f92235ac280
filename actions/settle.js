/* Settle: readyState complete and DOM quiet.  args: quiet, cap (ms),
 * afterLoad (a new document: quiet counts from its load, see settle),
 * withDialogs (also return the dialogs recorded meanwhile, see dialogs.js). */
return (async function(quiet, cap, afterLoad, withDialogs) {
// @include page_helpers.js
// @include dialogs.js
  const s = await settle(quiet, cap, afterLoad);
  return {ms: s.ms, capped: s.capped, w: innerWidth, h: innerHeight, url: String(location.href),
    dialogs: withDialogs ? takeDialogs() : undefined};
}).apply(null, arguments);

/* Settle: readyState complete and DOM quiet.  args: quiet, cap (ms). */
return (async function(quiet, cap) {
// @include page_helpers.js
  const s = await settle(quiet, cap);
  return {ms: s.ms, capped: s.capped, w: innerWidth, h: innerHeight, url: String(location.href)};
}).apply(null, arguments);

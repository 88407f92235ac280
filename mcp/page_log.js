/* Reads what page_hook.js kept for this document.  args: what ("console" or
 * "network").  console: {installed, dropped, list: [{level, text}]}; network:
 * {installed, dropped, list: [{method, url, type, status}]}, the document
 * itself and every other resource (Resource Timing: scripts, styles, images,
 * fonts: GET, type their initiator) before the fetch and XHR calls.
 * installed false: the hook came only now (no CDP): earlier entries are lost. */
const installed = !!window.__eous_console__;
// @include page_hook.js
if (arguments[0] === 'console') {
  const l = window.__eous_console__;
  return {installed, dropped: l.dropped, list: l.list};
}
const r = window.__eous_requests__;
const list = [];
const nav = performance.getEntriesByType('navigation')[0];
list.push({method: 'GET', url: location.href, type: 'document', status: nav && nav.responseStatus || 0});
for (const e of performance.getEntriesByType('resource')) {
  if (e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest') continue; /* the hook has them, with method */
  list.push({method: 'GET', url: e.name, type: e.initiatorType || 'other', status: e.responseStatus || 0});
}
return {installed, dropped: r.dropped, list: list.concat(r.list)};

/* Reads what history_hook.js recorded (this document's changes and, from
 * sessionStorage, the same origin's earlier pages'), after noticing any change
 * not yet seen.  {installed, doc, url, entries: [...], current: {"provider\tcomponent\tkey":
 * {label, value, secret, nk, gone?}}, sent: the page's calls other than GET
 * (mcp/page_hook.js, when the MCP server installed it)}. */
const installed = !!window.__eous_history__;
// @include history_hook.js
const H = window.__eous_history__;
if (H.pending) clearTimeout(H.pending);
const current = H.check();
const reqs = window.__eous_requests__ ? window.__eous_requests__.list : [];
const sent = reqs.filter((e) => e.method && e.method !== 'GET').map((e) => e.method + ' ' + e.url).slice(0, 20);
return {installed, doc: H.doc, url: location.href, entries: H.entries, current, sent};

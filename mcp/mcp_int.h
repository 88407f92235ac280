/* mcp/mcp_int.h — what the MCP transports (mcp.c's stdio loop, mcp_http.c)
 * share inside the agent module.  Not installed. */
#ifndef EOUS_MCP_MCP_INT_H
#define EOUS_MCP_MCP_INT_H

#include "mcp/mcp.h"

/* mcp_classify's kinds; a negative value is a JSON-RPC error code */
#define MCP_REQUEST 1
#define MCP_NOTIFICATION 2
#define MCP_RESPONSE 3

/* Where a server's messages go (text is one JSON message, already through the
 * secret redactor; borrowed for the call).  Set before any message is handled. */
typedef void (*mcp_emit_fn)(void *ud, const char *text);
void mcp_set_emit(mcp_server *m, mcp_emit_fn fn, void *ud);

/* The kind of msg, or a JSON-RPC error code with *why (static text); *id_out
 * is the id to answer with (borrowed from msg, NULL when it has none usable). */
int mcp_classify(const cJSON *msg, const cJSON **id_out, const char **why);

/* Handles one message (msg borrowed).  Requests must come one at a time;
 * responses and notifications/cancelled may come from another thread while a
 * request runs (they wake its waits).  Answers go through the emit function. */
void mcp_handle(mcp_server *m, const cJSON *msg);

/* Cancels the running request whose id is this very node (borrowed from the
 * message being handled: ids of different clients may be equal), as
 * notifications/cancelled does; nothing when another request runs. */
void mcp_cancel(mcp_server *m, const cJSON *id);

/* The client is gone: waits (elicitation, browser_wait_for) end now. */
void mcp_hangup(mcp_server *m);

/* The supported protocol version equal to asked (static), NULL when unknown. */
const char *mcp_protocol_version(const char *asked);

/* ---- 2026-07-28 (mcp.c) ---- */

/* 1 when msg is a request (not initialize) carrying _meta."io.modelcontextprotocol/protocolVersion". */
int mcp_is_modern(const cJSON *msg);
/* That version (borrowed from msg), NULL when absent or not a string. */
const char *mcp_modern_version(const cJSON *msg);
/* The JSON-RPC error response for a modern request eous cannot serve (an unsupported version with
 * the supported ones, no clientCapabilities, an unknown method) and its HTTP status (400, 404); NULL
 * with *http_status 200 when it can be served.  Caller frees. */
cJSON *mcp_modern_refusal(const cJSON *msg, int *http_status);

/* ---- the HTTP server as a handle (mcp_http.c): mcp_http_serve is
 * start, a tick every 200 ms until a signal, stop; the fuzz target and the
 * corpus replay drive it in-process ---- */

typedef struct mcp_http mcp_http;
/* Listening once it returns; the URL it bound (http://ADDR:PORT/mcp) in url. */
eous_rc mcp_http_start(const mcp_http_opts *o, mcp_http **out, char *url, size_t url_size,
                             eous_err *err);
/* Closes idle sessions (call it now and then). */
void mcp_http_tick(mcp_http *h);
/* Ends every session, stops every browser, frees h (NULL is fine). */
void mcp_http_stop(mcp_http *h);

/* ---- structured views (mcp_structured.c) ---- */

/* The outputSchema (JSON text, static) of browser_snapshot's and browser_call's structuredContent. */
const char *mcp_view_output_schema(void);
/* obs as {url, title, result?, components: [{id, key, kind, label, provider, state, disabled, visible,
 * confirm?, tools: [{name, description?, params?, inputSchema?, constraints?}]}]}; agent-hidden
 * components left out.  result (what the action did) may be NULL.  Caller frees; obs borrowed. */
cJSON *mcp_view_structured(const perc_obs *obs, const char *result);

/* ---- the page's own records and the view searched (mcp_page.c) ---- */

/* Keeps every new document's console messages and fetch/XHR calls (mcp/page_hook.js); CDP only. */
void mcp_page_hooks_install(wd_session *s);
/* The console messages of the current document at level or above ("error", "warning", "info" (NULL),
 * "debug"), one line each, through the secret redactor, into out. */
eous_rc mcp_page_console(wd_session *s, const char *level, eous_buf *out, eous_err *err);
/* The current document's requests: "METHOD URL → status (type)", URLs through eous_redact; scripts,
 * styles, images and fonts only with include_static. */
eous_rc mcp_page_network(wd_session *s, int include_static, eous_buf *out, eous_err *err);
/* The lines of view (a perc_obs text) holding text (any case) and/or of role with name in it, each
 * under the heading it stands below, at most 60 (then a count). */
eous_rc mcp_view_find(const char *view, const char *text, const char *role, const char *name, eous_buf *out,
                      eous_err *err);

#endif

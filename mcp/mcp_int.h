/* mcp/mcp_int.h — what the MCP transports (mcp.c's stdio loop, mcp_http.c)
 * share inside the agent module.  Not installed. */
#ifndef EOUS_MCP_MCP_INT_H
#define EOUS_MCP_MCP_INT_H

#include "mcp/mcp.h"

/* agent_mcp_classify's kinds; a negative value is a JSON-RPC error code */
#define AGENT_MCP_REQUEST 1
#define AGENT_MCP_NOTIFICATION 2
#define AGENT_MCP_RESPONSE 3

/* Where a server's messages go (text is one JSON message, already through the
 * secret redactor; borrowed for the call).  Set before any message is handled. */
typedef void (*agent_mcp_emit_fn)(void *ud, const char *text);
void agent_mcp_set_emit(agent_mcp *m, agent_mcp_emit_fn fn, void *ud);

/* The kind of msg, or a JSON-RPC error code with *why (static text); *id_out
 * is the id to answer with (borrowed from msg, NULL when it has none usable). */
int agent_mcp_classify(const cJSON *msg, const cJSON **id_out, const char **why);

/* Handles one message (msg borrowed).  Requests must come one at a time;
 * responses and notifications/cancelled may come from another thread while a
 * request runs (they wake its waits).  Answers go through the emit function. */
void agent_mcp_handle(agent_mcp *m, const cJSON *msg);

/* Cancels the running request whose id is this very node (borrowed from the
 * message being handled: ids of different clients may be equal), as
 * notifications/cancelled does; nothing when another request runs. */
void agent_mcp_cancel(agent_mcp *m, const cJSON *id);

/* The client is gone: waits (elicitation, browser_wait_for) end now. */
void agent_mcp_hangup(agent_mcp *m);

/* The supported protocol version equal to asked (static), NULL when unknown. */
const char *agent_mcp_protocol_version(const char *asked);

/* ---- 2026-07-28 (mcp.c) ---- */

/* 1 when msg is a request (not initialize) carrying _meta."io.modelcontextprotocol/protocolVersion". */
int agent_mcp_is_modern(const cJSON *msg);
/* That version (borrowed from msg), NULL when absent or not a string. */
const char *agent_mcp_modern_version(const cJSON *msg);
/* The JSON-RPC error response for a modern request eous cannot serve (an unsupported version with
 * the supported ones, no clientCapabilities, an unknown method) and its HTTP status (400, 404); NULL
 * with *http_status 200 when it can be served.  Caller frees. */
cJSON *agent_mcp_modern_refusal(const cJSON *msg, int *http_status);

/* ---- the HTTP server as a handle (mcp_http.c): agent_mcp_http_serve is
 * start, a tick every 200 ms until a signal, stop; the fuzz target and the
 * corpus replay drive it in-process ---- */

typedef struct agent_mcp_http agent_mcp_http;
/* Listening once it returns; the URL it bound (http://ADDR:PORT/mcp) in url. */
eous_rc agent_mcp_http_start(const agent_mcp_http_opts *o, agent_mcp_http **out, char *url, size_t url_size,
                             eous_err *err);
/* Closes idle sessions (call it now and then). */
void agent_mcp_http_tick(agent_mcp_http *h);
/* Ends every session, stops every browser, frees h (NULL is fine). */
void agent_mcp_http_stop(agent_mcp_http *h);

/* ---- structured views (mcp_structured.c) ---- */

/* The outputSchema (JSON text, static) of browser_snapshot's and browser_call's structuredContent. */
const char *agent_mcp_view_output_schema(void);
/* obs as {url, title, result?, components: [{id, key, kind, label, provider, state, disabled, visible,
 * confirm?, tools: [{name, description?, params?, inputSchema?, constraints?}]}]}; agent-hidden
 * components left out.  result (what the action did) may be NULL.  Caller frees; obs borrowed. */
cJSON *agent_mcp_view_structured(const perc_obs *obs, const char *result);

#endif

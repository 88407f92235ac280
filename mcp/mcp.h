/* mcp/mcp.h — eous as a Model Context Protocol server: JSON-RPC 2.0, one
 * message per line over a pair of streams (stdio for `eous mcp`), or
 * Streamable HTTP for many clients at once (mcp_http_serve, `eous mcp
 * --port`).
 *
 * Methods: initialize (protocol-version negotiation), ping, tools/list,
 * tools/call, logging/setLevel; notifications/initialized and
 * notifications/cancelled are accepted (a cancelled call stops at its next
 * wait and is never answered).  A call whose request carries
 * _meta.progressToken gets notifications/progress as it goes (browser start,
 * the action, reading the page, each second of a wait).  browser_snapshot
 * and browser_call declare an outputSchema and answer with structuredContent
 * (the components with ids, labels, state and tools) from 2025-06-18 on.  Tools are named like Playwright MCP's where the meaning is the
 * same (browser_navigate, browser_snapshot, browser_click, browser_type,
 * browser_select_option, browser_hover, browser_press_key,
 * browser_navigate_back, browser_tabs, browser_take_screenshot,
 * browser_wait_for, browser_close, browser_fill_form, browser_file_upload
 * (names in --files DIR only), browser_handle_dialog, browser_resize,
 * browser_console_messages, browser_network_requests, browser_find,
 * browser_drag; and under --caps as there, mcp_caps.c: pdf browser_pdf_save,
 * storage browser_cookie_list/_get/_set/_delete/_clear, browser_storage_state
 * and browser_set_storage_state, browser_localstorage_* and
 * browser_sessionstorage_*, tracing browser_start_tracing and
 * browser_stop_tracing, vision browser_mouse_move_xy/_click_xy/_drag_xy and
 * browser_mouse_down/_up/_wheel; mcp_network.c: network browser_route,
 * browser_route_list, browser_unroute, browser_network_state_set;
 * mcp_testing.c: testing browser_verify_element_visible/_text_visible/
 * _list_visible/_value and browser_generate_locator; mcp_highlight.c and
 * mcp_video.c: devtools browser_highlight, browser_hide_highlight,
 * browser_start_video, browser_stop_video), plus
 * browser_call (a component's own
 * tool, validated against its metadata M before the page sees it), one
 * page_<name> tool per WebMCP tool of the page last seen, and
 * browser_webmcp_list / browser_webmcp_call (the same page tools behind two
 * fixed tools, for clients that never re-read tools/list), and browser_history /
 * browser_undo (every value change of a component or form field, by the agent,
 * the page or a person; the agent's put back through each component's own
 * setter, mcp_history.c).  Every action
 * answers with the new view, or with deltas on (the default) what changed
 * since the view the client was sent last (perception/delta.h: a full view
 * after navigation, every few deltas, or when the delta would be large);
 * browser_snapshot is always the whole view.  A data-agent-confirm mark (or a confirm rule)
 * asks the person through elicitation/create when the client offers it;
 * otherwise the action is refused with a result that says a person is needed.
 * Everything written passes through the secret redactor.
 *
 * Protocol 2026-07-28 beside the older versions: a request (not initialize)
 * whose _meta names io.modelcontextprotocol/protocolVersion is served on its
 * own, with the capabilities and log level its _meta names; server/discover
 * answers; results carry resultType.  No elicitation on that version (it asks
 * through input_required results, which eous does not speak): a confirmation
 * is refused as without the capability.  An initialize chooses the older
 * version's semantics for the rest of the stream (stdio) or the session.
 *
 * The browser starts at the first tool call that needs it and stops on
 * browser_close, at the end of input, on SIGINT/SIGTERM, and in
 * mcp_free.
 *
 * Ownership: mcp_server is an opaque handle (_new / _free).  The policy and
 * secrets in the options are borrowed and must outlive it; strings too. */
#ifndef EOUS_MCP_MCP_H
#define EOUS_MCP_MCP_H

#include <stdio.h>

#include "core/core.h"
#include "perception/perc.h"

struct act_policy;
struct act_secrets;

typedef struct mcp_opts {
    perc_mode mode;                /* view for actions and browser_snapshot (default hybrid) */
    const char *webdriver;         /* remote WebDriver URL; NULL = spawn chromedriver */
    const char *debugger_address;  /* "HOST:PORT" of a running Chromium to attach to (wd_session_opts);
                                    * NULL = launch one */
    int w3c_only;                  /* never use CDP */
    int type_by_key;               /* --type keys: browser_type presses every character as a key (act_exec_opts) */
    int headed;                    /* show the browser window */
    struct act_policy *policy;     /* borrowed; NULL = any http(s) origin, page marks only */
    struct act_secrets *secrets;   /* borrowed; NULL = environment secrets only */
    const char *audit_path;        /* JSON-lines audit log, NULL = none */
    size_t max_message_bytes;      /* larger input lines get a JSON-RPC error; default 4 MiB */
    int deltas;                    /* 1 (default): actions answer with what changed; 0: the whole view */
    const char *policy_file;       /* with policy NULL: each server loads its own policy from this file */
    const char *log_name;          /* prefix of this server's log lines (an HTTP session's), NULL = none */
    const char *files_dir;         /* browser_file_upload takes files only from here (act_files_resolve);
                                    * NULL = uploads refused */
    const char *caps;              /* opt-in tool groups, comma-separated (mcp_caps_check); NULL = none */
    const char *out_dir;           /* --caps tasks: the run folder task_submit appends results.jsonl lines
                                    * and writes trace/ files to; NULL = task_start refused */
    const char *record_dir;        /* --record: each session's actions and the views they were taken on,
                                    * kept as a run `eous distill` reads (mcp_record.c); NULL = none */
} mcp_opts;

void mcp_opts_init(mcp_opts *o);

/* The opt-in capabilities, as Playwright MCP's --caps: "tasks" (task_list, task_start, task_submit),
 * "storage" (cookies and storage state), "tracing" (a Chromium trace), "vision" (coordinate mouse on
 * the screenshot), "pdf", "network" (routes: mocked, failed or re-headered requests; offline),
 * "testing" (assertions on the view, locators), "devtools" (highlight, video).
 * EOUS_E_INVALID naming the first unknown one in list. */
eous_rc mcp_caps_check(const char *list, eous_err *err);
/* 1 when the comma-separated list (NULL = empty) names cap. */
int mcp_caps_has(const char *list, const char *cap);

typedef struct mcp_server mcp_server;

eous_rc mcp_new(const mcp_opts *o, mcp_server **out, eous_err *err);
/* Serves requests read from in, answers written to out, until in ends or a
 * signal interrupts (EOUS_E_INTERRUPTED); the browser is stopped before it
 * returns.  Streams are borrowed. */
eous_rc mcp_serve(mcp_server *m, FILE *in, FILE *out, eous_err *err);
void mcp_free(mcp_server *m);

/* ---- Streamable HTTP (MCP 2025-11-25 transport) ----------------------------
 *
 * One endpoint, /mcp.  POST carries one JSON-RPC message: a request is
 * answered with application/json, or text/event-stream for tools/call (so
 * notifications and elicitation requests can come before the answer); a
 * notification or response gets 202.  initialize opens a session whose id
 * comes back in Mcp-Session-Id and must be sent with every later message;
 * DELETE ends it.  GET gets 405 (no server-initiated stream).  Each session is
 * its own mcp_server: its own browser (chromedriver and Chrome, so cookies,
 * storage and pages are never shared), deltas and confirmation prompts; its
 * requests run one at a time.  A session idle for idle_timeout_s is closed and
 * its browser stopped.
 *
 * 2026-07-28 requests need no session: their headers must repeat the body
 * (MCP-Protocol-Version, Mcp-Method, Mcp-Name; 400 with -32020 otherwise) and
 * they share one browser, started at the first and closed when idle; an
 * unsupported version is 400 with -32022, an unknown method 404; closing a
 * tool call's stream cancels it.
 *
 * DNS-rebinding protection: a request whose Host is not a loopback name, the
 * bound address or in allowed_hosts, or whose Origin (when sent) is not a
 * loopback origin or in allowed_origins, gets 403.  With a token every request
 * needs `Authorization: Bearer TOKEN` (compared in constant time) or gets 401.
 * Bodies larger than max_body_bytes get 413; an unknown session 404; a missing
 * one 400; an unsupported MCP-Protocol-Version 400.  Every refusal carries a
 * one-line JSON-RPC error. */

typedef struct mcp_http_opts {
    mcp_opts session;        /* each session's options; session.policy must be NULL (use policy_file):
                                    * a session's confirmation prompt is set on its own policy */
    const char *host;              /* address to bind; default 127.0.0.1 */
    int port;                      /* 0 = a free port */
    const char *allowed_origins;   /* comma-separated scheme://host[:port] besides loopback ones; "*" = any */
    const char *allowed_hosts;     /* comma-separated host names (Host header) besides loopback; "*" = any */
    const char *token;             /* bearer token, borrowed; NULL = none */
    int max_sessions;              /* default 16; initialize beyond it gets a JSON-RPC error */
    int idle_timeout_s;            /* default 1800; 0 = never */
    size_t max_body_bytes;         /* default 4 MiB */
    int request_timeout_s;         /* a request's body must come within this of its headers, and a connection
                                    * silent this long (not streaming an answer) is closed; default 60 */
    int header_timeout_s;          /* a request's headers must come within this of the connection opening (or
                                    * of the previous answer on a kept-alive one); default 10 */
    int max_client_connections;    /* connections one client address may hold; one more is closed at once;
                                    * default 32 (of 256 in all) */
    int require_origin;            /* a request without an Origin header gets 403 (browser clients only) */
    FILE *url_out;                 /* the bound URL is written here as one line once listening; NULL = not */
} mcp_http_opts;

void mcp_http_opts_init(mcp_http_opts *o);
/* Serves until SIGINT/SIGTERM (EOUS_E_INTERRUPTED) or a bind error; every
 * session's browser is stopped before it returns. */
eous_rc mcp_http_serve(const mcp_http_opts *o, eous_err *err);

#endif

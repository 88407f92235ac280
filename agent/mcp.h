/* agent/mcp.h — eous as a Model Context Protocol server: JSON-RPC 2.0, one
 * message per line, over a pair of streams (stdio for `eous mcp`).
 *
 * Methods: initialize (protocol-version negotiation), ping, tools/list,
 * tools/call; notifications/initialized and notifications/cancelled are
 * accepted.  Tools are named like Playwright MCP's where the meaning is the
 * same (browser_navigate, browser_snapshot, browser_click, browser_type,
 * browser_select_option, browser_hover, browser_press_key,
 * browser_navigate_back, browser_tabs, browser_take_screenshot,
 * browser_wait_for, browser_close), plus browser_call (a component's own
 * tool, validated against its metadata M before the page sees it) and one
 * page_<name> tool per WebMCP tool of the page last seen.  Every action
 * answers with the new view, or with deltas on (the default) what changed
 * since the view the client was sent last (perception/delta.h: a full view
 * after navigation, every few deltas, or when the delta would be large);
 * browser_snapshot is always the whole view.  A data-agent-confirm mark (or a confirm rule)
 * asks the person through elicitation/create when the client offers it;
 * otherwise the action is refused with a result that says a person is needed.
 * Everything written passes through the secret redactor.
 *
 * The browser starts at the first tool call that needs it and stops on
 * browser_close, at the end of input, on SIGINT/SIGTERM, and in
 * agent_mcp_free.
 *
 * Ownership: agent_mcp is an opaque handle (_new / _free).  The policy and
 * secrets in the options are borrowed and must outlive it; strings too. */
#ifndef EOUS_AGENT_MCP_H
#define EOUS_AGENT_MCP_H

#include <stdio.h>

#include "core/core.h"
#include "perception/perc.h"

struct act_policy;
struct act_secrets;

typedef struct agent_mcp_opts {
    perc_mode mode;                /* view for actions and browser_snapshot (default hybrid) */
    const char *webdriver;         /* remote WebDriver URL; NULL = spawn chromedriver */
    int w3c_only;                  /* never use CDP */
    int headed;                    /* show the browser window */
    struct act_policy *policy;     /* borrowed; NULL = any http(s) origin, page marks only */
    struct act_secrets *secrets;   /* borrowed; NULL = environment secrets only */
    const char *audit_path;        /* JSON-lines audit log, NULL = none */
    size_t max_message_bytes;      /* larger input lines get a JSON-RPC error; default 4 MiB */
    int deltas;                    /* 1 (default): actions answer with what changed; 0: the whole view */
} agent_mcp_opts;

void agent_mcp_opts_init(agent_mcp_opts *o);

typedef struct agent_mcp agent_mcp;

eous_rc agent_mcp_new(const agent_mcp_opts *o, agent_mcp **out, eous_err *err);
/* Serves requests read from in, answers written to out, until in ends or a
 * signal interrupts (EOUS_E_INTERRUPTED); the browser is stopped before it
 * returns.  Streams are borrowed. */
eous_rc agent_mcp_serve(agent_mcp *m, FILE *in, FILE *out, eous_err *err);
void agent_mcp_free(agent_mcp *m);

#endif

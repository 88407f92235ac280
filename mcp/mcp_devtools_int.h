/* mcp/mcp_devtools_int.h — a DevTools (CDP) connection of eous mcp's own to the
 * browser, beside chromedriver's: the browser target's WebSocket (its
 * debuggerAddress, loopback only), for what needs CDP events (a trace's end,
 * paused requests, screencast frames).  Messages are one JSON object each;
 * a session's commands carry its sessionId (Target.attachToTarget, flatten).
 * Not installed.  One thread uses a connection at a time. */
#ifndef EOUS_MCP_MCP_DEVTOOLS_INT_H
#define EOUS_MCP_MCP_DEVTOOLS_INT_H

#include <cjson/cJSON.h>

#include "core/err.h"
#include "webdriver/wd.h"

#define MCP_DEVTOOLS_MAX_MESSAGE ((size_t)64 * 1024 * 1024)

typedef struct mcp_devtools {
    int fd;       /* -1: closed */
    long next_id; /* the last command id sent */
} mcp_devtools;

/* Opens d to s's browser; tool names the caller in errors.  d->fd is -1 on failure. */
eous_rc mcp_devtools_open(wd_session *s, const char *tool, mcp_devtools *d, eous_err *err);
/* Closes d (fd -1 after; closed is fine). */
void mcp_devtools_close(mcp_devtools *d);
/* 0 once closed or the browser closed its end. */
int mcp_devtools_alive(const mcp_devtools *d);
/* Sends one command (session_id NULL: the browser target's); its id into *id_out (may be NULL). */
eous_rc mcp_devtools_send(mcp_devtools *d, const char *method, const cJSON *params, const char *session_id,
                          long *id_out, eous_err *err);
/* The next message, whole (caller frees), waiting up to 30 s for it. */
eous_rc mcp_devtools_recv(mcp_devtools *d, cJSON **msg, eous_err *err);
/* One browser-target command and its result (caller frees; result may be NULL); an event named want
 * (may be NULL) seen before the answer is kept in *event (caller frees), others are dropped. */
eous_rc mcp_devtools_call(mcp_devtools *d, const char *method, const cJSON *params, cJSON **result, const char *want,
                          cJSON **event, eous_err *err);
/* One command of session session_id (NULL: the browser target's) and its whole answer as the browser
 * sent it ({"id":N,"result":{...}}), unparsed: *text (caller frees) and *len; events before it are
 * dropped.  An error answer is an error.  For big results read by a scanner (the accessibility tree). */
eous_rc mcp_devtools_call_raw(mcp_devtools *d, const char *method, const cJSON *params, const char *session_id,
                              char **text, size_t *len, eous_err *err);
/* The next event named want (caller frees); others are dropped. */
eous_rc mcp_devtools_event(mcp_devtools *d, const char *want, cJSON **event, eous_err *err);

#endif

/* mcp/mcp_server_int.h — the MCP server's state and what a tool needs from it,
 * so each group of tools lives in its own file (mcp.c: the core browser tools;
 * mcp_tasks.c: --caps tasks; mcp_caps.c: storage, tracing, vision, pdf, drag;
 * mcp_history.c: history and undo; mcp_network.c: --caps network;
 * mcp_testing.c: --caps testing; mcp_highlight.c, mcp_video.c: --caps devtools).  Not installed.
 *
 * A tool file defines one mcp_tool_table (below) and mcp.c lists it in
 * mcp_tool_tables; a tool whose cap is set is offered only when the server was
 * started with that capability (--caps).  Every function here runs on the
 * thread serving the request. */
#ifndef EOUS_MCP_MCP_SERVER_INT_H
#define EOUS_MCP_MCP_SERVER_INT_H

#include <pthread.h>

#include "actions/exec.h"
#include "actions/policy.h"
#include "agent/browser.h"
#include "mcp/mcp_int.h"
#include "perception/delta.h"

struct mcp_server {
    mcp_opts o;
    int in_fd;               /* stdio: the client's messages; -1 under another transport */
    FILE *out;               /* stdio: where messages go */
    mcp_emit_fn emit;  /* another transport: where messages go (set with mcp_set_emit) */
    void *emit_ud;
    char rbuf[65536];
    size_t rpos, rlen;
    int eof;                 /* the client is gone (end of input, mcp_hangup); under io_lock */
    agent_browser b;
    int browser_open;
    act_exec *x;
    act_policy *policy;      /* o.policy or own_policy */
    act_policy *own_policy;
    perc_obs *obs;           /* the page as last seen */
    perc_delta *delta;       /* the view the client was last sent, for deltas; NULL: deltas off */
    char *page_tools_sig;    /* names of the page's WebMCP tools last announced */
    int initialized;
    int client_elicitation;  /* the client declared the elicitation capability */
    cJSON *busy_id;          /* id of the request being served (borrowed), for cancellation */
    int busy_cancelled;      /* under io_lock */
    long next_request_id;
    char pending_id[32];     /* our elicitation request awaiting its answer, "" when none; under io_lock */
    cJSON *pending_response; /* its answer once read; under io_lock */
    int log_level;           /* logging/setLevel: index in log_levels; -1 = the client never asked */
    const char *protocol;    /* the version initialize agreed (static); NULL before it */
    int modern;              /* a 2026-07-28 request is being served: its results carry resultType */
    int req_log_level;       /* that request's _meta logLevel (index in log_levels), -1 = none */
    cJSON *progress_token;   /* the running call's _meta.progressToken (owned), NULL: no progress wanted */
    int progress_n;          /* notifications/progress sent for it so far */
    struct mcp_caps_state *caps; /* mcp_caps.c's: the output folder, the audit log, a trace recording; owned */
    struct mcp_history *history; /* value changes and the agent's calls (mcp_history.c); owned, NULL until used */
    struct mcp_task_run *task;   /* --caps tasks: the task started and not yet submitted (mcp_tasks.c); owned */
    struct mcp_network *net;     /* --caps network: the routes and the thread answering them (mcp_network.c); owned */
    struct mcp_video *video;     /* --caps devtools: the recording and its thread (mcp_video.c); owned, NULL: none */
    struct mcp_ax *ax;           /* the views' accessibility tree on a DevTools connection of ours (mcp_ax.c); owned */
    struct mcp_record *record;   /* --record: this session's trace (mcp_record.c); owned, NULL until the first action */
    /* Under a transport with threads (HTTP) responses and notifications may arrive on
     * another thread while a request runs: they set the fields marked "under io_lock"
     * and signal io_cond.  Under stdio the lock is never contended. */
    pthread_mutex_t io_lock;
    pthread_cond_t io_cond;
};

/* ---- tools ---- */

typedef struct mcp_tool_out {
    eous_buf text;
    char *image_png_b64; /* browser_take_screenshot */
    cJSON *structured;   /* structuredContent (browser_snapshot, browser_call); owned */
} mcp_tool_out;

typedef eous_rc (*mcp_tool_fn)(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err);

typedef struct mcp_tool_def {
    const char *name;
    const char *description;
    const char *schema; /* JSON Schema of the arguments */
    int read_only;
    mcp_tool_fn fn;
    int structured;     /* answers with structuredContent (mcp_view_output_schema) */
    const char *cap;    /* offered only with this --caps capability; NULL = always */
} mcp_tool_def;

typedef struct mcp_tool_table {
    const mcp_tool_def *defs;
    size_t n;
} mcp_tool_table;

/* the tables of the tool files; each file owns its own */
extern const mcp_tool_table mcp_tasks_tools;   /* mcp_tasks.c */
extern const mcp_tool_table mcp_caps_tools;    /* mcp_caps.c */
extern const mcp_tool_table mcp_history_tools; /* mcp_history.c */
extern const mcp_tool_table mcp_network_tools; /* mcp_network.c */
extern const mcp_tool_table mcp_testing_tools; /* mcp_testing.c */
extern const mcp_tool_table mcp_highlight_tools; /* mcp_highlight.c */
extern const mcp_tool_table mcp_video_tools;     /* mcp_video.c */

/* History (mcp_history.c): the recorder installed on each new document (at browser start);
 * a tool call that may change the page, from begin to end, is the agent's (read_only: not);
 * freed with the server. */
void mcp_history_install(mcp_server *m);
void mcp_history_call_begin(mcp_server *m, const char *tool, int read_only);
void mcp_history_call_end(mcp_server *m);
void mcp_history_free(mcp_server *m);

/* mcp_caps.c's state freed (a trace still recording is dropped: the browser ends it). */
void mcp_caps_free(mcp_server *m);
/* The path of file name in the session's output folder (--out, else the audit log's folder, else a
 * folder of its own), or PREFIX-TIME.EXT when name is NULL or ""; a name with a folder is refused. */
eous_rc mcp_caps_out_path(mcp_server *m, const char *tool, const char *name, const char *prefix, const char *ext,
                          char *out, size_t n, eous_err *err);
/* An action a tool took itself, in the audit log (when there is one); message may be NULL. */
void mcp_caps_audit(mcp_server *m, const char *action, const char *url, eous_rc rc, const char *message);

/* --caps network (mcp_network.c): routing resumed in a new browser (at its start) and paused when it
 * stops (the routes stay); the requests a route answered appended to browser_network_requests' answer;
 * everything freed with the server. */
void mcp_network_browser_started(mcp_server *m);
void mcp_network_browser_stopped(mcp_server *m);
void mcp_network_routed(mcp_server *m, eous_buf *out);
void mcp_network_free(mcp_server *m);
/* --caps devtools (mcp_video.c): a recording still running is saved, then freed with the server. */
void mcp_video_free(mcp_server *m);
/* The views' accessibility tree on eous's own DevTools connection (mcp_ax.c): mcp_ax_use sets po to
 * read it so (the driver when it cannot); mcp_ax_free closes it (with the browser). */
void mcp_ax_use(mcp_server *m, perc_opts *po);
void mcp_ax_free(mcp_server *m);
/* An atomic action's clicks and keys, its prepare and hit test, the script that settles after it (with
 * the view's) and a call's script on that connection too (act_exec_set_input, act_exec_set_script on
 * m->x; the driver when it cannot, a call's only when it surely did not run). */
void mcp_input_use(mcp_server *m);

/* --record (mcp_record.c): action a, ended with rc (message: its error), kept with the view it was
 * taken on (m->obs, before the page is read again); mcp_record_free closes the session's trace. */
void mcp_record_action(mcp_server *m, const act_action *a, eous_rc rc, const char *message);
void mcp_record_free(mcp_server *m);

/* 1 when the server was started with capability cap (mcp_opts.caps). */
int mcp_has_cap(const mcp_server *m, const char *cap);
/* The open task (mcp_tasks.c), if any, ended unrecorded: its sites released. */
void mcp_tasks_free(mcp_server *m);

/* ---- what a tool uses (mcp.c) ---- */

/* Starts the browser at the first call that needs it. */
eous_rc mcp_ensure_browser(mcp_server *m, eous_err *err);
void mcp_stop_browser(mcp_server *m);
/* Reads the page in mode into m->obs (ids kept from the previous view of the same mode). */
eous_rc mcp_observe(mcp_server *m, perc_mode mode, eous_err *err);
/* Appends the view (or its delta since the view last sent; whole: the whole view) to out. */
void mcp_append_view_as(mcp_server *m, eous_buf *out, int whole);
void mcp_append_view(mcp_server *m, eous_buf *out);
/* Executes a (caller owns it) through policy, secrets and confirmation; writes its result line and,
 * with_view set, the new view. */
eous_rc mcp_run_action_as(mcp_server *m, const act_action *a, eous_buf *out, int with_view, eous_err *err);
eous_rc mcp_run_action(mcp_server *m, const act_action *a, eous_buf *out, eous_err *err);
/* One action of kind on target with text (either may be NULL), then the view. */
eous_rc mcp_act_on(mcp_server *m, act_kind kind, const char *target, const char *text, mcp_tool_out *out,
                   eous_err *err);
/* {ref} (or {target}) of args, "[12]" unwrapped, into out; an error naming tool when absent. */
eous_rc mcp_arg_ref(const char *tool, const cJSON *args, char *out, size_t n, eous_err *err);
/* notifications/progress for the running call, when its client asked for them. */
void mcp_progress(mcp_server *m, double done, double total, const char *message);
/* 1 once the running call was cancelled. */
int mcp_cancelled(mcp_server *m);
/* Sleeps ms, waking early on cancellation, a signal or the client leaving. */
void mcp_wait_interruptible(mcp_server *m, double ms);

#endif

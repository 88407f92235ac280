/* actions/act_int.h — helpers shared inside actions/ only (not installed API
 * in spirit: nothing outside actions/ should include this).
 *
 * Text matching (labels regardless of case and accents, whole words, globs)
 * and URL splitting used by the validator, the policy, secrets and the
 * executor: pure functions, outputs go to caller buffers.  Then the
 * executor's insides: its handle, and the services in ctx.c (settle, what a
 * script reported, results, asking) that exec.c and the workers (target.c,
 * atomic.c, call.c, nav.c) call. */
#ifndef EOUS_ACT_INT_H
#define EOUS_ACT_INT_H

#include <stddef.h>

#include "actions/audit.h"
#include "actions/exec.h"
#include "core/core.h"

/* Folds UTF-8 text to lowercase ASCII where it can: Latin accents dropped
 * ("Région" → "region"), ß → "ss", other bytes copied lowercased.  Writes at
 * most n-1 bytes plus NUL into out; returns the length written. */
size_t act_fold(const char *in, char *out, size_t n);

/* 1 when the words of `query` appear, as whole consecutive words, in `text`
 * (both folded): "name" finds "Display name", not "Username". */
int act_words_match(const char *query, const char *text);

/* Glob match with '*' and '?' over folded text (case and accent insensitive).
 * A NULL pattern matches anything. */
int act_glob(const char *pattern, const char *text);

/* A URL split the way a browser would for the parts policy cares about.
 * Leading spaces/controls are stripped and tabs/newlines removed first, as
 * the URL standard does, so "java\tscript:" is seen as "javascript:". */
typedef struct act_url {
    char scheme[32];   /* lowercased, without ':' ; "" when the URL has none */
    char host[256];    /* lowercased; IPv6 keeps its brackets */
    int port;          /* explicit or the scheme's default; 0 when unknown */
    int has_authority; /* "scheme://..." */
} act_url;

/* 0 on success, -1 when the text is not a URL we can judge (empty, too long,
 * a host with '%' escapes or spaces ...). */
int act_url_parse(const char *url, act_url *out);
/* "scheme://host:port" into out (port always written). */
void act_url_origin(const act_url *u, char *out, size_t n);

/* ---- the executor's insides ------------------------------------------- */

struct act_exec {
    wd_session *s;
    act_exec_opts o;
    act_policy *policy;     /* borrowed */
    act_secrets *secrets;   /* borrowed */
    act_audit *audit;       /* owned */
    int vw, vh;             /* last viewport size seen */
    unsigned long n_stash;  /* for unique stash names */
    unsigned seed;
    char url[2048];         /* last page URL seen */
    char settled_doc[40];   /* the document the last settle ran in (quiet_hook.js q.doc), "" none */
    /* dialogs the driver dismissed under one of our scripts ("unexpected
     * alert open"), reported with the step's own dialogs */
    char driver_dialogs[600];
    /* what the script that settled after the action being executed read, so
     * no round trip asks again: x->url is the page it led to; its dialogs */
    int settled_url;
    cJSON *settled_dialogs; /* owned; NULL when that script did not read them */
    cJSON *output;          /* owned: what read steps took, {name: value}; NULL before the first */
    cJSON *downloads;       /* owned: what download steps saved, [{name, size, mime, sha256, file}] */
    double act_t0;          /* eous_now_ms() when the action being executed began (0: none) */
    int settle_capped;      /* the last settle ended at the cap */
    char settle_waited[16]; /* what held it last: "request", "timer", ... ("" none) */
    /* act_exec_set_view_script: run after each settling script in its round trip; its last answer and
     * the session's round trips then (the answer is the page's only while no other went since) */
    const char *view_script;
    cJSON *view_args;       /* owned */
    cJSON *view_answer;     /* owned */
    unsigned long view_rt;
    act_input_fn input;     /* act_exec_set_input: clicks and keys on a DevTools connection; NULL: the driver */
    void *input_ctx;        /* borrowed */
    act_script_fn script;   /* act_exec_set_script: the settle's script on a DevTools connection; NULL: the driver */
    void *script_ctx;       /* borrowed */
    act_tabs_fn tabs;       /* act_exec_set_tabs: the open tabs counted on a DevTools connection; NULL: the driver */
    void *tabs_ctx;         /* borrowed */
};

/* What an atomic action acts on; act_target_free releases the element ids. */
typedef struct act_target {
    int backend_id;          /* 0 for css= targets */
    char *elem;              /* W3C element id of the target (owned) */
    char *type_elem;         /* W3C element id to type into (owned) */
    char *ref;               /* the element id built from backend_id and the view's prefix, or NULL (owned) */
    int prepared;            /* act_acquire_click's one script did act_acquire's work */
    int hit;                 /* a pointer at (hx, hy) reaches what is clicked (the field, for a type) */
    double hx, hy;
    int blocked;             /* the form's validation blocks this submit control: block_msg says why */
    char block_msg[384];
    const perc_node *node;   /* from the observation, or NULL */
    char what[256];          /* short "[12] button 'Search'" description */
    double x, y, w, h;
    char role[64], name[128], cid[128], tag[32], input_type[32];
    int combobox, editable, disabled, type_disabled;
    int empty;               /* the field to type into holds nothing */
    int has_confirm;         /* a data-agent-confirm mark covers the target */
    char confirm[512];
} act_target;

/* ctx.c: the executor's services (exec.c and the workers call them; they call neither) */
/* Keeps a dialog the driver dismissed under one of our scripts (e's alert
 * text) for the step's dialog report. */
void act_note_driver_dialog(act_exec *x, const eous_err *e);
/* Keeps the URL and viewport size a page script reported (url, w/h or vw/vh). */
void act_remember_url(act_exec *x, const cJSON *v);
/* act_remember_url for the answer of a script that settled after the action
 * (settle.js, call.js): also keeps that its URL is where the action led and
 * the dialogs it read (answer's "dialogs"), for act_execute's dialog report. */
void act_remember_settled(act_exec *x, const cJSON *v);
/* wd_execute for a script that settles after an action: with a view script set, that script runs
 * right after it in the same round trip (its answer kept for act_exec_take_view); *out is the
 * settling script's own answer either way.  reads_only: the script only waits and reads (the settle
 * rule), so when it fails on act_exec_set_script's hook it runs again through the driver; a script
 * that acts (a call's) goes on the hook too, through the driver only when the hook says it never ran. */
eous_rc act_execute_settling(act_exec *x, const char *script, const cJSON *args, int reads_only, cJSON **out,
                             eous_err *err);
/* wd_execute for a script that only reads (it may run twice: a scroll into view is no change), first on
 * act_exec_set_script's hook when set, through the driver after any failure there. */
eous_rc act_execute_read(act_exec *x, const char *script, const cJSON *args, cJSON **out, eous_err *err);
/* act_settle after the action being executed: after_load when a new document
 * was loaded (quiet counts from its load), dialogs read in the same script. */
eous_rc act_settle_after(act_exec *x, int after_load, double *ms_out, eous_err *err);
/* One-line result message (control characters become spaces). */
void act_res_msg(act_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A confirm sentence to the person (policy's interactive rule). */
eous_rc act_ask(act_exec *x, const char *sentence, const char *what, eous_err *err);

/* target.c */
void act_target_free(act_target *t);
/* a->target to a backend id (or, for css=, an element id); t zeroed by the caller. */
eous_rc act_resolve_target(act_exec *x, const perc_obs *obs, const act_action *a, act_target *t, eous_err *err);
/* Backend id to a live element with its facts and marks (prepare.js). */
eous_rc act_acquire(act_exec *x, act_target *t, int want_type, eous_err *err);
/* A click's or a type's target in one call (target.c): with t->ref, one
 * script (t->prepared, elements and facts as act_acquire gives them); else,
 * for a click, by CDP after the node's lookup.  t->hit 1 when a pointer at
 * (t->hx, t->hy) reaches what is clicked; without t->prepared the caller
 * goes on with act_acquire. */
eous_rc act_acquire_click(act_exec *x, act_target *t, int want_type, eous_err *err);
/* Policy rules over the element and its component, then confirm sentences. */
eous_rc act_check_target_policy(act_exec *x, const perc_obs *obs, const act_action *a, act_target *t,
                                eous_err *err);

/* call.c: k → component: view id or key; from scripts also a label or kind.
 * EOUS_E_NOT_FOUND (no message for model ids), EOUS_E_INVALID when ambiguous. */
eous_rc act_find_component(const perc_obs *obs, const act_action *a, const perc_component **out, eous_err *err);

/* atomic.c: click, type, hover, select on a resolved target; keys; scrolling */
eous_rc act_run_atomic(act_exec *x, const perc_obs *obs, const act_action *a, act_target *t, act_result *res,
                       eous_err *err);
eous_rc act_run_press(act_exec *x, const act_action *a, act_result *res, eous_err *err);
eous_rc act_run_scroll(act_exec *x, const act_action *a, act_result *res, eous_err *err);

/* input.c: atomic input as wd_click_at, wd_click_type_at and wd_type_keys send it (keys in their
 * syntax), on act_exec_set_input's hook as the DevTools events chromedriver makes of those actions
 * when the hook is set and every key has such an event here; otherwise (or when the hook could not
 * send anything) through the driver as before. */
eous_rc act_input_click_at(act_exec *x, double cx, double cy, eous_err *err);
eous_rc act_input_click_type_at(act_exec *x, double cx, double cy, const char *keys, eous_err *err);
eous_rc act_input_type_keys(act_exec *x, const char *keys, eous_err *err);
/* n DevTools commands (methods[i], params[i], borrowed) on the hook, else each through wd_cdp. */
eous_rc act_input_cdp(act_exec *x, int n, const char *const *methods, cJSON *const *params, eous_err *err);

/* call.c: a semantic call, or its atomic fallback */
eous_rc act_run_call(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err);

/* native_submit.c: after native_call.js passed a form's validation (answer v,
 * status "submit"), its stamped submit button is clicked and the page settles. */
eous_rc act_native_submit(act_exec *x, const perc_obs *obs, const perc_component *c, const cJSON *v,
                          const char *who, act_result *res, eous_err *err);

/* native_upload.c: a native file input's upload(files), the files from --files DIR only. */
eous_rc act_native_upload(act_exec *x, const perc_obs *obs, const perc_component *c, const act_action *a,
                          const char *who, act_result *res, eous_err *err);

/* nav.c */
eous_rc act_run_goto(act_exec *x, const act_action *a, act_result *res, double *settle_ms, eous_err *err);
eous_rc act_run_history(act_exec *x, const act_action *a, act_result *res, eous_err *err);
eous_rc act_run_tabs(act_exec *x, const act_action *a, act_result *res, eous_err *err);

#endif

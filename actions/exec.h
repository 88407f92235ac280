/* actions/exec.h — executes one action on the live page, semantic first.
 *
 * call(k, tool, params): find the component in the observation → the tool
 * exists → params validated in C against M (actions/validate.h) → policy
 * (actions/policy.h) → secrets expanded (actions/secrets.h) → the page's
 * own tool (window.__ci4a__.callTool, document.modelContext.executeTool, or
 * a ui-sdk bridge's agent.act) bounded by call_timeout_ms → settle → the
 * component's new state.  When the component is not registered or has no
 * such tool and the call maps onto an atomic action (click/press/open/
 * toggle/submit → click; setValue/type/fill with one text → type;
 * select/selectOption with one option → select), it runs atomically and
 * fallback_reason says why.
 *
 * Atomic actions resolve their target to a backend DOM node (observation
 * id, or for scripts "role 'name'", "role 'name' #2", "css=SELECTOR"),
 * check in the page that it is still connected (else EOUS_E_STALE: never a
 * click on another element), not inside data-agent-hidden and whether a
 * data-agent-confirm mark covers it, then act with real input events
 * (W3C element click, falling back to a pointer click at the element's
 * centre when another element intercepts the click; keys; wheel).
 *
 * After every action the page is let settle, capped at settle_cap_ms, by
 * the rule of page_helpers.js: readyState complete, no cross-document
 * navigation begun (one begun is waited for through the driver, past the
 * cap, until it ends: ctx.c), no fetch/XHR that began since the action in flight, no
 * short timer set since the action pending (a debounced search), no CSS
 * transition or animation of at most a second begun since the action running, two animation
 * frames without a change that matters (quiet_hook.js: not an element that
 * keeps changing, like a clock or a spinner), and the last change
 * EOUS_DEFAULT_SETTLE_SHORT_MS old (chained renders); or, when the action's
 * own events did the page's work, one frame and the page's posted messages
 * with nothing changed or asked for since ("quick").  With settle_quiet_ms
 * > 0 it is instead no DOM mutation for that long; after a goto that loads
 * a new document that quiet time counts from its load event (a mutation
 * record kept from the document's start says what changed since), so a
 * page already quiet is not waited on again.  The settling
 * script also reads the URL and the dialogs of the step.  Every
 * executed (or refused) action is appended to the audit log when one is
 * configured, with placeholders unexpanded and through eous_redact.
 *
 * Ownership: act_exec borrows the session, the policy and the secrets (they
 * must outlive it); it owns its audit log.  act_execute borrows obs and the
 * action.  act_result is caller storage; act_result_clear frees what
 * act_execute put in it (answer, state).  One act_exec per session/thread. */
#ifndef EOUS_ACT_EXEC_H
#define EOUS_ACT_EXEC_H

#include "actions/action.h"
#include "actions/policy.h"
#include "actions/secrets.h"
#include "core/core.h"
#include "perception/perc.h"
#include "webdriver/wd.h"

typedef struct act_exec act_exec;

typedef struct act_exec_opts {
    double call_timeout_ms;  /* bound on one page tool call, default 5000 */
    double settle_quiet_ms;  /* 0 (default): settle by the rule (see above); > 0: a fixed DOM quiet
                              * time that counts as settled (--settle quiet:MS) */
    double settle_cap_ms;    /* longest settle wait, default 3000 */
    const char *audit_path;  /* JSON-lines audit log appended to; NULL = none */
    int interactive;         /* -1 (default): leave the policy alone; 0/1 is applied to the policy set with act_exec_set_policy */
    const char *files_dir;   /* upload steps take files only from here (--files); NULL = uploads refused */
    const char *download_dir;/* download steps save here (created on first use); NULL = downloads refused */
    int type_by_key;         /* 1: a type sends every character as a key press; 0 (default): plain text of
                              * 4+ characters goes as one edit carried by its last character's key press (atomic.c) */
} act_exec_opts;

void act_exec_opts_init(act_exec_opts *o);

/* s is borrowed.  Opens the audit log when asked (EOUS_E_IO naming it). */
eous_rc act_exec_new(wd_session *s, const act_exec_opts *o, act_exec **out, eous_err *err);
void act_exec_free(act_exec *x);

/* Borrowed; NULL restores the built-in policy: scheme rules, navigation only
 * within the origin of the page being left, no rules, nobody to ask. */
void act_exec_set_policy(act_exec *x, act_policy *p);
/* Borrowed; NULL: environment secrets only. */
void act_exec_set_secrets(act_exec *x, act_secrets *sec);
/* A perception script (perc_providers_request) run in the round trip of the script that settles
 * after each action (the settle, a call's script), right after it, so the caller reads the view
 * from its answer (perc_opts.answer) one round trip sooner.  script: static, borrowed; args copied;
 * script NULL: none (the default). */
eous_rc act_exec_set_view_script(act_exec *x, const char *script, const cJSON *args, eous_err *err);
/* That script's answer in the last action (caller owns), NULL when it did not run or anything went to
 * the browser after it (a later round trip may have changed the page). */
cJSON *act_exec_take_view(act_exec *x);

/* An input hook: sends commands, a JSON array of {"method": "Input.dispatchMouseEvent" |
 * "Input.dispatchKeyEvent" | "Input.insertText", "params": {...}}, in order to the driver's current
 * tab over a DevTools connection of the caller's own, each answered by the browser before the next
 * (~1 ms each against the driver's request of 5-20 ms).  *sent: how many were written to the
 * connection, 0 when it failed before the first (the executor then sends the same input through the
 * driver).  A JavaScript dialog that opens while a command waits: EOUS_OK, the rest not sent (the
 * page waits on the dialog; the driver's next request meets it, as after its own actions). */
typedef eous_rc (*act_input_fn)(void *ctx, const cJSON *commands, int *sent, eous_err *err);
/* Atomic actions' clicks and keys go through fn (ctx its first argument, borrowed) when set, as the
 * same DevTools Input events chromedriver sends for them (actions/input.c); NULL (the default): the
 * driver's W3C actions.  Input that has no exact equivalent here (a key not in input.c's table) and
 * W3C-only sessions use the driver. */
void act_exec_set_input(act_exec *x, act_input_fn fn, void *ctx);
/* A script hook: runs script (a function body reading `arguments`, as wd_execute takes it) with args
 * (JSON; top-level element references as wd_element_ref makes them) in the driver's current tab over
 * the caller's own DevTools connection, awaiting what it returns (up to ACT_SCRIPT_HOOK_WAIT_MS); *out
 * its answer as JSON with elements as the driver's references (caller frees).  acts: the script acts
 * (a call): *ran must say whether it may have begun in the page (1 once it was sent to be applied; 0
 * when it surely was not: not connected, not compiled, refused as never applied).  A failure with
 * *ran 0: the executor runs it through the driver; with *ran 1 the failure is the action's (it never
 * runs twice). */
typedef eous_rc (*act_script_fn)(void *ctx, const char *script, const cJSON *args, int acts, int *ran, cJSON **out,
                                 eous_err *err);
#define ACT_SCRIPT_HOOK_WAIT_MS 30000.0
/* The page scripts of an action go through fn when set, each compiled once by the hook: the driver's
 * handling of a 100-180 kB request costs 20-100 ms and V8 compiling it 15-20 ms.  The settle after an
 * atomic action with the view's script, an atomic click's or type's prepare and hit test (reads: after
 * a failure they run through the driver), and a call's script with the view's (it acts: see *ran; on
 * the hook only when its timeout and settle cap end well within the hook's wait). */
void act_exec_set_script(act_exec *x, act_script_fn fn, void *ctx);
/* A tab hook: *count the browser's open tabs as the driver lists them (its window handles: the page
 * targets), from the caller's own DevTools connection.  Any failure: the driver is asked. */
typedef eous_rc (*act_tabs_fn)(void *ctx, int *count, eous_err *err);
/* act_exec_observe asks fn first when set (ctx its first argument, borrowed): a lone tab needs no
 * driver request (its title is the view's); several are read through the driver, in its order. */
void act_exec_set_tabs(act_exec *x, act_tabs_fn fn, void *ctx);

typedef struct act_result {
    act_path path;               /* how it ran (act_path_name: the trace's word) */
    char fallback_reason[256];   /* why a call ran atomically; "" otherwise */
    char message[4096];          /* one line for the trace and the model: the result or the error */
    double act_ms;               /* acting, including the page tool call */
    double settle_ms;            /* waiting for the page to settle afterwards */
    int settle_capped;           /* the settle ended at settle_cap_ms, not by its rule */
    char settle_waited[16];      /* what the settle waited on last: "request", "timer", "navigation",
                                  * "animation", "load", "change" (a page that never stops changing:
                                  * with capped), "quiet" (quiet:MS capped) or "" */
    int stopped;                 /* ACT_STOP */
    char *answer;                /* ACT_STOP's answer (owned; act_result_clear frees) */
    cJSON *state;                /* the component's new S after a call (owned), else NULL */
    int dialog;                  /* the page opened a dialog during the action (message says which) */
    int attempts;                /* set by the caller that retried the step: attempts it took (0 = one) */
} act_result;

/* Executes a against the page obs was taken from (obs may be NULL for
 * actions that need no target: press, scroll, goto, go_back, go_forward,
 * tab_focus, close_tab, stop, and script targets "css=..."). res is filled
 * on success and on failure (message = the error); act_result_clear it
 * afterwards either way. Errors: EOUS_E_NOT_FOUND (no such id/component/
 * tool/option), EOUS_E_INVALID (ambiguous script target, bad action),
 * EOUS_E_REJECTED (params), EOUS_E_POLICY, EOUS_E_STALE, EOUS_E_PAGE (the
 * page's tool threw; its message kept), EOUS_E_TIMEOUT, EOUS_E_INFRA. */
eous_rc act_execute(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err);
void act_result_clear(act_result *r);

/* What a acts on in obs, without touching the page: for call the component
 * (*comp), for an atomic action with an id or "role 'name'" target the node's
 * backend id (*backend_id); css= targets and actions without a target give
 * neither (EOUS_OK, *comp NULL, *backend_id 0).  EOUS_E_NOT_FOUND (or
 * EOUS_E_INVALID for an ambiguous script label) when obs does not show it.
 * Used to group script steps into batches and to find stale batch targets. */
eous_rc act_locate(const perc_obs *obs, const act_action *a, const perc_component **comp, int *backend_id,
                   eous_err *err);

/* Records in the audit log (when there is one) that a was planned but not
 * run, and why (a batch stopped before it). */
void act_exec_note_not_run(act_exec *x, const act_action *a, const char *reason);

/* Waits for the page to settle (see above); *ms_out (may be NULL) gets the wait. */
eous_rc act_settle(act_exec *x, double *ms_out, eous_err *err);
/* act_settle for a document the caller loaded itself (an evaluator's page):
 * what the page began since began_ms (eous_now_ms() before the navigation:
 * its scripts' timers and requests) counts as the action's. */
eous_rc act_settle_loaded(act_exec *x, double began_ms, double *ms_out, eous_err *err);
/* How the last settle ended: 1 at the cap, 0 by its rule; *waited (may be
 * NULL) gets what held it last, as act_result.settle_waited (borrowed). */
int act_settle_capped(const act_exec *x, const char **waited);

/* The browser's open tabs, in window-handle order: the indices tab_focus takes. */
typedef struct act_tabs {
    int count;
    int current;     /* the tab the session is on */
    char **titles;   /* count titles (owned; act_tabs_clear frees), NULL when count <= 1 */
    char **urls;     /* count URLs, only from act_tabs_read_urls (owned), else NULL */
} act_tabs;

/* Reads the open tabs.  With more than one, visits each to read its title and
 * comes back to the current one (2 round trips a tab); with one, a single
 * round trip.  On failure t is cleared and the session is back where it was
 * when it could be switched back. */
eous_rc act_tabs_read(wd_session *s, act_tabs *t, eous_err *err);
/* act_tabs_read with every tab's title and URL, also when there is one tab
 * (a round trip more per tab): what a tab listing shows. */
eous_rc act_tabs_read_urls(wd_session *s, act_tabs *t, eous_err *err);
void act_tabs_clear(act_tabs *t);

/* perc_observe with o's tab fields filled from the browser's open tabs, so
 * the view's tab header lists every tab (o is left as it was). */
eous_rc act_observe(wd_session *s, const perc_opts *o, perc_obs **out, eous_err *err);
/* act_observe in x's session, its tabs counted on act_exec_set_tabs's hook when set. */
eous_rc act_exec_observe(act_exec *x, const perc_opts *o, perc_obs **out, eous_err *err);
/* After an action that may have navigated: when the page it led to is refused
 * by pol, goes back and returns EOUS_E_POLICY ("the action led to URL, which
 * policy refuses (went back): why"); EOUS_OK otherwise (also when the URL
 * cannot be read). */
eous_rc act_check_landing(wd_session *s, const act_policy *pol, eous_err *err);
/* act_check_landing for the action x executed last: the URL the page script
 * that settled after it read (no round trip), else the driver's. */
eous_rc act_exec_check_landing(act_exec *x, const act_policy *pol, eous_err *err);

#endif

/* actions/exec.c — executes one action on the live page, semantic first
 * (see exec.h): the executor handle, dispatch, the step's dialogs and the
 * audit line.  Calls run one way: exec.c → the workers (targets in
 * target.c, element actions in atomic.c, semantic calls in call.c,
 * navigation and tabs in nav.c) → ctx.c (settle, results, what a script
 * reported, asking a person), which calls neither.  The page scripts are the
 * .js files of actions/. */
#include "actions/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/audit.h"
#include "actions/rpa_int.h"
#include "actions/secrets.h"
#include "actions/dialog_hook_js.h"
#include "actions/dialog_take_js.h"
#include "actions/net_hook_js.h"
#include "actions/quiet_hook_js.h"
#include "perception/webmcp_hook_js.h" /* PERC_WEBMCP_HOOK_JS */

void act_exec_opts_init(act_exec_opts *o)
{
    memset(o, 0, sizeof *o);
    o->call_timeout_ms = EOUS_DEFAULT_CALL_TIMEOUT_MS;
    o->settle_quiet_ms = EOUS_DEFAULT_SETTLE_QUIET_MS;
    o->settle_cap_ms = EOUS_DEFAULT_SETTLE_CAP_MS;
    o->interactive = -1;
}


/* Dialogs the page opened since the last call, as "; the page opened ... (dismissed)". */
static void take_dialogs(act_exec *x, char *out, size_t out_size)
{
    out[0] = '\0';
    cJSON *v = x->settled_dialogs; /* read by the settle after the action: no round trip */
    x->settled_dialogs = NULL;
    eous_err e;
    eous_err_clear(&e);
    eous_rc rc = v ? EOUS_OK : wd_execute(x->s, ACT_DIALOG_TAKE_JS, NULL, &v, &e);
    if (rc == EOUS_E_PAGE && !strcmp(e.code, "unexpected alert open")) {
        /* the dialog was still up: the driver dismissed it now; read again */
        act_note_driver_dialog(x, &e);
        cJSON_Delete(v);
        v = NULL;
        rc = wd_execute(x->s, ACT_DIALOG_TAKE_JS, NULL, &v, &e);
    }
    int recorded = !rc && cJSON_GetArraySize(v) > 0;
    if (recorded || x->driver_dialogs[0]) {
        size_t n = (size_t)snprintf(out, out_size, "; the page opened ");
        const cJSON *d;
        int first = 1;
        /* the hook saw it when it was installed; else only the driver did */
        if (x->driver_dialogs[0] && !recorded) {
            n += (size_t)snprintf(out + n, out_size - n, "%s", x->driver_dialogs);
            first = 0;
        }
        x->driver_dialogs[0] = '\0';
        cJSON_ArrayForEach(d, v) {
            if (!cJSON_IsString(d) || n >= out_size)
                continue;
            n += (size_t)snprintf(out + n, out_size - n, "%s%s", first ? "" : ", ", d->valuestring);
            first = 0;
        }
        /* a dialog answered beforehand (browser_handle_dialog) says so itself */
        if (n < out_size && !strstr(out, " (answered: "))
            snprintf(out + n, out_size - n, " (dismissed)");
    }
    cJSON_Delete(v);
}


eous_rc act_exec_new(wd_session *s, const act_exec_opts *o, act_exec **out, eous_err *err)
{
    *out = NULL;
    act_exec *x = calloc(1, sizeof *x);
    if (!x)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory creating an executor");
    x->s = s;
    if (o)
        x->o = *o;
    else
        act_exec_opts_init(&x->o);
    if (x->o.call_timeout_ms <= 0)
        x->o.call_timeout_ms = EOUS_DEFAULT_CALL_TIMEOUT_MS;
    if (x->o.settle_quiet_ms < 0)
        x->o.settle_quiet_ms = 0; /* the rule */
    if (x->o.settle_cap_ms <= 0)
        x->o.settle_cap_ms = EOUS_DEFAULT_SETTLE_CAP_MS;
    x->vw = EOUS_DEFAULT_WINDOW_WIDTH;
    x->vh = EOUS_DEFAULT_WINDOW_HEIGHT;
    x->seed = (unsigned)((unsigned long)eous_now_ms() ^ (unsigned long)(size_t)x);
    /* every new document records its dialogs, its last change and what its
     * WebMCP tools throw, from its start */
    const char *const hooks[] = {ACT_DIALOG_HOOK_JS, ACT_QUIET_HOOK_JS, PERC_WEBMCP_HOOK_JS, ACT_NET_HOOK_JS};
    for (size_t i = 0; i < sizeof hooks / sizeof *hooks && wd_session_has_cdp(s); i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "source", hooks[i]);
        cJSON *r = NULL;
        wd_cdp(s, "Page.addScriptToEvaluateOnNewDocument", p, &r, NULL);
        cJSON_Delete(r);
        cJSON_Delete(p);
    }
    if (x->o.audit_path && *x->o.audit_path) {
        eous_rc rc = act_audit_open(x->o.audit_path, &x->audit, err);
        if (rc) {
            free(x);
            return rc;
        }
    }
    *out = x;
    return EOUS_OK;
}

void act_exec_free(act_exec *x)
{
    if (!x)
        return;
    act_audit_close(x->audit);
    cJSON_Delete(x->view_args);
    cJSON_Delete(x->view_answer);
    cJSON_Delete(x->settled_dialogs);
    cJSON_Delete(x->output);
    cJSON_Delete(x->downloads);
    free(x);
}

void act_exec_set_policy(act_exec *x, act_policy *p)
{
    x->policy = p;
    if (p && x->o.interactive >= 0)
        act_policy_set_interactive(p, x->o.interactive);
}

void act_exec_set_secrets(act_exec *x, act_secrets *sec)
{
    x->secrets = sec;
}

void act_exec_set_input(act_exec *x, act_input_fn fn, void *ctx)
{
    x->input = fn;
    x->input_ctx = ctx;
}

void act_exec_set_script(act_exec *x, act_script_fn fn, void *ctx)
{
    x->script = fn;
    x->script_ctx = ctx;
}

void act_exec_set_tabs(act_exec *x, act_tabs_fn fn, void *ctx)
{
    x->tabs = fn;
    x->tabs_ctx = ctx;
}

void act_result_clear(act_result *r)
{
    if (!r)
        return;
    free(r->answer);
    cJSON_Delete(r->state);
    memset(r, 0, sizeof *r);
    r->path = ACT_PATH_NONE;
}

/* ======================================================================
 * Results
 * ====================================================================== */

/* Secrets must not reach the trace or the model through a message or state. */
static void redact_result(act_result *r)
{
    if (eous_redact_contains(r->message)) {
        char *c = eous_redact(r->message);
        if (c) {
            snprintf(r->message, sizeof r->message, "%s", c);
            free(c);
        }
    }
    if (r->state) {
        char *s = cJSON_PrintUnformatted(r->state);
        if (s && eous_redact_contains(s)) {
            char *c = eous_redact(s);
            cJSON_Delete(r->state);
            r->state = c ? cJSON_Parse(c) : NULL;
            free(c);
        }
        free(s);
    }
}

/* ======================================================================
 * act_execute
 * ====================================================================== */

static eous_rc dispatch(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, int *settle,
                        eous_err *err)
{
    *settle = 1;
    switch (a->kind) {
    case ACT_CALL:
        *settle = 0; /* the call script settles in the page */
        return act_run_call(x, obs, a, res, err);
    case ACT_CLICK:
    case ACT_TYPE:
    case ACT_HOVER:
    case ACT_SELECT: {
        act_target t;
        memset(&t, 0, sizeof t);
        eous_rc rc = act_resolve_target(x, obs, a, &t, err);
        if (!rc)
            rc = act_run_atomic(x, obs, a, &t, res, err);
        act_target_free(&t);
        return rc;
    }
    case ACT_PRESS: return act_run_press(x, a, res, err);
    case ACT_SCROLL: return act_run_scroll(x, a, res, err);
    case ACT_GOTO:
        *settle = 0; /* run_goto settles before its redirect check */
        return act_run_goto(x, a, res, &res->settle_ms, err);
    case ACT_GO_BACK:
    case ACT_GO_FORWARD: return act_run_history(x, a, res, err);
    case ACT_TAB_FOCUS:
    case ACT_CLOSE_TAB: return act_run_tabs(x, a, res, err);
    case ACT_STOP:
        *settle = 0;
        res->stopped = 1;
        res->answer = strdup(a->text ? a->text : "");
        if (!res->answer)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        act_res_msg(res, "stopped with answer: %.900s", res->answer);
        return EOUS_OK;
    case ACT_WAIT: return act_run_wait(x, a, res, err);
    case ACT_READ: *settle = 0; return act_run_read(x, obs, a, res, err);
    case ACT_EXPECT: *settle = 0; return act_run_expect(x, obs, a, res, err);
    case ACT_UPLOAD: return act_run_upload(x, obs, a, res, err);
    case ACT_DOWNLOAD: return act_run_download(x, obs, a, res, err);
    case ACT_NONE: break;
    }
    *settle = 0;
    return eous_err_set(err, EOUS_E_INVALID, "no action to execute");
}

/* A model's view id in the fresh view `now`, as the node it named in `obs`: the same role and
 * name, the same nth of them (a component: the same kind and label).  Caller frees; NULL when
 * the old view gives it no role and name or the fresh one has no such target. */
static char *same_target_in(const perc_obs *obs, const perc_obs *now, const act_action *a)
{
    char probe_target[700];
    if (a->kind == ACT_CALL) {
        const perc_component *c = perc_obs_find_component(obs, a->target), *c2 = NULL;
        if (!c || !c->kind || !c->label || !c->label[0])
            return NULL;
        snprintf(probe_target, sizeof probe_target, "%s '%s'", c->kind, c->label);
        act_action probe;
        act_action_init(&probe);
        probe.kind = ACT_CALL;
        probe.from_script = 1;
        probe.target = probe_target;
        return act_find_component(now, &probe, &c2, NULL) == EOUS_OK && c2 ? strdup(c2->key) : NULL;
    }
    int bid = 0, b = 0, nb = 0;
    if (perc_obs_resolve_id(obs, a->target, &bid, NULL) != EOUS_OK)
        return NULL;
    const perc_node *n = perc_obs_node_by_backend(obs, bid);
    if (!n || !n->role || !n->role[0] || !n->name || !n->name[0])
        return NULL;
    int nth = 1;
    while (perc_obs_find_role_name(obs, n->role, n->name, nth, &b, NULL) == EOUS_OK && b != bid)
        nth++;
    if (b != bid || perc_obs_find_role_name(now, n->role, n->name, nth, &nb, NULL) != EOUS_OK)
        return NULL;
    const char *vid = perc_obs_view_id_of(now, nb);
    return vid ? strdup(vid) : NULL;
}

/* A target that went stale between the view and the act (the page replaced it: a list a search
 * rendered again) is looked for once more in a fresh view of the same URL, by the same role and
 * name, and acted on; EOUS_E_STALE again, or any failure to look, leaves the first error. */
static eous_rc act_again(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, int *settle,
                         eous_err *err)
{
    perc_opts po;
    perc_opts_init(&po);
    po.mode = perc_obs_mode(obs);
    perc_obs *now = NULL;
    act_action b;
    act_action_init(&b);
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc rc = EOUS_E_STALE;
    if (act_observe(x->s, &po, &now, &e2) || act_action_copy(&b, a, &e2))
        goto done;
    if (strcmp(perc_obs_url(obs), perc_obs_url(now)))
        goto done; /* another page: the same name may be another thing */
    if (!a->from_script) {
        char *t = same_target_in(obs, now, a);
        if (!t)
            goto done;
        free(b.target);
        b.target = t;
    }
    act_result_clear(res);
    if (!(rc = dispatch(x, now, &b, res, settle, &e2))) {
        size_t n = strlen(res->message);
        snprintf(res->message + n, sizeof res->message - n, " (found again: the page had replaced it)");
    }
done:
    if (rc != EOUS_E_STALE && err)
        *err = e2;
    act_action_clear(&b);
    perc_obs_free(now);
    return rc;
}

eous_rc act_execute(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    memset(res, 0, sizeof *res);
    res->path = ACT_PATH_NONE;
    x->settled_url = 0;
    cJSON_Delete(x->view_answer);
    x->view_answer = NULL;
    cJSON_Delete(x->settled_dialogs);
    x->settled_dialogs = NULL;
    eous_err e;
    eous_err_clear(&e);
    if (obs && perc_obs_url(obs)[0])
        snprintf(x->url, sizeof x->url, "%s", perc_obs_url(obs));
    char page[2048];
    snprintf(page, sizeof page, "%s", x->url);
    double t0 = eous_now_ms();
    x->act_t0 = t0;
    x->settle_capped = 0;
    x->settle_waited[0] = '\0';
    int settle = 0;
    eous_rc rc = dispatch(x, obs, a, res, &settle, &e);
    if (rc == EOUS_E_STALE && obs && a->target && act_kind_has_target(a->kind)) {
        eous_rc again = act_again(x, obs, a, res, &settle, &e);
        if (again != EOUS_E_STALE)
            rc = again;
    }
    /* the whole act as the caller waited for it: the driver's round trips and
     * a native submit's click included, the settle not */
    res->act_ms = eous_now_ms() - t0 - res->settle_ms;
    if (!rc && settle) {
        double ms = 0;
        eous_err se;
        eous_err_clear(&se);
        if (act_settle_after(x, 0, &ms, &se) != EOUS_OK)
            EOUS_DEBUG("actions", "settle after %s: %s", act_kind_name(a->kind), se.msg);
        res->settle_ms = ms;
    }
    x->act_t0 = 0;
    res->settle_capped = x->settle_capped;
    snprintf(res->settle_waited, sizeof res->settle_waited, "%s", x->settle_waited);
    char dialogs[600] = "";
    if (a->kind != ACT_STOP)
        take_dialogs(x, dialogs, sizeof dialogs);
    if (dialogs[0]) {
        res->dialog = 1;
        if (rc) {
            size_t n = strlen(e.msg);
            snprintf(e.msg + n, sizeof e.msg - n, "%s", dialogs);
        } else if (!a->expect_dialog && strstr(dialogs, "alert \"")) {
            /* an alert is how a page refuses ("cannot be blank"): the step did not do its work */
            rc = eous_err_set(&e, EOUS_E_PAGE, "%.900s%s%s", res->message, dialogs,
                              a->from_script ? "; a step that expects it says \"expect_dialog\": true" : "");
        } else {
            size_t n = strlen(res->message);
            snprintf(res->message + n, sizeof res->message - n, "%s", dialogs);
        }
    }
    if (rc) {
        if (!e.msg[0])
            eous_err_set(&e, rc, "%s failed", act_kind_name(a->kind));
        /* a page or driver message may echo what was typed */
        if (eous_redact_contains(e.msg)) {
            char *c = eous_redact(e.msg);
            if (c) {
                snprintf(e.msg, sizeof e.msg, "%s", c);
                free(c);
            }
        }
        act_res_msg(res, "%s", e.msg);
    }
    redact_result(res);
    if (x->audit) {
        char *text = act_format(a);
        act_audit_entry ae = {.url = page, .action = text ? text : act_kind_name(a->kind), .path = res->path,
                              .result = rc, .message = res->message, .fallback_reason = res->fallback_reason,
                              .act_ms = res->act_ms, .settle_ms = res->settle_ms};
        eous_err ae_err;
        if (act_audit_write(x->audit, &ae, &ae_err) != EOUS_OK)
            EOUS_WARN("actions", "%s", ae_err.msg);
        free(text);
    }
    if (err)
        *err = e;
    return rc;
}


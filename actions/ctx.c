/* actions/ctx.c — the executor's shared services, called by exec.c and by
 * the workers (target.c, atomic.c, call.c, nav.c, the RPA steps) and calling
 * neither: what a page script reported (URL, viewport, dialogs), the settle
 * after an action, one-line result messages and confirm questions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/settle_js.h"

/* A dialog the driver dismissed when one of our scripts ran into it, with
 * its text (the webdriver layer reads it from whatever the driver sent). */
void act_note_driver_dialog(act_exec *x, const eous_err *e)
{
    char text[220];
    if (!wd_alert_text(e, text, sizeof text))
        return;
    size_t len = strlen(x->driver_dialogs);
    snprintf(x->driver_dialogs + len, sizeof x->driver_dialogs - len, "%sdialog \"%s\"", len ? ", " : "", text);
}

void act_remember_url(act_exec *x, const cJSON *v)
{
    const char *u = eous_json_str(v, "url");
    if (u)
        snprintf(x->url, sizeof x->url, "%s", u);
    int w = eous_json_int(v, "w", eous_json_int(v, "vw", 0)), h = eous_json_int(v, "h", eous_json_int(v, "vh", 0));
    if (w > 0 && h > 0) {
        x->vw = w;
        x->vh = h;
    }
}

void act_remember_settled(act_exec *x, const cJSON *v)
{
    act_remember_url(x, v);
    x->settled_url = eous_json_str(v, "url") != NULL;
    const cJSON *d = eous_json_arr(v, "dialogs");
    cJSON_Delete(x->settled_dialogs);
    x->settled_dialogs = d ? cJSON_Duplicate(d, 1) : NULL;
}

/* ======================================================================
 * Settle
 * ====================================================================== */

/* settle.js once (args as settle() built them), through the view's round trip after an action: a
 * navigation that replaced the document under it is taken again on the new one, whose changes since
 * its start quiet_hook.js recorded. */
static eous_rc settle_once(act_exec *x, int after_action, cJSON *args, cJSON **v, eous_err *e2)
{
    eous_rc rc = after_action ? act_execute_settling(x, ACT_SETTLE_JS, args, 1, v, e2)
                              : wd_execute(x->s, ACT_SETTLE_JS, args, v, e2);
    if (rc == EOUS_E_PAGE)
        act_note_driver_dialog(x, e2); /* dismissed by the driver: the step reports it */
    if (rc == EOUS_E_PAGE) {
        eous_sleep_ms(50);
        cJSON_Delete(*v);
        *v = NULL;
        cJSON_ReplaceItemInArray(args, 2, cJSON_CreateBool(1));
        rc = after_action ? act_execute_settling(x, ACT_SETTLE_JS, args, 1, v, e2)
                          : wd_execute(x->s, ACT_SETTLE_JS, args, v, e2);
    }
    return rc;
}

/* after_action: what the script reads is where the action led (and it reads
 * the dialogs too); after_load: see act_settle_after. */
static eous_rc settle(act_exec *x, int after_load, int after_action, double *ms_out, eous_err *err)
{
    double t0 = eous_now_ms();
    if (ms_out)
        *ms_out = 0;
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_quiet_ms));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_cap_ms));
    cJSON_AddItemToArray(args, cJSON_CreateBool(after_load));
    cJSON_AddItemToArray(args, cJSON_CreateBool(after_action));
    /* what the page began since the action counts: no round trip to mark its start */
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->act_t0 > 0 ? t0 - x->act_t0 : 0));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(EOUS_DEFAULT_SETTLE_SHORT_MS));
    cJSON_AddItemToArray(args, cJSON_CreateNull()); /* navOver */
    cJSON_AddItemToArray(args, x->settled_doc[0] ? cJSON_CreateString(x->settled_doc) : cJSON_CreateNull()); /* lastDoc */
    cJSON *v = NULL;
    eous_err e2;
    eous_err_clear(&e2);
    /* after an action: the view's script, when one is set, in the same round trip */
    eous_rc rc = settle_once(x, after_action, args, &v, &e2);
    /* a navigation begun under it: a new document to come (a slow server's answer may outlast the cap)
     * or none (a 204, a download), which only the browser knows.  The driver's next request waits for
     * it to end, as after a click of its own; then the settle again on what is there, that navigation
     * forgotten if its document stayed (twice at most: a page that navigates again as it loads) */
    const cJSON *nav;
    for (int i = 0; !rc && i < 2 && (nav = cJSON_GetObjectItemCaseSensitive(v, "nav")) && cJSON_IsObject(nav); i++) {
        char *url = NULL;
        eous_err e3;
        double tw = eous_now_ms();
        if (wd_get_url(x->s, &url, &e3) != EOUS_OK)
            EOUS_DEBUG("actions", "settle: the driver on a navigation: %s", e3.msg);
        EOUS_DEBUG("actions", "settle: a navigation began; the driver waited %.1f ms for it", eous_now_ms() - tw);
        free(url);
        cJSON_ReplaceItemInArray(args, 6, cJSON_Duplicate(nav, 1)); /* navOver: the page tells which document it is in */
        cJSON_Delete(v);
        v = NULL;
        rc = settle_once(x, after_action, args, &v, &e2);
    }
    x->settle_capped = !rc && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "capped"));
    const char *doc = rc ? NULL : eous_json_str(v, "doc");
    snprintf(x->settled_doc, sizeof x->settled_doc, "%s", doc ? doc : "");
    const char *waited = rc ? NULL : eous_json_str(v, "waited");
    snprintf(x->settle_waited, sizeof x->settle_waited, "%s", waited ? waited : "");
    if (x->settle_capped)
        EOUS_DEBUG("actions", "settle: at the cap, the page still busy with %s", x->settle_waited);
    /* the rest of the request is the driver's and the view's script's (step_latency_mcp.md) */
    if (!rc)
        EOUS_DEBUG("actions", "settle: %.1f ms in the page of %.1f ms%s%s", eous_json_num(v, "ms", -1), eous_now_ms() - t0,
                   x->settle_waited[0] ? ", waited: " : "", x->settle_waited);
    cJSON_Delete(args);
    if (!rc && after_action)
        act_remember_settled(x, v);
    else if (!rc)
        act_remember_url(x, v);
    cJSON_Delete(v);
    if (ms_out)
        *ms_out = eous_now_ms() - t0;
    if (rc) {
        if (err)
            *err = e2;
        return eous_err_prefix(err, "settle");
    }
    return EOUS_OK;
}

eous_rc act_settle(act_exec *x, double *ms_out, eous_err *err)
{
    /* on its own: the dialogs stay recorded for the next action's report */
    return settle(x, 0, 0, ms_out, err);
}

eous_rc act_settle_loaded(act_exec *x, double began_ms, double *ms_out, eous_err *err)
{
    double keep = x->act_t0;
    x->act_t0 = began_ms;
    eous_rc rc = settle(x, 1, 0, ms_out, err);
    x->act_t0 = keep;
    return rc;
}

int act_settle_capped(const act_exec *x, const char **waited)
{
    if (waited)
        *waited = x->settle_waited;
    return x->settle_capped;
}

eous_rc act_settle_after(act_exec *x, int after_load, double *ms_out, eous_err *err)
{
    return settle(x, after_load, 1, ms_out, err);
}

void act_res_msg(act_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    for (char *p = r->message; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

/* ======================================================================
 * Asking a person (the policy decides whether anyone is there)
 * ====================================================================== */

eous_rc act_ask(act_exec *x, const char *sentence, const char *what, eous_err *err)
{
    return act_policy_confirm(x->policy, sentence, what, err);
}

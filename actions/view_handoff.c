/* actions/view_handoff.c — the view read in an action's own round trip: the script that settles after an
 * action (the settle rule, a call's script) carries the perceive's providers script too, and its answer is
 * handed to the next perceive when nothing reached the browser since (one round trip less per MCP answer).
 * The executor owns view_script (borrowed), view_args and view_answer (owned); act_exec_take_view gives
 * the answer to its caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "actions/act_int.h"
#include "actions/exec.h"
#include "actions/secrets.h"

eous_rc act_exec_set_view_script(act_exec *x, const char *script, const cJSON *args, eous_err *err)
{
    cJSON *copy = script && args ? cJSON_Duplicate(args, 1) : NULL;
    if (script && args && !copy)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON_Delete(x->view_args);
    x->view_args = copy;
    x->view_script = script && wd_session_has_cdp(x->s) ? script : NULL; /* the view script needs CDP's tree */
    return EOUS_OK;
}

cJSON *act_exec_take_view(act_exec *x)
{
    cJSON *v = x->view_answer;
    x->view_answer = NULL;
    if (v && wd_session_round_trips(x->s) != x->view_rt) {
        cJSON_Delete(v); /* something went to the browser since: the page may have changed */
        v = NULL;
    }
    return v;
}

/* The settling script and the view script as one: each its own function, the view's failure
 * only its own (null).  Both are bodies that return what they answer from `arguments`. */
static char *settling_with_view(const char *script, const char *view)
{
    static const char head[] = "return (async function(a, b) {\nconst r = await (async function() {\n",
                      mid[] = "\n}).apply(null, a);\nlet v = null;\ntry { v = await (async function() {\n",
                      tail[] = "\n}).apply(null, b); } catch (e) { v = null; }\nreturn {r: r, v: v};\n"
                               "}).apply(null, arguments);";
    size_t n = strlen(head) + strlen(script) + strlen(mid) + strlen(view) + strlen(tail) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s%s%s", head, script, mid, view, tail);
    return s;
}

/* wd_execute, or first on the script hook: a script that only reads runs through the driver after any
 * failure there (a navigation under it, a dialog, a lost connection); one that acts only when the hook
 * says it never ran, and on the hook only when its answer comes well within the hook's wait (the call's
 * timeout and the settle's cap bound it) */
static eous_rc run(act_exec *x, const char *what, const char *script, const cJSON *args, int reads_only, cJSON **out, eous_err *err)
{
    if (x->script && wd_session_has_cdp(x->s) &&
        (reads_only || x->o.call_timeout_ms + x->o.settle_cap_ms + 5000 < ACT_SCRIPT_HOOK_WAIT_MS)) {
        cJSON *v = NULL;
        eous_err e2;
        eous_err_clear(&e2);
        int ran = 0;
        eous_rc rc = x->script(x->script_ctx, script, args, !reads_only, &ran, &v, &e2);
        if (rc == EOUS_OK) {
            if (out)
                *out = v;
            else
                cJSON_Delete(v);
            return EOUS_OK;
        }
        cJSON_Delete(v);
        if (!reads_only && ran) {
            /* it may have acted: never again; a lost connection is not the browser's end */
            if (err)
                *err = e2;
            return rc == EOUS_E_INFRA || rc == EOUS_E_TIMEOUT
                       ? eous_err_set(err, EOUS_E_PAGE, "the call's answer was lost (it may have acted): %s", e2.msg)
                       : rc;
        }
        EOUS_DEBUG("actions", "the %s through the driver: %s", what, e2.msg);
    }
    return wd_execute(x->s, script, args, out, err);
}

eous_rc act_execute_read(act_exec *x, const char *script, const cJSON *args, cJSON **out, eous_err *err)
{
    return run(x, "element's script", script, args, 1, out, err);
}

eous_rc act_execute_settling(act_exec *x, const char *script, const cJSON *args, int reads_only, cJSON **out,
                             eous_err *err)
{
    cJSON_Delete(x->view_answer);
    x->view_answer = NULL;
    if (!x->view_script)
        return run(x, reads_only ? "settle's script" : "call's script", script, args, reads_only, out, err);
    char *both = settling_with_view(script, x->view_script);
    cJSON *a2 = cJSON_CreateArray(), *v = NULL;
    if (!both || !a2 || !cJSON_AddItemToArray(a2, args ? cJSON_Duplicate(args, 1) : cJSON_CreateArray()) ||
        !cJSON_AddItemToArray(a2, cJSON_Duplicate(x->view_args, 1))) {
        free(both);
        act_secret_json_free(a2);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    eous_rc rc = run(x, reads_only ? "settle's script" : "call's script", both, a2, reads_only, &v, err);
    free(both);
    act_secret_json_free(a2); /* a call's params may hold a secret */
    if (!rc) {
        cJSON *r = cJSON_DetachItemFromObjectCaseSensitive(v, "r"), *view = cJSON_DetachItemFromObjectCaseSensitive(v, "v");
        if (cJSON_IsObject(view)) {
            x->view_answer = view;
            x->view_rt = wd_session_round_trips(x->s);
        } else {
            cJSON_Delete(view);
        }
        if (out)
            *out = r;
        else
            cJSON_Delete(r);
    }
    cJSON_Delete(v);
    return rc;
}

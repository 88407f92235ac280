/* actions/native_submit.c — the executor's half of a native form's submit()
 * (perception/native.js inferred the form; actions/native_call.js checked
 * the browser's validation and stamped its submit button): the button is
 * clicked with real input, as a person would, and the page settles, so a
 * navigation is handled as after any click.  A form without a button was
 * submitted in the page (requestSubmit); only the settle is left. */
#include <stdio.h>
#include <string.h>

#include "actions/act_int.h"

eous_rc act_native_submit(act_exec *x, const perc_obs *obs, const perc_component *c, const cJSON *v,
                          const char *who, act_result *res, eous_err *err)
{
    const char *via = eous_json_str(v, "via");
    eous_rc rc = EOUS_OK;
    res->path = ACT_PATH_SEMANTIC;
    if (via && !strcmp(via, "click")) {
        char sel[300];
        snprintf(sel, sizeof sel, "css=[data-eous-nks=\"%s\"]", c->key);
        act_action fa;
        act_action_init(&fa);
        fa.kind = ACT_CLICK;
        fa.target = sel;
        fa.from_script = 1; /* a css target the executor made, not the model's */
        act_target t;
        memset(&t, 0, sizeof t);
        if (!(rc = act_resolve_target(x, obs, &fa, &t, err))) {
            act_result cr;
            memset(&cr, 0, sizeof cr);
            rc = act_run_atomic(x, obs, &fa, &t, &cr, err);
        }
        act_target_free(&t);
        if (rc)
            return eous_err_prefix(err, "%s", who);
    }
    double ms = 0;
    eous_err se;
    eous_err_clear(&se);
    if (act_settle_after(x, 0, &ms, &se) != EOUS_OK)
        EOUS_DEBUG("actions", "settle after %s: %s", who, se.msg);
    res->settle_ms = ms;
    const char *what = eous_json_str(v, "what");
    /* a novalidate form with an invalid field: the page's own check may have refused it, never "passed" */
    const char *checks = eous_json_str(v, "pageChecks");
    char why[600];
    if (checks)
        snprintf(why, sizeof why, "the form leaves validation to the page and %s: the next view shows whether the "
                 "page took it", checks);
    else
        snprintf(why, sizeof why, "the browser's validation passed");
    if (what) /* a page link (pagination) */
        act_res_msg(res, "%s: ok; clicked %s", who, what);
    else if (eous_json_num(v, "filled", 0) > 0) /* submit(fields): filled first, as fill() does */
        act_res_msg(res, "%s: ok; %d fields filled, then submitted%s (%s)", who, (int)eous_json_num(v, "filled", 0),
                    via && !strcmp(via, "click") ? " with its submit button" : "", why);
    else
        act_res_msg(res, "%s: ok; submitted%s (%s)", who, via && !strcmp(via, "click") ? " with its submit button" : "",
                    why);
    return EOUS_OK;
}

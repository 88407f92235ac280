/* actions/exec.c — the executor (see exec.h).  Interim: being written. */
#include "actions/exec.h"

#include <stdlib.h>
#include <string.h>

struct act_exec {
    wd_session *s;
    act_exec_opts o;
    act_policy *policy;
    act_secrets *secrets;
};

void act_exec_opts_init(act_exec_opts *o)
{
    memset(o, 0, sizeof *o);
    o->call_timeout_ms = 5000;
    o->settle_quiet_ms = 150;
    o->settle_cap_ms = 3000;
    o->interactive = -1;
}

eous_rc act_exec_new(wd_session *s, const act_exec_opts *o, act_exec **out, eous_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory creating an executor");
    (*out)->s = s;
    if (o)
        (*out)->o = *o;
    else
        act_exec_opts_init(&(*out)->o);
    return EOUS_OK;
}

void act_exec_free(act_exec *x) { free(x); }
void act_exec_set_policy(act_exec *x, act_policy *p) { x->policy = p; }
void act_exec_set_secrets(act_exec *x, act_secrets *sec) { x->secrets = sec; }

void act_result_clear(act_result *r)
{
    if (!r)
        return;
    free(r->answer);
    cJSON_Delete(r->state);
    memset(r, 0, sizeof *r);
}

eous_rc act_execute(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    (void)x;
    (void)obs;
    (void)a;
    memset(res, 0, sizeof *res);
    res->path = "none";
    return eous_err_set(err, EOUS_E_INFRA, "actions: executor not built yet");
}

eous_rc act_settle(act_exec *x, double *ms_out, eous_err *err)
{
    (void)x;
    (void)err;
    if (ms_out)
        *ms_out = 0;
    return EOUS_OK;
}

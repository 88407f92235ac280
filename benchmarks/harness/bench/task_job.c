/* bench/task_job.c — a WebArena task as the runtime's job (bench/task_job.h). */
#include "bench/task_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/run.h"
#include "bench/verified_run.h"
#include "webarena/eval.h"
#include "webarena/site_reset.h"
#include "webarena/verified_task.h"

static const wa_task *task_of(const agent_job *j)
{
    return j->owner;
}

static eous_rc site_enter(const agent_job *j, void **hold, eous_err *err)
{
    wa_site_hold *h = calloc(1, sizeof *h);
    if (!h)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    *hold = h; /* given to site_leave even when entering fails: it releases what was taken */
    return wa_site_enter(h, task_of(j), err);
}

static void site_leave(void *hold)
{
    wa_site_leave(hold);
    free(hold);
}

/* 1 when an evaluator opens another page (program_html with a url other than
 * "last"), so the final screenshot must be taken before scoring. */
static int eval_navigates(const agent_job *j)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, eous_json_arr(task_of(j)->eval, "program_html")) {
        const char *url = eous_json_str(p, "url");
        if (url && strcmp(url, "last"))
            return 1;
    }
    return 0;
}

/* WebArena's evaluators on the page and the answer. */
static eous_rc eval_score(const agent_job *j, const agent_job_score_in *in, agent_result *res, char *note,
                          size_t note_size, eous_err *err)
{
    (void)note_size;
    note[0] = '\0';
    const wa_task *t = task_of(j);
    wa_eval_result ev;
    eous_rc rc = wa_evaluate(t->eval, t->intent, in->answer, in->s, in->x, in->judge, &ev, err);
    if (rc)
        return rc;
    res->score = ev.score;
    snprintf(res->eval_detail, sizeof res->eval_detail, "%s", ev.detail);
    /* a verdict nobody gave is neither a pass nor a failure */
    res->status = ev.needs_judge ? EOUS_ST_NEEDS_JUDGE : ev.score >= 1.0 ? EOUS_ST_PASSED : EOUS_ST_FAILED;
    return EOUS_OK;
}

static void verified_objective(const agent_job *j, char **objective, cJSON **answer_schema)
{
    bench_verified_objective(task_of(j), objective, answer_schema);
}

static void verified_begin(const agent_job *j, wd_session *s)
{
    bench_verified_begin(s, task_of(j));
}

/* WebArena-Verified: the answer and the network log, scored and saved for `eous score --run` */
static eous_rc verified_score(const agent_job *j, const agent_job_score_in *in, agent_result *res, char *note,
                              size_t note_size, eous_err *err)
{
    return bench_verified_finish(task_of(j), in->answer, in->trace_path, in->s, res, note, note_size, err);
}

static const agent_job_ops webarena_ops = {
    .enter = site_enter, .leave = site_leave, .score_navigates = eval_navigates, .score = eval_score};
static const agent_job_ops verified_ops = {.enter = site_enter,
                                           .leave = site_leave,
                                           .objective = verified_objective,
                                           .begin = verified_begin,
                                           .score = verified_score};
/* a config with no evaluators (a plain job file): its steps run to their end pass */
static const agent_job_ops unscored_ops = {.enter = site_enter, .leave = site_leave};

void bench_task_job(const wa_task *t, agent_job *j)
{
    agent_job_init(j);
    snprintf(j->id, sizeof j->id, "%s", t->id);
    j->intent = t->intent;
    j->start_url = t->start_url;
    j->more_start_urls = t->verified ? wa_verified_more_start_urls(t->raw) : NULL;
    j->storage_state = t->storage_state;
    j->geolocation = eous_json_obj(t->raw, "geolocation");
    j->steps = t->script;
    j->atomic_steps = t->atomic_script;
    j->output_schema = t->output_schema;
    j->params = t->param_values;
    j->sites = t->sites;
    j->problem = t->problem[0] ? t->problem : NULL;
    j->tier = t->tier;
    j->screen = t->screen;
    j->file = t->file;
    j->index = t->index;
    j->owner = t;
    if (t->verified)
        j->ops = &verified_ops;
    else if (cJSON_GetArraySize(eous_json_arr(t->eval, "eval_types")))
        j->ops = &webarena_ops;
    else
        j->ops = &unscored_ops;
}

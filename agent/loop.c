/* agent/loop.c — the perceive → plan → act → settle loop for one task, with
 * WebArena's early-stop rules, per-step trace lines and the final score. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tokenize.h"
#include "actions/exec.h"
#include "actions/history.h"
#include "actions/policy.h"
#include "actions/secrets.h"
#include "agent/batch.h"
#include "agent/run.h"
#include "agent/outputs.h"
#include "agent/planner_exec.h"
#include "agent/repair.h"
#include "llm/llm.h"
#include "perception/delta.h"
#include "perception/shot.h"

#define MAX_FAILED_PARSES 3
#define MAX_REPEATED_ACTIONS 3

/* ======================================================================
 * One task's trace
 * ====================================================================== */

/* The step trace: whole lines or none; the first write failure (disk full,
 * read-only) is kept and ends the run as an I/O error. */
typedef struct trace_file {
    int fd; /* -1 = no trace */
    const char *path;
    eous_rc rc;
    eous_err err;
} trace_file;

static void trace_line(trace_file *t, cJSON *line)
{
    if (t->fd < 0 || t->rc) {
        cJSON_Delete(line);
        return;
    }
    char *s = eous_json_print(line);
    cJSON_Delete(line);
    char *clean = s ? eous_redact(s) : NULL;
    if (clean)
        t->rc = eous_append_line(t->fd, clean, t->path, &t->err);
    free(s);
    free(clean);
}

/* Evidence files that cannot be written fail the run as the trace does. */
static void evidence_io(trace_file *t, eous_rc rc, const eous_err *err)
{
    if (rc && !t->rc) {
        t->rc = rc;
        t->err = *err;
    }
}

/* ======================================================================
 * The run's state, its checks and set-up
 * ====================================================================== */

static const cJSON *plan_for(const agent_job *t, perc_mode mode)
{
    if (perc_mode_semantic(mode))
        return t->steps ? t->steps : t->atomic_steps;
    return t->atomic_steps;
}

/* One task's run: what agent_run_task's steps share. */
typedef struct run_state {
    wd_session *s;
    const agent_job *t;
    const agent_run_opts *o;
    agent_result *res;
    char *objective;              /* a verified task: the intent and the answer format; NULL = the intent */
    cJSON *answer_schema;         /* a verified task: the stop tool's answer object; NULL = a string */
    double t0;
    trace_file trace;
    agent_evidence *ev;           /* observation files and screenshots beside the trace */
    act_history *values;          /* value changes for the trace lines (actions/history.h); NULL: no trace */
    act_exec *x;
    act_policy *own_policy;
    perc_opts po;
    perc_obs *obs;
    perc_marked_shot shot;        /* vision: what the model sees with obs */
    const cJSON *plan;            /* the script planner's steps */
    int max_steps;
    llm_history_item *hist;       /* what the model is told it did */
    char **hist_text;             /* owns hist's strings, two per item */
    size_t n_hist;
    act_action prev[MAX_REPEATED_ACTIONS];
    char prev_view[MAX_REPEATED_ACTIONS][17]; /* hash of the view each was taken on */
    int n_prev;
    char last_error[1024];
    int failed_parses;
    /* batches (agent/batch.h) */
    agent_batch batch;            /* this step's plan */
    int max_batch;
    int cursor, cursor_sub;       /* the script planner's next step (and action in an array step) */
    llm_turn *turn;               /* the model's last reply, its results filled in as actions run */
    llm_conv *conv;               /* history full: the task's conversation; NULL stateless or script */
    perc_obs *next_obs;           /* the view a stopped batch already took: the next step's */
    perc_obs *act_view;           /* the view later actions of a batch run on (after the stale check), or NULL */
    size_t batch_index;           /* of the action being run, for its trace line */
    void *hold;                   /* what the job's ops took on enter (a harness's site locks) */
    llm_action_status last_status;
    char last_result[1024];
    int last_dialog;
    /* observation deltas (perception/delta.h) */
    perc_delta *delta;            /* NULL: deltas off */
    int send_deltas;              /* the model gets them (else only the trace records their size) */
    const char *sent_text;        /* this step's observation as sent (borrowed from obs or delta) */
    int sent_is_delta;
    agent_ground_log seen;        /* grounding: views and results of this run */
    agent_ground_result ground;   /* grounding: the verdict on the step being taken */
    char downloads_dir[4096];     /* download steps save here (agent/outputs.h) */
    const char *unscored;         /* why the task fails without its evaluators (a failed RPA step), or NULL */
    agent_repair_log repairs;     /* --repair llm: the steps the model replaced */
    int n_repaired;
    /* planner exec (agent/planner_exec.h) */
    agent_exec *agent;            /* the agent's process, NULL for other planners */
    size_t sent_tokens;           /* o200k tokens of this step's observation as sent */
    size_t last_from;             /* hist's first item of the actions the last reply asked for */
    int last_obs_step;            /* the step number of the observation sent before (a delta's base), 0 = none */
    /* the protocol's own cost, in the trace line of a reply's first action (benchmarks/results/own_agent.md) */
    char *exec_line;              /* the agent's reply, until that line takes it (owned) */
    double exec_line_ms;          /* when eous had read it */
    double exec_settled_ms;       /* the end of the last action's settle, 0 = no action yet */
    double exec_settled_wait;     /* wd_session_wait_ms then */
    double exec_obs_ms[3];        /* settle → observation line written: all of it, its WebDriver waits, the line */
    int exec_obs_timed;           /* exec_obs_ms[0..1] hold this step's (an action settled before it) */
} run_state;

/* What one step's plan phase decided. */
typedef enum plan_outcome { PLAN_ACT, PLAN_RETRY, PLAN_END, PLAN_FAIL } plan_outcome;

static void set_field(char *dst, size_t n, const char *s)
{
    snprintf(dst, n, "%s", s);
}
#define SET(field, s) set_field((field), sizeof(field), (s))

/* Checks the task can run as asked; on refusal res says why (skipped). */
static eous_rc run_check(run_state *st, eous_err *err)
{
    const agent_job *t = st->t;
    agent_result *res = st->res;
    if (t->problem && t->problem[0]) {
        res->status = EOUS_ST_SKIPPED;
        SET(res->error, t->problem);
        return eous_err_set(err, EOUS_E_INVALID, "task %s: %s", t->id, t->problem);
    }
    if (st->o->planner == AGENT_PLANNER_SCRIPT) {
        st->plan = plan_for(t, st->o->mode);
        if (!st->plan) {
            res->status = EOUS_ST_SKIPPED;
            snprintf(res->error, sizeof res->error, "task %s has no %s for the script planner", t->id,
                     perc_mode_semantic(st->o->mode) ? "script" : "atomic_script");
            return eous_err_set(err, EOUS_E_INVALID, "%s", res->error);
        }
    } else if (st->o->planner == AGENT_PLANNER_EXEC) {
        if (!st->o->agent_cmd)
            return eous_err_set(err, EOUS_E_INVALID, "planner exec needs an agent command (agent_cmd)");
    } else if (!st->o->llm) {
        return eous_err_set(err, EOUS_E_INVALID, "planner %s needs a model (an llm client)",
                            agent_planner_name(st->o->planner));
    } else if (st->o->deltas == 1 && st->o->history != LLM_HISTORY_FULL) {
        /* a delta names lines of a view the request must hold */
        return eous_err_set(err, EOUS_E_INVALID,
                            "deltas on with stateless history: a stateless request holds no earlier view for "
                            "a delta to refer to; use full history or deltas off");
    }
    /* a deterministic plan gets the steps it has (the budget is for models) */
    st->max_steps = st->o->max_steps;
    int actions = 0;
    const cJSON *step;
    cJSON_ArrayForEach(step, st->plan)
        actions += cJSON_IsArray(step) ? cJSON_GetArraySize(step) : 1;
    if (actions > st->max_steps)
        st->max_steps = actions;
    st->max_batch = st->o->max_batch < 1 ? 1 : st->o->max_batch > AGENT_MAX_BATCH ? AGENT_MAX_BATCH : st->o->max_batch;
    return EOUS_OK;
}

/* ======================================================================
 * The agent program (planner exec, agent/planner_exec.h)
 * ====================================================================== */

/* Starts the agent (its stderr beside the trace) and sends it the task. */
static eous_rc exec_start(run_state *st, eous_err *err)
{
    char errpath[4200] = "";
    if (st->o->trace_path) {
        size_t n = strlen(st->o->trace_path);
        if (n > 6 && !strcmp(st->o->trace_path + n - 6, ".jsonl"))
            n -= 6;
        snprintf(errpath, sizeof errpath, "%.*s.agent.stderr", (int)n, st->o->trace_path);
    }
    eous_rc rc = agent_exec_start(st->o->agent_cmd, errpath[0] ? errpath : NULL, &st->agent, err);
    if (rc)
        return rc;
    char names[512];
    act_secrets_names(st->o->secrets, st->t->start_url, names, sizeof names);
    cJSON *m = agent_exec_task_msg(st->t->id, st->t->intent, st->objective, st->answer_schema,
                                   perc_mode_name(st->o->mode), perc_mode_semantic(st->o->mode), st->t->start_url,
                                   st->t->sites, names, st->max_steps, st->max_batch);
    eous_err serr;
    eous_err_clear(&serr);
    /* an agent gone before its task is its failure, found at its first reply */
    if (m && agent_exec_send(st->agent, m, &serr))
        EOUS_INFO("agent", "task %s: %s", st->t->id, serr.msg);
    cJSON_Delete(m);
    return m ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
}

/* When this reply is due: the per-reply bound or the task's --max-seconds, the sooner. */
static double exec_deadline(const run_state *st)
{
    double per = st->o->agent_timeout_s > 0 ? st->o->agent_timeout_s : AGENT_EXEC_DEFAULT_REPLY_S;
    double due = eous_now_ms() + per * 1000;
    double task = st->o->max_seconds > 0 ? st->t0 + st->o->max_seconds * 1000 : due;
    return task < due ? task : due;
}

/* The agent failed the task (exited, hung, wrote what does not parse): said
 * in the result and the trace; the task ends unscored, failed, not infra. */
static plan_outcome exec_failed(run_state *st, int step, agent_stop reason, const char *msg)
{
    st->res->stop_reason = reason;
    SET(st->res->error, msg);
    st->unscored = "not scored: the agent failed";
    cJSON *line = cJSON_CreateObject();
    cJSON_AddNumberToObject(line, "step", step + 1);
    cJSON_AddStringToObject(line, "agent_error", msg);
    trace_line(&st->trace, line);
    return PLAN_END;
}

/* Sends this step's observation and reads the agent's reply into the batch. */
static plan_outcome plan_with_exec(run_state *st, int *step, llm_usage *usage, eous_rc *rc, eous_err *err)
{
    double t_msg = eous_now_ms();
    const char **last = calloc(st->n_hist - st->last_from + 1, sizeof *last);
    for (size_t i = st->last_from; last && i < st->n_hist; i++)
        last[i - st->last_from] = st->hist[i].result;
    cJSON *m = last ? agent_exec_obs_msg(*step + 1, st->sent_text, st->sent_is_delta, st->last_obs_step,
                                         perc_obs_url(st->obs), perc_obs_tab_count(st->obs), last,
                                         st->n_hist - st->last_from, st->sent_tokens)
                    : NULL;
    free(last);
    if (m && st->shot.png) { /* vision: the set-of-marks screenshot the model would get */
        char *b64 = eous_base64_encode(st->shot.png, st->shot.len);
        if (b64)
            cJSON_AddStringToObject(m, "image_png_base64", b64);
        free(b64);
        if (st->shot.legend)
            cJSON_AddStringToObject(m, "image_legend", st->shot.legend);
    }
    if (!m) {
        *rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        return PLAN_FAIL;
    }
    st->last_obs_step = *step + 1;
    st->last_from = st->n_hist;
    eous_err aerr;
    eous_err_clear(&aerr);
    char *line = NULL;
    eous_rc arc = agent_exec_send(st->agent, m, &aerr);
    cJSON_Delete(m);
    double asked = eous_now_ms(), due = exec_deadline(st);
    st->exec_obs_timed = st->exec_settled_ms > 0;
    st->exec_obs_ms[0] = asked - st->exec_settled_ms;
    st->exec_obs_ms[1] = wd_session_wait_ms(st->s) - st->exec_settled_wait;
    st->exec_obs_ms[2] = asked - t_msg;
    if (!arc)
        arc = agent_exec_read_line(st->agent, due, &line, &aerr);
    st->exec_line_ms = eous_now_ms();
    wd_session_timing_mark(st->s); /* the first browser command after the reply: its start is kept */
    st->res->plan_calls++;
    char msg[512];
    if (arc == EOUS_E_INTERRUPTED || arc == EOUS_E_NOMEM) {
        *rc = eous_err_set(err, arc, "%s", aerr.msg);
        return PLAN_FAIL;
    }
    if (arc == EOUS_E_TIMEOUT) {
        snprintf(msg, sizeof msg, "the agent did not answer observation %d within %.1f s (the bound of "
                 "the agent's reply timeout and the task's time budget)", *step + 1, (due - asked) / 1000);
        return exec_failed(st, *step, AGENT_STOP_AGENT_TIMEOUT, msg);
    }
    if (arc) {
        snprintf(msg, sizeof msg, "%s", aerr.msg);
        return exec_failed(st, *step, arc == EOUS_E_LIMIT ? AGENT_STOP_AGENT_BAD_LINE : AGENT_STOP_AGENT_EXITED, msg);
    }
    agent_exec_usage u;
    size_t dropped = 0;
    arc = agent_exec_parse_reply(line, st->batch.a, (size_t)st->max_batch, &st->batch.n, &dropped, &u, &aerr);
    if (arc) {
        snprintf(msg, sizeof msg, "the agent's line does not parse (%.200s): \"%.200s\"", aerr.msg, line);
        free(line);
        return exec_failed(st, *step, AGENT_STOP_AGENT_BAD_LINE, msg);
    }
    free(st->exec_line);
    st->exec_line = line; /* quoted in the trace line of its first action */
    st->batch.dropped = dropped;
    usage->prompt_tokens = u.input_tokens;
    usage->completion_tokens = u.output_tokens;
    usage->cost_usd = u.cost_usd;
    st->res->usage.prompt_tokens += u.input_tokens;
    st->res->usage.completion_tokens += u.output_tokens;
    st->res->usage.cost_usd += u.cost_usd;
    return PLAN_ACT;
}

/* The task's end told to the agent, then its process group ended. */
static void exec_finish(run_state *st)
{
    if (!st->agent)
        return;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "done");
    cJSON_AddStringToObject(m, "status", eous_status_name(st->res->status));
    cJSON_AddNumberToObject(m, "score", st->res->score);
    cJSON_AddStringToObject(m, "stop_reason", agent_stop_name(st->res->stop_reason));
    cJSON_AddItemToObject(m, "evaluators",
                          st->res->bench.evaluators ? cJSON_Duplicate(st->res->bench.evaluators, 1) : cJSON_CreateNull());
    cJSON_AddStringToObject(m, "eval_detail", st->res->eval_detail);
    eous_err e;
    agent_exec_send(st->agent, m, &e); /* an agent already gone is told nothing */
    cJSON_Delete(m);
    agent_exec_free(st->agent);
    st->agent = NULL;
}

/* ======================================================================
 * The value history: what the agent, the page and a person changed
 * ====================================================================== */

/* With a trace, the recorder goes on every new document before the start page
 * loads (as `eous mcp` does), so the page's first changes are seen too. */
static void values_start(run_state *st)
{
    if (st->o->trace_path && (st->values = act_history_new(1)))
        act_history_install(st->values, st->s);
}

/* act_execute inside a window of the history: what the page's values do
 * meanwhile is the agent's (not a wait, read, expect or stop: they change nothing). */
static eous_rc values_execute(run_state *st, const perc_obs *obs, const act_action *a, act_result *ar,
                              eous_err *err)
{
    int acts = a->kind != ACT_WAIT && a->kind != ACT_READ && a->kind != ACT_EXPECT && a->kind != ACT_STOP;
    if (acts)
        act_history_begin(st->values, 0);
    eous_rc rc = act_execute(st->x, obs, a, ar, err);
    if (acts)
        act_history_end(st->values);
    return rc;
}

/* The changes recorded since the last step into its trace line ("history"),
 * secret values redacted; a page that cannot be read now adds them to a later line. */
static void values_trace(run_state *st, cJSON *line)
{
    if (!st->values)
        return;
    eous_err e;
    cJSON_Delete(act_history_pull(st->values, st->s, &e));
    cJSON *got = act_history_take(st->values);
    if (cJSON_GetArraySize(got) > 0)
        cJSON_AddItemToObject(line, "history", got);
    else
        cJSON_Delete(got);
}

/* Trace file, executor with its policy and secrets, the start page. */
static eous_rc run_setup(run_state *st, eous_err *err)
{
    const agent_run_opts *o = st->o;
    eous_rc rc;
    if (o->trace_path) {
        st->trace.fd = open(o->trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
        if (st->trace.fd < 0)
            return eous_err_set(err, EOUS_E_IO, "%s: cannot write the trace: %s", o->trace_path, strerror(errno));
        if ((rc = agent_evidence_new(o->trace_path, o->screenshots, &st->ev, err)))
            return rc;
    }
    act_exec_opts xo;
    act_exec_opts_init(&xo);
    xo.audit_path = o->audit_path;
    xo.files_dir = o->files_dir;
    if (o->trace_path) {
        agent_downloads_dir(o->trace_path, st->downloads_dir, sizeof st->downloads_dir);
        xo.download_dir = st->downloads_dir;
    }
    xo.settle_quiet_ms = o->settle_quiet_ms;
    xo.type_by_key = o->type_by_key;
    if ((rc = act_exec_new(st->s, &xo, &st->x, err)))
        return rc;
    if (o->policy) {
        act_exec_set_policy(st->x, o->policy);
    } else {
        /* default policy: navigation stays on the task's own origin */
        if ((rc = act_policy_new(&st->own_policy, err)) ||
            (rc = act_policy_allow_origin(st->own_policy, st->t->start_url, err)))
            return rc;
        const cJSON *u; /* a verified task's other start pages are its own too */
        for (u = st->t->more_start_urls; u; u = u->next)
            if ((rc = act_policy_allow_origin(st->own_policy, u->valuestring, err)))
                return rc;
        act_policy_set_interactive(st->own_policy, 0);
        act_exec_set_policy(st->x, st->own_policy);
    }
    if (o->secrets)
        act_exec_set_secrets(st->x, o->secrets);
    double t0 = eous_now_ms();
    if (st->t->ops && st->t->ops->enter && (rc = st->t->ops->enter(st->t, &st->hold, err)))
        return rc;
    double t1 = eous_now_ms();
    st->res->time.site_ms = t1 - t0;
    values_start(st);
    if ((rc = agent_prepare_page(st->s, st->t, err)))
        return rc;
    act_settle(st->x, NULL, NULL);
    st->res->time.start_ms = eous_now_ms() - t1;
    perc_opts_init(&st->po);
    st->po.mode = o->mode;
    st->po.provider_set = o->provider_set;
    int model = o->planner != AGENT_PLANNER_SCRIPT, exec = o->planner == AGENT_PLANNER_EXEC;
    /* an agent program keeps its own history: it gets deltas unless told not to */
    st->send_deltas = model && (exec || o->history == LLM_HISTORY_FULL) && o->deltas != 0;
    if ((o->deltas == 1 || st->send_deltas) && (rc = perc_delta_new(NULL, &st->delta, err)))
        return rc;
    if (model && !exec && o->history == LLM_HISTORY_FULL && (rc = llm_conv_new(o->history_budget, &st->conv, err)))
        return rc;
    return exec ? exec_start(st, err) : EOUS_OK;
}

/* ======================================================================
 * Planning: the model or the script
 * ====================================================================== */

/* Asks the model for the next action; a reply that does not parse is
 * retried (told why) up to MAX_FAILED_PARSES times. */
static plan_outcome plan_with_model(run_state *st, int *step, llm_usage *usage, double tl, eous_rc *rc,
                                    eous_err *err)
{
    agent_result *res = st->res;
    llm_step_input in;
    memset(&in, 0, sizeof in);
    in.objective = st->objective ? st->objective : st->t->intent;
    in.answer_schema = st->answer_schema;
    in.url = perc_obs_url(st->obs);
    char secret_names[512];
    act_secrets_names(st->o->secrets, in.url, secret_names, sizeof secret_names);
    in.secret_names = secret_names;
    in.observation = st->send_deltas ? st->sent_text : perc_obs_text(st->obs);
    in.max_batch = st->max_batch;
    in.prev_turn = st->turn;
    in.conv = st->conv;
    in.deltas = st->send_deltas;
    in.mode = st->o->mode;
    in.history = st->hist;
    in.n_history = st->n_hist;
    in.last_error = st->last_error[0] ? st->last_error : NULL;
    in.last_error_is_answer = st->failed_parses > 0;
    in.image_png = st->shot.png;
    in.image_len = st->shot.len;
    in.image_legend = st->shot.legend;
    eous_err perr;
    eous_err_clear(&perr);
    llm_turn *turn = NULL;
    eous_rc prc = llm_next_actions(st->o->llm, &in, st->batch.a, (size_t)st->max_batch, &st->batch.n, &turn,
                                   usage, &perr);
    /* the results of the reply before went with this request; when this reply failed they go again */
    if (prc == EOUS_OK) {
        llm_turn_free(st->turn);
        st->turn = turn;
    }
    res->plan_calls++;
    st->batch.dropped = (size_t)usage->extra_tool_calls;
    res->usage.prompt_tokens += usage->prompt_tokens;
    res->usage.completion_tokens += usage->completion_tokens;
    res->usage.cached_tokens += usage->cached_tokens;
    res->usage.cost_usd += usage->cost_usd;
    res->usage.request_tokens += usage->request_tokens;
    res->usage.prefix_tokens += usage->prefix_tokens;
    res->usage.fixed_tokens += usage->fixed_tokens;
    if (prc == EOUS_E_INVALID && st->o->planner == AGENT_PLANNER_REPLAY) {
        *rc = eous_err_set(err, EOUS_E_INVALID, "%s", perr.msg);
        return PLAN_FAIL;
    }
    if (prc == EOUS_E_PARSE || prc == EOUS_E_INVALID) {
        st->failed_parses++;
        snprintf(st->last_error, sizeof st->last_error, "your last answer could not be parsed: %s", perr.msg);
        perc_delta_reset(st->delta); /* the retry gets the whole view again */
        cJSON *line = cJSON_CreateObject();
        cJSON_AddNumberToObject(line, "step", *step + 1);
        cJSON_AddStringToObject(line, "parse_error", perr.msg);
        agent_evidence_annotate(st->ev, line);
        trace_line(&st->trace, line);
        res->steps = ++*step;
        res->time.plan_ms += eous_now_ms() - tl;
        if (st->failed_parses >= MAX_FAILED_PARSES) {
            res->stop_reason = AGENT_STOP_PARSE_FAILURES;
            return PLAN_END;
        }
        return PLAN_RETRY;
    }
    if (prc) {
        *rc = prc;
        if (err)
            *err = perr;
        /* the model endpoint's failure, not the browser's: the bench keeps
         * the session and counts it toward its breaker */
        if (eous_rc_is_infra(prc))
            res->stop_reason = AGENT_STOP_MODEL_UNAVAILABLE;
        return PLAN_FAIL;
    }
    st->failed_parses = 0;
    return PLAN_ACT;
}

/* The next batch: the script's next steps or the model's answer. */
static plan_outcome plan_step(run_state *st, int *step, llm_usage *usage, eous_rc *rc, eous_err *err)
{
    double tl = eous_now_ms();
    if (st->o->planner == AGENT_PLANNER_EXEC)
        return plan_with_exec(st, step, usage, rc, err);
    if (st->o->planner != AGENT_PLANNER_SCRIPT)
        return plan_with_model(st, step, usage, tl, rc, err);
    eous_err perr;
    eous_err_clear(&perr);
    if (agent_batch_from_script(st->plan, st->cursor, st->cursor_sub, st->obs, st->max_batch, &st->batch, &perr)) {
        snprintf(st->res->error, sizeof st->res->error, "%s", perr.msg);
        st->res->stop_reason = AGENT_STOP_SCRIPT_ERROR;
        return PLAN_END;
    }
    if (!st->batch.n) {
        st->res->stop_reason = AGENT_STOP_SCRIPT_END;
        return PLAN_END;
    }
    st->res->plan_calls++;
    return PLAN_ACT;
}

/* ======================================================================
 * Acting: grounding, the trace line, retries, repair
 * ====================================================================== */

/* Any action may navigate (a link, a form, a key press, a page tool that
 * sets location), even one that then failed because its page went away:
 * where it led must be allowed too, else go back and refuse (the refusal is
 * the step's error).  An action refused before it touched the page cannot
 * have navigated: nothing to ask. */
static eous_rc check_where_it_led(run_state *st, const act_action *a, eous_rc arc, eous_err *aerr)
{
    int touched = !eous_rc_ends_task(arc) && arc != EOUS_E_POLICY && arc != EOUS_E_REJECTED &&
                  arc != EOUS_E_INVALID && arc != EOUS_E_PARSE;
    act_policy *pol = st->o->policy ? st->o->policy : st->own_policy;
    if (a->kind == ACT_STOP || !touched || !pol)
        return arc;
    /* the URL the settle after the action read: no round trip of its own */
    eous_rc lrc = act_exec_check_landing(st->x, pol, aerr);
    return lrc ? lrc : arc;
}

static int grounding_on(const run_state *st)
{
    return st->o->grounding != AGENT_GROUND_OFF && st->o->planner == AGENT_PLANNER_SCRIPT;
}

/* Grounds a scripted step in what the run has seen (agent/grounding.h) and
 * counts the verdict; 1 when strict grounding refuses the step. */
static int ground_refuses(run_state *st, const act_action *a)
{
    memset(&st->ground, 0, sizeof st->ground);
    if (!grounding_on(st))
        return 0;
    /* the plan entry this action came from (a batch's action i: entry i, or
     * its item in an array entry), checked against the view it runs on */
    const cJSON *entry = cJSON_GetArrayItem(st->plan, st->batch.entry[st->batch_index]);
    if (cJSON_IsArray(entry))
        entry = cJSON_GetArrayItem(entry, st->batch.sub[st->batch_index]);
    agent_ground_step(st->act_view ? st->act_view : st->obs, st->t->intent, &st->seen, entry, a, &st->ground);
    agent_result *res = st->res;
    int *count[] = {&res->ground.grounded, &res->ground.computed, &res->ground.addressing, &res->ground.ungrounded};
    (*count[st->ground.verdict])++;
    return st->ground.verdict == AGENT_GROUND_UNGROUNDED && st->o->grounding == AGENT_GROUND_STRICT;
}

/* Timings of one step, for its trace line. */
typedef struct step_ms {
    double perceive, plan;
    size_t obs_tokens, obs_tokens_sent;
    unsigned long perceive_trips, act_trips; /* requests to the WebDriver endpoint */
} step_ms;

/* Where an action sits in its batch, for its trace line. */
static void trace_batch_fields(const run_state *st, cJSON *line)
{
    cJSON *b = cJSON_AddObjectToObject(line, "batch");
    cJSON_AddNumberToObject(b, "round_trip", st->res->plan_calls);
    cJSON_AddNumberToObject(b, "index", (double)st->batch_index + 1);
    cJSON_AddNumberToObject(b, "size", (double)st->batch.n);
}

/* Planner exec, a reply's first action: the reply as read and what eous spent around it (ms): from
 * the last settle to the observation line written (with the WebDriver waits in it: perceiving), the
 * line's own making and writing, and from the reply read to its first browser command. */
static void trace_agent_fields(run_state *st, cJSON *line)
{
    if (st->o->planner != AGENT_PLANNER_EXEC || st->batch_index || !st->exec_line)
        return;
    size_t n = strlen(st->exec_line);
    if (n > 4096) /* a long reply's start is enough to tell whose it was */
        st->exec_line[4096] = '\0';
    cJSON_AddStringToObject(line, "agent_line", st->exec_line);
    if (n > 4096)
        cJSON_AddNumberToObject(line, "agent_line_bytes", (double)n);
    free(st->exec_line);
    st->exec_line = NULL;
    cJSON *tm = cJSON_AddObjectToObject(line, "agent_ms");
    if (st->exec_obs_timed) {
        cJSON_AddNumberToObject(tm, "settle_to_obs", st->exec_obs_ms[0]);
        cJSON_AddNumberToObject(tm, "settle_to_obs_browser", st->exec_obs_ms[1]);
    }
    cJSON_AddNumberToObject(tm, "obs_line", st->exec_obs_ms[2]);
    double first = wd_session_timing_first(st->s); /* 0: the action sent no command (a stop) */
    if (first > 0)
        cJSON_AddNumberToObject(tm, "line_to_browser", first - st->exec_line_ms);
}

static void trace_step(run_state *st, int step, const act_action *a, const char *action_text, const act_result *ar,
                       eous_rc arc, const eous_err *aerr, const llm_usage *usage, const step_ms *ms)
{
    perc_obs *obs = st->obs;
    cJSON *line = cJSON_CreateObject();
    cJSON_AddNumberToObject(line, "step", step);
    cJSON_AddStringToObject(line, "mode", perc_mode_name(st->o->mode));
    cJSON_AddStringToObject(line, "url", perc_obs_url(obs));
    cJSON_AddNumberToObject(line, "obs_bytes", (double)perc_obs_text_len(obs));
    cJSON_AddNumberToObject(line, "obs_tokens", (double)ms->obs_tokens);
    if (st->delta) {
        cJSON_AddNumberToObject(line, "obs_tokens_sent", (double)ms->obs_tokens_sent);
        cJSON_AddBoolToObject(line, "obs_delta", st->sent_is_delta);
    }
    cJSON_AddStringToObject(line, "obs_tokens_by", st->res->obs.tokens_by);
    trace_batch_fields(st, line);
    cJSON_AddNumberToObject(line, "components", (double)perc_obs_n_components(obs));
    cJSON_AddStringToObject(line, "action", action_text ? action_text : "");
    if (a->kind == ACT_TYPE && !a->clear) /* the text form has no clear: distill reads it here */
        cJSON_AddFalseToObject(line, "clear");
    cJSON_AddStringToObject(line, "path", act_path_name(ar->path));
    if (grounding_on(st)) {
        cJSON_AddStringToObject(line, "grounding", agent_ground_verdict_name(st->ground.verdict));
        if (st->ground.missing[0])
            cJSON_AddStringToObject(line, "grounding_missing", st->ground.missing);
    }
    if (ar->fallback_reason[0])
        cJSON_AddStringToObject(line, "fallback_reason", ar->fallback_reason);
    cJSON_AddStringToObject(line, arc ? "error" : "result", arc ? aerr->msg : ar->message);
    if (ar->attempts)
        cJSON_AddNumberToObject(line, "attempt", ar->attempts);
    cJSON_AddNumberToObject(line, "prompt_tokens", (double)usage->prompt_tokens);
    cJSON_AddNumberToObject(line, "completion_tokens", (double)usage->completion_tokens);
    if (usage->calls) {
        cJSON_AddNumberToObject(line, "cached_tokens", (double)usage->cached_tokens);
        cJSON *b = cJSON_AddObjectToObject(line, "request_tokens");
        cJSON_AddNumberToObject(b, "total", (double)usage->request_tokens);
        cJSON_AddNumberToObject(b, "prefix", (double)usage->prefix_tokens);
        cJSON_AddNumberToObject(b, "fixed", (double)usage->fixed_tokens);
    }
    cJSON *tm = cJSON_AddObjectToObject(line, "ms");
    cJSON_AddNumberToObject(tm, "perceive", ms->perceive);
    cJSON_AddNumberToObject(tm, "plan", ms->plan);
    cJSON_AddNumberToObject(tm, "act", ar->act_ms);
    cJSON_AddNumberToObject(tm, "settle", ar->settle_ms);
    /* requests to the WebDriver endpoint (HTTP commands, CDP through it): perceive's, the action's with its settle */
    cJSON *rt = cJSON_AddObjectToObject(line, "round_trips");
    cJSON_AddNumberToObject(rt, "perceive", (double)ms->perceive_trips);
    cJSON_AddNumberToObject(rt, "act", (double)ms->act_trips);
    if (ar->settle_waited[0]) /* what held the settle (the cap when settle_capped) */
        cJSON_AddStringToObject(line, ar->settle_capped ? "settle_capped" : "settle_waited", ar->settle_waited);
    if (perc_obs_n_warnings(obs)) {
        cJSON *w = cJSON_AddArrayToObject(line, "warnings");
        for (size_t i = 0; i < perc_obs_n_warnings(obs); i++)
            cJSON_AddItemToArray(w, cJSON_CreateString(perc_obs_warning(obs, i)));
    }
    trace_agent_fields(st, line);
    values_trace(st, line);
    agent_evidence_annotate(st->ev, line);
    trace_line(&st->trace, line);
}

/* Appends (action, "status: result") to the history the model sees next step;
 * status is "ok", "error" or "not run", as tool results say it. */
static void remember(run_state *st, const char *action_text, const char *status, const char *what)
{
    char result[1100];
    snprintf(result, sizeof result, "%s: %s", status, what ? what : "");
    llm_history_item *hg = realloc(st->hist, (st->n_hist + 1) * sizeof *hg);
    if (hg)
        st->hist = hg;
    char **tg = realloc(st->hist_text, (st->n_hist + 1) * 2 * sizeof *tg);
    if (tg)
        st->hist_text = tg;
    if (!hg || !tg)
        return;
    char *at = strdup(action_text ? action_text : ""), *rt = strdup(result);
    if (!at || !rt) {
        free(at);
        free(rt);
        return;
    }
    st->hist_text[st->n_hist * 2] = at;
    st->hist_text[st->n_hist * 2 + 1] = rt;
    st->hist[st->n_hist].action = at;
    st->hist[st->n_hist].result = rt;
    st->n_hist++;
}

/* 1 when the model has now repeated this action MAX_REPEATED_ACTIONS times
 * (WebArena's rule: it is stuck); a deterministic plan may repeat on purpose. */
/* The hash of the view action a is taken on. */
static void acted_view_hash(const run_state *st, char out[17])
{
    const perc_obs *v = st->act_view ? st->act_view : st->obs;
    eous_hash_hex(perc_obs_text(v), perc_obs_text_len(v), out);
}

/* 1 when a model takes the same action for the third time on an unchanged view: it is stuck.  (WebArena
 * stops on the same action three times whatever the page did; a pager clicked through its pages, the
 * same "Next Page" on a new page each time, is progress.) */
static int repeats(const run_state *st, const act_action *a)
{
    int same = st->o->planner != AGENT_PLANNER_SCRIPT && st->n_prev >= MAX_REPEATED_ACTIONS - 1;
    char view[17];
    acted_view_hash(st, view);
    for (int i = 0; i < MAX_REPEATED_ACTIONS - 1 && same; i++) {
        int k = (st->n_prev - 1 - i) % MAX_REPEATED_ACTIONS;
        same = act_equal(&st->prev[k], a) && !strcmp(st->prev_view[k], view);
    }
    return same;
}

/* Runs a; a script step with "retries" runs again on a fresh view after a
 * failure the page may outgrow (not policy, bad input or the infrastructure),
 * backing off 250 ms, 500 ms, 1 s … (at most 4 s) within its "timeout_ms".
 * Every failed attempt before the last gets its own trace line. */
static eous_rc execute_with_retries(run_state *st, int step, const act_action *a, act_result *ar, eous_err *aerr)
{
    const perc_obs *view = st->act_view ? st->act_view : st->obs;
    perc_obs *fresh = NULL;
    double t0 = eous_now_ms(), backoff = 250;
    eous_rc arc;
    for (int attempt = 1;; attempt++) {
        arc = values_execute(st, fresh ? fresh : view, a, ar, aerr);
        int last = attempt > a->retries || arc == EOUS_OK || arc == EOUS_E_POLICY || arc == EOUS_E_INVALID ||
                   eous_rc_ends_task(arc) || eous_interrupted() ||
                   (a->timeout_ms > 0 && eous_now_ms() - t0 + backoff > a->timeout_ms);
        if (last) {
            if (attempt > 1) /* the trace line of the step says which attempt it was */
                ar->attempts = attempt;
            break;
        }
        cJSON *line = cJSON_CreateObject();
        char *text = act_format(a);
        cJSON_AddNumberToObject(line, "step", step);
        cJSON_AddStringToObject(line, "action", text ? text : act_kind_name(a->kind));
        cJSON_AddNumberToObject(line, "attempt", attempt);
        cJSON_AddStringToObject(line, "error", aerr->msg);
        cJSON_AddNumberToObject(line, "retry_in_ms", backoff);
        trace_line(&st->trace, line);
        free(text);
        act_result_clear(ar);
        eous_sleep_ms(backoff); /* back-off: the page gets time to catch up */
        backoff = backoff * 2 > 4000 ? 4000 : backoff * 2;
        perc_obs_free(fresh);
        fresh = NULL;
        st->po.id_base = view;
        eous_rc orc = act_observe(st->s, &st->po, &fresh, aerr);
        st->po.id_base = NULL;
        if (orc) {
            arc = orc;
            break;
        }
    }
    perc_obs_free(fresh);
    return arc;
}

/* --repair llm: a script step whose target is gone is replaced once by the
 * model's action on a fresh view, run, and logged for repair.json. */
static eous_rc try_repair(run_state *st, int step, const act_action *a, eous_rc arc, act_result *ar,
                          eous_err *aerr)
{
    perc_obs *now = NULL;
    act_action repl;
    act_action_init(&repl);
    llm_usage usage;
    memset(&usage, 0, sizeof usage);
    eous_err rerr;
    eous_err_clear(&rerr);
    st->po.id_base = st->obs;
    eous_rc rc = act_observe(st->s, &st->po, &now, &rerr);
    st->po.id_base = NULL;
    if (!rc)
        rc = agent_repair_ask(st->o->llm, now, st->t->intent, a, aerr->msg, &repl,
                              &usage, &rerr);
    st->res->plan_calls += usage.calls > 0;
    st->res->usage.prompt_tokens += usage.prompt_tokens;
    st->res->usage.completion_tokens += usage.completion_tokens;
    st->res->usage.cost_usd += usage.cost_usd;
    size_t i = st->batch_index;
    int entry = st->batch.entry[i];
    const cJSON *orig = cJSON_GetArrayItem(st->plan, entry);
    int sub = cJSON_IsArray(orig) ? st->batch.sub[i] : -1;
    if (sub >= 0)
        orig = cJSON_GetArrayItem(orig, sub);
    cJSON *line = cJSON_CreateObject();
    cJSON_AddNumberToObject(line, "step", step);
    if (rc) {
        cJSON_AddStringToObject(line, "repair_error", rerr.msg);
        trace_line(&st->trace, line);
        /* the step's own failure stays the task's; the repair's is said beside it */
        size_t n = strlen(aerr->msg);
        snprintf(aerr->msg + n, sizeof aerr->msg - n, " (repair: %s)", rerr.msg);
        perc_obs_free(now);
        /* a model that could not be asked leaves the job failed by its step, not the site down */
        return rc == EOUS_E_INTERRUPTED ? rc : arc;
    }
    char *model_text = act_format(&repl);
    cJSON *new_step = agent_repair_script_step(now, &repl, orig);
    const char *plan_name = st->plan == st->t->steps ? "script" : "atomic_script";
    act_result_clear(ar);
    eous_err xerr;
    eous_err_clear(&xerr);
    rc = values_execute(st, now, &repl, ar, &xerr);
    agent_repair_log_add(&st->repairs, plan_name, entry, sub, orig, new_step, model_text, aerr->msg,
                         perc_obs_text(now));
    cJSON_AddStringToObject(line, "repaired_by", model_text ? model_text : "");
    if (new_step)
        cJSON_AddItemToObject(line, "replacement", cJSON_Duplicate(new_step, 1));
    cJSON_AddStringToObject(line, rc ? "repair_error" : "repair_result", rc ? xerr.msg : ar->message);
    trace_line(&st->trace, line);
    if (!rc)
        st->n_repaired++;
    *aerr = xerr;
    free(model_text);
    cJSON_Delete(new_step);
    act_action_clear(&repl);
    perc_obs_free(now);
    return rc;
}

/* Outcome of one step: go on, stop the loop (to score), or end the task. */
typedef enum step_outcome { STEP_NEXT, STEP_STOP, STEP_FAIL } step_outcome;

/* Acts on a (taken over: cleared or moved into st->prev) and records it. */
static step_outcome act_step(run_state *st, int *step, act_action *a, const llm_usage *usage, const step_ms *ms,
                             eous_rc *rc, eous_err *err)
{
    agent_result *res = st->res;
    int same = repeats(st, a);
    act_result ar;
    memset(&ar, 0, sizeof ar);
    eous_err aerr;
    eous_err_clear(&aerr);
    if (ground_refuses(st, a)) {
        res->steps = ++*step;
        eous_err eerr; /* a refused step is the failing step: its screenshot is the evidence */
        evidence_io(&st->trace, agent_evidence_failed(st->ev, st->s, *step, &eerr), &eerr);
        eous_err_set(&aerr, EOUS_E_REJECTED, "ungrounded: %s", st->ground.missing);
        char *text = act_format(a);
        trace_step(st, *step, a, text, &ar, EOUS_E_REJECTED, &aerr, usage, ms);
        free(text);
        snprintf(res->error, sizeof res->error, "step %d (%s): %s", *step, act_kind_name(a->kind), aerr.msg);
        res->stop_reason = AGENT_STOP_UNGROUNDED;
        act_action_clear(a);
        return STEP_STOP;
    }
    unsigned long trips = wd_session_round_trips(st->s);
    eous_rc arc = execute_with_retries(st, *step + 1, a, &ar, &aerr);
    if (arc && st->o->repair && st->o->llm && st->o->planner == AGENT_PLANNER_SCRIPT &&
        agent_repair_wanted(a, arc, aerr.msg))
        arc = try_repair(st, *step + 1, a, arc, &ar, &aerr);
    step_ms with_trips = *ms;
    with_trips.act_trips = wd_session_round_trips(st->s) - trips;
    st->exec_settled_ms = eous_now_ms(); /* the next observation's cost counts from here */
    st->exec_settled_wait = wd_session_wait_ms(st->s);
    arc = check_where_it_led(st, a, arc, &aerr);
    if (grounding_on(st))
        agent_ground_log_add(&st->seen, arc ? aerr.msg : ar.message);
    res->steps = ++*step;
    if (arc) {
        eous_err eerr;
        evidence_io(&st->trace, agent_evidence_failed(st->ev, st->s, *step, &eerr), &eerr);
    }
    res->time.act_ms += ar.act_ms;
    res->time.settle_ms += ar.settle_ms;
    if (ar.path == ACT_PATH_SEMANTIC)
        res->semantic_actions++;
    else if (ar.path == ACT_PATH_ATOMIC)
        res->atomic_actions++;
    if (ar.fallback_reason[0])
        res->fallbacks++;
    char *action_text = act_format(a);
    trace_step(st, *step, a, action_text, &ar, arc, &aerr, usage, &with_trips);
    st->last_status = arc ? LLM_ACTION_ERROR : LLM_ACTION_OK;
    SET(st->last_result, arc ? aerr.msg : ar.message);
    st->last_dialog = ar.dialog;
    remember(st, action_text, arc ? "error" : "ok", arc ? aerr.msg : ar.message);
    free(action_text);

    step_outcome out = STEP_NEXT;
    /* a page tool that never answers (a timeout) is the step's failure, not
     * the infrastructure's */
    if (arc != EOUS_E_TIMEOUT && eous_rc_ends_task(arc)) {
        *rc = arc;
        if (err)
            *err = aerr;
        out = STEP_FAIL;
    } else if (arc) {
        res->errors++;
        snprintf(st->last_error, sizeof st->last_error, "%s", aerr.msg);
        if (st->o->planner == AGENT_PLANNER_SCRIPT) {
            /* a deterministic plan whose step fails stops with the step's error */
            snprintf(res->error, sizeof res->error, "step %d (%s): %s", *step, act_kind_name(a->kind), aerr.msg);
            res->stop_reason = a->kind == ACT_EXPECT && arc == EOUS_E_REJECTED ? AGENT_STOP_EXPECT_FAILED : AGENT_STOP_SCRIPT_ERROR;
            /* a job that did not do its work fails, whatever its evaluators (if any) would say of the page */
            if (act_kind_is_rpa(a->kind) ||
                !st->t->ops || !st->t->ops->score)
                st->unscored = a->kind == ACT_EXPECT && arc == EOUS_E_REJECTED ? "not scored: an expect step failed"
                                                                                : "not scored: a script step failed";
            out = STEP_STOP;
        }
    } else {
        st->last_error[0] = '\0';
    }
    if (out == STEP_NEXT && ar.stopped) {
        free(res->answer);
        res->answer = strdup(ar.answer ? ar.answer : "");
        res->stop_reason = AGENT_STOP_STOP;
        out = STEP_STOP;
    }
    act_result_clear(&ar);
    if (out != STEP_NEXT) {
        act_action_clear(a);
        return out;
    }
    act_action_clear(&st->prev[st->n_prev % MAX_REPEATED_ACTIONS]);
    acted_view_hash(st, st->prev_view[st->n_prev % MAX_REPEATED_ACTIONS]);
    st->prev[st->n_prev % MAX_REPEATED_ACTIONS] = *a; /* moves ownership */
    st->n_prev++;
    if (same) {
        res->stop_reason = AGENT_STOP_REPEATED_ACTION;
        return STEP_STOP;
    }
    return STEP_NEXT;
}

/* ======================================================================
 * Batches
 * ====================================================================== */

/* Action i of the batch (or, past its end, a tool call beyond --max-batch)
 * was not run: said in the trace, the audit log and to the model. */
static void note_not_run(run_state *st, size_t i, const char *why)
{
    const act_action *a = i < st->batch.n ? &st->batch.a[i] : NULL;
    char *text = a ? act_format(a) : NULL;
    char dropped[64];
    snprintf(dropped, sizeof dropped, "(tool call %zu, beyond the batch limit)", i + 1);
    st->res->not_run++;
    st->batch_index = i;
    cJSON *line = cJSON_CreateObject();
    cJSON_AddNumberToObject(line, "step", st->res->steps);
    cJSON_AddStringToObject(line, "action", text ? text : dropped);
    cJSON_AddStringToObject(line, "not_run", why);
    trace_batch_fields(st, line);
    trace_line(&st->trace, line);
    if (a)
        act_exec_note_not_run(st->x, a, why);
    if (st->o->planner != AGENT_PLANNER_SCRIPT) {
        remember(st, text ? text : dropped, "not run", why);
    }
    llm_turn_set_result(st->turn, i, LLM_ACTION_NOT_RUN, why);
    free(text);
}

/* 1 when the batch stops before action i (why says so), 0 to go on, -1 when
 * the page cannot be perceived (*rc).  The view taken here is the one action
 * i runs on (st->act_view: its targets checked against the planned view, its
 * states current), or the next step's when the batch stops. */
static int batch_must_stop(run_state *st, size_t i, int step, char *why, size_t n, eous_rc *rc, eous_err *err)
{
    if (st->last_dialog) {
        snprintf(why, n, "the page opened a dialog");
        return 1;
    }
    if (step >= st->max_steps) {
        snprintf(why, n, "the step budget (%d) ran out", st->max_steps);
        return 1;
    }
    double tp = eous_now_ms();
    perc_obs *now = NULL;
    st->po.id_base = st->act_view ? st->act_view : st->obs;
    *rc = act_observe(st->s, &st->po, &now, err);
    st->po.id_base = NULL;
    if (*rc)
        return -1;
    st->res->time.perceive_ms += eous_now_ms() - tp;
    char stale[600];
    /* the observation read the tabs already: no second round of handles */
    int stop = perc_obs_tab_count(now) != perc_obs_tab_count(st->obs);
    if (stop)
        snprintf(why, n, "the number of open tabs changed");
    else
        stop = agent_batch_navigated(st->obs, now, why, n);
    if (!stop && (stop = agent_batch_stale(st->obs, now, &st->batch.a[i], stale, sizeof stale)))
        snprintf(why, n, "stale target of action %zu: %s", i + 1, stale);
    perc_obs_free(st->act_view);
    st->act_view = NULL;
    if (stop)
        st->next_obs = now;
    else
        st->act_view = now;
    if (!stop && grounding_on(st))
        agent_ground_log_add(&st->seen, perc_obs_text(now)); /* the view the next action is checked on */
    return stop;
}

/* The script planner resumes at the first action a batch did not run. */
static void advance_script(run_state *st, size_t ran)
{
    const agent_batch *b = &st->batch;
    if (!b->n)
        return;
    if (ran < b->n) {
        st->cursor = b->entry[ran];
        st->cursor_sub = b->sub[ran];
        return;
    }
    size_t last = b->n - 1;
    const cJSON *e = cJSON_GetArrayItem(st->plan, b->entry[last]);
    if (cJSON_IsArray(e) && b->sub[last] + 1 < cJSON_GetArraySize(e)) {
        st->cursor = b->entry[last];
        st->cursor_sub = b->sub[last] + 1;
    } else {
        st->cursor = b->entry[last] + 1;
        st->cursor_sub = 0;
    }
}

/* Runs the batch's actions in order on the view they were planned on,
 * stopping as agent/batch.h says; every action gets its result. */
static step_outcome run_batch(run_state *st, int *step, const llm_usage *usage, const step_ms *ms, eous_rc *rc,
                              eous_err *err)
{
    agent_batch *b = &st->batch;
    llm_usage none;
    memset(&none, 0, sizeof none);
    step_outcome out = STEP_NEXT;
    char why[700] = "";
    size_t i = 0;
    st->last_dialog = 0;
    for (; i < b->n; i++) {
        st->batch_index = i;
        int stop = i ? batch_must_stop(st, i, *step, why, sizeof why, rc, err) : 0;
        if (stop < 0)
            out = STEP_FAIL;
        if (stop)
            break;
        out = act_step(st, step, &b->a[i], i ? &none : usage, ms, rc, err);
        act_action_init(&b->a[i]); /* act_step took it over */
        llm_turn_set_result(st->turn, i, st->last_status, st->last_result);
        if (out != STEP_NEXT || st->last_status == LLM_ACTION_ERROR) {
            snprintf(why, sizeof why, "action %zu %s", i + 1,
                     st->last_status == LLM_ACTION_ERROR ? "failed" : "ended the task");
            i++;
            break;
        }
    }
    size_t ran = i;
    for (size_t k = ran; k < b->n; k++)
        note_not_run(st, k, why);
    for (size_t k = 0; k < b->dropped; k++)
        note_not_run(st, b->n + k, "more actions than the batch limit allows in one answer");
    if (st->o->planner == AGENT_PLANNER_SCRIPT)
        advance_script(st, ran);
    agent_batch_clear(b);
    perc_obs_free(st->act_view);
    st->act_view = NULL;
    return out;
}

/* ======================================================================
 * Perceiving and the step loop
 * ====================================================================== */

/* This step's view: the one a stopped batch took, else a new one; and what
 * of it the planner is sent (a delta when they are on). */
static eous_rc perceive(run_state *st, step_ms *ms, eous_err *err)
{
    agent_result *res = st->res;
    double tp = eous_now_ms();
    unsigned long trips = wd_session_round_trips(st->s);
    perc_obs *prev = st->obs;
    st->obs = st->next_obs;
    st->next_obs = NULL;
    eous_rc rc = EOUS_OK;
    st->po.id_base = prev; /* components keep their view ids on the same page */
    if (!st->obs)
        rc = act_observe(st->s, &st->po, &st->obs, err); /* with every open tab */
    st->po.id_base = NULL;
    perc_obs_free(prev);
    if (rc)
        return rc;
    ms->perceive = eous_now_ms() - tp;
    ms->perceive_trips = wd_session_round_trips(st->s) - trips; /* 0: a stopped batch's view */
    res->time.perceive_ms += ms->perceive;
    res->obs.bytes += perc_obs_text_len(st->obs);
    st->sent_text = perc_obs_text(st->obs);
    st->sent_is_delta = 0;
    if (llm_conv_over_budget(st->conv)) {
        /* the conversation starts afresh: its first view is whole */
        llm_conv_reset(st->conv);
        perc_delta_reset(st->delta);
        res->history_restarts++;
    }
    if (st->delta) {
        if ((rc = perc_delta_next(st->delta, st->obs, &st->sent_text, &st->sent_is_delta, &ms->obs_tokens,
                                  &ms->obs_tokens_sent, err)))
            return rc;
    } else {
        ms->obs_tokens = eous_tok_count_o200k(perc_obs_text(st->obs), perc_obs_text_len(st->obs));
        ms->obs_tokens_sent = ms->obs_tokens;
    }
    res->obs.tokens += ms->obs_tokens;
    res->obs.tokens_sent += ms->obs_tokens_sent;
    st->sent_tokens = ms->obs_tokens_sent;
    return EOUS_OK;
}

/* Vision: the set-of-marks screenshot of what was just perceived, for the
 * model (a script reads no image) and the evidence. */
static eous_rc perceive_vision(run_state *st, int step, eous_err *err)
{
    perc_marked_shot_clear(&st->shot);
    if (!perc_mode_screenshot(st->o->mode) || st->o->planner == AGENT_PLANNER_SCRIPT)
        return EOUS_OK;
    eous_rc rc = perc_screenshot_marked(st->s, st->obs, st->o->max_image_px, &st->shot, err);
    if (!rc) {
        eous_err eerr;
        evidence_io(&st->trace, agent_evidence_vision(st->ev, step, st->shot.png, st->shot.len, &eerr), &eerr);
    }
    return rc;
}

/* Perceive, plan, act until the plan ends, the model stops or a budget runs
 * out.  EOUS_OK means: score what the page is now. */
static eous_rc run_steps(run_state *st, eous_err *err)
{
    agent_result *res = st->res;
    eous_rc rc = EOUS_OK;
    for (int step = 0;;) {
        if (eous_interrupted())
            return eous_err_set(err, EOUS_E_INTERRUPTED, "interrupted");
        if (step >= st->max_steps) {
            res->stop_reason = AGENT_STOP_MAX_STEPS;
            return EOUS_OK;
        }
        if (st->o->max_seconds > 0 && eous_now_ms() - st->t0 > st->o->max_seconds * 1000) {
            res->stop_reason = AGENT_STOP_TIME;
            return EOUS_OK;
        }
        step_ms ms;
        memset(&ms, 0, sizeof ms);
        if ((rc = perceive(st, &ms, err)))
            return rc;
        if ((rc = perceive_vision(st, step + 1, err)))
            return rc;
        if (grounding_on(st))
            agent_ground_log_add(&st->seen, perc_obs_text(st->obs));
        eous_err eerr;
        /* the evidence is what the planner got: the delta when one was sent */
        const char *got = st->send_deltas ? st->sent_text : perc_obs_text(st->obs);
        evidence_io(&st->trace, agent_evidence_perceived(st->ev, st->s, step + 1, got, strlen(got), &eerr), &eerr);
        double tl = eous_now_ms();
        llm_usage usage;
        memset(&usage, 0, sizeof usage);
        plan_outcome po = plan_step(st, &step, &usage, &rc, err);
        if (po != PLAN_ACT) {
            agent_batch_clear(&st->batch);
            if (po == PLAN_RETRY)
                continue;
            return po == PLAN_END ? EOUS_OK : rc;
        }
        ms.plan = eous_now_ms() - tl;
        res->time.plan_ms += ms.plan;
        step_outcome so = run_batch(st, &step, &usage, &ms, &rc, err);
        if (so == STEP_FAIL)
            return rc;
        if (so == STEP_STOP)
            return EOUS_OK;
    }
}

/* ======================================================================
 * Scoring and the task's end
 * ====================================================================== */

/* final.png as the evidence rules say, named in the result. */
static void keep_final(run_state *st, int passed)
{
    eous_err eerr;
    evidence_io(&st->trace, agent_evidence_keep_final(st->ev, passed, &eerr), &eerr);
    const char *rel = agent_evidence_final(st->ev);
    if (rel)
        SET(st->res->screenshot, rel);
}

/* Scores the page and the answer with the task's evaluators. */
static eous_rc run_score(run_state *st, eous_err *err)
{
    agent_result *res = st->res;
    if (res->stop_reason == AGENT_STOP_UNGROUNDED) {
        /* a plan that acted on what it could not have seen scores nothing */
        res->status = EOUS_ST_FAILED;
        SET(res->eval_detail, "not scored: an ungrounded step ended the task");
        return EOUS_OK;
    }
    if (st->unscored) {
        res->status = EOUS_ST_FAILED;
        SET(res->eval_detail, st->unscored);
        agent_evidence_capture_final(st->ev, st->s);
        keep_final(st, 0);
        return EOUS_OK;
    }
    if (!st->t->ops || !st->t->ops->score) {
        /* no scorer: a job whose steps ran to their end passed */
        res->score = 1.0;
        res->status = EOUS_ST_PASSED;
        if (agent_evidence_wants_final(st->ev, 1))
            agent_evidence_capture_final(st->ev, st->s);
        keep_final(st, 1);
        return EOUS_OK;
    }
    int navigates = st->t->ops->score_navigates && st->t->ops->score_navigates(st->t);
    if (navigates) /* the page as the task left it, before an evaluator leaves it */
        agent_evidence_capture_final(st->ev, st->s);
    agent_job_score_in in = {
        .s = st->s, .x = st->x, .judge = st->o->llm, .answer = res->answer, .trace_path = st->o->trace_path};
    char note[300] = "";
    eous_rc rc = st->t->ops->score(st->t, &in, res, note, sizeof note, err);
    if (note[0]) {
        cJSON *line = cJSON_CreateObject();
        cJSON_AddStringToObject(line, "verified", note);
        trace_line(&st->trace, line);
    }
    if (rc)
        return rc;
    int passed = res->status == EOUS_ST_PASSED;
    if (!navigates && agent_evidence_wants_final(st->ev, passed)) /* only the screenshots kept are taken */
        agent_evidence_capture_final(st->ev, st->s);
    keep_final(st, passed);
    return EOUS_OK;
}

/* Records how a task that did not reach a score ended; returns what the
 * caller gets: the code when the task could not be judged (infrastructure,
 * interruption, bad input), EOUS_OK when it ran and failed. */
static eous_rc run_failed(run_state *st, eous_rc rc, eous_err *err)
{
    agent_result *res = st->res;
    /* SIGINT/SIGTERM kill the browsers at once: what failed then was us stopping */
    if (eous_interrupted() && eous_rc_ends_task(rc))
        rc = eous_err_remap(err, EOUS_E_INTERRUPTED);
    res->status = eous_rc_task_status(rc);
    if (!res->error[0] && err)
        SET(res->error, err->msg);
    if (res->stop_reason == AGENT_STOP_NONE)
        res->stop_reason = !eous_rc_ends_task(rc)                ? AGENT_STOP_ERROR
                           : res->status == EOUS_ST_INTERRUPTED ? AGENT_STOP_INTERRUPTED
                                                                : AGENT_STOP_INFRA;
    /* the page of a task that errored; a dead browser has none to give */
    if (!eous_rc_is_infra(rc) && rc != EOUS_E_INTERRUPTED && rc != EOUS_E_IO && !res->screenshot[0]) {
        agent_evidence_capture_final(st->ev, st->s);
        keep_final(st, 0);
    }
    if (eous_rc_ends_task(rc) || rc == EOUS_E_INVALID)
        return rc;
    return EOUS_OK; /* the task ran and failed */
}

eous_rc agent_run_task(wd_session *s, const agent_job *t, const agent_run_opts *o, agent_result *res, eous_err *err)
{
    memset(res, 0, sizeof *res);
    SET(res->task_id, t->id);
    SET(res->mode, perc_mode_name(o->mode));
    SET(res->planner, agent_planner_name(o->planner));
    res->obs.tokens_by = o->llm && o->planner != AGENT_PLANNER_SCRIPT ? llm_client_token_count_label(o->llm)
                                                                      : "o200k_base";
    res->tier = t->tier;
    res->history = o->planner != AGENT_PLANNER_SCRIPT && o->planner != AGENT_PLANNER_EXEC
                       ? llm_history_name((llm_history)o->history)
                       : NULL;
    res->ground.mode = agent_ground_mode_name(o->planner == AGENT_PLANNER_SCRIPT ? o->grounding : AGENT_GROUND_OFF);
    res->screen = t->screen;
    res->intent = t->intent;
    res->params = t->params;
    run_state st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.t = t;
    st.o = o;
    st.res = res;
    st.t0 = eous_now_ms();
    if (t->ops && t->ops->objective) /* e.g. the answer format WebArena-Verified scores */
        t->ops->objective(t, &st.objective, &st.answer_schema);
    st.trace.fd = -1;
    st.trace.path = o->trace_path;
    for (int i = 0; i < MAX_REPEATED_ACTIONS; i++)
        act_action_init(&st.prev[i]);
    agent_batch_init(&st.batch);

    eous_rc rc = run_check(&st, err);
    if (rc)
        return rc;
    if (!(rc = run_setup(&st, err)) && !(rc = run_steps(&st, err))) {
        double t0 = eous_now_ms();
        rc = run_score(&st, err);
        res->time.score_ms = eous_now_ms() - t0;
    }
    if (rc)
        rc = run_failed(&st, rc, err);
    eous_err oerr;
    eous_err_clear(&oerr);
    if (!rc && agent_outputs_finish(t, st.x, o->trace_path, res, &oerr)) {
        res->status = EOUS_ST_INFRA;
        SET(res->error, oerr.msg);
        rc = eous_err_set(err, EOUS_E_IO, "%s", oerr.msg);
    }
    /* a repaired pass is a pass, counted apart; the proposed edit is always written down */
    res->rpa.repaired = st.n_repaired > 0 && res->status == EOUS_ST_PASSED;
    exec_finish(&st);
    if (agent_repair_log_write(&st.repairs, t, res->mode, res->rpa.repaired, o->trace_path, &oerr))
        EOUS_WARN("agent", "%s", oerr.msg);
    agent_repair_log_free(&st.repairs);
    res->time.wall_ms = eous_now_ms() - st.t0;
    if (t->ops && t->ops->leave)
        t->ops->leave(st.hold);
    perc_obs_free(st.obs);
    perc_obs_free(st.next_obs);
    perc_obs_free(st.act_view);
    agent_batch_clear(&st.batch);
    llm_turn_free(st.turn);
    free(st.exec_line);
    free(st.objective);
    cJSON_Delete(st.answer_schema);
    llm_conv_free(st.conv);
    perc_delta_free(st.delta);
    perc_marked_shot_clear(&st.shot);
    agent_evidence_free(st.ev);
    act_history_free(st.values, rc == EOUS_E_INFRA || rc == EOUS_E_INTERRUPTED ? NULL : s); /* its hook too */
    act_exec_free(st.x);
    act_policy_free(st.own_policy);
    for (int i = 0; i < MAX_REPEATED_ACTIONS; i++)
        act_action_clear(&st.prev[i]);
    for (size_t i = 0; i < st.n_hist * 2; i++)
        free(st.hist_text[i]);
    free(st.hist_text);
    free(st.hist);
    agent_ground_log_free(&st.seen);
    if (st.trace.fd >= 0)
        close(st.trace.fd);
    if (st.trace.rc && rc != EOUS_E_INTERRUPTED) {
        /* a result without its trace is half-written: the run is an I/O failure */
        res->status = EOUS_ST_INFRA;
        SET(res->error, st.trace.err.msg);
        return eous_err_set(err, EOUS_E_IO, "%s", st.trace.err.msg);
    }
    return rc;
}

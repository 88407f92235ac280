/* bench/bench.c — a benchmark's workers, retries, resume and records (see
 * bench.h); `eous bench` (cli/cli_bench.c) only turns argv into its options
 * and writes the reports after it. */
#define _GNU_SOURCE
#include "bench/bench.h"
#include "bench/task_job.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/browser.h"
#include "llm/llm.h"
#include "runs/rundir.h"
#include "webarena/site_pool.h"
#include "webarena/site_reset.h"

#define INFRA_RETRIES 2
/* pause before infra retry k (ms): a driver, grid node or model endpoint that
 * just died needs a moment to come back (a grid hub keeps sending new sessions
 * to a dead node until its health check notices); without it all retries of
 * every queued task are spent in the same second */
static const long infra_backoff_ms[INFRA_RETRIES] = {2000, 6000};

typedef struct job {
    wa_task *task;
    perc_mode mode;
    int attempt;   /* its first attempt's number: 1, or one past those results.jsonl holds (--resume) */
    int taken;     /* a worker has it (guarded by lock) */
} job;

typedef struct bench {
    const bench_opts *o;
    job *jobs;
    size_t next;               /* the first job no worker has taken (guarded by lock) */
    const wa_task *running[BENCH_MAX_WORKERS]; /* each worker's task, NULL between jobs (guarded by lock) */
    bench_stats *st;     /* guarded by lock */
    pthread_mutex_t lock;
    double t0;
    int model_failures_in_row; /* guarded by lock */
    int breaker_open;
    char breaker_reason[400];
} bench;

/* task id + mode whose last attempt in results.jsonl has a final status (not
 * infra, not interrupted: those are run again as the next attempt) */
static int already_done(const runs_dir *existing, const char *id, const char *mode)
{
    const cJSON *last = existing ? runs_dir_last(existing, id, mode) : NULL;
    return last && runs_dir_status_final(eous_json_str(last, "status"));
}

/* Tells the embedder (under the lock). */
static void emit(bench *b, bench_event ev, const agent_result *r, const char *why)
{
    b->st->elapsed_s = (eous_now_ms() - b->t0) / 1000.0;
    if (b->o->on_event)
        b->o->on_event(b->o->ud, ev, b->st, r, why);
}

/* 1 when the session still answers a command that cannot fail on a live one
 * (GET /window/handles: no user prompt handling, no current window needed). */
static int session_answers(wd_session *s)
{
    cJSON *h = NULL;
    eous_rc rc = wd_window_handles(s, &h, NULL);
    cJSON_Delete(h);
    return rc == EOUS_OK;
}

/* Counts a job attempt's model outcome; 1 when the breaker is (now) open. */
static int model_outcome(bench *b, int failed, const char *why)
{
    pthread_mutex_lock(&b->lock);
    if (!failed) {
        b->model_failures_in_row = 0;
    } else if (++b->model_failures_in_row >= BENCH_MODEL_FAILURES && !b->breaker_open) {
        b->breaker_open = 1;
        snprintf(b->breaker_reason, sizeof b->breaker_reason, "%s", why);
        emit(b, BENCH_BREAKER, NULL, why);
    }
    int open = b->breaker_open;
    pthread_mutex_unlock(&b->lock);
    return open;
}

/* Sleeps ms in slices so an interruption cuts it short. */
static void backoff(long ms)
{
    for (long left = ms; left > 0 && !eous_interrupted(); left -= 100)
        eous_sleep_ms(left < 100 ? left : 100);
}

/* Fills res for a job that ends without running (as far as it got). */
static void result_not_run(agent_result *res, const job *j, agent_planner planner, eous_status status,
                           agent_stop stop_reason)
{
    snprintf(res->task_id, sizeof res->task_id, "%s", j->task->id);
    snprintf(res->mode, sizeof res->mode, "%s", perc_mode_name(j->mode));
    snprintf(res->planner, sizeof res->planner, "%s", agent_planner_name(planner));
    res->status = status;
    res->stop_reason = stop_reason;
    res->tier = j->task->tier;
    res->screen = j->task->screen;
    res->intent = j->task->intent;
    res->params = j->task->param_values;
}

/* Appends an earlier attempt's line (one a retry follows); not counted as
 * done.  EOUS_E_IO when it cannot be written whole. */
static eous_rc record_attempt(bench *b, const agent_result *res, eous_err *err)
{
    char *line = agent_result_json(res);
    eous_rc rc = line ? runs_dir_append(b->o->out_dir, line, err)
                      : eous_err_set(err, EOUS_E_NOMEM, "out of memory for a result line");
    free(line);
    return rc ? EOUS_E_IO : EOUS_OK;
}

/* A worker's browser, opened on first need and after an infra failure. */
typedef struct worker_browser {
    agent_browser br;
    int open;
    int tasks;   /* tasks run on this browser, for --restart-browser-every */
    struct llm_client *llm; /* this worker's model client: borrowed from bench_run (NULL: o->run.llm) */
} worker_browser;

/* Runs job j, retrying infrastructure failures (a fresh session for a dead
 * browser, the same one when the model endpoint failed). */
static eous_rc run_job(bench *b, const job *j, const wa_task *task, worker_browser *wb, agent_result *res,
                       eous_err *err)
{
    const bench_opts *o = b->o;
    eous_rc rc = EOUS_OK;
    for (int attempt = 0; attempt <= INFRA_RETRIES; attempt++) {
        int this_attempt = j->attempt + attempt;
        if (attempt > 0) {
            /* the failed attempt keeps its line: a retry adds one, never replaces it */
            if (record_attempt(b, res, err)) {
                rc = EOUS_E_IO;
                break;
            }
            EOUS_INFO("bench", "task %s %s: infra (%s); retry %d on %s session in %ld ms", j->task->id,
                      perc_mode_name(j->mode), res->error[0] ? res->error : err->msg, attempt,
                      wb->open ? "the same" : "a fresh", infra_backoff_ms[attempt - 1]);
            backoff(infra_backoff_ms[attempt - 1]);
            if (eous_interrupted()) {
                res->attempt = this_attempt;
                break;
            }
        }
        eous_err_clear(err);
        if (!wb->open) {
            if ((rc = agent_browser_open_net(&wb->br, o->webdriver, o->debugger_address, o->w3c_only, o->network_log,
                                             err))) {
                result_not_run(res, j, o->run.planner, EOUS_ST_INFRA, AGENT_STOP_INFRA);
                snprintf(res->error, sizeof res->error, "%s", err->msg);
                res->attempt = this_attempt;
                if (eous_interrupted())
                    break;
                continue;
            }
            wb->open = 1;
            wb->tasks = 0;
        }
        if ((rc = agent_fresh_tab(wb->br.session, err))) {
            /* a browser that cannot open a tab is broken: a fresh one */
            result_not_run(res, j, o->run.planner, EOUS_ST_INFRA, AGENT_STOP_INFRA);
            snprintf(res->error, sizeof res->error, "%s", err->msg);
            res->attempt = this_attempt;
            agent_browser_close(&wb->br);
            wb->open = 0;
            rc = eous_err_remap(err, EOUS_E_INFRA);
            if (eous_interrupted())
                break;
            continue;
        }
        char trace[4300], audit[4300];
        /* bench_run checked every trace path before the first job */
        if ((rc = eous_path_under(trace, sizeof trace, o->out_dir, err, "trace/%s-%s.jsonl", j->task->id,
                                  perc_mode_name(j->mode))) ||
            (rc = eous_path_under(audit, sizeof audit, o->out_dir, err, "audit.jsonl")))
            break;
        agent_run_opts ro = o->run;
        if (wb->llm)
            ro.llm = wb->llm;
        ro.mode = j->mode;
        ro.trace_path = trace;
        ro.audit_path = audit;
        agent_result_clear(res);
        agent_job aj;
        bench_task_job(task, &aj);
        rc = agent_run_task(wb->br.session, &aj, &ro, res, err);
        res->attempt = this_attempt;
        if (rc == EOUS_E_IO) /* the run directory cannot be written: no retry helps */
            break;
        if (rc == EOUS_OK && res->error[0] && res->status != EOUS_ST_PASSED && !session_answers(wb->br.session)) {
            /* the task failed with an error and its session is gone: the
             * infrastructure's failure whatever code the error carried (a
             * grid hub reports a lost node as "unknown error") */
            res->status = EOUS_ST_INFRA;
            res->stop_reason = AGENT_STOP_INFRA;
            rc = eous_err_remap(err, EOUS_E_INFRA);
        }
        int model_down = eous_rc_is_infra(rc) && res->stop_reason == AGENT_STOP_MODEL_UNAVAILABLE;
        if (o->run.planner != AGENT_PLANNER_SCRIPT && model_outcome(b, model_down, res->error) && model_down)
            break;
        if (!eous_rc_is_infra(rc) || eous_interrupted())
            break;
        /* the model endpoint failed: the browser is fine, keep it */
        if (model_down)
            continue;
        /* a dead driver, browser or grid node: retry on a fresh session */
        agent_browser_close(&wb->br);
        wb->open = 0;
    }
    return rc;
}

/* A write failed (disk full, read-only): every worker stops after its job. */
static void io_failure(bench *b, const char *msg)
{
    pthread_mutex_lock(&b->lock);
    if (!b->st->io_failed)
        snprintf(b->st->io_error, sizeof b->st->io_error, "%s", msg);
    b->st->io_failed = 1;
    pthread_mutex_unlock(&b->lock);
}

/* Appends the job's line to results.jsonl and counts it; -1 (and the bench
 * stops) when the line could not be written whole. */
static int record(bench *b, const agent_result *res)
{
    eous_err err;
    eous_err_clear(&err);
    char *line = agent_result_json(res);
    if (line && runs_dir_append(b->o->out_dir, line, &err)) {
        io_failure(b, err.msg);
        free(line);
        return -1;
    }
    pthread_mutex_lock(&b->lock);
    b->st->done++;
    if (res->status == EOUS_ST_PASSED)
        b->st->passed++;
    if (res->status == EOUS_ST_INFRA)
        b->st->infra++;
    emit(b, BENCH_RESULT, res, NULL);
    pthread_mutex_unlock(&b->lock);
    free(line);
    return 0;
}

/* The task as worker slot runs it: with a pooled site (webarena/site_pool.h),
 * resolved again for the slot's copies into copy; else j's own. */
static const wa_task *task_for_slot(const job *j, int slot, wa_task_list *copy, eous_err *err)
{
    memset(copy, 0, sizeof *copy);
    if (!slot || !wa_task_uses_pool(j->task))
        return j->task;
    if (wa_task_at_instance(j->task, slot, copy, err))
        return NULL;
    return &copy->tasks[0];
}

/* Notes in res which copy of each pooled site t ran on. */
static void note_site_copies(const wa_task *t, agent_result *res)
{
    const cJSON *s;
    cJSON_ArrayForEach(s, t->sites) {
        char url[2048];
        if (!cJSON_IsString(s) || wa_site_pool_size(s->valuestring) < 2 ||
            !wa_site_url(s->valuestring, t->instance, url, sizeof url))
            continue;
        if (!res->bench.site_urls)
            res->bench.site_urls = cJSON_CreateObject();
        if (res->bench.site_urls && !cJSON_GetObjectItemCaseSensitive(res->bench.site_urls, s->valuestring))
            cJSON_AddStringToObject(res->bench.site_urls, s->valuestring, url);
    }
}

/* A worker thread's start: its bench and its own model client. */
typedef struct worker_arg {
    bench *b;
    int slot;      /* its index in bench.running */
    struct llm_client *llm;
} worker_arg;

/* The job worker slot runs next (under the lock), or b->st->jobs when none is
 * left: the first untaken one whose site reset would not wait for a task
 * another worker is running, else the first untaken one.  Jobs come task by
 * task, so a task that resets its site would otherwise wait for the same task
 * in the next mode on the other worker, and every reset task ran alone. */
static size_t take_job(bench *b, int slot)
{
    size_t n = b->st->jobs, pick = n;
    while (b->next < n && b->jobs[b->next].taken)
        b->next++;
    for (size_t i = b->next; i < n && pick == n; i++) {
        if (b->jobs[i].taken)
            continue;
        int waits = 0;
        for (int w = 0; w < BENCH_MAX_WORKERS && !waits; w++)
            waits = w != slot && wa_site_reset_waits_for(b->jobs[i].task, slot, b->running[w], w);
        if (!waits)
            pick = i;
    }
    if (pick == n && b->next < n)
        pick = b->next; /* every one left would wait: wait in order */
    if (pick < n) {
        b->jobs[pick].taken = 1;
        b->running[slot] = b->jobs[pick].task;
    }
    return pick;
}

static void *worker(void *arg)
{
    bench *b = ((worker_arg *)arg)->b;
    int slot = ((worker_arg *)arg)->slot;
    worker_browser wb = {.open = 0, .llm = ((worker_arg *)arg)->llm};
    eous_err err;
    eous_err_clear(&err);
    for (;;) {
        pthread_mutex_lock(&b->lock);
        b->running[slot] = NULL;
        size_t i = !eous_interrupted() && !b->st->io_failed ? take_job(b, slot) : b->st->jobs;
        int breaker_open = b->breaker_open;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->st->jobs)
            break;
        const job *j = &b->jobs[i];
        agent_result res;
        memset(&res, 0, sizeof res);
        eous_rc rc = EOUS_OK;
        if (breaker_open) {
            result_not_run(&res, j, b->o->run.planner, EOUS_ST_INFRA, AGENT_STOP_MODEL_UNAVAILABLE);
            pthread_mutex_lock(&b->lock);
            snprintf(res.error, sizeof res.error, "not run: the model endpoint failed %d times in a row (last: %.400s)",
                     BENCH_MODEL_FAILURES, b->breaker_reason);
            pthread_mutex_unlock(&b->lock);
        } else {
            wa_task_list copy;
            const wa_task *task = task_for_slot(j, slot, &copy, &err);
            if (!task) {
                result_not_run(&res, j, b->o->run.planner, EOUS_ST_INFRA, AGENT_STOP_INFRA);
                snprintf(res.error, sizeof res.error, "%s", err.msg);
            } else {
                rc = run_job(b, j, task, &wb, &res, &err);
                note_site_copies(task, &res);
            }
            /* res borrows the task's strings (intent, tier, screen): the job's own, the same as the copy's */
            res.tier = j->task->tier;
            res.screen = j->task->screen;
            res.intent = j->task->intent;
            res.params = j->task->param_values;
            wa_tasks_free(&copy);
        }
        if (eous_interrupted() && (eous_rc_ends_task(rc) || res.status == EOUS_ST_NONE)) {
            /* stopped in flight: recorded as such, and --resume reruns it */
            result_not_run(&res, j, b->o->run.planner, EOUS_ST_INTERRUPTED, AGENT_STOP_INTERRUPTED);
            if (!res.error[0])
                snprintf(res.error, sizeof res.error, "interrupted by signal %d", eous_interrupt_signal());
        }
        if (rc == EOUS_E_IO) { /* its trace is torn: not recorded, --resume reruns it */
            io_failure(b, err.msg);
            agent_result_clear(&res);
            break;
        }
        if (res.status == EOUS_ST_NONE)
            res.status = EOUS_ST_INFRA;
        if (!res.attempt)
            res.attempt = j->attempt;
        res.bench.known_limit = bench_known_limit(b->o->known_limits, &res);
        if (record(b, &res)) {
            agent_result_clear(&res);
            break;
        }
        agent_result_clear(&res);
        if (wb.open && b->o->restart_browser_every > 0 && ++wb.tasks >= b->o->restart_browser_every) {
            /* a long run's browser grows; a fresh one on schedule keeps it flat */
            agent_browser_close(&wb.br);
            wb.open = 0;
        }
    }
    pthread_mutex_lock(&b->lock);
    b->running[slot] = NULL; /* a worker that stopped early holds no site */
    pthread_mutex_unlock(&b->lock);
    if (wb.open)
        agent_browser_close(&wb.br);
    return NULL;
}

void bench_opts_init(bench_opts *o)
{
    memset(o, 0, sizeof *o);
    agent_run_opts_init(&o->run);
    o->workers = 1;
}

/* Records a task that cannot run here as skipped (so the report shows it). */
static void record_skipped(bench *b, const wa_task *t, perc_mode mode, int attempt)
{
    agent_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.task_id, sizeof r.task_id, "%s", t->id);
    snprintf(r.mode, sizeof r.mode, "%s", perc_mode_name(mode));
    snprintf(r.planner, sizeof r.planner, "%s", agent_planner_name(b->o->run.planner));
    r.status = EOUS_ST_SKIPPED;
    snprintf(r.error, sizeof r.error, "%s", t->problem);
    r.tier = t->tier;
    r.params = t->param_values;
    r.attempt = attempt;
    char *line = agent_result_json(&r);
    eous_err werr;
    if (line && runs_dir_append(b->o->out_dir, line, &werr))
        io_failure(b, werr.msg);
    free(line);
}

/* The jobs: every task × mode not already final in existing (resume). */
static void plan_jobs(bench *b, const wa_task_list *l, const runs_dir *existing)
{
    const bench_opts *o = b->o;
    for (size_t t = 0; t < l->n; t++) {
        for (int m = 0; m < o->n_modes; m++) {
            const char *mode_name = perc_mode_name(o->modes[m]);
            if (already_done(existing, l->tasks[t].id, mode_name)) {
                b->st->skipped_done++;
                continue;
            }
            int first_attempt = (existing ? runs_dir_attempts(existing, l->tasks[t].id, mode_name) : 0) + 1;
            if (l->tasks[t].problem[0]) {
                record_skipped(b, &l->tasks[t], o->modes[m], first_attempt);
                continue;
            }
            job *j = &b->jobs[b->st->jobs++];
            j->task = &l->tasks[t];
            j->mode = o->modes[m];
            j->attempt = first_attempt;
        }
    }
}

eous_rc bench_run(const wa_task_list *l, const bench_opts *o, bench_stats *st, eous_err *err)
{
    memset(st, 0, sizeof *st);
    if (!o->out_dir || !o->n_modes || o->workers < 1 || o->workers > BENCH_MAX_WORKERS)
        return eous_err_set(err, EOUS_E_INVALID, "bench: expected a run directory, at least one mode and 1..%d "
                            "workers", BENCH_MAX_WORKERS);
    /* a task id that would put its trace outside the run directory: nothing is written */
    for (size_t t = 0; t < l->n; t++)
        for (int m = 0; m < o->n_modes; m++) {
            char trace[4300];
            if (eous_path_under(trace, sizeof trace, o->out_dir, err, "trace/%s-%s.jsonl", l->tasks[t].id,
                                perc_mode_name(o->modes[m])))
                return eous_err_prefix(err, "bench: task %s", l->tasks[t].id);
        }
    bench_opts opts = *o;
    char results_path[4200];
    snprintf(results_path, sizeof results_path, "%s/trace", opts.out_dir);
    if (eous_mkdirs(results_path, 0755, err))
        return eous_err_prefix(err, "bench: the run directory");
    snprintf(results_path, sizeof results_path, "%s/results.jsonl", opts.out_dir);
    runs_dir existing_rd, *existing = NULL;
    if (!opts.resume)
        unlink(results_path);
    else if (!runs_dir_load(opts.out_dir, 0, &existing_rd, NULL))
        existing = &existing_rd;
    bench b;
    memset(&b, 0, sizeof b);
    b.o = &opts;
    b.st = st;
    b.t0 = eous_now_ms();
    b.jobs = calloc(l->n * (size_t)opts.n_modes + 1, sizeof *b.jobs);
    if (!b.jobs) {
        if (existing)
            runs_dir_free(existing);
        return eous_err_set(err, EOUS_E_NOMEM, "bench: out of memory for %zu job(s)", l->n * (size_t)opts.n_modes);
    }
    pthread_mutex_init(&b.lock, NULL);
    plan_jobs(&b, l, existing);
    if (existing)
        runs_dir_free(existing);
    int nw = st->io_failed ? 0 : opts.workers < (int)st->jobs ? opts.workers : (int)st->jobs;
    /* a model client serves one thread: every worker past the first gets a copy
     * of it; one that cannot be copied (a cassette: one file, one order) runs alone */
    llm_client *llms[BENCH_MAX_WORKERS] = {NULL};
    if (opts.run.planner != AGENT_PLANNER_SCRIPT && nw > 1 && opts.run.llm) {
        eous_err de;
        for (int i = 1; i < nw; i++)
            if (llm_client_dup(opts.run.llm, &llms[i], &de)) {
                EOUS_WARN("bench", "%d worker(s), not %d: %s", i, nw, de.msg); /* said, not silently fewer */
                nw = i;
                break;
            }
    } else if (opts.run.planner != AGENT_PLANNER_SCRIPT && opts.run.planner != AGENT_PLANNER_EXEC && nw > 1) {
        /* (an agent program runs once per task: every worker starts its own) */
        nw = 1;
    }
    st->workers = nw;
    emit(&b, BENCH_START, NULL, NULL);
    pthread_t th[BENCH_MAX_WORKERS];
    worker_arg wa[BENCH_MAX_WORKERS];
    int started = 0;
    for (int i = 0; i < nw; i++) {
        wa[started] = (worker_arg){.b = &b, .slot = started, .llm = llms[i]};
        if (!pthread_create(&th[started], NULL, worker, &wa[started]))
            started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < BENCH_MAX_WORKERS; i++)
        llm_client_free(llms[i]);
    st->elapsed_s = (eous_now_ms() - b.t0) / 1000.0;
    free(b.jobs);
    pthread_mutex_destroy(&b.lock);
    if (nw && !started)
        return eous_err_set(err, EOUS_E_NOMEM, "bench: cannot start a worker thread");
    if (st->io_failed)
        return eous_err_set(err, EOUS_E_IO, "%s", st->io_error);
    return EOUS_OK;
}

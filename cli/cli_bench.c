/* cli/cli_bench.c — `eous bench`: every task × mode on N workers, each with
 * its own browser session; results appended and flushed per task; --resume
 * skips what is done; infra failures retried on a fresh session; reports. */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "agent/browser.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "agent/report.h"
#include "agent/run.h"
#include "agent/rundir.h"

#define INFRA_RETRIES 2
/* pause before infra retry k (ms): a driver, grid node or model endpoint that
 * just died needs a moment to come back (a grid hub keeps sending new sessions
 * to a dead node until its health check notices); without it all retries of
 * every queued task are spent in the same second */
static const long infra_backoff_ms[INFRA_RETRIES] = {2000, 6000};
/* model calls that failed in a row (each after the client's own retries)
 * before the bench stops asking a dead endpoint: the jobs left are recorded
 * as infra without running, so --resume runs them once it is back */
#define MODEL_BREAKER_FAILURES 3

typedef struct job {
    agent_task *task;
    perc_mode mode;
    int attempt;   /* its first attempt's number: 1, or one past those results.jsonl holds (--resume) */
} job;

typedef struct bench {
    cli_opts *co;
    job *jobs;
    size_t n_jobs, next, done, passed, infra;
    pthread_mutex_t lock;
    int tty;
    double t0;
    int model_failures_in_row; /* guarded by lock */
    int breaker_open;
    char breaker_reason[400];
    int io_failed;             /* a result or trace could not be written: stop */
    char io_error[512];
} bench;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct path_list {
    char **v;
    size_t n, cap;
} path_list;

/* Appends path (taken over); 0 on success, -1 out of memory (path freed). */
static int path_push(path_list *l, char *path)
{
    if (!path)
        return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **grown = realloc(l->v, cap * sizeof *grown);
        if (!grown) {
            free(path);
            return -1;
        }
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = path;
    return 0;
}

/* 1 when directory path holds a *.json file. */
static int dir_has_json(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        found = len >= 6 && !strcmp(e->d_name + len - 5, ".json");
    }
    closedir(d);
    return found;
}

/* A directory without task files whose subfolders hold some: prints which
 * (suites number their tasks from 0, so running them as one would mix their
 * results) and returns -1; 0 otherwise. */
static int refuse_suite_of_suites(const char *dir)
{
    if (dir_has_json(dir))
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char *names[64];
    int n = 0;
    struct dirent *e;
    while (n < 64 && (e = readdir(d))) {
        char *sub = NULL;
        if (e->d_name[0] == '.' || asprintf(&sub, "%s/%s", dir, e->d_name) < 0)
            continue;
        if (dir_has_json(sub))
            names[n++] = sub;
        else
            free(sub);
    }
    closedir(d);
    if (!n)
        return 0;
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    fprintf(stderr, "eous bench: %s holds no task files, its subfolders do; run each suite on its own:", dir);
    for (int i = 0; i < n; i++) {
        fprintf(stderr, " %s%s", names[i], i + 1 < n ? "," : "\n");
        free(names[i]);
    }
    return -1;
}

/* Expands directories into their *.json files (sorted).  NULL with *n_out 0
 * when memory runs out (the caller reports "no task files"). */
static char **expand_inputs(const char **in, int n, size_t *n_out)
{
    path_list l = {0};
    int oom = 0;
    for (int i = 0; i < n && !oom; i++) {
        DIR *d = opendir(in[i]);
        if (!d) {
            oom = path_push(&l, strdup(in[i]));
            continue;
        }
        size_t first = l.n;
        struct dirent *e;
        while (!oom && (e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
                continue;
            char *path = NULL;
            oom = asprintf(&path, "%s/%s", in[i], e->d_name) < 0 || path_push(&l, path);
        }
        closedir(d);
        qsort(l.v + first, l.n - first, sizeof *l.v, cmp_str);
    }
    if (oom) {
        for (size_t i = 0; i < l.n; i++)
            free(l.v[i]);
        free(l.v);
        *n_out = 0;
        return NULL;
    }
    *n_out = l.n;
    return l.v;
}

/* task id + mode whose last attempt in results.jsonl has a final status (not
 * infra, not interrupted: those are run again as the next attempt) */
static int already_done(const agent_rundir *existing, const char *id, const char *mode)
{
    const cJSON *last = existing ? agent_rundir_last(existing, id, mode) : NULL;
    return last && agent_rundir_status_final(eous_json_str(last, "status"));
}

static void progress(bench *b, const agent_result *r)
{
    double el = (eous_now_ms() - b->t0) / 1000.0;
    double rate = b->done ? (double)b->passed / (double)b->done * 100 : 0;
    if (b->tty) {
        int width = 30, filled = b->n_jobs ? (int)(width * b->done / b->n_jobs) : width;
        double eta = b->done ? el / (double)b->done * (double)(b->n_jobs - b->done) : 0;
        fprintf(stderr, "\r[%.*s%*s] %zu/%zu · pass %.0f%% · %.0fs elapsed · ETA %.0fs ", filled,
                "##############################", width - filled, "", b->done, b->n_jobs, rate, el, eta);
        if (b->done == b->n_jobs)
            fputc('\n', stderr);
    } else {
        fprintf(stderr, "eous bench: %zu/%zu task %s %s %s (%d steps, %.1fs)%s%s\n", b->done, b->n_jobs, r->task_id,
                r->mode, r->status, r->steps, r->wall_ms / 1000, r->error[0] ? " — " : "", r->error);
    }
    fflush(stderr);
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
    } else if (++b->model_failures_in_row >= MODEL_BREAKER_FAILURES && !b->breaker_open) {
        b->breaker_open = 1;
        snprintf(b->breaker_reason, sizeof b->breaker_reason, "%s", why);
        fprintf(stderr, "eous bench: the model endpoint failed %d times in a row (%s); the jobs left are not run "
                "(recorded as infra; rerun with --resume once it answers)\n", b->model_failures_in_row, why);
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
static void result_not_run(agent_result *res, const job *j, agent_planner planner, const char *status,
                           const char *stop_reason)
{
    snprintf(res->task_id, sizeof res->task_id, "%s", j->task->id);
    snprintf(res->mode, sizeof res->mode, "%s", perc_mode_name(j->mode));
    snprintf(res->planner, sizeof res->planner, "%s", agent_planner_name(planner));
    snprintf(res->status, sizeof res->status, "%s", status);
    if (stop_reason)
        snprintf(res->stop_reason, sizeof res->stop_reason, "%s", stop_reason);
    res->tier = j->task->tier;
    res->screen = j->task->screen;
    res->intent = j->task->intent;
}

/* Appends an earlier attempt's line (one a retry follows); not counted as
 * done.  EOUS_E_IO when it cannot be written whole. */
static eous_rc record_attempt(bench *b, const agent_result *res, eous_err *err)
{
    char *line = agent_result_json(res);
    eous_rc rc = line ? agent_rundir_append(b->co->out_dir, line, err)
                      : eous_err_set(err, EOUS_E_NOMEM, "out of memory for a result line");
    free(line);
    return rc ? EOUS_E_IO : EOUS_OK;
}

/* A worker's browser, opened on first need and after an infra failure. */
typedef struct worker_browser {
    agent_browser br;
    int open;
    int tasks;   /* tasks run on this browser, for --restart-browser-every */
} worker_browser;

/* Runs job j, retrying infrastructure failures (a fresh session for a dead
 * browser, the same one when the model endpoint failed). */
static eous_rc run_job(bench *b, const job *j, worker_browser *wb, agent_result *res, eous_err *err)
{
    cli_opts *co = b->co;
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
            if ((rc = agent_browser_open_net(&wb->br, co->webdriver, co->w3c_only, co->network_log, err))) {
                result_not_run(res, j, co->planner, AGENT_ST_INFRA, "infra");
                snprintf(res->error, sizeof res->error, "%s", err->msg);
                res->attempt = this_attempt;
                if (eous_interrupted())
                    break;
                continue;
            }
            wb->open = 1;
            wb->tasks = 0;
        }
        char trace[4300], audit[4300];
        snprintf(trace, sizeof trace, "%s/trace/%s-%s.jsonl", co->out_dir, j->task->id, perc_mode_name(j->mode));
        snprintf(audit, sizeof audit, "%s/audit.jsonl", co->out_dir);
        agent_run_opts ro;
        cli_run_opts(co, &ro);
        ro.mode = j->mode;
        ro.trace_path = trace;
        ro.audit_path = audit;
        agent_result_clear(res);
        rc = agent_run_task(wb->br.session, j->task, &ro, res, err);
        res->attempt = this_attempt;
        if (rc == EOUS_E_IO) /* the run directory cannot be written: no retry helps */
            break;
        if (rc == EOUS_OK && res->error[0] && strcmp(res->status, "passed") && !session_answers(wb->br.session)) {
            /* the task failed with an error and its session is gone: the
             * infrastructure's failure whatever code the error carried (a
             * grid hub reports a lost node as "unknown error") */
            snprintf(res->status, sizeof res->status, "infra");
            snprintf(res->stop_reason, sizeof res->stop_reason, "infra");
            rc = eous_err_remap(err, EOUS_E_INFRA);
        }
        int model_down = eous_rc_is_infra(rc) && !strcmp(res->stop_reason, "model_unavailable");
        if (co->planner != AGENT_PLANNER_SCRIPT && model_outcome(b, model_down, res->error) && model_down)
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
    if (!b->io_failed)
        snprintf(b->io_error, sizeof b->io_error, "%s", msg);
    b->io_failed = 1;
    pthread_mutex_unlock(&b->lock);
}

/* Appends the job's line to results.jsonl and counts it; -1 (and the bench
 * stops) when the line could not be written whole. */
static int record(bench *b, const agent_result *res)
{
    eous_err err;
    eous_err_clear(&err);
    char *line = agent_result_json(res);
    if (line && agent_rundir_append(b->co->out_dir, line, &err)) {
        io_failure(b, err.msg);
        free(line);
        return -1;
    }
    pthread_mutex_lock(&b->lock);
    b->done++;
    if (!strcmp(res->status, "passed"))
        b->passed++;
    if (!strcmp(res->status, "infra"))
        b->infra++;
    progress(b, res);
    pthread_mutex_unlock(&b->lock);
    free(line);
    return 0;
}

static void *worker(void *arg)
{
    bench *b = arg;
    worker_browser wb = {.open = 0};
    eous_err err;
    eous_err_clear(&err);
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->next < b->n_jobs && !eous_interrupted() && !b->io_failed ? b->next++ : b->n_jobs;
        int breaker_open = b->breaker_open;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->n_jobs)
            break;
        const job *j = &b->jobs[i];
        agent_result res;
        memset(&res, 0, sizeof res);
        eous_rc rc = EOUS_OK;
        if (breaker_open) {
            result_not_run(&res, j, b->co->planner, "infra", "model_unavailable");
            pthread_mutex_lock(&b->lock);
            snprintf(res.error, sizeof res.error, "not run: the model endpoint failed %d times in a row (last: %.400s)",
                     MODEL_BREAKER_FAILURES, b->breaker_reason);
            pthread_mutex_unlock(&b->lock);
        } else {
            rc = run_job(b, j, &wb, &res, &err);
        }
        if (eous_interrupted() && (eous_rc_ends_task(rc) || !res.status[0])) {
            /* stopped in flight: recorded as such, and --resume reruns it */
            result_not_run(&res, j, b->co->planner, "interrupted", "interrupted");
            if (!res.error[0])
                snprintf(res.error, sizeof res.error, "interrupted by signal %d", eous_interrupt_signal());
        }
        if (rc == EOUS_E_IO) { /* its trace is torn: not recorded, --resume reruns it */
            io_failure(b, err.msg);
            agent_result_clear(&res);
            break;
        }
        if (!res.status[0])
            snprintf(res.status, sizeof res.status, AGENT_ST_INFRA);
        if (!res.attempt)
            res.attempt = j->attempt;
        if (record(b, &res)) {
            agent_result_clear(&res);
            break;
        }
        agent_result_clear(&res);
        if (wb.open && ++wb.tasks >= b->co->restart_browser_every) {
            /* a long run's browser grows; a fresh one on schedule keeps it flat */
            agent_browser_close(&wb.br);
            wb.open = 0;
        }
    }
    if (wb.open)
        agent_browser_close(&wb.br);
    return NULL;
}

int cli_bench(int argc, char **argv)
{
    cli_opts co;
    if (cli_parse_common(argc, argv, &co, 0, NULL))
        return EOUS_EXIT_INPUT;
    if (!co.n_positional) {
        fprintf(stderr, "eous bench: expected task files or directories\n");
        cli_opts_free(&co);
        return EOUS_EXIT_INPUT;
    }
    for (int i = 0; i < co.n_positional; i++) {
        if (refuse_suite_of_suites(co.positional[i])) {
            cli_opts_free(&co);
            return EOUS_EXIT_INPUT;
        }
    }
    size_t n_files = 0;
    char **files = expand_inputs(co.positional, co.n_positional, &n_files);
    agent_task_list l;
    eous_err err;
    eous_err_clear(&err);
    int code = EOUS_EXIT_INPUT;
    if (!n_files) {
        fprintf(stderr, "eous bench: no task files found\n");
        goto out_files;
    }
    if (agent_tasks_load((const char *const *)files, n_files, &l, &err)) {
        fprintf(stderr, "eous: %s\n", err.msg);
        goto out_files;
    }
    for (size_t i = 0; i < l.n; i++) /* WebArena-Verified tasks are scored from a network log too */
        co.network_log |= l.tasks[i].verified != NULL;
    if (co.planner != AGENT_PLANNER_SCRIPT && co.workers > 1) {
        fprintf(stderr, "eous bench: the %s planner runs with one worker (one model client)\n",
                agent_planner_name(co.planner));
        co.workers = 1;
    }
    if (cli_setup_run(&co, &err)) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = eous_rc_exit_code(err.rc);
        goto out_tasks;
    }
    wd_install_signal_handlers();
    wd_become_subreaper();
    char results_path[4200];
    snprintf(results_path, sizeof results_path, "%s/results.jsonl", co.out_dir);
    agent_rundir existing_rd, *existing = NULL;
    if (!co.resume)
        unlink(results_path);
    else if (!agent_rundir_load(co.out_dir, 0, &existing_rd, NULL))
        existing = &existing_rd;

    bench b;
    memset(&b, 0, sizeof b);
    b.co = &co;
    b.tty = isatty(2);
    b.t0 = eous_now_ms();
    pthread_mutex_init(&b.lock, NULL);
    b.jobs = calloc(l.n * (size_t)co.n_modes + 1, sizeof *b.jobs);
    if (!b.jobs) {
        fprintf(stderr, "eous bench: out of memory for %zu job(s)\n", l.n * (size_t)co.n_modes);
        if (existing)
            agent_rundir_free(existing);
        pthread_mutex_destroy(&b.lock);
        goto out_tasks;
    }
    size_t skipped_done = 0;
    for (size_t t = 0; t < l.n; t++) {
        for (int m = 0; m < co.n_modes; m++) {
            const char *mode_name = perc_mode_name(co.modes[m]);
            if (already_done(existing, l.tasks[t].id, mode_name)) {
                skipped_done++;
                continue;
            }
            int first_attempt = (existing ? agent_rundir_attempts(existing, l.tasks[t].id, mode_name) : 0) + 1;
            if (l.tasks[t].problem[0]) {
                /* cannot run here: recorded as skipped so the report shows it */
                agent_result r;
                memset(&r, 0, sizeof r);
                snprintf(r.task_id, sizeof r.task_id, "%s", l.tasks[t].id);
                snprintf(r.mode, sizeof r.mode, "%s", perc_mode_name(co.modes[m]));
                snprintf(r.planner, sizeof r.planner, "%s", agent_planner_name(co.planner));
                snprintf(r.status, sizeof r.status, AGENT_ST_SKIPPED);
                snprintf(r.error, sizeof r.error, "%s", l.tasks[t].problem);
                r.tier = l.tasks[t].tier;
                r.attempt = first_attempt;
                char *line = agent_result_json(&r);
                eous_err werr;
                if (line && agent_rundir_append(co.out_dir, line, &werr))
                    io_failure(&b, werr.msg);
                free(line);
                continue;
            }
            b.jobs[b.n_jobs].task = &l.tasks[t];
            b.jobs[b.n_jobs].mode = co.modes[m];
            b.jobs[b.n_jobs].attempt = first_attempt;
            b.n_jobs++;
        }
    }
    if (existing)
        agent_rundir_free(existing);
    if (skipped_done)
        fprintf(stderr, "eous bench: --resume: %zu task×mode result(s) already done\n", skipped_done);
    fprintf(stderr, "eous bench: %zu task×mode job(s) on %d worker(s)\n", b.n_jobs, co.workers);
    int nw = b.io_failed ? 0 : co.workers < (int)b.n_jobs ? co.workers : (int)b.n_jobs;
    pthread_t th[32];
    for (int i = 0; i < nw; i++)
        pthread_create(&th[i], NULL, worker, &b);
    for (int i = 0; i < nw; i++)
        pthread_join(th[i], NULL);
    double wall = (eous_now_ms() - b.t0) / 1000.0;
    agent_run_outcome outcome;
    memset(&outcome, 0, sizeof outcome);
    char *table = NULL;
    int reports_failed = 0;
    if (b.io_failed) {
        fprintf(stderr, "eous: %s\n", b.io_error); /* the disk is full: no report either */
    } else if (agent_reports_write(co.out_dir, &outcome, &table, &err)) {
        fprintf(stderr, "eous: reports: %s\n", err.msg);
        reports_failed = 1;
    } else {
        printf("%s\n", table ? table : "");
        /* RUSAGE_SELF: eous alone, not the browsers and drivers it reaped */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("ran %zu job(s) in %.1f s (%.1f tasks/min) · eous peak RSS %.1f MiB · report: %s/report.html\n",
               b.done, wall, wall > 0 ? b.done / wall * 60 : 0, ru.ru_maxrss / 1024.0, co.out_dir);
    }
    free(table);
    if (b.io_failed || reports_failed) {
        code = EOUS_EXIT_INFRA;
    } else if (eous_interrupted()) {
        fprintf(stderr, "eous bench: interrupted; %zu job(s) not run (rerun with --resume)\n", b.n_jobs - b.done);
        code = eous_rc_exit_code(EOUS_E_INTERRUPTED);
    } else {
        code = outcome.any_infra ? EOUS_EXIT_INFRA : outcome.all_passed ? EOUS_EXIT_OK : EOUS_EXIT_FAILED;
        if (code == EOUS_EXIT_OK && co.fail_on_any_attempt && outcome.failed_attempts) {
            /* every task passed in the end, but an earlier attempt did not */
            fprintf(stderr, "eous bench: --fail-on any-attempt: %d earlier attempt(s) did not pass (results.jsonl "
                    "keeps each)\n", outcome.failed_attempts);
            code = EOUS_EXIT_FAILED;
        }
    }
    free(b.jobs);
    pthread_mutex_destroy(&b.lock);
out_tasks:
    cli_teardown_run(&co);
    agent_tasks_free(&l);
out_files:
    for (size_t i = 0; i < n_files; i++)
        free(files[i]);
    free(files);
    cli_opts_free(&co);
    return code;
}

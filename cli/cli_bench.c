/* cli/cli_bench.c — `eous bench`: argv into bench_opts (the runner,
 * its workers, retries and resume are bench/bench.c), the task files a
 * directory holds, the progress line, then the reports and the exit code. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "runs/report.h"
#include "agent/run.h"
#include "runs/rundir.h"

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

/* The progress line (a bar on a terminal), the breaker's notice. */
static void on_event(void *ud, bench_event ev, const bench_stats *st, const agent_result *r,
                     const char *why)
{
    int tty = *(const int *)ud; /* isatty(2) */
    if (ev == BENCH_START) {
        if (st->skipped_done)
            fprintf(stderr, "eous bench: --resume: %zu task×mode result(s) already done\n", st->skipped_done);
        fprintf(stderr, "eous bench: %zu task×mode job(s) on %d worker(s)\n", st->jobs, st->workers);
        return;
    }
    if (ev == BENCH_BREAKER) {
        fprintf(stderr, "eous bench: the model endpoint failed %d times in a row (%s); the jobs left are not run "
                "(recorded as infra; rerun with --resume once it answers)\n", BENCH_MODEL_FAILURES, why);
        return;
    }
    double el = st->elapsed_s;
    double rate = st->done ? (double)st->passed / (double)st->done * 100 : 0;
    if (tty) {
        int width = 30, filled = st->jobs ? (int)(width * st->done / st->jobs) : width;
        double eta = st->done ? el / (double)st->done * (double)(st->jobs - st->done) : 0;
        fprintf(stderr, "\r[%.*s%*s] %zu/%zu · pass %.0f%% · %.0fs elapsed · ETA %.0fs ", filled,
                "##############################", width - filled, "", st->done, st->jobs, rate, el, eta);
        if (st->done == st->jobs)
            fputc('\n', stderr);
    } else {
        fprintf(stderr, "eous bench: %zu/%zu task %s %s %s (%d steps, %.1fs)%s%s\n", st->done, st->jobs, r->task_id,
                r->mode, eous_status_name(r->status), r->steps, r->time.wall_ms / 1000, r->error[0] ? " — " : "", r->error);
    }
    fflush(stderr);
}

/* The bench's options from the command line's. */
static void bench_opts_from(const cli_opts *co, bench_opts *bo)
{
    bench_opts_init(bo);
    cli_run_opts(co, &bo->run);
    bo->modes = co->modes;
    bo->n_modes = co->n_modes;
    bo->out_dir = co->out_dir;
    bo->workers = co->workers;
    bo->resume = co->resume;
    bo->restart_browser_every = co->restart_browser_every;
    bo->webdriver = co->webdriver;
    bo->debugger_address = co->cdp_addr[0] ? co->cdp_addr : NULL;
    bo->w3c_only = co->w3c_only;
    bo->network_log = co->network_log;
}

/* The reports written and the summary printed; the exit code the run earned. */
static int report(const cli_opts *co, const bench_stats *st)
{
    eous_err err;
    eous_err_clear(&err);
    int code;
    double wall = st->elapsed_s;
    runs_outcome outcome;
    memset(&outcome, 0, sizeof outcome);
    char *table = NULL;
    int reports_failed = 0;
    if (st->io_failed) {
        fprintf(stderr, "eous: %s\n", st->io_error); /* the disk is full: no report either */
    } else if (runs_reports_write(co->out_dir, &outcome, &table, &err)) {
        fprintf(stderr, "eous: reports: %s\n", err.msg);
        reports_failed = 1;
    } else {
        printf("%s\n", table ? table : "");
        /* RUSAGE_SELF: eous alone, not the browsers and drivers it reaped */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("ran %zu job(s) in %.1f s (%.1f tasks/min) · eous peak RSS %.1f MiB · report: %s/report.html\n",
               st->done, wall, wall > 0 ? st->done / wall * 60 : 0, ru.ru_maxrss / 1024.0, co->out_dir);
        printf("run folder: %s\n", co->out_dir);
    }
    free(table);
    if (st->io_failed || reports_failed) {
        code = EOUS_EXIT_INFRA;
    } else if (eous_interrupted()) {
        fprintf(stderr, "eous bench: interrupted; %zu job(s) not run (rerun with --resume)\n", st->jobs - st->done);
        code = eous_rc_exit_code(EOUS_E_INTERRUPTED);
    } else {
        code = outcome.any_infra ? EOUS_EXIT_INFRA : outcome.all_passed ? EOUS_EXIT_OK : EOUS_EXIT_FAILED;
        if (code == EOUS_EXIT_OK && co->fail_on_any_attempt && outcome.failed_attempts) {
            /* every task passed in the end, but an earlier attempt did not */
            fprintf(stderr, "eous bench: --fail-on any-attempt: %d earlier attempt(s) did not pass (results.jsonl "
                    "keeps each)\n", outcome.failed_attempts);
            code = EOUS_EXIT_FAILED;
        }
    }
    return code;
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
    wa_task_list l;
    eous_err err;
    eous_err_clear(&err);
    int code = EOUS_EXIT_INPUT;
    bench_known_limits *known = NULL;
    wa_load_opts lo = {co.params, 0};
    if (!n_files) {
        fprintf(stderr, "eous bench: no task files found\n");
        goto out_files;
    }
    if (wa_tasks_load_opts((const char *const *)files, n_files, &lo, &l, &err)) {
        cli_name_param_flags(&err);
        fprintf(stderr, "eous: %s\n", err.msg);
        goto out_files;
    }
    for (size_t i = 0; i < l.n; i++) /* WebArena-Verified tasks are scored from a network log too */
        co.network_log |= l.tasks[i].verified != NULL;
    if (co.run.planner != AGENT_PLANNER_SCRIPT && co.cassette && co.workers > 1) {
        fprintf(stderr, "eous bench: the %s planner with a cassette runs with one worker (one file, one order)\n",
                agent_planner_name(co.run.planner));
        co.workers = 1;
    }
    /* read before the run folder is made: a bad file leaves nothing behind */
    if (co.known_limits_file && bench_known_limits_load(co.known_limits_file, &known, &err)) {
        fprintf(stderr, "eous bench: --known-limits: %s\n", err.msg);
        goto out_tasks;
    }
    if (cli_default_out(&co, "bench", &err) || cli_setup_run(&co, &err)) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = eous_rc_exit_code(err.rc);
        goto out_tasks;
    }
    wd_install_signal_handlers();
    wd_become_subreaper();
    bench_opts bo;
    bench_opts_from(&co, &bo);
    bo.known_limits = known;
    int tty = isatty(2);
    bo.on_event = on_event;
    bo.ud = &tty;
    bench_stats st;
    eous_rc brc = bench_run(&l, &bo, &st, &err);
    if (brc && brc != EOUS_E_IO) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = eous_rc_exit_code(brc);
        goto out_tasks;
    }
    code = report(&co, &st);
out_tasks:
    bench_known_limits_free(known);
    cli_teardown_run(&co);
    wa_tasks_free(&l);
out_files:
    for (size_t i = 0; i < n_files; i++)
        free(files[i]);
    free(files);
    cli_opts_free(&co);
    return code;
}

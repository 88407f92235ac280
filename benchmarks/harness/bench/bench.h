/* bench/bench.h — running a benchmark: every task × mode on N workers, each
 * with its own browser session (what `eous bench` does, for an embedder).
 *
 * Results go to OUT_DIR/results.jsonl (runs/rundir.h: one line per attempt,
 * appended and flushed as each ends), traces to OUT_DIR/trace/, the audit to
 * OUT_DIR/audit.jsonl.  Infrastructure failures (a dead driver, browser or
 * grid node; a model endpoint that does not answer) are retried, the failed
 * attempt keeping its line; after three model failures in a row the jobs left
 * are recorded as infra without running.  With resume, a task × mode whose
 * last attempt has a final status is skipped and the others run as the next
 * attempt.  A task the loader marked as not runnable here is recorded as
 * skipped.  An interruption (eous_interrupted) stops the workers after their
 * job, which is recorded as interrupted.  Jobs run task by task, mode by
 * mode, except that a worker skips ahead past a job whose site reset would
 * wait for a task another worker is running (webarena/site_reset.h).
 *
 * Reports are not written here (runs/report.h: runs_reports_write). */
#ifndef EOUS_BENCH_H
#define EOUS_BENCH_H

#include <stddef.h>

#include "agent/run.h"
#include "webarena/task.h"

#define BENCH_MAX_WORKERS 32
/* model calls that failed in a row (each after the client's own retries)
 * before the bench stops asking a dead endpoint: the jobs left are recorded
 * as infra without running, so resume runs them once it is back */
#define BENCH_MODEL_FAILURES 3

/* Counts so far (under the bench's lock when a callback gets them). */
typedef struct bench_stats {
    size_t jobs;          /* task × mode jobs to run */
    size_t done;          /* recorded with a last attempt */
    size_t passed, infra;
    size_t skipped_done;  /* resume: already final in results.jsonl */
    double elapsed_s;
    int workers;          /* workers started: at most as many as jobs; one for a model client with a cassette */
    int io_failed;        /* a result or trace could not be written: the bench stopped */
    char io_error[512];
} bench_stats;

typedef enum bench_event {
    BENCH_START,   /* jobs counted, workers about to start */
    BENCH_RESULT,  /* a job's last attempt recorded (r) */
    BENCH_BREAKER  /* the model endpoint failed in a row (why): the jobs left are not run */
} bench_event;

/* Called from the workers under the bench's lock: keep it short. */
typedef void (*bench_cb)(void *ud, bench_event ev, const bench_stats *st, const agent_result *r,
                               const char *why);

typedef struct bench_opts {
    agent_run_opts run;        /* each job's options; mode, trace_path and audit_path are set per job */
    const perc_mode *modes;    /* n_modes modes, each task runs in each */
    int n_modes;
    const char *out_dir;       /* the run directory (created with trace/ when missing) */
    int workers;               /* 1..BENCH_MAX_WORKERS; each model-planner worker has its own copy of
                                * run.llm (llm_client_dup), one alone when it has a cassette */
    int resume;                /* keep results.jsonl and add to it; else it starts empty */
    int restart_browser_every; /* a fresh browser after N tasks on one (0 = never) */
    const char *webdriver;     /* a remote WebDriver URL (grid), or NULL: a local chromedriver each */
    const char *debugger_address; /* "HOST:PORT" of a running Chromium every session attaches to
                                * (wd_session_opts.debugger_address; one worker), or NULL: each launches one */
    int w3c_only;              /* no CDP */
    int network_log;           /* HAR files (WebArena-Verified tasks need them) */
    const struct bench_known_limits *known_limits; /* a failed job's line names the limit that explains it
                                                    * ("known_limit"); NULL = none (borrowed) */
    bench_cb on_event;   /* may be NULL */
    void *ud;
} bench_opts;

void bench_opts_init(bench_opts *o);

/* Runs every task of l in every mode of o.  st gets the counts.  EOUS_OK when
 * the bench ran to its end or was interrupted (eous_interrupted() says which);
 * EOUS_E_IO when the run directory could not be written (st->io_error says
 * why, nothing more was run); EOUS_E_INVALID for bad options; EOUS_E_NOMEM. */
eous_rc bench_run(const wa_task_list *l, const bench_opts *o, bench_stats *st, eous_err *err);

/* Known limits (`eous bench --known-limits FILE`, benchmarks/known_limits.json): failures whose cause is
 * known and not fixed, {"limits": [{"mode"?, "task"?, "said": ERE, "why"}]}.  A failed result matches an
 * entry when its mode and task match (when the entry names them) and said matches its answer, error or
 * eval detail; the bench writes the first match's why into the line as "known_limit".  load: EOUS_E_INVALID
 * with one line naming the file and the entry (not JSON, a field missing, a pattern eous does not take);
 * the caller frees with bench_known_limits_free (NULL is fine). */
typedef struct bench_known_limits bench_known_limits;
eous_rc bench_known_limits_load(const char *path, bench_known_limits **out, eous_err *err);
void bench_known_limits_free(bench_known_limits *k);
/* The why of the first entry r matches (borrowed from k), or NULL (also for a result that did not fail). */
const char *bench_known_limit(const bench_known_limits *k, const agent_result *r);

#endif

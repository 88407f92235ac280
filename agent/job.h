/* agent/job.h — what the loop runs: a job, whatever format it came from.
 *
 * A job is the neutral form of a task: where it starts, what it is for, the
 * steps a script follows, its parameters, its output schema.  The runtime
 * knows no benchmark: a harness (benchmarks/harness: WebArena and
 * WebArena-Verified configs, bench/task_job.h) fills a job from its own
 * format and hangs its scoring and site handling on the job's ops; an
 * embedder fills one in code and may leave ops NULL.
 *
 * Ownership: every pointer is borrowed from whoever built the job and must
 * outlive the run (agent_run_task). */
#ifndef EOUS_AGENT_JOB_H
#define EOUS_AGENT_JOB_H

#include <stddef.h>

#include "core/core.h"
#include "webdriver/wd.h"

/* A job id is at most this many characters of [A-Za-z0-9._-], not starting
 * with '.': it names the job's files under a run's folder. */
#define AGENT_JOB_ID_MAX 64

struct agent_result;
struct act_exec;
struct llm_client;

typedef struct agent_job agent_job;

/* What a scorer is given when the run ends. */
typedef struct agent_job_score_in {
    wd_session *s;               /* the page as the run left it */
    struct act_exec *x;          /* the run's executor (a scorer may read the page through it) */
    struct llm_client *judge;    /* the run's model, or NULL */
    const char *answer;          /* the stop answer, or NULL */
    const char *trace_path;      /* the run's trace file, or NULL: files a scorer writes go beside it */
} agent_job_score_in;

/* How a harness takes part in a run; each member may be NULL. */
typedef struct agent_job_ops {
    /* before the start page: what the job's sites need (a lock, a reset); *hold goes to leave */
    eous_rc (*enter)(const agent_job *j, void **hold, eous_err *err);
    void (*leave)(void *hold);
    /* the goal as the model is told it, and the stop tool's answer object (both owned by the
     * caller, NULL: the intent and a string answer) */
    void (*objective)(const agent_job *j, char **objective, cJSON **answer_schema);
    /* right before the start page loads (a network log starts there) */
    void (*begin)(const agent_job *j, wd_session *s);
    /* 1 when score leaves the page: the final screenshot is taken before it */
    int (*score_navigates)(const agent_job *j);
    /* Scores the run into res: status (passed, failed, needs_judge), score, eval_detail and what
     * the scorer keeps (agent_result's scoring part); note gets a line for the trace ("" for none).
     * NULL: a job whose steps ran to their end passed. */
    eous_rc (*score)(const agent_job *j, const agent_job_score_in *in, struct agent_result *res, char *note,
                     size_t note_size, eous_err *err);
} agent_job_ops;

struct agent_job {
    char id[AGENT_JOB_ID_MAX + 1];
    const char *intent;          /* the goal in words */
    const char *start_url;
    const cJSON *more_start_urls;/* further start pages, one tab each after start_url: the first string item
                                  * of a cJSON list, the rest by ->next; or NULL */
    const char *storage_state;   /* a Playwright storage-state file loaded before the start page, or NULL */
    const cJSON *geolocation;    /* {"latitude", "longitude", "accuracy"?} as Playwright takes it, or NULL */
    const cJSON *steps;          /* the script planner's plan, semantic first, or NULL */
    const cJSON *atomic_steps;   /* the same for atomic mode, or NULL */
    const cJSON *output_schema;  /* JSON Schema (core/schema.h) the read steps' output must satisfy, or NULL */
    const cJSON *params;         /* {NAME: value} of its parameters, for the record, or NULL */
    const cJSON *sites;          /* names of the sites it runs on (told to an agent program), or NULL */
    const char *problem;         /* why it cannot run (found when it was loaded), or NULL */
    const char *tier, *screen;   /* labels reports group by, or NULL */
    const char *file;            /* where it was written, for a repair log, or NULL */
    int index;                   /* its place in that file */
    const agent_job_ops *ops;    /* NULL: no harness */
    const void *owner;           /* the harness's own task behind the job, for its ops */
};

/* A job with nothing set, ops NULL. */
void agent_job_init(agent_job *j);

#endif

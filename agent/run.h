/* agent/run.h — one task, start to score: perceive → plan → act → settle.
 *
 * agent_run_task drives an open session through one task and fills an
 * agent_result (caller clears it with agent_result_clear).  Trace lines go to
 * opts->trace_path (JSON lines, one per step, through the secret redactor). */
#ifndef EOUS_AGENT_RUN_H
#define EOUS_AGENT_RUN_H

#include "agent/grounding.h"
#include "agent/evidence.h"
#include "agent/job.h"
#include "llm/llm.h"
#include "perception/perc.h"
#include "webdriver/wd.h"

struct llm_client;
struct act_policy;
struct act_secrets;

/* EXEC: the user's own agent program over JSON lines (agent/planner_exec.h) */
typedef enum agent_planner { AGENT_PLANNER_SCRIPT = 0, AGENT_PLANNER_LLM, AGENT_PLANNER_REPLAY, AGENT_PLANNER_EXEC } agent_planner;

typedef struct agent_run_opts {
    perc_mode mode;
    unsigned provider_set;         /* which semantic providers run (PERC_PROVIDER_* bits); 0 = all */
    agent_planner planner;
    int max_steps;                 /* default 30 */
    double max_seconds;            /* wall-clock budget per task, default 600 */
    struct llm_client *llm;        /* borrowed: the planner for llm/replay, and the judge */
    const char *trace_path;        /* NULL = no trace */
    const char *audit_path;        /* NULL = no audit log */
    struct act_policy *policy;     /* borrowed, may be NULL */
    struct act_secrets *secrets;   /* borrowed, may be NULL */
    int max_batch;                 /* actions one plan may hold (agent/batch.h), default 8; 1 = one per step */
    int deltas;                    /* observation deltas (perception/delta.h): 1 on, 0 off, -1 (default) on
                                    * for the llm planner only; with the script planner the trace still
                                    * records what a delta would have cost */
    int history;                   /* llm_history: how requests carry what came before (llm/llm.h); default
                                    * full.  Deltas need full: with stateless, deltas on is refused */
    size_t history_budget;         /* full: o200k tokens a conversation may hold before it starts afresh
                                    * (0 = LLM_DEFAULT_HISTORY_BUDGET) */
    agent_ground_mode grounding;   /* script planner: check each step against its view (agent/grounding.h) */
    agent_shots screenshots;       /* evidence beside the trace (agent/evidence.h); default failure */
    int max_image_px;              /* vision: screenshot scaled to at most this many px (0 = as captured) */
    const char *files_dir;         /* --files: upload steps take files only from here (actions/rpa.h) */
    int repair;                    /* --repair llm: a script step whose target is gone is replaced once by
                                    * the model (llm) when it can (agent/repair.h) */
    double settle_quiet_ms;        /* 0 (default): settle by the rule; > 0: a fixed DOM quiet (--settle quiet:MS) */
    int type_by_key;               /* 1: a type sends every character as a key press (--type keys; act_exec_opts) */
    const char *agent_cmd;         /* planner exec: the agent's command line, split by eous, no shell (borrowed) */
    double agent_timeout_s;        /* planner exec: one reply's bound (0 = AGENT_EXEC_DEFAULT_REPLY_S); the task's
                                    * --max-seconds bounds every reply too */
} agent_run_opts;

void agent_run_opts_init(agent_run_opts *o);
int agent_planner_parse(const char *s, agent_planner *out);
const char *agent_planner_name(agent_planner p);

/* Why a run ended.  One table of words (agent/result.c); the words are results.jsonl's. */
typedef enum agent_stop {
    AGENT_STOP_NONE = 0,
    AGENT_STOP_STOP,             /* "stop": the planner said it was done */
    AGENT_STOP_SCRIPT_END,       /* "script_end": a script's steps ran out */
    AGENT_STOP_MAX_STEPS,        /* "max_steps" */
    AGENT_STOP_TIME,             /* "time": --max-seconds */
    AGENT_STOP_PARSE_FAILURES,   /* "parse_failures": the model's answers did not parse, again and again */
    AGENT_STOP_REPEATED_ACTION,  /* "repeated_action": the same action on the same view, again and again */
    AGENT_STOP_SCRIPT_ERROR,     /* "script_error": a script step failed */
    AGENT_STOP_EXPECT_FAILED,    /* "expect_failed": an expect step failed (not scored) */
    AGENT_STOP_UNGROUNDED,       /* "ungrounded": strict grounding refused a scripted step */
    AGENT_STOP_OUTPUT_SCHEMA,    /* "output_schema": the output broke its schema */
    AGENT_STOP_MODEL_UNAVAILABLE,/* "model_unavailable": the model endpoint failed after its retries */
    AGENT_STOP_AGENT_EXITED,     /* planner exec: "agent_exited", "agent_timeout", "agent_bad_line" (the */
    AGENT_STOP_AGENT_TIMEOUT,    /* agent's failure, not infra: error quotes what it wrote) */
    AGENT_STOP_AGENT_BAD_LINE,
    AGENT_STOP_INFRA,            /* "infra", "interrupted": how the run was cut short */
    AGENT_STOP_INTERRUPTED,
    AGENT_STOP_ERROR,            /* "error": a failure of the task's own (bad input in it) */
    AGENT_STOP_COUNT
} agent_stop;

/* Where a run's wall time went, in ms (agent/loop.c measures them). */
typedef struct agent_timings {
    double wall_ms, perceive_ms, plan_ms, act_ms, settle_ms;
    /* the rest of wall_ms: the site's lock and reset, opening the start page
     * (with its settle), scoring (evaluators, the final screenshot) */
    double site_ms, start_ms, score_ms;
} agent_timings;

/* What the observations cost (perception's views, counted by the loop). */
typedef struct agent_obs_counts {
    size_t bytes, tokens;
    size_t tokens_sent;       /* o200k tokens of the observations as sent: deltas when they are on */
    const char *tokens_by;    /* static: "o200k_base", or "o200k_base estimate" for other models' tokenizers */
} agent_obs_counts;

/* Grounding's verdicts on scripted steps (agent/grounding.h). */
typedef struct agent_ground_counts {
    const char *mode;         /* static: "strict" | "report" | "off" */
    int grounded, computed, addressing, ungrounded;
} agent_ground_counts;

/* What an RPA job's steps kept (agent/outputs.h). */
typedef struct agent_rpa_result {
    /* what read steps took and download steps saved (owned, NULL when none) */
    cJSON *output, *downloads;
    char output_file[512];    /* output.json relative to the run directory ("" when not written: only a passed task's is) */
    int repaired;             /* --repair llm replaced a failed script step and the task passed */
} agent_rpa_result;

typedef struct agent_result {
    char task_id[AGENT_JOB_ID_MAX + 1];
    char mode[16];
    char planner[16];
    eous_status status;       /* how it ended (core/status.h); its word only in results lines */
    int attempt;              /* 1-based attempt of this task × mode in the run directory (0 = not numbered) */
    double score;
    char *answer;             /* stop answer or NULL (owned) */
    int steps;                /* actions run */
    int plan_calls;           /* plans asked for: model round trips (script: batches) */
    int not_run;              /* planned actions a batch stopped before */
    int semantic_actions, atomic_actions, fallbacks, errors;
    /* the model's bill, summed over the run's calls (llm/llm.h owns the figures; a script run's are 0) */
    llm_usage usage;
    const char *history;      /* static: "stateless" | "full" (model planners), NULL for scripts */
    int history_restarts;     /* full: conversations started afresh at the budget */
    agent_timings time;
    agent_obs_counts obs;
    agent_stop stop_reason;   /* why it ended (agent_stop_name gives the results line's word) */
    agent_ground_counts ground;
    char error[512];
    char eval_detail[512];
    const char *tier;         /* borrowed from the job */
    const char *screen, *intent; /* borrowed from the job, may be NULL (for reports) */
    const cJSON *params;      /* borrowed from the job: {NAME: value} of its parameters, NULL when none */
    char screenshot[512];     /* final.png relative to the run directory, "" when none */
    agent_rpa_result rpa;
    /* what a harness keeps of the run (benchmarks/harness): its scorer's files and verdicts, its runner's
     * sites and known limits; all empty for a job without one */
    struct agent_result_bench {
        char har[256];            /* WebArena-Verified: network.har relative to the run directory, "" when none */
        char agent_response[256]; /* WebArena-Verified: agent_response.json relative to the run directory */
        cJSON *evaluators;        /* WebArena-Verified: each evaluator's status and failed assertions (owned) */
        cJSON *site_urls;         /* pooled sites: name → the copy's URL the task ran on (owned), or NULL */
        const char *known_limit;  /* a bench's known limit that explains this failure, or NULL (borrowed) */
    } bench;
} agent_result;

/* Its word in a results line ("" for AGENT_STOP_NONE). */
const char *agent_stop_name(agent_stop s);

void agent_result_clear(agent_result *r);
/* The result as one JSON line (no newline; caller frees). */
char *agent_result_json(const agent_result *r);

/* Runs job j on session s.  Returns EOUS_OK when the job ran to a score
 * (passed or failed: its ops' scorer, or its steps run to their end); an
 * infrastructure failure returns its code with res->status EOUS_ST_INFRA. */
eous_rc agent_run_task(wd_session *s, const agent_job *j, const agent_run_opts *o, agent_result *res, eous_err *err);

/* Resets the browser for a job: closes the tabs an earlier job left,
 * clears cookies and storage of the start origin, loads storage_state, opens
 * start_url and waits until it settles; the job's more_start_urls then open
 * one tab each, the first tab staying active. */
eous_rc agent_prepare_page(wd_session *s, const agent_job *j, eous_err *err);
/* Clears url's origin (cookies, localStorage, sessionStorage) through CDP
 * before its page loads; 0 when it could not (no CDP, not http, a tab that
 * visited pages but has no frame of the origin to clear sessionStorage in). */
int agent_clear_origin_first(wd_session *s, const char *url);
/* A browser made ready for a task as WebArena gives each task a fresh
 * context: a new tab, in front, becomes the only one.  A new tab is a new
 * renderer process, so the node ids a view prints are the same wherever the
 * task runs in a bench (in a reused tab they keep growing, and WebArena's
 * text rule drops a number an id contains: verdicts depended on the task's
 * place in the run), and the page hooks an executor installs are not
 * installed once more per task. */
eous_rc agent_fresh_tab(wd_session *s, eous_err *err);

#endif

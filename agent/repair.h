/* agent/repair.h — --repair llm: when a script step fails because its target
 * is missing or ambiguous, the model is asked once for a replacement step,
 * given the current view and the failed step.  Its answer is parsed and
 * validated like any model action and run; the loop marks the task
 * repaired (a pass counted apart) and writes trace/<task>-<mode>/repair.json
 * (original step, new step as a script step, view excerpt).  `eous repair
 * apply RUN_DIR` (agent_repair_apply) writes the repaired task files for
 * review under RUN_DIR/repaired/; nothing is changed silently.
 *
 * Ownership: agent_repair_log is caller storage (agent_repair_log_free);
 * agent_repair_ask fills a caller-initialised action. */
#ifndef EOUS_AGENT_REPAIR_H
#define EOUS_AGENT_REPAIR_H

#include "actions/action.h"
#include "agent/job.h"
#include "core/core.h"
#include "perception/perc.h"

struct llm_client;
struct llm_usage;

/* 1 when a step that failed with rc and msg is one a repair may replace: a
 * script step with a target that is not on the page or matches several things. */
int agent_repair_wanted(const act_action *a, eous_rc rc, const char *msg);

/* One model call: the replacement for `failed` (which failed with `error`) on
 * the view obs, as a model action (view ids).  EOUS_E_PARSE when the answer is
 * not an action, EOUS_E_REJECTED when it acts on nothing on the page (stop,
 * goto, history, tabs); the model's own errors as llm_next_action gives them. */
eous_rc agent_repair_ask(struct llm_client *llm, const perc_obs *obs, const char *intent,
                         const act_action *failed, const char *error, act_action *out, struct llm_usage *usage,
                         eous_err *err);

/* The model's action as a script step (targets "role 'name'" or a component's
 * label, as task files write them), keeping the original step's retries and
 * timeout_ms; NULL when it cannot be written so (caller deletes). */
cJSON *agent_repair_script_step(const perc_obs *obs, const act_action *model, const cJSON *original);

/* What a run's repairs were, for repair.json. */
typedef struct agent_repair_log {
    cJSON *repairs; /* array (owned), NULL before the first */
} agent_repair_log;

/* Adds one repair: plan ("script" | "atomic_script"), the index of the step in
 * it (and of the action in a batch step, or -1), the original step, the new
 * one, the model's action text, the error, and the view lines around the new
 * target (through the secret redactor). */
void agent_repair_log_add(agent_repair_log *log, const char *plan, int index, int sub, const cJSON *original,
                          const cJSON *replacement, const char *model_action, const char *error, const char *view);
void agent_repair_log_free(agent_repair_log *log);
/* Writes trace/<task>-<mode>/repair.json beside trace_path (atomically) when log holds repairs. */
eous_rc agent_repair_log_write(const agent_repair_log *log, const agent_job *t, const char *mode, int passed,
                               const char *trace_path, eous_err *err);

/* eous repair apply RUN_DIR: for every trace/<task>-<mode>/repair.json of a task that
 * passed, the task's file with each failed step replaced, written to
 * RUN_DIR/repaired/<file name> (the original file is never touched); *written
 * gets how many files.  EOUS_E_INVALID naming the run directory or the file
 * that cannot be read; one line per file written goes to out. */
eous_rc agent_repair_apply(const char *run_dir, FILE *out, int *written, eous_err *err);

#endif

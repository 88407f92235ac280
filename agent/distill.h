/* agent/distill.h — `eous distill`: a model's passed run (results.jsonl and
 * trace/<task>-<mode>.jsonl of `eous run|bench --planner llm`), or an agent's
 * session `eous mcp --record` kept in the same form (status "recorded"), becomes a plain
 * job file (a plain job: benchmarks/harness/webarena/task.h loads it) that `--planner script` replays without a model.
 *
 * Each action's view id is named by what the view it acted on printed for it
 * (role 'name', a component's kind 'label', a page tool's name), the views
 * rebuilt from the trace's full views and deltas; a name that several things
 * share in that view gets its " #N", or the distill fails naming the step.
 * Values the model typed that the intent holds verbatim become parameters
 * ({{param:NAME}}, the run's value as default); {{secret:NAME}} stays as it is.
 * A value it computed (a date counted from one of the intent) is a parameter the
 * job's intent names; text it made up (in no view nor the intent) a parameter
 * typed as filler ("from": "placeholder"); a stop answer it counted gets the
 * "from" that counts it where the view says it exactly; a text step typed over
 * at the next step, the page showing nothing of it, is dropped.  The job's
 * "notes" say each.
 * A hybrid run's job also holds atomic_steps, what atomic mode runs: each call
 * as the atomic steps that do it where they are known (a field typed by its
 * label, a form's fields then its button, a group's link clicked), else the
 * call as it is (atomic mode's view prints no component: strict grounding
 * refuses it, naming it).
 *
 * Ownership: *out is the caller's (cJSON_Delete). */
#ifndef EOUS_AGENT_DISTILL_H
#define EOUS_AGENT_DISTILL_H

#include "core/core.h"

/* The plain job {name, start_url, intent, params?, steps, atomic_steps?, notes?} of run_dir's passed
 * task × mode into *out.  task and mode may be NULL when the run holds one
 * task × mode that matches.  EOUS_E_INVALID (bad input) with one line naming
 * the run dir and why: no results.jsonl, no such task × mode, one that did not
 * pass, no trace, or a step that cannot be named by what its view printed. */
eous_rc agent_distill(const char *run_dir, const char *task, const char *mode, cJSON **out, eous_err *err);

#endif

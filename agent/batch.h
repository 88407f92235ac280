/* agent/batch.h — several actions planned on one view and run in order.
 *
 * A planner reply may hold a batch: several tool calls (OpenAI parallel tool
 * calls, Anthropic tool_use blocks), several action lines of WebArena text, or
 * a script step that is a JSON array of steps.  The loop runs the batch's
 * actions in order and stops it before the next action when:
 *   - the last action failed (its error is its result);
 *   - the page moved: the URL differs from the planned view's (navigation,
 *     route change), the number of open tabs changed, or a dialog opened;
 *   - the next action's target is stale (agent_batch_stale).
 * Stale rule (cheap: it compares two views eous takes anyway — after every
 * action but the last of a batch the page is perceived again, exactly as an
 * unbatched run perceives it before its next step): the target located in the
 * planned view (act_locate) must be located in the new view as the same thing:
 *   - call: the same component key, with the same kind and label;
 *   - atomic id or "role 'name'" target: resolving it in the new view gives
 *     the same backend DOM node, with the same role and accessible name.
 * The action then runs on the new view: same target, current state (a button
 * the batch's first action enabled is enabled for its second).
 * Actions without a target (press, scroll) and css= targets are never stale.
 * A target the planned view did not show is not stale either: running it
 * gives the executor's own "not found" error.  Actions not run are reported
 * to the planner as not run, with the reason.
 *
 * Ownership: an agent_batch owns its actions; agent_batch_clear frees them. */
#ifndef EOUS_AGENT_BATCH_H
#define EOUS_AGENT_BATCH_H

#include <stddef.h>

#include "actions/action.h"
#include "perception/perc.h"

#define AGENT_DEFAULT_MAX_BATCH 8
#define AGENT_MAX_BATCH 64

typedef struct agent_batch {
    act_action a[AGENT_MAX_BATCH];
    size_t n;
    size_t dropped; /* actions of the reply beyond max_batch (not run) */
    /* script planner: where each action came from (entry of steps, index in
     * an array entry or 0), so a batch that stops resumes at its first
     * action not run */
    int entry[AGENT_MAX_BATCH], sub[AGENT_MAX_BATCH];
} agent_batch;

void agent_batch_init(agent_batch *b);
void agent_batch_clear(agent_batch *b);

/* 1 when a, planned on view plan, must not run on view now; why gets one line. */
int agent_batch_stale(const perc_obs *plan, const perc_obs *now, const act_action *a, char *why, size_t n);
/* 1 when the page moved between the two views (URL changed); why gets one line. */
int agent_batch_navigated(const perc_obs *plan, const perc_obs *now, char *why, size_t n);

/* The script planner's next batch from steps[start] (from its element sub
 * when that step is an array): a step that is a JSON
 * array is one batch (its elements, at most max).  A step object starts a
 * batch that, when max > 1, takes the following step objects for as long as a
 * model could have planned them on obs: each is a click, type, hover, select
 * or call whose target obs shows (act_locate), or a press; goto, go_back,
 * go_forward, tab actions, scroll and stop only start a batch.   A step that does not parse is an
 * error naming it (1-based). */
eous_rc agent_batch_from_script(const cJSON *steps, int start, int sub, const perc_obs *obs, int max,
                                agent_batch *out, eous_err *err);

#endif

/* agent/grounding.h — is a deterministic plan's step grounded in what the
 * planner could see?
 *
 * A scripted step is checked against the view text it is about to act on (the
 * current mode's observation), the task's intent and what this run has seen
 * so far (earlier views and action results): a call's target and tool, the
 * string values of its params, an atomic "role 'name'" / [id] target, typed
 * text, a select's option, and every name and number of a stop answer must
 * appear there (or the answer be computed by the rule the plan states).  A
 * plan that only passes because its author knew the seed data fails here.
 *
 * The check is a pure function of (view, intent, seen texts, action), so it
 * applies to each action of a batch against one view.  No ownership crosses
 * the API except agent_ground_log, which owns copies of what it was given. */
#ifndef EOUS_AGENT_GROUNDING_H
#define EOUS_AGENT_GROUNDING_H

#include <stddef.h>

#include "actions/action.h"

typedef enum agent_ground_mode {
    AGENT_GROUND_OFF = 0, /* no check */
    AGENT_GROUND_REPORT,  /* verdicts in the trace and the summary; the step runs */
    AGENT_GROUND_STRICT   /* an ungrounded step ends the task (stop_reason "ungrounded") */
} agent_ground_mode;

/* "strict" | "report" | "off" → *out; -1 on anything else. */
int agent_ground_mode_parse(const char *s, agent_ground_mode *out);
const char *agent_ground_mode_name(agent_ground_mode m);

typedef enum agent_ground_verdict {
    AGENT_GROUND_GROUNDED = 0, /* every item was in the view, the intent or (where allowed) seen before */
    AGENT_GROUND_COMPUTED,     /* a stop answer derived by the plan's stated rule (checked where it can be) */
    AGENT_GROUND_ADDRESSING,   /* css= target or a page-data look-up: allowed for RPA, counted as ungrounded addressing */
    AGENT_GROUND_UNGROUNDED    /* an item appears nowhere the planner could have read it; missing names it */
} agent_ground_verdict;

/* "grounded" | "computed" | "ungrounded_addressing" | "ungrounded" */
const char *agent_ground_verdict_name(agent_ground_verdict v);

/* What a run has read so far: its views and action results, kept normalised
 * (lower case, one space for any run of white space) so each check scans
 * them as they are. */
typedef struct agent_ground_log {
    char **texts;
    size_t n, cap;
} agent_ground_log;

typedef struct agent_ground_input {
    const char *view;         /* the exact text the planner acts on (required) */
    const char *intent;       /* the task's objective, may be NULL */
    const agent_ground_log *seen; /* earlier views and action results of this run, may be NULL */
    /* call only: the view id ("c5") the target resolves to in this
     * observation, or NULL; a key is grounded when that id is in the view */
    const char *call_view_id;
    int call_page_tool;       /* call only: the target is a page-level tool (no element of its own) */
    /* the step's "from": how a value it uses (a stop answer, typed text, a call
     * param) was computed from what the run saw; NULL when it states none */
    const char *rule;
} agent_ground_input;

typedef struct agent_ground_result {
    agent_ground_verdict verdict;
    char missing[320];        /* for ungrounded / addressing: what was not found, one line */
} agent_ground_result;

/* Checks action a against in; always fills out. */
void agent_ground_check(const agent_ground_input *in, const act_action *a, agent_ground_result *out);

/* Appends a normalised copy of text; -1 out of memory. */

/* Appends a copy of text (NULL or "" ignored); 0, or -1 when out of memory. */
int agent_ground_log_add(agent_ground_log *log, const char *text);
void agent_ground_log_free(agent_ground_log *log);

struct perc_obs;
/* The check of one scripted step against observation obs (its view text, and
 * the component a call's key resolves to); step is the step's JSON (for its
 * "from" rule), may be NULL. */
void agent_ground_step(const struct perc_obs *obs, const char *intent, const agent_ground_log *seen,
                       const cJSON *step, const act_action *a, agent_ground_result *out);

#endif

/* agent/grounding.h — is a deterministic plan's step grounded in what the
 * planner could see?
 *
 * A scripted step is checked against the view text it is about to act on (the
 * current mode's observation), the task's intent and what this run has seen
 * so far (earlier views and action results).  Values are looked up with the
 * views' element ids ("[12]", "[c5]") taken out, on word boundaries, case and
 * white space folded.  A plan that only passes because its author knew the
 * seed data fails here.
 *
 * - call target: what the view prints for the component — its id ("c5" or
 *   "[c5]"), its label as the line prints it ("[c5] table 'Users' …" → "Users"),
 *   "kind 'label'" ("table 'Users'"), or a page tool's name as printed under
 *   "page tools:" ("[c14] create_booking(…" → "create_booking").  An internal
 *   key the view never prints ("table-users") is ungrounded even though it
 *   resolves.  The tool must be on the component's line as "tool(".
 * - call params, every value (strings, numbers, booleans, array items, nested
 *   objects): strings and numbers in the view or the intent; a "page" number
 *   must be a page item the view shows (the pruned pager "1 2 3 4 5" or a
 *   "listitem|link|button 'N'" line; the hybrid view folds the pager into its
 *   component, so it shows none); a boolean only where the component's own
 *   line shows that param as a boolean in any form the view writes for it
 *   ("checked: boolean", "breakfast?: boolean", "Send news?: true|false": one
 *   grammar, perception/view_grammar_int.h) or its state "checked: true":
 *   the two values are then shown as
 *   an enum's are, and which one the intent asks for is the plan's reading.
 *   A page tool's string param found nowhere is a page-data look-up
 *   (ungrounded addressing).
 * - atomic "role 'name'" / [id] target: in the view; css= is addressing.
 * - typed text: each line in this run's observations or the intent (a
 *   textarea's text shows one line per node); a select's option in the view
 *   or the intent.
 * - stop answer: every word and number in an observation of this run or the
 *   intent.
 *
 * A value found nowhere may be derived by the step's rule ("from"), one of
 * this vocabulary, each checked against the view (anything else is
 * ungrounded, and a stated rule is checked even when the value is found):
 *   count of rows shown…          the table rows the view shows (hybrid/pruned
 *                                 "| … |" lines under a header line; atomic
 *                                 "row" lines, header rows excluded); free
 *                                 text may follow "shown"
 *   count of options listed for '<label>'  hybrid: the options on the line of
 *                                 the component so labelled ("options: a | b",
 *                                 else its tools' first "a|b|c" list), refused
 *                                 when cut ("… +N more"); atomic/pruned: the
 *                                 item lines of the first listbox/menu/tree
 *                                 after the element named '<label>'
 *   sum|min|max of column '<name>'  over the rows the view shows
 *   date 'YYYY-MM-DD' plus|minus N days  the date and N read in this run or
 *                                 the intent; the value is the result
 *   count of matches in the last result  the items of the "matches" list of
 *                                 this run's last action result that has one
 *                                 (a component's search tool)
 *   placeholder                   filler text the task does not score: only
 *                                 typed text or a setValue "text" param, never
 *                                 a stop answer, an option, a URL or a number
 * The value must equal what the rule gives (numbers as numbers).
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
    AGENT_GROUND_COMPUTED,     /* a value derived by the step's stated rule, checked against the view */
    AGENT_GROUND_ADDRESSING,   /* css= target or a page-data look-up: allowed for RPA, counted as such */
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
    /* call only: the component the target resolves to in this observation
     * (its view id "c5", key, kind and label), all NULL when none does; the
     * target is grounded when it is written as the view prints that component */
    const char *call_view_id;
    const char *call_key, *call_kind, *call_label;
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

/* Appends a copy of text (NULL or "" ignored); 0, or -1 when out of memory. */
int agent_ground_log_add(agent_ground_log *log, const char *text);
void agent_ground_log_free(agent_ground_log *log);

struct perc_obs;
/* The check of one scripted step against observation obs (its view text, and
 * the component a call's target resolves to, as the executor resolves it);
 * step is the step's JSON (for its "from" rule), may be NULL. */
void agent_ground_step(const struct perc_obs *obs, const char *intent, const agent_ground_log *seen,
                       const cJSON *step, const act_action *a, agent_ground_result *out);

#endif

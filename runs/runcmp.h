/* runs/runcmp.h — two run directories side by side: what changed from run A
 * to run B per task × mode (status, steps, observation tokens, time).
 *
 * The check a research team runs in its own CI between two model or prompt
 * versions.  A run is a directory holding results.jsonl (or that file itself).
 * When a task × mode appears twice in one file (a retry or --resume rerun),
 * its last attempt counts and the earlier failed ones are reported beside the
 * summary (runs/rundir.h).  A last line cut short by a crash (no newline, not JSON) is
 * skipped with a warning; any other malformed line is bad input.
 *
 * What counts as a regression: passed in A and failed in B, or passed in A and
 * absent from B (a dropped task would hide a failure).  A change to or from
 * infra, interrupted, needs_judge or skipped is "unsettled": listed, not a
 * regression, since nothing was learnt about the agent.
 *
 * A WebArena-Verified task's results line carries its evaluators' verdicts:
 * a pair whose verdicts differ (both failed, but another evaluator fails) is
 * a change, and the table gets a column with each evaluator's status in A and
 * B and links to both runs' agent_response.json and network.har.
 *
 * agent_runcmp_load allocates the comparison; the caller frees it with
 * agent_runcmp_free.  The text functions return malloc'd strings. */
#ifndef EOUS_RUNS_RUNCMP_H
#define EOUS_RUNS_RUNCMP_H

#include "core/core.h"

typedef struct agent_runcmp agent_runcmp;

typedef struct agent_runcmp_counts {
    int both;          /* task × mode pairs present in both runs */
    int regressions;   /* passed → failed, plus dropped */
    int dropped;       /* passed in A, absent from B */
    int fixes;         /* failed → passed */
    int unsettled;     /* status changed to or from infra / interrupted / needs_judge / skipped */
    int only_a, only_b;
    int changed;       /* pairs in both whose status, steps, tokens or evaluator verdicts differ */
    int other;         /* of those, same status but other steps, tokens or verdicts */
} agent_runcmp_counts;

eous_rc agent_runcmp_load(const char *run_a, const char *run_b, agent_runcmp **out, eous_err *err);
void agent_runcmp_free(agent_runcmp *c);
void agent_runcmp_get_counts(const agent_runcmp *c, agent_runcmp_counts *out);
/* One line: "A → B: 2 regressions (…), 1 fix, …; pass rate …; steps/task …". */
char *agent_runcmp_summary(const agent_runcmp *c);
/* The summary, then a table of every changed or unmatched task × mode. */
char *agent_runcmp_markdown(const agent_runcmp *c);
/* {"a":…, "b":…, "counts":{…}, "totals":{…}, "rows":[…]} with every pair. */
char *agent_runcmp_json(const agent_runcmp *c);

#endif

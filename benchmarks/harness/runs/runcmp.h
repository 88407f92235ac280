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
 * runs_cmp_load allocates the comparison; the caller frees it with
 * runs_cmp_free.  The text functions return malloc'd strings. */
#ifndef EOUS_RUNS_RUNCMP_H
#define EOUS_RUNS_RUNCMP_H

#include "core/core.h"

typedef struct runs_cmp runs_cmp;

typedef struct runs_cmp_counts {
    int both;          /* task × mode pairs present in both runs */
    int regressions;   /* passed → failed, plus dropped */
    int dropped;       /* passed in A, absent from B */
    int fixes;         /* failed → passed */
    int unsettled;     /* status changed to or from infra / interrupted / needs_judge / skipped */
    int only_a, only_b;
    int changed;       /* pairs in both whose status, steps, tokens or evaluator verdicts differ */
    int other;         /* of those, same status but other steps, tokens or verdicts */
} runs_cmp_counts;

eous_rc runs_cmp_load(const char *run_a, const char *run_b, runs_cmp **out, eous_err *err);
void runs_cmp_free(runs_cmp *c);
void runs_cmp_get_counts(const runs_cmp *c, runs_cmp_counts *out);
/* One line: "A → B: 2 regressions (…), 1 fix, …; pass rate …; steps/task …". */
char *runs_cmp_summary(const runs_cmp *c);
/* The summary, then a table of every changed or unmatched task × mode. */
char *runs_cmp_markdown(const runs_cmp *c);
/* {"a":…, "b":…, "counts":{…}, "totals":{…}, "rows":[…]} with every pair. */
char *runs_cmp_json(const runs_cmp *c);

#endif

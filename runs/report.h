/* runs/report.h — summaries of a run directory's results.jsonl:
 * summary.json, summary.md, report.html (inline SVG charts) and junit.xml
 * (libxml2 xmlwriter).  Reads the file (runs/rundir.h), so resumed runs
 * report everything and no earlier attempt is hidden. */
#ifndef EOUS_RUNS_REPORT_H
#define EOUS_RUNS_REPORT_H

#include "core/core.h"

/* What the run's results say, for the exit code: each task × mode counted by
 * its last attempt; failed_attempts counts the earlier attempts that did not
 * pass (a retry or --resume followed them). */
typedef struct runs_outcome {
    int tasks, passed;
    int all_passed, any_infra;
    int failed_attempts;
} runs_outcome;

/* Writes the four reports into out_dir and fills *o.  The markdown table is
 * also returned in *table_md when not NULL (caller frees). */
eous_rc runs_reports_write(const char *out_dir, runs_outcome *o, char **table_md, eous_err *err);

#endif

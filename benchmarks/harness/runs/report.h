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

/* One self-contained HTML page at path comparing n run folders (each a directory holding results.jsonl,
 * or that file), in report.html's style: per run x mode the pass rate, round trips, input tokens (cached
 * share) and cost per task; per task each run x mode's status and round trips (each task x mode's last
 * attempt), the tasks whose outcome differs marked, counted and said ("passed in A (hybrid); failed in
 * B (atomic)").  Runs are labelled by the shortest ends of their paths that tell them apart.  Fewer than
 * 2 or more than 16 runs, or a folder without results: EOUS_E_INVALID and nothing written; the page is
 * written whole or not at all, through the secret redactor. */
eous_rc runs_compare_html_write(const char *const *runs, int n, const char *path, eous_err *err);

#endif

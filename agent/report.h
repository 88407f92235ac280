/* agent/report.h — summaries of a run directory's results.jsonl:
 * summary.json, summary.md, report.html (inline SVG charts) and junit.xml
 * (libxml2 xmlwriter).  Reads the file, so resumed runs report everything. */
#ifndef EOUS_AGENT_REPORT_H
#define EOUS_AGENT_REPORT_H

#include "core/core.h"

/* Writes the four reports into out_dir; *all_passed / *any_infra describe the
 * results (for the exit code).  The markdown table is also returned in
 * *table_md when not NULL (caller frees). */
eous_rc agent_reports_write(const char *out_dir, int *all_passed, int *any_infra, char **table_md, eous_err *err);

#endif

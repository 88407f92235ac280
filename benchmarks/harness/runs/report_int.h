/* runs/report_int.h — report.html's parts, shared by report.c (summary,
 * charts) and report_html.c (the task table and its drill-down). */
#ifndef EOUS_RUNS_REPORT_INT_H
#define EOUS_RUNS_REPORT_INT_H

#include "core/core.h"

/* Text into HTML (element content or a quoted attribute). */
void runs_html_text(eous_buf *h, const char *s);

/* The reports' one stylesheet (report.html and the comparison page). */
extern const char runs_report_css[];
/* The pass-rate-and-cost table: its head (run_col: a first column naming the run), then one row per
 * run x mode of rows (each task x mode's last attempt; run NULL without run_col); the caller closes it
 * with "</tbody></table></div>". */
void runs_html_glance_head(eous_buf *h, int run_col);
void runs_html_glance_row(eous_buf *h, const char *run, const cJSON *rows, const char *mode);

/* Writes OUT/report.html: head (inline CSS), summary_md in a <pre>, charts_svg
 * as given, then the tasks (sorted by id, modes side by side, filters, one
 * drill-down per task read from its traces and evidence files) and the inline
 * script.  rows: each task × mode's last attempt; earlier: the attempts a
 * retry or --resume followed, listed in the drill-down (both borrowed);
 * modes: their order.  The whole page goes through the secret redactor. */
eous_rc runs_report_html_write(const char *out_dir, const cJSON *rows, const cJSON *earlier, const char *const *modes,
                                int n_modes,
                                const char *summary_md, const char *charts_svg, eous_err *err);

/* The line of rows (a results array) for task id in mode, NULL when none (borrowed). */
const cJSON *runs_row_of(const cJSON *rows, const char *id, const char *mode);

#endif

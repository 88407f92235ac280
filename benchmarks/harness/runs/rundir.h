/* runs/rundir.h — a run directory's results.jsonl, read and written in one
 * place.  The file holds one line per attempt of a task × mode, in the order
 * the attempts ran: a retry after an infrastructure failure and a --resume
 * rerun add a line, never replace one.  The attempt that counts for a task ×
 * mode is its last line; the earlier ones stay so that no failure is hidden
 * (summaries report them as failed attempts, --fail-on any-attempt counts
 * them).  The status words are core/status.h's. */
#ifndef EOUS_RUNS_RUNDIR_H
#define EOUS_RUNS_RUNDIR_H

#include "core/core.h"

/* A loaded results.jsonl.  rows: every line in file order (owned); each row
 * carries "attempt" (1-based, per task × mode), derived from its position
 * when an older file lacks it. */
typedef struct runs_dir {
    char path[4200];   /* the results.jsonl read */
    cJSON *rows;
    int skipped_tail;  /* 1 when a last line cut short by a crash was skipped */
} runs_dir;

/* Reads arg (a run directory or its results.jsonl).  strict: a line that is
 * not a JSON object with string task_id, mode and status is bad input naming
 * the line (a torn last line is always skipped); lenient readers (the
 * reports) skip such lines.  A missing file is EOUS_E_INVALID. */
eous_rc runs_dir_load(const char *arg, int strict, runs_dir *rd, eous_err *err);
void runs_dir_free(runs_dir *rd);

/* 1 when row r (a row of rd->rows) is the last attempt of its task × mode. */
int runs_dir_is_last(const cJSON *r);
/* The last attempt of task id × mode, or NULL. */
const cJSON *runs_dir_last(const runs_dir *rd, const char *id, const char *mode);
/* The attempts of task id × mode recorded so far. */
int runs_dir_attempts(const runs_dir *rd, const char *id, const char *mode);
/* Earlier attempts (not the last of their task × mode) that did not pass. */
int runs_dir_failed_attempts(const runs_dir *rd);
/* 1 for a status --resume keeps (passed, failed, needs_judge, skipped);
 * infra and interrupted attempts are run again. */
int runs_dir_status_final(const char *status);

/* Appends one result line to out_dir/results.jsonl whole (O_APPEND). */
eous_rc runs_dir_append(const char *out_dir, const char *line, eous_err *err);

#endif

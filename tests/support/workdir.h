/* tests/support/workdir.h — a test suite's scratch directory: made under
 * /tmp at set-up, with the paths a CLI run writes its stdout and stderr to,
 * removed (recursively) at tear-down.  No Criterion here: it aborts with one
 * line when /tmp cannot take a directory. */
#ifndef EOUS_TS_WORKDIR_H
#define EOUS_TS_WORKDIR_H

#include <stddef.h>

/* Makes /tmp/eous-NAME-XXXXXX into dir (dir_size bytes).  out and err (may
 * both be NULL) get DIR/stdout and DIR/stderr, path_size bytes each. */
void ts_workdir_make(char *dir, size_t dir_size, const char *name, char *out, char *err, size_t path_size);
/* Removes dir and everything under it (nothing when dir is empty). */
void ts_workdir_remove(const char *dir);

#endif

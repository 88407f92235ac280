/* tests/support/gitrev.h — the commit a benchmark's figures belong to. */
#ifndef EOUS_TS_GITREV_H
#define EOUS_TS_GITREV_H

#include <stddef.h>

/* The source tree's short HEAD into out ("unknown" when git cannot tell). */
void ts_git_commit(char *out, size_t size);

#endif

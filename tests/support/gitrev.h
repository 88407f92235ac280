/* tests/support/gitrev.h — the commit a benchmark's figures belong to, and the load they were taken at. */
#ifndef EOUS_TS_GITREV_H
#define EOUS_TS_GITREV_H

#include <stddef.h>

/* The source tree's short HEAD into out ("unknown" when git cannot tell). */
void ts_git_commit(char *out, size_t size);
/* The 1-minute load average as /proc/loadavg prints it into out ("?" when it cannot be read). */
void ts_load_average(char *out, size_t size);

#endif

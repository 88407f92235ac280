/* tests/support/workdir.c — see workdir.h. */
#include "support/workdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

void ts_workdir_make(char *dir, size_t dir_size, const char *name, char *out, char *err, size_t path_size)
{
    snprintf(dir, dir_size, "/tmp/eous-%s-XXXXXX", name);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "ts_workdir_make: cannot make %s: expected a writable /tmp\n", dir);
        abort();
    }
    if (out)
        snprintf(out, path_size, "%s/stdout", dir);
    if (err)
        snprintf(err, path_size, "%s/stderr", dir);
}

void ts_workdir_remove(const char *dir)
{
    if (dir && *dir)
        eous_rmtree(dir);
}

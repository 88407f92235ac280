/* tests/support/gitrev.c — see gitrev.h. */
#include "support/gitrev.h"

#include <stdio.h>
#include <string.h>

void ts_git_commit(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *p = popen("git -C '" EOUS_SOURCE_DIR "' rev-parse --short HEAD 2>/dev/null", "r");
    if (!p)
        return;
    if (fgets(out, (int)size, p))
        out[strcspn(out, "\n")] = '\0';
    pclose(p);
}

void ts_load_average(char *out, size_t size)
{
    snprintf(out, size, "?");
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    char word[64];
    if (fscanf(f, "%63s", word) == 1)
        snprintf(out, size, "%s", word);
    fclose(f);
}

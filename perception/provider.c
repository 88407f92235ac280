/* perception/provider.c — the semantic providers' one table (perc.h):
 * PERC_PROVIDER_* bits in the code, their names at the edges (--providers,
 * a component's "provider" in JSON and traces). */
#include <string.h>

#include "perception/perc.h"

/* The providers' one table: names at the edges, bits in the code. */
static const struct { const char *name; unsigned bit; } P[] = {
    {"ci4a", PERC_PROVIDER_CI4A}, {"webmcp", PERC_PROVIDER_WEBMCP},
    {"bridge", PERC_PROVIDER_BRIDGE}, {"native", PERC_PROVIDER_NATIVE}};

const char *perc_provider_name(unsigned bit)
{
    for (size_t i = 0; i < sizeof P / sizeof *P; i++)
        if (P[i].bit == bit)
            return P[i].name;
    return "";
}

int perc_providers_parse(const char *list, unsigned *out)
{
    unsigned set = 0;
    const char *p = list ? list : "";
    if (!*p)
        return -1;
    while (*p) {
        size_t n = strcspn(p, ",");
        int hit = 0;
        for (size_t i = 0; i < sizeof P / sizeof *P; i++)
            if (n == strlen(P[i].name) && !strncmp(p, P[i].name, n)) {
                set |= P[i].bit;
                hit = 1;
            }
        if (!hit)
            return -1;
        p += n;
        if (*p == ',' && !*++p)
            return -1; /* "ci4a," */
    }
    *out = set;
    return 0;
}

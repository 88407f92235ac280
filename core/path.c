/* core/path.c — the one way eous builds a path under a directory it was
 * given (--out, a download directory) from names it was handed (a task id,
 * a mode, a file name a server chose): see eous_path_under in util.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

/* Why rel would leave its root (or not name a file under it), or NULL. */
static const char *leaves_root(const char *rel)
{
    if (!*rel)
        return "it is empty";
    if (rel[0] == '/')
        return "it is absolute";
    for (const unsigned char *p = (const unsigned char *)rel; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return "it holds a control character";
    for (const char *part = rel; part; ) {
        const char *slash = strchr(part, '/');
        size_t len = slash ? (size_t)(slash - part) : strlen(part);
        if (len == 0)
            return "it has an empty part (//)";
        if ((len == 1 && part[0] == '.') || (len == 2 && part[0] == '.' && part[1] == '.'))
            return "it has a . or .. part";
        part = slash ? slash + 1 : NULL;
    }
    return NULL;
}

eous_rc eous_path_under(char *out, size_t n, const char *root, eous_err *err, const char *fmt, ...)
{
    char rel[4096];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(rel, sizeof rel, fmt, ap);
    va_end(ap);
    if (n)
        out[0] = '\0';
    if (len < 0 || (size_t)len >= sizeof rel)
        return eous_err_set(err, EOUS_E_INVALID, "%.300s: a path under it is too long (%.100s...)", root, rel);
    const char *why = leaves_root(rel);
    if (why)
        return eous_err_set(err, EOUS_E_INVALID, "%.300s: refusing the path '%.300s' under it: %s (expected names inside it)",
                            root, rel, why);
    int k = snprintf(out, n, "%s/%s", root, rel);
    if (k < 0 || (size_t)k >= n) {
        if (n)
            out[0] = '\0';
        return eous_err_set(err, EOUS_E_INVALID, "%.300s: the path '%.300s' under it is too long", root, rel);
    }
    return EOUS_OK;
}

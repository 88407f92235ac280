/* perception/view_grammar.c — reading back a param as the hybrid view's tools
 * line writes it (see view_grammar_int.h). */
#include "perception/view_grammar_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* a byte of a name's word: letters, digits and any non-ASCII byte (accented names) */
static int name_byte(unsigned char c)
{
    return isalnum(c) || c >= 0x80;
}

int pv_param_type(const char *line, const char *name, char *type, size_t n, int *optional)
{
    size_t nl = name ? strlen(name) : 0, ol = strlen(PV_OPTIONAL), tl = strlen(PV_TYPE);
    if (!line || !nl || !n)
        return 0;
    for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
        /* the whole name: not the tail of a longer one ("email me" in "re-email me") */
        if (p > line && name_byte((unsigned char)p[-1]) && name_byte((unsigned char)name[0]))
            continue;
        const char *q = p + nl;
        int opt = !strncmp(q, PV_OPTIONAL, ol);
        if (opt)
            q += ol;
        if (strncmp(q, PV_TYPE, tl))
            continue;
        q += tl;
        /* up to the first limit, the next param or the tool's end */
        size_t len = strcspn(q, ";)");
        const char *lim = strstr(q, PV_LIMIT_SEP);
        if (lim && (size_t)(lim - q) < len)
            len = (size_t)(lim - q);
        while (len && q[len - 1] == ' ')
            len--;
        snprintf(type, n, "%.*s", (int)len, q);
        if (optional)
            *optional = opt;
        return 1;
    }
    return 0;
}

int pv_type_is_boolean(const char *type)
{
    if (!type || !type[0])
        return 0;
    if (!strcmp(type, PV_BOOLEAN))
        return 1;
    size_t sl = strlen(PV_ENUM_SEP);
    for (const char *p = type;;) {
        const char *e = strstr(p, PV_ENUM_SEP);
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!((len == 4 && !strncmp(p, "true", 4)) || (len == 5 && !strncmp(p, "false", 5))))
            return 0;
        if (!e)
            return 1;
        p = e + sl;
    }
}

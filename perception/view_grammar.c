/* perception/view_grammar.c — what a param's printed type takes (see
 * view_grammar_int.h; perception/view_lines.c reads the params). */
#include "perception/view_grammar_int.h"

#include <string.h>

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

/* core/regex_tame.c — see regex_tame.h: a scan of the pattern's text, no compile. */
#include "core/regex_tame.h"

#include <stdlib.h>

/* the upper bound of a counted repeat "{m}", "{m,}" or "{m,n}" at p ('{'), or -1 when it is none */
static long repeat_bound(const char *p)
{
    char *e;
    long m = strtol(p + 1, &e, 10), n = m;
    if (e == p + 1 || m < 0)
        return -1;
    if (*e == ',') {
        const char *f = e + 1;
        n = *f == '}' ? m + 1 : strtol(f, &e, 10);
        if (*f == '}')
            e = (char *)f;
        else if (e == f)
            return -1;
    }
    return *e == '}' ? (n > m ? n : m) : -1;
}

/* the ']' that closes the bracket expression at p ('['), or NULL: a ']' first (after a '^') is a member,
 * and "[:alpha:]", "[.x.]", "[=x=]" inside are one member each */
static const char *bracket_end(const char *p)
{
    p++;
    if (*p == '^')
        p++;
    if (*p == ']')
        p++;
    for (; *p && *p != ']'; p++) {
        if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            char c = p[1];
            const char *q = p + 2;
            while (*q && !(q[0] == c && q[1] == ']'))
                q++;
            if (!*q)
                return NULL;
            p = q + 1;
        }
    }
    return *p ? p : NULL;
}

int eous_regex_is_tame(const char *pat)
{
    size_t n = 0, quantifiers = 0;
    double product = 1;
    int prev_quant = 0;
    for (const char *p = pat; *p; p++, n++) {
        if (n >= EOUS_REGEX_MAX_PATTERN)
            return 0;
        if (*p == '\\') {
            if (p[1] >= '0' && p[1] <= '9')
                return 0; /* backreference */
            if (p[1])
                p++, n++;
            prev_quant = 0;
            continue;
        }
        if (*p == '[') {
            /* one atom: its quantifier characters are members */
            const char *e = bracket_end(p);
            if (!e)
                return 1; /* unbalanced: regcomp refuses it without effort */
            n += (size_t)(e - p);
            p = e;
            if (n >= EOUS_REGEX_MAX_PATTERN)
                return 0;
            prev_quant = 0;
            continue;
        }
        int quant = *p == '*' || *p == '+' || *p == '?' || *p == '{';
        if (quant && prev_quant)
            return 0;
        if (quant && ++quantifiers > EOUS_REGEX_MAX_QUANTIFIERS)
            return 0;
        if (*p == '{') {
            long b = repeat_bound(p);
            /* glibc copies the repeated tree per count, nested counts multiply: the product bounds them all */
            if (b > 0 && (product *= (double)b) > EOUS_REGEX_MAX_REPEAT)
                return 0;
            while (p[1] && *p != '}')
                p++, n++;
        }
        prev_quant = quant;
    }
    return 1;
}

/* webarena/verified_re.c — the Python regular expressions WebArena-Verified's
 * task data uses, on POSIX regex: \d \w \s (in and out of brackets), (?:…),
 * lazy quantifiers as greedy ones (the patterns are anchored, so the match
 * set is the same), and a leading negative look-ahead ^(?!X)rest.
 * Owned by the verified evaluator (agent/verified*.c). */
#define _GNU_SOURCE
#include "webarena/verified_int.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Python syntax to POSIX ERE; caller frees. */
static char *to_posix(const char *p)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    int in_br = 0;
    for (const char *s = p; *s; s++) {
        if (*s == '\\' && s[1]) {
            char c = *++s;
            const char *cls = NULL;
            if (c == 'd')
                cls = in_br ? "0-9" : "[0-9]";
            else if (c == 'D')
                cls = in_br ? NULL : "[^0-9]";
            else if (c == 'w')
                cls = in_br ? "A-Za-z0-9_" : "[A-Za-z0-9_]";
            else if (c == 'W')
                cls = in_br ? NULL : "[^A-Za-z0-9_]";
            else if (c == 's')
                cls = in_br ? " \t\n\r\f\v" : "[[:space:]]";
            else if (c == 'S')
                cls = in_br ? NULL : "[^[:space:]]";
            if (cls) {
                eous_buf_puts(&b, cls, NULL);
            } else if (in_br) {
                /* inside brackets POSIX takes a backslash literally: keep the character only */
                if (c == ']' || c == '-')
                    eous_buf_putc(&b, c == ']' ? ']' : '-', NULL);
                else
                    eous_buf_putc(&b, c, NULL);
            } else if (strchr(".[]()*+?{}|^$\\/", c)) {
                if (c == '/') {
                    eous_buf_putc(&b, '/', NULL);
                } else {
                    eous_buf_putc(&b, '\\', NULL);
                    eous_buf_putc(&b, c, NULL);
                }
            } else if (c == 'n') {
                eous_buf_putc(&b, '\n', NULL);
            } else if (c == 't') {
                eous_buf_putc(&b, '\t', NULL);
            } else {
                eous_buf_putc(&b, c, NULL);
            }
            continue;
        }
        if (in_br) {
            if (*s == ']')
                in_br = 0;
            eous_buf_putc(&b, *s, NULL);
            continue;
        }
        if (*s == '[') {
            in_br = 1;
            eous_buf_putc(&b, '[', NULL);
            if (s[1] == '^')
                eous_buf_putc(&b, *++s, NULL);
            if (s[1] == ']')
                eous_buf_putc(&b, *++s, NULL);
            continue;
        }
        if (*s == '(' && s[1] == '?' && s[2] == ':') {
            eous_buf_putc(&b, '(', NULL);
            s += 2;
            continue;
        }
        if ((*s == '*' || *s == '+' || *s == '?' || *s == '}') && s[1] == '?') {
            eous_buf_putc(&b, *s, NULL);
            s++;
            continue;
        }
        eous_buf_putc(&b, *s, NULL);
    }
    return eous_buf_steal(&b);
}

/* Plain POSIX search of pattern p in s; -1 when p does not compile. */
static int posix_search(const char *p, const char *s, int icase)
{
    char *q = to_posix(p);
    regex_t re;
    int rc = q ? regcomp(&re, q, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0)) : 1;
    free(q);
    if (rc)
        return -1;
    int m = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return m;
}

/* Length of a balanced group starting at p[0] == '(' (index of its ')'), or 0. */
static size_t group_end(const char *p)
{
    int depth = 0, br = 0;
    for (size_t i = 0; p[i]; i++) {
        if (p[i] == '\\' && p[i + 1]) {
            i++;
            continue;
        }
        if (br) {
            if (p[i] == ']')
                br = 0;
            continue;
        }
        if (p[i] == '[')
            br = 1;
        else if (p[i] == '(')
            depth++;
        else if (p[i] == ')' && --depth == 0)
            return i;
    }
    return 0;
}

int vf_re_search(const char *pattern, const char *s, int icase)
{
    /* ^(?!X)rest: X must not match at the start, rest must */
    if (!strncmp(pattern, "^(?!", 4)) {
        size_t e = group_end(pattern + 1);
        if (e) {
            char *neg = strndup(pattern + 4, e - 3);     /* X plus its closing ')' dropped below */
            if (!neg)
                return -1;
            neg[e - 4] = '\0';
            size_t nl = strlen(neg);
            char *negp = malloc(nl + 4);
            char *rest = malloc(strlen(pattern) + 2);
            if (!negp || !rest) {
                free(neg), free(negp), free(rest);
                return -1;
            }
            snprintf(negp, nl + 4, "^(%s)", neg);
            snprintf(rest, strlen(pattern) + 2, "^%s", pattern + 1 + e + 1);
            int n = posix_search(negp, s, icase);
            int r = n == 0 ? posix_search(rest, s, icase) : n < 0 ? -1 : 0;
            free(neg), free(negp), free(rest);
            return r;
        }
    }
    return posix_search(pattern, s, icase);
}

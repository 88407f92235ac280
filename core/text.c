/* core/text.c — see text.h. */
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, nothing past U+10FFFF), 0 when it is not one. */
static size_t utf8_seq_len(const unsigned char *p)
{
    unsigned char b = p[0];
    if (b < 0x80)
        return 1;
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n;
    if (b >= 0xC2 && b <= 0xDF)
        n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0)
            lo = 0xA0;
        else if (b == 0xED)
            hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0)
            lo = 0x90;
        else if (b == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    return n;
}

size_t eous_utf8_scrub(char *s)
{
    size_t fixed = 0;
    unsigned char *p = (unsigned char *)s;
    while (p && *p) {
        size_t n = utf8_seq_len(p);
        if (!n) {
            *p++ = '?';
            fixed++;
        } else {
            p += n;
        }
    }
    return fixed;
}

size_t eous_utf8_cut(const char *s, size_t max)
{
    size_t n = strnlen(s, max + 1);
    if (n <= max)
        return n;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--; /* s[max] starts the character that would be split */
    return max;
}

char *eous_number_str(double d, char out[EOUS_NUMBER_STR_MAX])
{
    if (d < 1e15 && d > -1e15 && d == (double)(long long)d) /* range first: the cast is UB outside it */
        snprintf(out, EOUS_NUMBER_STR_MAX, "%lld", (long long)d);
    else
        snprintf(out, EOUS_NUMBER_STR_MAX, "%.17g", d);
    return out;
}

/* Length of the Unicode space at p (UTF-8), 0 when p is not one. */
static size_t unicode_space(const unsigned char *p)
{
    if (p[0] == 0xC2 && p[1] == 0xA0)
        return 2; /* U+00A0 */
    if (p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF))
        return 3; /* U+2000..U+200A, U+2028, U+2029, U+202F */
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F)
        return 3; /* U+205F */
    if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80)
        return 3; /* U+3000 */
    return 0;
}

int eous_is_http_url(const char *url)
{
    return !strncmp(url, "http://", 7) || !strncmp(url, "https://", 8);
}

int eous_is_blank(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p) {
        size_t n;
        if (*p == ' ' || (*p >= '\t' && *p <= '\r') || (*p >= 0x1C && *p <= 0x1F))
            p++;
        else if ((n = unicode_space(p)))
            p += n;
        else
            return 0;
    }
    return 1;
}

int eous_in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}

void eous_wipe(void *p, size_t n)
{
    volatile unsigned char *b = p;
    while (b && n--)
        *b++ = 0;
}

void eous_wipe_str(char *s)
{
    if (s)
        eous_wipe(s, strlen(s));
}

void eous_wipe_free(char *s)
{
    eous_wipe_str(s);
    free(s);
}

int eous_name_find(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; s && i < n; i++)
        if (names[i] && !strcmp(names[i], s))
            return (int)i;
    return -1;
}

const char *eous_name_of(const char *const *names, size_t n, int v, const char *fallback)
{
    return v >= 0 && (size_t)v < n && names[v] ? names[v] : fallback;
}

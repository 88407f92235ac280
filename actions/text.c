/* actions/text.c — label folding, whole-word and glob matching, URL splitting
 * (see act_int.h). */
#include "actions/act_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- folding ------------------------------------------------------------ */

/* Base letter of U+00C0..U+017F; \0 keeps the character (× and ÷), \1..\5
 * stand for the two-letter folds below. */
static const char FOLD[] =
    "aaaaaa\1ceeeeiiiidnooooo\0ouuuuy\2\3aaaaaa\1ceeeeiiiidnooooo\0ouuuuy\2y"
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii\4\4jjkkkllllllllllnnnnnnnnnoooooo\5\5"
    "rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";
static const char *const FOLD2[] = {"", "ae", "th", "ss", "ij", "oe"};

static size_t put(char *out, size_t n, size_t len, const char *s, size_t k)
{
    for (size_t i = 0; i < k && len + 1 < n; i++)
        out[len++] = s[i];
    return len;
}

size_t act_fold(const char *in, char *out, size_t n)
{
    size_t len = 0;
    if (!n)
        return 0;
    const unsigned char *p = (const unsigned char *)(in ? in : "");
    while (*p && len + 1 < n) {
        if (p[0] < 0x80) {
            char c = (char)tolower(p[0]);
            len = put(out, n, len, &c, 1);
            p++;
            continue;
        }
        if ((p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
            unsigned cp = ((unsigned)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
            if (cp >= 0xC0 && cp < 0x180) {
                char f = FOLD[cp - 0xC0];
                if (f == 0)
                    len = put(out, n, len, (const char *)p, 2);
                else if (f < 6)
                    len = put(out, n, len, FOLD2[(int)f], 2);
                else
                    len = put(out, n, len, &f, 1);
                p += 2;
                continue;
            }
        }
        /* other multi-byte characters are copied whole (never split mid-sequence) */
        size_t k = (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 1;
        size_t avail = 0;
        while (avail < k && p[avail])
            avail++;
        if (len + avail + 1 > n)
            break;
        len = put(out, n, len, (const char *)p, avail);
        p += avail;
    }
    out[len] = '\0';
    return len;
}

/* ---- whole words -------------------------------------------------------- */

#define MAX_WORDS 64

/* Splits folded text in place into words of letters/digits (and any
 * non-ASCII byte, so other scripts still form words). */
static size_t split_words(char *s, char **words, size_t max)
{
    size_t n = 0;
    char *p = s;
    while (*p && n < max) {
        while (*p && !(isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80))
            *p++ = '\0';
        if (!*p)
            break;
        words[n++] = p;
        while (*p && (isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80))
            p++;
    }
    return n;
}

int act_words_match(const char *query, const char *text)
{
    char q[512], t[2048];
    char *qw[MAX_WORDS], *tw[MAX_WORDS];
    act_fold(query, q, sizeof q);
    act_fold(text, t, sizeof t);
    size_t nq = split_words(q, qw, MAX_WORDS), nt = split_words(t, tw, MAX_WORDS);
    if (!nq || nq > nt)
        return 0;
    for (size_t i = 0; i + nq <= nt; i++) {
        size_t j = 0;
        while (j < nq && !strcmp(qw[j], tw[i + j]))
            j++;
        if (j == nq)
            return 1;
    }
    return 0;
}

/* ---- globs -------------------------------------------------------------- */

static int glob_rec(const char *p, const char *t, int depth)
{
    if (depth > 64)
        return 0;
    for (; *p; p++, t++) {
        if (*p == '*') {
            while (p[1] == '*')
                p++;
            if (!p[1])
                return 1;
            for (; *t; t++)
                if (glob_rec(p + 1, t, depth + 1))
                    return 1;
            return 0;
        }
        if (!*t || (*p != '?' && *p != *t))
            return 0;
    }
    return *t == '\0';
}

int act_glob(const char *pattern, const char *text)
{
    if (!pattern)
        return 1;
    char p[512], t[2048];
    act_fold(pattern, p, sizeof p);
    act_fold(text ? text : "", t, sizeof t);
    return glob_rec(p, t, 0);
}

/* ---- URLs --------------------------------------------------------------- */

static int default_port(const char *scheme)
{
    if (!strcmp(scheme, "http") || !strcmp(scheme, "ws"))
        return 80;
    if (!strcmp(scheme, "https") || !strcmp(scheme, "wss"))
        return 443;
    if (!strcmp(scheme, "ftp"))
        return 21;
    return 0;
}

int act_url_parse(const char *url, act_url *out)
{
    memset(out, 0, sizeof *out);
    if (!url)
        return -1;
    /* What a browser does first: strip leading/trailing C0 controls and
     * spaces, drop every tab and newline. */
    char buf[4096];
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)url;
    while (*p && *p <= 0x20)
        p++;
    for (; *p; p++) {
        if (*p == '\t' || *p == '\n' || *p == '\r')
            continue;
        if (n + 1 >= sizeof buf)
            return -1;
        buf[n++] = (char)*p;
    }
    while (n && (unsigned char)buf[n - 1] <= 0x20)
        n--;
    buf[n] = '\0';
    if (!n)
        return -1;
    /* scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
    size_t i = 0;
    if (isalpha((unsigned char)buf[0])) {
        while (isalnum((unsigned char)buf[i]) || buf[i] == '+' || buf[i] == '-' || buf[i] == '.')
            i++;
        if (buf[i] == ':' && i < sizeof out->scheme) {
            for (size_t k = 0; k < i; k++)
                out->scheme[k] = (char)tolower((unsigned char)buf[k]);
            out->scheme[i] = '\0';
            i++;
        } else {
            i = 0;
        }
    }
    const char *rest = buf + i;
    int special = !strcmp(out->scheme, "http") || !strcmp(out->scheme, "https") ||
                  !strcmp(out->scheme, "ws") || !strcmp(out->scheme, "wss") || !strcmp(out->scheme, "ftp");
    /* Special schemes treat '\' like '/', and any number of slashes after the scheme. */
    if (special) {
        if (!(rest[0] == '/' || rest[0] == '\\'))
            return -1; /* "http:example.com" is relative-ish; refuse to judge */
        while (*rest == '/' || *rest == '\\')
            rest++;
        out->has_authority = 1;
    } else if (rest[0] == '/' && rest[1] == '/') {
        rest += 2;
        out->has_authority = 1;
    }
    if (!out->has_authority)
        return out->scheme[0] ? 0 : -1;
    size_t alen = strcspn(rest, special ? "/\\?#" : "/?#");
    char auth[1024];
    if (alen >= sizeof auth)
        return -1;
    memcpy(auth, rest, alen);
    auth[alen] = '\0';
    char *host = strrchr(auth, '@');
    host = host ? host + 1 : auth;
    char *port = NULL;
    if (host[0] == '[') {
        char *close = strchr(host, ']');
        if (!close)
            return -1;
        if (close[1] == ':')
            port = close + 2;
        else if (close[1])
            return -1;
        close[1] = '\0';
    } else {
        port = strchr(host, ':');
        if (port)
            *port++ = '\0';
    }
    size_t hl = strlen(host);
    if (hl >= sizeof out->host || (special && !hl))
        return -1;
    for (size_t k = 0; k < hl; k++) {
        unsigned char c = (unsigned char)host[k];
        if (c == '%' || c <= 0x20 || c == '\\')
            return -1;
        out->host[k] = (char)tolower(c);
    }
    /* "example.com." and "example.com" are the same host */
    if (hl > 1 && out->host[hl - 1] == '.')
        out->host[hl - 1] = '\0';
    out->port = default_port(out->scheme);
    if (port && *port) {
        char *end = NULL;
        long v = strtol(port, &end, 10);
        if (*end || v < 0 || v > 65535)
            return -1;
        out->port = (int)v;
    }
    return 0;
}

void act_url_origin(const act_url *u, char *out, size_t n)
{
    snprintf(out, n, "%s://%s:%d", u->scheme, u->host, u->port);
}

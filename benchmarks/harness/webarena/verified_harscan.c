/* webarena/verified_harscan.c — a HAR read for the evaluators: only the fields
 * webarena/verified_eval.c reads become cJSON nodes (request url, method,
 * headers, postData; response status, content, cookies); the rest of the
 * file (response headers, timings, cache, page data: most of its bytes) is
 * checked and skipped without allocating.  Re-scoring a run was mostly
 * malloc and free of nodes no evaluator looks at.
 *
 * Same verdicts as a whole parse: the scanner accepts only strict JSON
 * (RFC 8259), which cJSON parses the same way, and gives up (NULL: the
 * caller parses the whole text as before) on anything else — a syntax error,
 * an escaped key, an unexpected shape, deep nesting — so errors and odd files
 * read exactly as they did.  A kept value is parsed by cJSON itself from its
 * bytes, and every occurrence of a kept key is kept in order, so a lookup
 * finds the first one, as in the whole tree.  Owned by the WebArena-Verified
 * evaluator (see verified.h). */
#define _GNU_SOURCE
#include "webarena/verified_int.h"

#include <stdlib.h>
#include <string.h>

#define SCAN_MAX_DEPTH 200 /* deeper than this: give up, the whole parse decides */

typedef struct scan {
    const char *p, *end;
    int depth;
} scan;

/* The fields the evaluators read; a field read there must be listed here. */
static const char *const REQUEST_KEEP[] = {"url", "method", "headers", "postData", NULL};
static const char *const RESPONSE_KEEP[] = {"status", "content", "cookies", NULL};

static void ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The code of "\uXXXX" at p (6 bytes available), or -1. */
static long hex4(const char *p)
{
    if (p[0] != '\\' || p[1] != 'u' || !hex(p[2]) || !hex(p[3]) || !hex(p[4]) || !hex(p[5]))
        return -1;
    char h[5] = {p[2], p[3], p[4], p[5], 0};
    return strtol(h, NULL, 16);
}

/* A \u escape as cJSON takes it: a lone low surrogate, or a high one not
 * followed by a low one, is an error there, so it is one here. */
static int skip_unicode(scan *s)
{
    long c = s->end - s->p >= 6 ? hex4(s->p) : -1;
    if (c < 0 || (c >= 0xDC00 && c <= 0xDFFF))
        return -1;
    s->p += 6;
    if (c >= 0xD800 && c <= 0xDBFF) {
        long lo = s->end - s->p >= 6 ? hex4(s->p) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF)
            return -1;
        s->p += 6;
    }
    return 0;
}

/* At '"': past the closing quote.  *escaped: the string held a backslash. */
static int skip_string(scan *s, int *escaped)
{
    s->p++;
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            return 0;
        }
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (escaped)
                *escaped = 1;
            if (s->p + 1 >= s->end)
                return -1;
            char e = s->p[1];
            if (e == 'u') {
                if (skip_unicode(s))
                    return -1;
                continue;
            }
            if (e == '\0' || !strchr("\"\\/bfnrt", e)) /* strchr finds a NUL: "\<NUL>" is no escape */
                return -1;
            s->p += 2;
            continue;
        }
        /* a string without a backslash or quote: jump to the next one */
        const char *q = s->p + 1;
        while (q < s->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
            q++;
        s->p = q;
    }
    return -1;
}

static int digits(scan *s)
{
    const char *b = s->p;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
        s->p++;
    return s->p > b ? 0 : -1;
}

static int skip_number(scan *s)
{
    if (*s->p == '-')
        s->p++;
    if (s->p >= s->end)
        return -1;
    if (*s->p == '0')
        s->p++;
    else if (digits(s))
        return -1;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (digits(s))
            return -1;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (digits(s))
            return -1;
    }
    return 0;
}

static int skip_literal(scan *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
        return -1;
    s->p += n;
    return 0;
}

static int skip_value(scan *s);

/* At '{' or '[': past its end, every member checked. */
static int skip_container(scan *s)
{
    char close = *s->p == '{' ? '}' : ']';
    int object = close == '}';
    if (++s->depth > SCAN_MAX_DEPTH)
        return -1;
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        s->depth--;
        return 0;
    }
    for (;;) {
        if (object) {
            if (s->p >= s->end || *s->p != '"' || skip_string(s, NULL))
                return -1;
            ws(s);
            if (s->p >= s->end || *s->p != ':')
                return -1;
            s->p++;
            ws(s);
        }
        if (skip_value(s))
            return -1;
        ws(s);
        if (s->p >= s->end)
            return -1;
        if (*s->p == close) {
            s->p++;
            s->depth--;
            return 0;
        }
        if (*s->p != ',')
            return -1;
        s->p++;
        ws(s);
    }
}

static int skip_value(scan *s)
{
    if (s->p >= s->end)
        return -1;
    switch (*s->p) {
    case '"': return skip_string(s, NULL);
    case '{':
    case '[': return skip_container(s);
    case 't': return skip_literal(s, "true");
    case 'f': return skip_literal(s, "false");
    case 'n': return skip_literal(s, "null");
    default: return (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) ? skip_number(s) : -1;
    }
}

/* ---- walking the objects the evaluators read into ------------------------- */

/* One member of an object: its key (borrowed bytes, no escapes) and value
 * span.  1 = a member, 0 = the object ended, -1 = give up. */
typedef struct member {
    const char *key;
    size_t klen;
    const char *value; /* the value's first byte; the scanner stands on it */
} member;

static int object_open(scan *s)
{
    ws(s);
    if (s->p >= s->end || *s->p != '{' || ++s->depth > SCAN_MAX_DEPTH)
        return -1;
    s->p++;
    ws(s);
    return 0;
}

static int next_member(scan *s, int *first, member *m)
{
    ws(s);
    if (s->p >= s->end)
        return -1;
    if (*s->p == '}') {
        s->p++;
        s->depth--;
        return 0;
    }
    if (!*first) {
        if (*s->p != ',')
            return -1;
        s->p++;
        ws(s);
    }
    *first = 0;
    if (s->p >= s->end || *s->p != '"')
        return -1;
    int escaped = 0;
    const char *k = s->p + 1;
    if (skip_string(s, &escaped) || escaped) /* an escaped key could spell a kept one */
        return -1;
    m->key = k;
    m->klen = (size_t)(s->p - 1 - k);
    ws(s);
    if (s->p >= s->end || *s->p != ':')
        return -1;
    s->p++;
    ws(s);
    if (s->p >= s->end)
        return -1;
    m->value = s->p;
    return 1;
}

static int key_is(const member *m, const char *k)
{
    return strlen(k) == m->klen && !memcmp(m->key, k, m->klen);
}

/* A value cJSON parses from its own bytes, added under the member's key. */
static int keep(scan *s, const member *m, cJSON *into)
{
    if (skip_value(s))
        return -1;
    cJSON *v = cJSON_ParseWithLength(m->value, (size_t)(s->p - m->value));
    if (!v)
        return -1;
    char *key = strndup(m->key, m->klen);
    if (!key) {
        cJSON_Delete(v);
        return -1;
    }
    cJSON_AddItemToObject(into, key, v);
    free(key);
    return 0;
}

/* request / response: the listed members kept, the rest skipped. */
static cJSON *part(scan *s, const char *const *keep_keys)
{
    cJSON *o = cJSON_CreateObject();
    int first = 1, r;
    member m;
    if (!o || object_open(s))
        goto bad;
    while ((r = next_member(s, &first, &m)) == 1) {
        int kept = 0;
        for (int i = 0; keep_keys[i] && !kept; i++)
            kept = key_is(&m, keep_keys[i]);
        if (kept ? keep(s, &m, o) : skip_value(s))
            goto bad;
    }
    if (r == 0)
        return o;
bad:
    cJSON_Delete(o);
    return NULL;
}

static cJSON *entry(scan *s)
{
    cJSON *o = cJSON_CreateObject();
    int first = 1, r;
    member m;
    if (!o || object_open(s))
        goto bad;
    while ((r = next_member(s, &first, &m)) == 1) {
        int rq = key_is(&m, "request"), rs = key_is(&m, "response");
        if (rq || rs) {
            if (*m.value != '{') /* not an object: the whole parse says so */
                goto bad;
            cJSON *p = part(s, rq ? REQUEST_KEEP : RESPONSE_KEEP);
            if (!p)
                goto bad;
            cJSON_AddItemToObject(o, rq ? "request" : "response", p);
        } else if (skip_value(s)) {
            goto bad;
        }
    }
    if (r == 0)
        return o;
bad:
    cJSON_Delete(o);
    return NULL;
}

static cJSON *entries(scan *s)
{
    ws(s);
    if (s->p >= s->end || *s->p != '[' || ++s->depth > SCAN_MAX_DEPTH)
        return NULL;
    s->p++;
    cJSON *a = cJSON_CreateArray();
    ws(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        s->depth--;
        return a;
    }
    while (a) {
        cJSON *e = entry(s);
        if (!e)
            break;
        cJSON_AddItemToArray(a, e);
        ws(s);
        if (s->p < s->end && *s->p == ']') {
            s->p++;
            s->depth--;
            return a;
        }
        if (s->p >= s->end || *s->p != ',')
            break;
        s->p++;
        ws(s);
    }
    cJSON_Delete(a);
    return NULL;
}

/* An object whose first `key` member is handled by inner (the rest skipped); NULL to give up. */
static cJSON *first_member(scan *s, const char *key, cJSON *(*inner)(scan *s), const char *as)
{
    cJSON *o = cJSON_CreateObject();
    int first = 1, r, seen = 0;
    member m;
    if (!o || object_open(s))
        goto bad;
    while ((r = next_member(s, &first, &m)) == 1) {
        if (!seen && key_is(&m, key)) {
            seen = 1;
            cJSON *v = inner(s);
            if (!v)
                goto bad;
            cJSON_AddItemToObject(o, as, v);
        } else if (skip_value(s)) {
            goto bad;
        }
    }
    if (r == 0 && seen)
        return o;
bad:
    cJSON_Delete(o);
    return NULL;
}

static cJSON *log_object(scan *s)
{
    return first_member(s, "entries", entries, "entries");
}

cJSON *vf_har_prune(const char *text, size_t len)
{
    scan s = {.p = text, .end = text + len};
    cJSON *root = first_member(&s, "log", log_object, "log");
    ws(&s);
    if (root && s.p != s.end) { /* trailing bytes: the whole parse decides */
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* core/redact.c — the process-wide secret redactor (declared in core/log.h).
 *
 * A registered secret is found in text however a page, a URL or a JSON
 * writer gave it back: each of its bytes may appear raw or as one encoded
 * unit, and units may mix within one occurrence:
 *   %XX (either case of hex; %25XX, a doubly encoded byte, too)
 *   +   for a space (application/x-www-form-urlencoded)
 *   \"  \\  \/  \b \f \n \r \t  \uXXXX (surrogate pairs too)   (JSON)
 *   &#NN; &#xHH; &amp; &lt; &gt; &quot; &apos;                  (HTML)
 * A unit that decodes to several UTF-8 bytes (\u00e9, &#233;) stands for those
 * bytes of the secret.  What this cannot see (a page that upper-cases the
 * value, spaces it out, or nests one encoding inside another's escape such as
 * %5Cu0021) is listed in the README. */
#include "core/log.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/text.h"

/* Work bound for one start position (the memo below keeps it linear; this is the backstop): a secret of '%' and '\' against
 * text made of them backtracks; past this the position is taken as no match. */
#define REDACT_MAX_STEPS 65536

static pthread_mutex_t redact_lock = PTHREAD_MUTEX_INITIALIZER;
static char **secrets;
static size_t n_secrets;
/* Credential query parameter names a policy file adds ("redact_params"), under redact_lock. */
static char **extra_params;
static size_t n_extra_params;

/* ---- decoding one encoded unit ---- */

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* UTF-8 bytes of code point cp into out[4]; their count (0 for an invalid cp). */
static size_t utf8_put(unsigned long cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return 0;
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp < 0x110000) {
        out[0] = (unsigned char)(0xF0 | (cp >> 18));
        out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (unsigned char)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

/* Four hex digits at p into *cp; 0 when they are not. */
static int hex4(const char *p, unsigned long *cp)
{
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval((unsigned char)p[i]);
        if (h < 0)
            return 0;
        v = v * 16 + (unsigned long)h;
    }
    *cp = v;
    return 1;
}

/* A JSON escape at p (p[0] == '\\'): decoded bytes into out, returns chars consumed (0: none). */
static size_t json_unit(const char *p, unsigned char *out, size_t *n_out)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *f = p[1] ? strchr(from, p[1]) : NULL;
    if (f) {
        out[0] = (unsigned char)to[f - from];
        *n_out = 1;
        return 2;
    }
    unsigned long cp, lo;
    if (p[1] != 'u' || !hex4(p + 2, &cp))
        return 0;
    size_t used = 6;
    if (cp >= 0xD800 && cp <= 0xDBFF && p[6] == '\\' && p[7] == 'u' && hex4(p + 8, &lo) && lo >= 0xDC00 &&
        lo <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        used = 12;
    }
    *n_out = utf8_put(cp, out);
    return *n_out ? used : 0;
}

/* An HTML character reference at p (p[0] == '&'). */
static size_t html_unit(const char *p, unsigned char *out, size_t *n_out)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t n = strlen(named[i].name);
        if (!strncasecmp(p, named[i].name, n)) {
            out[0] = (unsigned char)named[i].c;
            *n_out = 1;
            return n;
        }
    }
    if (p[1] != '#')
        return 0;
    int hex = p[2] == 'x' || p[2] == 'X';
    const char *d = p + 2 + hex;
    unsigned long cp = 0;
    size_t digits = 0;
    for (; digits < 8; digits++, d++) {
        int v = hex ? hexval((unsigned char)*d) : (*d >= '0' && *d <= '9' ? *d - '0' : -1);
        if (v < 0)
            break;
        cp = cp * (hex ? 16 : 10) + (unsigned long)v;
    }
    if (!digits)
        return 0;
    if (*d == ';') /* optional in HTML for a numeric reference */
        d++;
    *n_out = utf8_put(cp, out);
    return *n_out ? (size_t)(d - p) : 0;
}

/* A percent-encoded byte at p (p[0] == '%'); doubly: "%25XX" as the byte XX. */
static size_t percent_unit(const char *p, int doubly, unsigned char *out, size_t *n_out)
{
    if (doubly && (p[1] != '2' || p[2] != '5'))
        return 0;
    const char *h = doubly ? p + 3 : p + 1;
    int hi = hexval((unsigned char)h[0]), lo = hi >= 0 ? hexval((unsigned char)h[1]) : -1;
    if (hi < 0 || lo < 0)
        return 0;
    out[0] = (unsigned char)(hi * 16 + lo);
    *n_out = 1;
    return doubly ? 5 : 3;
}

/* ---- matching ---- */

/* One encoded unit at t, alternative alt (0, 1, ...): its decoded bytes and length, 0 when none. */
static size_t unit_at(const char *t, int alt, unsigned char *dec, size_t *n_dec)
{
    switch (*t) {
    case '%':
        return alt < 2 ? percent_unit(t, alt == 0, dec, n_dec) : 0;
    case '\\':
        return alt == 0 ? json_unit(t, dec, n_dec) : 0;
    case '&':
        return alt == 0 ? html_unit(t, dec, n_dec) : 0;
    case '+':
        if (alt)
            return 0;
        dec[0] = ' ';
        *n_dec = 1;
        return 1;
    default:
        return 0;
    }
}

/* One match attempt: where it started, and the states (text offset, secret offset) already seen to
 * fail, so a secret of many '\\' or '%' against text of them is linear, not exponential.  Static:
 * every use is under redact_lock. */
typedef struct match_state {
    const char *t0;
    const unsigned char *s0;
    int steps;
    int raw_first; /* try the raw byte before an encoded unit: the shorter spelling */
} match_state;

#define MEMO_SLOTS 8192
static uint64_t memo[MEMO_SLOTS];
static uint64_t memo_gen;

static uint64_t *memo_slot(size_t t_off, size_t s_off, int *found)
{
    uint64_t key = (memo_gen << 40) | ((uint64_t)(t_off & 0xFFFFF) << 20) | (s_off & 0xFFFFF);
    size_t h = (size_t)((t_off * 2654435761u) ^ (s_off * 40503u)) % MEMO_SLOTS;
    for (int probe = 0; probe < 8; probe++, h = (h + 1) % MEMO_SLOTS) {
        if (memo[h] == key) {
            *found = 1;
            return &memo[h];
        }
        if (memo[h] >> 40 != memo_gen) {
            *found = 0;
            return &memo[h];
        }
    }
    *found = 0;
    return NULL;
}

static size_t match_from(match_state *m, const char *t, const unsigned char *s, size_t s_len);

/* The rest of a match after a unit of `used` text bytes standing for n_dec secret bytes. */
static size_t match_rest(match_state *m, const char *t, size_t used, const unsigned char *s, size_t s_len,
                         size_t n_dec)
{
    if (n_dec == s_len)
        return used;
    size_t rest = match_from(m, t + used, s + n_dec, s_len - n_dec);
    return rest ? used + rest : 0;
}

/* Length of the text at t that spells secret s (s_len bytes left) in any mix of units, 0 when none.
 * Encoded units are tried before the raw byte, so the longer spelling wins. */
static size_t match_from(match_state *m, const char *t, const unsigned char *s, size_t s_len)
{
    if (!s_len || ++m->steps > REDACT_MAX_STEPS)
        return 0;
    int seen;
    uint64_t *slot = memo_slot((size_t)(t - m->t0), (size_t)(s - m->s0), &seen);
    if (seen)
        return 0;
    size_t n;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == m->raw_first) {
            for (int alt = 0; alt < 2; alt++) {
                unsigned char dec[8];
                size_t n_dec = 0, used = unit_at(t, alt, dec, &n_dec);
                if (used && n_dec <= s_len && !memcmp(dec, s, n_dec) && (n = match_rest(m, t, used, s, s_len, n_dec)))
                    return n;
            }
        } else if (*t && (unsigned char)*t == *s && (n = match_rest(m, t, 1, s, s_len, 1))) {
            return n;
        }
    }
    if (slot) /* remember the failure (the probe may have moved on: look again) */
        slot = memo_slot((size_t)(t - m->t0), (size_t)(s - m->s0), &seen);
    if (slot && !seen)
        *slot = (memo_gen << 40) | ((uint64_t)((size_t)(t - m->t0) & 0xFFFFF) << 20) | ((size_t)(s - m->s0) & 0xFFFFF);
    return 0;
}

static size_t match_with(const char *t, const unsigned char *s, size_t s_len, int raw_first)
{
    match_state m = {t, s, 0, raw_first};
    memo_gen = (memo_gen + 1) & 0xFFFFFF;
    if (!memo_gen) { /* wrapped: old stamps could read as this attempt's */
        memset(memo, 0, sizeof memo);
        memo_gen = 1;
    }
    return match_from(&m, t, s, s_len);
}

static int secret_begins(const char *t);

/* Where the secret spelled at t ends: the longest spelling ("%25" read as '%', "\\\\" as '\\'),
 * unless a shorter one ends where the secret begins again, so a spelling never eats the start of
 * the next occurrence (a value ending in '\\' typed twice in a row). */
static size_t match_at(const char *t, const unsigned char *s, size_t s_len)
{
    size_t n_long = match_with(t, s, s_len, 0);
    if (!n_long)
        return 0;
    size_t n_short = match_with(t, s, s_len, 1);
    if (n_short && n_short < n_long && t[n_short] && secret_begins(t + n_short))
        return n_short;
    return n_long;
}

/* 1 when the byte at t could begin a spelling of a secret whose first byte is c. */
static int may_begin(char t, char c)
{
    return t == c || t == '%' || t == '\\' || t == '&' || (t == '+' && c == ' ');
}

/* 1 when some secret's spelling begins at t (redact_lock held; no look further ahead). */
static int secret_begins(const char *t)
{
    for (size_t i = 0; i < n_secrets; i++)
        if (may_begin(*t, secrets[i][0]) && match_with(t, (const unsigned char *)secrets[i], strlen(secrets[i]), 0))
            return 1;
    return 0;
}

/* The longest registered secret spelled at t (redact_lock held): its length in text, 0 when none. */
static size_t secret_at(const char *t)
{
    size_t best = 0;
    for (size_t i = 0; i < n_secrets; i++) {
        if (!may_begin(*t, secrets[i][0]))
            continue;
        size_t n = match_at(t, (const unsigned char *)secrets[i], strlen(secrets[i]));
        if (n > best)
            best = n;
    }
    return best;
}

/* ---- the registry ---- */

int eous_redact_add(const char *secret)
{
    if (!secret || strlen(secret) < 4)
        return -1;
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_secrets; i++) {
        if (strcmp(secrets[i], secret) == 0) {
            pthread_mutex_unlock(&redact_lock);
            return 0;
        }
    }
    char **grown = realloc(secrets, (n_secrets + 1) * sizeof *secrets);
    char *copy = strdup(secret);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            secrets = grown;
        pthread_mutex_unlock(&redact_lock);
        return -1;
    }
    secrets = grown;
    secrets[n_secrets++] = copy;
    pthread_mutex_unlock(&redact_lock);
    return 0;
}

void eous_redact_clear(void)
{
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_secrets; i++) {
        eous_wipe_free(secrets[i]);
    }
    free(secrets);
    secrets = NULL;
    n_secrets = 0;
    for (size_t i = 0; i < n_extra_params; i++)
        free(extra_params[i]);
    free(extra_params);
    extra_params = NULL;
    n_extra_params = 0;
    pthread_mutex_unlock(&redact_lock);
}

/* Query parameters that carry a credential in a URL (a feed key, an OAuth token, a signed URL's
 * signature): their values are redacted wherever a URL is printed, as secrets are. */
static const char *const credential_params[] = {"key", "token", "api_key", "apikey", "access_token", "auth", "sig",
                                                "signature", "password"};

int eous_redact_add_param(const char *name)
{
    if (!name || !*name || strpbrk(name, "=&?# \t\r\n"))
        return -1;
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_extra_params; i++) {
        if (!strcasecmp(extra_params[i], name)) {
            pthread_mutex_unlock(&redact_lock);
            return 0;
        }
    }
    char **grown = realloc(extra_params, (n_extra_params + 1) * sizeof *extra_params);
    char *copy = strdup(name);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            extra_params = grown;
        pthread_mutex_unlock(&redact_lock);
        return -1;
    }
    extra_params = grown;
    extra_params[n_extra_params++] = copy;
    pthread_mutex_unlock(&redact_lock);
    return 0;
}

/* Length of "name=" at p when name is one of names, else 0. */
static size_t param_named(const char *p, const char *const *names, size_t n_names)
{
    for (size_t i = 0; i < n_names; i++) {
        size_t n = strlen(names[i]);
        if (!strncasecmp(p, names[i], n) && p[n] == '=')
            return n + 1;
    }
    return 0;
}

/* Length of "?name=" / "&name=" at p when name is a credential parameter, else 0 (redact_lock held). */
static size_t credential_param_at(const char *p)
{
    if (*p != '?' && *p != '&')
        return 0;
    size_t n = param_named(p + 1, credential_params, sizeof credential_params / sizeof *credential_params);
    if (!n)
        n = param_named(p + 1, (const char *const *)extra_params, n_extra_params);
    return n ? n + 1 : 0;
}

/* Where a URL's query value ends. */
static const char *param_value_end(const char *v)
{
    while (*v && !strchr("&#\"' \t\r\n<>)]|", *v))
        v++;
    return v;
}

char *eous_redact(const char *text)
{
    if (!text)
        text = "";
    eous_buf out;
    eous_buf_init(&out, 0);
    pthread_mutex_lock(&redact_lock);
    const char *p = text;
    while (*p) {
        size_t best = secret_at(p);
        size_t param = best ? 0 : credential_param_at(p);
        if (param && !strncmp(p + param, "[redacted]", 10))
            param = 0; /* redacted already (a text redacted twice): "[redacted]" ends at its ']' */
        if (best) {
            if (eous_buf_puts(&out, "[redacted]", NULL))
                goto oom;
            p += best;
        } else if (param && *param_value_end(p + param) != *(p + param)) {
            if (eous_buf_append(&out, p, param, NULL) || eous_buf_puts(&out, "[redacted]", NULL))
                goto oom;
            p = param_value_end(p + param);
        } else {
            if (eous_buf_putc(&out, *p, NULL))
                goto oom;
            p++;
        }
    }
    pthread_mutex_unlock(&redact_lock);
    return eous_buf_steal(&out);
oom:
    pthread_mutex_unlock(&redact_lock);
    eous_buf_free(&out);
    return NULL;
}

int eous_redact_contains(const char *text)
{
    int found = 0;
    if (!text)
        return 0;
    pthread_mutex_lock(&redact_lock);
    for (const char *p = text; *p && !found && n_secrets; p++)
        found = secret_at(p) != 0;
    pthread_mutex_unlock(&redact_lock);
    return found;
}

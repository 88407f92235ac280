/* webarena/verified_norm.c — WebArena-Verified's typed normalisers (its
 * data_types/ files) and its schema walk (value_normalizer.py).  See verified.h;
 * the cases where we differ from the Python libraries they call (unidecode,
 * dateutil, pint, pytimeparse2, price-parser, word2number, geopy, thefuzz)
 * are listed in tests/fixtures/verified/README.md. */
#define _GNU_SOURCE
#include "webarena/verified_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "webarena/eval.h"
#include "webarena/site_pool.h"

/* ==== typed values ========================================================== */

const char *vf_typeof(const cJSON *v)
{
    const cJSON *t = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, VF_T) : NULL;
    return cJSON_IsString(t) ? t->valuestring : NULL;
}

static cJSON *typed_new(const char *type, cJSON *alts)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, VF_T, type);
    cJSON_AddItemToObject(o, VF_A, alts);
    return o;
}

static int fail(vf_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(vf_ctx *ctx, const char *fmt, ...)
{
    if (ctx && !ctx->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int vf_is_regexp(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    return n >= 2 && s[0] == '^' && s[n - 1] == '$';
}

/* ==== the string pipeline (NormalizedType._normalize_string) ================ */

static const char *latin1[64] = {
    "A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I",
    "D", "N", "O", "O", "O", "O", "O", "x", "O", "U", "U", "U", "U", "Y", "Th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", "/", "o", "u", "u", "u", "u", "y", "th", "y"};
/* U+0100..U+017F, two characters per code point ('.' = none) */
static const char latin_a[] =
    "A.a.A.a.A.a.C.c.C.c.C.c.C.c.D.d.D.d.E.e.E.e.E.e.E.e.E.e.G.g.G.g.G.g.G.g.H.h.H.h.I.i.I.i.I.i.I.i.I.i.IJijJ.j.K.k.k."
    "L.l.L.l.L.l.L.l.L.l.N.n.N.n.N.n.'nN.n.O.o.O.o.O.o.OEoeR.r.R.r.R.r.S.s.S.s.S.s.S.s.T.t.T.t.T.t.U.u.U.u.U.u.U.u.U.u."
    "U.u.W.w.Y.y.Y.Z.z.Z.z.Z.z.s.";

/* unidecode of one code point (after NFKC), or NULL to drop it */
static const char *translit(uint32_t cp, char tmp[8])
{
    if (cp < 0x80) {
        tmp[0] = (char)cp, tmp[1] = 0;
        return tmp;
    }
    if (cp >= 0xC0 && cp <= 0xFF)
        return latin1[cp - 0xC0];
    if (cp >= 0x100 && cp <= 0x17F) {
        const char *p = latin_a + (cp - 0x100) * 2;
        tmp[0] = p[0], tmp[1] = p[1] == '.' ? 0 : p[1], tmp[2] = 0;
        return tmp;
    }
    if (cp >= 0xFF01 && cp <= 0xFF5E) { /* NFKC: full-width ASCII */
        tmp[0] = (char)(cp - 0xFEE0), tmp[1] = 0;
        return tmp;
    }
    switch (cp) {
    case 0xA0: case 0x2000: case 0x2001: case 0x2002: case 0x2003: case 0x2004: case 0x2005: case 0x2006:
    case 0x2007: case 0x2008: case 0x2009: case 0x200A: case 0x202F: case 0x205F: case 0x3000: return " ";
    case 0xA1: return "!";
    case 0xA2: return "C/";
    case 0xA3: return "PS";
    case 0xA5: return "Y=";
    case 0xA7: return "SS";
    case 0xAA: return "a";
    case 0xAB: return "<<";
    case 0xB0: return "deg";
    case 0xB1: return "+-";
    case 0xB2: return "2";
    case 0xB3: return "3";
    case 0xB5: return "m";
    case 0xB7: return "*";
    case 0xB9: return "1";
    case 0xBA: return "o";
    case 0xBB: return ">>";
    case 0xBC: return "1/4";
    case 0xBD: return "1/2";
    case 0xBE: return "3/4";
    case 0xBF: return "?";
    case 0x2018: case 0x2019: case 0x201A: case 0x201B: case 0x2032: return "'";
    case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x2033: return "\"";
    case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2212: return "-";
    case 0x2014: case 0x2015: return "--";
    case 0x2022: return "*";
    case 0x2026: return "...";
    case 0x20AC: return "EUR";
    case 0xFB00: return "ff";
    case 0xFB01: return "fi";
    case 0xFB02: return "fl";
    case 0xFB03: return "ffi";
    case 0xFB04: return "ffl";
    default: break;
    }
    if (cp >= 0x2460 && cp <= 0x2468) { /* NFKC: circled digits */
        tmp[0] = (char)('1' + (cp - 0x2460)), tmp[1] = 0;
        return tmp;
    }
    if ((cp >= 0x2074 && cp <= 0x2079) || (cp >= 0x2084 && cp <= 0x2089)) {
        tmp[0] = (char)('4' + (cp & 0xF) - 4), tmp[1] = 0;
        return tmp;
    }
    if (cp == 0x2070 || cp == 0x2080)
        return "0";
    return NULL; /* combining marks, other scripts: see the fixtures README */
}

static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    int n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (!n) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t c = s[0] & (0x7F >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return (size_t)i;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    *cp = c;
    return (size_t)n;
}

static int is_hyphen(uint32_t c)
{
    return c == '-' || (c >= 0x2010 && c <= 0x2015) || c == 0x2212 || c == 0xAD;
}

static int is_format_char(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xAD || (c >= 0x200B && c <= 0x200F) ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) || c == 0xFEFF;
}

static int ascii_alpha(uint32_t c)
{
    return c < 0x80 && isalpha((int)c);
}

char *vf_norm_string(vf_ctx *ctx, const char *in)
{
    if (!in || !*in || vf_is_regexp(in))
        return strdup(in ? in : "");
    char *der = ctx && strstr(in, "http") ? vf_derender(ctx, in) : NULL;
    const unsigned char *s = (const unsigned char *)(der ? der : in);
    size_t n = strlen((const char *)s), ncp = 0;
    uint32_t *cps = malloc((n + 1) * sizeof *cps);
    if (!cps) {
        free(der);
        return NULL;
    }
    for (size_t i = 0; i < n;) {
        uint32_t c;
        i += utf8_next(s + i, &c);
        if (c == 0x2122 || c == 0xAE || c == 0x2120 || c == 0xA9) /* marks with no meaning */
            continue;
        cps[ncp++] = c;
    }
    eous_buf b;
    eous_buf_init(&b, 0);
    for (size_t i = 0; i < ncp; i++) {
        uint32_t c = cps[i];
        /* a dash touching a letter is a space ("Buffalo-Niagara"), not inside numbers ("123-4567") */
        if (is_hyphen(c) && ((i > 0 && ascii_alpha(cps[i - 1])) || (i + 1 < ncp && ascii_alpha(cps[i + 1])))) {
            eous_buf_putc(&b, ' ', NULL);
            continue;
        }
        if (c == '\t' || c == '\n' || c == '\r') {
            eous_buf_putc(&b, ' ', NULL);
            continue;
        }
        if (is_format_char(c))
            continue;
        char tmp[8];
        const char *t = translit(c, tmp);
        if (t)
            eous_buf_puts(&b, t, NULL);
    }
    free(cps);
    free(der);
    char *r = eous_buf_steal(&b);
    if (!r)
        return strdup("");
    /* strip, collapse whitespace, casefold */
    char *w = r, *o = r;
    while (*w && isspace((unsigned char)*w))
        w++;
    int sp = 0;
    for (; *w; w++) {
        if (isspace((unsigned char)*w)) {
            sp = 1;
            continue;
        }
        if (sp && o != r)
            *o++ = ' ';
        sp = 0;
        *o++ = (char)tolower((unsigned char)*w);
    }
    *o = '\0';
    return r;
}

/* ==== site templates ======================================================== */

char *vf_derender(const vf_ctx *ctx, const char *s)
{
    const cJSON *site;
    char best_url[2048] = "";
    char best_tpl[96] = "";
    size_t best_len = 0;
    cJSON_ArrayForEach(site, (ctx ? ctx->sites : NULL)) {
        if (!cJSON_IsString(site))
            continue;
        char up[80];
        size_t i = 0;
        for (; site->valuestring[i] && i < sizeof up - 1; i++)
            up[i] = (char)toupper((unsigned char)site->valuestring[i]);
        up[i] = 0;
        /* every copy of a pooled site (webarena/site_pool.h): a task ran on one of them */
        int copies = wa_site_pool_size(site->valuestring);
        for (int k = 0; k < copies; k++) {
            char url[2048];
            /* the longest site URL first, as theirs sorts by specificity */
            if (wa_site_url(site->valuestring, k, url, sizeof url) && strstr(s, url) && strlen(url) > best_len) {
                snprintf(best_url, sizeof best_url, "%s", url);
                best_len = strlen(url);
                snprintf(best_tpl, sizeof best_tpl, "__%s__", up);
            }
        }
    }
    if (!best_len)
        return NULL;
    size_t ul = best_len;
    while (ul && best_url[ul - 1] == '/')
        ul--;
    eous_buf b;
    eous_buf_init(&b, 0);
    for (const char *p = s; *p;) {
        const char *h = strstr(p, best_url) ? strstr(p, best_url) : NULL;
        const char *hh = ul ? memmem(p, strlen(p), best_url, ul) : NULL;
        (void)h;
        if (!hh) {
            eous_buf_puts(&b, p, NULL);
            break;
        }
        eous_buf_append(&b, p, (size_t)(hh - p), NULL);
        eous_buf_puts(&b, best_tpl, NULL);
        p = hh + ul;
    }
    return eous_buf_steal(&b);
}

/* ==== numbers, number words ================================================= */

/* Python float(): whole string, underscores between digits, inf/nan, no hex. */
static int py_float(const char *s, double *out)
{
    char buf[128];
    size_t o = 0;
    while (isspace((unsigned char)*s))
        s++;
    for (const char *p = s; *p && o < sizeof buf - 1; p++) {
        if (*p == '_' && p > s && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1]))
            continue;
        if (*p == 'x' || *p == 'X' || *p == 'p' || *p == 'P')
            return -1;
        buf[o++] = *p;
    }
    while (o && isspace((unsigned char)buf[o - 1]))
        o--;
    buf[o] = 0;
    if (!o)
        return -1;
    char *end;
    double d = strtod(buf, &end);
    if (*end)
        return -1;
    *out = d;
    return 0;
}

static const struct {
    const char *w;
    int v;
} num_words[] = {{"zero", 0},      {"one", 1},        {"two", 2},          {"three", 3},      {"four", 4},
                 {"five", 5},      {"six", 6},        {"seven", 7},        {"eight", 8},      {"nine", 9},
                 {"ten", 10},      {"eleven", 11},    {"twelve", 12},      {"thirteen", 13},  {"fourteen", 14},
                 {"fifteen", 15},  {"sixteen", 16},   {"seventeen", 17},   {"eighteen", 18},  {"nineteen", 19},
                 {"twenty", 20},   {"thirty", 30},    {"forty", 40},       {"fifty", 50},     {"sixty", 60},
                 {"seventy", 70},  {"eighty", 80},    {"ninety", 90},      {"hundred", 100},  {"thousand", 1000},
                 {"million", 1000000}, {"billion", 1000000000}, {"point", -1}};

static int word_value(const char *w)
{
    for (size_t i = 0; i < sizeof num_words / sizeof *num_words; i++)
        if (!strcmp(num_words[i].w, w))
            return num_words[i].v;
    return -2;
}

/* word2number's word_to_num: the number words of the text (others ignored),
 * "point" then digits for a fraction; no number word is an error. */
static int words_to_num(const char *text, double *out)
{
    char *t = strdup(text);
    if (!t)
        return -1;
    for (char *p = t; *p; p++)
        *p = *p == '-' ? ' ' : (char)tolower((unsigned char)*p);
    int all_digits = *t != 0;
    for (char *p = t; *p; p++)
        if (!isdigit((unsigned char)*p))
            all_digits = 0;
    if (all_digits) {
        *out = strtod(t, NULL);
        free(t);
        return 0;
    }
    double total = 0, group = 0, frac = 0, scale = 0.1;
    int found = 0, after_point = 0;
    for (char *tok = strtok(t, " \t"); tok; tok = strtok(NULL, " \t")) {
        int v = word_value(tok);
        if (v == -2)
            continue;
        found = 1;
        if (v == -1) {
            after_point = 1;
            continue;
        }
        if (after_point) {
            if (v > 9) {
                free(t);
                return -1;
            }
            frac += v * scale;
            scale /= 10;
        } else if (v == 100) {
            group = (group ? group : 1) * 100;
        } else if (v >= 1000) {
            total += (group ? group : 1) * v;
            group = 0;
        } else {
            group += v;
        }
    }
    free(t);
    if (!found)
        return -1;
    *out = total + group + frac;
    return 0;
}

static int norm_number(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    if (cJSON_IsBool(v)) {
        *out = cJSON_CreateNumber(cJSON_IsTrue(v) ? 1 : 0);
        return 0;
    }
    if (cJSON_IsNumber(v)) {
        *out = cJSON_CreateNumber(v->valuedouble);
        return 0;
    }
    if (!cJSON_IsString(v) || !*v->valuestring)
        return fail(ctx, "Number value is empty or not a number");
    char *s = vf_norm_string(ctx, v->valuestring);
    char *c = strdup(s ? s : "");
    size_t o = 0;
    for (size_t i = 0; c && c[i]; i++)
        if (c[i] != ',' && c[i] != ' ')
            c[o++] = c[i];
    if (c)
        c[o] = 0;
    double d;
    int rc = c && py_float(c, &d) == 0 ? 0 : (s && words_to_num(s, &d) == 0 ? 0 : -1);
    free(c);
    if (rc) {
        fail(ctx, "Unable to parse number: %.80s", s ? s : "");
        free(s);
        return -1;
    }
    free(s);
    *out = cJSON_CreateNumber(d);
    return 0;
}

/* ==== currency (price-parser) =============================================== */

static int norm_currency(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    char *s;
    if (cJSON_IsNumber(v) || cJSON_IsBool(v))
        s = wa_py_str(v);
    else if (cJSON_IsString(v) && *v->valuestring)
        s = vf_norm_string(ctx, v->valuestring);
    else
        return fail(ctx, "Currency value is empty or None");
    if (!s)
        return -1;
    int neg = s[0] == '-';
    if (neg) { /* theirs removes every '-' once the text starts with one */
        size_t o = 0;
        for (size_t i = 0; s[i]; i++)
            if (s[i] != '-')
                s[o++] = s[i];
        s[o] = 0;
    }
    char *dot = strrchr(s, '.'), *com = strrchr(s, ',');
    char dec = (dot ? dot - s : -1) > (com ? com - s : -1) ? '.' : ',';
    /* the first amount: a digit run with its separators (price-parser's extraction) */
    const char *p = s;
    while (*p && !isdigit((unsigned char)*p))
        p++;
    if (!*p) {
        fail(ctx, "Unable to parse currency: %.80s", s);
        free(s);
        return -1;
    }
    if (p > s && p[-1] == '.')
        p--;
    char num[128];
    size_t o = 0;
    for (; *p && o < sizeof num - 1 && (isdigit((unsigned char)*p) || *p == '.' || *p == ',' || *p == ' '); p++)
        if (*p != ' ')
            num[o++] = *p;
    while (o && !isdigit((unsigned char)num[o - 1]))
        o--;
    num[o] = 0;
    char clean[128];
    size_t k = 0;
    for (size_t i = 0; num[i]; i++) {
        if (num[i] == dec)
            clean[k++] = '.';
        else if (num[i] != '.' && num[i] != ',')
            clean[k++] = num[i];
    }
    clean[k] = 0;
    free(s);
    double d = strtod(clean, NULL);
    *out = cJSON_CreateNumber(neg ? -d : d);
    return 0;
}

/* ==== durations (pytimeparse2) ============================================== */

static double unit_seconds(const char *u)
{
    static const struct {
        const char *names;
        double s;
    } units[] = {
        {"|y|yr|yrs|year|years|", 31536000}, {"|mo|mon|mons|month|months|", 2592000},
        {"|w|wk|wks|week|weeks|", 604800},  {"|d|dy|dys|day|days|", 86400},
        {"|h|hr|hrs|hour|hours|", 3600},     {"|m|min|mins|minute|minutes|", 60},
        {"|s|sec|secs|second|seconds|", 1},  {"|ms|msec|msecs|millis|millisecond|milliseconds|", 0.001},
    };
    char key[40];
    if (strlen(u) > 30)
        return -1;
    snprintf(key, sizeof key, "|%s|", u);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strstr(units[i].names, key))
            return units[i].s;
    return -1;
}

static int parse_duration(const char *s, double *out)
{
    int a, b, c, n = 0;
    double f;
    if (sscanf(s, "%d:%d:%lf%n", &a, &b, &f, &n) == 3 && !s[n]) {
        *out = a * 3600.0 + b * 60.0 + f;
        return 0;
    }
    if (sscanf(s, "%d:%d%n", &a, &b, &n) == 2 && !s[n]) {
        *out = a * 60.0 + b;
        return 0;
    }
    (void)c;
    const char *p = s;
    double total = 0;
    int parts = 0;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!strncmp(p, "and ", 4)) {
            p += 4;
            continue;
        }
        if (!*p)
            break;
        char *end;
        double v = strtod(p, &end);
        if (end == p)
            return -1;
        p = end;
        while (*p == ' ')
            p++;
        char unit[40];
        size_t k = 0;
        while (isalpha((unsigned char)*p) && k < sizeof unit - 1)
            unit[k++] = *p++;
        unit[k] = 0;
        double us = unit_seconds(unit);
        if (us < 0)
            return -1;
        total += v * us;
        parts++;
    }
    if (!parts)
        return -1;
    *out = total;
    return 0;
}

static int norm_duration(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    if (!cJSON_IsString(v) || !*v->valuestring)
        return fail(ctx, "Duration must include a unit or time format (e.g., '5m', '2 hours', '4:13')");
    char *s = vf_norm_string(ctx, v->valuestring);
    if (!s)
        return -1;
    /* "1:35 hours" is 1h35m */
    int h, m, n = 0;
    char rest[16] = "";
    if (sscanf(s, "%d:%d %15s%n", &h, &m, rest, &n) >= 3 && (!strcmp(rest, "hour") || !strcmp(rest, "hours"))) {
        char t[64];
        snprintf(t, sizeof t, "%dh%dm%s", h, m, s + n);
        free(s);
        s = strdup(t);
    } else if (sscanf(s, "%d:%d%15s%n", &h, &m, rest, &n) >= 3 && (!strcmp(rest, "hour") || !strcmp(rest, "hours"))) {
        char t[64];
        snprintf(t, sizeof t, "%dh%dm%s", h, m, s + n);
        free(s);
        s = strdup(t);
    }
    double d;
    if (!s || py_float(s, &d) == 0) {
        fail(ctx, "Duration must include a unit or time format (e.g., '5m', '2 hours', '4:13')");
        free(s);
        return -1;
    }
    /* compact forms "2h32m": split digits from letters */
    eous_buf b;
    eous_buf_init(&b, 0);
    for (const char *p = s; *p; p++) {
        eous_buf_putc(&b, *p, NULL);
        if (isalpha((unsigned char)*p) && isdigit((unsigned char)p[1]))
            eous_buf_putc(&b, ' ', NULL);
    }
    char *sp = eous_buf_steal(&b);
    int rc = sp ? parse_duration(sp, &d) : -1;
    free(sp);
    if (rc) {
        fail(ctx, "Unable to parse duration: %.80s", s);
        free(s);
        return -1;
    }
    free(s);
    *out = cJSON_CreateNumber(d);
    return 0;
}

/* ==== distances (pint) ====================================================== */

static double unit_meters(const char *u)
{
    static const struct {
        const char *names;
        double m;
    } units[] = {
        {"|m|meter|meters|metre|metres|", 1},       {"|km|kilometer|kilometers|kilometre|kilometres|", 1000},
        {"|mi|mile|miles|", 1609.344},              {"|ft|foot|feet|", 0.3048},
        {"|yd|yard|yards|", 0.9144},                {"|cm|centimeter|centimeters|centimetre|centimetres|", 0.01},
        {"|mm|millimeter|millimeters|millimetre|millimetres|", 0.001}, {"|in|inch|inches|", 0.0254},
    };
    char key[64];
    if (strlen(u) > 50)
        return -1;
    snprintf(key, sizeof key, "|%s|", u);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strstr(units[i].names, key))
            return units[i].m;
    return -1;
}

static int norm_distance(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    if (!cJSON_IsString(v) || !*v->valuestring)
        return fail(ctx, "Distance must include a unit (e.g., 'm', 'km', 'mi', 'ft')");
    char *s = vf_norm_string(ctx, v->valuestring);
    double d;
    if (!s || py_float(s, &d) == 0) {
        fail(ctx, "Distance must include a unit (e.g., 'm', 'km', 'mi', 'ft')");
        free(s);
        return -1;
    }
    char *end;
    d = strtod(s, &end);
    const char *p = end;
    while (*p == ' ')
        p++;
    char unit[64];
    size_t k = 0;
    while (*p && *p != ' ' && k < sizeof unit - 1)
        unit[k++] = *p++;
    unit[k] = 0;
    while (*p == ' ')
        p++;
    /* "110k" is 110 km */
    double um = !strcmp(unit, "k") ? 1000 : unit_meters(unit);
    if (end == s || um < 0 || *p) {
        fail(ctx, "Invalid or unsupported unit in distance: %.80s", s);
        free(s);
        return -1;
    }
    free(s);
    *out = cJSON_CreateNumber(d * um);
    return 0;
}

/* ==== dates and months (dateutil) =========================================== */

static const char *month_names[12] = {"january", "february", "march",     "april",   "may",      "june",
                                      "july",    "august",   "september", "october", "november", "december"};
static const char *month_title[12] = {"January", "February", "March",     "April",   "May",      "June",
                                      "July",    "August",   "September", "October", "November", "December"};

static int month_word(const char *w)
{
    size_t n = strlen(w);
    if (n < 3)
        return 0;
    for (int i = 0; i < 12; i++) {
        if (!strcmp(w, month_names[i]) || (n == 3 && !strncmp(w, month_names[i], 3)) || (!strcmp(w, "sept") && i == 8))
            return i + 1;
    }
    return 0;
}

static int skip_word(const char *w)
{
    static const char *jump[] = {"at", "on", "and", "ad", "m", "t", "of", "st", "nd", "rd", "th", "the",
                                 "am", "pm", "a", "p", "monday", "tuesday", "wednesday", "thursday", "friday",
                                 "saturday", "sunday", "mon", "tue", "tues", "wed", "thu", "thur", "thurs",
                                 "fri", "sat", "sun", NULL};
    for (int i = 0; jump[i]; i++)
        if (!strcmp(w, jump[i]))
            return 1;
    return 0;
}

/* dateutil.parser.parse(dayfirst=False) for the forms dates come in; missing
 * parts from dflt (y, m, d).  Returns 0 and fills y/m/d. */
static int parse_date(const char *in, const int dflt[3], int *Y, int *M, int *D)
{
    int y = -1, m = -1, d = -1;
    int nums[6], nlen[6], nn = 0;
    char *s = strdup(in);
    if (!s)
        return -1;
    /* ISO-like and slashed forms first */
    int a, b, c, n = 0;
    if ((sscanf(s, "%4d-%2d-%2d%n", &a, &b, &c, &n) == 3 || sscanf(s, "%4d/%2d/%2d%n", &a, &b, &c, &n) == 3) &&
        n >= 8 && (s[n] == 0 || s[n] == 't' || s[n] == ' ') && a > 31) {
        free(s);
        if (b < 1 || b > 12 || c < 1 || c > 31)
            return -1;
        *Y = a, *M = b, *D = c;
        return 0;
    }
    for (char *p = s; *p; p++)
        if (*p == ',' || *p == '/' || *p == '-' || *p == '.' || *p == ';' || *p == '\'')
            *p = ' ';
    /* "15th" → "15" */
    char *tokv[32];
    int nt = 0;
    for (char *tok = strtok(s, " "); tok && nt < 32; tok = strtok(NULL, " "))
        tokv[nt++] = tok;
    for (int i = 0; i < nt; i++) {
        char *t = tokv[i];
        if (strchr(t, ':'))
            continue; /* a time of day */
        if (isdigit((unsigned char)t[0])) {
            char *e;
            long v = strtol(t, &e, 10);
            if (*e && strcmp(e, "st") && strcmp(e, "nd") && strcmp(e, "rd") && strcmp(e, "th") && strcmp(e, "am") &&
                strcmp(e, "pm")) {
                free(s);
                return -1;
            }
            if (nn < 6)
                nlen[nn] = (int)(e - t), nums[nn++] = (int)v;
            continue;
        }
        int mw = month_word(t);
        if (mw && m < 0) {
            m = mw;
            continue;
        }
        if (!skip_word(t)) {
            free(s);
            return -1;
        }
    }
    free(s);
    /* assign numbers: a 4-digit (or >31) one is the year; with a month word the rest is the day;
     * otherwise month/day/year in that order (dayfirst=False) */
    for (int i = 0; i < nn; i++) {
        if ((nlen[i] >= 3 || nums[i] > 31) && y < 0) {
            y = nums[i];
            nums[i] = -1;
        }
    }
    for (int i = 0; i < nn; i++) {
        if (nums[i] < 0)
            continue;
        if (m < 0 && nums[i] <= 12)
            m = nums[i];
        else if (d < 0)
            d = nums[i];
        else if (y < 0)
            y = nums[i] < 100 ? (nums[i] + 2000 > dflt[0] + 50 ? 1900 + nums[i] : 2000 + nums[i]) : nums[i];
        else
            return -1;
    }
    if (m < 0 && d < 0 && y < 0)
        return -1;
    *Y = y < 0 ? dflt[0] : y;
    *M = m < 0 ? dflt[1] : m;
    *D = d < 0 ? dflt[2] : d;
    if (*M < 1 || *M > 12 || *D < 1 || *D > 31)
        return -1;
    return 0;
}

static void today(int out[3])
{
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    out[0] = tm.tm_year + 1900, out[1] = tm.tm_mon + 1, out[2] = tm.tm_mday;
}

static int norm_date(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    if (!cJSON_IsString(v) || !*v->valuestring)
        return fail(ctx, "Empty date value");
    char *s = vf_norm_string(ctx, v->valuestring);
    int dflt[3], y, m, d;
    today(dflt);
    if (!s || parse_date(s, dflt, &y, &m, &d)) {
        fail(ctx, "Unable to parse date: %.80s", s ? s : "");
        free(s);
        return -1;
    }
    free(s);
    char iso[16];
    snprintf(iso, sizeof iso, "%04d-%02d-%02d", y, m, d);
    *out = cJSON_CreateString(iso);
    return 0;
}

static int norm_month(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    int mn = -1;
    if (cJSON_IsNumber(v) || cJSON_IsBool(v)) {
        double x = cJSON_IsBool(v) ? cJSON_IsTrue(v) : v->valuedouble;
        if (x != floor(x))
            return fail(ctx, "Month must be a whole number, got: %g", x);
        mn = (int)x;
        if (mn < 1 || mn > 12)
            return fail(ctx, "Month number out of range (1-12): %d", mn);
    } else if (cJSON_IsString(v) && *v->valuestring) {
        char *s = vf_norm_string(ctx, v->valuestring);
        if (!s || !*s) {
            free(s);
            return fail(ctx, "Empty month value");
        }
        char *e;
        long x = strtol(s, &e, 10);
        if (e != s && !*e) {
            free(s);
            if (x < 1 || x > 12)
                return fail(ctx, "Month number out of range (1-12): %ld", x);
            mn = (int)x;
        } else {
            int dflt[3] = {2000, 1, 1}, y, d;
            int rc = parse_date(s, dflt, &y, &mn, &d);
            if (rc) {
                fail(ctx, "Unable to parse month: %.80s", s);
                free(s);
                return -1;
            }
            free(s);
        }
    } else {
        return fail(ctx, "Empty month value");
    }
    *out = cJSON_CreateString(month_title[mn - 1]);
    return 0;
}

/* ==== booleans, empties, plain strings, location names ====================== */

static int norm_boolean(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    if (cJSON_IsBool(v)) {
        *out = cJSON_CreateBool(cJSON_IsTrue(v));
        return 0;
    }
    if (cJSON_IsNumber(v)) {
        *out = cJSON_CreateBool(v->valuedouble != 0);
        return 0;
    }
    if (!cJSON_IsString(v) || !*v->valuestring)
        return fail(ctx, "Cannot normalize empty value to boolean");
    char *s = vf_norm_string(ctx, v->valuestring);
    static const char *yes[] = {"true", "yes", "y", "1", "t", "on"}, *no[] = {"false", "no", "n", "0", "f", "off"};
    for (int i = 0; s && i < 6; i++) {
        if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
            *out = cJSON_CreateBool(!strcmp(s, yes[i]));
            free(s);
            return 0;
        }
    }
    fail(ctx, "Cannot normalize string to boolean: %.80s", s ? s : "");
    free(s);
    return -1;
}

static int norm_empty(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    int empty = cJSON_IsNull(v) || (cJSON_IsString(v) && !*v->valuestring) ||
                ((cJSON_IsArray(v) || cJSON_IsObject(v)) && !v->child);
    if (!empty && cJSON_IsString(v)) {
        /* its own string rule: lower, spaces collapsed, none around '/' */
        char *s = strdup(v->valuestring), *o = s;
        if (!s)
            return -1;
        size_t st, ln;
        wa_py_strip(v->valuestring, &st, &ln);
        const char *p = v->valuestring + st;
        for (size_t i = 0; i < ln; i++) {
            char c = (char)tolower((unsigned char)p[i]);
            if (isspace((unsigned char)c)) {
                if (o > s && o[-1] != ' ')
                    *o++ = ' ';
                continue;
            }
            if (c == '/' && o > s && o[-1] == ' ')
                o--;
            *o++ = c;
            if (c == '/')
                while (i + 1 < ln && isspace((unsigned char)p[i + 1]))
                    i++;
        }
        *o = 0;
        empty = !*s || !strcmp(s, "n/a") || !strcmp(s, "na") || !strcmp(s, "nan") || !strcmp(s, "null") ||
                !strcmp(s, "none");
        free(s);
    }
    if (!empty)
        return fail(ctx, "Value is not an empty representation");
    *out = cJSON_CreateNull();
    return 0;
}

/* str(value).lower().strip() after the pipeline; Python's str() for non-strings */
static int norm_plain(vf_ctx *ctx, const cJSON *v, cJSON **out, int location)
{
    if (location && cJSON_IsNull(v))
        return fail(ctx, "Value cannot be None");
    int falsy = cJSON_IsNull(v) || cJSON_IsFalse(v) || (cJSON_IsString(v) && !*v->valuestring) ||
                (cJSON_IsNumber(v) && v->valuedouble == 0) || ((cJSON_IsArray(v) || cJSON_IsObject(v)) && !v->child);
    if (falsy) {
        *out = cJSON_CreateString("");
        return 0;
    }
    char *s;
    if (cJSON_IsString(v)) {
        s = vf_norm_string(ctx, v->valuestring);
        if (s && vf_is_regexp(s)) {
            size_t st, ln;
            wa_py_strip(s, &st, &ln);
            memmove(s, s + st, ln);
            s[ln] = 0;
            *out = cJSON_CreateString(s);
            free(s);
            return 0;
        }
    } else {
        s = wa_py_str(v);
    }
    if (!s)
        return -1;
    char *low = wa_py_lower(s, strlen(s));
    free(s);
    if (!low)
        return -1;
    size_t st, ln;
    wa_py_strip(low, &st, &ln);
    memmove(low, low + st, ln);
    low[ln] = 0;
    *out = cJSON_CreateString(low);
    free(low);
    return 0;
}

/* ==== coordinates (geopy.Point) ============================================= */

static int coord_num(const cJSON *v, double *out)
{
    if (cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        return 0;
    }
    return cJSON_IsString(v) ? py_float(v->valuestring, out) : -1;
}

/* "40.7, -74.0", "40.7n 74.0w", degrees with minutes and seconds */
static int parse_point(const char *s, double *lat, double *lon)
{
    double v[2] = {0, 0};
    const char *p = s;
    for (int k = 0; k < 2; k++) {
        while (*p == ' ' || *p == ',' || *p == ';')
            p++;
        char *e;
        double deg = strtod(p, &e);
        if (e == p)
            return -1;
        p = e;
        double sign = deg < 0 || (deg == 0 && *s == '-') ? -1 : 1;
        deg = fabs(deg);
        for (int part = 0; part < 2; part++) { /* minutes, seconds */
            while (*p == ' ' || !strncmp(p, "deg", 3) || *p == '\'' || *p == '"')
                p += !strncmp(p, "deg", 3) ? 3 : 1;
            if (!isdigit((unsigned char)*p))
                break;
            double x = strtod(p, &e);
            if (e == p)
                break;
            deg += x / (part ? 3600 : 60);
            p = e;
        }
        while (*p == ' ' || *p == '\'' || *p == '"')
            p++;
        char h = (char)tolower((unsigned char)*p);
        if (h == 'n' || h == 's' || h == 'e' || h == 'w') {
            if (h == 's' || h == 'w')
                sign = -sign;
            p++;
        }
        v[k] = sign * deg;
    }
    while (*p == ' ')
        p++;
    if (*p)
        return -1;
    *lat = v[0], *lon = v[1];
    return 0;
}

static int norm_coords(vf_ctx *ctx, const cJSON *v, cJSON **out)
{
    double lat, lon;
    int rc = -1;
    if (cJSON_IsObject(v)) {
        const cJSON *la = NULL, *lo = NULL, *c;
        cJSON_ArrayForEach(c, v) {
            char k[32];
            size_t i = 0;
            for (; c->string[i] && i < sizeof k - 1; i++)
                k[i] = (char)tolower((unsigned char)c->string[i]);
            k[i] = 0;
            if (!la && i >= 2 && !strncmp("latitude", k, i))
                la = c;
            else if (!lo && ((i >= 2 && !strncmp("longitude", k, i)) || !strcmp(k, "lng")))
                lo = c;
        }
        rc = la && lo && coord_num(la, &lat) == 0 && coord_num(lo, &lon) == 0 ? 0 : -1;
    } else if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 2) {
        rc = coord_num(v->child, &lat) == 0 && coord_num(v->child->next, &lon) == 0 ? 0 : -1;
    } else if (cJSON_IsString(v) && *v->valuestring) {
        char *s = vf_norm_string(ctx, v->valuestring);
        rc = s ? parse_point(s, &lat, &lon) : -1;
        free(s);
    }
    if (rc || lat < -90 || lat > 90)
        return fail(ctx, "Unable to parse coordinates");
    while (lon > 180)
        lon -= 360;
    while (lon < -180)
        lon += 360;
    *out = cJSON_CreateObject();
    cJSON_AddNumberToObject(*out, "latitude", lat);
    cJSON_AddNumberToObject(*out, "longitude", lon);
    return 0;
}

/* ==== dispatch ============================================================== */

typedef int (*norm_fn)(vf_ctx *, const cJSON *, cJSON **);

static int norm_string_t(vf_ctx *c, const cJSON *v, cJSON **o) { return norm_plain(c, v, o, 0); }
static int norm_location(vf_ctx *c, const cJSON *v, cJSON **o) { return norm_plain(c, v, o, 1); }

static const struct {
    const char *name, *type;
    norm_fn fn;
} registry[] = {
    {"currency", "currency", norm_currency}, {"date", "date", norm_date},
    {"duration", "duration", norm_duration}, {"distance", "distance", norm_distance},
    {"coordinates", "coordinates", norm_coords}, {"boolean", "boolean", norm_boolean},
    {"string", "string", norm_string_t},   {"number", "number", norm_number},
    {"integer", "number", norm_number},    {"month", "month", norm_month},
    {"null", "null", norm_empty},          {"location-name", "location-name", norm_location},
    {"url", "url", NULL},
};

/* A registry type name eous knows; "full_address", "json", "markdown",
 * "base64" and "string_list" are theirs but no task of the dataset uses them. */
static int lookup(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
        if (!strcmp(registry[i].name, name))
            return (int)i;
    return -1;
}

int vf_known_type(const char *name);
int vf_known_type(const char *name)
{
    return name && lookup(name) >= 0;
}

cJSON *vf_norm_typed(vf_ctx *ctx, const char *type, const cJSON *raw, int strict)
{
    int i = lookup(type);
    if (i < 0) {
        fail(ctx, "Unknown type name: '%s' during normalization", type);
        return NULL; /* raised before the strict/lenient choice, as theirs */
    }
    if (!registry[i].fn) {
        vf_url_opts o = {0};
        return vf_norm_url(ctx, raw, &o, strict);
    }
    char saved[sizeof ctx->err];
    memcpy(saved, ctx->err, sizeof saved);
    cJSON *alts = cJSON_CreateArray();
    int rc = 0;
    int pair = !strcmp(type, "coordinates") && cJSON_IsArray(raw) && cJSON_GetArraySize(raw) == 2 &&
               !cJSON_IsObject(raw->child) && !cJSON_IsArray(raw->child) && !cJSON_IsNull(raw->child) &&
               !cJSON_IsObject(raw->child->next) && !cJSON_IsArray(raw->child->next);
    if (cJSON_IsArray(raw) && !pair) {
        if (cJSON_GetArraySize(raw) < 2) {
            rc = fail(ctx, "Alternatives require 2+ items, got %d", cJSON_GetArraySize(raw));
        } else {
            const cJSON *a;
            cJSON_ArrayForEach(a, raw) {
                cJSON *n = NULL;
                if ((rc = registry[i].fn(ctx, a, &n)))
                    break;
                cJSON_AddItemToArray(alts, n);
            }
        }
    } else {
        cJSON *n = NULL;
        if (!(rc = registry[i].fn(ctx, raw, &n)))
            cJSON_AddItemToArray(alts, n);
    }
    if (rc) {
        cJSON_Delete(alts);
        if (strict)
            return NULL;
        memcpy(ctx->err, saved, sizeof saved); /* lenient: the raw value stays */
        return cJSON_Duplicate(raw, 1);
    }
    return typed_new(registry[i].type, alts);
}

/* ==== the schema walk (value_normalizer.py) ================================= */

/* _extract_type_from_schema: a type name (*name) or an object schema (*obj). */
static int schema_type(const cJSON *schema, const char **name, const cJSON **obj)
{
    *name = NULL, *obj = NULL;
    const char *t = eous_json_str(schema, "type");
    if (t && !strcmp(t, "array")) {
        const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
        int dummy;
        static const cJSON empty_obj;
        (void)dummy;
        schema_type(cJSON_IsObject(items) ? items : &empty_obj, name, obj);
        return 1;
    }
    if (t && !strcmp(t, "object")) {
        *obj = schema;
        return 0;
    }
    const char *f = eous_json_str(schema, "format");
    *name = f ? f : t ? t : "string";
    return 0;
}

static cJSON *norm_object(vf_ctx *ctx, const cJSON *obj, const cJSON *schema, int strict);

static cJSON *parse_json_string(const cJSON *v)
{
    return cJSON_IsString(v) ? cJSON_Parse(v->valuestring) : NULL;
}

static cJSON *norm_object_or_array(vf_ctx *ctx, const cJSON *v, const cJSON *schema, int strict)
{
    if (cJSON_IsArray(v)) {
        cJSON *arr = cJSON_CreateArray();
        const cJSON *it;
        cJSON_ArrayForEach(it, v) {
            cJSON *n = norm_object(ctx, it, schema, strict);
            if (!n) {
                cJSON_Delete(arr);
                return NULL;
            }
            cJSON_AddItemToArray(arr, n);
        }
        return arr;
    }
    return norm_object(ctx, v, schema, strict);
}

/* _normalize_array with a type name or object schema */
static cJSON *norm_array_of(vf_ctx *ctx, const cJSON *v, const char *name, const cJSON *objschema, int strict)
{
    cJSON *parsed = NULL;
    if (cJSON_IsString(v) && (parsed = parse_json_string(v)) && cJSON_IsArray(parsed))
        v = parsed;
    if (!cJSON_IsArray(v)) {
        cJSON_Delete(parsed);
        if (strict) {
            fail(ctx, "schema expects array but got %s", eous_json_type_name(v));
            return NULL;
        }
        return cJSON_Duplicate(v, 1);
    }
    cJSON *r;
    if (objschema) {
        r = norm_object_or_array(ctx, v, objschema, strict);
    } else if (lookup(name) < 0) {
        fail(ctx, "Unknown type name: '%s'", name);
        r = NULL;
    } else {
        r = cJSON_CreateArray();
        const cJSON *it;
        cJSON_ArrayForEach(it, v) {
            cJSON *n = vf_norm_typed(ctx, name, it, strict);
            if (!n) {
                cJSON_Delete(r);
                r = NULL;
                break;
            }
            cJSON_AddItemToArray(r, n);
        }
    }
    cJSON_Delete(parsed);
    return r;
}

static cJSON *norm_object(vf_ctx *ctx, const cJSON *obj, const cJSON *schema, int strict)
{
    cJSON *parsed = NULL;
    if (cJSON_IsString(obj) && (parsed = parse_json_string(obj)) && cJSON_IsObject(parsed))
        obj = parsed;
    if (!cJSON_IsObject(obj)) {
        cJSON_Delete(parsed);
        if (strict) {
            fail(ctx, "Expected dict for object normalization, got %s", eous_json_type_name(obj));
            return NULL;
        }
        return cJSON_Duplicate(obj, 1);
    }
    const cJSON *props = eous_json_obj(schema, "properties");
    cJSON *out = cJSON_CreateObject();
    const cJSON *pv;
    cJSON_ArrayForEach(pv, obj) {
        cJSON *n = NULL;
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(props, pv->string);
        if (cJSON_IsNull(pv)) {
            n = cJSON_CreateNull();
        } else if (!cJSON_IsObject(ps)) {
            n = vf_norm_typed(ctx, "string", pv, strict);
        } else {
            const char *name;
            const cJSON *os;
            int is_arr = schema_type(ps, &name, &os);
            char saved[sizeof ctx->err];
            memcpy(saved, ctx->err, sizeof saved);
            if (is_arr)
                n = norm_array_of(ctx, pv, name, os, strict);
            else if (name && lookup(name) >= 0)
                n = vf_norm_typed(ctx, name, pv, 1);
            else if (os)
                n = norm_object(ctx, pv, os, strict);
            else
                n = vf_norm_typed(ctx, "string", pv, 1);
            if (!n && !strict) {
                memcpy(ctx->err, saved, sizeof saved);
                n = cJSON_Duplicate(pv, 1);
            }
        }
        if (!n) {
            cJSON_Delete(out);
            cJSON_Delete(parsed);
            return NULL;
        }
        cJSON_AddItemToObject(out, pv->string, n);
    }
    cJSON_Delete(parsed);
    return out;
}

cJSON *vf_norm_array(vf_ctx *ctx, const cJSON *value, const cJSON *schema, int strict)
{
    cJSON *own = NULL;
    if (!strict) {
        cJSON *parsed = NULL;
        if (cJSON_IsString(value) && (parsed = parse_json_string(value)) && cJSON_IsArray(parsed))
            value = own = parsed;
        else
            cJSON_Delete(parsed);
        if (!cJSON_IsArray(value)) {
            own = cJSON_CreateArray();
            cJSON_AddItemToArray(own, cJSON_Duplicate(value, 1));
            value = own;
        }
    }
    if (!cJSON_IsArray(value)) {
        fail(ctx, "schema expects array but got %s", eous_json_type_name(value));
        return NULL;
    }
    const char *st = schema ? eous_json_str(schema, "type") : NULL;
    if (schema && st && strcmp(st, "array")) {
        cJSON_Delete(own);
        fail(ctx, "Schema type must be 'array', got: '%s'", st);
        return NULL;
    }
    const cJSON *items = schema ? eous_json_obj(schema, "items") : NULL;
    const char *it_type = items ? eous_json_str(items, "type") : NULL;
    cJSON *out = cJSON_CreateArray();
    const cJSON *it;
    cJSON_ArrayForEach(it, value) {
        cJSON *n;
        if (it_type && !strcmp(it_type, "object")) {
            n = norm_object_or_array(ctx, it, items, strict);
        } else {
            const char *name = !items ? "string" : eous_json_str(items, "format") ? eous_json_str(items, "format")
                                                                                : it_type ? it_type : "string";
            n = vf_norm_typed(ctx, name, it, strict);
        }
        if (!n) {
            cJSON_Delete(out);
            cJSON_Delete(own);
            return NULL;
        }
        cJSON_AddItemToArray(out, n);
    }
    cJSON_Delete(own);
    return out;
}

cJSON *vf_norm_schema(vf_ctx *ctx, const cJSON *value, const cJSON *schema, int strict)
{
    if (!value || cJSON_IsNull(value) || cJSON_IsFalse(value) || (cJSON_IsString(value) && !*value->valuestring) ||
        (cJSON_IsNumber(value) && value->valuedouble == 0) || ((cJSON_IsObject(value) || cJSON_IsArray(value)) && !value->child))
        return cJSON_CreateNull();
    cJSON *tmp = NULL;
    if (!schema || !schema->child) {
        tmp = cJSON_CreateObject();
        cJSON_AddStringToObject(tmp, "type", cJSON_IsArray(value) ? "array" : cJSON_IsObject(value) ? "object" : "string");
        schema = tmp;
    }
    const char *name;
    const cJSON *os;
    int is_arr = schema_type(schema, &name, &os);
    cJSON *r;
    if (os && !is_arr)
        r = norm_object_or_array(ctx, value, os, strict);
    else if (is_arr)
        r = cJSON_IsArray(value) ? norm_array_of(ctx, value, name, os, strict)
                                 : (strict ? (fail(ctx, "Schema expects array"), NULL) : cJSON_Duplicate(value, 1));
    else
        r = vf_norm_typed(ctx, name, value, strict);
    cJSON_Delete(tmp);
    return r;
}

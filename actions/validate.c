/* actions/validate.c — params checked against interaction metadata M in C
 * (see validate.h for the vocabulary). */
#include "actions/validate.h"

#include "actions/secrets.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "core/regex_tame.h"
#include "perception/meta.h"

#define MAX_DEPTH 32
#define MAX_FAILS 5
#define LIST_CAP 12

/* ---- dated comparisons (formats and parsing: perception/meta.c) ---------- */

typedef perc_dated dated;

/* Bounds and disabled entries are read leniently: the value's format, then
 * common ones, with ISO tails (".000Z", "+02:00") ignored. */
static int parse_bound(const char *fmt, const char *s, dated *out)
{
    if (!s)
        return -1;
    if (perc_meta_parse_dated(fmt, s, out) == 0)
        return 0;
    for (size_t i = 0; i < PERC_META_N_BOUND_FORMATS; i++) {
        size_t used = 0;
        if (perc_meta_parse_dated_prefix(PERC_META_BOUND_FORMATS[i], s, out, &used) == 0 &&
            (!s[used] || strchr(".Z+", s[used])))
            return 0;
    }
    return -1;
}

/* fill_max: a bound's missing finer fields take their highest value ("2025-12"
 * as a max is the whole of December); missing coarser ones (a time's date)
 * take their lowest either way, or a time-only max would lie a year ahead. */
static long long dated_key(const dated *d, int fill_max)
{
    static const int LO[PERC_DT_N] = {0, 1, 1, 0, 0, 0}, HI[PERC_DT_N] = {0, 12, 31, 23, 59, 59};
    static const int MUL[PERC_DT_N] = {12, 31, 24, 60, 60, 1};
    long long k = 0;
    int seen = 0;
    for (int i = 0; i < PERC_DT_N; i++) {
        int has = (d->has >> i) & 1u;
        seen |= has;
        int v = has ? d->f[i] : (fill_max && seen ? HI[i] : LO[i]);
        k = k * (i ? MUL[i - 1] : 1) + v;
    }
    return k;
}

/* Bounds compare only with values of the same kind (both with a year, or
 * both time-only). */
static int comparable(const dated *a, const dated *b)
{
    return ((a->has >> PERC_DT_Y) & 1u) == ((b->has >> PERC_DT_Y) & 1u);
}

/* ---- small helpers -------------------------------------------------------- */

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static void put_json(eous_buf *b, const cJSON *v, size_t cap)
{
    char *s = v ? cJSON_PrintUnformatted(v) : NULL;
    if (!s) {
        eous_buf_puts(b, "?", NULL);
        return;
    }
    if (strlen(s) > cap) {
        s[cap] = '\0';
        eous_buf_puts(b, s, NULL);
        eous_buf_puts(b, "...", NULL);
    } else {
        eous_buf_puts(b, s, NULL);
    }
    free(s);
}

/* A bound or list item as the model would write it: strings bare. */
static void put_plain(eous_buf *b, const cJSON *v)
{
    if (cJSON_IsString(v))
        eous_buf_puts(b, v->valuestring, NULL);
    else if (cJSON_IsNumber(v))
        eous_buf_printf(b, NULL, "%.15g", v->valuedouble);
    else
        put_json(b, v, 60);
}

static int type_matches(const char *t, const cJSON *v)
{
    if (!strcmp(t, "string") || !strcmp(t, "date") || !strcmp(t, "time") || !strcmp(t, "datetime"))
        return cJSON_IsString(v);
    if (!strcmp(t, "number"))
        return cJSON_IsNumber(v) && isfinite(v->valuedouble);
    if (!strcmp(t, "integer"))
        return cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble == floor(v->valuedouble) &&
               fabs(v->valuedouble) <= 9007199254740991.0;
    if (!strcmp(t, "boolean"))
        return cJSON_IsBool(v);
    if (!strcmp(t, "array"))
        return cJSON_IsArray(v);
    if (!strcmp(t, "object"))
        return cJSON_IsObject(v);
    if (!strcmp(t, "null"))
        return cJSON_IsNull(v);
    return 1; /* "any" and vocabulary we do not know never block a call */
}

static const char *type_phrase(const char *t)
{
    if (!strcmp(t, "string")) return "a string";
    if (!strcmp(t, "number")) return "a number";
    if (!strcmp(t, "integer")) return "an integer";
    if (!strcmp(t, "boolean")) return "true or false";
    if (!strcmp(t, "array")) return "a list";
    if (!strcmp(t, "object")) return "an object";
    if (!strcmp(t, "null")) return "null";
    return t;
}

static size_t utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

/* ---- describing a spec ------------------------------------------------------ */

static void describe(const perc_spec *spec, eous_buf *b, int depth);

/* "a, b, c, ..." — an object's member names, at most LIST_CAP; how many were put. */
static int put_capped_names(eous_buf *b, const cJSON *props)
{
    int i = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, props) {
        if (i == LIST_CAP) {
            eous_buf_puts(b, ", ...", NULL);
            break;
        }
        eous_buf_puts(b, i++ ? ", " : "", NULL);
        eous_buf_puts(b, p->string, NULL);
    }
    return i;
}

static void put_list(eous_buf *b, const cJSON *arr, int by_value)
{
    int i = 0, n = cJSON_GetArraySize(arr);
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        if (i == LIST_CAP) {
            eous_buf_printf(b, NULL, " ... (%d in all)", n);
            break;
        }
        if (i++)
            eous_buf_puts(b, ", ", NULL);
        const cJSON *val = by_value ? get(e, "value") : NULL;
        if (val) {
            put_json(b, val, 60);
            const cJSON *lab = get(e, "label");
            if (cJSON_IsString(lab)) {
                eous_buf_puts(b, " (", NULL);
                eous_buf_puts(b, lab->valuestring, NULL);
                eous_buf_putc(b, ')', NULL);
            }
        } else if (cJSON_IsObject(e)) {
            const cJSON *from = get(e, "from") ? get(e, "from") : get(e, "start") ? get(e, "start") : get(e, "min");
            const cJSON *to = get(e, "to") ? get(e, "to") : get(e, "end") ? get(e, "end") : get(e, "max");
            put_plain(b, from);
            eous_buf_puts(b, "..", NULL);
            put_plain(b, to);
        } else if (cJSON_IsArray(e) && cJSON_GetArraySize(e) == 2) {
            put_plain(b, cJSON_GetArrayItem(e, 0));
            eous_buf_puts(b, "..", NULL);
            put_plain(b, cJSON_GetArrayItem(e, 1));
        } else {
            by_value ? put_json(b, e, 60) : put_plain(b, e);
        }
    }
}

/* What kind of value: an enum, a constant, a dated format, a type. */
static void describe_kind(const perc_spec *spec, eous_buf *b)
{
    const char *fmt = spec->format;
    int dated_fmt = spec->dated;
    const cJSON *type = spec->type;
    const cJSON *en = spec->enumeration;
    const cJSON *cst = spec->constant;
    const char *t1 = spec->type_name;
    if (cJSON_IsArray(en)) {
        eous_buf_puts(b, "one of ", NULL);
        put_list(b, en, 1);
    } else if (cst) {
        eous_buf_puts(b, "exactly ", NULL);
        put_json(b, cst, 60);
    } else if (dated_fmt) {
        eous_buf_puts(b, !strcmp(fmt, "time") ? "HH:mm or HH:mm:ss" : perc_meta_canonical_format(fmt), NULL);
    } else if (cJSON_IsArray(type)) {
        int i = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, type) {
            if (!cJSON_IsString(t))
                continue;
            eous_buf_puts(b, i++ ? " or " : "", NULL);
            eous_buf_puts(b, type_phrase(t->valuestring), NULL);
        }
        if (!i)
            eous_buf_puts(b, "anything", NULL);
    } else if (t1) {
        eous_buf_puts(b, type_phrase(t1), NULL);
        if (fmt)
            eous_buf_printf(b, NULL, " (%s)", fmt);
    } else {
        eous_buf_puts(b, "a value", NULL);
    }

}

/* Its limits: bounds, step, lengths, pattern, item counts. */
static void describe_limits(const perc_spec *spec, eous_buf *b)
{
    int dated_fmt = spec->dated;
    const perc_limits *l = &spec->lim;
    const cJSON *mn = l->min, *mx = l->max, *xmn = l->xmin, *xmx = l->xmax;
    if (mn && mx) {
        eous_buf_puts(b, " within ", NULL);
        put_plain(b, mn);
        eous_buf_puts(b, "..", NULL);
        put_plain(b, mx);
    } else if (mn) {
        eous_buf_puts(b, dated_fmt ? " on or after " : " >= ", NULL);
        put_plain(b, mn);
    } else if (mx) {
        eous_buf_puts(b, dated_fmt ? " on or before " : " <= ", NULL);
        put_plain(b, mx);
    }
    if (cJSON_IsNumber(xmn)) {
        eous_buf_puts(b, " > ", NULL);
        put_plain(b, xmn);
    }
    if (cJSON_IsNumber(xmx)) {
        eous_buf_puts(b, " < ", NULL);
        put_plain(b, xmx);
    }
    const cJSON *step = l->step;
    if (cJSON_IsNumber(step)) {
        eous_buf_printf(b, NULL, " in steps of %.15g", step->valuedouble);
        if (cJSON_IsNumber(mn) && mn->valuedouble != 0)
            eous_buf_printf(b, NULL, " from %.15g", mn->valuedouble);
    }
    const cJSON *mnl = l->min_len, *mxl = l->max_len;
    if (cJSON_IsNumber(mnl) && cJSON_IsNumber(mxl))
        eous_buf_printf(b, NULL, " of %d..%d characters", mnl->valueint, mxl->valueint);
    else if (cJSON_IsNumber(mnl))
        eous_buf_printf(b, NULL, " of at least %d characters", mnl->valueint);
    else if (cJSON_IsNumber(mxl))
        eous_buf_printf(b, NULL, " of at most %d characters", mxl->valueint);
    const char *pat = l->pattern;
    if (pat)
        eous_buf_printf(b, NULL, " matching /%s/", pat);
    const cJSON *mni = l->min_items, *mxi = l->max_items;
    if (cJSON_IsNumber(mni) && cJSON_IsNumber(mxi))
        eous_buf_printf(b, NULL, " of %d..%d items", mni->valueint, mxi->valueint);
    else if (cJSON_IsNumber(mni))
        eous_buf_printf(b, NULL, " of at least %d items", mni->valueint);
    else if (cJSON_IsNumber(mxi))
        eous_buf_printf(b, NULL, " of at most %d items", mxi->valueint);
    if (l->unique_items)
        eous_buf_puts(b, " without repeats", NULL);
}

static void describe(const perc_spec *spec, eous_buf *b, int depth)
{
    if (!spec->json || depth > 3) {
        eous_buf_puts(b, "anything", NULL);
        return;
    }
    const perc_limits *l = &spec->lim;
    describe_kind(spec, b);
    describe_limits(spec, b);
    if (spec->items) {
        perc_spec items;
        perc_spec_read(spec->items, &items);
        eous_buf_puts(b, ", each ", NULL);
        describe(&items, b, depth + 1);
    }
    const cJSON *props = spec->properties;
    if (cJSON_IsObject(props) && props->child) {
        eous_buf_puts(b, " with ", NULL);
        put_capped_names(b, props);
    }
    const cJSON *dis = l->disabled;
    if (dis && dis->child) {
        eous_buf_puts(b, ", not ", NULL);
        put_list(b, dis, 0);
    }
}

void act_spec_describe(const cJSON *spec, char *out, size_t n)
{
    if (!n)
        return;
    eous_buf b;
    eous_buf_init(&b, 4096);
    perc_spec sp;
    perc_spec_read(spec, &sp);
    describe(&sp, &b, 0);
    snprintf(out, n, "%s", b.data ? b.data : "");
    eous_buf_free(&b);
}

/* ---- checking ---------------------------------------------------------------- */

typedef struct vctx {
    const char *tool;
    eous_buf msg;
    int nfail;
} vctx;

static void fail(vctx *c, const char *path, const perc_spec *spec, const cJSON *v, const char *why)
{
    c->nfail++;
    if (c->nfail > MAX_FAILS) {
        if (c->nfail == MAX_FAILS + 1)
            eous_buf_puts(&c->msg, "; ...", NULL);
        return;
    }
    eous_buf_puts(&c->msg, c->nfail == 1 ? "" : "; ", NULL);
    eous_buf_printf(&c->msg, NULL, "%s must be ", path);
    describe(spec, &c->msg, 0);
    eous_buf_puts(&c->msg, " (got ", NULL);
    put_json(&c->msg, v, 80);
    if (why) {
        eous_buf_puts(&c->msg, ": ", NULL);
        eous_buf_puts(&c->msg, why, NULL);
    }
    eous_buf_putc(&c->msg, ')', NULL);
}

/* Patterns come from the page's M: one glibc would stall on (core/regex_tame.h),
 * and very long subjects, are not checked here (the page's own tool still validates). */
#define VALIDATE_MAX_PATTERN_SUBJECT 4096

static void fail_text(vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_text(vctx *c, const char *fmt, ...)
{
    c->nfail++;
    if (c->nfail > MAX_FAILS) {
        if (c->nfail == MAX_FAILS + 1)
            eous_buf_puts(&c->msg, "; ...", NULL);
        return;
    }
    eous_buf_puts(&c->msg, c->nfail == 1 ? "" : "; ", NULL);
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    eous_buf_puts(&c->msg, line, NULL);
}

static int enum_has(const cJSON *en, const cJSON *v)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, en) {
        const cJSON *val = cJSON_IsObject(e) && get(e, "value") ? get(e, "value") : e;
        if (cJSON_Compare(val, v, 1))
            return 1;
    }
    return 0;
}

/* Range entries of a disabled list: {from,to} / {start,end} / {min,max} / [a, b]. */
static int range_of(const cJSON *e, const cJSON **from, const cJSON **to)
{
    if (cJSON_IsArray(e) && cJSON_GetArraySize(e) == 2) {
        *from = cJSON_GetArrayItem(e, 0);
        *to = cJSON_GetArrayItem(e, 1);
        return 1;
    }
    if (!cJSON_IsObject(e))
        return 0;
    *from = get(e, "from") ? get(e, "from") : get(e, "start") ? get(e, "start") : get(e, "min");
    *to = get(e, "to") ? get(e, "to") : get(e, "end") ? get(e, "end") : get(e, "max");
    return *from || *to;
}

static int dated_disabled(const char *fmt, const dated *v, const cJSON *dis)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, dis) {
        const cJSON *from = NULL, *to = NULL;
        dated d;
        if (cJSON_IsString(e)) {
            if (parse_bound(fmt, e->valuestring, &d) != 0 || !d.has || (d.has & ~v->has))
                continue;
            int same = 1;
            for (int i = 0; i < PERC_DT_N; i++)
                if ((d.has & (1u << i)) && d.f[i] != v->f[i])
                    same = 0;
            if (same)
                return 1;
        } else if (range_of(e, &from, &to)) {
            dated a, z;
            int ok_a = cJSON_IsString(from) && parse_bound(fmt, from->valuestring, &a) == 0 && comparable(&a, v);
            int ok_z = cJSON_IsString(to) && parse_bound(fmt, to->valuestring, &z) == 0 && comparable(&z, v);
            if ((ok_a || ok_z) && (!ok_a || dated_key(v, 0) >= dated_key(&a, 0)) &&
                (!ok_z || dated_key(v, 0) <= dated_key(&z, 1)))
                return 1;
        }
    }
    return 0;
}

static int plain_disabled(const cJSON *v, const cJSON *dis)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, dis) {
        const cJSON *from = NULL, *to = NULL;
        if (cJSON_IsNumber(v) && !cJSON_IsNumber(e) && range_of(e, &from, &to)) {
            if ((!cJSON_IsNumber(from) || v->valuedouble >= from->valuedouble) &&
                (!cJSON_IsNumber(to) || v->valuedouble <= to->valuedouble) && (from || to))
                return 1;
        } else if (cJSON_Compare(e, v, 1)) {
            return 1;
        }
    }
    return 0;
}

static void check(vctx *c, const perc_spec *spec, const cJSON *v, const char *path, int depth, int strict);

static void check_string(vctx *c, const perc_spec *spec, const cJSON *v, const char *path)
{
    const char *s = v->valuestring;
    if (act_secrets_has_placeholder(s))
        return;
    const char *fmt = spec->format;
    const perc_limits *l = &spec->lim;
    if (spec->dated) {
        dated d;
        int rc = perc_meta_parse_dated(fmt, s, &d);
        if (rc == -1) {
            fail(c, path, spec, v, NULL);
            return;
        }
        if (rc == -2) {
            fail(c, path, spec, v, "no such date or time");
            return;
        }
        const cJSON *mn = l->min, *mx = l->max;
        dated b;
        if (cJSON_IsString(mn) && parse_bound(fmt, mn->valuestring, &b) == 0 && comparable(&b, &d) &&
            dated_key(&d, 0) < dated_key(&b, 0)) {
            fail(c, path, spec, v, NULL);
            return;
        }
        if (cJSON_IsString(mx) && parse_bound(fmt, mx->valuestring, &b) == 0 && comparable(&b, &d) &&
            dated_key(&d, 0) > dated_key(&b, 1)) {
            fail(c, path, spec, v, NULL);
            return;
        }
        if (l->disabled && dated_disabled(fmt, &d, l->disabled)) {
            fail(c, path, spec, v, "disabled");
            return;
        }
    } else if (fmt && !strcmp(fmt, "email")) {
        const char *at = strchr(s, '@');
        if (!at || at == s || !strchr(at, '.') || strchr(s, ' ')) {
            fail(c, path, spec, v, NULL);
            return;
        }
    } else if (fmt && (!strcmp(fmt, "uri") || !strcmp(fmt, "url"))) {
        act_url u;
        if (act_url_parse(s, &u) != 0 || !u.scheme[0]) {
            fail(c, path, spec, v, NULL);
            return;
        }
    }
    const cJSON *mnl = l->min_len, *mxl = l->max_len;
    size_t len = utf8_len(s);
    if ((cJSON_IsNumber(mnl) && (double)len < mnl->valuedouble) ||
        (cJSON_IsNumber(mxl) && (double)len > mxl->valuedouble)) {
        fail(c, path, spec, v, NULL);
        return;
    }
    const char *pat = l->pattern;
    if (pat && eous_regex_is_tame(pat) && strlen(s) <= VALIDATE_MAX_PATTERN_SUBJECT) {
        regex_t re;
        /* a JS-only pattern POSIX cannot compile is not held against the value */
        if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) == 0) {
            int m = regexec(&re, s, 0, NULL, 0);
            regfree(&re);
            if (m != 0) {
                fail(c, path, spec, v, NULL);
                return;
            }
        }
    }
    if (!spec->dated && l->disabled && plain_disabled(v, l->disabled))
        fail(c, path, spec, v, "disabled");
}

static void check_number(vctx *c, const perc_spec *spec, const cJSON *v, const char *path)
{
    double x = v->valuedouble;
    const perc_limits *l = &spec->lim;
    const cJSON *mn = l->min, *mx = l->max, *xmn = l->xmin, *xmx = l->xmax;
    if ((cJSON_IsNumber(mn) && x < mn->valuedouble) || (cJSON_IsNumber(mx) && x > mx->valuedouble) ||
        (cJSON_IsNumber(xmn) && x <= xmn->valuedouble) || (cJSON_IsNumber(xmx) && x >= xmx->valuedouble)) {
        fail(c, path, spec, v, NULL);
        return;
    }
    const cJSON *step = l->step;
    if (step && step->valuedouble > 0) {
        double base = cJSON_IsNumber(mn) ? mn->valuedouble : 0;
        double q = (x - base) / step->valuedouble;
        if (fabs(q - round(q)) > 1e-9 * fmax(1.0, fabs(q))) {
            fail(c, path, spec, v, NULL);
            return;
        }
    }
    if (l->disabled && plain_disabled(v, l->disabled))
        fail(c, path, spec, v, "disabled");
}

static int prop_required(const perc_spec *spec, const perc_spec *prop_spec, const char *name)
{
    if (prop_spec->required)
        return 1;
    const cJSON *r;
    if (spec->required_names)
        cJSON_ArrayForEach(r, spec->required_names)
            if (cJSON_IsString(r) && !strcmp(r->valuestring, name))
                return 1;
    return 0;
}

static void join_path(char *out, size_t n, const char *path, const char *key)
{
    if (path && *path)
        snprintf(out, n, "%s.%s", path, key);
    else
        snprintf(out, n, "%s", key);
}

static void put_names(eous_buf *b, const cJSON *props)
{
    if (!put_capped_names(b, props))
        eous_buf_puts(b, "no params", NULL);
}

static void check_object(vctx *c, const perc_spec *spec, const cJSON *v, const char *path, int depth, int strict)
{
    const cJSON *props = spec->properties;
    const cJSON *addl = spec->additional;
    char sub[512];
    if (cJSON_IsObject(props)) {
        const cJSON *p;
        cJSON_ArrayForEach(p, props) {
            const cJSON *val = cJSON_GetObjectItemCaseSensitive(v, p->string);
            join_path(sub, sizeof sub, path, p->string);
            perc_spec ps;
            perc_spec_read(p, &ps);
            if (!val) {
                if (prop_required(spec, &ps, p->string)) {
                    eous_buf d;
                    eous_buf_init(&d, 2048);
                    describe(&ps, &d, 0);
                    fail_text(c, "missing %s (%s)", sub, d.data ? d.data : "");
                    eous_buf_free(&d);
                }
                continue;
            }
            check(c, &ps, val, sub, depth + 1, strict);
        }
    }
    const cJSON *kv;
    cJSON_ArrayForEach(kv, v) {
        if (cJSON_IsObject(props) && cJSON_GetObjectItemCaseSensitive(props, kv->string))
            continue;
        join_path(sub, sizeof sub, path, kv->string);
        if (cJSON_IsObject(addl)) {
            perc_spec as;
            perc_spec_read(addl, &as);
            check(c, &as, kv, sub, depth + 1, strict);
        } else if (cJSON_IsFalse(addl) || (strict && cJSON_IsObject(props))) {
            eous_buf names;
            eous_buf_init(&names, 2048);
            put_names(&names, props);
            fail_text(c, "unknown param \"%s\" (takes %s)", sub, names.data ? names.data : "");
            eous_buf_free(&names);
        }
    }
}

static void check(vctx *c, const perc_spec *spec, const cJSON *v, const char *path, int depth, int strict)
{
    if (!spec->json)
        return;
    if (depth > MAX_DEPTH) {
        fail_text(c, "%s nests too deeply", path);
        return;
    }
    const cJSON *type = spec->type;
    int typed = 0, ok = 0;
    if (cJSON_IsString(type)) {
        typed = 1;
        ok = type_matches(type->valuestring, v);
    } else if (cJSON_IsArray(type)) {
        const cJSON *t;
        cJSON_ArrayForEach(t, type) {
            if (cJSON_IsString(t)) {
                typed = 1;
                ok = ok || type_matches(t->valuestring, v);
            }
        }
    }
    if (typed && !ok) {
        fail(c, path, spec, v, NULL);
        return;
    }
    const cJSON *en = spec->enumeration;
    if (en && !(cJSON_IsString(v) && act_secrets_has_placeholder(v->valuestring)) &&
        !enum_has(en, v)) {
        fail(c, path, spec, v, NULL);
        return;
    }
    const cJSON *cst = spec->constant;
    if (cst && !cJSON_Compare(cst, v, 1)) {
        fail(c, path, spec, v, NULL);
        return;
    }
    if (cJSON_IsString(v)) {
        check_string(c, spec, v, path);
    } else if (cJSON_IsNumber(v)) {
        check_number(c, spec, v, path);
    } else if (cJSON_IsArray(v)) {
        int n = cJSON_GetArraySize(v);
        const cJSON *mni = spec->lim.min_items, *mxi = spec->lim.max_items;
        if ((cJSON_IsNumber(mni) && n < mni->valuedouble) || (cJSON_IsNumber(mxi) && n > mxi->valuedouble)) {
            fail(c, path, spec, v, NULL);
            return;
        }
        if (spec->lim.unique_items) {
            for (const cJSON *a = v->child; a; a = a->next)
                for (const cJSON *b = a->next; b; b = b->next)
                    if (cJSON_Compare(a, b, 1)) {
                        fail(c, path, spec, v, "repeated item");
                        return;
                    }
        }
        if (spec->items) {
            perc_spec items;
            perc_spec_read(spec->items, &items);
            int i = 0;
            const cJSON *it;
            char sub[512];
            cJSON_ArrayForEach(it, v) {
                snprintf(sub, sizeof sub, "%s[%d]", path, i++);
                check(c, &items, it, sub, depth + 1, strict);
            }
        }
    } else if (cJSON_IsObject(v)) {
        check_object(c, spec, v, path, depth, strict);
    }
}

/* ---- tool-level entry points ---------------------------------------------- */

int act_tool_exists(const cJSON *tools, const cJSON *metadata, const char *tool)
{
    if (!tool || !*tool)
        return 0;
    const cJSON *t;
    if (cJSON_IsArray(tools) && tools->child) {
        cJSON_ArrayForEach(t, tools) {
            const char *name = cJSON_IsString(t) ? t->valuestring : eous_json_str(t, "name");
            if (name && !strcmp(name, tool))
                return 1;
        }
        return 0;
    }
    /* T given as an object {name: fn-or-description} */
    if (cJSON_IsObject(tools) && get(tools, tool))
        return 1;
    return get(metadata, tool) != NULL;
}

static void list_tools(eous_buf *b, const cJSON *tools, const cJSON *metadata)
{
    int i = 0;
    const cJSON *t;
    const cJSON *src = (cJSON_IsArray(tools) || cJSON_IsObject(tools)) && tools->child ? tools : metadata;
    cJSON_ArrayForEach(t, src) {
        const char *name = cJSON_IsString(t) && cJSON_IsArray(src) ? t->valuestring
                           : cJSON_IsArray(src)                    ? eous_json_str(t, "name")
                                                                   : t->string;
        if (!name)
            continue;
        eous_buf_puts(b, i++ ? ", " : "", NULL);
        eous_buf_puts(b, name, NULL);
    }
    if (!i)
        eous_buf_puts(b, "none", NULL);
}

eous_rc act_validate_meta(const cJSON *tools, const cJSON *metadata, const char *tool, const cJSON *params,
                          eous_err *err)
{
    eous_rc rc = EOUS_OK;
    vctx c = {.tool = tool, .nfail = 0};
    eous_buf_init(&c.msg, 64 * 1024);
    if (!act_tool_exists(tools, metadata, tool)) {
        eous_buf b;
        eous_buf_init(&b, 8192);
        list_tools(&b, tools, metadata);
        rc = eous_err_set(err, EOUS_E_NOT_FOUND, "no tool \"%s\" (tools: %s)", tool ? tool : "",
                          b.data ? b.data : "none");
        eous_buf_free(&b);
        goto done;
    }
    if (params && !cJSON_IsObject(params)) {
        eous_buf_puts(&c.msg, "params must be an object like {\"name\": value} (got ", NULL);
        put_json(&c.msg, params, 80);
        eous_buf_putc(&c.msg, ')', NULL);
        c.nfail = 1;
        goto report;
    }
    cJSON *empty = NULL;
    if (!params)
        params = empty = cJSON_CreateObject();
    perc_tool_meta tm;
    perc_tool_meta_read(metadata, tool, &tm);
    if (tm.schema) {
        perc_spec schema;
        perc_spec_read(tm.schema, &schema);
        check(&c, &schema, params, "", 0, 0);
        /* unknown top-level params are refused whenever the schema lists properties */
        const cJSON *props = schema.properties;
        const cJSON *kv;
        if (props && !schema.additional) {
            cJSON_ArrayForEach(kv, params) {
                if (get(props, kv->string))
                    continue;
                eous_buf names;
                eous_buf_init(&names, 2048);
                put_names(&names, props);
                fail_text(&c, "unknown param \"%s\" (takes %s)", kv->string, names.data ? names.data : "");
                eous_buf_free(&names);
            }
        }
    } else if (tm.params) {
        const cJSON *p;
        cJSON_ArrayForEach(p, tm.params) {
            /* what the tools line printed for it: its own limits and the tool's that concern it */
            perc_param_meta pm;
            perc_param_meta_read(&tm, p, &pm);
            const cJSON *val = cJSON_GetObjectItemCaseSensitive(params, p->string);
            if (!val) {
                if (pm.required) {
                    eous_buf d;
                    eous_buf_init(&d, 2048);
                    describe(&pm.eff, &d, 0);
                    fail_text(&c, "missing %s (%s)", p->string, d.data ? d.data : "");
                    eous_buf_free(&d);
                }
            } else {
                check(&c, &pm.eff, val, p->string, 0, 1);
            }
        }
        const cJSON *kv;
        cJSON_ArrayForEach(kv, params) {
            if (get(tm.params, kv->string))
                continue;
            eous_buf names;
            eous_buf_init(&names, 2048);
            put_names(&names, tm.params);
            fail_text(&c, "unknown param \"%s\" (takes %s)", kv->string, names.data ? names.data : "");
            eous_buf_free(&names);
        }
    }
    cJSON_Delete(empty);
report:
    if (c.nfail)
        rc = eous_err_set(err, EOUS_E_REJECTED, "%s: %s", tool, c.msg.data ? c.msg.data : "invalid params");
done:
    eous_buf_free(&c.msg);
    return rc;
}

eous_rc act_validate(const perc_component *c, const char *tool, const cJSON *params, eous_err *err)
{
    if (!c)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "no component to call %s on", tool ? tool : "a tool");
    eous_rc rc = act_validate_meta(c->tools, c->metadata, tool, params, err);
    if (rc == EOUS_E_NOT_FOUND)
        return eous_err_prefix(err, "%s (%s \"%s\")", c->key ? c->key : "?", c->kind ? c->kind : "component",
                               c->label ? c->label : "");
    if (rc == EOUS_OK && c->disabled)
        return eous_err_set(err, EOUS_E_REJECTED, "%s: %s (%s \"%s\") is disabled; it takes no tool calls now",
                            tool, c->key ? c->key : "?", c->kind ? c->kind : "component", c->label ? c->label : "");
    return rc;
}

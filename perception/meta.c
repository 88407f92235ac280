/* perception/meta.c — a component tool's metadata M read once (see meta.h):
 * dated formats, one spec's limits under every alias, a tool's params with
 * the tool-level constraints that concern each folded in. */
#include "perception/meta.h"

#include <string.h>

/* ---- dated formats ---------------------------------------------------------------- */

const char *const PERC_META_BOUND_FORMATS[] = {
    "YYYY-MM-DD HH:mm:ss", "YYYY-MM-DDTHH:mm:ss", "YYYY-MM-DD HH:mm", "YYYY-MM-DDTHH:mm",
    "YYYY-MM-DD", "HH:mm:ss", "HH:mm", "YYYY-MM", "YYYY",
};
const size_t PERC_META_N_BOUND_FORMATS = sizeof PERC_META_BOUND_FORMATS / sizeof *PERC_META_BOUND_FORMATS;

/* JSON Schema names for dated formats; "time" takes seconds optionally. */
const char *perc_meta_canonical_format(const char *fmt)
{
    if (!fmt)
        return NULL;
    if (!strcmp(fmt, "date"))
        return "YYYY-MM-DD";
    if (!strcmp(fmt, "time"))
        return "HH:mm:ss";
    return fmt;
}

static int token_at(const char *f, int *field, int *width)
{
    static const struct { const char *tok; int field; } T[] = {
        {"YYYY", PERC_DT_Y}, {"MM", PERC_DT_MO}, {"DD", PERC_DT_D}, {"HH", PERC_DT_H}, {"mm", PERC_DT_MI}, {"ss", PERC_DT_S},
    };
    for (size_t i = 0; i < sizeof T / sizeof *T; i++) {
        size_t n = strlen(T[i].tok);
        if (!strncmp(f, T[i].tok, n)) {
            *field = T[i].field;
            *width = (int)n;
            return 1;
        }
    }
    return 0;
}

/* 1 when fmt is made of date/time tokens and separators only. */
int perc_meta_is_dated(const char *fmt)
{
    fmt = perc_meta_canonical_format(fmt);
    if (!fmt || !*fmt)
        return 0;
    int tokens = 0, field, width;
    while (*fmt) {
        if (token_at(fmt, &field, &width)) {
            tokens++;
            fmt += width;
        } else if (strchr("-:/. T", *fmt)) {
            fmt++;
        } else {
            return 0;
        }
    }
    return tokens > 0;
}

static int days_in_month(int y, int m)
{
    static const int D[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && (y < 0 || ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)))
        return 29;
    return D[m - 1];
}

/* Parses s against fmt from its start; *used gets the bytes consumed.
 * 0 ok, -1 wrong shape, -2 right shape but no such date or time. */
int perc_meta_parse_dated_prefix(const char *fmt, const char *s, perc_dated *out, size_t *used)
{
    memset(out, 0, sizeof *out);
    const char *p = s;
    int field, width;
    while (*fmt) {
        if (token_at(fmt, &field, &width)) {
            int v = 0;
            for (int i = 0; i < width; i++) {
                if (p[i] < '0' || p[i] > '9')
                    return -1;
                v = v * 10 + (p[i] - '0');
            }
            out->has |= 1u << field;
            out->f[field] = v;
            p += width;
            fmt += width;
        } else {
            if (*p != *fmt)
                return -1;
            p++;
            fmt++;
        }
    }
    *used = (size_t)(p - s);
    if ((out->has & (1u << PERC_DT_MO)) && (out->f[PERC_DT_MO] < 1 || out->f[PERC_DT_MO] > 12))
        return -2;
    if (out->has & (1u << PERC_DT_D)) {
        int y = (out->has & (1u << PERC_DT_Y)) ? out->f[PERC_DT_Y] : -1;
        int m = (out->has & (1u << PERC_DT_MO)) ? out->f[PERC_DT_MO] : 1;
        if (out->f[PERC_DT_D] < 1 || out->f[PERC_DT_D] > ((out->has & (1u << PERC_DT_MO)) ? days_in_month(y, m) : 31))
            return -2;
    }
    if ((out->has & (1u << PERC_DT_H)) && out->f[PERC_DT_H] > 23)
        return -2;
    if ((out->has & (1u << PERC_DT_MI)) && out->f[PERC_DT_MI] > 59)
        return -2;
    if ((out->has & (1u << PERC_DT_S)) && out->f[PERC_DT_S] > 59)
        return -2;
    return 0;
}

/* A value must match its format exactly ("time" also takes HH:mm). */
int perc_meta_parse_dated(const char *fmt, const char *s, perc_dated *out)
{
    int is_time = fmt && !strcmp(fmt, "time");
    fmt = perc_meta_canonical_format(fmt);
    size_t used = 0;
    int rc = perc_meta_parse_dated_prefix(fmt, s, out, &used);
    if (rc == 0 && s[used])
        rc = -1;
    if (rc == -1 && is_time) {
        rc = perc_meta_parse_dated_prefix("HH:mm", s, out, &used);
        if (rc == 0 && s[used])
            rc = -1;
    }
    return rc;
}

/* ---- one spec ----------------------------------------------------------------------- */

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* The first of keys present and not null. */
static const cJSON *get_any(const cJSON *o, const char *const *keys)
{
    for (; *keys; keys++) {
        const cJSON *v = get(o, *keys);
        if (v && !cJSON_IsNull(v))
            return v;
    }
    return NULL;
}

static const cJSON *number(const cJSON *v)
{
    return cJSON_IsNumber(v) ? v : NULL;
}

static const char *const K_MIN[] = {"min", "minimum", "minDate", "formatMinimum", NULL};
static const char *const K_MAX[] = {"max", "maximum", "maxDate", "formatMaximum", NULL};
static const char *const K_STEP[] = {"step", "multipleOf", NULL};
static const char *const K_DISABLED[] = {"disabled", "disabledDates", "disabledValues", NULL};

/* Every key perc_limits reads, "format" (shown with the type) and "required" (shown as no "?"). */
static const char *const LIMIT_KEYS[] = {"min", "max", "minimum", "maximum", "minDate", "maxDate",
                                         "formatMinimum", "formatMaximum", "exclusiveMinimum", "exclusiveMaximum",
                                         "minLength", "maxLength", "pattern", "step", "multipleOf", "disabled",
                                         "disabledDates", "disabledValues", "minItems", "maxItems", "uniqueItems",
                                         "format", "required", NULL};

int perc_meta_is_limit_key(const char *key)
{
    for (const char *const *k = LIMIT_KEYS; *k; k++)
        if (!strcmp(*k, key))
            return 1;
    return 0;
}

static void read_limits(const cJSON *o, perc_limits *l)
{
    memset(l, 0, sizeof *l);
    l->min = get_any(o, K_MIN);
    l->max = get_any(o, K_MAX);
    l->xmin = number(get(o, "exclusiveMinimum"));
    l->xmax = number(get(o, "exclusiveMaximum"));
    l->step = number(get_any(o, K_STEP));
    l->min_len = number(get(o, "minLength"));
    l->max_len = number(get(o, "maxLength"));
    const cJSON *pat = get(o, "pattern");
    l->pattern = cJSON_IsString(pat) ? pat->valuestring : NULL;
    for (const char *const *k = K_DISABLED; *k && !l->disabled; k++)
        if (cJSON_IsArray(get(o, *k)))
            l->disabled = get(o, *k);
    l->min_items = number(get(o, "minItems"));
    l->max_items = number(get(o, "maxItems"));
    l->unique_items = cJSON_IsTrue(get(o, "uniqueItems"));
}

int perc_limits_any(const perc_limits *l)
{
    return l->min || l->max || l->xmin || l->xmax || l->step || l->min_len || l->max_len || l->pattern ||
           l->disabled || l->min_items || l->max_items || l->unique_items;
}

/* The format a spec means: declared, implied by type date/time, or (none
 * declared) the shape of its dated bounds. */
static void resolve_format(perc_spec *s)
{
    s->format = s->declared_format;
    if (!s->format && s->type_name && !strcmp(s->type_name, "date"))
        s->format = "YYYY-MM-DD";
    if (!s->format && s->type_name && !strcmp(s->type_name, "time"))
        s->format = "time";
    const cJSON *b = cJSON_IsString(s->lim.min) ? s->lim.min : s->lim.max;
    if (!s->format && cJSON_IsString(b)) {
        for (size_t i = 0; i < PERC_META_N_BOUND_FORMATS; i++) {
            perc_dated d;
            if (perc_meta_parse_dated(PERC_META_BOUND_FORMATS[i], b->valuestring, &d) == 0) {
                s->format = PERC_META_BOUND_FORMATS[i];
                break;
            }
        }
    }
    s->dated = perc_meta_is_dated(s->format);
}

void perc_spec_read(const cJSON *json, perc_spec *out)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(json))
        return;
    out->json = json;
    const cJSON *t = get(json, "type");
    out->type = cJSON_IsString(t) || cJSON_IsArray(t) ? t : NULL;
    out->type_name = cJSON_IsString(t) ? t->valuestring : NULL;
    const cJSON *f = get(json, "format");
    out->declared_format = cJSON_IsString(f) ? f->valuestring : NULL;
    out->enumeration = cJSON_IsArray(get(json, "enum")) ? get(json, "enum") : NULL;
    out->constant = get(json, "const");
    out->items = cJSON_IsObject(get(json, "items")) ? get(json, "items") : NULL;
    out->properties = cJSON_IsObject(get(json, "properties")) ? get(json, "properties") : NULL;
    out->required_names = cJSON_IsArray(get(json, "required")) ? get(json, "required") : NULL;
    out->additional = get(json, "additionalProperties");
    out->required = cJSON_IsTrue(get(json, "required"));
    read_limits(json, &out->lim);
    resolve_format(out);
}

/* ---- one tool and its params ----------------------------------------------------------- */

void perc_tool_meta_read(const cJSON *metadata, const char *tool, perc_tool_meta *out)
{
    memset(out, 0, sizeof *out);
    out->name = tool;
    const cJSON *m = tool ? get(metadata, tool) : NULL;
    if (!cJSON_IsObject(m))
        return;
    out->json = m;
    const cJSON *schema = get(m, "inputSchema");
    if (!schema)
        schema = get(m, "input_schema");
    const cJSON *pmap = get(m, "params");
    if (!schema && cJSON_IsObject(pmap) && cJSON_IsString(get(pmap, "type")))
        schema = pmap; /* params written as a JSON Schema */
    if (cJSON_IsObject(schema)) {
        out->schema = schema;
        out->params = cJSON_IsObject(get(schema, "properties")) ? get(schema, "properties") : NULL;
    } else {
        out->params = cJSON_IsObject(pmap) ? pmap : NULL;
    }
    out->n_params = cJSON_GetArraySize(out->params);
    out->constraints = cJSON_IsObject(get(m, "constraints")) ? get(m, "constraints") : NULL;
    for (const cJSON *k = out->constraints ? out->constraints->child : NULL; k; k = k->next)
        if (!cJSON_IsObject(k))
            out->flat = 1;
    out->disabled_dates = cJSON_IsArray(get(m, "disabledDates")) ? get(m, "disabledDates") : NULL;
}

/* l gets every limit kind it lacks from t (what is already there wins). */
static void merge_limits(perc_limits *l, const perc_limits *t)
{
    if (!l->min) l->min = t->min;
    if (!l->max) l->max = t->max;
    if (!l->xmin) l->xmin = t->xmin;
    if (!l->xmax) l->xmax = t->xmax;
    if (!l->step) l->step = t->step;
    if (!l->min_len) l->min_len = t->min_len;
    if (!l->max_len) l->max_len = t->max_len;
    if (!l->pattern) l->pattern = t->pattern;
    if (!l->disabled) l->disabled = t->disabled;
    if (!l->min_items) l->min_items = t->min_items;
    if (!l->max_items) l->max_items = t->max_items;
    if (!l->unique_items) l->unique_items = t->unique_items;
}

void perc_param_meta_read(const perc_tool_meta *t, const cJSON *p, perc_param_meta *out)
{
    memset(out, 0, sizeof *out);
    out->name = p ? p->string : NULL;
    perc_spec_read(p, &out->own);
    out->required = out->own.required;
    const cJSON *r;
    cJSON_ArrayForEach(r, get(t->schema, "required")) {
        if (cJSON_IsString(r) && out->name && !strcmp(r->valuestring, out->name))
            out->required = 1;
    }
    const cJSON *named = out->name ? get(t->constraints, out->name) : NULL;
    int tool_inline = 0, disabled_inline = 0;
    if (cJSON_IsObject(named)) {
        out->tool_spec = named;
        tool_inline = 1;
    } else if (t->constraints && (t->n_params == 1 || out->own.dated)) {
        /* flat constraints: the only param's, or every dated param's */
        out->tool_spec = t->constraints;
        tool_inline = t->n_params == 1;
    }
    perc_spec_read(out->tool_spec, &out->tool);
    /* the seed paper puts disabledDates beside params */
    if (t->disabled_dates && (t->n_params == 1 || out->own.dated)) {
        out->tool_disabled = t->disabled_dates;
        disabled_inline = t->n_params == 1;
    }
    perc_limits dis = {0};
    dis.disabled = out->tool_disabled;
    out->eff = out->own;
    merge_limits(&out->eff.lim, &out->tool.lim);
    merge_limits(&out->eff.lim, &dis);
    if (cJSON_IsObject(named)) { /* a param's own constraints may give its type and format too */
        perc_spec *e = &out->eff;
        if (!e->type) e->type = out->tool.type, e->type_name = out->tool.type_name;
        if (!e->declared_format) e->declared_format = out->tool.declared_format;
        if (!e->enumeration) e->enumeration = out->tool.enumeration;
        if (!e->constant) e->constant = out->tool.constant;
        if (!e->items) e->items = out->tool.items;
        if (!e->required) e->required = out->tool.required;
    }
    out->required = out->required || out->eff.required; /* the tools line drops its "?" as the validator requires it */
    resolve_format(&out->eff);
    out->shown = out->own.lim;
    if (tool_inline)
        merge_limits(&out->shown, &out->tool.lim);
    if (disabled_inline)
        merge_limits(&out->shown, &dis);
    out->tool_inline = tool_inline;
}

/* agent/distill.c — a model's passed run as a plain job (see distill.h).
 *
 * The trace holds, for each step, the action as the model wrote it (view ids)
 * and the view it acted on (trace/<task>-<mode>/step-NN.txt, a full view or a
 * delta against the one before).  The views are rebuilt line by line into a
 * table of id -> role and name, and each action's ids are written as what that
 * table says, which the script resolver (actions/target.c, call.c) finds again. */
#define _GNU_SOURCE
#include "agent/distill.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"

#define DV_DELTA_HEADER "(changes since the last observation)"
#define DV_MAX_FILE (64u << 20)
#define DV_MAX_KEYS 400 /* a slider's keys pressed at most (each is a replay step) */

/* ---- the view as the model saw it ----------------------------------------------- */

typedef struct dv_entry {
    char id[32];
    char role[64];  /* AX role, component kind, or "" for a page tool */
    char *name;     /* accessible name, component label, or the page tool's name */
} dv_entry;

typedef struct dv_view {
    dv_entry *e;
    size_t n, cap;
    int exact; /* 1: entries are in the page's order (a full view, no delta added lines since) */
} dv_view;

static void view_clear(dv_view *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->e[i].name);
    v->n = 0;
}

static dv_entry *view_find(dv_view *v, const char *id)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->e[i].id, id))
            return &v->e[i];
    return NULL;
}

/* The end of a quoted name starting after q at s: the quote followed by the line's end, a space or
 * an arrow (a name may hold the quote itself, as "Ada's"). */
static const char *name_end(const char *s, char q)
{
    const char *last = NULL;
    for (const char *p = s; *p && *p != '\n'; p++)
        if (*p == q && (!p[1] || p[1] == '\n' || p[1] == ' ')) {
            last = p;
            /* the first quote followed by " attr:" or " →" or the end closes it */
            const char *r = p + 1;
            if (!*r || *r == '\n' || !strncmp(r, " \xe2\x86\x92", 4))
                return p;
            while (*r == ' ')
                r++;
            const char *w = r;
            while (*w && (isalnum((unsigned char)*w) || *w == '_' || *w == '-'))
                w++;
            if (w > r && *w == ':')
                return p;
        }
    return last;
}

/* A Python repr() string body from s (after its opening quote q), as the atomic view writes
 * names (perception/view_atomic.c perc_py_repr), decoded into a new string; NULL when it does
 * not close. */
static char *repr_decode(const char *s, char q)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (const char *p = s; out && *p && *p != '\n'; p++) {
        if (*p == q) {
            *o = '\0';
            return out;
        }
        if (*p != '\\' || !p[1]) {
            *o++ = *p;
            continue;
        }
        unsigned cp = 0;
        int hex = 0;
        switch (*++p) {
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'x': hex = 2; break;
        case 'u': hex = 4; break;
        default: *o++ = *p; break;
        }
        for (int i = 0; i < hex; i++) {
            if (!isxdigit((unsigned char)p[1]))
                break;
            char d = (char)tolower((unsigned char)*++p);
            cp = cp * 16 + (unsigned)(isdigit((unsigned char)d) ? d - '0' : d - 'a' + 10);
        }
        if (!hex)
            continue;
        if (cp < 0x80) { /* the code point as UTF-8 (the escapes stop below U+10000) */
            *o++ = (char)cp;
        } else if (cp < 0x800) {
            *o++ = (char)(0xC0 | (cp >> 6));
            *o++ = (char)(0x80 | (cp & 0x3F));
        } else {
            *o++ = (char)(0xE0 | (cp >> 12));
            *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
            *o++ = (char)(0x80 | (cp & 0x3F));
        }
    }
    free(out);
    return NULL;
}

/* One printed line "[id] role 'name' ...", the hybrid's "role [id] 'name' ..." or "[cN] tool_name(...)"
 * into out (name allocated):
 * 0, or -1 when the line names no id.  repr: names are Python reprs (the atomic and pruned
 * views); else as the hybrid view writes them, unescaped. */
static int parse_line(const char *line, int repr, dv_entry *out)
{
    while (*line == ' ' || *line == '\t' || *line == '+' || *line == '~')
        line++;
    memset(out, 0, sizeof *out);
    const char *r = NULL;
    size_t i = 0;
    if (*line != '[') { /* the hybrid view writes an element "role [id] 'name'" */
        while (line[i] && line[i] != ' ' && line[i] != '\n')
            i++;
        if (!i || i >= sizeof out->role || line[i] != ' ' || line[i + 1] != '[')
            return -1;
        memcpy(out->role, line, i);
        r = line + i + 1;
    } else {
        r = line;
    }
    const char *close = strchr(r, ']');
    if (!close || close - r - 1 <= 0 || close - r - 1 >= (long)sizeof out->id || memchr(r, '\n', (size_t)(close - r)))
        return -1;
    memcpy(out->id, r + 1, (size_t)(close - r - 1));
    r = close + 1;
    if (*r++ != ' ')
        return -1;
    if (!out->role[0]) { /* "[id] role 'name'" or "[cN] tool_name(...)" */
        i = 0;
        while (r[i] && r[i] != ' ' && r[i] != '(' && r[i] != '\'' && r[i] != '\n')
            i++;
        if (!i || i >= sizeof out->role)
            return -1;
        if (r[i] == '(') { /* a page tool: its name is its label */
            out->name = strndup(r, i);
            return out->name ? 0 : -1;
        }
        memcpy(out->role, r, i);
        r += i;
    } else {
        r--; /* at the blank before the name */
    }
    if (r[0] != ' ' || (r[1] != '\'' && r[1] != '"'))
        return -1;
    if (repr) {
        out->name = repr_decode(r + 2, r[1]);
        return out->name ? 0 : -1;
    }
    const char *end = name_end(r + 2, r[1]);
    if (!end)
        return -1;
    out->name = strndup(r + 2, (size_t)(end - r - 2));
    return out->name ? 0 : -1;
}

/* e into v: in place of the entry with its id, else at index at (-1: at the end, its place among
 * the others not known). */
static eous_rc view_put(dv_view *v, dv_entry *e, long at, eous_err *err)
{
    dv_entry *old = view_find(v, e->id);
    if (old) {
        free(old->name);
        *old = *e;
        return EOUS_OK;
    }
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 256;
        dv_entry *ne = realloc(v->e, cap * sizeof *ne);
        if (!ne) {
            free(e->name);
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
        v->e = ne;
        v->cap = cap;
    }
    if (at < 0 || (size_t)at > v->n) {
        v->e[v->n++] = *e;
        v->exact = 0; /* a line a delta added below no line of the view: its place is not known */
        return EOUS_OK;
    }
    memmove(&v->e[at + 1], &v->e[at], (v->n - (size_t)at) * sizeof *v->e);
    v->e[at] = *e;
    v->n++;
    return EOUS_OK;
}

/* The entry with id removed, the others kept in their order. */
static void view_remove(dv_view *v, const char *id)
{
    dv_entry *e = view_find(v, id);
    if (!e)
        return;
    free(e->name);
    size_t i = (size_t)(e - v->e);
    memmove(&v->e[i], &v->e[i + 1], (v->n - i - 1) * sizeof *v->e);
    v->n--;
}

/* The view after the model read text (a full view, or a delta against the view before). */
static eous_rc view_update(dv_view *v, const char *text, int repr, eous_err *err)
{
    int delta = !strncmp(text, DV_DELTA_HEADER, strlen(DV_DELTA_HEADER)), removed = 0, added = 0;
    long at = -1; /* in the added section: where the next "+ " line goes (after the context line above it) */
    if (!delta) {
        view_clear(v);
        v->exact = 1;
    }
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (delta && !strncmp(p, "removed:", 8))
            removed = 1, added = 0;
        else if (delta && !strncmp(p, "added:", 6))
            removed = 0, added = 1, at = -1;
        else if (delta && !strncmp(p, "changed components:", 19))
            removed = 0, added = 0;
        dv_entry e;
        if (removed && !strncmp(p, "- ", 2)) {
            char id[32] = "";
            if (parse_line(p + 2, repr, &e) == 0) { /* the hybrid's "- role [id] 'name'" */
                snprintf(id, sizeof id, "%s", e.id);
                free(e.name);
            } else if (!strncmp(p, "- [", 3) && sscanf(p + 3, "%31[^]]", id) != 1) {
                id[0] = '\0';
            }
            if (id[0])
                view_remove(v, id);
            continue;
        }
        int plus = !strncmp(p, "+ ", 2);
        if (added && !plus && strncmp(p, "added:", 6)) { /* a context line: the added lines go below it */
            dv_entry *anchor = NULL;
            if (parse_line(p, repr, &e) == 0) {
                anchor = view_find(v, e.id);
                free(e.name);
            }
            at = anchor ? (long)(anchor - v->e) + 1 : -1;
            continue;
        }
        if (!removed && parse_line(p, repr, &e) == 0) {
            long where = !delta ? (long)v->n : added && plus ? at : -1;
            int known = view_find(v, e.id) != NULL;
            eous_rc rc = view_put(v, &e, where, err);
            if (rc)
                return rc;
            if (added && plus && at >= 0 && !known)
                at++;
        }
    }
    return EOUS_OK;
}

/* ---- naming a target ---------------------------------------------------------- */

/* The heading entry e stands under in v (the last heading above it), or "" when none. */
static const char *heading_of(const dv_view *v, const dv_entry *e)
{
    for (const dv_entry *p = e; p-- > v->e;)
        if (!strcmp(p->role, "heading"))
            return p->name;
    return "";
}

/* 1 when e's heading is its own among the entries of its role and name (it tells e apart). */
static int heading_tells_apart(const dv_view *v, const dv_entry *e)
{
    const char *h = heading_of(v, e);
    if (!*h || strchr(h, '\'') || strchr(h, '"'))
        return 0;
    for (size_t i = 0; i < v->n; i++)
        if (&v->e[i] != e && !strcmp(v->e[i].role, e->role) && !strcmp(v->e[i].name, e->name) &&
            !strcmp(heading_of(v, &v->e[i]), h))
            return 0;
    return 1;
}

/* The script target for view id id ("12", "c3") into out: "role 'name'", "kind 'label'", a page
 * tool's name; when several share it, " under 'Heading'" where the heading above it tells it apart
 * (under: not for a call, whose target names a component) or " #N".  EOUS_E_INVALID naming the step
 * otherwise. */
static eous_rc name_target(dv_view *v, const char *id, int under, int step, const char *action, char *out,
                           size_t n, eous_err *err)
{
    const dv_entry *e = view_find(v, id);
    if (!e)
        return eous_err_set(err, EOUS_E_INVALID, "step %d (%s): [%s] is not in the view it acted on", step, action,
                            id);
    if (!e->role[0]) { /* a page tool: its name is unique among the page's tools */
        snprintf(out, n, "%s", e->name);
        return EOUS_OK;
    }
    int same = 0, nth = 0;
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->e[i].role, e->role) && !strcmp(v->e[i].name, e->name)) {
            same++;
            if (&v->e[i] == e)
                nth = same;
        }
    if (same > 1 && !v->exact)
        return eous_err_set(err, EOUS_E_INVALID,
                            "step %d (%s): %s '%s' names %d things in its view and their order is not known "
                            "(a delta added some)",
                            step, action, e->role, e->name, same);
    char q = strchr(e->name, '\'') ? '"' : '\'';
    if (q == '"' && strchr(e->name, '"'))
        return eous_err_set(err, EOUS_E_INVALID, "step %d (%s): the name of [%s] holds both quotes", step, action,
                            id);
    if (same > 1 && under && heading_tells_apart(v, e))
        snprintf(out, n, "%s %c%s%c under '%s'", e->role, q, e->name, q, heading_of(v, e));
    else if (same > 1)
        snprintf(out, n, "%s %c%s%c #%d", e->role, q, e->name, q, nth);
    else
        snprintf(out, n, "%s %c%s%c", e->role, q, e->name, q);
    return EOUS_OK;
}

/* ---- parameters: the typed values the intent holds ------------------------------ */

typedef struct dv_params {
    const char *intent;
    cJSON *decl;  /* {NAME: {"default", "description"}} */
    cJSON *names; /* {key: "Label"}: the options a hybrid line's tools print as key=Label */
    cJSON *boxes; /* {"c8": "email | sms"}: what each checkbox group held in the last view that printed it */
    cJSON *over;  /* {"3": [steps]}: step 3's call as atomic steps a view told (a checkbox group's clicks) */
} dv_params;

/* 1 when value is in the intent as a whole word or phrase (worth a parameter). */
static int in_intent(const char *intent, const char *value)
{
    size_t n = strlen(value);
    if (n < 3 || strstr(value, "{{"))
        return 0;
    for (const char *p = intent ? strstr(intent, value) : NULL; p; p = strstr(p + 1, value))
        if ((p == intent || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
            return 1;
    return 0;
}

/* The parameter holding value (an existing one, else a new one named from label), as its
 * placeholder in out; 0 when value is no parameter. */
static int param_for(dv_params *ps, const char *value, const char *label, int step, char *out, size_t n)
{
    if (!in_intent(ps->intent, value))
        return 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, ps->decl)
    {
        const char *d = eous_json_str(it, "default");
        if (d && !strcmp(d, value)) {
            snprintf(out, n, "{{param:%s}}", it->string);
            return 1;
        }
    }
    char base[48] = "";
    size_t k = 0;
    for (const char *p = label; p && *p && k < 40; p++) {
        if (isalnum((unsigned char)*p))
            base[k++] = (char)toupper((unsigned char)*p);
        else if (k && base[k - 1] != '_')
            base[k++] = '_';
    }
    while (k && base[k - 1] == '_')
        k--;
    base[k] = '\0';
    if (!k || isdigit((unsigned char)base[0]))
        snprintf(base, sizeof base, "VALUE");
    char name[64];
    snprintf(name, sizeof name, "%s", base);
    for (int i = 2; cJSON_GetObjectItemCaseSensitive(ps->decl, name); i++)
        snprintf(name, sizeof name, "%s_%d", base, i);
    cJSON *d = cJSON_CreateObject();
    char desc[160];
    snprintf(desc, sizeof desc, "typed into %.100s at step %d", label && *label ? label : "a field", step);
    if (!d || !cJSON_AddStringToObject(d, "default", value) || !cJSON_AddStringToObject(d, "description", desc) ||
        !cJSON_AddItemToObject(ps->decl, name, d)) {
        cJSON_Delete(d);
        return 0;
    }
    snprintf(out, n, "{{param:%s}}", name);
    return 1;
}

/* 1 when a call's parameter key says only what kind of value it is (its component's label says more). */
static int generic_key(const char *k)
{
    static const char *const keys[] = {"text", "value", "values", "date", "time", "query", "path"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(k, keys[i]))
            return 1;
    return 0;
}

/* Every string of a call's params (copied in place) that the intent holds, as its parameter,
 * named after its key (a form's field, a table's column), or label when the key is generic. */
static void params_in_json(dv_params *ps, cJSON *j, const char *label, int fields, int step)
{
    cJSON *it;
    cJSON_ArrayForEach(it, j)
    {
        char ph[96];
        const char *name = it->string && (fields || !generic_key(it->string)) ? it->string : label;
        if (cJSON_IsString(it) && param_for(ps, it->valuestring, name, step, ph, sizeof ph))
            cJSON_SetValuestring(it, ph);
        else if (cJSON_IsArray(it) || cJSON_IsObject(it))
            params_in_json(ps, it, label, fields, step);
    }
}

/* s with each parameter's value (of 4 characters or more, as a whole word) written as its
 * placeholder; caller frees. */
static char *with_placeholders(const dv_params *ps, const char *s)
{
    char *cur = strdup(s ? s : "");
    const cJSON *it;
    cJSON_ArrayForEach(it, ps->decl)
    {
        const char *v = eous_json_str(it, "default");
        if (!cur || !v || strlen(v) < 4 || !in_intent(cur, v))
            continue;
        const char *p = strstr(cur, v);
        while (p && ((p > cur && isalnum((unsigned char)p[-1])) || isalnum((unsigned char)p[strlen(v)])))
            p = strstr(p + 1, v);
        if (!p)
            continue;
        char *next = NULL;
        if (asprintf(&next, "%.*s{{param:%s}}%s", (int)(p - cur), cur, it->string, p + strlen(v)) < 0)
            next = NULL;
        free(cur);
        cur = next;
    }
    return cur;
}

/* ---- one action as a script step ------------------------------------------------ */

/* The target of a as the step's view names it into t (placeholders for parameter values). */
static eous_rc step_target(dv_view *v, dv_params *ps, const act_action *a, int step, const char *text, char *t,
                           size_t n, eous_err *err)
{
    char id[32];
    snprintf(id, sizeof id, "%s", a->target[0] == '[' ? a->target + 1 : a->target);
    id[strcspn(id, "]")] = '\0';
    eous_rc rc = name_target(v, id, a->kind != ACT_CALL, step, text, t, n, err);
    if (rc)
        return rc;
    char *p = with_placeholders(ps, t);
    if (!p)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    snprintf(t, n, "%s", p);
    free(p);
    return EOUS_OK;
}

/* The label a typed value is named after: the target's name without the view's "* " mark. */
static const char *label_of(const char *target)
{
    const char *q = strpbrk(target, "'\"");
    if (!q)
        return target;
    q++;
    return !strncmp(q, "* ", 2) ? q + 2 : q;
}

static eous_rc step_value(dv_params *ps, const char *value, const char *target, int step, char *out, size_t n)
{
    char label[128];
    snprintf(label, sizeof label, "%s", label_of(target));
    label[strcspn(label, "'\"")] = '\0';
    if (!param_for(ps, value, label, step, out, n))
        snprintf(out, n, "%s", value);
    return EOUS_OK;
}

/* The script step doing what a did, into *out (NULL: a step with nothing to replay). */
static eous_rc step_of(dv_view *v, dv_params *ps, const act_action *a, int step, const char *text, cJSON **out,
                       eous_err *err)
{
    char t[1024] = "", val[2048];
    cJSON *s = cJSON_CreateObject();
    eous_rc rc = s ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!rc && (act_kind_has_target(a->kind) || a->kind == ACT_READ)) /* a read names what it reads too */
        rc = step_target(v, ps, a, step, text, t, sizeof t, err);
    if (rc)
        goto done;
    switch (a->kind) {
    case ACT_CALL: {
        cJSON *p = a->params ? cJSON_Duplicate(a->params, 1) : cJSON_CreateObject();
        char label[128];
        snprintf(label, sizeof label, "%s", label_of(t));
        label[strcspn(label, "'\"")] = '\0';
        if (p)
            params_in_json(ps, p, label, a->tool && (!strcmp(a->tool, "fill") || !strcmp(a->tool, "submit")), step);
        cJSON_AddStringToObject(s, "call", t);
        cJSON_AddStringToObject(s, "tool", a->tool);
        cJSON_AddItemToObject(s, "params", p);
        break;
    }
    case ACT_CLICK: cJSON_AddStringToObject(s, "click", t); break;
    case ACT_HOVER: cJSON_AddStringToObject(s, "hover", t); break;
    case ACT_TYPE:
        step_value(ps, a->text ? a->text : "", t, step, val, sizeof val);
        cJSON_AddStringToObject(s, "type", t);
        cJSON_AddStringToObject(s, "text", val);
        cJSON_AddBoolToObject(s, "enter", a->enter);
        if (!a->clear)
            cJSON_AddBoolToObject(s, "clear", 0);
        break;
    case ACT_SELECT:
        step_value(ps, a->text ? a->text : "", t, step, val, sizeof val);
        cJSON_AddStringToObject(s, "select", t);
        cJSON_AddStringToObject(s, "option", val);
        break;
    case ACT_READ:
        cJSON_AddStringToObject(s, "read", t);
        cJSON_AddStringToObject(s, "as", eous_json_str(a->params, "as") ? eous_json_str(a->params, "as") : "value");
        cJSON_AddStringToObject(s, "what",
                                eous_json_str(a->params, "what") ? eous_json_str(a->params, "what") : "text");
        break;
    case ACT_PRESS: cJSON_AddStringToObject(s, "press", a->text); break;
    case ACT_SCROLL: cJSON_AddStringToObject(s, "scroll", a->text); break;
    case ACT_GOTO: cJSON_AddStringToObject(s, "goto", a->text); break;
    case ACT_GO_BACK: cJSON_AddTrueToObject(s, "go_back"); break;
    case ACT_GO_FORWARD: cJSON_AddTrueToObject(s, "go_forward"); break;
    case ACT_CLOSE_TAB: cJSON_AddTrueToObject(s, "close_tab"); break;
    case ACT_TAB_FOCUS: cJSON_AddNumberToObject(s, "tab_focus", a->index); break;
    case ACT_STOP: cJSON_AddStringToObject(s, "stop", a->text ? a->text : ""); break;
    default: rc = eous_err_set(err, EOUS_E_INVALID, "step %d (%s): no script step does this", step, text); break;
    }
done:
    if (rc)
        cJSON_Delete(s);
    else
        *out = s;
    return rc;
}

/* ---- a call as atomic steps (what atomic mode, whose view prints no component, replays) ---- */

/* A quoted script target "kind 'text'" into out ('"' when text holds a quote). */
static void quoted(char *out, size_t n, const char *kind, const char *text)
{
    snprintf(out, n, "%s %c%s%c", kind, strchr(text, '\'') ? '"' : '\'', text, strchr(text, '\'') ? '"' : '\'');
}

static cJSON *atomic_type(const char *target, const cJSON *value, int enter)
{
    cJSON *s = cJSON_CreateObject();
    char num[64];
    if (cJSON_IsNumber(value))
        snprintf(num, sizeof num, "%g", value->valuedouble);
    cJSON_AddStringToObject(s, "type", target);
    cJSON_AddStringToObject(s, "text", cJSON_IsNumber(value) ? num : value->valuestring);
    cJSON_AddBoolToObject(s, "enter", enter);
    return s;
}

static cJSON *atomic_one(const char *verb, const char *target)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, verb, target);
    return s;
}

/* The name a person picks an option value by, into out: its label where the view printed key=Label,
 * else the key with its '-' and '_' as blanks ("frontend-engineer": "frontend engineer", which the
 * resolver and grounding match case aside); a parameter as it is. */
static const char *option_name(const cJSON *names, const char *value, char *out, size_t n)
{
    const char *label = eous_json_str(names, value);
    if (strstr(value, "{{"))
        return value;
    snprintf(out, n, "%s", label ? label : value);
    for (char *c = out; !label && *c; c++)
        if (*c == '-' || *c == '_')
            *c = ' ';
    return out;
}

/* The steps a person takes for a widget's call that sets no text (a step of a wizard, a radio
 * group's option, a tab, a tree select's item, a column's sort, a field cleared, a multiple
 * select's option) appended to out: the values as the options' names, which the resolver takes
 * loosely ("public" for radio 'Public'); 0, or -1 when none are known. */
static int atomic_of_widget(const char *kind, const char *field, const char *tool, const cJSON *params,
                            const cJSON *names, cJSON *out)
{
    char t[600], shown[256];
    const char *value = eous_json_str(params, "value"), *key = eous_json_str(params, "key");
    if (!strcmp(kind, "steps") && (!strcmp(tool, "next") || !strcmp(tool, "prev"))) {
        cJSON_AddItemToArray(out, atomic_one("click", !strcmp(tool, "next") ? "button 'Next'" : "button 'Previous'"));
        return 0;
    }
    if (!strcmp(tool, "clear") && (!strcmp(kind, "input") || !strcmp(kind, "textarea"))) {
        cJSON *empty = cJSON_CreateString("");
        cJSON_AddItemToArray(out, atomic_type(field, empty, 0));
        cJSON_Delete(empty);
        return 0;
    }
    const char *role = !strcmp(kind, "radiogroup") && value && !strcmp(tool, "setValue") ? "radio"
                       : !strcmp(kind, "tabs") && key && !strcmp(tool, "setTab")     ? "tab"
                       : !strcmp(kind, "treeselect") && value && !strcmp(tool, "setValue") ? "treeitem"
                                                                                            : NULL;
    if (role) { /* a tree select opens on its field first */
        if (!strcmp(role, "treeitem"))
            cJSON_AddItemToArray(out, atomic_one("click", field));
        quoted(t, sizeof t, role, value ? option_name(names, value, shown, sizeof shown) : key);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(params, "path"), *level;
    int levels = cJSON_IsArray(path) && cJSON_GetArraySize(path) > 0;
    cJSON_ArrayForEach(level, path) levels &= cJSON_IsString(level);
    if (!strcmp(kind, "cascader") && !strcmp(tool, "setValue") && levels) {
        quoted(t, sizeof t, "combobox", field); /* its label alone names a column's header too */
        cJSON_AddItemToArray(out, atomic_one("click", t));
        cJSON_ArrayForEach(level, path) /* a level with levels under it names its icon */
        {
            char item[300];
            snprintf(item, sizeof item, "%s%s", option_name(names, level->valuestring, shown, sizeof shown),
                     level->next ? " right" : "");
            quoted(t, sizeof t, "menuitemcheckbox", item);
            cJSON_AddItemToArray(out, atomic_one("click", t));
        }
        return 0;
    }
    const cJSON *query = cJSON_GetObjectItemCaseSensitive(params, "query");
    if (!strcmp(kind, "cascader") && !strcmp(tool, "search") && cJSON_IsString(query)) {
        /* its field takes no text: a person opens it and the first level's item the query names, whose
         * levels under it then show (a query that is no such item fails there, naming it) */
        char item[300];
        quoted(t, sizeof t, "combobox", field);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        snprintf(item, sizeof item, "%s right", query->valuestring);
        quoted(t, sizeof t, "menuitemcheckbox", item);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    const char *column = eous_json_str(params, "column"), *order = eous_json_str(params, "order");
    if (!strcmp(kind, "table") && !strcmp(tool, "sort") && column && order &&
        (!strcmp(order, "ascend") || !strcmp(order, "descend"))) {
        quoted(t, sizeof t, "columnheader", column); /* a header's clicks go ascending, then descending */
        for (int i = !strcmp(order, "ascend") ? 1 : 2; i > 0; i--)
            cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    if (!strcmp(kind, "select") && !strcmp(tool, "select") && value) { /* a multiple select stays open */
        cJSON *sel = atomic_one("select", field);
        cJSON_AddStringToObject(sel, "option", value);
        cJSON_AddItemToArray(out, sel);
        cJSON_AddItemToArray(out, atomic_one("press", "Escape"));
        return 0;
    }
    return -1;
}

/* The atomic steps doing call step s on a component kind 'label' (the field by its label, a
 * form's fields then its button, a link of a group) appended to out; 0, or -1 when no atomic
 * steps are known for it (the call is kept: atomic mode names it ungrounded; a cascader's search
 * is one). */
static int atomic_of_call(const cJSON *s, const cJSON *names, cJSON *out)
{
    char shown[256];
    char kind[64], label[512], t[600];
    int nth = 1;
    const char *tool = eous_json_str(s, "tool") ? eous_json_str(s, "tool") : "";
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(s, "params"), *only = params ? params->child : NULL;
    if (act_parse_role_name(eous_json_str(s, "call"), kind, sizeof kind, label, sizeof label, &nth) || nth > 1)
        return -1; /* a page tool (no kind: nothing on the page to do it by hand) or one of several */
    const char *field = !strncmp(label, "* ", 2) ? label + 2 : label;
    int one_value = only && !only->next && (cJSON_IsString(only) || cJSON_IsNumber(only));
    if (!strcmp(tool, "click") || !strcmp(tool, "check") || !strcmp(tool, "uncheck")) {
        int own = !strcmp(kind, "button") || !strcmp(kind, "link") || !strcmp(kind, "checkbox");
        if (own)
            quoted(t, sizeof t, kind, label);
        cJSON_AddItemToArray(out, atomic_one("click", own ? t : field));
        return 0;
    }
    if (!strcmp(tool, "open") && one_value && cJSON_IsString(only) && !strcmp(only->string, "link")) {
        quoted(t, sizeof t, "link", only->valuestring);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    if (!atomic_of_widget(kind, field, tool, params, names, out))
        return 0;
    if (!strcmp(tool, "setValue") && one_value) {
        const char *k = only->string;
        if (!strcmp(kind, "select") && cJSON_IsString(only)) {
            cJSON *sel = atomic_one("select", field);
            cJSON_AddStringToObject(sel, "option", option_name(names, only->valuestring, shown, sizeof shown));
            cJSON_AddItemToArray(out, sel);
        } else { /* a date or time is taken on Enter, as a person types it */
            cJSON_AddItemToArray(out, atomic_type(field, only, !strcmp(k, "date") || !strcmp(k, "time")));
        }
        return 0;
    }
    if ((!strcmp(tool, "fill") || !strcmp(tool, "submit")) && !strcmp(kind, "form")) {
        const cJSON *f;
        cJSON_ArrayForEach(f, params)
        {
            /* a field without a label is keyed by its name attribute (perception/native.js): lower case, no
             * blank; the atomic view prints it without a name, so css= finds it */
            char by_name[300];
            const char *k = f->string;
            int attr = strcspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ \"'") == strlen(k) && strlen(k) < 200;
            if (attr)
                snprintf(by_name, sizeof by_name, "css=[name=\"%s\"]", k);
            else if (k[0] == '[') /* a name such as "[F]" (an access key) alone reads as a view id */
                quoted(by_name, sizeof by_name, "textbox", k);
            attr |= k[0] == '[';
            if (cJSON_IsString(f) || cJSON_IsNumber(f))
                cJSON_AddItemToArray(out, atomic_type(attr ? by_name : k, f, 0));
            else if (cJSON_IsTrue(f))
                cJSON_AddItemToArray(out, atomic_one("click", attr ? by_name : k));
        }
        if (!strcmp(tool, "submit")) { /* a form is labelled by its submit button (perception/native.js) */
            quoted(t, sizeof t, "button", label);
            cJSON_AddItemToArray(out, atomic_one("click", t));
        }
        return 0;
    }
    return -1;
}

/* steps with each call as atomic steps where they are known; NULL when steps hold no call. */
static cJSON *atomic_steps(const cJSON *steps, const cJSON *names, const cJSON *over)
{
    cJSON *out = cJSON_CreateArray();
    int calls = 0, i = 0;
    const cJSON *s, *t;
    cJSON_ArrayForEach(s, steps)
    {
        int call = cJSON_GetObjectItemCaseSensitive(s, "call") != NULL;
        calls += call;
        char key[16];
        snprintf(key, sizeof key, "%d", i++);
        const cJSON *told = call ? cJSON_GetObjectItemCaseSensitive(over, key) : NULL;
        cJSON_ArrayForEach(t, told) /* what the view told of the call (a checkbox group's clicks) */
            cJSON_AddItemToArray(out, cJSON_Duplicate(t, 1));
        if (!told && (!call || atomic_of_call(s, names, out)))
            cJSON_AddItemToArray(out, cJSON_Duplicate(s, 1));
    }
    if (!calls) {
        cJSON_Delete(out);
        return NULL;
    }
    return out;
}

/* ---- the run ---------------------------------------------------------------------- */

/* The results line of the one task × mode of run_dir matching task and mode (NULL: any) into *out. */
static eous_rc find_result(const char *run_dir, const char *task, const char *mode, cJSON **out, eous_err *err)
{
    char path[4096], *text = NULL;
    snprintf(path, sizeof path, "%s/results.jsonl", run_dir);
    size_t len = 0;
    if (eous_read_file(path, DV_MAX_FILE, &text, &len, NULL))
        return eous_err_set(err, EOUS_E_INVALID, "%s: no results.jsonl (expected the folder of an `eous run` or "
                                                 "`eous bench` with --planner llm)", run_dir);
    cJSON *found = NULL;
    int matches = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *r = cJSON_Parse(line);
        const char *id = eous_json_str(r, "task_id"), *m = eous_json_str(r, "mode");
        if (!id || !m || (task && strcmp(id, task)) || (mode && strcmp(m, mode))) {
            cJSON_Delete(r);
            continue;
        }
        /* a resumed run's later line of the same task × mode replaces the earlier one */
        if (!found || strcmp(eous_json_str(found, "task_id"), id) || strcmp(eous_json_str(found, "mode"), m))
            matches++;
        cJSON_Delete(found);
        found = r;
    }
    free(text);
    eous_rc rc = EOUS_OK;
    if (!found)
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: no task %s in mode %s in results.jsonl", run_dir,
                          task ? task : "(any)", mode ? mode : "(any)");
    else if (matches > 1) { /* a caller names its own way to pick one (the CLI's flags) by the code */
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %d task × mode results match; name one by its task id and mode",
                          run_dir, matches);
        eous_err_set_code(err, "ambiguous");
    }
    else if (strcmp(eous_json_str(found, "status") ? eous_json_str(found, "status") : "", "passed"))
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: task %s %s did not pass (%s): only a passed run distils", run_dir,
                          eous_json_str(found, "task_id"), eous_json_str(found, "mode"),
                          eous_json_str(found, "status") ? eous_json_str(found, "status") : "no status");
    if (rc)
        cJSON_Delete(found);
    else
        *out = found;
    return rc;
}

/* Each "key=Label" a hybrid view's tool lists print (setValue(value: onsite=On-site|hybrid)) into names:
 * the option a person picks by its label for a value a call took by its key. */
static void collect_names(cJSON *names, const char *text)
{
    for (const char *p = strstr(text, "\xe2\x86\x92"); p && *p; p++) {
        if (*p == '\n') {
            p = strstr(p, "\xe2\x86\x92"); /* the next line's tools */
            if (!p)
                break;
        }
        if (*p != '=' || (p[1] == '=' || p[1] == ' '))
            continue;
        const char *k = p;
        while (k > text && (isalnum((unsigned char)k[-1]) || k[-1] == '-' || k[-1] == '_'))
            k--;
        if (k == p || (k[-1] != ' ' && k[-1] != '|'))
            continue;
        size_t n = strcspn(p + 1, "|);\n");
        char key[128], label[256];
        if ((size_t)(p - k) >= sizeof key || !n || n >= sizeof label)
            continue;
        snprintf(key, sizeof key, "%.*s", (int)(p - k), k);
        snprintf(label, sizeof label, "%.*s", (int)n, p + 1);
        if (!cJSON_GetObjectItemCaseSensitive(names, key))
            cJSON_AddStringToObject(names, key, label);
    }
}

/* What each checkbox group line of text holds ("[c8] checkboxgroup 'Notifications' value: email | sms →")
 * into boxes, by view id. */
static void collect_boxes(cJSON *boxes, const char *text)
{
    for (const char *p = strstr(text, "] checkboxgroup '"); p; p = strstr(p + 1, "] checkboxgroup '")) {
        const char *id = p, *eol = strchr(p, '\n'), *arrow = strstr(p, " \xe2\x86\x92");
        while (id > text && id[-1] != '[')
            id--;
        if (id == text || p - id >= 16 || !arrow || (eol && arrow > eol))
            continue;
        char key[16], held[512] = "";
        snprintf(key, sizeof key, "%.*s", (int)(p - id), id);
        const char *v = strstr(p, " value: ");
        if (v && v < arrow)
            snprintf(held, sizeof held, "%.*s", (int)(arrow - v - 8), v + 8);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, held);
    }
}

/* What each slider line of text holds ("[c7] slider 'Retention (days)' value: 30 → setValue(value:
 * integer, 1..365, step 5)") into boxes, by "s:" and view id: "30 1 5 1 Retention (days)", its value ("-"
 * when it has none), least value, step, the sliders the view holds and its label. */
static void collect_sliders(cJSON *boxes, const char *text)
{
    int sliders = 0;
    for (const char *p = strstr(text, "] slider '"); p; p = strstr(p + 1, "] slider '"))
        sliders++;
    for (const char *p = strstr(text, "] slider '"); p; p = strstr(p + 1, "] slider '")) {
        const char *id = p, *eol = strchr(p, '\n'), *arrow = strstr(p, " \xe2\x86\x92 setValue(value: ");
        while (id > text && id[-1] != '[')
            id--;
        const char *name = p + 10, *end = strchr(name, '\'');
        if (!eol)
            eol = p + strlen(p);
        if (id == text || p - id >= 16 || !arrow || arrow > eol || !end || end > arrow)
            continue;
        char key[24], held[512], value[32] = "-", line[600];
        double min = 0, step = 1;
        snprintf(line, sizeof line, "%.*s", (int)(eol - arrow), arrow);
        const char *v = strstr(p, " value: "), *range = strstr(line, ", "), *st = strstr(line, ", step ");
        if (!range || sscanf(range + 2, "%lf..", &min) != 1)
            continue; /* a slider without a least value: its keys' count is not known */
        if (st)
            sscanf(st + 7, "%lf", &step);
        if (v && v < arrow)
            snprintf(value, sizeof value, "%.*s", (int)strcspn(v + 8, " \n"), v + 8);
        snprintf(key, sizeof key, "s:%.*s", (int)(p - id), id);
        snprintf(held, sizeof held, "%s %g %g %d %.*s", value, min, step, sliders, (int)(end - name), name);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, held);
    }
}

/* The cells of a hybrid table's row line ("\t| u001 | Annie Boyd | ... |") into cells (at most max,
 * each up to 255 bytes); their count. */
static int row_cells(const char *line, const char *eol, char cells[][256], int max)
{
    while (line < eol && (*line == '\t' || *line == ' '))
        line++;
    if (eol - line < 2 || strncmp(line, "| ", 2))
        return 0;
    int n = 0;
    for (const char *p = line + 2; p < eol && n < max;) {
        const char *end = strstr(p, " |");
        if (!end || end > eol)
            break;
        snprintf(cells[n++], 256, "%.*s", (int)(end - p < 255 ? end - p : 255), p);
        p = end + 3;
    }
    return n;
}

/* Each row a hybrid table line prints ("[c5] table 'Users' ... →" then "| key | name | ..." and a line per
 * row) into boxes by "r:" and its key: "3 Joan Knuth", its place among the rows printed (the page's row
 * a person sees) and its name (the cell under "name", else the one after the key). */
static void collect_rows(cJSON *boxes, const char *text)
{
    for (const char *p = strstr(text, "] table '"); p; p = strstr(p + 1, "] table '")) {
        const char *l = strchr(p, '\n'), *eol;
        char cells[16][256];
        if (!l || !(eol = strchr(++l, '\n')))
            continue;
        int cols = row_cells(l, eol, cells, 16), name = 1, place = 0;
        if (cols < 2 || strcmp(cells[0], "key"))
            continue;
        const char *id = p, *sel = strstr(p, " selectedRowKeys: "), *arrow = strstr(p, " \xe2\x86\x92");
        while (id > text && id[-1] != '[')
            id--;
        if (id > text && p - id < 16 && arrow && arrow < l) { /* the rows it holds selected, by "sel:" and id */
            char key[24], held[2048] = "";
            if (sel && sel < arrow)
                snprintf(held, sizeof held, "%.*s", (int)(arrow - sel - 18), sel + 18);
            snprintf(key, sizeof key, "sel:%.*s", (int)(p - id), id);
            cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
            cJSON_AddStringToObject(boxes, key, held);
        }
        for (int i = 1; i < cols; i++)
            if (!strcmp(cells[i], "name"))
                name = i;
        for (l = eol + 1; *l && (eol = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l)); l = *eol ? eol + 1 : eol) {
            if (row_cells(l, eol, cells, 16) <= name)
                break;
            char key[300], held[300];
            snprintf(key, sizeof key, "r:%s", cells[0]);
            snprintf(held, sizeof held, "%d %s", ++place, cells[name]);
            cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
            cJSON_AddStringToObject(boxes, key, held);
        }
    }
}

/* A checkbox whose line follows a line of text alone at its indent ("\tExtras" above "\t[c10] checkbox
 * 'Breakfast included'"): the atomic view names it with that label in front ("Extras Breakfast included",
 * a form item's label and the box's text), into boxes by "x:" and its view id. */
static void collect_labelled_boxes(cJSON *boxes, const char *text)
{
    for (const char *p = strstr(text, "] checkbox '"); p; p = strstr(p + 1, "] checkbox '")) {
        const char *id = p, *bol = p, *name = p + 12, *end = strchr(name, '\'');
        while (bol > text && bol[-1] != '\n')
            bol--;
        while (id > bol && id[-1] != '[')
            id--;
        if (bol == text || id == bol || p - id >= 16 || !end)
            continue;
        const char *prev = bol - 1, *pb = prev;
        while (pb > text && pb[-1] != '\n')
            pb--;
        size_t indent = strspn(bol, "\t"), pindent = strspn(pb, "\t");
        const char *ptext = pb + pindent;
        if (indent != pindent || ptext >= prev || *ptext == '[' || memchr(ptext, '\'', (size_t)(prev - ptext)) ||
            memchr(ptext, ':', (size_t)(prev - ptext)) || prev - ptext > 80 || id - 1 != bol + indent)
            continue; /* not a label alone: a component, a named line, a note */
        char key[24], label[400];
        snprintf(key, sizeof key, "x:%.*s", (int)(p - id), id);
        snprintf(label, sizeof label, "%.*s %.*s", (int)(prev - ptext), ptext, (int)(end - name), name);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, label);
    }
}

/* Each switch or checkbox line's state ("[c15] switch 'Active' checked: true →") into boxes by "k:" and view
 * id: "true switch Active", its state, kind and name. */
static void collect_toggles(cJSON *boxes, const char *text)
{
    for (const char *p = strstr(text, "] "); p; p = strstr(p + 1, "] ")) {
        const char *id = p, *kind = p + 2, *eol = strchr(p, '\n'), *q = strchr(kind, ' ');
        while (id > text && id[-1] != '[')
            id--;
        if (!eol)
            eol = p + strlen(p);
        if (id == text || id[0] != 'c' || p - id >= 16 || !q || q > eol || q[1] != '\'' ||
            (strncmp(kind, "switch ", 7) && strncmp(kind, "checkbox ", 9)))
            continue;
        const char *name = q + 2, *end = strchr(name, '\''), *st = strstr(p, "' checked: ");
        if (!end || end > eol || !st || st != end || st + 11 >= eol)
            continue;
        char key[24], held[600];
        snprintf(key, sizeof key, "k:%.*s", (int)(p - id), id);
        snprintf(held, sizeof held, "%s %.*s %.*s", !strncmp(st + 11, "true", 4) ? "true" : "false",
                 (int)(q - kind), kind, (int)(end - name), name);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, held);
    }
}

/* The last button a modal's block prints ("[c9] modal 'Edit user' ..." then, indented under it, "button
 * [3] 'Save'"): the one that submits it, as antd's footer puts OK last; into boxes by "m:" and view id. */
static void collect_modal_buttons(cJSON *boxes, const char *text)
{
    for (const char *p = strstr(text, "] modal '"); p; p = strstr(p + 1, "] modal '")) {
        const char *id = p, *bol = p, *l = strchr(p, '\n');
        while (bol > text && bol[-1] != '\n')
            bol--;
        while (id > bol && id[-1] != '[')
            id--;
        if (id == bol || p - id >= 16 || !l)
            continue;
        size_t indent = strspn(bol, "\t");
        char last[300] = "";
        for (l++; *l && strspn(l, "\t") > indent; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
            const char *b = l + strspn(l, "\t"), *eol = strchr(b, '\n') ? strchr(b, '\n') : b + strlen(b);
            const char *n = strncmp(b, "button ", 7) ? strstr(b, "] button '") : b;
            if (n != b && (!n || n > eol || b[0] != '['))
                continue;
            n = strchr(n, '\'');
            const char *e = n ? strchr(n + 1, '\'') : NULL;
            if (n && e && e < eol)
                snprintf(last, sizeof last, "%.*s", (int)(e - n - 1), n + 1);
        }
        char key[24];
        snprintf(key, sizeof key, "m:%.*s", (int)(p - id), id);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        if (*last)
            cJSON_AddStringToObject(boxes, key, last);
    }
}

/* A slider's setValue on view id id as a person does it by keys, into ps->over at index: the
 * slider clicked, then ArrowRight or ArrowLeft once a step from the value it held (Home first
 * when it held none); antd's slider takes keys, not text.  The atomic view prints a slider without
 * a name (its label's for= names a div), so it is the page's one slider by role, or the call is kept. */
static void slider_keys(dv_params *ps, const char *id, const cJSON *params, int index)
{
    char key[24], value[32], label[512];
    double min, step;
    int sliders = 0;
    snprintf(key, sizeof key, "s:%s", id);
    const char *held = eous_json_str(ps->boxes, key);
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "value");
    if (!held || !cJSON_IsNumber(want) ||
        sscanf(held, "%31s %lf %lf %d %511[^\n]", value, &min, &step, &sliders, label) != 5 || step <= 0 ||
        sliders != 1)
        return;
    int none = !strcmp(value, "-");
    double from = none ? min : atof(value);
    double d = (want->valuedouble - from) / step;
    long n = (long)(d < 0 ? d - 0.5 : d + 0.5);
    if (labs(n) > DV_MAX_KEYS)
        return; /* too far to walk by keys: the call is kept */
    cJSON *steps = cJSON_CreateArray();
    cJSON_AddItemToArray(steps, atomic_one("click", "css=[role=\"slider\"]"));
    if (none)
        cJSON_AddItemToArray(steps, atomic_one("press", "Home"));
    for (long i = 0; i < labs(n); i++)
        cJSON_AddItemToArray(steps, atomic_one("press", n > 0 ? "ArrowRight" : "ArrowLeft"));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* 1 when value is one of held's " | "-separated values. */
static int box_held(const char *held, const char *value)
{
    size_t n = strlen(value);
    for (const char *p = strstr(held, value); p; p = strstr(p + 1, value))
        if ((p == held || !strncmp(p - 3, " | ", 3)) && (!p[n] || !strncmp(p + n, " | ", 3)))
            return 1;
    return 0;
}

/* A checkbox group's setValue on view id id as the boxes a person clicks (each one whose state
 * changes, named loosely as the atomic view prints it: "c" for checkbox 'C'), into ps->over at index. */
static void boxes_to_click(dv_params *ps, const char *id, const cJSON *params, int index)
{
    const char *held = eous_json_str(ps->boxes, id);
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "values"), *w;
    if (!held || !cJSON_IsArray(want))
        return;
    cJSON *steps = cJSON_CreateArray();
    char t[300], shown[256], key[16];
    cJSON_ArrayForEach(w, want)
    if (cJSON_IsString(w) && !box_held(held, w->valuestring)) {
        quoted(t, sizeof t, "checkbox", option_name(ps->names, w->valuestring, shown, sizeof shown));
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    for (const char *p = held; *p;) { /* what it held and the call leaves out: unchecked */
        size_t n = strstr(p, " | ") ? (size_t)(strstr(p, " | ") - p) : strlen(p);
        char v[200];
        snprintf(v, sizeof v, "%.*s", (int)(n < sizeof v ? n : sizeof v - 1), p);
        int kept = 0;
        cJSON_ArrayForEach(w, want) kept |= cJSON_IsString(w) && !strcmp(w->valuestring, v);
        if (!kept && *v) {
            quoted(t, sizeof t, "checkbox", option_name(ps->names, v, shown, sizeof shown));
            cJSON_AddItemToArray(steps, atomic_one("click", t));
        }
        p += n + (p[n] ? 3 : 0);
    }
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A checkbox group's check(value) or uncheck(value) on view id id as a click on that box when its state
 * changes (none when it already is as asked), into ps->over at index. */
static void box_toggle(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    const char *held = eous_json_str(ps->boxes, id), *value = eous_json_str(params, "value");
    if (!held || !value)
        return;
    cJSON *steps = cJSON_CreateArray();
    char t[300], shown[256], key[16];
    if (box_held(held, value) == !strcmp(tool, "uncheck")) {
        quoted(t, sizeof t, "checkbox", option_name(ps->names, value, shown, sizeof shown));
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A checkbox the atomic view names with its form item's label in front (collect_labelled_boxes) checked,
 * unchecked or toggled on view id id: a click on it by that name, into ps->over at index. */
static void labelled_box(dv_params *ps, const char *id, const char *tool, int index)
{
    char key[24], t[500];
    snprintf(key, sizeof key, "x:%s", id);
    const char *name = eous_json_str(ps->boxes, key);
    if (!name || (strcmp(tool, "check") && strcmp(tool, "uncheck") && strcmp(tool, "toggle")))
        return;
    cJSON *steps = cJSON_CreateArray();
    quoted(t, sizeof t, "checkbox", name);
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* The menu item a person picks in a column's filter for value: its label where a hybrid line printed
 * key=Label, a boolean as the column's title and its negation ("true" on column Active: 'Active', "false":
 * 'Inactive', how a yes/no column's filter is worded), else the key with blanks (loosely matched). */
static const char *filter_item(const dv_params *ps, const char *title, const char *value, char *out, size_t n)
{
    if (!strcmp(value, "true") || !strcmp(value, "false")) {
        snprintf(out, n, "%s%s", !strcmp(value, "true") ? "" : "In", title);
        if (!strcmp(value, "false") && out[2])
            out[2] = (char)tolower((unsigned char)out[2]);
        return out;
    }
    return option_name(ps->names, value, out, n);
}

/* A table's filter(column, values) as a person sets it: the filter button in the column's header
 * (the atomic view prints `button 'filter'` once per filtered column, its header 'Role filter' tells
 * it apart), each value's menu item, then OK; into steps. -1 when it cannot (no value: a removal). */
static int filter_steps(const dv_params *ps, const cJSON *params, cJSON *steps)
{
    const char *column = eous_json_str(params, "column");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(params, "values"), *v;
    if (!column || !*column || !cJSON_IsArray(values) || !cJSON_GetArraySize(values) || strlen(column) > 120 ||
        strchr(column, '\''))
        return -1;
    char title[128], t[600], shown[256];
    snprintf(title, sizeof title, "%s", column); /* a column's key as its header's title: 'role', 'Role' */
    title[0] = (char)toupper((unsigned char)title[0]);
    snprintf(t, sizeof t, "button 'filter' under '%s filter'", title);
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    cJSON_ArrayForEach(v, values)
    {
        if (!cJSON_IsString(v))
            return -1;
        quoted(t, sizeof t, "menuitem", filter_item(ps, title, v->valuestring, shown, sizeof shown));
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    cJSON_AddItemToArray(steps, atomic_one("click", "button 'OK'"));
    return 0;
}

/* A table's rowAction(key, action) as a person does it on the row the view printed: "view" (or "open")
 * by the row's link, named by its key ('ORD-1002'); another action by its button, named by the action
 * and the row's name ('Edit Ivan Sammet'); into steps. -1 when the row was not printed. */
static int row_action_steps(const dv_params *ps, const cJSON *params, cJSON *steps)
{
    const char *key = eous_json_str(params, "key"), *action = eous_json_str(params, "action"), *held;
    char k[300], t[700], name[500];
    int place;
    if (!key || !action || !*action || strlen(key) > 200 || strlen(action) > 60)
        return -1;
    snprintf(k, sizeof k, "r:%s", key);
    if (!(held = eous_json_str(ps->boxes, k)) || sscanf(held, "%d %499[^\n]", &place, name) != 2)
        return -1;
    if (!strcmp(action, "view") || !strcmp(action, "open")) {
        quoted(t, sizeof t, "link", key);
    } else {
        char label[600];
        snprintf(label, sizeof label, "%c%s %s", toupper((unsigned char)action[0]), action + 1, name);
        quoted(t, sizeof t, "button", label);
    }
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    return 0;
}

/* A table's selectRows(keys, mode) on view id id as the row boxes a person clicks ('Select row 3': the
 * row's place among the rows printed), each whose state changes; into steps.  -1 for mode set over rows
 * already selected (unselecting rows off the page is not known) or a row not printed. */
static int select_rows_steps(const dv_params *ps, const char *id, const cJSON *params, cJSON *steps)
{
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(params, "keys"), *k;
    const char *mode = eous_json_str(params, "mode") ? eous_json_str(params, "mode") : "set", *selected;
    char sk[24];
    snprintf(sk, sizeof sk, "sel:%s", id);
    selected = eous_json_str(ps->boxes, sk) ? eous_json_str(ps->boxes, sk) : "";
    if (!cJSON_IsArray(keys) || !cJSON_GetArraySize(keys) || (!strcmp(mode, "set") && *selected))
        return -1;
    cJSON_ArrayForEach(k, keys)
    {
        char key[300], t[64];
        const char *held;
        int place;
        if (!cJSON_IsString(k) || strlen(k->valuestring) > 200)
            return -1;
        snprintf(key, sizeof key, "r:%s", k->valuestring);
        if (!(held = eous_json_str(ps->boxes, key)) || sscanf(held, "%d", &place) != 1)
            return -1;
        if (box_held(selected, k->valuestring) != !strcmp(mode, "remove"))
            continue; /* already as asked */
        snprintf(t, sizeof t, "checkbox 'Select row %d'", place);
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    return 0;
}

/* A switch's or checkbox's setValue(checked) on view id id as a click on it when its state changes (none
 * when it already is as asked), by the name the atomic view prints (a form item's label in front where
 * collect_labelled_boxes found one); a modal's submit as a click on its last button; into ps->over. */
static void toggle_or_submit(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    char key[24], t[700] = "", held[8], kind[16], name[600];
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "checked");
    const char *h = NULL;
    snprintf(key, sizeof key, "%s:%s", !strcmp(tool, "submit") ? "m" : "k", id);
    if (!(h = eous_json_str(ps->boxes, key)))
        return;
    if (!strcmp(tool, "submit")) {
        quoted(t, sizeof t, "button", h);
    } else if (cJSON_IsBool(want) && sscanf(h, "%7s %15s %599[^\n]", held, kind, name) == 3) {
        snprintf(key, sizeof key, "x:%s", id);
        if (strcmp(held, cJSON_IsTrue(want) ? "true" : "false")) /* none when it already is as asked */
            quoted(t, sizeof t, kind, eous_json_str(ps->boxes, key) ? eous_json_str(ps->boxes, key) : name);
    } else {
        return;
    }
    cJSON *steps = cJSON_CreateArray();
    if (t[0])
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A menu's navigateTo(key) as a click on its item by the label the hybrid view printed for the key
 * ("booking=Travel booking"), else the key (loosely: 'users' for 'Users'); the run's key, before it
 * became a parameter, into ps->over at index. */
static void menu_item(dv_params *ps, const cJSON *params, int index)
{
    const char *key = eous_json_str(params, "key");
    char t[600], shown[256], k[16];
    if (!key || strlen(key) > 200)
        return;
    cJSON *steps = cJSON_CreateArray();
    quoted(t, sizeof t, "menuitem", option_name(ps->names, key, shown, sizeof shown));
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    snprintf(k, sizeof k, "%d", index);
    cJSON_AddItemToObject(ps->over, k, steps);
}

/* A table's filter, row action or row selection as a person's steps (above), into ps->over at index;
 * nothing when they are not known (the call is kept). */
static void table_steps(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    cJSON *steps = cJSON_CreateArray();
    int rc = !strcmp(tool, "filter")       ? filter_steps(ps, params, steps)
             : !strcmp(tool, "rowAction")  ? row_action_steps(ps, params, steps)
             : !strcmp(tool, "selectRows") ? select_rows_steps(ps, id, params, steps)
                                           : -1;
    char key[16];
    snprintf(key, sizeof key, "%d", index);
    if (rc)
        cJSON_Delete(steps);
    else
        cJSON_AddItemToObject(ps->over, key, steps);
}

/* One trace line: the view it acted on into v, its action as a step appended to steps. */
static eous_rc distill_line(const char *run_dir, const cJSON *line, int step, dv_view *v, dv_params *ps,
                            cJSON *steps, eous_err *err)
{
    const char *obs = eous_json_str(line, "observation"), *action = eous_json_str(line, "action");
    eous_rc rc = EOUS_OK;
    if (obs) {
        char path[4096], *text = NULL;
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", run_dir, obs);
        if (strstr(obs, "..") || eous_read_file(path, DV_MAX_FILE, &text, &len, NULL))
            return eous_err_set(err, EOUS_E_INVALID, "%s: step %d's view %s cannot be read", run_dir, step, obs);
        /* the hybrid view writes names as they are; the others as Python reprs */
        const char *mode = eous_json_str(line, "mode");
        rc = view_update(v, text, !mode || strcmp(mode, "hybrid"), err);
        if (mode && !strcmp(mode, "hybrid")) {
            collect_names(ps->names, text);
            collect_boxes(ps->boxes, text);
            collect_sliders(ps->boxes, text);
            collect_rows(ps->boxes, text);
            collect_labelled_boxes(ps->boxes, text);
            collect_toggles(ps->boxes, text);
            collect_modal_buttons(ps->boxes, text);
        }
        free(text);
        if (rc)
            return rc;
    }
    /* an action that failed did nothing to replay; a line without one is a note */
    if (!action || eous_json_str(line, "error"))
        return EOUS_OK;
    act_action a;
    act_action_init(&a);
    /* an action whose text holds a line break (typed below a page's last line) parses in a fence */
    char *fenced = NULL;
    int bad = act_parse_text(action, &a, NULL) != EOUS_OK;
    if (bad && asprintf(&fenced, "```\n%s\n```", action) < 0)
        fenced = NULL;
    if (bad && (!fenced || act_parse_text(fenced, &a, NULL))) {
        free(fenced);
        return eous_err_set(err, EOUS_E_INVALID, "%s: step %d's action '%.80s' does not parse", run_dir, step,
                            action);
    }
    free(fenced);
    if (a.kind == ACT_TYPE && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(line, "clear")))
        a.clear = 0; /* typed after what the field held: the action's text form does not say it */
    cJSON *s = NULL;
    const char *cid = a.kind == ACT_CALL && a.tool ? (a.target[0] == '[' ? a.target + 1 : a.target) : NULL;
    if (cid && !strcmp(a.tool, "setValue")) {
        boxes_to_click(ps, cid, a.params, cJSON_GetArraySize(steps));
        slider_keys(ps, cid, a.params, cJSON_GetArraySize(steps));
        toggle_or_submit(ps, cid, a.tool, a.params, cJSON_GetArraySize(steps));
    } else if (cid && !strcmp(a.tool, "submit"))
        toggle_or_submit(ps, cid, a.tool, a.params, cJSON_GetArraySize(steps));
    else if (cid && (!strcmp(a.tool, "check") || !strcmp(a.tool, "uncheck"))) {
        box_toggle(ps, cid, a.tool, a.params, cJSON_GetArraySize(steps));
        labelled_box(ps, cid, a.tool, cJSON_GetArraySize(steps));
    } else if (cid && !strcmp(a.tool, "toggle"))
        labelled_box(ps, cid, a.tool, cJSON_GetArraySize(steps));
    else if (cid && (!strcmp(a.tool, "filter") || !strcmp(a.tool, "rowAction") || !strcmp(a.tool, "selectRows")))
        table_steps(ps, cid, a.tool, a.params, cJSON_GetArraySize(steps));
    else if (cid && !strcmp(a.tool, "navigateTo"))
        menu_item(ps, a.params, cJSON_GetArraySize(steps));
    if (!(rc = step_of(v, ps, &a, step, action, &s, err)) && s)
        cJSON_AddItemToArray(steps, s);
    act_action_clear(&a);
    return rc;
}

/* A page tool's call (its target a tool's name, no kind) at index that took the page from url `from` to
 * `to`, the URL the next step was on (open_order: /orders/ORD-1055): a person gets there by the URL, so
 * atomic mode goes to it (parameter values in it as placeholders), into ps->over; nothing when the page
 * stayed. */
static void page_tool_went(dv_params *ps, const cJSON *steps, int index, const char *from, const char *to)
{
    char role[64], name[512], key[16];
    int nth;
    const char *call = eous_json_str(cJSON_GetArrayItem(steps, index), "call");
    if (!call || !act_parse_role_name(call, role, sizeof role, name, sizeof name, &nth) || !from || !to ||
        !strcmp(from, to) || strncmp(to, "http", 4))
        return;
    char *url = with_placeholders(ps, to);
    cJSON *go = cJSON_CreateArray();
    if (url)
        cJSON_AddItemToArray(go, atomic_one("goto", url));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, go);
    free(url);
}

/* The steps of trace/<task>-<mode>.jsonl into job. */
static eous_rc distill_trace(const char *run_dir, const char *trace, dv_params *ps, cJSON *job, eous_err *err)
{
    char *text = NULL;
    size_t len = 0;
    if (eous_read_file(trace, DV_MAX_FILE, &text, &len, NULL))
        return eous_err_set(err, EOUS_E_INVALID, "%s: no %s (a run without traces cannot distil)", run_dir, trace);
    dv_view v = {.e = NULL, .n = 0, .cap = 0, .exact = 1};
    cJSON *steps = cJSON_CreateArray();
    eous_rc rc = steps ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    int step = 0, tool_at = -1; /* the step of the last action, its page's URL in tool_url */
    char tool_url[2048] = "";
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
        cJSON *line = cJSON_Parse(l);
        if (!line) {
            rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s holds a line that is not JSON", run_dir, trace);
            break;
        }
        step = eous_json_int(line, "step", step + 1);
        const char *url = eous_json_str(line, "url");
        if (url && !cJSON_GetObjectItemCaseSensitive(job, "start_url"))
            cJSON_AddStringToObject(job, "start_url", url);
        if (tool_at >= 0 && url) /* the step after a page tool's call: where it took the page */
            page_tool_went(ps, steps, tool_at, tool_url, url);
        if (url)
            tool_at = -1;
        int before = cJSON_GetArraySize(steps);
        rc = distill_line(run_dir, line, step, &v, ps, steps, err);
        if (!rc && url && cJSON_GetArraySize(steps) > before) {
            tool_at = before;
            snprintf(tool_url, sizeof tool_url, "%s", url);
        }
        cJSON_Delete(line);
    }
    if (!rc && !cJSON_GetArraySize(steps))
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s holds no action", run_dir, trace);
    cJSON *atomic = rc ? NULL : atomic_steps(steps, ps->names, ps->over);
    if (!rc)
        cJSON_AddItemToObject(job, "steps", steps);
    else
        cJSON_Delete(steps);
    if (atomic)
        cJSON_AddItemToObject(job, "atomic_steps", atomic);
    view_clear(&v);
    free(v.e);
    free(text);
    return rc;
}

eous_rc agent_distill(const char *run_dir, const char *task, const char *mode, cJSON **out, eous_err *err)
{
    cJSON *result = NULL, *job = NULL;
    dv_params ps = {.intent = NULL, .decl = NULL, .names = NULL, .boxes = NULL, .over = NULL};
    eous_rc rc = find_result(run_dir, task, mode, &result, err);
    if (rc)
        return rc;
    const char *id = eous_json_str(result, "task_id"), *m = eous_json_str(result, "mode");
    char trace[4096], name[160];
    snprintf(trace, sizeof trace, "%s/trace/%s-%s.jsonl", run_dir, id, m);
    /* a job's name is a task id: letters, digits, '.', '_' and '-' */
    snprintf(name, sizeof name, "%s-%s-distilled", id, m);
    ps.intent = eous_json_str(result, "intent");
    job = cJSON_CreateObject();
    ps.decl = cJSON_CreateObject();
    ps.names = cJSON_CreateObject();
    ps.boxes = cJSON_CreateObject();
    ps.over = cJSON_CreateObject();
    if (!job || !ps.decl || !ps.names || !ps.boxes || !ps.over) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto cleanup;
    }
    cJSON_AddStringToObject(job, "name", name);
    if ((rc = distill_trace(run_dir, trace, &ps, job, err)))
        goto cleanup;
    if (!cJSON_GetObjectItemCaseSensitive(job, "start_url")) {
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s names no start URL", run_dir, trace);
        goto cleanup;
    }
    char *intent = with_placeholders(&ps, ps.intent);
    cJSON_AddStringToObject(job, "intent", intent ? intent : "");
    free(intent);
    if (cJSON_GetArraySize(ps.decl)) {
        cJSON_AddItemToObject(job, "params", ps.decl);
        ps.decl = NULL;
    }
    *out = job;
    job = NULL;
cleanup:
    cJSON_Delete(ps.names);
    cJSON_Delete(ps.boxes);
    cJSON_Delete(ps.over);
    cJSON_Delete(ps.decl);
    cJSON_Delete(job);
    cJSON_Delete(result);
    return rc;
}

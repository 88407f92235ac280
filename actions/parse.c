/* actions/parse.c — the three ways an action arrives: a model tool call (JSON
 * arguments), WebArena's text syntax, and a script step from a task file.
 *
 * Every error names the action, says what was expected and what was wrong, in
 * one line, because for a model that message is the only way to correct itself. */
#include "actions/action.h"
#include "actions/rpa_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the verbs: actions/vocab.c ------------------------------------------- */

static int in_list(const char *const *list, size_t n, const char *key)
{
    for (size_t i = 0; i < n && list[i]; i++)
        if (!strcmp(list[i], key))
            return 1;
    return 0;
}

/* ---- small string helpers ------------------------------------------------- */

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static void trim_span(const char **b, const char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* An observation id: "12", "c3", "[12]" (brackets and spaces stripped).  Ids
 * are short tokens, so anything with spaces or quotes is refused. */
static char *norm_id(const char *s, size_t n)
{
    const char *b = s, *e = s + n;
    trim_span(&b, &e);
    if (e - b >= 2 && *b == '[' && e[-1] == ']') {
        b++;
        e--;
        trim_span(&b, &e);
    }
    if (b == e || e - b > 128)
        return NULL;
    for (const char *p = b; p < e; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != ':' && *p != '.')
            return NULL;
    return dupn(b, (size_t)(e - b));
}

/* Numbers models send where strings are expected ("text": 10115) are printed
 * as JSON would print them, so a zip code stays 10115 and not 1.0115e+04. */
static char *json_to_text(const cJSON *v)
{
    if (cJSON_IsString(v))
        return strdup(v->valuestring);
    if (cJSON_IsNumber(v))
        return eous_json_print(v);
    return NULL;
}

static int json_to_bool(const cJSON *v, int *out)
{
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v);
        return 1;
    }
    if (cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble == 1)) {
        *out = v->valuedouble == 1;
        return 1;
    }
    if (cJSON_IsString(v)) {
        if (!strcmp(v->valuestring, "true") || !strcmp(v->valuestring, "1")) {
            *out = 1;
            return 1;
        }
        if (!strcmp(v->valuestring, "false") || !strcmp(v->valuestring, "0")) {
            *out = 0;
            return 1;
        }
    }
    return 0;
}

static int parse_index(const char *s, size_t n, int *out)
{
    const char *b = s, *e = s + n;
    trim_span(&b, &e);
    if (b == e || e - b > 6)
        return 0;
    int v = 0;
    for (const char *p = b; p < e; p++) {
        if (!isdigit((unsigned char)*p))
            return 0;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return 1;
}

static int json_to_index(const cJSON *v, int *out)
{
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d < 0 || d > 100000 || floor(d) != d)
            return 0;
        *out = (int)d;
        return 1;
    }
    if (cJSON_IsString(v))
        return parse_index(v->valuestring, strlen(v->valuestring), out);
    return 0;
}

/* Element ids from a model: 12, "12", "[12]", "c3". */
static char *json_to_id(const cJSON *v)
{
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d < 0 || d > 1e15 || floor(d) != d)
            return NULL;
        char num[32];
        snprintf(num, sizeof num, "%.0f", d);
        return strdup(num);
    }
    if (cJSON_IsString(v))
        return norm_id(v->valuestring, strlen(v->valuestring));
    return NULL;
}

/* "up"/"down", any case, also WebArena's "direction=down". */
static char *norm_direction(const char *s, size_t n)
{
    const char *b = s, *e = s + n;
    trim_span(&b, &e);
    if (e - b > 10 && strncasecmp(b, "direction=", 10) == 0) {
        b += 10;
        trim_span(&b, &e);
    }
    if (e - b == 2 && strncasecmp(b, "up", 2) == 0)
        return strdup("up");
    if (e - b == 4 && strncasecmp(b, "down", 4) == 0)
        return strdup("down");
    return NULL;
}

/* The first key an object (or any object inside it) holds twice, else NULL:
 * JSON leaves duplicate names undefined, and a call must mean one thing. */
static const char *params_duplicate_key(const cJSON *v)
{
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next) {
        if (cJSON_IsObject(v) && c->string)
            for (const cJSON *d = c->next; d; d = d->next)
                if (d->string && strcmp(c->string, d->string) == 0)
                    return c->string;
        const char *inner = params_duplicate_key(c);
        if (inner)
            return inner;
    }
    return NULL;
}

/* params written as text: a JSON object, or a JSON string holding one (a
 * model may quote the object); blank means {}. */
static eous_rc params_from_text(const char *s, size_t n, cJSON **out, const char *ctx, eous_err *err)
{
    const char *b = s, *e = s + n;
    trim_span(&b, &e);
    *out = NULL;
    if (b == e) {
        *out = cJSON_CreateObject();
        return *out ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    eous_err perr;
    eous_err_clear(&perr);
    cJSON *p = eous_json_parse(b, (size_t)(e - b), "params", &perr);
    if (!p)
        return eous_err_set(err, EOUS_E_PARSE, "%s, %s", ctx, perr.msg);
    if (cJSON_IsString(p)) {
        const char *ib = p->valuestring, *ie = ib + strlen(ib);
        trim_span(&ib, &ie);
        cJSON *inner = ib == ie ? cJSON_CreateObject() : eous_json_parse(ib, (size_t)(ie - ib), "params", &perr);
        cJSON_Delete(p);
        if (!inner)
            return eous_err_set(err, EOUS_E_PARSE, "%s, %s", ctx, perr.msg);
        p = inner;
    }
    if (!cJSON_IsObject(p)) {
        eous_rc rc = eous_err_set(err, EOUS_E_PARSE, "%s, params must be a JSON object, got a %s", ctx,
                                  eous_json_type_name(p));
        cJSON_Delete(p);
        return rc;
    }
    const char *dup = params_duplicate_key(p);
    if (dup) {
        eous_rc rc = eous_err_set(err, EOUS_E_PARSE, "%s, params has the key \"%.60s\" more than once", ctx, dup);
        cJSON_Delete(p);
        return rc;
    }
    *out = p;
    return EOUS_OK;
}

/* params as a JSON value: an object, a string holding one, or absent/null ({}). */
static eous_rc params_from_json(const cJSON *v, cJSON **out, const char *ctx, eous_err *err)
{
    *out = NULL;
    if (cJSON_IsString(v))
        return params_from_text(v->valuestring, strlen(v->valuestring), out, ctx, err);
    if (v && !cJSON_IsNull(v) && !cJSON_IsObject(v))
        return eous_err_set(err, EOUS_E_PARSE, "%s, params must be a JSON object, got a %s", ctx,
                            eous_json_type_name(v));
    const char *dup = params_duplicate_key(v);
    if (dup)
        return eous_err_set(err, EOUS_E_PARSE, "%s, params has the key \"%.60s\" more than once", ctx, dup);
    *out = v && !cJSON_IsNull(v) ? cJSON_Duplicate(v, 1) : cJSON_CreateObject();
    return *out ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
}

/* ---- model tool calls ----------------------------------------------------- */

static eous_rc missing_arg(const char *ctx, const char *key, eous_err *err)
{
    return eous_err_set(err, EOUS_E_PARSE, "%s, missing \"%s\"", ctx, key);
}

static eous_rc bad_arg(const char *ctx, const cJSON *args, const char *key, const char *what, eous_err *err)
{
    return eous_err_set(err, EOUS_E_PARSE, "%s, \"%s\" must be %s, got a %s", ctx, key, what,
                        eous_json_type_name(cJSON_GetObjectItemCaseSensitive(args, key)));
}

/* The arguments of a tool call as a JSON object (blank means {}), holding
 * only the verb's keys.  Caller frees *out. */
static eous_rc tool_args_object(const act_verb *v, const char *args_json, const char *ctx, cJSON **out,
                                eous_err *err)
{
    const char *ab = args_json ? args_json : "", *ae = ab + strlen(ab);
    trim_span(&ab, &ae);
    cJSON *args;
    if (ab == ae) {
        args = cJSON_CreateObject();
    } else {
        eous_err perr;
        eous_err_clear(&perr);
        if (!(args = eous_json_parse(ab, (size_t)(ae - ab), "arguments", &perr)))
            return eous_err_set(err, EOUS_E_PARSE, "%s, %s", ctx, perr.msg);
    }
    *out = args;
    if (!args)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!cJSON_IsObject(args))
        return eous_err_set(err, EOUS_E_PARSE, "%s, arguments must be a JSON object, got a %s", ctx,
                            eous_json_type_name(args));
    for (const cJSON *it = args->child; it; it = it->next)
        if (!in_list(v->tool_keys, 4, it->string ? it->string : "") &&
            !in_list(v->tool_optional, 2, it->string ? it->string : ""))
            return eous_err_set(err, EOUS_E_PARSE, "%s, unknown key \"%.64s\"", ctx, it->string ? it->string : "");
    return EOUS_OK;
}

/* call's k, tool and params. */
static eous_rc tool_call_args(const cJSON *args, const char *ctx, act_action *out, eous_err *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, "k");
    if (!a)
        return missing_arg(ctx, "k", err);
    if (!(out->target = json_to_id(a)) && cJSON_IsString(a)) {
        /* a component key need not look like a view id: keep any non-empty string */
        const char *b = a->valuestring, *e = b + strlen(b);
        trim_span(&b, &e);
        if (e - b >= 2 && *b == '[' && e[-1] == ']') {
            b++;
            e--;
            trim_span(&b, &e);
        }
        if (b != e)
            out->target = dupn(b, (size_t)(e - b));
    }
    if (!out->target)
        return bad_arg(ctx, args, "k", "a component id like c3 or a component key", err);
    if (!(a = cJSON_GetObjectItemCaseSensitive(args, "tool")))
        return missing_arg(ctx, "tool", err);
    if (!cJSON_IsString(a) || !a->valuestring[0])
        return bad_arg(ctx, args, "tool", "a tool name", err);
    if (!(out->tool = strdup(a->valuestring)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return params_from_json(cJSON_GetObjectItemCaseSensitive(args, "params"), &out->params, ctx, err);
}

/* An element id argument: 12, "12", "[12]". */
static eous_rc tool_id_arg(const cJSON *args, const char *ctx, act_action *out, eous_err *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, "id");
    if (!a)
        return missing_arg(ctx, "id", err);
    if ((out->target = json_to_id(a)))
        return EOUS_OK;
    if (cJSON_IsString(a))
        return eous_err_set(err, EOUS_E_PARSE, "%s, \"id\" must be an element id like 12, got \"%.64s\"", ctx,
                            a->valuestring);
    return bad_arg(ctx, args, "id", "an element id like 12", err);
}

/* The arguments of every verb but call, after the id: the verb's first
 * argument that is not the id carries the value (type's text, press's keys ...). */
static eous_rc tool_action_args(const act_verb *v, const cJSON *args, const char *ctx, act_action *out,
                                eous_err *err)
{
    act_kind kind = v->kind;
    const char *key = v->tool_keys[0] && !strcmp(v->tool_keys[0], "id") ? v->tool_keys[1] : v->tool_keys[0];
    if (!key)
        return EOUS_OK; /* go_back, go_forward, close_tab take nothing; click and hover only the id */
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, key);
    if (!a)
        return missing_arg(ctx, key, err);
    switch (kind) {
    case ACT_TYPE:
        if (!(out->text = json_to_text(a)))
            return bad_arg(ctx, args, key, "a string", err);
        /* enter defaults to false for tool calls: the schema asks for it explicitly */
        a = cJSON_GetObjectItemCaseSensitive(args, "enter");
        if (a && !cJSON_IsNull(a) && !json_to_bool(a, &out->enter))
            return bad_arg(ctx, args, "enter", "true or false", err);
        /* clear defaults to true: a field is replaced unless the model says to add to it */
        a = cJSON_GetObjectItemCaseSensitive(args, "clear");
        if (a && !cJSON_IsNull(a) && !json_to_bool(a, &out->clear))
            return bad_arg(ctx, args, "clear", "true or false", err);
        return EOUS_OK;
    case ACT_SELECT:
        return (out->text = json_to_text(a)) ? EOUS_OK : bad_arg(ctx, args, key, "a string", err);
    case ACT_READ:
        return act_read_tool_args(args, ctx, out, err);
    case ACT_PRESS:
    case ACT_GOTO:
        if (!cJSON_IsString(a) || !a->valuestring[0] || !(out->text = strdup(a->valuestring)))
            return bad_arg(ctx, args, key, kind == ACT_PRESS ? "a key combination" : "a non-empty string", err);
        return EOUS_OK;
    case ACT_SCROLL:
        if (cJSON_IsString(a) && (out->text = norm_direction(a->valuestring, strlen(a->valuestring))))
            return EOUS_OK;
        return cJSON_IsString(a) ? eous_err_set(err, EOUS_E_PARSE, "%s, got \"%.32s\"", ctx, a->valuestring)
                                 : bad_arg(ctx, args, key, "\"up\" or \"down\"", err);
    case ACT_TAB_FOCUS:
        return json_to_index(a, &out->index) ? EOUS_OK : bad_arg(ctx, args, key, "a tab number from 0", err);
    case ACT_STOP:
        if (cJSON_IsNull(a))
            out->text = strdup("");
        else if (cJSON_IsObject(a)) /* a WebArena-Verified answer object, kept as JSON text */
            out->text = eous_json_print(a);
        else if (!(out->text = json_to_text(a)))
            return bad_arg(ctx, args, key, "a string", err);
        return out->text ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    default:
        return EOUS_OK;
    }
}

eous_rc act_parse_tool_call(const char *name, const char *args_json, act_action *out, eous_err *err)
{
    act_action_clear(out);
    const char *nb = name ? name : "", *ne = nb + strlen(nb);
    trim_span(&nb, &ne);
    const act_verb *v = act_verb_find(nb, (size_t)(ne - nb));
    if (!v || v->script_only)
        return eous_err_set(err, EOUS_E_PARSE, "unknown tool \"%.*s\"; expected one of %s",
                            (int)(ne - nb > 64 ? 64 : ne - nb), nb, act_verb_names());
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s: expected %s", v->name, v->tool_sig);
    cJSON *args = NULL;
    eous_rc rc = tool_args_object(v, args_json, ctx, &args, err);
    out->kind = v->kind;
    if (!rc && v->kind == ACT_CALL)
        rc = tool_call_args(args, ctx, out, err);
    else if (!rc && v->tool_keys[0] && !strcmp(v->tool_keys[0], "id"))
        rc = tool_id_arg(args, ctx, out, err);
    if (!rc && v->kind != ACT_CALL)
        rc = tool_action_args(v, args, ctx, out, err);
    cJSON_Delete(args);
    if (rc)
        act_action_clear(out);
    return rc;
}

/* ---- WebArena text -------------------------------------------------------- */

/* One "[...]" group (no nesting) after optional spaces; advances *p past it. */
static int take_group(const char **p, const char *end, const char **b, const char **e)
{
    const char *s = *p;
    while (s < end && isspace((unsigned char)*s))
        s++;
    if (s >= end || *s != '[')
        return 0;
    const char *close = memchr(s + 1, ']', (size_t)(end - s - 1));
    if (!close)
        return 0;
    *b = s + 1;
    *e = close;
    *p = close + 1;
    return 1;
}

/* Everything from the first '[' to the last ']' (WebArena's greedy (.+)):
 * answers and JSON may contain brackets of their own. */
static int take_greedy(const char *p, const char *end, const char **b, const char **e)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p >= end || *p != '[')
        return 0;
    const char *close = end;
    while (close > p && close[-1] != ']')
        close--;
    if (close <= p + 1)
        return 0;
    *b = p + 1;
    *e = close - 1;
    return 1;
}

/* type's "[text] [0|1]" after the id: everything to the last ']', and the
 * Enter flag when the last group is [0], [1] or, copied from the prompt,
 * [press_enter_after=1]; Enter is WebArena's default when it is omitted. */
static int take_type_text(const char *p, const char *end, act_action *out)
{
    const char *rb, *re;
    if (!take_greedy(p, end, &rb, &re))
        return 0;
    /* rb..re is inside the outer brackets: "text] [1" or "text" */
    out->enter = 1;
    const char *tb = rb, *te = re;
    const char *fe = re, *fb = re;
    while (fe > rb && isspace((unsigned char)fe[-1]))
        fe--;
    if (fe > rb && (fe[-1] == '0' || fe[-1] == '1')) {
        fb = fe - 1;
        if (fb - rb >= 18 && strncmp(fb - 18, "press_enter_after=", 18) == 0)
            fb -= 18;
        while (fb > rb && isspace((unsigned char)fb[-1]))
            fb--;
    }
    if (fb < re && fb > rb && fb[-1] == '[') {
        const char *q = fb - 1;
        while (q > rb && isspace((unsigned char)q[-1]))
            q--;
        if (q > rb && q[-1] == ']') {
            out->enter = fe[-1] == '1';
            te = q - 1;
        }
    }
    out->text = dupn(tb, (size_t)(te - tb));
    return 1;
}

/* One non-empty "[...]" group into *out (what names it in errors). */
static eous_rc take_named_group(const char **p, const char *end, const char *ctx, const char *what, char **out,
                                eous_err *err)
{
    const char *b, *e;
    if (!take_group(p, end, &b, &e))
        return eous_err_set(err, EOUS_E_PARSE, "%s, missing [%s]", ctx, what);
    trim_span(&b, &e);
    if (b == e)
        return eous_err_set(err, EOUS_E_PARSE, "%s, [%s] is empty", ctx, what);
    *out = dupn(b, (size_t)(e - b));
    return *out ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
}

/* call's "[k] [tool] [{params}]"; the params group may be left out. */
static eous_rc take_call(const char *p, const char *end, const char *ctx, act_action *out, eous_err *err)
{
    eous_rc rc;
    if ((rc = take_named_group(&p, end, ctx, "k", &out->target, err)) ||
        (rc = take_named_group(&p, end, ctx, "tool", &out->tool, err)))
        return rc;
    const char *b, *e;
    if (take_greedy(p, end, &b, &e))
        return params_from_text(b, (size_t)(e - b), &out->params, ctx, err);
    out->params = cJSON_CreateObject();
    return EOUS_OK; /* a failed allocation is caught with the other missing fields */
}

/* Parses one action written at s[0..n) (verb first).  Text after the action
 * (a model's trailing prose) is ignored, as WebArena's regexes do. */
/* read [id] [name] [what], the model's extraction step. */
static eous_rc take_read(const char *p, const char *end, const char *ctx, act_action *out, eous_err *err)
{
    const char *b[3], *e[3];
    for (int i = 0; i < 3; i++)
        if (!take_group(&p, end, &b[i], &e[i]))
            return eous_err_set(err, EOUS_E_PARSE, "%s, missing [%s]", ctx, i == 0 ? "id" : i == 1 ? "name" : "what");
    if (!(out->target = norm_id(b[0], (size_t)(e[0] - b[0]))))
        return eous_err_set(err, EOUS_E_PARSE, "%s, [%.*s] is not an element or component id", ctx,
                            (int)(e[0] - b[0] > 40 ? 40 : e[0] - b[0]), b[0]);
    char *as = dupn(b[1], (size_t)(e[1] - b[1])), *what = dupn(b[2], (size_t)(e[2] - b[2]));
    eous_rc rc = as && what ? act_read_set(as, what, ctx, out, err) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (rc == EOUS_E_INVALID)
        rc = eous_err_remap(err, EOUS_E_PARSE);
    free(as);
    free(what);
    return rc;
}

/* The verb at the start of s: *vout and p past it, or a one-line error. */
static eous_rc text_verb(const char *s, const char *end, const act_verb **vout, const char **after, eous_err *err)
{
    const char *p = s;
    while (p < end && isspace((unsigned char)*p))
        p++;
    const char *vb = p;
    while (p < end && (isalpha((unsigned char)*p) || *p == '_'))
        p++;
    char lower[16];
    size_t vn = (size_t)(p - vb);
    if (vn == 0 || vn >= sizeof lower)
        return eous_err_set(err, EOUS_E_PARSE, "expected an action (%s), got \"%.40s\"", act_verb_names(), vb);
    for (size_t i = 0; i < vn; i++)
        lower[i] = (char)tolower((unsigned char)vb[i]);
    lower[vn] = '\0';
    const act_verb *v = act_verb_find(lower, vn);
    if (!v || v->script_only)
        return eous_err_set(err, EOUS_E_PARSE, "unknown action \"%s\"; expected one of %s", lower, act_verb_names());
    if (p < end && !isspace((unsigned char)*p) && *p != '[')
        return eous_err_set(err, EOUS_E_PARSE, "%s: expected %s, got \"%.*s\"", v->name, v->text_sig,
                            (int)(end - vb > 40 ? 40 : end - vb), vb);
    *vout = v;
    *after = p;
    return EOUS_OK;
}

/* click [id], hover [id], type [id] [text] [enter], select [id] [option] */
static eous_rc text_element(const act_verb *v, const char *p, const char *end, const char *ctx, act_action *out,
                            eous_err *err)
{
    const char *b, *e;
    if (!take_group(&p, end, &b, &e))
        return eous_err_set(err, EOUS_E_PARSE, "%s, missing [id]", ctx);
    if (!(out->target = norm_id(b, (size_t)(e - b))))
        return eous_err_set(err, EOUS_E_PARSE, "%s, [%.*s] is not an element id like [12]", ctx,
                            (int)(e - b > 40 ? 40 : e - b), b);
    if (v->kind == ACT_SELECT) {
        if (!take_greedy(p, end, &b, &e))
            return eous_err_set(err, EOUS_E_PARSE, "%s, missing [option]", ctx);
        trim_span(&b, &e);
        out->text = dupn(b, (size_t)(e - b));
    } else if (v->kind == ACT_TYPE && !take_type_text(p, end, out)) {
        return eous_err_set(err, EOUS_E_PARSE, "%s, missing [text]", ctx);
    }
    return EOUS_OK;
}

/* press [keys], goto [url], scroll [down|up], tab_focus [n], stop [answer] */
static eous_rc text_value(const act_verb *v, const char *p, const char *end, const char *ctx, act_action *out,
                          eous_err *err)
{
    const char *b, *e;
    switch (v->kind) {
    case ACT_PRESS:
    case ACT_GOTO:
        if (!take_greedy(p, end, &b, &e))
            return eous_err_set(err, EOUS_E_PARSE, "%s, missing [%s]", ctx, v->kind == ACT_PRESS ? "key_comb" : "url");
        trim_span(&b, &e);
        if (b == e)
            return eous_err_set(err, EOUS_E_PARSE, "%s, the %s is empty", ctx,
                                v->kind == ACT_PRESS ? "key combination" : "url");
        out->text = dupn(b, (size_t)(e - b));
        return EOUS_OK;
    case ACT_SCROLL:
        if (!take_group(&p, end, &b, &e))
            return eous_err_set(err, EOUS_E_PARSE, "%s, missing [down] or [up]", ctx);
        if (!(out->text = norm_direction(b, (size_t)(e - b))))
            return eous_err_set(err, EOUS_E_PARSE, "%s, got [%.*s]", ctx, (int)(e - b > 32 ? 32 : e - b), b);
        return EOUS_OK;
    case ACT_TAB_FOCUS:
        if (!take_group(&p, end, &b, &e) || !parse_index(b, (size_t)(e - b), &out->index))
            return eous_err_set(err, EOUS_E_PARSE, "%s, the tab index must be a number from 0", ctx);
        return EOUS_OK;
    case ACT_STOP:
        if (!take_greedy(p, end, &b, &e))
            return eous_err_set(err, EOUS_E_PARSE, "%s, missing [answer] (use stop [] for no answer)", ctx);
        trim_span(&b, &e);
        out->text = dupn(b, (size_t)(e - b));
        return EOUS_OK;
    default: /* go_back, go_forward, close_tab take nothing */
        return EOUS_OK;
    }
}

static eous_rc parse_one(const char *s, size_t n, act_action *out, eous_err *err)
{
    const char *p, *end = s + n;
    const act_verb *v = NULL;
    eous_rc rc = text_verb(s, end, &v, &p, err);
    if (rc)
        return rc;
    char ctx[160];
    snprintf(ctx, sizeof ctx, "%s: expected %s", v->name, v->text_sig);
    out->kind = v->kind;
    switch (v->kind) {
    case ACT_CLICK:
    case ACT_HOVER:
    case ACT_TYPE:
    case ACT_SELECT: rc = text_element(v, p, end, ctx, out, err); break;
    case ACT_CALL: rc = take_call(p, end, ctx, out, err); break;
    case ACT_READ: rc = take_read(p, end, ctx, out, err); break;
    default: rc = text_value(v, p, end, ctx, out, err); break;
    }
    if (!rc && !out->params && v->kind == ACT_CALL)
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!rc && (v->kind == ACT_TYPE || v->kind == ACT_SELECT || v->kind == ACT_STOP) && !out->text)
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (rc)
        act_action_clear(out);
    return rc;
}

/* Last complete ``` fence in text: *b..*e is its content.  An unclosed final
 * fence (an answer cut off by max_tokens) counts when no complete one exists. */
static int last_fence(const char *text, const char **b, const char **e)
{
    const char *open = NULL, *found_b = NULL, *found_e = NULL, *p = text;
    const char *unclosed = NULL;
    while ((p = strstr(p, "```")) != NULL) {
        if (!open) {
            open = p + 3;
        } else {
            found_b = open;
            found_e = p;
            open = NULL;
        }
        p += 3;
    }
    unclosed = open;
    if (found_b) {
        *b = found_b;
        *e = found_e;
        return 1;
    }
    if (unclosed) {
        *b = unclosed;
        *e = unclosed + strlen(unclosed);
        return 1;
    }
    return 0;
}

static int is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

eous_rc act_parse_text(const char *text, act_action *out, eous_err *err)
{
    act_action_clear(out);
    if (!text)
        text = "";
    const char *b, *e;
    if (last_fence(text, &b, &e)) {
        trim_span(&b, &e);
        /* skip a language tag line such as ```text */
        const char *nl = memchr(b, '\n', (size_t)(e - b));
        if (nl) {
            const char *w = b;
            while (w < nl && (isalpha((unsigned char)*w) || *w == '_'))
                w++;
            const char *r = w;
            while (r < nl && isspace((unsigned char)*r))
                r++;
            if (r == nl && w > b && !act_verb_find(b, (size_t)(w - b))) {
                b = nl + 1;
                trim_span(&b, &e);
            }
        }
        if (b == e)
            return eous_err_set(err, EOUS_E_PARSE,
                                "the ``` fence is empty; expected one action inside it, e.g. ```click [12]```");
        eous_rc rc = parse_one(b, (size_t)(e - b), out, err);
        if (rc)
            eous_err_prefix(err, "in the last ``` fence");
        return rc;
    }

    /* No fence: the first line holding a parsable action, wherever it starts. */
    const char *line = text;
    const char *z = text;
    while (*z && isspace((unsigned char)*z))
        z++;
    if (!*z)
        return eous_err_set(err, EOUS_E_PARSE,
                            "empty answer; expected one action such as ```click [12]```");
    eous_err first;
    eous_err_clear(&first);
    int have_first = 0;
    while (*line) {
        const char *le = strchr(line, '\n');
        if (!le)
            le = line + strlen(line);
        for (const char *q = line; q < le; q++) {
            if (q > line && is_word_char(q[-1]))
                continue;
            if (!isalpha((unsigned char)*q))
                continue;
            const char *w = q;
            while (w < le && (isalpha((unsigned char)*w) || *w == '_'))
                w++;
            char lower[16];
            size_t wn = (size_t)(w - q);
            if (wn >= sizeof lower)
                continue;
            for (size_t i = 0; i < wn; i++)
                lower[i] = (char)tolower((unsigned char)q[i]);
            if (!act_verb_find(lower, wn))
                continue;
            eous_err e1;
            eous_err_clear(&e1);
            if (parse_one(q, (size_t)(le - q), out, &e1) == EOUS_OK)
                return EOUS_OK;
            /* remember why an action-looking line failed: "type [12]" deserves its own message */
            const char *ls = line;
            while (ls < q && isspace((unsigned char)*ls))
                ls++;
            if (!have_first && (ls == q || (w < le && (*w == '[' || (w + 1 < le && w[1] == '['))))) {
                first = e1;
                have_first = 1;
            }
        }
        line = *le ? le + 1 : le;
    }
    if (have_first)
        return eous_err_set(err, first.rc, "%s", first.msg);
    return eous_err_set(err, EOUS_E_PARSE,
                        "no action found in the answer; expected one action such as ```click [12]``` "
                        "(end with: In summary, the next action I will perform is ```...```)");
}

/* ---- script steps ---------------------------------------------------------- */

static eous_rc script_target(const cJSON *val, const char *ctx, char **out, eous_err *err)
{
    if (!cJSON_IsString(val) || !val->valuestring[0])
        return eous_err_set(err, EOUS_E_INVALID, "%s, the target must be a non-empty string, got a %s",
                            ctx, cJSON_IsString(val) ? "empty string" : eous_json_type_name(val));
    if (!(*out = strdup(val->valuestring)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* The step's one action key: its verb and value, or a one-line error. */
static eous_rc script_verb(const cJSON *step, const act_verb **vout, const cJSON **vval, eous_err *err)
{
    const act_verb *v = NULL;
    const cJSON *val = NULL;
    for (const cJSON *it = step->child; it; it = it->next) {
        const char *k = it->string ? it->string : "";
        const act_verb *f = act_verb_find(k, strlen(k));
        if (!f)
            continue;
        if (v)
            return eous_err_set(err, EOUS_E_INVALID,
                                "script step: expected exactly one action key, found \"%s\" and \"%s\"",
                                v->name, f->name);
        v = f;
        val = it;
    }
    if (!v) {
        const char *k = step->child && step->child->string ? step->child->string : NULL;
        if (k)
            return eous_err_set(err, EOUS_E_INVALID,
                                "script step: expected one action key (%s), found only \"%.64s\"", act_verb_names(), k);
        return eous_err_set(err, EOUS_E_INVALID, "script step: expected one action key (%s), the object is empty",
                            act_verb_names());
    }
    *vout = v;
    *vval = val;
    return EOUS_OK;
}

/* {"call": K, "tool": T, "params": {...}} */
static eous_rc script_call(const cJSON *step, const cJSON *val, const char *ctx, act_action *out, eous_err *err)
{
    eous_rc rc = script_target(val, ctx, &out->target, err);
    if (rc)
        return rc;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(step, "tool");
    if (!cJSON_IsString(a) || !a->valuestring[0])
        return eous_err_set(err, EOUS_E_INVALID, "%s, %s \"tool\"", ctx, a ? "bad" : "missing");
    if (!(out->tool = strdup(a->valuestring)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (params_from_json(cJSON_GetObjectItemCaseSensitive(step, "params"), &out->params, ctx, err)) {
        /* a task file is bad input, not model output */
        if (err)
            err->rc = EOUS_E_INVALID;
        return EOUS_E_INVALID;
    }
    return EOUS_OK;
}

/* click, hover, type, select: a target, and type's text or select's option */
static eous_rc script_element(const act_verb *v, const cJSON *step, const cJSON *val, const char *ctx,
                              act_action *out, eous_err *err)
{
    eous_rc rc = script_target(val, ctx, &out->target, err);
    if (rc)
        return rc;
    const cJSON *a;
    if (v->kind == ACT_TYPE || v->kind == ACT_SELECT) {
        const char *key = v->kind == ACT_TYPE ? "text" : "option";
        if (!(a = cJSON_GetObjectItemCaseSensitive(step, key)))
            return eous_err_set(err, EOUS_E_INVALID, "%s, missing \"%s\"", ctx, key);
        if (!(out->text = json_to_text(a)))
            return eous_err_set(err, EOUS_E_INVALID, "%s, \"%s\" must be a string, got a %s", ctx, key,
                                eous_json_type_name(a));
    }
    if (v->kind == ACT_TYPE) {
        if ((a = cJSON_GetObjectItemCaseSensitive(step, "enter")) && !json_to_bool(a, &out->enter))
            return eous_err_set(err, EOUS_E_INVALID, "%s, \"enter\" must be true or false", ctx);
        if ((a = cJSON_GetObjectItemCaseSensitive(step, "clear")) && !json_to_bool(a, &out->clear))
            return eous_err_set(err, EOUS_E_INVALID, "%s, \"clear\" must be true or false", ctx);
    }
    return EOUS_OK;
}

/* The verbs whose whole argument is the key's value: press, goto, scroll,
 * tab_focus, stop, and go_back/go_forward/close_tab (true, {} or null). */
static eous_rc script_value(const act_verb *v, const cJSON *val, const char *ctx, act_action *out, eous_err *err)
{
    switch (v->kind) {
    case ACT_PRESS:
    case ACT_GOTO:
        if (!cJSON_IsString(val) || !val->valuestring[0])
            return eous_err_set(err, EOUS_E_INVALID, "%s, got a %s", ctx,
                                cJSON_IsString(val) ? "empty string" : eous_json_type_name(val));
        out->text = strdup(val->valuestring);
        break;
    case ACT_SCROLL:
        if (!cJSON_IsString(val) || !(out->text = norm_direction(val->valuestring, strlen(val->valuestring))))
            return eous_err_set(err, EOUS_E_INVALID, "%s, got %s%.32s%s", ctx, cJSON_IsString(val) ? "\"" : "a ",
                                cJSON_IsString(val) ? val->valuestring : eous_json_type_name(val),
                                cJSON_IsString(val) ? "\"" : "");
        break;
    case ACT_TAB_FOCUS:
        if (!json_to_index(val, &out->index))
            return eous_err_set(err, EOUS_E_INVALID, "%s, got a %s", ctx, eous_json_type_name(val));
        break;
    case ACT_STOP:
        if (cJSON_IsNull(val))
            out->text = strdup("");
        else if (cJSON_IsObject(val)) /* {"stop": {...}}: a WebArena-Verified answer */
            out->text = eous_json_print(val);
        else if (!(out->text = json_to_text(val)))
            return eous_err_set(err, EOUS_E_INVALID, "%s, got a %s", ctx, eous_json_type_name(val));
        break;
    default: /* go_back, go_forward, close_tab: true (or {} / null) */
        if (cJSON_IsFalse(val) || !(cJSON_IsTrue(val) || cJSON_IsNull(val) || (cJSON_IsObject(val) && !val->child)))
            return eous_err_set(err, EOUS_E_INVALID, "%s, got %s", ctx,
                                cJSON_IsFalse(val) ? "false" : eous_json_type_name(val));
        return EOUS_OK;
    }
    if ((v->kind == ACT_PRESS || v->kind == ACT_GOTO || v->kind == ACT_STOP) && !out->text)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

eous_rc act_parse_script_step(const cJSON *step, act_action *out, eous_err *err)
{
    act_action_clear(out);
    if (!cJSON_IsObject(step))
        return eous_err_set(err, EOUS_E_INVALID,
                            "script step: expected an object with one action key (%s), got a %s",
                            act_verb_names(), eous_json_type_name(step));
    /* a key twice anywhere means two things; cJSON keeps both and would compare them crosswise */
    const char *dup = params_duplicate_key(step);
    if (dup)
        return eous_err_set(err, EOUS_E_INVALID, "script step has the key \"%.60s\" more than once", dup);
    const act_verb *v = NULL;
    const cJSON *val = NULL;
    eous_rc rc = script_verb(step, &v, &val, err);
    if (rc)
        return rc;
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s step: expected %s", v->name, v->script_sig);
    for (const cJSON *it = step->child; it; it = it->next) {
        const char *k = it->string ? it->string : "";
        if (it != val && !in_list(v->script_keys, 4, k) && !act_step_common_key(k))
            return eous_err_set(err, EOUS_E_INVALID, "%s, unknown key \"%.64s\"", ctx, k);
    }
    if ((rc = act_step_common_parse(step, ctx, out, err)))
        goto done;
    out->kind = v->kind;
    out->from_script = 1;
    switch (v->kind) {
    case ACT_WAIT: rc = act_wait_parse(val, ctx, out, err); break;
    case ACT_READ: rc = act_read_parse(val, step, ctx, out, err); break;
    case ACT_EXPECT: rc = act_expect_parse(val, ctx, out, err); break;
    case ACT_UPLOAD:
    case ACT_DOWNLOAD: rc = act_files_parse(val, step, ctx, out, err); break;
    case ACT_CALL: rc = script_call(step, val, ctx, out, err); break;
    case ACT_CLICK:
    case ACT_HOVER:
    case ACT_TYPE:
    case ACT_SELECT: rc = script_element(v, step, val, ctx, out, err); break;
    default: rc = script_value(v, val, ctx, out, err); break;
    }
done:
    if (rc)
        act_action_clear(out);
    return rc;
}

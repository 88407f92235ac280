/* core/schema.c — a task's output_schema: the JSON Schema subset of
 * core/schema.h, checked once when the task loads, then applied to the
 * task's output.  Recursive over the schema; depth is bounded so a hostile
 * task file cannot exhaust the stack. */
#include "core/schema.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "core/regex_tame.h"

#define MAX_DEPTH 32
#define STR_(x) #x
#define STR(x) STR_(x)

static const char *const known[] = {"type", "properties", "required", "additionalProperties", "items", "minItems",
                                    "maxItems", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
                                    "exclusiveMaximum", "minLength", "maxLength", "pattern", "anyOf", "$schema",
                                    "$id", "title", "description", "default", "examples"};
static const char *const types[] = {"object", "array", "string", "number", "integer", "boolean", "null"};

static int in(const char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

static eous_rc bad(eous_err *err, const char *path, const char *what)
{
    return eous_err_set(err, EOUS_E_INVALID, "output_schema at %s: %s", path[0] ? path : "/", what);
}

/* a number with no fraction, JSON Schema's integer; no cast, as casting a double past long long's range is undefined */
static int is_whole(double d)
{
    return isfinite(d) && d == floor(d);
}

static eous_rc check(const cJSON *s, const char *path, int depth, eous_err *err)
{
    if (depth > MAX_DEPTH)
        return bad(err, path, "nested too deep");
    if (cJSON_IsBool(s))
        return EOUS_OK;
    if (!cJSON_IsObject(s))
        return bad(err, path, "expected a schema object or a boolean");
    char sub[1024];
    eous_rc rc;
    for (const cJSON *k = s->child; k; k = k->next) {
        const char *n = k->string;
        snprintf(sub, sizeof sub, "%s/%s", path, n);
        if (!in(known, sizeof known / sizeof *known, n))
            return bad(err, sub, "unsupported keyword (see core/schema.h)");
        if (!strcmp(n, "type")) {
            if (cJSON_IsString(k) ? !in(types, 7, k->valuestring) : !cJSON_IsArray(k) || !k->child)
                return bad(err, sub, "expected a type name or a list of them");
            for (const cJSON *t = cJSON_IsArray(k) ? k->child : NULL; t; t = t->next)
                if (!cJSON_IsString(t) || !in(types, 7, t->valuestring))
                    return bad(err, sub, "expected type names (object, array, string, number, integer, boolean, null)");
        } else if (!strcmp(n, "properties")) {
            if (!cJSON_IsObject(k))
                return bad(err, sub, "expected an object of schemas");
            for (const cJSON *p = k->child; p; p = p->next) {
                char pp[1024];
                snprintf(pp, sizeof pp, "%s/%s", sub, p->string);
                if ((rc = check(p, pp, depth + 1, err)))
                    return rc;
            }
        } else if (!strcmp(n, "required") || !strcmp(n, "enum")) {
            if (!cJSON_IsArray(k))
                return bad(err, sub, "expected a list");
            for (const cJSON *r = k->child; r && n[0] == 'r'; r = r->next)
                if (!cJSON_IsString(r))
                    return bad(err, sub, "expected a list of property names");
        } else if (!strcmp(n, "additionalProperties") || !strcmp(n, "items")) {
            if ((rc = check(k, sub, depth + 1, err)))
                return rc;
        } else if (!strcmp(n, "anyOf")) {
            if (!cJSON_IsArray(k) || !k->child)
                return bad(err, sub, "expected a non-empty list of schemas");
            int i = 0;
            for (const cJSON *a = k->child; a; a = a->next, i++) {
                char ap[1024];
                snprintf(ap, sizeof ap, "%s/%d", sub, i);
                if ((rc = check(a, ap, depth + 1, err)))
                    return rc;
            }
        } else if (!strcmp(n, "pattern")) {
            regex_t re;
            if (cJSON_IsString(k) && !eous_regex_is_tame(k->valuestring))
                return bad(err, sub, "expected a regular expression of at most " STR(EOUS_REGEX_MAX_PATTERN) " bytes, without a "
                                     "backreference, a quantifier after a quantifier, more than "
                                     STR(EOUS_REGEX_MAX_QUANTIFIERS) " quantifiers, or counted repeats past "
                                     STR(EOUS_REGEX_MAX_REPEAT) " in all");
            if (!cJSON_IsString(k) || regcomp(&re, k->valuestring, REG_EXTENDED | REG_NOSUB))
                return bad(err, sub, "expected a regular expression that compiles");
            regfree(&re);
        } else if (strstr(n, "min") == n || strstr(n, "max") == n || strstr(n, "exclusive") == n) {
            if (!cJSON_IsNumber(k))
                return bad(err, sub, "expected a number");
            if (strstr(n, "Items") || strstr(n, "Length")) {
                if (k->valuedouble < 0 || !is_whole(k->valuedouble))
                    return bad(err, sub, "expected a whole number from 0");
            }
        }
    }
    return EOUS_OK;
}

eous_rc eous_schema_check(const cJSON *schema, eous_err *err)
{
    return check(schema, "", 0, err);
}

static const char *type_of(const cJSON *v)
{
    if (cJSON_IsObject(v))
        return "object";
    if (cJSON_IsArray(v))
        return "array";
    if (cJSON_IsString(v))
        return "string";
    if (cJSON_IsNumber(v))
        return is_whole(v->valuedouble) ? "integer" : "number";
    if (cJSON_IsBool(v))
        return "boolean";
    return v ? "null" : "nothing";
}

static int type_ok(const char *want, const cJSON *v)
{
    const char *t = type_of(v);
    return !strcmp(want, t) || (!strcmp(want, "number") && !strcmp(t, "integer"));
}

/* 0 with why when v breaks s at path. */
static int valid(const cJSON *s, const cJSON *v, const char *path, char *why, size_t n);

/* type, const and enum */
static int valid_kind(const cJSON *s, const cJSON *v, const char *at, char *why, size_t n)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "type");
    if (k) {
        int ok = 0;
        if (cJSON_IsString(k))
            ok = type_ok(k->valuestring, v);
        for (const cJSON *t = cJSON_IsArray(k) ? k->child : NULL; t && !ok; t = t->next)
            ok = type_ok(t->valuestring, v);
        if (!ok) {
            char *w = cJSON_PrintUnformatted(k);
            snprintf(why, n, "at %s: expected %s, got %s", at, w ? w : "a type", type_of(v));
            cJSON_free(w);
            return 0;
        }
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(s, "const")) && !cJSON_Compare(k, v, 1)) {
        snprintf(why, n, "at %s: expected the constant value", at);
        return 0;
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(s, "enum"))) {
        int ok = 0;
        for (const cJSON *e = k->child; e && !ok; e = e->next)
            ok = cJSON_Compare(e, v, 1);
        if (!ok) {
            snprintf(why, n, "at %s: expected one of the enum values", at);
            return 0;
        }
    }
    return 1;
}

/* a number's bounds */
static int valid_number(const cJSON *s, double d, const char *at, char *why, size_t n)
{
    static const char *const lim[] = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"};
    for (int i = 0; i < 4; i++) {
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(s, lim[i]);
        if (!l)
            continue;
        double m = l->valuedouble;
        int ok = i == 0 ? d >= m : i == 1 ? d <= m : i == 2 ? d > m : d < m;
        if (!ok) {
            snprintf(why, n, "at %s: expected %s %g, got %g", at, lim[i], m, d);
            return 0;
        }
    }
    return 1;
}

/* a string's length (in characters, not bytes) and pattern */
static int valid_string(const cJSON *s, const char *str, const char *at, char *why, size_t n)
{
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)str; *p; p++)
        len += (*p & 0xC0) != 0x80;
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(s, "minLength"),
                *mx = cJSON_GetObjectItemCaseSensitive(s, "maxLength");
    if ((mn && (double)len < mn->valuedouble) || (mx && (double)len > mx->valuedouble)) {
        snprintf(why, n, "at %s: expected a length %s %g, got %zu", at, mn && (double)len < mn->valuedouble ? "of at least" : "of at most",
                 mn && (double)len < mn->valuedouble ? mn->valuedouble : mx->valuedouble, len);
        return 0;
    }
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "pattern");
    if (k) {
        regex_t re;
        int ok = !regcomp(&re, k->valuestring, REG_EXTENDED | REG_NOSUB);
        ok = ok && !regexec(&re, str, 0, NULL, 0);
        regfree(&re);
        if (!ok) {
            snprintf(why, n, "at %s: expected text matching %.100s, got \"%.100s\"", at, k->valuestring, str);
            return 0;
        }
    }
    return 1;
}

/* an array's size and items */
static int valid_array(const cJSON *s, const cJSON *v, const char *path, const char *at, char *why, size_t n)
{
    int cnt = cJSON_GetArraySize(v);
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(s, "minItems"),
                *mx = cJSON_GetObjectItemCaseSensitive(s, "maxItems");
    if ((mn && cnt < mn->valuedouble) || (mx && cnt > mx->valuedouble)) {
        snprintf(why, n, "at %s: expected %s %g items, got %d", at, mn && cnt < mn->valuedouble ? "at least" : "at most",
                 mn && cnt < mn->valuedouble ? mn->valuedouble : mx->valuedouble, cnt);
        return 0;
    }
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "items");
    if (k) {
        char sub[1024];
        int i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            snprintf(sub, sizeof sub, "%s/%d", path, i);
            if (!valid(k, e, sub, why, n))
                return 0;
        }
    }
    return 1;
}

/* an object's required and other properties */
static int valid_object(const cJSON *s, const cJSON *v, const char *path, char *why, size_t n)
{
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required");
    for (const cJSON *r = req ? req->child : NULL; r; r = r->next)
        if (!cJSON_GetObjectItemCaseSensitive(v, r->valuestring)) {
            snprintf(why, n, "at %s/%s: expected a required property, got nothing", path, r->valuestring);
            return 0;
        }
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
    char sub[1024];
    for (const cJSON *e = v->child; e; e = e->next) {
        const cJSON *ps = props ? cJSON_GetObjectItemCaseSensitive(props, e->string) : NULL;
        snprintf(sub, sizeof sub, "%s/%s", path, e->string);
        if (ps ? !valid(ps, e, sub, why, n) : extra && !valid(extra, e, sub, why, n)) {
            if (extra && !ps && cJSON_IsFalse(extra))
                snprintf(why, n, "at %s: expected no property \"%.100s\" (additionalProperties false)", sub,
                         e->string);
            return 0;
        }
    }
    return 1;
}

static int valid(const cJSON *s, const cJSON *v, const char *path, char *why, size_t n)
{
    const char *at = path[0] ? path : "/";
    if (cJSON_IsBool(s)) {
        if (cJSON_IsFalse(s))
            snprintf(why, n, "at %s: expected nothing here (false schema)", at);
        return cJSON_IsTrue(s);
    }
    if (!valid_kind(s, v, at, why, n))
        return 0;
    if (cJSON_IsNumber(v) && !valid_number(s, v->valuedouble, at, why, n))
        return 0;
    if (cJSON_IsString(v) && !valid_string(s, v->valuestring, at, why, n))
        return 0;
    if (cJSON_IsArray(v) && !valid_array(s, v, path, at, why, n))
        return 0;
    if (cJSON_IsObject(v) && !valid_object(s, v, path, why, n))
        return 0;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "anyOf");
    if (k) {
        char first[512] = "";
        for (const cJSON *a = k->child; a; a = a->next) {
            if (valid(a, v, path, first[0] ? why : first, first[0] ? n : sizeof first))
                return 1;
        }
        snprintf(why, n, "%s (no anyOf branch fits)", first);
        return 0;
    }
    return 1;
}

int eous_schema_validate(const cJSON *schema, const cJSON *v, char *why, size_t why_size)
{
    eous_err e;
    eous_err_clear(&e);
    if (eous_schema_check(schema, &e)) {
        snprintf(why, why_size, "%s", e.msg);
        return 0;
    }
    why[0] = '\0';
    return valid(schema, v, "", why, why_size);
}

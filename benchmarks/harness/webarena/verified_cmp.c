/* webarena/verified_cmp.c — WebArena-Verified's equality of normalised values
 * (each data type's __eq__, alternatives on either side) and its recursive
 * ValueComparator (objects key by key, arrays ordered or by greedy unordered
 * matching), producing the same assertion names. */
#define _GNU_SOURCE
#include "webarena/verified_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "webarena/eval.h"

int vf_url_equal(const cJSON *exp, const cJSON *act);

void vf_assert(cJSON *out, const char *name, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "assertion_name", name);
    cJSON *m = cJSON_AddArrayToObject(a, "assertion_msgs");
    cJSON_AddItemToArray(m, cJSON_CreateString(msg));
    cJSON_AddItemToArray(out, a);
}

cJSON *vf_report(const cJSON *v)
{
    if (vf_typeof(v)) {
        const cJSON *alts = cJSON_GetObjectItemCaseSensitive(v, VF_A);
        const cJSON *first = cJSON_IsArray(alts) ? alts->child : NULL;
        if (first && !strcmp(vf_typeof(v), "url")) {
            cJSON *u = cJSON_CreateObject();
            cJSON_AddStringToObject(u, "base_url", eous_json_str(first, "base_url"));
            cJSON_AddItemToObject(u, "query_params", vf_report(eous_json_obj(first, "query_params")));
            return u;
        }
        return first ? vf_report(first) : cJSON_CreateNull();
    }
    if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        cJSON *o = cJSON_IsArray(v) ? cJSON_CreateArray() : cJSON_CreateObject();
        const cJSON *c;
        cJSON_ArrayForEach(c, v) {
            if (cJSON_IsArray(v))
                cJSON_AddItemToArray(o, vf_report(c));
            else
                cJSON_AddItemToObject(o, c->string, vf_report(c));
        }
        return o;
    }
    return v ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
}

/* compact text of a value for messages (caller frees) */
static char *show(const cJSON *v)
{
    cJSON *r = vf_report(v);
    char *s = r ? cJSON_PrintUnformatted(r) : NULL;
    cJSON_Delete(r);
    if (s && strlen(s) > 300)
        strcpy(s + 296, "...");
    return s ? s : strdup("?");
}

/* ---- type equality ---- */

static const char *punct = "'\"`.,;:!?";

static char *strip_punct(const char *s)
{
    while (*s && strchr(punct, *s))
        s++;
    size_t n = strlen(s);
    while (n && strchr(punct, s[n - 1]))
        n--;
    return strndup(s, n);
}

static int string_eq(const cJSON *ea, const cJSON *aa)
{
    const cJSON *x, *y;
    for (int side = 0; side < 2; side++) {
        cJSON_ArrayForEach(x, (side ? aa : ea)) {
            if (!cJSON_IsString(x) || !vf_is_regexp(x->valuestring))
                continue;
            cJSON_ArrayForEach(y, (side ? ea : aa))
                if (cJSON_IsString(y) && vf_re_search(x->valuestring, y->valuestring, 1) == 1)
                    return 1;
        }
    }
    cJSON_ArrayForEach(x, ea) cJSON_ArrayForEach(y, aa)
        if (cJSON_IsString(x) && cJSON_IsString(y) && !strcmp(x->valuestring, y->valuestring))
            return 1;
    cJSON_ArrayForEach(x, ea) cJSON_ArrayForEach(y, aa) {
        if (!cJSON_IsString(x) || !cJSON_IsString(y))
            continue;
        char *a = strip_punct(x->valuestring), *b = strip_punct(y->valuestring);
        int eq = a && b && !strcmp(a, b);
        free(a), free(b);
        if (eq)
            return 1;
    }
    return 0;
}

/* thefuzz token_sort_ratio: processed (alphanumerics, lower case), tokens
 * sorted, then rapidfuzz's ratio (2·LCS/(|a|+|b|)·100) rounded */
static char *fuzz_process(const char *s)
{
    char *t = strdup(s);
    if (!t)
        return NULL;
    for (char *p = t; *p; p++)
        *p = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : ' ';
    char *tok[256];
    int n = 0;
    for (char *w = strtok(t, " "); w && n < 256; w = strtok(NULL, " "))
        tok[n++] = w;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(tok[j - 1], tok[j]) > 0; j--) {
            char *x = tok[j];
            tok[j] = tok[j - 1], tok[j - 1] = x;
        }
    eous_buf b;
    eous_buf_init(&b, 0);
    for (int i = 0; i < n; i++) {
        if (i)
            eous_buf_putc(&b, ' ', NULL);
        eous_buf_puts(&b, tok[i], NULL);
    }
    free(t);
    char *r = eous_buf_steal(&b);
    return r ? r : strdup("");
}

int vf_token_sort_ratio(const char *a, const char *b);
int vf_token_sort_ratio(const char *a, const char *b)
{
    char *x = fuzz_process(a), *y = fuzz_process(b);
    size_t n = x ? strlen(x) : 0, m = y ? strlen(y) : 0;
    int score = 0;
    if (n && m) {
        size_t *prev = calloc(m + 1, sizeof *prev), *cur = calloc(m + 1, sizeof *cur);
        if (prev && cur) {
            for (size_t i = 1; i <= n; i++) {
                for (size_t j = 1; j <= m; j++)
                    cur[j] = x[i - 1] == y[j - 1] ? prev[j - 1] + 1 : (prev[j] > cur[j - 1] ? prev[j] : cur[j - 1]);
                size_t *t = prev;
                prev = cur, cur = t;
            }
            double r = 200.0 * (double)prev[m] / (double)(n + m);
            score = (int)nearbyint(r); /* round half to even, as Python's round */
        }
        free(prev), free(cur);
    }
    free(x), free(y);
    return score;
}

static double num(const cJSON *v)
{
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static int typed_eq(const char *t, const cJSON *e, const cJSON *a)
{
    const cJSON *ea = cJSON_GetObjectItemCaseSensitive(e, VF_A), *aa = cJSON_GetObjectItemCaseSensitive(a, VF_A);
    const cJSON *x, *y;
    if (!strcmp(t, "string"))
        return string_eq(ea, aa);
    if (!strcmp(t, "url"))
        return vf_url_equal(e, a);
    if (!strcmp(t, "currency")) /* theirs compares the first alternatives only */
        return ea && aa && ea->child && aa->child && fabs(num(ea->child) - num(aa->child)) <= 0.1 + 1e-9;
    if (!strcmp(t, "coordinates")) {
        const cJSON *p = ea ? ea->child : NULL, *q = aa ? aa->child : NULL;
        return p && q && fabs(eous_json_num(p, "latitude", NAN) - eous_json_num(q, "latitude", NAN)) <= 1e-5 &&
               fabs(eous_json_num(p, "longitude", NAN) - eous_json_num(q, "longitude", NAN)) <= 1e-5;
    }
    cJSON_ArrayForEach(x, ea) cJSON_ArrayForEach(y, aa) {
        if (!strcmp(t, "duration") || !strcmp(t, "distance")) {
            int dur = !strcmp(t, "duration");
            double p = num(x), q = num(y), mx = p > q ? p : q;
            double tol = dur ? fmax(180.0, mx * 0.10) : fmax(10.0, mx * 0.02);
            if (fabs(p - q) <= tol + 1e-9)
                return 1;
        } else if (!strcmp(t, "location-name")) {
            const char *p = cJSON_IsString(x) ? x->valuestring : "", *q = cJSON_IsString(y) ? y->valuestring : "";
            if (!*p || !*q) {
                if (!strcmp(p, q))
                    return 1;
                continue;
            }
            if (vf_token_sort_ratio(p, q) >= 80)
                return 1;
        } else if (cJSON_Compare(x, y, 1)) { /* number, date, month, boolean, null: exact */
            return 1;
        }
    }
    return 0;
}

/* Python == between plain JSON values (1 == 1.0 == True) */
static int py_eq(const cJSON *a, const cJSON *b)
{
    int an = cJSON_IsNumber(a) || cJSON_IsBool(a), bn = cJSON_IsNumber(b) || cJSON_IsBool(b);
    if (an && bn) {
        double x = cJSON_IsBool(a) ? cJSON_IsTrue(a) : a->valuedouble;
        double y = cJSON_IsBool(b) ? cJSON_IsTrue(b) : b->valuedouble;
        return x == y;
    }
    if (cJSON_IsArray(a) && cJSON_IsArray(b)) {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next)
            if (!py_eq(x, y))
                return 0;
        return !x && !y;
    }
    if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
        if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
            return 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, a) {
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
            if (!y || !py_eq(x, y))
                return 0;
        }
        return 1;
    }
    return cJSON_Compare(a, b, 1);
}

int vf_equal(const cJSON *e, const cJSON *a)
{
    const char *te = vf_typeof(e), *ta = vf_typeof(a);
    if (te && ta)
        return !strcmp(te, ta) && typed_eq(te, e, a);
    if (te || ta) {
        /* a plain string against a NormalizedString is normalised on the fly */
        const cJSON *typed = te ? e : a, *raw = te ? a : e;
        if (strcmp(vf_typeof(typed), "string") || !cJSON_IsString(raw))
            return 0;
        vf_ctx c = {0};
        cJSON *n = vf_norm_typed(&c, "string", raw, 0);
        int r = n && vf_typeof(n) && typed_eq("string", te ? e : n, te ? n : a);
        cJSON_Delete(n);
        return r;
    }
    return py_eq(e, a);
}

/* ---- the recursive comparator ---- */

static int plain_obj(const cJSON *v)
{
    return cJSON_IsObject(v) && !vf_typeof(v);
}

static void cmp_rec(const cJSON *a, const cJSON *e, int ordered, const char *path, const char *ign, int extra_ok,
                    cJSON *out);

static int matches(const cJSON *a, const cJSON *e, int ordered, const char *path, const char *ign, int extra_ok)
{
    cJSON *tmp = cJSON_CreateArray();
    cmp_rec(a, e, ordered, path, ign, extra_ok, tmp);
    int ok = cJSON_GetArraySize(tmp) == 0;
    cJSON_Delete(tmp);
    return ok;
}

static char *show_array(const cJSON *arr)
{
    int n = cJSON_GetArraySize(arr);
    eous_buf b;
    eous_buf_init(&b, 0);
    eous_buf_putc(&b, '[', NULL);
    for (int i = 0; i < n; i++) {
        if (n > 3 && i == 2) {
            eous_buf_puts(&b, "..., ", NULL);
            i = n - 1;
        }
        char *s = show(cJSON_GetArrayItem(arr, i));
        eous_buf_puts(&b, s, NULL);
        free(s);
        if (i < n - 1)
            eous_buf_puts(&b, ", ", NULL);
    }
    eous_buf_putc(&b, ']', NULL);
    return eous_buf_steal(&b);
}

static void cmp_arrays(const cJSON *a, const cJSON *e, int ordered, const char *path, const char *ign, int extra_ok,
                       cJSON *out)
{
    char name[300];
    if (!cJSON_IsArray(a)) {
        snprintf(name, sizeof name, "%s_invalid_format", path);
        vf_assert(out, name, "Expected an array, but got: %s", eous_json_type_name(a));
        return;
    }
    int ne = cJSON_GetArraySize(e), na = cJSON_GetArraySize(a);
    char *es = show_array(e), *as = show_array(a);
    snprintf(name, sizeof name, "%s_array_values_mismatch", path);
    if (ordered) {
        int before = cJSON_GetArraySize(out), mism = 0, minl = ne < na ? ne : na;
        for (int i = 0; i < minl; i++) {
            char p[300];
            snprintf(p, sizeof p, "%s[%d]", path, i);
            int k = cJSON_GetArraySize(out);
            cmp_rec(cJSON_GetArrayItem(a, i), cJSON_GetArrayItem(e, i), ordered, p, ign, extra_ok, out);
            if (cJSON_GetArraySize(out) > k)
                mism++;
        }
        if (ne != na || (mism && cJSON_GetArraySize(out) == before))
            vf_assert(out, name, "Array value mismatch (ordered). Matched (%d/%d); Expected: %s, Got: %s", minl - mism,
                      ne, es, as);
    } else {
        char *used = calloc((size_t)na + 1, 1);
        int missing = 0, i = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, e) {
            char p[300];
            snprintf(p, sizeof p, "%s[%d]", path, i++);
            int found = 0, j = 0;
            const cJSON *y;
            cJSON_ArrayForEach(y, a) {
                if (used && !used[j] && matches(y, x, ordered, p, ign, extra_ok)) {
                    used[j] = 1, found = 1;
                    break;
                }
                j++;
            }
            missing += !found;
        }
        int extra = 0;
        for (int j = 0; j < na; j++)
            extra += used ? !used[j] : 1;
        free(used);
        if (missing || extra) {
            if (!missing)
                vf_assert(out, name, "Array contains all expected elements (%d/%d) but has %d extra element(s); Expected: %s, Got: %s",
                          ne, ne, extra, es, as);
            else if (!extra)
                vf_assert(out, name, "Array is missing %d expected element(s). Matched (%d/%d); Expected: %s, Got: %s",
                          missing, ne - missing, ne, es, as);
            else
                vf_assert(out, name,
                          "Array value mismatch (unordered). Matched (%d/%d), Missing: %d, Extra: %d; Expected: %s, Got: %s",
                          ne - missing, ne, missing, extra, es, as);
        }
    }
    free(es), free(as);
}

static void cmp_objects(const cJSON *a, const cJSON *e, int ordered, const char *path, const char *ign, int extra_ok,
                        cJSON *out)
{
    char name[300];
    if (!plain_obj(a)) {
        snprintf(name, sizeof name, "%s_invalid_format", path);
        vf_assert(out, name, "Expected a structured object, but got: %s",
                  vf_typeof(a) ? vf_typeof(a) : cJSON_IsString(a) ? "str" : eous_json_type_name(a));
        return;
    }
    eous_buf miss, extra;
    eous_buf_init(&miss, 0), eous_buf_init(&extra, 0);
    const cJSON *k;
    cJSON_ArrayForEach(k, e) if (!cJSON_GetObjectItemCaseSensitive(a, k->string))
        eous_buf_printf(&miss, NULL, "%s'%s'", miss.len ? ", " : "", k->string);
    cJSON_ArrayForEach(k, a) if (!cJSON_GetObjectItemCaseSensitive(e, k->string))
        eous_buf_printf(&extra, NULL, "%s'%s'", extra.len ? ", " : "", k->string);
    if ((extra.len && !extra_ok) || miss.len) {
        snprintf(name, sizeof name, "%s_keys_mismatch", path);
        char *m = eous_buf_steal(&miss), *x = eous_buf_steal(&extra);
        if (x && *x && !extra_ok && m && *m)
            vf_assert(out, name, "Extra keys in actual object: [%s]; Missing keys in actual object: [%s]", x, m);
        else if (x && *x && !extra_ok)
            vf_assert(out, name, "Extra keys in actual object: [%s]", x);
        else
            vf_assert(out, name, "Missing keys in actual object: [%s]", m ? m : "");
        free(m), free(x);
    } else {
        eous_buf_free(&miss), eous_buf_free(&extra);
    }
    cJSON_ArrayForEach(k, e) {
        const cJSON *av = cJSON_GetObjectItemCaseSensitive(a, k->string);
        if (!av || (ign && !strcmp(ign, k->string)))
            continue;
        char p[300];
        snprintf(p, sizeof p, "%s.%s", path, k->string);
        cmp_rec(av, k, ordered, p, ign, extra_ok, out);
    }
}

static void cmp_rec(const cJSON *a, const cJSON *e, int ordered, const char *path, const char *ign, int extra_ok,
                    cJSON *out)
{
    char name[300];
    int an = !a || cJSON_IsNull(a), en = !e || cJSON_IsNull(e);
    if (an && en)
        return;
    if (an || en) {
        char *es = show(e), *as = show(a);
        snprintf(name, sizeof name, "%s_none_mismatch", path);
        vf_assert(out, name, "Expected %s, got %s", en ? "None" : es, an ? "None" : as);
        free(es), free(as);
        return;
    }
    if (plain_obj(e)) {
        cmp_objects(a, e, ordered, path, ign, extra_ok, out);
        return;
    }
    if (cJSON_IsArray(e)) {
        cmp_arrays(a, e, ordered, path, ign, extra_ok, out);
        return;
    }
    if (!vf_equal(e, a)) {
        char *es = show(e), *as = show(a);
        snprintf(name, sizeof name, "%s_mismatch", path);
        vf_assert(out, name, "Expected %s, got %s", es, as);
        free(es), free(as);
    }
}

void vf_compare(const cJSON *actual, const cJSON *expected, int ordered, const char *name, const char *ignored_key,
                int ignore_extra_keys, cJSON *out)
{
    cmp_rec(actual, expected, ordered, name, ignored_key, ignore_extra_keys, out);
}

/* webarena/verified_eval.c — WebArena-Verified's AgentResponseEvaluator and
 * NetworkEventEvaluator over a saved answer and a HAR, and the task score
 * (1 when every evaluator scores 1; "error" when one could not run).
 * See verified.h. */
#define _GNU_SOURCE
#include "webarena/verified_int.h"

#include <ctype.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "webarena/eval.h"

/* ==== HAR ==================================================================== */

eous_rc vf_har_parse(const char *text, size_t len, const char *name, vf_har *out, eous_err *err)
{
    memset(out, 0, sizeof *out);
    /* the fields the evaluators read, without building the rest; anything odd is parsed whole */
    cJSON *root = text ? vf_har_prune(text, len) : NULL;
    if (!root)
        root = eous_json_parse(text, len, name, err);
    if (!root) {
        if (err)
            err->rc = EOUS_E_INVALID;
        return EOUS_E_INVALID;
    }
    const cJSON *log = eous_json_obj(root, "log");
    const cJSON *entries = log ? eous_json_arr(log, "entries") : NULL;
    if (!entries) {
        cJSON_Delete(root);
        return eous_err_set(err, EOUS_E_INVALID, "%s: not a HAR: expected {\"log\": {\"entries\": [...]}}", name);
    }
    if (!entries->child) {
        cJSON_Delete(root);
        return eous_err_set(err, EOUS_E_INVALID, "%s: HAR file contains no entries", name);
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, entries) {
        const cJSON *rq = eous_json_obj(e, "request"), *rs = eous_json_obj(e, "response");
        const char *what = NULL;
        if (!rq)
            what = "a \"request\" object";
        else if (!eous_json_str(rq, "url"))
            what = "request.url (a string)";
        else if (!eous_json_str(rq, "method"))
            what = "request.method (a string)";
        else if (!eous_json_arr(rq, "headers"))
            what = "request.headers (a list)";
        else if (!rs)
            what = "a \"response\" object";
        else if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(rs, "status")))
            what = "response.status (a number)";
        if (what) {
            cJSON_Delete(root);
            return eous_err_set(err, EOUS_E_INVALID, "%s: HAR entry #%d: expected %s", name, i, what);
        }
        i++;
    }
    out->root = root;
    out->entries = entries;
    return EOUS_OK;
}

/* A regular file read in one go (its size known up front); NULL when it is
 * not one or anything fails: then eous_read_file reads it and says why. */
static char *read_whole(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    char *text = NULL;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > 64 * 1024 * 1024 ||
        !(text = malloc((size_t)st.st_size + 1)))
        goto fail;
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, text + got, (size_t)st.st_size - got);
        if (n <= 0)
            goto fail;
        got += (size_t)n;
    }
    text[got] = '\0';
    *len = got;
    close(fd);
    return text;
fail:
    free(text);
    close(fd);
    return NULL;
}

eous_rc vf_har_load(const char *path, vf_har *out, eous_err *err)
{
    char *text = NULL;
    size_t len = 0;
    memset(out, 0, sizeof *out);
    eous_rc rc = (text = read_whole(path, &len)) ? EOUS_OK : eous_read_file(path, 0, &text, &len, err);
    if (rc) {
        if (err)
            err->rc = EOUS_E_INVALID;
        return EOUS_E_INVALID;
    }
    rc = vf_har_parse(text, len, path, out, err);
    free(text);
    return rc;
}

void vf_har_free(vf_har *h)
{
    if (h) {
        cJSON_Delete(h->root);
        memset(h, 0, sizeof *h);
    }
}

/* ==== the task ================================================================ */

static const cJSON *agent_cfg(const cJSON *task)
{
    const cJSON *ev;
    cJSON_ArrayForEach(ev, eous_json_arr(task, "eval")) {
        const char *n = eous_json_str(ev, "evaluator");
        if (n && !strcmp(n, "AgentResponseEvaluator"))
            return ev;
    }
    return NULL;
}

const char *vf_task_type(const cJSON *task)
{
    const char *t = eous_json_str(eous_json_obj(agent_cfg(task), "expected"), "task_type");
    if (!t)
        t = eous_json_str(eous_json_obj(agent_cfg(task), "expected"), "performed_operation");
    if (!t)
        return NULL;
    return !strcasecmp(t, "retrieve") ? "retrieve" : !strcasecmp(t, "navigate") ? "navigate"
                                                  : !strcasecmp(t, "mutate")   ? "mutate"
                                                                                : NULL;
}

/* ==== AgentResponseEvaluator ================================================== */

/* the answer as a JSON value: a string is stripped, a ```json block taken,
 * then parsed when it parses; an empty value is None */
static cJSON *response_value(const cJSON *raw)
{
    if (!raw || cJSON_IsNull(raw))
        return NULL;
    if (!cJSON_IsString(raw)) {
        if ((cJSON_IsObject(raw) || cJSON_IsArray(raw)) && !raw->child)
            return NULL;
        if (cJSON_IsFalse(raw) || (cJSON_IsNumber(raw) && raw->valuedouble == 0))
            return NULL;
        return cJSON_Duplicate(raw, 1);
    }
    const char *s = raw->valuestring;
    size_t st, ln;
    wa_py_strip(s, &st, &ln);
    char *val = strndup(s + st, ln);
    const char *fence = strstr(s, "```");
    if (fence) {
        const char *b = fence + 3;
        if (!strncmp(b, "json", 4))
            b += 4;
        while (*b && isspace((unsigned char)*b) && *b != '\n')
            b++;
        if (*b == '\n')
            b++;
        const char *e = strstr(b, "```");
        if (e) {
            const char *ee = e;
            if (ee > b && ee[-1] == '\n')
                ee--;
            free(val);
            char *inner = strndup(b, (size_t)(ee - b));
            wa_py_strip(inner ? inner : "", &st, &ln);
            val = inner ? strndup(inner + st, ln) : NULL;
            free(inner);
        }
    }
    if (!val)
        return NULL;
    cJSON *parsed = cJSON_Parse(val);
    if (parsed) {
        free(val);
        cJSON *r = response_value(parsed);
        cJSON_Delete(parsed);
        return r;
    }
    cJSON *r = *val ? cJSON_CreateString(val) : NULL;
    free(val);
    return r;
}

static int falsy(const cJSON *v)
{
    return !v || cJSON_IsNull(v) || (cJSON_IsString(v) && !*v->valuestring) ||
           ((cJSON_IsArray(v) || cJSON_IsObject(v)) && !v->child);
}

/* _normalized_retrieved_data: None when empty; a single value is a list of one */
static cJSON *norm_retrieved(vf_ctx *ctx, const cJSON *raw, const cJSON *schema, int strict, int *bad)
{
    if (falsy(raw))
        return cJSON_CreateNull();
    cJSON *own = NULL;
    if (!cJSON_IsArray(raw)) {
        own = cJSON_CreateArray();
        cJSON_AddItemToArray(own, cJSON_Duplicate(raw, 1));
        raw = own;
    }
    cJSON *r = vf_norm_array(ctx, raw, schema, strict);
    cJSON_Delete(own);
    if (!r) {
        *bad = 1;
        return NULL;
    }
    if (!r->child) { /* an empty tuple is falsy: None */
        cJSON_Delete(r);
        return cJSON_CreateNull();
    }
    return r;
}

static cJSON *ns(const char *s)
{
    vf_ctx c = {0};
    cJSON *v = cJSON_CreateString(s);
    cJSON *n = vf_norm_typed(&c, "string", v, 1);
    cJSON_Delete(v);
    return n;
}

static void result_fill(cJSON *r, const char *name, cJSON *assertions, const char *error, cJSON *actual,
                        const cJSON *actual_norm, const cJSON *expected_norm)
{
    cJSON_AddStringToObject(r, "evaluator", name);
    int failed = cJSON_GetArraySize(assertions) > 0;
    cJSON_AddStringToObject(r, "status", error ? "error" : failed ? "failure" : "success");
    cJSON_AddNumberToObject(r, "score", error || failed ? 0 : 1);
    cJSON_AddItemToObject(r, "actual", actual ? actual : cJSON_CreateNull());
    cJSON_AddItemToObject(r, "actual_normalized", vf_report(actual_norm));
    cJSON_AddItemToObject(r, "expected", vf_report(expected_norm));
    cJSON_AddItemToObject(r, "assertions", assertions);
    if (error)
        cJSON_AddStringToObject(r, "error", error);
    else
        cJSON_AddNullToObject(r, "error");
}

/* A retrieve task's retrieved_data, actual against expected (either may be
 * missing), as WebArena-Verified compares them. */
static void check_retrieved(const cJSON *actn, const cJSON *expn, const cJSON *cfg, cJSON *asserts)
{
    const cJSON *ard = cJSON_GetObjectItemCaseSensitive(actn, "retrieved_data");
    const cJSON *xrd = cJSON_GetObjectItemCaseSensitive(expn, "retrieved_data");
    int an = !ard || cJSON_IsNull(ard), en = !xrd || cJSON_IsNull(xrd);
    if (an && en)
        return;
    if (en)
        vf_assert(asserts, "retrieved_data_unexpected", "Expected no retrieved_data, but got data");
    else if (an)
        vf_assert(asserts, "retrieved_data_missing_or_null", "Expected retrieved_data, but got None or empty");
    else
        vf_compare(ard, xrd, eous_json_bool(cfg, "ordered", 0), "retrieved_data", NULL, 0, asserts);
}

static cJSON *eval_agent(const cJSON *task, const cJSON *cfg, const cJSON *response)
{
    vf_ctx ctx = {.sites = eous_json_arr(task, "sites")};
    cJSON *asserts = cJSON_CreateArray(), *expn = NULL, *actn = NULL;
    const char *error = NULL;
    char ebuf[600];
    const cJSON *exp = eous_json_obj(cfg, "expected"), *schema = eous_json_obj(cfg, "results_schema");
    int retrieve = vf_task_type(task) && !strcmp(vf_task_type(task), "retrieve");
    int bad = 0;
    const char *tt = eous_json_str(exp, "task_type"), *st = eous_json_str(exp, "status");
    if (!exp || !tt || !st) {
        error = "expected needs task_type and status";
        goto done;
    }
    expn = cJSON_CreateObject();
    cJSON_AddItemToObject(expn, "task_type", ns(tt));
    cJSON_AddItemToObject(expn, "status", ns(st));
    cJSON *erd = norm_retrieved(&ctx, cJSON_GetObjectItemCaseSensitive(exp, "retrieved_data"), schema, 1, &bad);
    if (bad) {
        snprintf(ebuf, sizeof ebuf, "expected retrieved_data: %s", ctx.err);
        error = ebuf;
        goto done;
    }
    cJSON_AddItemToObject(expn, "retrieved_data", erd);

    cJSON *val = response_value(response);
    if (!cJSON_IsObject(val)) {
        actn = val; /* compared as it is: None or not an object */
    } else {
        actn = cJSON_CreateObject();
        const cJSON *k;
        cJSON_ArrayForEach(k, exp) { /* the keys the expected answer sets */
            const char *key = k->string;
            if (!strcmp(key, "task_type") && !cJSON_GetObjectItemCaseSensitive(val, key) &&
                cJSON_GetObjectItemCaseSensitive(val, "performed_operation"))
                key = "performed_operation";
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(val, key);
            if (!v) {
                if (!strcmp(key, "retrieved_data"))
                    cJSON_AddNullToObject(actn, key);
                continue;
            }
            const char *store = !strcmp(key, "performed_operation") ? "task_type" : key;
            cJSON *n;
            if (!strcmp(key, "retrieved_data")) {
                n = retrieve ? norm_retrieved(&ctx, v, schema, 0, &bad) : cJSON_CreateNull();
                if (bad) {
                    snprintf(ebuf, sizeof ebuf, "actual retrieved_data: %s", ctx.err);
                    error = ebuf;
                    cJSON_Delete(val);
                    goto done;
                }
            } else {
                if (!cJSON_IsString(v)) { /* theirs calls .strip() on it */
                    snprintf(ebuf, sizeof ebuf, "'%s' of the agent response is a %s, expected a string", key,
                             eous_json_type_name(v));
                    error = ebuf;
                    cJSON_Delete(val);
                    goto done;
                }
                size_t s0, ln;
                wa_py_strip(v->valuestring, &s0, &ln);
                char *t = strndup(v->valuestring + s0, ln);
                n = t && *t ? ns(t) : cJSON_CreateNull();
                free(t);
            }
            if (cJSON_GetObjectItemCaseSensitive(actn, store)) {
                cJSON_Delete(n);
                snprintf(ebuf, sizeof ebuf, "Duplicate key '%s' found during normalization.", store);
                error = ebuf;
                cJSON_Delete(val);
                goto done;
            }
            cJSON_AddItemToObject(actn, store, n);
        }
        cJSON_Delete(val);
    }
    vf_compare(actn, expn, 0, "agent_response", "retrieved_data", 0, asserts);
    if (!cJSON_IsObject(actn) || vf_typeof(actn) || !retrieve || !actn->child)
        goto done;
    check_retrieved(actn, expn, cfg, asserts);
done:;
    cJSON *r = cJSON_CreateObject();
    result_fill(r, "AgentResponseEvaluator", asserts, error, response ? cJSON_Duplicate(response, 1) : NULL, actn, expn);
    cJSON_Delete(actn);
    cJSON_Delete(expn);
    return r;
}

/* ==== NetworkEventEvaluator =================================================== */

static const char *header(const cJSON *hdrs, const char *name)
{
    const cJSON *h;
    const char *v = NULL;
    cJSON_ArrayForEach(h, hdrs) {
        const char *n = eous_json_str(h, "name");
        if (n && !strcasecmp(n, name))
            v = eous_json_str(h, "value"); /* the last one, as theirs builds a dict */
    }
    return v;
}

static int static_asset(const char *url)
{
    static const char *ext[] = {".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".woff", ".woff2", ".ttf",
                                ".ico", ".webp", NULL};
    const char *p = strstr(url, "://");
    p = p ? strchr(p + 3, '/') : url;
    if (!p)
        return 0;
    size_t n = strcspn(p, "?#;");
    for (int i = 0; ext[i]; i++) {
        size_t el = strlen(ext[i]);
        if (n >= el && !strncmp(p + n - el, ext[i], el))
            return 1;
    }
    return 0;
}

static int navigation_event(const cJSON *entry)
{
    const cJSON *rq = eous_json_obj(entry, "request");
    const char *m = eous_json_str(rq, "method");
    if (!m || strcmp(m, "GET"))
        return 0;
    const cJSON *h = eous_json_arr(rq, "headers");
    const char *accept = header(h, "accept");
    char acc[512] = "";
    snprintf(acc, sizeof acc, "%s", accept ? accept : "");
    for (char *p = acc; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (header(h, "sec-fetch-user")) {
        const char *d = header(h, "sec-fetch-dest"), *mo = header(h, "sec-fetch-mode"), *u = header(h, "sec-fetch-user");
        return d && !strcasecmp(d, "document") && mo && !strcasecmp(mo, "navigate") && u && !strcmp(u, "?1") &&
               strstr(acc, "text/html");
    }
    return !strncmp(acc, "text/html", 9);
}

/* HAR content {mimeType, text} as theirs parses it: form fields (first value),
 * a JSON object, multipart fields; NULL otherwise */
static cJSON *parse_content(const cJSON *content)
{
    const char *mime = eous_json_str(content, "mimeType"), *text = eous_json_str(content, "text");
    if (!text || !*text)
        return NULL;
    if (!mime)
        mime = "";
    if (strstr(mime, "application/x-www-form-urlencoded")) {
        cJSON *o = cJSON_CreateObject();
        const char *p = text;
        while (*p) {
            size_t n = strcspn(p, "&");
            const char *eq = memchr(p, '=', n);
            size_t kl = eq ? (size_t)(eq - p) : n;
            if (n) {
                char *k = strndup(p, kl), *v = eq ? strndup(eq + 1, n - kl - 1) : strdup("");
                /* '+' and %XX decoded, as parse_qs */
                for (char **s = (char *[]){k, v, NULL}; *s; s++) {
                    char *w = *s, *r = *s;
                    while (w && *r) {
                        if (*r == '+') {
                            *w++ = ' ', r++;
                        } else if (*r == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2])) {
                            char hx[3] = {r[1], r[2], 0};
                            *w++ = (char)strtol(hx, NULL, 16);
                            r += 3;
                        } else {
                            *w++ = *r++;
                        }
                    }
                    if (w)
                        *w = 0;
                }
                if (k && v && !cJSON_GetObjectItemCaseSensitive(o, k))
                    cJSON_AddStringToObject(o, k, v);
                free(k), free(v);
            }
            p += n;
            if (*p)
                p++;
        }
        return o;
    }
    if (strstr(mime, "application/json")) {
        cJSON *j = cJSON_Parse(text);
        if (cJSON_IsObject(j))
            return j;
        cJSON_Delete(j);
    }
    const char *bd = strstr(mime, "multipart/form-data") ? strstr(mime, "boundary=") : NULL;
    if (bd) {
        char boundary[200];
        size_t bl = strcspn(bd + 9, "; \t");
        snprintf(boundary, sizeof boundary, "--%.*s", (int)(bl < 190 ? bl : 190), bd + 9);
        cJSON *o = cJSON_CreateObject();
        const char *p = strstr(text, boundary);
        while (p) {
            p += strlen(boundary);
            const char *next = strstr(p, boundary);
            const char *end = next ? next : p + strlen(p);
            const char *sep = strstr(p, "\r\n\r\n");
            size_t sl = 4;
            if (!sep || sep > end)
                sep = strstr(p, "\n\n"), sl = 2;
            if (sep && sep < end) {
                const char *nm = strstr(p, "name=\"");
                if (nm && nm < sep) {
                    nm += 6;
                    const char *q = strchr(nm, '"');
                    size_t vl = (size_t)(end - (sep + sl));
                    while (vl && (sep[sl + vl - 1] == '\n' || sep[sl + vl - 1] == '\r'))
                        vl--;
                    if (q && q < sep) {
                        char *k = strndup(nm, (size_t)(q - nm)), *v = strndup(sep + sl, vl);
                        if (k && v)
                            cJSON_AddStringToObject(o, k, v);
                        free(k), free(v);
                    }
                }
            }
            p = next;
        }
        return o;
    }
    return NULL;
}

/* JSONPath "$.a.b[0]" or a "^regex$" / "$.^regex$" over top-level keys;
 * a copy of the single match, NULL when not exactly one */
static cJSON *jsonpath(const cJSON *data, const char *path)
{
    const char *rx = !strncmp(path, "$.^", 3) ? path + 2 : vf_is_regexp(path) ? path : NULL;
    if (rx) {
        const cJSON *k, *hit = NULL;
        int n = 0;
        cJSON_ArrayForEach(k, data) if (vf_re_search(rx, k->string, 0) == 1) hit = k, n++;
        return n == 1 ? cJSON_Duplicate(hit, 1) : NULL;
    }
    const cJSON *cur = data;
    const char *p = path + 1;
    while (*p && cur) {
        if (*p == '.') {
            p++;
            size_t n = strcspn(p, ".[");
            char *k = strndup(p, n);
            cur = k && cJSON_IsObject(cur) ? cJSON_GetObjectItemCaseSensitive(cur, k) : NULL;
            free(k);
            p += n;
        } else if (*p == '[') {
            p++;
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                const char *e = strchr(p, q);
                if (!e)
                    return NULL;
                char *k = strndup(p, (size_t)(e - p));
                cur = k && cJSON_IsObject(cur) ? cJSON_GetObjectItemCaseSensitive(cur, k) : NULL;
                free(k);
                p = e + 1;
            } else {
                cur = cJSON_IsArray(cur) ? cJSON_GetArrayItem(cur, atoi(p)) : NULL;
                p += strcspn(p, "]");
            }
            if (*p == ']')
                p++;
        } else {
            return NULL;
        }
    }
    return cur ? cJSON_Duplicate(cur, 1) : NULL;
}

static int jsonpath_key(const char *k)
{
    return !strncmp(k, "$.", 2) || vf_is_regexp(k);
}

/* the spec's normalisation shared by expected (strict) and actual (lenient) */
/* post_data: ignored names out, flattened to the expected keys, then the
 * schema; -1 when a value does not normalise (ctx->err says why). */
static int norm_post_data(vf_ctx *ctx, const cJSON *cfg, const cJSON *spec, int strict, const cJSON *expected_norm,
                          cJSON *out)
{
    const cJSON *pd = eous_json_obj(spec, "post_data");
    if (!pd || !pd->child) {
        cJSON_AddNullToObject(out, "post_data");
    } else {
        cJSON *d = cJSON_CreateObject();
        const cJSON *kv;
        cJSON_ArrayForEach(kv, pd) {
            int ign = 0;
            const cJSON *pat;
            cJSON_ArrayForEach(pat, eous_json_arr(cfg, "ignored_post_data_params_patterns"))
                if (cJSON_IsString(pat) && vf_re_search(pat->valuestring, kv->string, 0) == 1)
                    ign = 1;
            if (!ign)
                cJSON_AddItemToObject(d, kv->string, cJSON_Duplicate(kv, 1));
        }
        const cJSON *epd = expected_norm ? eous_json_obj(expected_norm, "post_data") : NULL;
        if (epd) {
            cJSON *flat = cJSON_CreateObject();
            const cJSON *k;
            cJSON_ArrayForEach(k, epd) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, k->string);
                cJSON *x = jsonpath_key(k->string) ? jsonpath(d, k->string) : (v ? cJSON_Duplicate(v, 1) : NULL);
                cJSON_AddItemToObject(flat, k->string, x ? x : cJSON_CreateNull());
            }
            cJSON_Delete(d);
            d = flat;
        }
        if (d->child) {
            cJSON *n = vf_norm_schema(ctx, d, eous_json_obj(cfg, "post_data_schema"), strict);
            cJSON_Delete(d);
            if (!n)
                return -1;
            cJSON_AddItemToObject(out, "post_data", n);
        } else {
            cJSON_Delete(d);
            cJSON_AddNullToObject(out, "post_data");
        }
    }
    return 0;
}

/* response_content: not normalised; the actual one flattened to the expected keys. */
static void norm_response_content(const cJSON *spec, const cJSON *expected_norm, cJSON *out)
{
    const cJSON *rc = eous_json_obj(spec, "response_content");
    if (!rc || !rc->child) {
        cJSON_AddNullToObject(out, "response_content");
    } else if (expected_norm && eous_json_obj(expected_norm, "response_content")) {
        cJSON *flat = cJSON_CreateObject();
        const cJSON *k;
        cJSON_ArrayForEach(k, eous_json_obj(expected_norm, "response_content")) {
            if (jsonpath_key(k->string)) {
                cJSON *x = jsonpath(rc, k->string);
                cJSON_AddItemToObject(flat, k->string, x ? x : cJSON_CreateNull());
            } else if (cJSON_GetObjectItemCaseSensitive(rc, k->string)) {
                cJSON_AddItemToObject(flat, k->string, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(rc, k->string), 1));
            }
        }
        if (flat->child) {
            cJSON_AddItemToObject(out, "response_content", flat);
        } else {
            cJSON_Delete(flat);
            cJSON_AddNullToObject(out, "response_content");
        }
    } else {
        cJSON_AddItemToObject(out, "response_content", cJSON_Duplicate(rc, 1));
    }
}

static cJSON *norm_spec(vf_ctx *ctx, const cJSON *cfg, const cJSON *spec, int strict, const cJSON *expected_norm)
{
    cJSON *out = cJSON_CreateObject();
    vf_url_opts uo = {
        .query_params = strict ? eous_json_obj(spec, "query_params") : NULL,
        .ignored = eous_json_arr(cfg, "ignored_query_params"),
        .ignored_patterns = eous_json_arr(cfg, "ignored_query_params_patterns"),
        .query_schema = eous_json_obj(cfg, "query_params_schema"),
        .decode_base64_query = eous_json_bool(cfg, "decode_base64_query", 0),
    };
    cJSON *url = vf_norm_url(ctx, cJSON_GetObjectItemCaseSensitive(spec, "url"), &uo, strict);
    if (!url)
        goto bad;
    cJSON_AddItemToObject(out, "url", url);
    const cJSON *hdrs = eous_json_obj(spec, "headers");
    if (hdrs) {
        cJSON *h = cJSON_AddObjectToObject(out, "headers");
        const cJSON *kv;
        cJSON_ArrayForEach(kv, hdrs) {
            cJSON *n;
            if ((!strcmp(kv->string, "referer") || !strcmp(kv->string, "redirect_url")) && !falsy(kv)) {
                vf_url_opts ro = uo;
                ro.query_params = NULL;
                n = vf_norm_url(ctx, kv, &ro, strict);
            } else {
                n = vf_norm_typed(ctx, "string", kv, strict);
            }
            if (!n)
                goto bad;
            cJSON_AddItemToObject(h, kv->string, n);
        }
    }
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(spec, "response_status");
    cJSON_AddItemToObject(out, "response_status", status ? cJSON_Duplicate(status, 1) : cJSON_CreateNumber(200));
    const char *method = eous_json_str(spec, "http_method");
    cJSON_AddStringToObject(out, "http_method", method ? method : "GET");

    if (norm_post_data(ctx, cfg, spec, strict, expected_norm, out))
        goto bad;
    norm_response_content(spec, expected_norm, out);
    const cJSON *ck = eous_json_obj(spec, "response_cookies");
    if (!ck || !ck->child) {
        cJSON_AddNullToObject(out, "response_cookies");
    } else {
        cJSON *c = cJSON_AddObjectToObject(out, "response_cookies");
        const cJSON *kv;
        cJSON_ArrayForEach(kv, ck) {
            cJSON *n = vf_norm_typed(ctx, "string", kv, strict);
            if (!n)
                goto bad;
            cJSON_AddItemToObject(c, kv->string, n);
        }
    }
    return out;
bad:
    cJSON_Delete(out);
    return NULL;
}

/* the raw spec of one HAR entry, with only what the expected spec asks for */
static cJSON *entry_spec(const cJSON *entry, const cJSON *exp)
{
    const cJSON *rq = eous_json_obj(entry, "request"), *rs = eous_json_obj(entry, "response");
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "url", eous_json_str(rq, "url"));
    cJSON_AddStringToObject(s, "http_method", eous_json_str(rq, "method"));
    cJSON_AddNumberToObject(s, "response_status", eous_json_num(rs, "status", 0));
    const cJSON *eh = eous_json_obj(exp, "headers");
    if (eh) {
        cJSON *h = cJSON_CreateObject();
        const cJSON *k;
        cJSON_ArrayForEach(k, eh) {
            const char *v = header(eous_json_arr(rq, "headers"), k->string);
            if (v)
                cJSON_AddStringToObject(h, k->string, v);
        }
        if (h->child)
            cJSON_AddItemToObject(s, "headers", h);
        else
            cJSON_Delete(h);
    }
    if (eous_json_obj(exp, "post_data") && eous_json_obj(exp, "post_data")->child) {
        cJSON *pd = parse_content(eous_json_obj(rq, "postData"));
        if (pd)
            cJSON_AddItemToObject(s, "post_data", pd);
    }
    if (eous_json_obj(exp, "response_content") && eous_json_obj(exp, "response_content")->child) {
        cJSON *c = parse_content(eous_json_obj(rs, "content"));
        if (c)
            cJSON_AddItemToObject(s, "response_content", c);
    }
    const cJSON *ec = eous_json_obj(exp, "response_cookies");
    if (ec && ec->child) {
        cJSON *c = cJSON_CreateObject();
        const cJSON *k;
        cJSON_ArrayForEach(k, ec) {
            const cJSON *ck, *hit = NULL;
            cJSON_ArrayForEach(ck, eous_json_arr(rs, "cookies")) {
                const char *n = eous_json_str(ck, "name");
                if (n && !strcmp(n, k->string))
                    hit = ck;
            }
            if (hit) {
                const char *v = eous_json_str(hit, "value");
                cJSON *raw = cJSON_CreateString(v ? v : "");
                /* URL-decoded, as theirs */
                char *w = raw->valuestring, *r = raw->valuestring;
                while (*r) {
                    if (*r == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2])) {
                        char hx[3] = {r[1], r[2], 0};
                        *w++ = (char)strtol(hx, NULL, 16), r += 3;
                    } else {
                        *w++ = *r++;
                    }
                }
                *w = 0;
                cJSON_AddItemToObject(c, k->string, raw);
            }
        }
        if (c->child)
            cJSON_AddItemToObject(s, "response_cookies", c);
        else
            cJSON_Delete(c);
    }
    return s;
}

/* The HAR entries that may be the expected event: a navigate task's GET is
 * its last navigation; else every request of the method whose normalised
 * URL (and referer, when expected) has the expected path.  Up to cap, in
 * order; returns how many. */
static int matching_entries(vf_ctx *ctx, const cJSON *task, const cJSON *cfg, const cJSON *exp, const cJSON *expn,
                            const vf_har *har, const char *method, const cJSON **matches, int cap)
{
    const char *tt = vf_task_type(task);
    int nm = 0;
    const cJSON *e;
    if (tt && !strcmp(tt, "navigate") && !strcmp(method, "GET")) {
        /* a navigate task's GET: the last navigation, whatever its URL */
        const cJSON *last = NULL;
        cJSON_ArrayForEach(e, har->entries)
            if (!static_asset(eous_json_str(eous_json_obj(e, "request"), "url")) && navigation_event(e))
                last = e;
        if (last)
            matches[nm++] = last;
    } else {
        const cJSON *ref = eous_json_obj(exp, "headers") ? cJSON_GetObjectItemCaseSensitive(eous_json_obj(expn, "headers"), "referer") : NULL;
        vf_url_opts uo = {
            .ignored = eous_json_arr(cfg, "ignored_query_params"),
            .ignored_patterns = eous_json_arr(cfg, "ignored_query_params_patterns"),
            .query_schema = eous_json_obj(cfg, "query_params_schema"),
            .decode_base64_query = eous_json_bool(cfg, "decode_base64_query", 0),
        };
        cJSON_ArrayForEach(e, har->entries) {
            const cJSON *rq = eous_json_obj(e, "request");
            const char *url = eous_json_str(rq, "url");
            if (static_asset(url) || strcasecmp(eous_json_str(rq, "method"), method))
                continue;
            cJSON *u = cJSON_CreateString(url);
            cJSON *nu = vf_norm_url(ctx, u, &uo, 0);
            int ok = vf_typeof(nu) && vf_url_compare_path(cJSON_GetObjectItemCaseSensitive(expn, "url"), nu);
            cJSON_Delete(u), cJSON_Delete(nu);
            const char *er = ok && ref ? header(eous_json_arr(rq, "headers"), "referer") : NULL;
            if (ok && er && vf_typeof(ref)) {
                char *low = strdup(er);
                for (char *p = low; p && *p; p++)
                    *p = (char)tolower((unsigned char)*p);
                cJSON *r = cJSON_CreateString(low ? low : er);
                free(low);
                cJSON *nr = vf_norm_url(ctx, r, &uo, 0);
                ok = vf_typeof(nr) && vf_url_compare_path(ref, nr);
                cJSON_Delete(r), cJSON_Delete(nr);
            }
            if (ok && nm < cap)
                matches[nm++] = e;
        }
    }
    return nm;
}

/* Whether any of the found events matches the expected one whole; when none
 * does, a missing_navigation_event assertion and what the last one missed. */
static void check_events(const cJSON *actn, const cJSON *expn, int found, cJSON *asserts)
{
    const cJSON *a;
    int ok = 0;
    cJSON *last_fail = NULL;
    cJSON_ArrayForEach(a, actn) {
        cJSON *tmp = cJSON_CreateArray();
        vf_compare(a, expn, 0, "network_event", NULL, 1, tmp);
        if (!tmp->child) {
            cJSON_Delete(tmp);
            ok = 1;
            break;
        }
        cJSON_Delete(last_fail);
        last_fail = tmp;
    }
    if (!ok) {
        vf_assert(asserts, "missing_navigation_event",
                  "No matching network event found. Checked %d event(s) but none matched all expected criteria.", found);
        /* what the last checked event missed, for the reader (theirs logs it only) */
        cJSON *x;
        while (last_fail && (x = cJSON_DetachItemFromArray(last_fail, 0)))
            cJSON_AddItemToArray(asserts, x);
    }
    cJSON_Delete(last_fail);
}

static cJSON *eval_network(const cJSON *task, const cJSON *cfg, const vf_har *har)
{
    vf_ctx ctx = {.sites = eous_json_arr(task, "sites")};
    cJSON *asserts = cJSON_CreateArray(), *expn = NULL, *actn = NULL;
    const char *error = NULL;
    char ebuf[700];
    const cJSON *exp = eous_json_obj(cfg, "expected");
    if (!exp || !cJSON_GetObjectItemCaseSensitive(exp, "url")) {
        error = "expected needs a url";
        goto done;
    }
    expn = norm_spec(&ctx, cfg, exp, 1, NULL);
    if (!expn) {
        snprintf(ebuf, sizeof ebuf, "expected: %s", ctx.err);
        error = ebuf;
        goto done;
    }
    if (!har || !har->entries) {
        error = "no network log (HAR) for this task";
        goto done;
    }
    const char *method = eous_json_str(exp, "http_method");
    if (!method)
        method = "GET";
    const cJSON *matches[4096];
    int nm = matching_entries(&ctx, task, cfg, exp, expn, har, method, matches, 4096);
    int last_only = eous_json_bool(cfg, "last_event_only", 1);
    actn = cJSON_CreateArray();
    for (int i = last_only && nm ? nm - 1 : 0; i < nm; i++) {
        cJSON *raw = entry_spec(matches[i], exp);
        cJSON *n = norm_spec(&ctx, cfg, raw, 0, expn);
        cJSON_Delete(raw);
        if (n)
            cJSON_AddItemToArray(actn, n);
    }
    int found = cJSON_GetArraySize(actn);
    if (eous_json_bool(cfg, "should_not_exist", 0)) {
        if (found)
            vf_assert(asserts, "unexpected_navigation_event",
                      "Found %d matching event(s) when none were expected (should_not_exist=True).", found);
        goto done;
    }
    if (!found) {
        vf_assert(asserts, "missing_navigation_event",
                  "No matching network event found that satisfies all expected criteria.");
        goto done;
    }
    check_events(actn, expn, found, asserts);

done:;
    cJSON *r = cJSON_CreateObject();
    result_fill(r, "NetworkEventEvaluator", asserts, error, NULL, actn, expn);
    cJSON_Delete(actn);
    cJSON_Delete(expn);
    return r;
}

/* ==== the task score ========================================================== */

cJSON *vf_score_task(const cJSON *task, const cJSON *response, const vf_har *har)
{
    cJSON *out = cJSON_CreateObject();
    cJSON *evs = cJSON_CreateArray();
    int any_error = 0, all_one = 1, n = 0;
    const cJSON *cfg;
    cJSON_ArrayForEach(cfg, eous_json_arr(task, "eval")) {
        const char *name = eous_json_str(cfg, "evaluator");
        cJSON *r;
        if (name && !strcmp(name, "AgentResponseEvaluator")) {
            r = eval_agent(task, cfg, response);
        } else if (name && !strcmp(name, "NetworkEventEvaluator")) {
            r = eval_network(task, cfg, har);
        } else {
            r = cJSON_CreateObject();
            char msg[200];
            snprintf(msg, sizeof msg, "Evaluator '%s' not found", name ? name : "?");
            result_fill(r, name ? name : "?", cJSON_CreateArray(), msg, NULL, NULL, NULL);
        }
        const char *st = eous_json_str(r, "status");
        any_error |= st && !strcmp(st, "error");
        all_one &= eous_json_num(r, "score", 0) == 1;
        cJSON_AddItemToArray(evs, r);
        n++;
    }
    int score = !any_error && all_one && n > 0;
    cJSON_AddNumberToObject(out, "score", score);
    cJSON_AddStringToObject(out, "status", any_error || !n ? "error" : score ? "success" : "failure");
    cJSON_AddItemToObject(out, "evaluators", evs);
    return out;
}

/* ==== the answer format a model is told ======================================= */

char *vf_answer_format(const cJSON *task)
{
    const cJSON *cfg = agent_cfg(task);
    const char *tt = vf_task_type(task);
    char *schema = eous_json_print(eous_json_obj(cfg, "results_schema"));
    char *r = NULL;
    if (asprintf(&r,
                 "Finish with stop and a JSON object as the answer: {\"task_type\": \"RETRIEVE\" | \"NAVIGATE\" | "
                 "\"MUTATE\" (%s here), \"status\": \"SUCCESS\" | \"NOT_FOUND_ERROR\" | \"ACTION_NOT_ALLOWED_ERROR\" | "
                 "\"PERMISSION_DENIED_ERROR\" | \"DATA_VALIDATION_ERROR\" | \"UNKNOWN_ERROR\", \"retrieved_data\": %s, "
                 "\"error_details\": null or why it failed}.",
                 tt ? tt : "the kind of task", tt && !strcmp(tt, "retrieve") ? (schema ? schema : "[...]")
                                                                                : "null") < 0)
        r = NULL;
    free(schema);
    return r;
}

cJSON *vf_answer_schema(const cJSON *task)
{
    const cJSON *rs = eous_json_obj(agent_cfg(task), "results_schema");
    const char *tt = vf_task_type(task);
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "type", "object");
    cJSON_AddStringToObject(s, "description", "the outcome, as WebArena-Verified scores it");
    cJSON *p = cJSON_AddObjectToObject(s, "properties");
    cJSON *t = cJSON_AddObjectToObject(p, "task_type");
    cJSON_AddStringToObject(t, "type", "string");
    cJSON_AddItemToObject(t, "enum", cJSON_Parse("[\"RETRIEVE\", \"NAVIGATE\", \"MUTATE\"]"));
    cJSON *st = cJSON_AddObjectToObject(p, "status");
    cJSON_AddStringToObject(st, "type", "string");
    cJSON_AddItemToObject(st, "enum", cJSON_Parse("[\"SUCCESS\", \"NOT_FOUND_ERROR\", \"ACTION_NOT_ALLOWED_ERROR\", "
                                                  "\"PERMISSION_DENIED_ERROR\", \"DATA_VALIDATION_ERROR\", \"UNKNOWN_ERROR\"]"));
    cJSON *rd = cJSON_AddObjectToObject(p, "retrieved_data");
    cJSON_AddItemToObject(rd, "type", cJSON_Parse("[\"array\", \"null\"]"));
    const cJSON *items = tt && !strcmp(tt, "retrieve") ? eous_json_obj(rs, "items") : NULL;
    if (items)
        cJSON_AddItemToObject(rd, "items", cJSON_Duplicate(items, 1));
    cJSON_AddStringToObject(rd, "description", "the data asked for (retrieve); null otherwise");
    cJSON *ed = cJSON_AddObjectToObject(p, "error_details");
    cJSON_AddItemToObject(ed, "type", cJSON_Parse("[\"string\", \"null\"]"));
    cJSON_AddItemToObject(s, "required", cJSON_Parse("[\"task_type\", \"status\", \"retrieved_data\"]"));
    return s;
}

/* ==== eous check ============================================================== */

int vf_check_task(const cJSON *task, char *why, size_t n)
{
    const cJSON *cfg;
    int i = 0;
    cJSON_ArrayForEach(cfg, eous_json_arr(task, "eval")) {
        const char *name = eous_json_str(cfg, "evaluator");
        vf_ctx ctx = {.sites = eous_json_arr(task, "sites")};
        const cJSON *exp = eous_json_obj(cfg, "expected");
        if (name && !strcmp(name, "AgentResponseEvaluator")) {
            if (!vf_task_type(task) || !eous_json_str(exp, "status")) {
                snprintf(why, n, "eval[%d] AgentResponseEvaluator: expected needs task_type (retrieve|navigate|mutate) and status", i);
                return -1;
            }
            int bad = 0;
            cJSON *r = norm_retrieved(&ctx, cJSON_GetObjectItemCaseSensitive(exp, "retrieved_data"),
                                      eous_json_obj(cfg, "results_schema"), 1, &bad);
            cJSON_Delete(r);
            if (bad) {
                snprintf(why, n, "eval[%d] AgentResponseEvaluator: expected retrieved_data: %s", i, ctx.err);
                return -1;
            }
        } else if (name && !strcmp(name, "NetworkEventEvaluator")) {
            cJSON *r = exp && cJSON_GetObjectItemCaseSensitive(exp, "url") ? norm_spec(&ctx, cfg, exp, 1, NULL) : NULL;
            if (!r) {
                snprintf(why, n, "eval[%d] NetworkEventEvaluator: expected: %s", i, ctx.err[0] ? ctx.err : "needs a url");
                return -1;
            }
            cJSON_Delete(r);
        } else {
            snprintf(why, n, "eval[%d]: evaluator '%s' is not one eous has (AgentResponseEvaluator, NetworkEventEvaluator)",
                     i, name ? name : "?");
            return -1;
        }
        i++;
    }
    return 0;
}

/* webarena/verified_url.c — WebArena-Verified's URL type (data_types/url.py,
 * core/utils/url_utils.py): url_normalize, site URLs back to templates, the
 * query string as sorted lower-case values per key with ignored names and
 * patterns dropped, base64 query segments, and base-path matching with
 * regexes on either side.  A normalised URL alternative is
 * {"base_url", "query_params": {k: [v...]}, "is_regex"}. */
#define _GNU_SOURCE
#include "webarena/verified_int.h"
#include "webarena/eval.h"
#include "webarena/site_pool.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- percent-decoding (urllib unquote / parse_qs) ---- */

static int hexv(int c)
{
    return isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

static char *unquote(const char *s, size_t n, int plus)
{
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && hexv((unsigned char)s[i + 1]) >= 0 &&
            hexv((unsigned char)s[i + 2]) >= 0) {
            o[k++] = (char)(hexv((unsigned char)s[i + 1]) * 16 + hexv((unsigned char)s[i + 2]));
            i += 2;
        } else {
            o[k++] = plus && s[i] == '+' ? ' ' : s[i];
        }
    }
    o[k] = 0;
    return o;
}

/* ---- url_normalize: scheme and host lower case, default port dropped, an
 * empty path is "/", dot segments removed, %XX upper-case, unreserved
 * characters decoded, unsafe ones quoted ---- */

static void put_path(eous_buf *b, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '%' && i + 2 < n && hexv(p[i + 1]) >= 0 && hexv(p[i + 2]) >= 0) {
            int v = hexv(p[i + 1]) * 16 + hexv(p[i + 2]);
            if (isalnum(v) || v == '-' || v == '.' || v == '_' || v == '~')
                eous_buf_putc(b, (char)v, NULL);
            else
                eous_buf_printf(b, NULL, "%%%02X", v);
            i += 2;
        } else if (c <= ' ' || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' ||
                   c == '{' || c == '|' || c == '}') {
            eous_buf_printf(b, NULL, "%%%02X", c);
        } else {
            eous_buf_putc(b, (char)c, NULL);
        }
    }
}

/* removes "." and ".." segments in place */
static void remove_dots(char *path)
{
    char *segs[256];
    int n = 0;
    int trailing = 0;
    char *save = NULL;
    char *copy = strdup(path);
    if (!copy)
        return;
    size_t pl = strlen(path);
    trailing = pl > 1 && path[pl - 1] == '/';
    for (char *t = strtok_r(copy, "/", &save); t && n < 256; t = strtok_r(NULL, "/", &save)) {
        if (!strcmp(t, "."))
            continue;
        if (!strcmp(t, "..")) {
            if (n)
                n--;
            continue;
        }
        segs[n++] = t;
    }
    char *o = path;
    *o = 0;
    size_t used = 0;
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(o + used, pl + 1 - used, "/%s", segs[i]);
    if (!n || (trailing && used < pl))
        snprintf(o + used, pl + 1 - used, "/");
    free(copy);
}

typedef struct url_parts {
    char *scheme, *netloc, *path, *query, *fragment;
} url_parts;

static void parts_free(url_parts *u)
{
    free(u->scheme), free(u->netloc), free(u->path), free(u->query), free(u->fragment);
    memset(u, 0, sizeof *u);
}

/* urllib.parse.urlparse (params folded into the path) */
static void urlparse(const char *s, url_parts *u)
{
    memset(u, 0, sizeof *u);
    const char *p = s, *c = s;
    while (*c && (isalnum((unsigned char)*c) || *c == '+' || *c == '-' || *c == '.'))
        c++;
    if (*c == ':' && c > s && isalpha((unsigned char)*s)) {
        u->scheme = strndup(s, (size_t)(c - s));
        p = c + 1;
    }
    if (!strncmp(p, "//", 2)) {
        p += 2;
        size_t n = strcspn(p, "/?#");
        u->netloc = strndup(p, n);
        p += n;
    }
    const char *h = strchr(p, '#');
    size_t before_frag = h ? (size_t)(h - p) : strlen(p);
    if (h)
        u->fragment = strdup(h + 1);
    const char *q = memchr(p, '?', before_frag);
    if (q) {
        u->query = strndup(q + 1, before_frag - (size_t)(q + 1 - p));
        u->path = strndup(p, (size_t)(q - p));
    } else {
        u->path = strndup(p, before_frag);
    }
    if (!u->scheme)
        u->scheme = strdup("");
    if (!u->netloc)
        u->netloc = strdup("");
    if (!u->query)
        u->query = strdup("");
    if (!u->fragment)
        u->fragment = strdup("");
}

static char *url_normalize(const char *in)
{
    url_parts u;
    urlparse(in, &u);
    for (char *p = u.scheme; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (char *p = u.netloc; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    size_t nl = strlen(u.netloc);
    if ((!strcmp(u.scheme, "http") && nl > 3 && !strcmp(u.netloc + nl - 3, ":80")))
        u.netloc[nl - 3] = 0;
    if ((!strcmp(u.scheme, "https") && nl > 4 && !strcmp(u.netloc + nl - 4, ":443")))
        u.netloc[nl - 4] = 0;
    eous_buf b;
    eous_buf_init(&b, 0);
    if (*u.scheme)
        eous_buf_printf(&b, NULL, "%s:", u.scheme);
    if (*u.netloc || *u.scheme)
        eous_buf_printf(&b, NULL, "//%s", u.netloc);
    char *path = strdup(*u.path ? u.path : (*u.netloc ? "/" : ""));
    if (path && *path == '/')
        remove_dots(path);
    if (path)
        put_path(&b, path, strlen(path));
    free(path);
    if (*u.query)
        eous_buf_printf(&b, NULL, "?%s", u.query);
    if (*u.fragment)
        eous_buf_printf(&b, NULL, "#%s", u.fragment);
    parts_free(&u);
    return eous_buf_steal(&b);
}

/* ---- query strings ---- */

/* parse_qs(keep_blank_values=True) then unquote again, as normalize_query */
static void parse_query_into(cJSON *params, const char *qs)
{
    const char *p = qs;
    while (*p) {
        size_t n = strcspn(p, "&");
        if (n) {
            const char *eq = memchr(p, '=', n);
            size_t kl = eq ? (size_t)(eq - p) : n;
            char *k1 = unquote(p, kl, 1), *v1 = eq ? unquote(eq + 1, n - kl - 1, 1) : strdup("");
            char *k = k1 ? unquote(k1, strlen(k1), 0) : NULL, *v = v1 ? unquote(v1, strlen(v1), 0) : NULL;
            if (k && v && (eq || 1)) {
                cJSON *arr = cJSON_GetObjectItemCaseSensitive(params, k);
                if (!arr)
                    arr = cJSON_AddArrayToObject(params, k);
                cJSON_AddItemToArray(arr, cJSON_CreateString(v));
            }
            free(k1), free(v1), free(k), free(v);
        }
        p += n;
        if (*p)
            p++;
    }
}

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (isdigit(c))
        return c - '0' + 52;
    if (c == '-' || c == '+')
        return 62;
    if (c == '_' || c == '/')
        return 63;
    return -1;
}

/* extract_base64_query: path segments that decode (URL-safe base64) to text
 * with '=' become query strings and leave the path */
static char *extract_b64(const char *path, eous_buf *queries)
{
    eous_buf out;
    eous_buf_init(&out, 0);
    const char *p = path;
    int kept = 0;
    while (*p) {
        if (*p == '/') {
            p++;
            continue;
        }
        size_t n = strcspn(p, "/");
        int is_b64 = n >= 4;
        size_t pad = 0;
        for (size_t i = 0; i < n && is_b64; i++) {
            if (p[i] == '=') {
                pad++;
                continue;
            }
            if (pad || !(isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-'))
                is_b64 = 0;
        }
        if (pad > 2)
            is_b64 = 0;
        char *dec = NULL;
        if (is_b64) {
            dec = malloc(n + 1);
            size_t k = 0, bits = 0;
            unsigned acc = 0;
            int ok = dec != NULL;
            for (size_t i = 0; ok && i < n - pad; i++) {
                int v = b64val((unsigned char)p[i]);
                if (v < 0 || p[i] == '+' || p[i] == '/') {
                    ok = 0;
                    break;
                }
                acc = (acc << 6) | (unsigned)v;
                bits += 6;
                if (bits >= 8) {
                    bits -= 8;
                    dec[k++] = (char)((acc >> bits) & 0xFF);
                }
            }
            if (ok && (n - pad) % 4 == 1)
                ok = 0;
            if (ok) {
                dec[k] = 0;
                if (strlen(dec) != k || !strchr(dec, '='))
                    ok = 0;
            }
            if (!ok) {
                free(dec);
                dec = NULL;
            }
        }
        if (dec) {
            char *uq = unquote(dec, strlen(dec), 0);
            char *s = uq;
            while (s && (*s == ' ' || *s == '?' || *s == '&'))
                s++;
            if (s && *s) {
                if (queries->len)
                    eous_buf_putc(queries, '&', NULL);
                eous_buf_puts(queries, s, NULL);
            }
            free(uq);
            free(dec);
        } else {
            eous_buf_putc(&out, '/', NULL);
            eous_buf_append(&out, p, n, NULL);
            kept++;
        }
        p += n;
    }
    size_t pl = strlen(path);
    if (kept && pl && path[pl - 1] == '/')
        eous_buf_putc(&out, '/', NULL);
    if (!kept && path[0] == '/')
        eous_buf_putc(&out, '/', NULL);
    if (path[0] != '/' && out.len) { /* no leading slash in, none out */
        char *s = eous_buf_steal(&out);
        char *r = strdup(s + 1);
        free(s);
        return r;
    }
    char *r = eous_buf_steal(&out);
    return r ? r : strdup("");
}

static int ignored_param(const char *name, const vf_url_opts *o)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, (o ? o->ignored : NULL))
        if (cJSON_IsString(x) && !strcmp(x->valuestring, name))
            return 1;
    cJSON_ArrayForEach(x, (o ? o->ignored_patterns : NULL))
        if (cJSON_IsString(x) && vf_re_search(x->valuestring, name, 1) == 1)
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* values lower-cased, stripped and sorted; ignored names dropped; the
 * query_params_schema applied (lenient or strict) */
static cJSON *norm_query(vf_ctx *ctx, const cJSON *params, const vf_url_opts *o, int strict)
{
    cJSON *out = cJSON_CreateObject();
    const cJSON *kv;
    cJSON_ArrayForEach(kv, params) {
        if (ignored_param(kv->string, o))
            continue;
        size_t n = 0;
        char *vals[512];
        const cJSON *v;
        if (cJSON_IsArray(kv)) {
            cJSON_ArrayForEach(v, kv) if (n < 512) vals[n++] = cJSON_IsString(v) ? strdup(v->valuestring) : wa_py_str(v);
        } else {
            vals[n++] = cJSON_IsString(kv) ? strdup(kv->valuestring) : wa_py_str(kv);
        }
        for (size_t i = 0; i < n; i++) {
            char *s = vals[i];
            if (!s)
                continue;
            for (char *p = s; *p; p++)
                *p = (char)tolower((unsigned char)*p);
            size_t st = strspn(s, " \t\r\n\f\v"), ln = strlen(s + st);
            while (ln && isspace((unsigned char)s[st + ln - 1]))
                ln--;
            memmove(s, s + st, ln);
            s[ln] = 0;
        }
        qsort(vals, n, sizeof *vals, cmp_str);
        cJSON *arr = cJSON_AddArrayToObject(out, kv->string);
        for (size_t i = 0; i < n; i++) {
            cJSON_AddItemToArray(arr, cJSON_CreateString(vals[i] ? vals[i] : ""));
            free(vals[i]);
        }
    }
    if (o && o->query_schema && out->child) {
        cJSON *n = vf_norm_schema(ctx, out, o->query_schema, strict);
        cJSON_Delete(out);
        return n;
    }
    return out;
}

static cJSON *url_alt(const char *base, cJSON *query, int is_regex)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "base_url", base);
    cJSON_AddItemToObject(a, "query_params", query ? query : cJSON_CreateObject());
    cJSON_AddBoolToObject(a, "is_regex", is_regex);
    return a;
}

/* the site template of a "__NAME__..." URL rendered from EOUS_SITE_NAME (webarena/site_pool.h) */
static char *render(const char *s)
{
    if (strncmp(s, "__", 2))
        return strdup(s);
    const char *e = strstr(s + 2, "__");
    if (!e)
        return strdup(s);
    char name[128], url[2048];
    snprintf(name, sizeof name, "%.*s", (int)(e - s - 2), s + 2);
    /* a pool's first copy: both sides of a comparison are rendered alike */
    if (!wa_site_url(name, 0, url, sizeof url))
        return strdup(s);
    size_t ul = strlen(url);
    while (ul && url[ul - 1] == '/')
        ul--;
    char *r = NULL;
    if (asprintf(&r, "%.*s%s", (int)ul, url, e + 2) < 0)
        return NULL;
    return r;
}

/* A git remote (ssh://user@host/path or user@host:path) as
 * user@__SSH_HOST__:path in lower case, r kept. */
static cJSON *norm_git_remote(const char *r)
{
    const char *path = NULL;
    char user[64] = "git";
    if (!strncasecmp(r, "ssh://", 6)) {
        const char *nl = r + 6, *at = strchr(nl, '@'), *sl = strchr(nl, '/');
        if (at && (!sl || at < sl))
            snprintf(user, sizeof user, "%.*s", (int)(at - nl), nl);
        path = sl ? sl : "";
    } else {
        const char *at = strchr(r, '@'), *colon = strchr(at, ':');
        snprintf(user, sizeof user, "%.*s", (int)(at - r), r);
        path = colon + 1;
    }
    while (*path == '/')
        path++;
    char *base = NULL;
    if (asprintf(&base, "%s@__SSH_HOST__:%s", user, path) < 0)
        base = NULL;
    if (!base)
        return NULL;
    for (char *p = base; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    cJSON *a = url_alt(base, NULL, 0);
    free(base);
    return a;
}

static cJSON *norm_one_url(vf_ctx *ctx, const char *raw, const vf_url_opts *o, int strict)
{
    size_t st = strspn(raw, " \t\r\n"), ln = strlen(raw + st);
    while (ln && isspace((unsigned char)raw[st + ln - 1]))
        ln--;
    char *v = strndup(raw + st, ln);
    if (!v)
        return NULL;
    if (!*v) {
        free(v);
        return NULL;
    }
    if (vf_is_regexp(v)) {
        cJSON *q = o && o->query_params ? norm_query(ctx, o->query_params, o, strict) : cJSON_CreateObject();
        size_t n = strlen(v);
        while (n && v[n - 1] == '/')
            v[--n] = 0;
        cJSON *a = q ? url_alt(v, q, 1) : NULL;
        free(v);
        return a;
    }
    size_t n = strlen(v);
    while (n && v[n - 1] == '/')
        v[--n] = 0;
    char *r = render(v);
    free(v);
    if (!r)
        return NULL;
    if (!strncasecmp(r, "ssh://", 6) || (!strncasecmp(r, "git@", 4) && strchr(r, ':') && !strstr(r, "://"))) {
        cJSON *a = norm_git_remote(r);
        free(r);
        return a;
    }
    char *norm = url_normalize(r);
    free(r);
    if (!norm)
        return NULL;
    char *der = vf_derender(ctx, norm);
    url_parts u;
    urlparse(der ? der : norm, &u);
    free(der);
    free(norm);
    for (char *p = u.scheme; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (char *p = u.netloc; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    eous_buf qs;
    eous_buf_init(&qs, 0);
    char *path = NULL;
    if (o && o->decode_base64_query)
        path = extract_b64(u.path, &qs);
    else
        path = strdup(u.path);
    if (*u.query) {
        if (qs.len)
            eous_buf_putc(&qs, '&', NULL);
        size_t ql = strlen(u.query);
        size_t a = strspn(u.query, " \t"), z = ql;
        while (z > a && isspace((unsigned char)u.query[z - 1]))
            z--;
        eous_buf_append(&qs, u.query + a, z - a, NULL);
    }
    char *qstr = eous_buf_steal(&qs);
    cJSON *params = cJSON_CreateObject();
    if (o && o->query_params)
        cJSON_Delete(params), params = cJSON_Duplicate(o->query_params, 1);
    else if (qstr)
        parse_query_into(params, qstr);
    free(qstr);
    cJSON *q = norm_query(ctx, params, o, strict);
    cJSON_Delete(params);
    eous_buf b;
    eous_buf_init(&b, 0);
    if (*u.scheme)
        eous_buf_printf(&b, NULL, "%s:", u.scheme);
    if (*u.netloc)
        eous_buf_printf(&b, NULL, "//%s", u.netloc);
    eous_buf_puts(&b, path ? path : "", NULL);
    if (*u.fragment)
        eous_buf_printf(&b, NULL, "#%s", u.fragment);
    free(path);
    parts_free(&u);
    char *base = eous_buf_steal(&b);
    cJSON *alt = q && base ? url_alt(base, q, 0) : NULL;
    if (!alt)
        cJSON_Delete(q);
    free(base);
    return alt;
}

cJSON *vf_norm_url(vf_ctx *ctx, const cJSON *raw, const vf_url_opts *o, int strict)
{
    cJSON *alts = cJSON_CreateArray();
    int bad = 0;
    if (cJSON_IsArray(raw)) {
        if (cJSON_GetArraySize(raw) < 2)
            bad = 1;
        const cJSON *x;
        cJSON_ArrayForEach(x, raw) {
            cJSON *a = !bad && cJSON_IsString(x) ? norm_one_url(ctx, x->valuestring, o, strict) : NULL;
            if (!a) {
                bad = 1;
                break;
            }
            cJSON_AddItemToArray(alts, a);
        }
    } else {
        cJSON *a = cJSON_IsString(raw) ? norm_one_url(ctx, raw->valuestring, o, strict) : NULL;
        if (a)
            cJSON_AddItemToArray(alts, a);
        else
            bad = 1;
    }
    if (bad) {
        cJSON_Delete(alts);
        if (ctx && !ctx->err[0])
            snprintf(ctx->err, sizeof ctx->err, "Invalid URL value: %.100s",
                     cJSON_IsString(raw) ? raw->valuestring : eous_json_type_name(raw));
        if (strict)
            return NULL;
        if (ctx)
            ctx->err[0] = 0;
        return cJSON_Duplicate(raw, 1);
    }
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, VF_T, "url");
    cJSON_AddItemToObject(t, VF_A, alts);
    return t;
}

/* ---- comparison ---- */

static int base_match_regex(const char *pattern, const char *other)
{
    char *pat;
    if (vf_is_regexp(pattern)) {
        char *inner = strndup(pattern + 1, strlen(pattern) - 2);
        char *r = inner ? render(inner) : NULL;
        free(inner);
        if (!r || asprintf(&pat, "^%s$", r) < 0)
            pat = NULL;
        free(r);
    } else {
        pat = render(pattern);
    }
    char *o = render(other);
    int m = pat && o ? vf_re_search(pat, o, 0) == 1 : 0;
    free(pat), free(o);
    return m;
}

static int ci_eq_rstrip(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    while (la && a[la - 1] == '/')
        la--;
    while (lb && b[lb - 1] == '/')
        lb--;
    return la == lb && !strncasecmp(a, b, la);
}

static int alt_base_match(const cJSON *a, const cJSON *b)
{
    const char *ba = eous_json_str(a, "base_url"), *bb = eous_json_str(b, "base_url");
    int ra = eous_json_bool(a, "is_regex", 0), rb = eous_json_bool(b, "is_regex", 0);
    if (!ba || !bb)
        return 0;
    if (ra && base_match_regex(ba, bb))
        return 1;
    if (rb && base_match_regex(bb, ba))
        return 1;
    return !ra && !rb && ci_eq_rstrip(ba, bb);
}

int vf_url_compare_path(const cJSON *a, const cJSON *b)
{
    const cJSON *x, *y;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(a, VF_A))
        cJSON_ArrayForEach(y, cJSON_GetObjectItemCaseSensitive(b, VF_A))
            if (alt_base_match(x, y))
                return 1;
    return 0;
}

/* _compare_query_params: every key of either side; its first value, "" when
 * missing; a regex on the expected side is matched, otherwise equal */
static int query_match(const cJSON *exp, const cJSON *act)
{
    const cJSON *qe = eous_json_obj(exp, "query_params"), *qa = eous_json_obj(act, "query_params");
    for (int side = 0; side < 2; side++) {
        const cJSON *kv;
        cJSON_ArrayForEach(kv, (side ? qa : qe)) {
            const cJSON *ev = cJSON_GetObjectItemCaseSensitive(qe, kv->string);
            const cJSON *av = cJSON_GetObjectItemCaseSensitive(qa, kv->string);
            const cJSON *e1 = cJSON_IsArray(ev) ? ev->child : ev, *a1 = cJSON_IsArray(av) ? av->child : av;
            if (vf_typeof(e1) || vf_typeof(a1)) { /* typed by query_params_schema */
                if (!e1 || !a1 || !vf_equal(e1, a1))
                    return 0;
                continue;
            }
            const char *es = cJSON_IsString(e1) ? e1->valuestring : "";
            const char *as = cJSON_IsString(a1) ? a1->valuestring : "";
            if (vf_is_regexp(es)) {
                if (vf_re_search(es, as, 0) != 1)
                    return 0;
            } else if (strcmp(es, as)) {
                return 0;
            }
        }
    }
    return 1;
}

int vf_url_equal(const cJSON *exp, const cJSON *act);
int vf_url_equal(const cJSON *exp, const cJSON *act)
{
    const cJSON *x, *y;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(exp, VF_A))
        cJSON_ArrayForEach(y, cJSON_GetObjectItemCaseSensitive(act, VF_A))
            if (alt_base_match(x, y) && query_match(x, y))
                return 1;
    return 0;
}

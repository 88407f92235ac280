/* webarena/har.c — see har.h. */
#define _GNU_SOURCE
#include "webarena/har.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- redaction ---- */

static int secret_header(const char *name)
{
    static const char *names[] = {"cookie", "set-cookie", "authorization", "proxy-authorization", "x-api-key",
                                  "api-key", "x-auth-token", "x-csrf-token", "x-xsrf-token", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcasecmp(name, names[i]))
            return 1;
    return 0;
}

/* a field whose value is a credential whatever it holds */
static int secret_field(const char *name)
{
    char low[64];
    size_t i = 0;
    for (; name[i] && i < sizeof low - 1; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    low[i] = 0;
    static const char *parts[] = {"pass", "pwd", "secret", "token", "api_key", "apikey", "sectok", "csrf", NULL};
    for (int k = 0; parts[k]; k++)
        if (strstr(low, parts[k]))
            return 1;
    return !strcmp(low, "p"); /* DokuWiki's login form names the password p */
}

static int hexv(int c)
{
    return isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

static char *form_decode(const char *s, size_t n)
{
    char *o = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; o && i < n; i++) {
        if (s[i] == '+')
            o[k++] = ' ';
        else if (s[i] == '%' && i + 2 < n && hexv((unsigned char)s[i + 1]) >= 0 && hexv((unsigned char)s[i + 2]) >= 0) {
            o[k++] = (char)(hexv((unsigned char)s[i + 1]) * 16 + hexv((unsigned char)s[i + 2]));
            i += 2;
        } else
            o[k++] = s[i];
    }
    if (o)
        o[k] = 0;
    return o;
}

/* key=value&... with a field's value "[redacted]" when its name is a
 * credential's or its decoded value holds a registered secret, and a name
 * or a bare field that decodes to a secret redacted too */
static char *redact_form(const char *text)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "&");
        const char *eq = memchr(p, '=', n);
        if (eq) {
            size_t kl = (size_t)(eq - p);
            char *k = form_decode(p, kl), *v = form_decode(eq + 1, n - kl - 1);
            int hide = (k && secret_field(k)) || (v && eous_redact_contains(v));
            if (k && eous_redact_contains(k)) /* a secret as a field's name, however it was encoded */
                eous_buf_puts(&b, "%5Bredacted%5D=", NULL);
            else
                eous_buf_append(&b, p, kl + 1, NULL);
            if (hide && v && *v)
                eous_buf_puts(&b, "%5Bredacted%5D", NULL);
            else
                eous_buf_append(&b, eq + 1, n - kl - 1, NULL);
            free(k), free(v);
        } else {
            char *f = form_decode(p, n);
            if (f && eous_redact_contains(f)) /* a bare field that decodes to a secret */
                eous_buf_puts(&b, "%5Bredacted%5D", NULL);
            else
                eous_buf_append(&b, p, n, NULL);
            free(f);
        }
        p += n;
        if (*p)
            eous_buf_putc(&b, *p++, NULL);
    }
    char *r = eous_buf_steal(&b);
    return r ? r : strdup("");
}

static void redact_json_tree(cJSON *v)
{
    cJSON *c;
    cJSON_ArrayForEach(c, v) {
        if (cJSON_IsString(c)) {
            if ((c->string && secret_field(c->string) && *c->valuestring) || eous_redact_contains(c->valuestring))
                cJSON_SetValuestring(c, "[redacted]");
        } else if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
            redact_json_tree(c);
        } else if (c->string && secret_field(c->string) && cJSON_IsNumber(c)) {
            cJSON_ReplaceItemViaPointer(v, c, cJSON_CreateString("[redacted]"));
            return redact_json_tree(v);
        }
    }
}

char *wa_har_redact_text(const char *text, const char *mime)
{
    if (!text)
        return NULL;
    char *t = NULL;
    if (mime && strstr(mime, "application/x-www-form-urlencoded")) {
        t = redact_form(text);
    } else if (mime && strstr(mime, "json")) {
        cJSON *j = cJSON_Parse(text);
        if (j) {
            redact_json_tree(j);
            t = cJSON_PrintUnformatted(j);
            cJSON_Delete(j);
        }
    }
    /* then every registered value as it is, and the query string's fields */
    char *r = eous_redact(t ? t : text);
    free(t);
    if (r && strchr(r, '?') && !mime) {
        char *q = strchr(r, '?');
        char *f = redact_form(q + 1);
        if (f) {
            size_t head = (size_t)(q + 1 - r);
            char *u = malloc(head + strlen(f) + 1);
            if (u) {
                memcpy(u, r, head);
                strcpy(u + head, f);
                free(r);
                r = u;
            }
            free(f);
        }
    }
    return r;
}

/* ---- building ---- */

typedef struct har_req {
    char *id;
    cJSON *entry;       /* the HAR entry being built */
    double ts;          /* monotonic start (s) */
    double wall;        /* wall time start (s since epoch) */
    cJSON *extra_req;   /* requestWillBeSentExtraInfo headers */
    cJSON *extra_resp;  /* responseReceivedExtraInfo headers */
    int done;
} har_req;

typedef struct har_b {
    har_req *r;
    size_t n, cap;
    cJSON *entries;
} har_b;

static har_req *find(har_b *b, const char *id)
{
    for (size_t i = b->n; i-- > 0;)
        if (!strcmp(b->r[i].id, id))
            return &b->r[i];
    return NULL;
}

static cJSON *headers_list(const cJSON *obj)
{
    cJSON *l = cJSON_CreateArray();
    const cJSON *h;
    cJSON_ArrayForEach(h, obj) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", h->string);
        const char *v = cJSON_IsString(h) ? h->valuestring : "";
        if (secret_header(h->string)) {
            cJSON_AddStringToObject(x, "value", "[redacted]");
        } else {
            char *r = eous_redact(v);
            cJSON_AddStringToObject(x, "value", r ? r : "");
            free(r);
        }
        cJSON_AddItemToArray(l, x);
    }
    return l;
}

static void iso_time(double wall, char *out, size_t n)
{
    /* the log's wallTime may be anything (the fuzzer sent 1.7e58): outside years 1970..9999 it is the epoch */
    if (!(wall >= 0 && wall < 253402300800.0))
        wall = 0;
    time_t t = (time_t)wall;
    struct tm tm;
    gmtime_r(&t, &tm);
    int ms = (int)((wall - floor(wall)) * 1000);
    snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, ms);
}

static cJSON *query_list(const char *url)
{
    cJSON *l = cJSON_CreateArray();
    const char *q = strchr(url, '?');
    if (!q)
        return l;
    q++;
    size_t end = strcspn(q, "#");
    const char *p = q;
    while (p < q + end) {
        size_t n = strcspn(p, "&#");
        if (p + n > q + end)
            n = (size_t)(q + end - p);
        const char *eq = memchr(p, '=', n);
        size_t kl = eq ? (size_t)(eq - p) : n;
        char *k = form_decode(p, kl), *v = eq ? form_decode(eq + 1, n - kl - 1) : strdup("");
        if (k && v && *k) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "name", k);
            cJSON_AddStringToObject(x, "value", v);
            cJSON_AddItemToArray(l, x);
        }
        free(k), free(v);
        p += n;
        if (*p == '&')
            p++;
        else
            break;
    }
    return l;
}

static cJSON *new_entry(const cJSON *params, const cJSON *req)
{
    cJSON *e = cJSON_CreateObject();
    double wall = eous_json_num(params, "wallTime", 0);
    char when[40];
    iso_time(wall, when, sizeof when);
    cJSON_AddStringToObject(e, "startedDateTime", when);
    cJSON_AddNumberToObject(e, "time", 0);
    cJSON *r = cJSON_AddObjectToObject(e, "request");
    cJSON_AddStringToObject(r, "method", eous_json_str(req, "method") ? eous_json_str(req, "method") : "GET");
    char *url = wa_har_redact_text(eous_json_str(req, "url"), NULL);
    cJSON_AddStringToObject(r, "url", url ? url : "");
    cJSON_AddStringToObject(r, "httpVersion", "HTTP/1.1");
    cJSON_AddItemToObject(r, "cookies", cJSON_CreateArray());
    cJSON_AddItemToObject(r, "headers", headers_list(eous_json_obj(req, "headers")));
    cJSON_AddItemToObject(r, "queryString", query_list(url ? url : ""));
    free(url);
    const char *post = eous_json_str(req, "postData");
    long body = 0;
    if (post) {
        const cJSON *h;
        const char *mime = "";
        cJSON_ArrayForEach(h, eous_json_obj(req, "headers"))
            if (!strcasecmp(h->string, "content-type") && cJSON_IsString(h))
                mime = h->valuestring;
        cJSON *pd = cJSON_AddObjectToObject(r, "postData");
        cJSON_AddStringToObject(pd, "mimeType", mime);
        char *t = wa_har_redact_text(post, *mime ? mime : "text/plain");
        cJSON_AddStringToObject(pd, "text", t ? t : "");
        body = (long)strlen(post);
        free(t);
    }
    cJSON_AddNumberToObject(r, "headersSize", -1);
    cJSON_AddNumberToObject(r, "bodySize", (double)body);
    cJSON *rs = cJSON_AddObjectToObject(e, "response");
    cJSON_AddNumberToObject(rs, "status", 0);
    cJSON_AddStringToObject(rs, "statusText", "");
    cJSON_AddStringToObject(rs, "httpVersion", "HTTP/1.1");
    cJSON_AddItemToObject(rs, "cookies", cJSON_CreateArray());
    cJSON_AddItemToObject(rs, "headers", cJSON_CreateArray());
    cJSON *content = cJSON_AddObjectToObject(rs, "content");
    cJSON_AddNumberToObject(content, "size", 0);
    cJSON_AddStringToObject(content, "mimeType", "");
    cJSON_AddStringToObject(rs, "redirectURL", "");
    cJSON_AddNumberToObject(rs, "headersSize", -1);
    cJSON_AddNumberToObject(rs, "bodySize", -1);
    cJSON_AddItemToObject(e, "cache", cJSON_CreateObject());
    if (eous_json_bool(req, "hasPostData", 0) && !post) /* too large to ride along: fetched by id later */
        cJSON_AddBoolToObject(e, "_postDataMissing", 1);
    cJSON *tm = cJSON_AddObjectToObject(e, "timings");
    cJSON_AddNumberToObject(tm, "send", 0);
    cJSON_AddNumberToObject(tm, "wait", 0);
    cJSON_AddNumberToObject(tm, "receive", 0);
    return e;
}

static void set_num(cJSON *o, const char *k, double v)
{
    cJSON_ReplaceItemInObjectCaseSensitive(o, k, cJSON_CreateNumber(v));
}

static void set_str(cJSON *o, const char *k, const char *v)
{
    cJSON_ReplaceItemInObjectCaseSensitive(o, k, cJSON_CreateString(v ? v : ""));
}

static void fill_response(har_req *q, const cJSON *resp)
{
    cJSON *rs = cJSON_GetObjectItemCaseSensitive(q->entry, "response");
    set_num(rs, "status", eous_json_num(resp, "status", 0));
    set_str(rs, "statusText", eous_json_str(resp, "statusText"));
    const char *proto = eous_json_str(resp, "protocol");
    if (proto) {
        char up[32];
        size_t i = 0;
        for (; proto[i] && i < sizeof up - 1; i++)
            up[i] = (char)toupper((unsigned char)proto[i]);
        up[i] = 0;
        set_str(rs, "httpVersion", up);
        set_str(cJSON_GetObjectItemCaseSensitive(q->entry, "request"), "httpVersion", up);
    }
    cJSON_ReplaceItemInObjectCaseSensitive(rs, "headers", headers_list(eous_json_obj(resp, "headers")));
    cJSON *content = cJSON_GetObjectItemCaseSensitive(rs, "content");
    set_str(content, "mimeType", eous_json_str(resp, "mimeType"));
    const cJSON *h;
    cJSON_ArrayForEach(h, eous_json_obj(resp, "headers"))
        if (!strcasecmp(h->string, "location") && cJSON_IsString(h)) {
            char *r = eous_redact(h->valuestring);
            set_str(rs, "redirectURL", r);
            free(r);
        }
    const cJSON *t = eous_json_obj(resp, "timing");
    if (t) {
        double send = eous_json_num(t, "sendEnd", 0) - eous_json_num(t, "sendStart", 0);
        double wait = eous_json_num(t, "receiveHeadersEnd", 0) - eous_json_num(t, "sendEnd", 0);
        cJSON *tm = cJSON_GetObjectItemCaseSensitive(q->entry, "timings");
        set_num(tm, "send", send > 0 ? send : 0);
        set_num(tm, "wait", wait > 0 ? wait : 0);
    }
}

static void finish(har_b *b, har_req *q, double ts)
{
    if (q->done)
        return;
    q->done = 1;
    double total = ts > q->ts ? (ts - q->ts) * 1000 : 0;
    set_num(q->entry, "time", total);
    cJSON *tm = cJSON_GetObjectItemCaseSensitive(q->entry, "timings");
    double rest = total - eous_json_num(tm, "send", 0) - eous_json_num(tm, "wait", 0);
    set_num(tm, "receive", rest > 0 ? rest : 0);
    (void)b; /* entries are listed in the order their requests started (wa_har_build) */
}

static har_req *start(har_b *b, const char *id, const cJSON *params, const cJSON *req)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        har_req *g = realloc(b->r, cap * sizeof *g);
        if (!g)
            return NULL;
        b->r = g, b->cap = cap;
    }
    har_req *q = &b->r[b->n++];
    memset(q, 0, sizeof *q);
    q->id = strdup(id);
    q->ts = eous_json_num(params, "timestamp", 0);
    q->wall = eous_json_num(params, "wallTime", 0);
    q->entry = req ? new_entry(params, req) : NULL;
    if (q->entry)
        cJSON_AddStringToObject(q->entry, "_requestId", id);
    return q;
}

static int http_url(const char *u)
{
    return u && (!strncmp(u, "http://", 7) || !strncmp(u, "https://", 8));
}

static void on_event(har_b *b, const char *method, const cJSON *params)
{
    const char *id = eous_json_str(params, "requestId");
    if (!id)
        return;
    har_req *q = find(b, id);
    double ts = eous_json_num(params, "timestamp", 0);
    if (!strcmp(method, "Network.requestWillBeSent")) {
        const cJSON *req = eous_json_obj(params, "request");
        const cJSON *redir = eous_json_obj(params, "redirectResponse");
        if (q && !q->done && redir) { /* the same id again: the previous hop was a redirect */
            fill_response(q, redir);
            finish(b, q, ts);
        }
        if (http_url(eous_json_str(req, "url")))
            start(b, id, params, req);
    } else if (!q) {
        /* ExtraInfo may come first: keep it on a placeholder found later */
        if (!strcmp(method, "Network.requestWillBeSentExtraInfo") || !strcmp(method, "Network.responseReceivedExtraInfo")) {
            har_req *p = start(b, id, params, NULL);
            if (!p)
                return;
            cJSON_Delete(p->entry);
            p->entry = NULL;
            p->done = 2; /* a placeholder */
            if (!strcmp(method, "Network.requestWillBeSentExtraInfo"))
                p->extra_req = cJSON_Duplicate(eous_json_obj(params, "headers"), 1);
            else
                p->extra_resp = cJSON_Duplicate(eous_json_obj(params, "headers"), 1);
        }
    } else if (!strcmp(method, "Network.requestWillBeSentExtraInfo")) {
        cJSON_Delete(q->extra_req);
        q->extra_req = cJSON_Duplicate(eous_json_obj(params, "headers"), 1);
    } else if (!strcmp(method, "Network.responseReceivedExtraInfo")) {
        cJSON_Delete(q->extra_resp);
        q->extra_resp = cJSON_Duplicate(eous_json_obj(params, "headers"), 1);
    } else if (q->entry && !strcmp(method, "Network.responseReceived")) {
        fill_response(q, eous_json_obj(params, "response"));
    } else if (q->entry && !strcmp(method, "Network.loadingFinished")) {
        cJSON *content = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(q->entry, "response"), "content");
        double len = eous_json_num(params, "encodedDataLength", 0);
        set_num(content, "size", len);
        set_num(cJSON_GetObjectItemCaseSensitive(q->entry, "response"), "bodySize", len);
        finish(b, q, ts);
    } else if (q->entry && !strcmp(method, "Network.loadingFailed")) {
        cJSON_AddStringToObject(q->entry, "_error", eous_json_str(params, "errorText") ? eous_json_str(params, "errorText") : "failed");
        finish(b, q, ts);
    }
}

/* a placeholder's ExtraInfo moves onto the request that came after it */
static void adopt_placeholders(har_b *b)
{
    for (size_t i = 0; i < b->n; i++) {
        if (b->r[i].done != 2)
            continue;
        for (size_t k = i + 1; k < b->n; k++) {
            if (b->r[k].done == 2 || strcmp(b->r[k].id, b->r[i].id))
                continue;
            if (!b->r[k].extra_req)
                b->r[k].extra_req = b->r[i].extra_req, b->r[i].extra_req = NULL;
            if (!b->r[k].extra_resp)
                b->r[k].extra_resp = b->r[i].extra_resp, b->r[i].extra_resp = NULL;
            break;
        }
    }
}

/* The last pass: every string the HAR holds (a method, a status text, a MIME
 * type a page chose, not only the fields redacted above) through the
 * redactor, so no registered secret is written whatever field carried it. */
static void redact_every_string(cJSON *v)
{
    for (cJSON *c = v ? v->child : NULL; c; c = c->next) {
        if (cJSON_IsString(c) && c->valuestring && eous_redact_contains(c->valuestring)) {
            char *r = eous_redact(c->valuestring);
            cJSON_SetValuestring(c, r ? r : "[redacted]");
            free(r);
        } else {
            redact_every_string(c);
        }
    }
}

cJSON *wa_har_build(const cJSON *entries, int *skipped)
{
    har_b b = {.entries = cJSON_CreateArray()};
    int skip = 0;
    const cJSON *e;
    /* placeholders must be found by later requests: find() searches from the end, so
     * requests started after a placeholder take precedence over it */
    cJSON_ArrayForEach(e, entries) {
        cJSON *parsed = NULL;
        const cJSON *msg = e;
        const char *text = eous_json_str(e, "message");
        if (text) {
            parsed = cJSON_Parse(text);
            msg = eous_json_obj(parsed, "message");
        }
        const char *method = eous_json_str(msg, "method");
        const cJSON *params = eous_json_obj(msg, "params");
        if (!method || !params)
            skip++;
        else if (!strncmp(method, "Network.", 8))
            on_event(&b, method, params);
        cJSON_Delete(parsed);
    }
    adopt_placeholders(&b);
    /* requests still open at the end (a page left loading) are kept as they are */
    for (size_t i = 0; i < b.n; i++) {
        if (b.r[i].entry && !b.r[i].done)
            finish(&b, &b.r[i], b.r[i].ts);
        har_req *q = &b.r[i];
        /* full headers (cookies, sec-fetch-*) from the ExtraInfo events, which may come late, redacted the same way */
        if (q->entry && q->extra_req)
            cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(q->entry, "request"), "headers",
                                                   headers_list(q->extra_req));
        if (q->entry && q->extra_resp)
            cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(q->entry, "response"), "headers",
                                                   headers_list(q->extra_resp));
        if (q->entry)
            cJSON_AddItemToArray(b.entries, q->entry);
        cJSON_Delete(b.r[i].extra_req);
        cJSON_Delete(b.r[i].extra_resp);
        free(b.r[i].id);
    }
    free(b.r);
    if (skipped)
        *skipped = skip;
    cJSON *har = cJSON_CreateObject();
    cJSON *log = cJSON_AddObjectToObject(har, "log");
    cJSON_AddStringToObject(log, "version", "1.2");
    cJSON *cr = cJSON_AddObjectToObject(log, "creator");
    cJSON_AddStringToObject(cr, "name", "eous");
    cJSON_AddStringToObject(cr, "version", "1");
    cJSON_AddItemToObject(log, "entries", b.entries);
    redact_every_string(b.entries);
    return har;
}

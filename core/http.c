/* core/http.c — see http_int.h. */
#include "core/http_int.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct eous_http {
    CURL *curl;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

eous_rc eous_http_new(eous_http **out, eous_err *err)
{
    pthread_once(&global_once, global_init);
    *out = NULL;
    eous_http *h = calloc(1, sizeof *h);
    if (!h || !(h->curl = curl_easy_init())) {
        free(h);
        return eous_err_set(err, EOUS_E_NOMEM, "cannot create an HTTP handle (curl_easy_init failed)");
    }
    *out = h;
    return EOUS_OK;
}

void eous_http_free(eous_http *h)
{
    if (!h)
        return;
    curl_easy_cleanup(h->curl);
    free(h);
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    if (eous_buf_append(ud, p, size * n, NULL))
        return 0; /* past the cap: CURLE_WRITE_ERROR */
    return size * n;
}

typedef struct header_ctx {
    const eous_http_req *req;
} header_ctx;

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    const eous_http_req *req = ((header_ctx *)ud)->req;
    size_t len = size * n;
    const char *colon = memchr(p, ':', len);
    if (!colon)
        return len; /* the status line, the blank line */
    const char *b = colon + 1, *e = p + len;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t'))
        e--;
    char value[512];
    size_t vlen = (size_t)(e - b) < sizeof value - 1 ? (size_t)(e - b) : sizeof value - 1;
    memcpy(value, b, vlen);
    value[vlen] = '\0';
    req->on_header(req->header_ud, p, (size_t)(colon - p), value);
    return len;
}

static int on_progress(void *ud, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
    (void)ud; (void)a; (void)b; (void)c; (void)d;
    return eous_interrupted() ? 1 : 0;
}

static int transient(CURLcode cc)
{
    switch (cc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return 1;
    default:
        return 0; /* certificate problems, bad URLs, ... will not fix themselves */
    }
}

static void set_options(CURL *curl, const eous_http_req *req, struct curl_slist *hdr, eous_http_resp *resp,
                        header_ctx *hc)
{
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, req->url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &resp->body);
    if (req->on_header) {
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, hc);
    }
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(req->timeout_ms + 0.999));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, (long)req->connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https,http");
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (req->ca_file && *req->ca_file)
        curl_easy_setopt(curl, CURLOPT_CAINFO, req->ca_file);
    if (req->direct) {
        curl_easy_setopt(curl, CURLOPT_PROXY, "");
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    } else {
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
    }
    if (!strcmp(req->method, "POST")) {
        const char *body = req->body ? req->body : "";
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
    } else if (strcmp(req->method, "GET")) {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req->method);
    }
}

static eous_rc transport_error(CURLcode cc, const eous_http_req *req, eous_err *err)
{
    eous_err_set_code(err, "transport");
    if (cc == CURLE_ABORTED_BY_CALLBACK)
        return eous_err_set(err, EOUS_E_INTERRUPTED, "%s %s: interrupted", req->method, req->url);
    if (cc == CURLE_OPERATION_TIMEDOUT)
        return eous_err_set(err, EOUS_E_TIMEOUT, "%s %s: no answer within %.0f ms", req->method, req->url,
                            req->timeout_ms);
    if (cc == CURLE_WRITE_ERROR)
        return eous_err_set(err, EOUS_E_LIMIT, "%s %s: response larger than %zu bytes", req->method, req->url,
                            req->max_response);
    int tls = cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CACERT_BADFILE;
    const char *hint = tls && req->tls_hint ? req->tls_hint : req->transport_hint;
    return eous_err_set(err, EOUS_E_INFRA, "%s %s: %s%s%s", req->method, req->url, curl_easy_strerror(cc),
                        hint ? " " : "", hint ? hint : "");
}

eous_rc eous_http_exchange(eous_http *h, const eous_http_req *req, eous_http_resp *resp, eous_err *err)
{
    memset(resp, 0, sizeof *resp);
    eous_buf_init(&resp->body, req->max_response);
    struct curl_slist *hdr = NULL;
    for (const char *const *line = req->headers; line && *line; line++) {
        struct curl_slist *next = curl_slist_append(hdr, *line);
        if (!next) {
            curl_slist_free_all(hdr);
            return eous_err_set(err, EOUS_E_NOMEM, "%s %s: out of memory", req->method, req->url);
        }
        hdr = next;
    }
    header_ctx hc = {req};
    set_options(h->curl, req, hdr, resp, &hc);
    CURLcode cc = curl_easy_perform(h->curl);
    curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &resp->status);
    /* the handle keeps pointers to the header list and the body: drop them */
    curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, NULL);
    curl_slist_free_all(hdr);
    if (cc == CURLE_OK)
        return EOUS_OK;
    resp->transient = transient(cc);
    resp->timed_out = cc == CURLE_OPERATION_TIMEDOUT;
    snprintf(resp->transport, sizeof resp->transport, "%s", curl_easy_strerror(cc));
    return transport_error(cc, req, err);
}

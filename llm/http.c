/* llm/http.c — one model request over HTTPS: retries with backoff and jitter,
 * Retry-After, a total budget, cancellation.  Headers are never logged: they
 * carry the API key. */
#define _GNU_SOURCE
#include "llm/llm_int.h"

#include <curl/curl.h>
#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BACKOFF_BASE_MS 500.0
#define BACKOFF_CAP_MS 20000.0

typedef struct hdr_state {
    double retry_after_ms; /* -1 when absent */
    char request_id[96];
} hdr_state;

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    if (eous_buf_append(ud, p, size * n, NULL))
        return 0; /* too large: CURLE_WRITE_ERROR */
    return size * n;
}

static void header_value(const char *line, size_t n, char *out, size_t out_size)
{
    const char *colon = memchr(line, ':', n);
    const char *b = colon ? colon + 1 : line + n, *e = line + n;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' '))
        e--;
    size_t len = (size_t)(e - b) < out_size - 1 ? (size_t)(e - b) : out_size - 1;
    memcpy(out, b, len);
    out[len] = '\0';
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    hdr_state *h = ud;
    size_t len = size * n;
    char v[128];
    if (len > 12 && strncasecmp(p, "retry-after:", 12) == 0) {
        header_value(p, len, v, sizeof v);
        char *end;
        double s = strtod(v, &end);
        if (end != v && *end == '\0' && s >= 0 && h->retry_after_ms < 0) {
            h->retry_after_ms = s * 1000.0;
        } else if (h->retry_after_ms < 0) {
            /* the HTTP-date form (RFC 9110 10.2.3): wait until then */
            time_t when = curl_getdate(v, NULL);
            if (when != (time_t)-1) {
                double ms = difftime(when, time(NULL)) * 1000.0;
                h->retry_after_ms = ms > 0 ? ms : 0;
            }
        }
    } else if (len > 15 && strncasecmp(p, "retry-after-ms:", 15) == 0) {
        header_value(p, len, v, sizeof v);
        char *end;
        double ms = strtod(v, &end);
        if (end != v && ms >= 0)
            h->retry_after_ms = ms; /* the finer header wins */
    } else if ((len > 13 && strncasecmp(p, "x-request-id:", 13) == 0) ||
               (len > 11 && strncasecmp(p, "request-id:", 11) == 0)) {
        header_value(p, len, h->request_id, sizeof h->request_id);
    }
    return len;
}

static int on_progress(void *ud, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
    (void)ud; (void)a; (void)b; (void)c; (void)d;
    return eous_interrupted() ? 1 : 0;
}

static double jitter01(uint64_t *s)
{
    /* xorshift64*: jitter only needs to decorrelate workers, not be secure */
    uint64_t x = *s ? *s : 0x9E3779B97F4A7C15ULL;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static int retryable_status(long s)
{
    return s == 408 || s == 429 || s >= 500;
}

static int retryable_curl(CURLcode cc)
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

/* Sleeps ms in small slices so SIGINT cuts the wait short; 1 when interrupted. */
static int sleep_interruptible(double ms)
{
    double until = eous_now_ms() + ms;
    for (;;) {
        if (eous_interrupted())
            return 1;
        double left = until - eous_now_ms();
        if (left <= 0)
            return 0;
        eous_sleep_ms(left > 50 ? 50 : (long)left + 1);
    }
}

void llm_error_fields(const cJSON *root, const char **message, const char **type)
{
    *message = *type = NULL;
    const cJSON *e = eous_json_obj(root, "error");
    if (e) {
        *message = eous_json_str(e, "message");
        *type = eous_json_str(e, "type");
        if (!*type)
            *type = eous_json_str(e, "code");
    } else if (root) {
        *message = eous_json_str(root, "message");
    }
}

eous_rc llm_http_post(void *curl_handle, const llm_http_opts *o, uint64_t *rng, llm_http_result *res,
                      eous_err *err)
{
    CURL *curl = curl_handle;
    memset(res, 0, sizeof *res);
    eous_buf body;
    eous_buf_init(&body, LLM_MAX_RESPONSE);
    struct curl_slist *hdr = NULL;
    eous_rc rc = EOUS_OK;
    const char *pname = o->provider_name ? o->provider_name : "model";
    for (const char *const *h = o->headers; h && *h; h++) {
        struct curl_slist *n = curl_slist_append(hdr, *h);
        if (!n) {
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            goto done;
        }
        hdr = n;
    }
    double start = eous_now_ms();
    double budget = o->total_budget_ms > 0 ? o->total_budget_ms : 300000;
    char last_problem[600] = "";
    for (int attempt = 0;; attempt++) {
        if (eous_interrupted()) {
            rc = eous_err_set(err, EOUS_E_INTERRUPTED, "%s: interrupted", pname);
            goto done;
        }
        double left = budget - (eous_now_ms() - start);
        if (left <= 0) {
            rc = eous_err_set(err, EOUS_E_TIMEOUT, "%s: no answer within the %.0f ms budget (%s)", pname,
                              budget, last_problem[0] ? last_problem : "no attempt finished");
            goto done;
        }
        double per = o->request_timeout_ms > 0 ? o->request_timeout_ms : 120000;
        if (per > left)
            per = left;
        hdr_state hs = {.retry_after_ms = -1};
        eous_buf_reset(&body);
        curl_easy_reset(curl);
        curl_easy_setopt(curl, CURLOPT_URL, o->url);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdr);
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, o->body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(o->body));
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &hs);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)ceil(per));
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                         (long)(o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 10000));
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
        /* verification is never switched off; a private CA is added, not trusted blindly */
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
        if (o->ca_file && *o->ca_file)
            curl_easy_setopt(curl, CURLOPT_CAINFO, o->ca_file);
        /* a redirect would carry the key to another host */
        curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https,http");
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");

        CURLcode cc = curl_easy_perform(curl);
        long status = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        int retry = 0;
        if (cc == CURLE_ABORTED_BY_CALLBACK) {
            rc = eous_err_set(err, EOUS_E_INTERRUPTED, "%s: interrupted", pname);
            goto done;
        } else if (cc == CURLE_WRITE_ERROR) {
            rc = eous_err_set(err, EOUS_E_LIMIT, "%s: response larger than %zu bytes", pname, LLM_MAX_RESPONSE);
            goto done;
        } else if (cc != CURLE_OK) {
            snprintf(last_problem, sizeof last_problem, "%s", curl_easy_strerror(cc));
            if (!retryable_curl(cc)) {
                eous_err_set_code(err, "transport");
                rc = eous_err_set(err, EOUS_E_INFRA, "%s: POST %s: %s%s", pname, o->url, curl_easy_strerror(cc),
                                  cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CACERT_BADFILE
                                      ? " (a private CA can be given with --llm-ca or EOUS_LLM_CA)"
                                      : "");
                goto done;
            }
            retry = 1;
        } else if (retryable_status(status)) {
            const char *m = NULL, *t = NULL;
            cJSON *root = body.len ? cJSON_ParseWithLength(body.data, body.len) : NULL;
            llm_error_fields(root, &m, &t);
            snprintf(last_problem, sizeof last_problem, "HTTP %ld%s%s%s%s", status, t ? " " : "", t ? t : "",
                     m ? ": " : "", m ? m : "");
            cJSON_Delete(root);
            retry = 1;
        }
        if (!retry) {
            res->status = status;
            res->body_len = body.len;
            res->body = eous_buf_steal(&body);
            res->latency_ms = eous_now_ms() - start;
            if (!res->body)
                rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            goto done;
        }
        if (attempt >= o->max_retries) {
            if (err)
                err->http_status = cc == CURLE_OK ? (int)status : 0;
            eous_err_set_code(err, cc == CURLE_OK ? "http" : "transport");
            rc = eous_err_set(err, cc == CURLE_OPERATION_TIMEDOUT ? EOUS_E_TIMEOUT : EOUS_E_INFRA,
                              "%s: POST %s failed after %d retries: %s", pname, o->url, attempt, last_problem);
            goto done;
        }
        double base = BACKOFF_BASE_MS * pow(2.0, attempt);
        if (base > BACKOFF_CAP_MS)
            base = BACKOFF_CAP_MS;
        /* half fixed, half random: spreads workers that failed together */
        double delay = base / 2 + jitter01(rng) * base / 2;
        if (hs.retry_after_ms >= 0 && hs.retry_after_ms > delay)
            delay = hs.retry_after_ms; /* the server said when; earlier is pointless */
        if (delay > budget - (eous_now_ms() - start)) {
            eous_err_set_code(err, "http");
            if (err)
                err->http_status = cc == CURLE_OK ? (int)status : 0;
            rc = eous_err_set(err, EOUS_E_TIMEOUT,
                              "%s: POST %s: waiting %.0f ms before retrying would pass the %.0f ms budget (%s)",
                              pname, o->url, delay, budget, last_problem);
            goto done;
        }
        EOUS_INFO("llm", "%s: %s; retry %d in %.0f ms", pname, last_problem, attempt + 1, delay);
        res->retries = attempt + 1;
        if (sleep_interruptible(delay)) {
            rc = eous_err_set(err, EOUS_E_INTERRUPTED, "%s: interrupted", pname);
            goto done;
        }
    }
done:
    curl_slist_free_all(hdr);
    eous_buf_free(&body);
    /* the handle keeps a pointer to the header list; drop it before it dangles */
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
    return rc;
}

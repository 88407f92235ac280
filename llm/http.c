/* llm/http.c — one model request over HTTPS: retries with backoff and jitter,
 * Retry-After, a total budget, cancellation.  Headers are never logged: they
 * carry the API key. */
#define _GNU_SOURCE
#include "llm/llm_int.h"

#include "core/http_int.h"

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

static int header_is(const char *name, size_t n, const char *want)
{
    return strlen(want) == n && !strncasecmp(name, want, n);
}

static void on_header(void *ud, const char *name, size_t n, const char *v)
{
    hdr_state *h = ud;
    if (header_is(name, n, "retry-after") && h->retry_after_ms < 0) {
        char *end;
        double s = strtod(v, &end);
        if (end != v && *end == '\0' && s >= 0) {
            h->retry_after_ms = s * 1000.0;
        } else {
            /* the HTTP-date form (RFC 9110 10.2.3): wait until then */
            time_t when = curl_getdate(v, NULL);
            if (when != (time_t)-1) {
                double ms = difftime(when, time(NULL)) * 1000.0;
                h->retry_after_ms = ms > 0 ? ms : 0;
            }
        }
    } else if (header_is(name, n, "retry-after-ms")) {
        char *end;
        double ms = strtod(v, &end);
        if (end != v && ms >= 0)
            h->retry_after_ms = ms; /* the finer header wins */
    } else if (header_is(name, n, "x-request-id") || header_is(name, n, "request-id")) {
        snprintf(h->request_id, sizeof h->request_id, "%s", v);
    }
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

/* What one attempt came to, for the retry loop. */
typedef enum attempt_outcome { ATTEMPT_DONE, ATTEMPT_RETRY, ATTEMPT_FAIL } attempt_outcome;

static attempt_outcome one_attempt(eous_http *http, const llm_http_opts *o, double per_ms, hdr_state *hs,
                                   eous_http_resp *hr, char *problem, size_t problem_size, eous_rc *rc,
                                   eous_err *err)
{
    const char *pname = o->provider_name ? o->provider_name : "model";
    eous_http_req req = {
        .method = "POST",
        .url = o->url,
        .headers = o->headers,
        .body = o->body,
        .timeout_ms = per_ms,
        .connect_timeout_ms = o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 10000,
        .max_response = LLM_MAX_RESPONSE,
        .ca_file = o->ca_file,
        .tls_hint = "(a private CA can be trusted through the client's CA file or EOUS_LLM_CA)",
        .on_header = on_header,
        .header_ud = hs,
    };
    eous_err herr;
    eous_err_clear(&herr);
    eous_rc hrc = eous_http_exchange(http, &req, hr, &herr);
    if (hrc) {
        if (hr->transient) {
            snprintf(problem, problem_size, "%s", hr->transport);
            return ATTEMPT_RETRY;
        }
        if (err)
            *err = herr;
        eous_err_prefix(err, "%s", pname);
        *rc = hrc;
        return ATTEMPT_FAIL;
    }
    if (!retryable_status(hr->status))
        return ATTEMPT_DONE;
    const char *m = NULL, *t = NULL;
    cJSON *root = hr->body.len ? cJSON_ParseWithLength(hr->body.data, hr->body.len) : NULL;
    llm_error_fields(root, &m, &t);
    snprintf(problem, problem_size, "HTTP %ld%s%s%s%s", hr->status, t ? " " : "", t ? t : "", m ? ": " : "",
             m ? m : "");
    cJSON_Delete(root);
    return ATTEMPT_RETRY;
}

/* The pause before retry `attempt`: exponential with jitter, at least what
 * the server asked for. */
static double retry_delay(int attempt, const hdr_state *hs, uint64_t *rng)
{
    double base = BACKOFF_BASE_MS * pow(2.0, attempt);
    if (base > BACKOFF_CAP_MS)
        base = BACKOFF_CAP_MS;
    /* half fixed, half random: spreads workers that failed together */
    double delay = base / 2 + jitter01(rng) * base / 2;
    if (hs->retry_after_ms >= 0 && hs->retry_after_ms > delay)
        delay = hs->retry_after_ms; /* the server said when; earlier is pointless */
    return delay;
}

eous_rc llm_http_post(eous_http *http, const llm_http_opts *o, uint64_t *rng, llm_http_result *res, eous_err *err)
{
    memset(res, 0, sizeof *res);
    const char *pname = o->provider_name ? o->provider_name : "model";
    double start = eous_now_ms();
    double budget = o->total_budget_ms > 0 ? o->total_budget_ms : 300000;
    char last_problem[600] = "";
    for (int attempt = 0;; attempt++) {
        if (eous_interrupted())
            return eous_err_set(err, EOUS_E_INTERRUPTED, "%s: interrupted", pname);
        double left = budget - (eous_now_ms() - start);
        if (left <= 0)
            return eous_err_set(err, EOUS_E_TIMEOUT, "%s: no answer within the %.0f ms budget (%s)", pname, budget,
                                last_problem[0] ? last_problem : "no attempt finished");
        double per = o->request_timeout_ms > 0 ? o->request_timeout_ms : 120000;
        if (per > left)
            per = left;
        hdr_state hs = {.retry_after_ms = -1};
        eous_http_resp hr;
        eous_rc rc = EOUS_OK;
        attempt_outcome out = one_attempt(http, o, per, &hs, &hr, last_problem, sizeof last_problem, &rc, err);
        if (out == ATTEMPT_DONE) {
            res->status = hr.status;
            res->body_len = hr.body.len;
            res->body = eous_buf_steal(&hr.body);
            res->latency_ms = eous_now_ms() - start;
            eous_buf_free(&hr.body);
            return res->body ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
        long status = hr.status;
        int transport = hr.transport[0] != '\0', timed_out = hr.timed_out;
        eous_buf_free(&hr.body);
        if (out == ATTEMPT_FAIL)
            return rc;
        if (err)
            err->http_status = transport ? 0 : (int)status;
        if (attempt >= o->max_retries) {
            eous_err_set_code(err, transport ? "transport" : "http");
            return eous_err_set(err, timed_out ? EOUS_E_TIMEOUT : EOUS_E_INFRA,
                                "%s: POST %s failed after %d retries: %s", pname, o->url, attempt, last_problem);
        }
        double delay = retry_delay(attempt, &hs, rng);
        if (delay > budget - (eous_now_ms() - start)) {
            eous_err_set_code(err, "http");
            return eous_err_set(err, EOUS_E_TIMEOUT,
                                "%s: POST %s: waiting %.0f ms before retrying would pass the %.0f ms budget (%s)",
                                pname, o->url, delay, budget, last_problem);
        }
        EOUS_INFO("llm", "%s: %s; retry %d in %.0f ms", pname, last_problem, attempt + 1, delay);
        res->retries = attempt + 1;
        if (sleep_interruptible(delay))
            return eous_err_set(err, EOUS_E_INTERRUPTED, "%s: interrupted", pname);
    }
}

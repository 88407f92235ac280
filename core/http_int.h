/* core/http_int.h — one bounded, interruptible HTTP exchange over libcurl,
 * shared by the WebDriver client (webdriver/session.c) and the model clients
 * (llm/http.c).  Internal to libeous: not installed.
 *
 * An eous_http owns one curl easy handle (its connection cache is reused
 * between exchanges); one thread uses it at a time.  libcurl's global init
 * happens once, on the first eous_http_new.  The response body is owned by
 * the caller (eous_buf_free). */
#ifndef EOUS_CORE_HTTP_INT_H
#define EOUS_CORE_HTTP_INT_H

#include <stddef.h>

#include "core/buf.h"
#include "core/err.h"

typedef struct eous_http eous_http;

/* Called once per response header line, name and value trimmed. */
typedef void (*eous_http_header_fn)(void *ud, const char *name, size_t name_len, const char *value);

typedef struct eous_http_req {
    const char *method;             /* "GET", "POST", "DELETE", ... */
    const char *url;
    const char *const *headers;     /* NULL-terminated "Name: value" lines, or NULL; never logged */
    const char *body;               /* POST body; NULL sends no body ("{}" is the caller's choice) */
    double timeout_ms;              /* whole exchange */
    double connect_timeout_ms;
    size_t max_response;            /* body cap: past it the exchange fails with EOUS_E_LIMIT */
    int direct;                     /* never through a proxy (loopback WebDriver endpoints) */
    const char *ca_file;            /* a private CA added to the system's; verification is never off */
    const char *transport_hint;     /* appended to a transport error: "(is the WebDriver endpoint up?)" */
    const char *tls_hint;           /* appended to a certificate error instead */
    eous_http_header_fn on_header;  /* NULL = headers ignored */
    void *header_ud;
} eous_http_req;

typedef struct eous_http_resp {
    long status;                    /* 0 when nothing answered */
    eous_buf body;                  /* the answer's body (caller frees, also on failure) */
    int transient;                  /* a transport failure worth retrying: connect, reset, timeout */
    int timed_out;                  /* that failure was timeout_ms running out */
    char transport[128];            /* curl's words for a transport failure, "" otherwise */
} eous_http_resp;

eous_rc eous_http_new(eous_http **out, eous_err *err);
void eous_http_free(eous_http *h);

/* One exchange; redirects are never followed (they would carry credentials
 * elsewhere).  Returns OK when any HTTP answer arrived (resp->status says
 * which); EOUS_E_INTERRUPTED when eous_interrupted() cut it short,
 * EOUS_E_TIMEOUT past timeout_ms, EOUS_E_LIMIT past max_response,
 * EOUS_E_INFRA for other transport failures (err->code "transport"), each
 * with "METHOD URL: what" on err. */
eous_rc eous_http_exchange(eous_http *h, const eous_http_req *req, eous_http_resp *resp, eous_err *err);

#endif

/* webdriver/session.c — W3C WebDriver sessions and commands over libcurl. */
#define _GNU_SOURCE
#include "webdriver/wd.h"
#include "webdriver/wait_int.h"

#include "core/http_int.h"
#include "webdriver/start_page_js.h" /* generated from start_page.js: WD_START_PAGE_JS */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WD_MAX_RESPONSE ((size_t)512 * 1024 * 1024)

struct wd_session {
    eous_http *http;
    char *base;        /* endpoint URL without trailing slash */
    char *id;
    char profile_dir[256];
    int guarded;               /* a remote session recorded with the guardian */
    cJSON *caps;
    int has_cdp;
    int w3c_only;   /* CDP refused on purpose (wd_session_opts.w3c_only) */
    int network_log; /* the performance log holds CDP Network events (wd_session_opts.network_log) */
    double default_timeout_ms;
    double request_timeout_ms;
    double connect_timeout_ms;
    unsigned long round_trips;
    double wait_ms;        /* time spent in requests to the endpoint (wd_session_wait_ms) */
    int mark_armed;        /* wd_session_timing_mark: the next request's start is kept */
    double mark_first_ms;
};

/* ---- error mapping -------------------------------------------------------- */

#define ALERT_TEXT_MARK "Alert text : " /* chromedriver's, and ours for other drivers */

int wd_alert_text(const eous_err *err, char *out, size_t out_size)
{
    if (!err || strcmp(err->code, "unexpected alert open"))
        return 0;
    out[0] = '\0';
    const char *t = strstr(err->msg, ALERT_TEXT_MARK);
    if (t) {
        t += strlen(ALERT_TEXT_MARK);
        const char *end = strrchr(t, '}');
        size_t n = end ? (size_t)(end - t) : strlen(t);
        if (n > out_size - 1)
            n = eous_utf8_cut(t, out_size - 1);
        memcpy(out, t, n);
        out[n] = '\0';
    }
    return 1;
}

eous_rc wd_error_rc(const char *e, const char *message)
{
    if (!e)
        return EOUS_E_INFRA;
    /* a crashed tab ends the session whatever code carries it */
    if (message && strstr(message, "tab crashed"))
        return EOUS_E_INFRA;
    if (!strcmp(e, "no such element") || !strcmp(e, "no such window") || !strcmp(e, "no such frame") ||
        !strcmp(e, "no such cookie") || !strcmp(e, "no such alert") || !strcmp(e, "no such shadow root"))
        return EOUS_E_NOT_FOUND;
    if (!strcmp(e, "stale element reference") || !strcmp(e, "detached shadow root"))
        return EOUS_E_STALE;
    if (!strcmp(e, "javascript error") || !strcmp(e, "element click intercepted") ||
        !strcmp(e, "element not interactable") || !strcmp(e, "invalid element state") ||
        !strcmp(e, "move target out of bounds") || !strcmp(e, "unexpected alert open") ||
        !strcmp(e, "insecure certificate"))
        return EOUS_E_PAGE;
    if (!strcmp(e, "timeout") || !strcmp(e, "script timeout"))
        return EOUS_E_TIMEOUT;
    if (!strcmp(e, "invalid argument") || !strcmp(e, "invalid selector") ||
        !strcmp(e, "unknown command") || !strcmp(e, "unknown method") ||
        !strcmp(e, "unsupported operation"))
        return EOUS_E_INVALID;
    if (!strcmp(e, "invalid session id") || !strcmp(e, "session not created"))
        return EOUS_E_INFRA;
    if (!strcmp(e, "unknown error") && message) {
        /* chromedriver reports a dead or crashed browser as "unknown error" */
        static const char *dead[] = {"not reachable", "disconnected", "crashed", "target closed",
                                     "session deleted", "cannot connect", "target frame detached",
                                     /* a Selenium Grid router whose node died */
                                     "Unable to execute request for an existing session"};
        for (size_t i = 0; i < sizeof dead / sizeof *dead; i++)
            if (strstr(message, dead[i]))
                return EOUS_E_INFRA;
    }
    return EOUS_E_PAGE;
}

/* One HTTP exchange.  body may be NULL (GET/DELETE).  *value_out gets the
 * response "value" member (detached). */
static eous_rc http_exchange(eous_http *http, const char *method, const char *url, const char *body,
                             double timeout_ms, double connect_ms, cJSON **value_out, char **raw_out,
                             size_t *raw_len, eous_err *err);

static eous_rc http_json(eous_http *http, const char *method, const char *url, const char *body,
                         double timeout_ms, double connect_ms, cJSON **value_out, eous_err *err)
{
    return http_exchange(http, method, url, body, timeout_ms, connect_ms, value_out, NULL, NULL, err);
}

static const char *const JSON_HEADERS[] = {"Content-Type: application/json; charset=utf-8",
                                           "Accept: application/json", "Expect:", NULL};

/* One HTTP exchange.  With raw_out, a 2xx body is handed back as text
 * (not parsed); errors are parsed and mapped either way. */
static eous_rc http_exchange(eous_http *http, const char *method, const char *url, const char *body,
                             double timeout_ms, double connect_ms, cJSON **value_out, char **raw_out,
                             size_t *raw_len, eous_err *err)
{
    if (value_out)
        *value_out = NULL;
    if (raw_out)
        *raw_out = NULL;
    eous_http_req req = {
        .method = method,
        .url = url,
        .headers = JSON_HEADERS,
        .body = !strcmp(method, "POST") ? (body ? body : "{}") : NULL,
        .timeout_ms = timeout_ms,
        .connect_timeout_ms = connect_ms,
        .max_response = WD_MAX_RESPONSE,
        .direct = 1, /* WebDriver endpoints are never proxied */
        .transport_hint = "(is the WebDriver endpoint up?)",
    };
    eous_http_resp hr;
    eous_rc rc = eous_http_exchange(http, &req, &hr, err);
    eous_buf resp = hr.body;
    long status = hr.status;
    if (rc)
        goto done;
    if (err)
        err->http_status = (int)status;
    if (raw_out && status >= 200 && status < 300 && resp.len && !memmem(resp.data, resp.len < 64 ? resp.len : 64, "\"error\"", 7)) {
        if (raw_len)
            *raw_len = resp.len;
        *raw_out = eous_buf_steal(&resp);
        goto done;
    }
    eous_err perr;
    eous_err_clear(&perr);
    cJSON *root = resp.len ? eous_json_parse(resp.data, resp.len, "WebDriver response", &perr) : NULL;
    if (!root) {
        eous_err_set_code(err, "bad response");
        rc = eous_err_set(err, status >= 500 || status == 0 ? EOUS_E_INFRA : EOUS_E_PARSE,
                          "%s %s: HTTP %ld with a non-JSON body%s%.120s", method, url, status,
                          resp.len ? ": " : "", resp.len ? resp.data : "");
        goto done;
    }
    cJSON *value = cJSON_DetachItemFromObjectCaseSensitive(root, "value");
    const char *w3c = value ? eous_json_str(value, "error") : NULL;
    if (status < 200 || status >= 300 || w3c) {
        const char *message = value ? eous_json_str(value, "message") : NULL;
        eous_err_set_code(err, w3c ? w3c : "http error");
        char firstline[600];
        snprintf(firstline, sizeof firstline, "%s", message ? message : "");
        char *nl = strchr(firstline, '\n');
        if (nl)
            *nl = '\0';
        /* one shape for a dismissed dialog's text whatever the driver: W3C
         * puts it in data.text, chromedriver in the message */
        const char *alert = w3c && !strcmp(w3c, "unexpected alert open")
                                ? eous_json_str(eous_json_obj(value, "data"), "text") : NULL;
        if (alert && !strstr(firstline, ALERT_TEXT_MARK)) {
            size_t fl = strlen(firstline);
            snprintf(firstline + fl, sizeof firstline - fl, " {" ALERT_TEXT_MARK "%.*s}",
                     (int)eous_utf8_cut(alert, 300), alert);
        }
        rc = eous_err_set(err, w3c ? wd_error_rc(w3c, message) : EOUS_E_INFRA, "%s: %s", w3c ? w3c : "HTTP error",
                          firstline[0] ? firstline : "(no message)");
        cJSON_Delete(value);
        cJSON_Delete(root);
        goto done;
    }
    cJSON_Delete(root);
    if (value_out)
        *value_out = value ? value : cJSON_CreateNull();
    else
        cJSON_Delete(value);
done:
    eous_buf_free(&resp);
    return rc;
}

eous_rc wd_status(const char *url, double timeout_ms, int *ready, eous_err *err)
{
    *ready = 0;
    eous_http *http = NULL;
    eous_rc rc = eous_http_new(&http, err);
    if (rc)
        return rc;
    char full[1024];
    snprintf(full, sizeof full, "%s/status", url);
    cJSON *value = NULL;
    rc = http_json(http, "GET", full, NULL, timeout_ms, timeout_ms, &value, err);
    if (!rc)
        *ready = eous_json_bool(value, "ready", 0);
    cJSON_Delete(value);
    eous_http_free(http);
    return rc;
}

/* ---- sessions -------------------------------------------------------------- */

void wd_session_opts_init(wd_session_opts *o)
{
    memset(o, 0, sizeof *o);
    o->headless = 1;
    o->width = EOUS_DEFAULT_WINDOW_WIDTH;
    o->height = EOUS_DEFAULT_WINDOW_HEIGHT;
    o->connect_timeout_ms = EOUS_DEFAULT_CONNECT_TIMEOUT_MS;
    o->request_timeout_ms = 60000;
    o->script_timeout_ms = 30000;
    o->page_load_timeout_ms = 30000;
}

cJSON *wd_browser_args(const wd_session_opts *o, const char *profile_dir)
{
    cJSON *args = cJSON_CreateArray();
    static const char *fixed[] = {"--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                                  "--disable-background-networking", "--disable-component-update",
                                  "--disable-sync", "--disable-dev-shm-usage", "--enable-features=WebMCP",
                                  "--force-device-scale-factor=1", "--lang=en-US"};
    if (o->headless)
        cJSON_AddItemToArray(args, cJSON_CreateString("--headless=new"));
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        cJSON_AddItemToArray(args, cJSON_CreateString(fixed[i]));
    char buf[512];
    snprintf(buf, sizeof buf, "--window-size=%d,%d", o->width, o->height);
    cJSON_AddItemToArray(args, cJSON_CreateString(buf));
    if (profile_dir && *profile_dir) {
        snprintf(buf, sizeof buf, "--user-data-dir=%s", profile_dir);
        cJSON_AddItemToArray(args, cJSON_CreateString(buf));
    }
    for (const char *const *a = o->extra_args; a && *a; a++)
        cJSON_AddItemToArray(args, cJSON_CreateString(*a));
    return args;
}

static cJSON *build_capabilities(const wd_session_opts *o, const char *profile_dir)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *caps = cJSON_AddObjectToObject(root, "capabilities");
    cJSON *always = cJSON_AddObjectToObject(caps, "alwaysMatch");
    cJSON_AddStringToObject(always, "browserName", "chrome");
    cJSON_AddStringToObject(always, "pageLoadStrategy", "normal");
    /* Dialogs must never block the loop: dismiss them and report them. */
    cJSON_AddStringToObject(always, "unhandledPromptBehavior", "dismiss and notify");
    cJSON *timeouts = cJSON_AddObjectToObject(always, "timeouts");
    cJSON_AddNumberToObject(timeouts, "script", o->script_timeout_ms);
    cJSON_AddNumberToObject(timeouts, "pageLoad", o->page_load_timeout_ms);
    cJSON_AddNumberToObject(timeouts, "implicit", 0);
    cJSON *chrome = cJSON_AddObjectToObject(always, "goog:chromeOptions");
    if (o->network_log && !o->w3c_only) {
        /* CDP Network events into the performance log: goog/cdp/execute returns no events */
        cJSON *lp = cJSON_AddObjectToObject(always, "goog:loggingPrefs");
        cJSON_AddStringToObject(lp, "performance", "ALL");
        cJSON *pp = cJSON_AddObjectToObject(chrome, "perfLoggingPrefs");
        cJSON_AddBoolToObject(pp, "enableNetwork", 1);
        cJSON_AddBoolToObject(pp, "enablePage", 0);
    }
    if (o->debugger_address) {
        /* attached: the running browser keeps the flags it was launched with */
        cJSON_AddStringToObject(chrome, "debuggerAddress", o->debugger_address);
        return root;
    }
    const char *binary = o->chromium ? o->chromium : (o->remote ? NULL : wd_chromium_path());
    if (binary && *binary)
        cJSON_AddStringToObject(chrome, "binary", binary);
    cJSON_AddItemToObject(chrome, "args", wd_browser_args(o, profile_dir));
    return root;
}

eous_rc wd_session_new(const char *url, const wd_session_opts *opts, wd_session **out, eous_err *err)
{
    *out = NULL;
    wd_session_opts o;
    if (opts)
        o = *opts;
    else
        wd_session_opts_init(&o);
    if (!url || !*url)
        return eous_err_set(err, EOUS_E_INVALID, "no WebDriver URL given");
    if (!eous_is_http_url(url))
        return eous_err_set(err, EOUS_E_INVALID, "WebDriver URL '%s': expected http://HOST:PORT", url);

    wd_session *s = calloc(1, sizeof *s);
    if (!s)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    s->base = strdup(url);
    if (eous_http_new(&s->http, NULL) || !s->base) {
        wd_session_free(s);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    size_t n = strlen(s->base);
    while (n && s->base[n - 1] == '/')
        s->base[--n] = '\0';
    s->connect_timeout_ms = o.connect_timeout_ms > 0 ? o.connect_timeout_ms : EOUS_DEFAULT_CONNECT_TIMEOUT_MS;
    s->default_timeout_ms = o.request_timeout_ms > 0 ? o.request_timeout_ms : 60000;
    s->request_timeout_ms = s->default_timeout_ms;

    if (o.debugger_address && wd_cdp_endpoint_probe(o.debugger_address, err)) {
        wd_session_free(s);
        return EOUS_E_INFRA;
    }
    if (!o.remote && !o.debugger_address) {
        snprintf(s->profile_dir, sizeof s->profile_dir, "/tmp/eous-profile-XXXXXX");
        if (!mkdtemp(s->profile_dir)) {
            s->profile_dir[0] = '\0';
            wd_session_free(s);
            return eous_err_set(err, EOUS_E_IO, "cannot create a browser profile directory in /tmp");
        }
        wd_guard_track_dir(s->profile_dir);
    }
    cJSON *caps = build_capabilities(&o, s->profile_dir);
    char *body = cJSON_PrintUnformatted(caps);
    cJSON_Delete(caps);
    char full[1200];
    snprintf(full, sizeof full, "%s/session", s->base);
    cJSON *value = NULL;
    /* Starting a browser can take a while on a loaded machine (or a Grid queue): said after a few seconds */
    wd_wait_note *note = wd_wait_note_start("the browser to start (a new session at %s)", s->base);
    eous_rc rc = http_json(s->http, "POST", full, body, s->default_timeout_ms < 90000 ? 90000 : s->default_timeout_ms,
                           s->connect_timeout_ms, &value, err);
    wd_wait_note_stop(note);
    free(body);
    s->round_trips++;
    if (rc) {
        eous_err_prefix(err, "cannot start a browser session at %s", s->base);
        wd_session_free(s);
        return rc == EOUS_E_INVALID || rc == EOUS_E_PAGE ? eous_err_remap(err, EOUS_E_INFRA) : rc;
    }
    const char *sid = eous_json_str(value, "sessionId");
    if (!sid) {
        cJSON_Delete(value);
        wd_session_free(s);
        return eous_err_set(err, EOUS_E_INFRA, "WebDriver at %s answered a new session without sessionId", url);
    }
    s->id = strdup(sid);
    if (o.remote && s->id) {
        /* a remote session outlives us unless deleted: the guardian does it if we die */
        snprintf(full, sizeof full, "%s/session/%s", s->base, s->id);
        wd_guard_track_session(full);
        s->guarded = 1;
    }
    s->caps = cJSON_DetachItemFromObjectCaseSensitive(value, "capabilities");
    s->w3c_only = o.w3c_only;
    s->network_log = o.network_log && !o.w3c_only;
    cJSON_Delete(value);

    /* Probe the CDP passthrough; plain W3C endpoints answer "unknown command".
     * A slow answer on a loaded machine is not a "no": retry, then trust the
     * capabilities of a Chrome/Chromium session. */
    for (int attempt = 0; attempt < 3 && !o.w3c_only; attempt++) {
        cJSON *ver = NULL;
        eous_err perr;
        eous_err_clear(&perr);
        eous_rc prc = wd_cdp(s, "Browser.getVersion", NULL, &ver, &perr);
        cJSON_Delete(ver);
        if (prc == EOUS_OK) {
            s->has_cdp = 1;
            break;
        }
        if (prc == EOUS_E_INVALID || prc == EOUS_E_NOT_FOUND)
            break;
        if (attempt == 2) {
            const char *browser = eous_json_str(s->caps, "browserName");
            s->has_cdp = browser && (strstr(browser, "chrom") != NULL);
        }
    }
    *out = s;
    return EOUS_OK;
}

void wd_session_free(wd_session *s)
{
    if (!s)
        return;
    if (s->id && s->http) {
        char full[1200];
        snprintf(full, sizeof full, "%s/session/%s", s->base, s->id);
        /* Best effort: a dead driver answers quickly with connection refused. */
        http_json(s->http, "DELETE", full, NULL, 10000, 2000, NULL, NULL);
        if (s->guarded)
            wd_guard_release_session(full);
    }
    if (s->profile_dir[0]) {
        eous_rmtree(s->profile_dir);
        wd_guard_release_dir(s->profile_dir);
    }
    eous_http_free(s->http);
    cJSON_Delete(s->caps);
    free(s->base);
    free(s->id);
    free(s);
}

const char *wd_session_id(const wd_session *s) { return s->id; }
const cJSON *wd_session_capabilities(const wd_session *s) { return s->caps; }
int wd_session_has_cdp(const wd_session *s) { return s->has_cdp; }
int wd_session_has_network_log(const wd_session *s) { return s->network_log; }
unsigned long wd_session_round_trips(const wd_session *s) { return s->round_trips; }
double wd_session_wait_ms(const wd_session *s) { return s->wait_ms; }
double wd_session_timing_first(const wd_session *s) { return s->mark_first_ms; }

void wd_session_timing_mark(wd_session *s)
{
    s->mark_armed = 1;
    s->mark_first_ms = 0;
}

/* A request's start (kept when a mark waits for it); its end adds its time to wait_ms. */
static double req_begin(wd_session *s)
{
    double t = eous_now_ms();
    if (s->mark_armed) {
        s->mark_first_ms = t;
        s->mark_armed = 0;
    }
    return t;
}

static void req_end(wd_session *s, double t0)
{
    s->wait_ms += eous_now_ms() - t0;
    s->round_trips++;
}

void wd_session_set_request_timeout(wd_session *s, double ms)
{
    s->request_timeout_ms = ms > 0 ? ms : s->default_timeout_ms;
}

eous_rc wd_command(wd_session *s, const char *method, const char *path, const cJSON *body,
                   cJSON **value_out, eous_err *err)
{
    char *url = NULL;
    if (asprintf(&url, "%s/session/%s%s", s->base, s->id, path ? path : "") < 0)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    char *text = body ? eous_json_print(body) : NULL;
    if (body && !text) {
        free(url);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    double t0 = req_begin(s);
    eous_rc rc = http_json(s->http, method, url, text, s->request_timeout_ms, s->connect_timeout_ms, value_out, err);
    req_end(s, t0);
    free(text);
    free(url);
    return rc;
}

/* ---- small command wrappers -------------------------------------------------- */

static eous_rc post_simple(wd_session *s, const char *path, cJSON *body, eous_err *err)
{
    eous_rc rc = wd_command(s, "POST", path, body, NULL, err);
    cJSON_Delete(body);
    return rc;
}

static eous_rc get_string(wd_session *s, const char *path, char **out, eous_err *err)
{
    cJSON *v = NULL;
    *out = NULL;
    eous_rc rc = wd_command(s, "GET", path, NULL, &v, err);
    if (rc)
        return rc;
    if (cJSON_IsString(v))
        *out = strdup(v->valuestring);
    else if (!cJSON_IsNull(v))
        *out = cJSON_PrintUnformatted(v);
    cJSON_Delete(v);
    return EOUS_OK;
}

eous_rc wd_navigate(wd_session *s, const char *url, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "url", url);
    return post_simple(s, "/url", b, err);
}

eous_rc wd_navigate_start(wd_session *s, const char *url, eous_err *err)
{
    eous_rc rc = wd_navigate(s, url, err);
    if (rc) {
        /* chromedriver reports some load failures as "unknown error: net::ERR_..." */
        const char *net = err && rc != EOUS_E_INTERRUPTED ? strstr(err->msg, "net::ERR_") : NULL;
        if (net) {
            char code[80];
            snprintf(code, sizeof code, "%.*s", (int)strcspn(net, " \t(),;"), net);
            return eous_err_set(err, EOUS_E_INFRA, "%s: the start page could not be loaded: %s", url, code);
        }
        return rc;
    }
    cJSON *v = NULL;
    if ((rc = wd_execute(s, WD_START_PAGE_JS, NULL, &v, err)))
        return rc;
    const char *neterr = eous_json_str(v, "neterr");
    int status = (int)eous_json_num(v, "status", 0);
    if (neterr && *neterr)
        rc = eous_err_set(err, EOUS_E_INFRA, "%s: the start page could not be loaded: net::%.80s", url, neterr);
    else if (status >= 400) { /* the task's page is not there (404, 401, a 5xx): the site's failure, not the agent's */
        rc = eous_err_set(err, EOUS_E_INFRA, "%s: the start page answered HTTP %d", url, status);
        if (err)
            err->http_status = status;
    } else if (eous_json_bool(v, "empty", 0)) { /* a site still coming up serves a blank page */
        rc = eous_err_set(err, EOUS_E_INFRA, "%s: the start page is an empty document (HTTP %d)", url, status);
    }
    cJSON_Delete(v);
    return rc;
}

eous_rc wd_get_url(wd_session *s, char **out, eous_err *err) { return get_string(s, "/url", out, err); }
eous_rc wd_get_title(wd_session *s, char **out, eous_err *err) { return get_string(s, "/title", out, err); }
eous_rc wd_get_page_source(wd_session *s, char **out, eous_err *err) { return get_string(s, "/source", out, err); }
eous_rc wd_back(wd_session *s, eous_err *err) { return post_simple(s, "/back", NULL, err); }
eous_rc wd_forward(wd_session *s, eous_err *err) { return post_simple(s, "/forward", NULL, err); }
eous_rc wd_refresh(wd_session *s, eous_err *err) { return post_simple(s, "/refresh", NULL, err); }
eous_rc wd_window_handle(wd_session *s, char **out, eous_err *err) { return get_string(s, "/window", out, err); }

eous_rc wd_window_handles(wd_session *s, cJSON **out, eous_err *err)
{
    return wd_command(s, "GET", "/window/handles", NULL, out, err);
}

eous_rc wd_new_window(wd_session *s, const char *type, char **handle_out, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", type ? type : "tab");
    cJSON *v = NULL;
    eous_rc rc = wd_command(s, "POST", "/window/new", b, &v, err);
    cJSON_Delete(b);
    if (!rc && handle_out) {
        const char *h = eous_json_str(v, "handle");
        *handle_out = h ? strdup(h) : NULL;
    }
    cJSON_Delete(v);
    return rc;
}

eous_rc wd_switch_window(wd_session *s, const char *handle, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "handle", handle);
    return post_simple(s, "/window", b, err);
}

eous_rc wd_close_window(wd_session *s, eous_err *err)
{
    return wd_command(s, "DELETE", "/window", NULL, NULL, err);
}

eous_rc wd_set_window_rect(wd_session *s, int width, int height, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "width", width);
    cJSON_AddNumberToObject(b, "height", height);
    return post_simple(s, "/window/rect", b, err);
}

static eous_rc execute(wd_session *s, const char *path, const char *script, const cJSON *args, cJSON **out,
                       eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "script", script);
    cJSON *a = args ? cJSON_Duplicate(args, 1) : cJSON_CreateArray();
    cJSON_AddItemToObject(b, "args", a);
    cJSON *v = NULL;
    eous_rc rc = wd_command(s, "POST", path, b, &v, err);
    cJSON_Delete(b);
    if (out)
        *out = v;
    else
        cJSON_Delete(v);
    return rc;
}

eous_rc wd_execute(wd_session *s, const char *script, const cJSON *args, cJSON **out, eous_err *err)
{
    return execute(s, "/execute/sync", script, args, out, err);
}

eous_rc wd_execute_async(wd_session *s, const char *script, const cJSON *args, cJSON **out, eous_err *err)
{
    return execute(s, "/execute/async", script, args, out, err);
}

eous_rc wd_set_timeouts(wd_session *s, long script_ms, long page_load_ms, long implicit_ms, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    if (script_ms >= 0)
        cJSON_AddNumberToObject(b, "script", (double)script_ms);
    if (page_load_ms >= 0)
        cJSON_AddNumberToObject(b, "pageLoad", (double)page_load_ms);
    if (implicit_ms >= 0)
        cJSON_AddNumberToObject(b, "implicit", (double)implicit_ms);
    return post_simple(s, "/timeouts", b, err);
}

const char *wd_element_id_of(const cJSON *value)
{
    return eous_json_str(value, WD_ELEMENT_KEY);
}

cJSON *wd_element_ref(const char *elem_id)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, WD_ELEMENT_KEY, elem_id);
    return o;
}

eous_rc wd_find(wd_session *s, const char *using, const char *value, char **elem_out, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "using", using);
    cJSON_AddStringToObject(b, "value", value);
    cJSON *v = NULL;
    *elem_out = NULL;
    eous_rc rc = wd_command(s, "POST", "/element", b, &v, err);
    cJSON_Delete(b);
    if (!rc) {
        const char *id = wd_element_id_of(v);
        if (!id)
            rc = eous_err_set(err, EOUS_E_PARSE, "find element: answer without an element reference");
        else if (!(*elem_out = strdup(id)))
            rc = eous_err_set(err, EOUS_E_NOMEM, "find element: out of memory");
    }
    cJSON_Delete(v);
    return rc;
}

eous_rc wd_find_all(wd_session *s, const char *using, const char *value, cJSON **out, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "using", using);
    cJSON_AddStringToObject(b, "value", value);
    cJSON *v = NULL;
    *out = NULL;
    eous_rc rc = wd_command(s, "POST", "/elements", b, &v, err);
    cJSON_Delete(b);
    if (rc)
        return rc;
    cJSON *ids = cJSON_CreateArray();
    const cJSON *it;
    cJSON_ArrayForEach(it, v) {
        const char *id = wd_element_id_of(it);
        if (id)
            cJSON_AddItemToArray(ids, cJSON_CreateString(id));
    }
    cJSON_Delete(v);
    *out = ids;
    return EOUS_OK;
}

static eous_rc elem_path(char *buf, size_t n, const char *elem, const char *suffix)
{
    if (snprintf(buf, n, "/element/%s%s", elem, suffix) >= (int)n)
        return EOUS_E_INVALID;
    return EOUS_OK;
}

eous_rc wd_element_click(wd_session *s, const char *elem, eous_err *err)
{
    char p[512];
    if (elem_path(p, sizeof p, elem, "/click"))
        return eous_err_set(err, EOUS_E_INVALID, "element id too long");
    return post_simple(s, p, NULL, err);
}

eous_rc wd_element_clear(wd_session *s, const char *elem, eous_err *err)
{
    char p[512];
    if (elem_path(p, sizeof p, elem, "/clear"))
        return eous_err_set(err, EOUS_E_INVALID, "element id too long");
    return post_simple(s, p, NULL, err);
}

eous_rc wd_element_send_keys(wd_session *s, const char *elem, const char *text, eous_err *err)
{
    char p[512];
    if (elem_path(p, sizeof p, elem, "/value"))
        return eous_err_set(err, EOUS_E_INVALID, "element id too long");
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "text", text);
    return post_simple(s, p, b, err);
}

eous_rc wd_element_property(wd_session *s, const char *elem, const char *name, cJSON **out, eous_err *err)
{
    char p[768];
    snprintf(p, sizeof p, "/element/%s/property/%s", elem, name);
    return wd_command(s, "GET", p, NULL, out, err);
}

eous_rc wd_element_attribute(wd_session *s, const char *elem, const char *name, char **out, eous_err *err)
{
    char p[768];
    snprintf(p, sizeof p, "/element/%s/attribute/%s", elem, name);
    return get_string(s, p, out, err);
}

eous_rc wd_element_text(wd_session *s, const char *elem, char **out, eous_err *err)
{
    char p[512];
    snprintf(p, sizeof p, "/element/%s/text", elem);
    return get_string(s, p, out, err);
}

eous_rc wd_element_rect(wd_session *s, const char *elem, wd_rect *out, eous_err *err)
{
    char p[512];
    snprintf(p, sizeof p, "/element/%s/rect", elem);
    cJSON *v = NULL;
    eous_rc rc = wd_command(s, "GET", p, NULL, &v, err);
    if (!rc) {
        out->x = eous_json_num(v, "x", 0);
        out->y = eous_json_num(v, "y", 0);
        out->width = eous_json_num(v, "width", 0);
        out->height = eous_json_num(v, "height", 0);
    }
    cJSON_Delete(v);
    return rc;
}

eous_rc wd_element_computed_role(wd_session *s, const char *elem, char **out, eous_err *err)
{
    char p[512];
    snprintf(p, sizeof p, "/element/%s/computedrole", elem);
    return get_string(s, p, out, err);
}

eous_rc wd_element_computed_label(wd_session *s, const char *elem, char **out, eous_err *err)
{
    char p[512];
    snprintf(p, sizeof p, "/element/%s/computedlabel", elem);
    return get_string(s, p, out, err);
}

eous_rc wd_perform_actions(wd_session *s, const cJSON *actions, eous_err *err)
{
    cJSON *b = cJSON_CreateObject();
    cJSON *copy = cJSON_Duplicate(actions, 1);
    if (!b || !copy || !cJSON_AddItemToObject(b, "actions", copy)) { /* never send a body missing its actions */
        cJSON_Delete(b);
        cJSON_Delete(copy);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory building input actions");
    }
    return post_simple(s, "/actions", b, err);
}

eous_rc wd_release_actions(wd_session *s, eous_err *err)
{
    return wd_command(s, "DELETE", "/actions", NULL, NULL, err);
}

eous_rc wd_screenshot(wd_session *s, unsigned char **png, size_t *len, eous_err *err)
{
    cJSON *v = NULL;
    *png = NULL;
    *len = 0;
    eous_rc rc = wd_command(s, "GET", "/screenshot", NULL, &v, err);
    if (rc)
        return rc;
    if (!cJSON_IsString(v)) {
        cJSON_Delete(v);
        return eous_err_set(err, EOUS_E_PARSE, "screenshot: answer is not a base64 string");
    }
    rc = eous_base64_decode(v->valuestring, png, len, err);
    cJSON_Delete(v);
    return rc;
}

eous_rc wd_cdp_raw(wd_session *s, const char *cmd, const cJSON *params, char **body, size_t *len, eous_err *err)
{
    if (s->w3c_only)
        return eous_err_set(err, EOUS_E_INVALID, "CDP %s: the session is W3C-only", cmd);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "cmd", cmd);
    cJSON_AddItemToObject(b, "params", params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
    char *text = eous_json_print(b);
    cJSON_Delete(b);
    char *url = NULL;
    if (!text || asprintf(&url, "%s/session/%s/goog/cdp/execute", s->base, s->id) < 0) {
        free(text);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    double t0 = req_begin(s);
    eous_rc rc = http_exchange(s->http, "POST", url, text, s->request_timeout_ms, s->connect_timeout_ms, NULL, body,
                               len, err);
    req_end(s, t0);
    free(text);
    free(url);
    if (rc)
        eous_err_prefix(err, "CDP %s", cmd);
    return rc;
}

eous_rc wd_cdp(wd_session *s, const char *cmd, const cJSON *params, cJSON **out, eous_err *err)
{
    if (s->w3c_only)
        return eous_err_set(err, EOUS_E_INVALID, "CDP %s: the session is W3C-only", cmd);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "cmd", cmd);
    cJSON_AddItemToObject(b, "params", params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
    cJSON *v = NULL;
    eous_rc rc = wd_command(s, "POST", "/goog/cdp/execute", b, &v, err);
    cJSON_Delete(b);
    if (rc)
        eous_err_prefix(err, "CDP %s", cmd);
    if (out)
        *out = v;
    else
        cJSON_Delete(v);
    return rc;
}

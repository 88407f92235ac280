/* mcp/mcp_network.c — --caps network (Playwright MCP's capability of that
 * name): browser_route {pattern, status?, body?, contentType?, headers?,
 * removeHeaders?} and eous's abort?, browser_route_list, browser_unroute
 * {pattern?}, browser_network_state_set {state: online|offline}.  See
 * mcp_server_int.h for how a tool file plugs in.
 *
 * Routes act in Chromium's Fetch domain, which pauses each request until
 * someone answers it: chromedriver's goog/cdp/execute delivers no events, so
 * a route opens eous's own DevTools connection (mcp_devtools_int.h), attaches
 * to every tab, enables Fetch there for every URL, and a thread of its own
 * answers each paused request: the latest route whose pattern matches
 * fulfils it (status, body, Content-Type), fails it (abort) or lets it go on
 * with headers added or removed; no route: it goes on untouched.  Patterns
 * are Playwright's globs ("**" any characters, "*" any but "/", "{a,b}"
 * either, "\" escapes), matched against the whole URL.  A tab opened later is
 * attached when the browser announces it (its first requests may pass
 * before).  Requests a route answered are kept (the latest 100) and listed by
 * browser_network_requests.  A route is checked by the policy as an action
 * "route" on kind "route" labelled with its pattern, and audited.  The
 * routes outlive a browser restart (routing resumes with the new browser);
 * with none left, requests stop pausing (the connection closes); mcp_free
 * ends them.  Secret values never reach an answer (the redactor);
 * {{secret:NAME}} in a body is not expanded: a route never hands a secret to
 * the page. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <ctype.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "mcp/mcp_devtools_int.h"

#define NET_LOG_MAX 100
#define NET_PATTERN_MAX 1024
#define NET_READY_MS 15000
#define NET_PENDING_MAX 64

typedef struct net_route {
    char *pattern;
    regex_t re;
    int status;           /* 0: not fulfilled */
    char *body;           /* NULL: none */
    char *content_type;   /* NULL: none */
    cJSON *add_headers;   /* {name: value} for a request that goes on; NULL: none */
    cJSON *remove_headers; /* [lower-case names]; NULL: none */
    char *abort;          /* a CDP errorReason ("Failed"...); NULL: not aborted */
    long hits;
} net_route;

typedef struct net_log {
    char *line; /* "GET URL → 200 fulfilled by PATTERN (fetch)", redacted */
} net_log;

/* what one server keeps (mcp_server.net) */
struct mcp_network {
    pthread_mutex_t lock; /* routes, log, ready, dead: the thread reads them */
    pthread_cond_t cond;
    net_route *routes;
    size_t n, cap;
    net_log log[NET_LOG_MAX];
    size_t log_next, log_total;
    mcp_devtools dt;
    pthread_t thread;
    int running;  /* the thread was started and not yet joined */
    int stop;     /* under lock: the thread ends */
    int dead;     /* under lock: the connection ended on its own */
    /* the thread's own: */
    long pending[NET_PENDING_MAX]; /* commands of the setup not answered yet */
    size_t n_pending;
    long discover_id;              /* Target.setDiscoverTargets: its answer follows every tab there */
    int discovered;
    char targets[NET_PENDING_MAX][64]; /* the tabs attached */
    size_t n_targets;
    char setup_err[256];           /* the first error the browser answered (read once ready or dead) */
    int ready;                     /* under lock: every tab there at the start pauses its requests */
};

/* ---- Playwright's glob as a POSIX extended regex ----------------------------- */

static int glob_regex(const char *glob, eous_buf *re)
{
    int group = 0;
    eous_buf_putc(re, '^', NULL);
    for (size_t i = 0; glob[i]; i++) {
        char c = glob[i];
        if (c == '\\' && glob[i + 1]) {
            c = glob[++i];
            if (strchr(".[]()|*+?{}^$\\", c))
                eous_buf_putc(re, '\\', NULL);
            eous_buf_putc(re, c, NULL);
        } else if (c == '*') {
            int stars = 1;
            char before = i ? glob[i - 1] : '\0';
            while (glob[i + 1] == '*') {
                stars++;
                i++;
            }
            if (stars > 1 && glob[i + 1] == '/') {
                eous_buf_puts(re, before == '/' ? "((.+/)?)" : "(.*/)", NULL);
                i++;
            } else {
                eous_buf_puts(re, stars > 1 ? "(.*)" : "([^/]*)", NULL);
            }
        } else if (c == '{') {
            if (group)
                return 0;
            group = 1;
            eous_buf_putc(re, '(', NULL);
        } else if (c == '}') {
            if (!group)
                return 0;
            group = 0;
            eous_buf_putc(re, ')', NULL);
        } else if (c == ',' && group) {
            eous_buf_putc(re, '|', NULL);
        } else {
            if (strchr(".[]()|+?^$", c))
                eous_buf_putc(re, '\\', NULL);
            eous_buf_putc(re, c, NULL);
        }
    }
    eous_buf_putc(re, '$', NULL);
    return !group;
}

/* ---- the state ------------------------------------------------------------------- */

static struct mcp_network *net_state(mcp_server *m, eous_err *err)
{
    if (!m->net) {
        struct mcp_network *n = calloc(1, sizeof *n);
        if (!n) {
            eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            return NULL;
        }
        pthread_mutex_init(&n->lock, NULL);
        pthread_cond_init(&n->cond, NULL);
        n->dt.fd = -1;
        m->net = n;
    }
    return m->net;
}

static void route_free(net_route *r)
{
    free(r->pattern);
    regfree(&r->re);
    free(r->body);
    free(r->content_type);
    cJSON_Delete(r->add_headers);
    cJSON_Delete(r->remove_headers);
    free(r->abort);
}

/* Ends the thread and the connection; the routes stay. */
static void net_stop(struct mcp_network *n)
{
    if (!n || !n->running)
        return;
    pthread_mutex_lock(&n->lock);
    n->stop = 1;
    pthread_mutex_unlock(&n->lock);
    if (n->dt.fd >= 0)
        shutdown(n->dt.fd, SHUT_RDWR); /* wakes its read */
    pthread_join(n->thread, NULL);
    n->running = 0;
    mcp_devtools_close(&n->dt);
}

void mcp_network_browser_stopped(mcp_server *m)
{
    net_stop(m->net);
}

void mcp_network_free(mcp_server *m)
{
    struct mcp_network *n = m ? m->net : NULL;
    if (!n)
        return;
    net_stop(n);
    for (size_t i = 0; i < n->n; i++)
        route_free(&n->routes[i]);
    free(n->routes);
    for (size_t i = 0; i < NET_LOG_MAX; i++)
        free(n->log[i].line);
    pthread_mutex_destroy(&n->lock);
    pthread_cond_destroy(&n->cond);
    free(n);
    m->net = NULL;
}

/* ---- the thread: paused requests answered ----------------------------------------- */

static void net_send(struct mcp_network *n, const char *method, cJSON *params, const char *session, long *id)
{
    eous_err e;
    mcp_devtools_send(&n->dt, method, params, session, id, &e);
    cJSON_Delete(params);
}

static void log_add(struct mcp_network *n, const cJSON *req, const char *type, const char *outcome,
                    const char *pattern)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    char kind[32];
    snprintf(kind, sizeof kind, "%s", type ? type : "other");
    for (char *k = kind; *k; k++) /* CDP's "XHR", "Document" as browser_network_requests' types */
        *k = (char)tolower((unsigned char)*k);
    eous_buf_printf(&b, NULL, "%s %.500s → %s by route %.200s (%s)", eous_json_str(req, "method"),
                    eous_json_str(req, "url"), outcome, pattern, kind);
    char *safe = b.data ? eous_redact(b.data) : NULL; /* credentials in a query, known secrets */
    eous_buf_free(&b);
    free(n->log[n->log_next].line);
    n->log[n->log_next].line = safe;
    n->log_next = (n->log_next + 1) % NET_LOG_MAX;
    n->log_total++;
}

/* The request's headers ({name: value}) with the route's added and removed, as CDP's [{name, value}]. */
static cJSON *headers_for(const cJSON *have, const net_route *r)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *h, *x;
    cJSON_ArrayForEach(h, have) {
        int drop = !cJSON_IsString(h) || (r->add_headers && cJSON_GetObjectItem(r->add_headers, h->string));
        cJSON_ArrayForEach(x, r->remove_headers) if (!strcasecmp(x->valuestring, h->string))
            drop = 1;
        if (drop)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", h->string);
        cJSON_AddStringToObject(o, "value", h->valuestring);
        cJSON_AddItemToArray(out, o);
    }
    cJSON_ArrayForEach(h, r->add_headers) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", h->string);
        cJSON_AddStringToObject(o, "value", h->valuestring);
        cJSON_AddItemToArray(out, o);
    }
    return out;
}

/* Fetch.requestPaused: the latest matching route answers; no route, the request goes on. */
static void on_paused(struct mcp_network *n, const cJSON *params, const char *session)
{
    const char *id = eous_json_str(params, "requestId");
    const cJSON *req = eous_json_obj(params, "request");
    const char *url = eous_json_str(req, "url");
    if (!id)
        return;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "requestId", id);
    const char *method = "Fetch.continueRequest";
    pthread_mutex_lock(&n->lock);
    const net_route *r = NULL;
    for (size_t i = n->n; url && i-- > 0 && !r;)
        if (!regexec(&n->routes[i].re, url, 0, NULL, 0))
            r = &n->routes[i];
    char outcome[160];
    if (r && r->abort) {
        method = "Fetch.failRequest";
        cJSON_AddStringToObject(p, "errorReason", r->abort);
        snprintf(outcome, sizeof outcome, "aborted (%s)", r->abort);
    } else if (r && r->status) {
        method = "Fetch.fulfillRequest";
        cJSON_AddNumberToObject(p, "responseCode", r->status);
        cJSON *hs = cJSON_AddArrayToObject(p, "responseHeaders"), *h = cJSON_CreateObject();
        cJSON_AddStringToObject(h, "name", "Content-Type");
        cJSON_AddStringToObject(h, "value", r->content_type ? r->content_type : "text/plain; charset=utf-8");
        cJSON_AddItemToArray(hs, h);
        char *b64 = eous_base64_encode((const unsigned char *)(r->body ? r->body : ""), r->body ? strlen(r->body) : 0);
        cJSON_AddStringToObject(p, "body", b64 ? b64 : "");
        free(b64);
        snprintf(outcome, sizeof outcome, "%d fulfilled", r->status);
    } else if (r) {
        cJSON_AddItemToObject(p, "headers", headers_for(eous_json_obj(req, "headers"), r));
        snprintf(outcome, sizeof outcome, "continued with its headers changed");
    }
    if (r) {
        ((net_route *)r)->hits++;
        log_add(n, req, eous_json_str(params, "resourceType"), outcome, r->pattern);
    }
    pthread_mutex_unlock(&n->lock);
    net_send(n, method, p, session, NULL);
}

/* A command of the setup whose answer is awaited before the route's tool answers. */
static void pend(struct mcp_network *n, long id)
{
    if (n->n_pending < NET_PENDING_MAX)
        n->pending[n->n_pending++] = id;
}

static void fetch_enable(struct mcp_network *n, const char *session)
{
    cJSON *p = cJSON_CreateObject(), *pat = cJSON_CreateObject();
    cJSON_AddStringToObject(pat, "urlPattern", "*");
    cJSON_AddStringToObject(pat, "requestStage", "Request");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(p, "patterns"), pat);
    long id = 0;
    net_send(n, "Fetch.enable", p, session, &id);
    pend(n, id);
}

/* A tab (page target) not attached yet: attached, and its answer enables Fetch there. */
static void attach(struct mcp_network *n, const cJSON *info)
{
    const char *type = eous_json_str(info, "type"), *tid = eous_json_str(info, "targetId");
    if (!type || strcmp(type, "page") || !tid)
        return;
    for (size_t i = 0; i < n->n_targets; i++)
        if (!strcmp(n->targets[i], tid))
            return;
    if (n->n_targets == NET_PENDING_MAX)
        return;
    snprintf(n->targets[n->n_targets++], sizeof n->targets[0], "%s", tid);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "targetId", tid);
    cJSON_AddBoolToObject(p, "flatten", 1);
    long id = 0;
    net_send(n, "Target.attachToTarget", p, NULL, &id);
    pend(n, id);
}

/* An answer: attachToTarget's session gets Fetch; the setup is done once every awaited one came. */
static void on_answer(struct mcp_network *n, const cJSON *msg)
{
    long id = (long)eous_json_num(msg, "id", -1);
    const cJSON *res = eous_json_obj(msg, "result"), *e = eous_json_obj(msg, "error");
    if (eous_json_str(res, "sessionId"))
        fetch_enable(n, eous_json_str(res, "sessionId"));
    if (e && !n->setup_err[0])
        snprintf(n->setup_err, sizeof n->setup_err, "%s", eous_json_str(e, "message"));
    if (id == n->discover_id)
        n->discovered = 1;
    for (size_t i = 0; i < n->n_pending; i++)
        if (n->pending[i] == id) {
            n->pending[i] = n->pending[--n->n_pending];
            break;
        }
    pthread_mutex_lock(&n->lock);
    if (!n->ready && n->discovered && !n->n_pending) {
        n->ready = 1; /* every tab there at the start pauses its requests now */
        pthread_cond_broadcast(&n->cond);
    }
    pthread_mutex_unlock(&n->lock);
}

static void on_message(struct mcp_network *n, const cJSON *msg)
{
    const char *ev = eous_json_str(msg, "method");
    const cJSON *params = eous_json_obj(msg, "params");
    if (!ev)
        on_answer(n, msg);
    else if (!strcmp(ev, "Fetch.requestPaused"))
        on_paused(n, params, eous_json_str(msg, "sessionId"));
    else if (!strcmp(ev, "Target.targetCreated"))
        attach(n, eous_json_obj(params, "targetInfo"));
}

static void *net_thread(void *ud)
{
    struct mcp_network *n = ud;
    for (;;) {
        pthread_mutex_lock(&n->lock);
        int stop = n->stop;
        pthread_mutex_unlock(&n->lock);
        if (stop)
            break;
        struct pollfd pf = {.fd = n->dt.fd, .events = POLLIN};
        if (poll(&pf, 1, 200) <= 0)
            continue;
        cJSON *msg = NULL;
        eous_err e;
        if (mcp_devtools_recv(&n->dt, &msg, &e)) {
            pthread_mutex_lock(&n->lock);
            n->dead = 1; /* the browser went away (its restart starts routing again) */
            if (!n->setup_err[0])
                snprintf(n->setup_err, sizeof n->setup_err, "%s", e.msg);
            pthread_cond_broadcast(&n->cond);
            pthread_mutex_unlock(&n->lock);
            break;
        }
        on_message(n, msg);
        cJSON_Delete(msg);
    }
    return NULL;
}

/* ---- starting the interception ------------------------------------------------------ */

/* The thread running and every tab pausing its requests (routing resumes after a browser restart). */
static eous_rc net_start(mcp_server *m, struct mcp_network *n, const char *tool, eous_err *err)
{
    pthread_mutex_lock(&n->lock);
    int dead = n->dead;
    pthread_mutex_unlock(&n->lock);
    if (n->running && !dead)
        return EOUS_OK;
    net_stop(n);
    n->stop = n->dead = n->ready = n->discovered = 0;
    n->n_pending = n->n_targets = 0;
    n->setup_err[0] = '\0';
    eous_rc rc = mcp_devtools_open(m->b.session, tool, &n->dt, err);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddBoolToObject(p, "discover", 1);
    if (!rc)
        rc = mcp_devtools_send(&n->dt, "Target.setDiscoverTargets", p, NULL, &n->discover_id, err);
    cJSON_Delete(p);
    if (!rc && pthread_create(&n->thread, NULL, net_thread, n))
        rc = eous_err_set(err, EOUS_E_INFRA, "%s: no thread for the routes", tool);
    if (rc) {
        mcp_devtools_close(&n->dt);
        return rc;
    }
    n->running = 1;
    double deadline = eous_now_ms() + NET_READY_MS;
    pthread_mutex_lock(&n->lock);
    while (!n->ready && !n->dead && eous_now_ms() < deadline) {
        pthread_mutex_unlock(&n->lock);
        mcp_wait_interruptible(m, 20);
        pthread_mutex_lock(&n->lock);
    }
    int ok = n->ready && !n->dead;
    pthread_mutex_unlock(&n->lock);
    if (ok && !n->setup_err[0])
        return EOUS_OK;
    rc = eous_err_set(err, EOUS_E_INFRA, "%s: the browser did not start routing its tabs' requests (%s)", tool,
                      n->setup_err[0] ? n->setup_err : "no answer in time");
    net_stop(n);
    return rc;
}

void mcp_network_browser_started(mcp_server *m)
{
    eous_err e;
    if (m->net && m->net->n && net_start(m, m->net, "browser_route", &e))
        EOUS_WARN("mcp", "routes not active in the new browser: %s", e.msg);
}

void mcp_network_routed(mcp_server *m, eous_buf *out)
{
    struct mcp_network *n = m->net;
    if (!n || !n->log_total)
        return;
    pthread_mutex_lock(&n->lock);
    size_t shown = n->log_total < NET_LOG_MAX ? n->log_total : NET_LOG_MAX;
    eous_buf_printf(out, NULL, "Answered by a route (browser_route)%s:\n", n->log_total > shown ? ", the latest 100" : "");
    for (size_t i = 0; i < shown; i++) {
        const net_log *l = &n->log[(n->log_next + NET_LOG_MAX - shown + i) % NET_LOG_MAX];
        eous_buf_printf(out, NULL, "- %s\n", l->line ? l->line : "");
    }
    pthread_mutex_unlock(&n->lock);
}

/* ---- the tools ------------------------------------------------------------------------ */

/* Playwright's route.abort() codes and CDP's errorReason for each. */
static const char *const abort_codes[][2] = {
    {"aborted", "Aborted"}, {"accessdenied", "AccessDenied"}, {"addressunreachable", "AddressUnreachable"},
    {"blockedbyclient", "BlockedByClient"}, {"blockedbyresponse", "BlockedByResponse"},
    {"connectionaborted", "ConnectionAborted"}, {"connectionclosed", "ConnectionClosed"},
    {"connectionfailed", "ConnectionFailed"}, {"connectionrefused", "ConnectionRefused"},
    {"connectionreset", "ConnectionReset"}, {"internetdisconnected", "InternetDisconnected"},
    {"namenotresolved", "NameNotResolved"}, {"timedout", "TimedOut"}, {"failed", "Failed"}};

/* args as a route (r zeroed by the caller); an error names what is wrong. */
static eous_rc route_parse(const cJSON *args, net_route *r, eous_err *err)
{
    const char *pattern = eous_json_str(args, "pattern"), *abort = eous_json_str(args, "abort");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(args, "status"), *hs = cJSON_GetObjectItemCaseSensitive(args, "headers");
    if (!pattern || !*pattern || strlen(pattern) > NET_PATTERN_MAX)
        return eous_err_set(err, EOUS_E_INVALID, "browser_route: expected {pattern}: a URL glob of up to %d bytes "
                                                 "(e.g. \"**/api/users\", \"**/*.{png,jpg}\")", NET_PATTERN_MAX);
    if (st && (!cJSON_IsNumber(st) || st->valuedouble < 100 || st->valuedouble > 599))
        return eous_err_set(err, EOUS_E_INVALID, "browser_route: status: expected an HTTP status, 100 to 599");
    eous_buf re;
    eous_buf_init(&re, 0);
    int good = glob_regex(pattern, &re);
    int bad_re = good && regcomp(&r->re, re.data, REG_EXTENDED | REG_NOSUB);
    eous_buf_free(&re);
    if (!good || bad_re)
        return eous_err_set(err, EOUS_E_INVALID, "browser_route: pattern '%.200s': an unmatched or nested '{' or '}'",
                            pattern);
    r->pattern = strdup(pattern);
    if (abort) {
        for (size_t i = 0; i < sizeof abort_codes / sizeof abort_codes[0] && !r->abort; i++)
            if (!strcasecmp(abort, abort_codes[i][0]))
                r->abort = strdup(abort_codes[i][1]);
        if (!r->abort)
            return eous_err_set(err, EOUS_E_INVALID, "browser_route: abort '%.60s': expected failed, aborted, "
                                "blockedbyclient, connectionrefused, timedout or another of Playwright's codes", abort);
    }
    const char *body = eous_json_str(args, "body"), *ct = eous_json_str(args, "contentType");
    if (body || st)
        r->status = st ? (int)st->valuedouble : 200;
    r->body = body ? strdup(body) : NULL;
    r->content_type = ct ? strdup(ct) : NULL;
    const cJSON *h;
    cJSON_ArrayForEach(h, hs) {
        const char *line = cJSON_IsString(h) ? h->valuestring : NULL, *colon = line ? strchr(line, ':') : NULL;
        if (!colon || colon == line)
            return eous_err_set(err, EOUS_E_INVALID, "browser_route: header '%.100s': expected \"Name: Value\"",
                                line ? line : "(not a string)");
        if (!r->add_headers)
            r->add_headers = cJSON_CreateObject();
        char name[200];
        snprintf(name, sizeof name, "%.*s", (int)(colon - line), line);
        const char *v = colon + 1;
        while (*v == ' ')
            v++;
        cJSON_AddStringToObject(r->add_headers, name, v);
    }
    const char *rm = eous_json_str(args, "removeHeaders");
    for (const char *q = rm; q && *q;) {
        size_t len = strcspn(q, ",");
        char name[200];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), q);
        char *t = name + strspn(name, " ");
        t[strcspn(t, " ")] = '\0';
        if (*t) {
            if (!r->remove_headers)
                r->remove_headers = cJSON_CreateArray();
            cJSON_AddItemToArray(r->remove_headers, cJSON_CreateString(t));
        }
        q += len + (q[len] == ',');
    }
    return EOUS_OK;
}

/* A route as route_list says it. */
static void route_line(const net_route *r, size_t i, eous_buf *out)
{
    eous_buf_printf(out, NULL, "%zu. %s (", i + 1, r->pattern);
    if (r->abort)
        eous_buf_printf(out, NULL, "abort=%s, ", r->abort);
    if (r->status)
        eous_buf_printf(out, NULL, "status=%d, ", r->status);
    if (r->body)
        eous_buf_printf(out, NULL, "body=%.50s%s, ", r->body, strlen(r->body) > 50 ? "..." : "");
    if (r->content_type)
        eous_buf_printf(out, NULL, "contentType=%s, ", r->content_type);
    char *ah = r->add_headers ? cJSON_PrintUnformatted(r->add_headers) : NULL;
    if (ah)
        eous_buf_printf(out, NULL, "addHeaders=%s, ", ah);
    free(ah);
    const cJSON *h;
    cJSON_ArrayForEach(h, r->remove_headers) eous_buf_printf(out, NULL, "removeHeader=%s, ", h->valuestring);
    eous_buf_printf(out, NULL, "answered %ld request%s)\n", r->hits, r->hits == 1 ? "" : "s");
}

static eous_rc tool_route(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    net_route r;
    memset(&r, 0, sizeof r);
    eous_rc rc = route_parse(args, &r, err);
    struct mcp_network *n = rc ? NULL : net_state(m, err);
    if (!rc && !n)
        rc = err->rc;
    if (!rc && (rc = mcp_ensure_browser(m, err)) == EOUS_OK && !wd_session_has_cdp(m->b.session))
        rc = eous_err_set(err, EOUS_E_INVALID, "browser_route: needs Chromium's DevTools protocol (not with --w3c-only)");
    const char *confirm = NULL;
    const char *url = m->obs ? perc_obs_url(m->obs) : "";
    if (!rc)
        rc = act_policy_check_action(m->policy, "route", r.pattern, "route", NULL, url, &confirm, err);
    if (!rc && confirm) {
        char what[1200];
        snprintf(what, sizeof what, "route %.1000s", r.pattern);
        rc = act_policy_confirm(m->policy, confirm, what, err);
    }
    if (!rc)
        rc = net_start(m, n, "browser_route", err);
    if (!rc && n->n == n->cap) {
        size_t cap = n->cap ? n->cap * 2 : 8;
        net_route *grown = realloc(n->routes, cap * sizeof *grown);
        if (!grown)
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        else {
            n->routes = grown;
            n->cap = cap;
        }
    }
    if (rc) {
        if (r.pattern)
            route_free(&r);
        return rc;
    }
    pthread_mutex_lock(&n->lock);
    n->routes[n->n++] = r;
    pthread_mutex_unlock(&n->lock);
    mcp_caps_audit(m, "route", url, EOUS_OK, r.pattern);
    eous_buf_printf(&out->text, NULL, "Route added for pattern: %s (%s)\n", r.pattern,
                    r.abort ? "matching requests fail" : r.status ? "matching requests get this response"
                                                                  : "matching requests go on with their headers changed");
    return EOUS_OK;
}

static eous_rc tool_route_list(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    (void)args;
    (void)err;
    struct mcp_network *n = m->net;
    if (!n || !n->n) {
        eous_buf_puts(&out->text, "No active routes\n", NULL);
        return EOUS_OK;
    }
    pthread_mutex_lock(&n->lock);
    for (size_t i = 0; i < n->n; i++)
        route_line(&n->routes[i], i, &out->text);
    pthread_mutex_unlock(&n->lock);
    return EOUS_OK;
}

static eous_rc tool_unroute(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    (void)err;
    const char *pattern = eous_json_str(args, "pattern");
    struct mcp_network *n = m->net;
    size_t removed = 0;
    if (n) {
        pthread_mutex_lock(&n->lock);
        size_t k = 0;
        for (size_t i = 0; i < n->n; i++) {
            if (!pattern || !strcmp(n->routes[i].pattern, pattern)) {
                route_free(&n->routes[i]);
                removed++;
            } else {
                n->routes[k++] = n->routes[i];
            }
        }
        n->n = k;
        pthread_mutex_unlock(&n->lock);
        if (!k)
            net_stop(n); /* no route left: requests no longer pause (the sessions go with the connection) */
    }
    mcp_caps_audit(m, "unroute", m->obs ? perc_obs_url(m->obs) : "", EOUS_OK, pattern ? pattern : "every route");
    if (pattern)
        eous_buf_printf(&out->text, NULL, "Removed %zu route(s) for pattern: %s\n", removed, pattern);
    else
        eous_buf_printf(&out->text, NULL, "Removed all %zu route(s)\n", removed);
    return EOUS_OK;
}

static eous_rc tool_network_state(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *state = eous_json_str(args, "state");
    if (!state || (strcmp(state, "online") && strcmp(state, "offline")))
        return eous_err_set(err, EOUS_E_INVALID, "browser_network_state_set: expected {state: \"online\" or \"offline\"}");
    eous_rc rc = mcp_ensure_browser(m, err);
    if (!rc && !wd_session_has_cdp(m->b.session))
        rc = eous_err_set(err, EOUS_E_INVALID, "browser_network_state_set: needs Chromium's DevTools protocol");
    cJSON *p = cJSON_CreateObject();
    cJSON_AddBoolToObject(p, "offline", !strcmp(state, "offline"));
    cJSON_AddNumberToObject(p, "latency", 0);
    cJSON_AddNumberToObject(p, "downloadThroughput", -1);
    cJSON_AddNumberToObject(p, "uploadThroughput", -1);
    if (!rc) /* the conditions hold only where the Network domain is on */
        rc = wd_cdp(m->b.session, "Network.enable", NULL, NULL, err);
    if (!rc)
        rc = wd_cdp(m->b.session, "Network.emulateNetworkConditions", p, NULL, err);
    cJSON_Delete(p);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "Network is now %s (this tab)\n", state);
    return rc ? eous_err_prefix(err, "browser_network_state_set") : EOUS_OK;
}

#define STR(name, what) "\"" name "\":{\"type\":\"string\",\"description\":\"" what "\"}"

static const mcp_tool_def network_tools[] = {
    {"browser_route",
     "Set up a route to mock network requests matching a URL pattern: a response (status, body, contentType), a "
     "failure (abort), or the request sent on with headers added or removed. The latest matching route answers.",
     "{\"type\":\"object\",\"properties\":{" STR("pattern", "URL pattern to match (e.g., \\\"**/api/users\\\", "
                                                            "\\\"**/*.{png,jpg}\\\")")
     ",\"status\":{\"type\":\"number\",\"description\":\"HTTP status code to return (default: 200)\"},"
     STR("body", "Response body (text or JSON string)") "," STR("contentType", "Content-Type header (e.g., "
                                                                              "\\\"application/json\\\")")
     ",\"headers\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"Headers to add to the "
     "request in \\\"Name: Value\\\" format\"},"
     STR("removeHeaders", "Comma-separated list of header names to remove from the request") ","
     STR("abort", "fail matching requests instead: failed, aborted, blockedbyclient, connectionrefused, timedout, "
                  "... (Playwright's route.abort codes)")
     "},\"required\":[\"pattern\"]}",
     0, tool_route, 0, "network"},
    {"browser_route_list", "List all active network routes.", "{\"type\":\"object\",\"properties\":{}}", 1,
     tool_route_list, 0, "network"},
    {"browser_unroute", "Remove network routes matching a pattern (or all routes if no pattern specified).",
     "{\"type\":\"object\",\"properties\":{" STR("pattern", "URL pattern to unroute (omit to remove all routes)") "}}",
     0, tool_unroute, 0, "network"},
    {"browser_network_state_set",
     "Sets the browser network state to online or offline. When offline, all network requests will fail.",
     "{\"type\":\"object\",\"properties\":{\"state\":{\"type\":\"string\",\"enum\":[\"online\",\"offline\"]}},"
     "\"required\":[\"state\"]}",
     0, tool_network_state, 0, "network"},
};

const mcp_tool_table mcp_network_tools = {network_tools, sizeof network_tools / sizeof network_tools[0]};

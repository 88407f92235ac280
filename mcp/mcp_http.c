/* mcp/mcp_http.c — MCP's Streamable HTTP transport (2025-11-25) over
 * libmicrohttpd: see mcp.h.  Sections: options and allow-lists, sessions,
 * answers (JSON, SSE streams), the request handler, serve.
 *
 * Threads: libmicrohttpd runs one thread per connection.  Each session has
 * its own thread that runs its requests in order from a queue: its browser is
 * started there, and chromedriver's parent-death signal (PR_SET_PDEATHSIG,
 * which follows the thread that forked it) then lasts as long as the session.
 * A connection thread queues the message and waits for the answer (JSON), or,
 * for tools/call, streams what the session emits as server-sent events:
 * notifications and elicitation requests reach the client before the answer,
 * and the client's answer to them (another POST) is delivered to the waiting
 * call without queueing.  The session table, reference counts and idle clocks
 * are under the server's lock. */
#define _GNU_SOURCE
#include "mcp/mcp.h"
#include "mcp/mcp_int.h"
#include "webdriver/wd.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netdb.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#define HTTP_DEFAULT_MAX_SESSIONS 16
#define HTTP_DEFAULT_IDLE_S 1800
#define HTTP_DEFAULT_MAX_BODY ((size_t)4 * 1024 * 1024)
#define HTTP_STREAM_MAX ((size_t)256 * 1024 * 1024) /* what one answer may queue (screenshots are MBs) */
#define HTTP_KEEPALIVE_MS 10000                      /* an SSE comment when a call has said nothing this long */
#define HTTP_DEFAULT_REQUEST_TIMEOUT_S 60             /* a body must arrive whole within this (slow clients) */
#define HTTP_DEFAULT_HEADER_TIMEOUT_S 10              /* headers must arrive whole within this of connecting */
#define HTTP_MAX_CONNECTIONS 256
/* one address may hold this many connections: 256 / 32 = 8 slow addresses before others wait */
#define HTTP_DEFAULT_MAX_CLIENT_CONNECTIONS 32
#define HTTP_WATCHDOG_MS 200                          /* how often the connection deadlines are checked */
/* libmicrohttpd says a line per refused or cut connection: a hostile client must not flood the log */
#define HTTP_LOG_BURST 20
#define HTTP_LOG_WINDOW_MS 10000.0
#define HTTP_MAX_LIST 32
/* how long past the idle timeout a session's call may run (a slow page, a person deciding
 * on a confirmation) before the session is closed under it */
#define HTTP_BUSY_GRACE_MS 120000.0

/* JSON-RPC codes used here (mcp.c has the rest) */
#define RPC_PARSE_ERROR -32700
#define RPC_INVALID_REQUEST -32600
#define RPC_SERVER_ERROR -32000
#define RPC_HEADER_MISMATCH -32020

void mcp_http_opts_init(mcp_http_opts *o)
{
    memset(o, 0, sizeof *o);
    mcp_opts_init(&o->session);
    o->host = "127.0.0.1";
    o->max_sessions = HTTP_DEFAULT_MAX_SESSIONS;
    o->idle_timeout_s = HTTP_DEFAULT_IDLE_S;
    o->max_body_bytes = HTTP_DEFAULT_MAX_BODY;
    o->request_timeout_s = HTTP_DEFAULT_REQUEST_TIMEOUT_S;
    o->header_timeout_s = HTTP_DEFAULT_HEADER_TIMEOUT_S;
    o->max_client_connections = HTTP_DEFAULT_MAX_CLIENT_CONNECTIONS;
}

typedef struct http_session http_session;
typedef struct http_stream http_stream;

/* Where a connection is in its request: the deadline each phase has. */
enum { CONN_HEADERS, CONN_BODY, CONN_ANSWER };

/* An open connection, for the deadlines libmicrohttpd does not keep (its
 * timeout is an idle one: a byte every few seconds resets it).  Made and
 * freed by on_connection; every field under the server's conn_lock. */
typedef struct http_conn {
    int fd;             /* the connection's socket until its CLOSED notification */
    int phase;          /* CONN_* */
    double since_ms;    /* when the phase began */
    int cut;            /* past its deadline: 1 to be shut down, 2 shut down */
    struct http_conn *prev, *next;
} http_conn;

typedef struct http_server {
    mcp_http_opts o;
    struct MHD_Daemon *d;
    char *origins[HTTP_MAX_LIST];
    size_t n_origins;
    int any_origin;
    char *hosts[HTTP_MAX_LIST];
    size_t n_hosts;
    int any_host;
    unsigned char token_digest[32];
    int stopping;               /* under lock */
    pthread_mutex_t lock;
    pthread_cond_t cond;        /* sessions ending */
    http_session **sessions;    /* the open sessions, o.max_sessions slots; under lock */
    int n_alive;                /* sessions not yet freed (closed ones may still run); under lock */
    http_session *modern;       /* 2026-07-28 requests' browser (that version has no sessions); under lock */
    pthread_mutex_t modern_lock; /* held while it starts, so two first requests make one */
    pthread_mutex_t conn_lock;  /* the connections below; held while the watchdog shuts one down */
    pthread_cond_t conn_cond;   /* the watchdog's stop */
    http_conn *conns;           /* open connections; under conn_lock */
    int watchdog_stop;          /* under conn_lock */
    int watchdog_running;
    pthread_t watchdog;
    pthread_mutex_t log_lock;   /* the fields below */
    double log_window_ms;       /* when the current window of libmicrohttpd lines began */
    int log_lines, log_dropped; /* lines said and dropped in it */
} http_server;

struct http_session {
    char id[33];                /* 128 random bits as hex */
    char log_name[24];          /* "session 1a2b3c4d": the id's first 8 characters, for logs */
    mcp_server *m;               /* created and freed on the session's thread */
    http_server *srv;
    pthread_t thread;           /* runs the queued requests */
    pthread_mutex_t q_lock;
    pthread_cond_t q_cond;
    http_stream *q_head, *q_tail; /* requests waiting; under q_lock */
    int q_stop;                 /* the thread ends once the queue is empty; under q_lock */
    int started;                /* 1 running, -1 mcp_new failed (err set); under q_lock */
    eous_err start_err;
    http_stream *stream;        /* the running request's answer; the session thread's own */
    int refs;                   /* table + requests in flight; under srv->lock */
    int busy;                   /* requests in flight; under srv->lock */
    int closed;                 /* out of the table (DELETE, idle, shutdown); under srv->lock */
    double last_active_ms;      /* under srv->lock */
};

/* ---- options and allow-lists ---------------------------------------------- */

static void free_list(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
}

/* Splits a comma-separated list (spaces trimmed, lower-cased) into items; "*" sets *any. */
static eous_rc parse_list(const char *what, const char *text, char **items, size_t *n, int *any, eous_err *err)
{
    const char *p = text;
    while (p && *p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        while (len && (*p == ' ' || *p == '\t'))
            p++, len--;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len == 1 && *p == '*') {
            *any = 1;
        } else if (len) {
            if (*n == HTTP_MAX_LIST)
                return eous_err_set(err, EOUS_E_INVALID, "%s: more than %d entries", what, HTTP_MAX_LIST);
            char *item = strndup(p, len);
            if (!item)
                return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            for (char *c = item; *c; c++)
                if (*c >= 'A' && *c <= 'Z')
                    *c = (char)(*c - 'A' + 'a');
            items[(*n)++] = item;
        }
        p = comma ? comma + 1 : NULL;
    }
    return EOUS_OK;
}

static int is_loopback_name(const char *h, size_t n)
{
    return (n == 9 && !strncasecmp(h, "localhost", 9)) || (n == 9 && !strncmp(h, "127.0.0.1", 9)) ||
           (n == 5 && !strncmp(h, "[::1]", 5)) || (n == 3 && !strncmp(h, "::1", 3));
}

/* The host part of a Host header or an origin's authority: "[::1]:8080" -> "[::1]", "a.b:80" -> "a.b". */
static size_t host_part(const char *s)
{
    if (*s == '[') {
        const char *close = strchr(s, ']');
        return close ? (size_t)(close - s + 1) : strlen(s);
    }
    const char *colon = strchr(s, ':');
    return colon ? (size_t)(colon - s) : strlen(s);
}

static int in_list(char *const *items, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(items[i]) == len && !strncasecmp(items[i], s, len))
            return 1;
    return 0;
}

/* DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1
 * sends Host: evil.example.  The host must be loopback, the bound address or listed. */
static int host_allowed(const http_server *srv, const char *host)
{
    if (srv->any_host)
        return 1;
    if (!host || !*host)
        return 0;
    size_t n = host_part(host);
    return is_loopback_name(host, n) || in_list(srv->hosts, srv->n_hosts, host, n) ||
           in_list(srv->hosts, srv->n_hosts, host, strlen(host));
}

/* An Origin, when sent (browsers do; other clients need not), must be a loopback
 * origin (any port) or listed exactly. */
static int origin_allowed(const http_server *srv, const char *origin)
{
    if (!origin || srv->any_origin)
        return 1;
    if (in_list(srv->origins, srv->n_origins, origin, strlen(origin)))
        return 1;
    const char *rest = NULL;
    if (!strncasecmp(origin, "http://", 7))
        rest = origin + 7;
    else if (!strncasecmp(origin, "https://", 8))
        rest = origin + 8;
    if (!rest)
        return 0;
    size_t n = host_part(rest);
    if (!is_loopback_name(rest, n))
        return 0;
    const char *port = rest + n;
    if (!*port)
        return 1;
    if (*port++ != ':' || !*port)
        return 0;
    while (*port >= '0' && *port <= '9')
        port++;
    return *port == '\0';
}

static void sha256(const char *s, size_t n, unsigned char out[32])
{
    unsigned int len = 32;
    if (!EVP_Digest(s, n, out, &len, EVP_sha256(), NULL))
        memset(out, 0, 32);
}

/* Bearer token, compared in constant time: both sides hashed first, so neither
 * the content nor the length of the token shows in the time taken. */
static int token_ok(const http_server *srv, const char *authorization)
{
    if (!srv->o.token)
        return 1;
    if (!authorization || strncasecmp(authorization, "Bearer ", 7))
        return 0;
    const char *given = authorization + 7;
    while (*given == ' ')
        given++;
    unsigned char d[32];
    sha256(given, strlen(given), d);
    return CRYPTO_memcmp(d, srv->token_digest, 32) == 0;
}

/* ---- sessions ------------------------------------------------------------- */

static void session_emit(void *ud, const char *text);

/* Ends the session's thread (it finishes what is queued, then frees its
 * mcp_server, which stops the browser) and frees the session. */
static void session_free(http_session *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->q_lock);
    s->q_stop = 1;
    pthread_cond_broadcast(&s->q_cond);
    pthread_mutex_unlock(&s->q_lock);
    pthread_join(s->thread, NULL);
    EOUS_INFO("mcp", "%s: closed", s->log_name);
    pthread_mutex_destroy(&s->q_lock);
    pthread_cond_destroy(&s->q_cond);
    http_server *srv = s->srv;
    free(s);
    pthread_mutex_lock(&srv->lock);
    srv->n_alive--;
    pthread_cond_broadcast(&srv->cond);
    pthread_mutex_unlock(&srv->lock);
}

/* Drops a reference; the last one frees the session (and stops its browser). */
static void session_unref(http_session *s)
{
    http_server *srv = s->srv;
    pthread_mutex_lock(&srv->lock);
    int last = --s->refs == 0;
    pthread_mutex_unlock(&srv->lock);
    if (last)
        session_free(s);
}

/* Takes the session out of the table (srv->lock held): no new request finds it;
 * waits in a running call end.  The caller drops the table's reference. */
static void session_close_locked(http_session *s)
{
    http_server *srv = s->srv;
    for (int i = 0; i < srv->o.max_sessions; i++)
        if (srv->sessions[i] == s)
            srv->sessions[i] = NULL;
    if (srv->modern == s)
        srv->modern = NULL;
    s->closed = 1;
    mcp_hangup(s->m);
}

/* The session named id with a reference for the caller, or NULL. */
static http_session *session_find(http_server *srv, const char *id)
{
    http_session *found = NULL;
    pthread_mutex_lock(&srv->lock);
    for (int i = 0; id && i < srv->o.max_sessions && !found; i++) {
        http_session *s = srv->sessions[i];
        if (s && s->refs && strlen(id) == strlen(s->id) && CRYPTO_memcmp(s->id, id, strlen(id)) == 0)
            found = s;
    }
    if (found) {
        found->refs++;
        found->busy++;
        found->last_active_ms = eous_now_ms();
    }
    pthread_mutex_unlock(&srv->lock);
    return found;
}

/* A request on s ended: its idle clock starts again. */
static void session_release(http_session *s)
{
    pthread_mutex_lock(&s->srv->lock);
    s->busy--;
    s->last_active_ms = eous_now_ms();
    pthread_mutex_unlock(&s->srv->lock);
    session_unref(s);
}

static void *session_main(void *arg);

/* A new session in the table with a reference for the caller (busy), or NULL
 * with *full set when max_sessions are open. */
static http_session *session_new(http_server *srv, int in_table, int *full, eous_err *err)
{
    *full = 0;
    unsigned char raw[16];
    if (RAND_bytes(raw, sizeof raw) != 1) {
        eous_err_set(err, EOUS_E_INFRA, "no random bytes for a session id");
        return NULL;
    }
    http_session *s = calloc(1, sizeof *s);
    if (!s) {
        eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(s->id + 2 * i, 3, "%02x", raw[i]);
    if (in_table)
        snprintf(s->log_name, sizeof s->log_name, "session %.8s", s->id);
    else
        snprintf(s->log_name, sizeof s->log_name, "2026-07-28 requests");
    s->srv = srv;
    pthread_mutex_init(&s->q_lock, NULL);
    pthread_cond_init(&s->q_cond, NULL);
    pthread_mutex_lock(&srv->lock);
    int slot = in_table ? -1 : srv->o.max_sessions; /* the modern one has no slot in the table */
    for (int i = 0; in_table && i < srv->o.max_sessions && slot < 0; i++)
        if (!srv->sessions[i])
            slot = i;
    int stopping = srv->stopping;
    if (slot >= 0 && !stopping) {
        if (in_table)
            srv->sessions[slot] = s; /* held while the session starts, so max_sessions holds under a race */
        srv->n_alive++;
    }
    pthread_mutex_unlock(&srv->lock);
    int started = 0;
    if (slot < 0 || stopping) {
        *full = slot < 0;
        if (!*full)
            eous_err_set(err, EOUS_E_INTERRUPTED, "the server is stopping");
    } else if (pthread_create(&s->thread, NULL, session_main, s)) {
        eous_err_set(err, EOUS_E_INFRA, "no thread for a new session");
    } else {
        pthread_mutex_lock(&s->q_lock);
        while (!s->started)
            pthread_cond_wait(&s->q_cond, &s->q_lock);
        started = s->started;
        pthread_mutex_unlock(&s->q_lock);
        if (started < 0) {
            eous_err_set(err, s->start_err.rc, "%s", s->start_err.msg);
            pthread_join(s->thread, NULL);
        }
    }
    if (started <= 0) {
        if (slot >= 0 && !stopping) {
            pthread_mutex_lock(&srv->lock);
            if (in_table)
                srv->sessions[slot] = NULL;
            srv->n_alive--;
            pthread_mutex_unlock(&srv->lock);
        }
        pthread_mutex_destroy(&s->q_lock);
        pthread_cond_destroy(&s->q_cond);
        free(s);
        return NULL;
    }
    pthread_mutex_lock(&srv->lock);
    s->refs = 2; /* the table's and the caller's */
    s->busy = 1;
    s->last_active_ms = eous_now_ms();
    pthread_mutex_unlock(&srv->lock);
    EOUS_INFO("mcp", "%s: opened", s->log_name);
    return s;
}

/* The browser 2026-07-28 requests share (that version has no sessions: the
 * server's state is this one browser), started at the first such request and
 * closed when idle like a session; with a reference for the caller (busy). */
static http_session *modern_session(http_server *srv, eous_err *err)
{
    pthread_mutex_lock(&srv->modern_lock);
    pthread_mutex_lock(&srv->lock);
    http_session *s = srv->modern;
    if (s) {
        s->refs++;
        s->busy++;
        s->last_active_ms = eous_now_ms();
    }
    pthread_mutex_unlock(&srv->lock);
    if (!s) {
        int full = 0;
        if ((s = session_new(srv, 0, &full, err))) {
            pthread_mutex_lock(&srv->lock);
            srv->modern = s; /* session_new's table reference is this one */
            pthread_mutex_unlock(&srv->lock);
        }
    }
    pthread_mutex_unlock(&srv->modern_lock);
    return s;
}

/* Closes sessions idle longer than the timeout, and sessions whose call has
 * run longer than that and the grace (a confirmation nobody answers: the
 * client may be gone); a running call then ends at its next wait and the
 * browser stops after it.  A dropped connection alone never ends a call: the
 * spec says it is not a cancellation. */
static void reap_idle(http_server *srv)
{
    if (srv->o.idle_timeout_s <= 0)
        return;
    double now = eous_now_ms(), limit = srv->o.idle_timeout_s * 1000.0;
    http_session *drop[64];
    size_t n = 0;
    pthread_mutex_lock(&srv->lock);
    for (int i = -1; i < srv->o.max_sessions && n < sizeof drop / sizeof drop[0]; i++) {
        http_session *s = i < 0 ? srv->modern : srv->sessions[i]; /* -1: 2026-07-28's browser */
        if (!s || !s->refs) /* still starting */
            continue;
        double idle = now - s->last_active_ms;
        if (idle < limit || (s->busy && idle < limit + HTTP_BUSY_GRACE_MS))
            continue;
        EOUS_INFO("mcp", "%s: %s for %.0f s", s->log_name, s->busy ? "one call running" : "idle", idle / 1000);
        session_close_locked(s);
        drop[n++] = s;
    }
    pthread_mutex_unlock(&srv->lock);
    for (size_t i = 0; i < n; i++)
        session_unref(drop[i]);
}

/* ---- answers -------------------------------------------------------------- */

/* What one request emits: every message as a server-sent event, read by the
 * connection (http_stream_read) as the request produces it. */
struct http_stream {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    eous_buf sse;       /* events not yet sent */
    size_t sent;        /* bytes of sse already sent */
    char *last;         /* the last message emitted (the answer, for a JSON reply) */
    int n_messages;
    int done;           /* the request has finished */
    int refs;           /* the connection's and, while queued or running, the session thread's */
    http_server *srv;
    http_session *s;    /* a streamed answer: the session, referenced until the response is freed */
    cJSON *msg;         /* the request (owned) */
    http_stream *next;  /* the session's queue */
    int cancel_on_close; /* 2026-07-28: the client closing the stream cancels the request */
    int abandoned;      /* closed before it was done: not run, or cancelled while running */
};

static http_stream *stream_new(http_server *srv)
{
    http_stream *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->cond, NULL);
    eous_buf_init(&st->sse, HTTP_STREAM_MAX);
    st->refs = 1;
    st->srv = srv;
    return st;
}

static void stream_unref(http_stream *st)
{
    pthread_mutex_lock(&st->lock);
    int last = --st->refs == 0;
    pthread_mutex_unlock(&st->lock);
    if (!last)
        return;
    eous_buf_free(&st->sse);
    free(st->last);
    cJSON_Delete(st->msg);
    pthread_mutex_destroy(&st->lock);
    pthread_cond_destroy(&st->cond);
    free(st);
}

static void session_emit(void *ud, const char *text)
{
    http_session *s = ud;
    http_stream *st = s->stream;
    if (!st)
        return; /* nothing is listening (cannot happen: messages are emitted while a request runs) */
    pthread_mutex_lock(&st->lock);
    /* a message never holds a raw newline (cJSON escapes them): one data line each */
    if (eous_buf_printf(&st->sse, NULL, "event: message\ndata: %s\n\n", text))
        EOUS_WARN("mcp", "%s: an answer larger than %zu bytes was dropped", s->log_name, HTTP_STREAM_MAX);
    free(st->last);
    st->last = strdup(text);
    st->n_messages++;
    pthread_cond_broadcast(&st->cond);
    pthread_mutex_unlock(&st->lock);
}

static void stream_done(http_stream *st)
{
    pthread_mutex_lock(&st->lock);
    st->done = 1;
    pthread_cond_broadcast(&st->cond);
    pthread_mutex_unlock(&st->lock);
}

static int server_stopping(http_server *srv)
{
    pthread_mutex_lock(&srv->lock);
    int v = srv->stopping;
    pthread_mutex_unlock(&srv->lock);
    return v;
}

/* libmicrohttpd's content reader: what the request has emitted so far; blocks
 * (this connection's own thread) until there is more or it is done, and sends
 * an SSE comment now and then so idle proxies and timeouts keep the stream. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    http_stream *st = cls;
    double waited = 0;
    pthread_mutex_lock(&st->lock);
    while (st->sent == st->sse.len && !st->done) {
        if (waited >= HTTP_KEEPALIVE_MS) {
            pthread_mutex_unlock(&st->lock);
            static const char keepalive[] = ": keep-alive\n\n";
            size_t n = sizeof keepalive - 1 < max ? sizeof keepalive - 1 : max;
            memcpy(buf, keepalive, n);
            return (ssize_t)n;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&st->cond, &st->lock, &ts);
        waited += 1000;
        if (server_stopping(st->srv) && st->sent == st->sse.len && !st->done) {
            pthread_mutex_unlock(&st->lock);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
    }
    size_t left = st->sse.len - st->sent;
    if (!left) {
        pthread_mutex_unlock(&st->lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    size_t n = left < max ? left : max;
    memcpy(buf, st->sse.data + st->sent, n);
    st->sent += n;
    if (st->sent == st->sse.len) {
        eous_buf_reset(&st->sse);
        st->sent = 0;
    }
    pthread_mutex_unlock(&st->lock);
    return (ssize_t)n;
}

static void stream_release(void *cls)
{
    http_stream *st = cls;
    pthread_mutex_lock(&st->lock);
    int cancel = st->cancel_on_close && !st->done;
    if (cancel)
        st->abandoned = 1;
    pthread_mutex_unlock(&st->lock);
    if (cancel && st->s && st->s->m)
        mcp_cancel(st->s->m, cJSON_GetObjectItemCaseSensitive(st->msg, "id"));
    if (st->s)
        session_release(st->s);
    stream_unref(st);
}

/* ---- the session's thread ------------------------------------------------- */

static void *session_main(void *arg)
{
    http_session *s = arg;
    mcp_opts so = s->srv->o.session;
    so.log_name = s->log_name;
    eous_err_clear(&s->start_err);
    mcp_server *m = NULL;
    int ok = mcp_new(&so, &m, &s->start_err) == EOUS_OK;
    if (ok)
        mcp_set_emit(m, session_emit, s);
    pthread_mutex_lock(&s->q_lock);
    s->m = m;
    s->started = ok ? 1 : -1;
    pthread_cond_broadcast(&s->q_cond);
    while (ok) {
        while (!s->q_head && !s->q_stop)
            pthread_cond_wait(&s->q_cond, &s->q_lock);
        http_stream *st = s->q_head;
        if (!st)
            break; /* stopping, nothing left */
        s->q_head = st->next;
        if (!s->q_head)
            s->q_tail = NULL;
        pthread_mutex_unlock(&s->q_lock);
        pthread_mutex_lock(&st->lock);
        int abandoned = st->abandoned;
        pthread_mutex_unlock(&st->lock);
        s->stream = st;
        if (abandoned)
            EOUS_INFO("mcp", "%s: a request whose client closed its stream is dropped unrun", s->log_name);
        else
            mcp_handle(m, st->msg);
        s->stream = NULL;
        stream_done(st);
        stream_unref(st);
        pthread_mutex_lock(&s->q_lock);
    }
    pthread_mutex_unlock(&s->q_lock);
    /* on this thread, before it ends: the driver it started is stopped, not killed */
    mcp_free(m);
    return NULL;
}

/* Queues st (its msg set) on the session's thread, which takes a reference. */
static void session_submit(http_session *s, http_stream *st)
{
    pthread_mutex_lock(&st->lock);
    st->refs++;
    pthread_mutex_unlock(&st->lock);
    pthread_mutex_lock(&s->q_lock);
    st->next = NULL;
    if (s->q_tail)
        s->q_tail->next = st;
    else
        s->q_head = st;
    s->q_tail = st;
    pthread_cond_broadcast(&s->q_cond);
    pthread_mutex_unlock(&s->q_lock);
}

static void stream_wait(http_stream *st)
{
    pthread_mutex_lock(&st->lock);
    while (!st->done)
        pthread_cond_wait(&st->cond, &st->lock);
    pthread_mutex_unlock(&st->lock);
}

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
                             const char *content_type, const char *session_id)
{
    if (!r)
        return MHD_NO;
    if (content_type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    if (session_id)
        MHD_add_response_header(r, "Mcp-Session-Id", session_id);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "POST, DELETE");
    if (status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *json,
                                  const char *content_type, const char *session_id)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(json), (void *)json, MHD_RESPMEM_MUST_COPY);
    return queue(c, status, r, content_type, session_id);
}

/* A refusal: HTTP status and a JSON-RPC error (id borrowed, NULL = null) saying why in one line. */
static enum MHD_Result reply_error(struct MHD_Connection *c, unsigned status, const cJSON *id, int code,
                                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static enum MHD_Result reply_error(struct MHD_Connection *c, unsigned status, const cJSON *id, int code,
                                   const char *fmt, ...)
{
    char message[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "jsonrpc", "2.0");
    cJSON_AddItemToObject(r, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
    cJSON *e = cJSON_AddObjectToObject(r, "error");
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", message);
    char *text = cJSON_PrintUnformatted(r);
    cJSON_Delete(r);
    enum MHD_Result ok = text ? reply_text(c, status, text, "application/json", NULL) : MHD_NO;
    free(text);
    return ok;
}

/* ---- the request handler -------------------------------------------------- */

typedef struct http_req {
    eous_buf body;
    int too_large;
} http_req;

/* A stream for msg (taken), or NULL, out of memory, after dropping msg and
 * the caller's reference on s. */
static http_stream *stream_for(http_session *s, cJSON *msg)
{
    http_stream *st = stream_new(s->srv);
    if (!st) {
        cJSON_Delete(msg);
        session_release(s);
        return NULL;
    }
    st->msg = msg;
    return st;
}

/* tools/call: answered as an event stream the session thread fills.  Takes
 * msg and the caller's reference on s (dropped when the response is freed). */
static enum MHD_Result answer_streaming(struct MHD_Connection *c, http_session *s, cJSON *msg, int cancel_on_close)
{
    http_stream *st = stream_for(s, msg);
    if (!st)
        return reply_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, RPC_SERVER_ERROR, "out of memory");
    st->cancel_on_close = cancel_on_close;
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, stream_read, st,
                                                               stream_release);
    if (!r) {
        stream_unref(st);
        session_release(s);
        return MHD_NO;
    }
    st->s = s;
    session_submit(s, st);
    /* a long call is not a slow client: its stream says ": keep-alive" when it has nothing else */
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, 0);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    return queue(c, MHD_HTTP_OK, r, "text/event-stream", NULL);
}

/* Any other message, run in turn on the session's thread while this one
 * waits: one message out is a JSON answer, more (a notification first) an
 * event stream of them; none (a notification) 202.  Takes msg and the caller's
 * reference on s; with_id: the answer carries the session id (initialize). */
static enum MHD_Result answer_now(struct MHD_Connection *c, http_session *s, cJSON *msg, int with_id)
{
    http_stream *st = stream_for(s, msg);
    if (!st)
        return reply_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, RPC_SERVER_ERROR, "out of memory");
    session_submit(s, st);
    stream_wait(st);
    enum MHD_Result ok;
    const char *sid = with_id ? s->id : NULL;
    if (st->n_messages == 0)
        ok = queue(c, MHD_HTTP_ACCEPTED, MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT),
                   NULL, NULL);
    else if (st->n_messages == 1)
        ok = reply_text(c, MHD_HTTP_OK, st->last, "application/json", sid);
    else
        ok = reply_text(c, MHD_HTTP_OK, st->sse.data ? st->sse.data : "", "text/event-stream", sid);
    stream_unref(st);
    session_release(s);
    return ok;
}

/* Accept must allow both answers the transport may give (a wildcard does). */
static int accept_ok(const char *accept)
{
    if (!accept)
        return 0;
    int json = strstr(accept, "application/json") || strstr(accept, "application/*");
    int sse = strstr(accept, "text/event-stream") || strstr(accept, "text/*");
    return strstr(accept, "*/*") || (json && sse);
}

/* Takes msg. */
static enum MHD_Result handle_initialize(http_server *srv, struct MHD_Connection *c, cJSON *msg, const cJSON *id)
{
    int full = 0;
    eous_err err;
    eous_err_clear(&err);
    http_session *s = session_new(srv, 1, &full, &err);
    enum MHD_Result ok;
    if (!s && full)
        ok = reply_error(c, MHD_HTTP_OK, id, RPC_SERVER_ERROR,
                         "eous mcp: %d sessions are open, the most --max-sessions allows; end one (HTTP DELETE) "
                         "or retry later",
                         srv->o.max_sessions);
    else if (!s)
        ok = reply_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, id, RPC_SERVER_ERROR, "eous mcp: no session: %s", err.msg);
    else
        return answer_now(c, s, msg, 1);
    cJSON_Delete(msg);
    return ok;
}

/* An Mcp-Name header's value: as sent, or decoded from the =?base64?...?= form
 * (names that are not plain ASCII).  1 when it equals name. */
static int header_names(const char *header, const char *name)
{
    size_t n = strlen(header);
    if (n < 12 || strncmp(header, "=?base64?", 9) || strcmp(header + n - 2, "?=") || (n - 11) % 4)
        return !strcmp(header, name);
    size_t len = n - 11;
    unsigned char *out = malloc(len / 4 * 3 + 1);
    if (!out)
        return 0;
    int got = EVP_DecodeBlock(out, (const unsigned char *)header + 9, (int)len);
    /* EVP_DecodeBlock counts the padding's zero bytes */
    if (got >= 0 && len >= 1 && header[9 + len - 1] == '=')
        got--;
    if (got >= 0 && len >= 2 && header[9 + len - 2] == '=')
        got--;
    int same = got >= 0 && (size_t)got == strlen(name) && !memcmp(out, name, (size_t)got);
    free(out);
    return same;
}

/* A 2026-07-28 request (its version in _meta): the headers must repeat the
 * body (MCP-Protocol-Version, Mcp-Method, Mcp-Name), then it is served on the
 * one browser such requests share; no session is made or named.  Takes msg. */
static enum MHD_Result handle_modern(http_server *srv, struct MHD_Connection *c, cJSON *msg, const cJSON *id)
{
    const char *hv = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    const char *hm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Method");
    const char *hn = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Name");
    const char *bv = mcp_modern_version(msg);
    const char *method = eous_json_str(msg, "method");
    const char *name = eous_json_str(eous_json_obj(msg, "params"), "name");
    enum MHD_Result ok;
    int status = 0;
    cJSON *refusal = NULL;
    if (!hv || !bv || strcmp(hv, bv))
        ok = reply_error(c, MHD_HTTP_BAD_REQUEST, id, RPC_HEADER_MISMATCH,
                         "Header mismatch: MCP-Protocol-Version header '%.40s' does not match the body's _meta "
                         "protocolVersion '%.40s'",
                         hv ? hv : "(missing)", bv ? bv : "(not a string)");
    else if (!hm || strcmp(hm, method))
        ok = reply_error(c, MHD_HTTP_BAD_REQUEST, id, RPC_HEADER_MISMATCH,
                         "Header mismatch: Mcp-Method header '%.60s' does not match the body's method '%.60s'",
                         hm ? hm : "(missing)", method);
    else if (!strcmp(method, "tools/call") && (!hn || !name || !header_names(hn, name)))
        ok = reply_error(c, MHD_HTTP_BAD_REQUEST, id, RPC_HEADER_MISMATCH,
                         "Header mismatch: Mcp-Name header '%.60s' does not match the tool name '%.60s'",
                         hn ? hn : "(missing)", name ? name : "(missing)");
    else if ((refusal = mcp_modern_refusal(msg, &status))) {
        char *text = cJSON_PrintUnformatted(refusal);
        ok = text ? reply_text(c, (unsigned)status, text, "application/json", NULL) : MHD_NO;
        free(text);
        cJSON_Delete(refusal);
    } else {
        eous_err err;
        eous_err_clear(&err);
        http_session *s = modern_session(srv, &err);
        if (!s) {
            ok = reply_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, id, RPC_SERVER_ERROR, "eous mcp: no browser: %s",
                             err.msg);
        } else if (!strcmp(method, "tools/call")) {
            return answer_streaming(c, s, msg, 1); /* closing its stream is its cancellation */
        } else {
            return answer_now(c, s, msg, 0);
        }
    }
    cJSON_Delete(msg);
    return ok;
}

/* A whole POST body: one JSON-RPC message. */
static enum MHD_Result handle_post(http_server *srv, struct MHD_Connection *c, http_req *rq)
{
    if (rq->too_large)
        return reply_error(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, RPC_INVALID_REQUEST,
                           "Invalid Request: body larger than %zu bytes (the limit)", srv->o.max_body_bytes);
    size_t bad_at = 0;
    int nul = 0;
    cJSON *msg = eous_json_parse_message(rq->body.data, rq->body.len, "id", &bad_at, &nul);
    if (!msg)
        return reply_error(c, MHD_HTTP_BAD_REQUEST, NULL, RPC_PARSE_ERROR, "Parse error: invalid JSON at byte %zu",
                           bad_at);
    const cJSON *id = NULL;
    const char *why = NULL;
    int kind = mcp_classify(msg, &id, &why);
    if (nul && kind >= 0) {
        kind = RPC_INVALID_REQUEST; /* "ping\u0000x" is not ping */
        why = "Invalid Request: a string holds \\u0000 (U+0000), which eous does not take";
    }
    const char *method = eous_json_str(msg, "method");
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    const char *version = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    enum MHD_Result ok;
    http_session *s = NULL;
    if (kind < 0) {
        ok = reply_error(c, MHD_HTTP_BAD_REQUEST, id, kind, "%s", why);
    } else if (kind == MCP_REQUEST && mcp_is_modern(msg)) {
        ok = handle_modern(srv, c, msg, id); /* an Mcp-Session-Id is ignored, as 2026-07-28 says */
        msg = NULL;
    } else if (kind == MCP_NOTIFICATION && mcp_is_modern(msg)) {
        /* 2026-07-28 cancels by closing the stream; its notifications need no session */
        struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        ok = queue(c, MHD_HTTP_ACCEPTED, r, NULL, NULL);
    } else if (kind == MCP_REQUEST && !strcmp(method, "initialize")) {
        ok = handle_initialize(srv, c, msg, id);
        msg = NULL;
    } else if (version && !mcp_protocol_version(version)) {
        ok = reply_error(c, MHD_HTTP_BAD_REQUEST, id, RPC_INVALID_REQUEST,
                         "Bad Request: MCP-Protocol-Version '%.40s' is not supported (2025-11-25, 2025-06-18, "
                         "2025-03-26, 2024-11-05)",
                         version);
    } else if (!sid) {
        ok = reply_error(c, MHD_HTTP_BAD_REQUEST, id, RPC_INVALID_REQUEST,
                         "Bad Request: no Mcp-Session-Id header (send initialize first)");
    } else if (!(s = session_find(srv, sid))) {
        ok = reply_error(c, MHD_HTTP_NOT_FOUND, id, RPC_SERVER_ERROR,
                         "Session not found: '%.40s' ended or never existed; send initialize without Mcp-Session-Id",
                         sid);
    } else if (kind == MCP_REQUEST && !strcmp(method, "tools/call")) {
        ok = answer_streaming(c, s, msg, 0);
        msg = NULL;
    } else if (kind == MCP_RESPONSE ||
               (kind == MCP_NOTIFICATION && !strcmp(method, "notifications/cancelled"))) {
        /* the answer to our elicitation, or a cancellation, reaches the running call now */
        mcp_handle(s->m, msg);
        session_release(s);
        struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        ok = queue(c, MHD_HTTP_ACCEPTED, r, NULL, NULL);
    } else {
        ok = answer_now(c, s, msg, 0); /* other requests and notifications take their turn */
        msg = NULL;
    }
    cJSON_Delete(msg);
    return ok;
}

static enum MHD_Result handle_delete(http_server *srv, struct MHD_Connection *c)
{
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    if (!sid)
        return reply_error(c, MHD_HTTP_BAD_REQUEST, NULL, RPC_INVALID_REQUEST,
                           "Bad Request: DELETE needs the Mcp-Session-Id header of the session to end");
    http_session *s = session_find(srv, sid);
    if (!s)
        return reply_error(c, MHD_HTTP_NOT_FOUND, NULL, RPC_SERVER_ERROR, "Session not found: '%.40s'", sid);
    pthread_mutex_lock(&srv->lock);
    int was_open = !s->closed;
    if (was_open)
        session_close_locked(s);
    pthread_mutex_unlock(&srv->lock);
    if (was_open)
        session_unref(s); /* the table's */
    session_release(s);   /* ours: the last reference stops the browser (after a running call ends) */
    struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    return queue(c, MHD_HTTP_OK, r, NULL, NULL);
}

/* Checks that need no body: path, Host, Origin, token, method, headers. */
static enum MHD_Result check_headers(http_server *srv, struct MHD_Connection *c, const char *url, const char *method,
                                     int *refused)
{
    *refused = 1;
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ORIGIN);
    if (strcmp(url, "/mcp") && strcmp(url, "/mcp/"))
        return reply_error(c, MHD_HTTP_NOT_FOUND, NULL, RPC_INVALID_REQUEST, "Not found: %.80s (the endpoint is /mcp)",
                           url);
    if (!host_allowed(srv, host))
        return reply_error(c, MHD_HTTP_FORBIDDEN, NULL, RPC_SERVER_ERROR,
                           "Forbidden: Host '%.80s' is not allowed (--allowed-hosts)", host ? host : "");
    if (!origin && srv->o.require_origin)
        return reply_error(c, MHD_HTTP_FORBIDDEN, NULL, RPC_SERVER_ERROR,
                           "Forbidden: no Origin header (--require-origin: only browsers' requests, which carry one)");
    if (!origin_allowed(srv, origin))
        return reply_error(c, MHD_HTTP_FORBIDDEN, NULL, RPC_SERVER_ERROR,
                           "Forbidden: Origin '%.80s' is not allowed (--allowed-origins)", origin);
    if (!token_ok(srv, MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION)))
        return reply_error(c, MHD_HTTP_UNAUTHORIZED, NULL, RPC_SERVER_ERROR,
                           "Unauthorized: expected the header Authorization: Bearer <token of --token>");
    int post = !strcmp(method, "POST"), del = !strcmp(method, "DELETE");
    if (!post && !del)
        return reply_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, RPC_SERVER_ERROR,
                           "Method Not Allowed: %.20s (POST a message, DELETE a session; no server stream on GET)",
                           method);
    if (post) {
        const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
        const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
        const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (!ct || strncasecmp(ct, "application/json", 16) || (ct[16] && ct[16] != ';' && ct[16] != ' '))
            return reply_error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, NULL, RPC_INVALID_REQUEST,
                               "Unsupported Media Type: '%.60s' (expected Content-Type: application/json)",
                               ct ? ct : "");
        if (!accept_ok(accept))
            return reply_error(c, MHD_HTTP_NOT_ACCEPTABLE, NULL, RPC_INVALID_REQUEST,
                               "Not Acceptable: Accept must list application/json and text/event-stream");
        if (length && strtoull(length, NULL, 10) > srv->o.max_body_bytes)
            return reply_error(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, RPC_INVALID_REQUEST,
                               "Invalid Request: body of %.20s bytes is larger than %zu bytes (the limit)", length,
                               srv->o.max_body_bytes);
    }
    *refused = 0;
    return MHD_YES;
}

/* ---- connection deadlines ------------------------------------------------ */

/* c's request reached phase (CONN_*): its clock starts again. */
static void conn_phase(http_server *srv, struct MHD_Connection *c, int phase)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    http_conn *k = info ? info->socket_context : NULL;
    if (!k)
        return;
    pthread_mutex_lock(&srv->conn_lock);
    k->phase = phase;
    k->since_ms = eous_now_ms();
    pthread_mutex_unlock(&srv->conn_lock);
}

/* libmicrohttpd's connection notifications: STARTED after accept (past the
 * per-address cap), CLOSED before it closes the socket, so a tracked fd is
 * always the connection's own while the watchdog holds conn_lock. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    http_server *srv = cls;
    http_conn *k = *socket_context;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!info || !(k = calloc(1, sizeof *k)))
            return; /* untracked: only the idle timeout applies */
        k->fd = info->connect_fd;
        k->phase = CONN_HEADERS;
        k->since_ms = eous_now_ms();
        pthread_mutex_lock(&srv->conn_lock);
        k->next = srv->conns;
        if (srv->conns)
            srv->conns->prev = k;
        srv->conns = k;
        pthread_mutex_unlock(&srv->conn_lock);
        *socket_context = k;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && k) {
        pthread_mutex_lock(&srv->conn_lock);
        if (k->prev)
            k->prev->next = k->next;
        else
            srv->conns = k->next;
        if (k->next)
            k->next->prev = k->prev;
        pthread_mutex_unlock(&srv->conn_lock);
        free(k);
        *socket_context = NULL;
    }
}

/* Marks every connection past its phase's deadline (conn_lock held): 1 to
 * be shut down, counted by phase. */
static void mark_late_connections(http_server *srv, int *n_headers, int *n_body)
{
    double now = eous_now_ms();
    for (http_conn *k = srv->conns; k; k = k->next) {
        int limit_s = k->phase == CONN_HEADERS ? srv->o.header_timeout_s
                      : k->phase == CONN_BODY  ? srv->o.request_timeout_s
                                               : 0; /* an answer being made or streamed has no deadline */
        if (k->cut || !limit_s || now - k->since_ms <= limit_s * 1000.0)
            continue;
        k->cut = 1;
        ++*(k->phase == CONN_HEADERS ? n_headers : n_body);
    }
}

static void *watchdog_main(void *arg)
{
    http_server *srv = arg;
    pthread_mutex_lock(&srv->conn_lock);
    while (!srv->watchdog_stop) {
        int n_headers = 0, n_body = 0;
        mark_late_connections(srv, &n_headers, &n_body);
        /* said before the clients see their connection end */
        if (n_headers)
            EOUS_WARN("mcp", "http: %d connection(s) closed: headers not whole within %d s of connecting (slow "
                             "clients; --header-timeout)",
                      n_headers, srv->o.header_timeout_s);
        if (n_body)
            EOUS_WARN("mcp", "http: a request body took longer than %d s to arrive: %d connection(s) closed",
                      srv->o.request_timeout_s, n_body);
        /* its thread then reads the end of the stream and libmicrohttpd closes it */
        for (http_conn *k = srv->conns; k && (n_headers || n_body); k = k->next)
            if (k->cut == 1) {
                shutdown(k->fd, SHUT_RDWR);
                k->cut = 2;
            }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += HTTP_WATCHDOG_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&srv->conn_cond, &srv->conn_lock, &ts);
    }
    pthread_mutex_unlock(&srv->conn_lock);
    return NULL;
}

static void watchdog_stop(http_server *srv)
{
    if (!srv->watchdog_running)
        return;
    pthread_mutex_lock(&srv->conn_lock);
    srv->watchdog_stop = 1;
    pthread_cond_broadcast(&srv->conn_cond);
    pthread_mutex_unlock(&srv->conn_lock);
    pthread_join(srv->watchdog, NULL);
    srv->watchdog_running = 0;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    (void)version;
    http_server *srv = cls;
    http_req *rq = *con_cls;
    if (!rq) {
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        eous_buf_init(&rq->body, srv->o.max_body_bytes);
        *con_cls = rq;
        conn_phase(srv, c, CONN_BODY); /* the headers came: the body's clock starts */
        int refused = 0;
        enum MHD_Result ok = check_headers(srv, c, url, method, &refused);
        return refused ? ok : MHD_YES;
    }
    if (*upload_size) {
        /* a body sent a few bytes at a time (slow loris) is cut off by the watchdog */
        if (!rq->too_large && eous_buf_append(&rq->body, upload, *upload_size, NULL))
            rq->too_large = 1; /* the rest is read and dropped; the answer says why */
        *upload_size = 0;
        return MHD_YES;
    }
    conn_phase(srv, c, CONN_ANSWER); /* the request is whole: a slow answer is not a slow client */
    if (!strcmp(method, "DELETE"))
        return handle_delete(srv, c);
    return handle_post(srv, c, rq);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    conn_phase(cls, c, CONN_HEADERS); /* a kept-alive connection's next request has the headers' deadline */
    http_req *rq = *con_cls;
    if (!rq)
        return;
    eous_buf_free(&rq->body);
    free(rq);
    *con_cls = NULL;
}

/* libmicrohttpd's own log lines (a printf format and its arguments): at most
 * HTTP_LOG_BURST in a window, then a count of the rest when the next window opens. */
static void on_mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    http_server *srv = cls;
    pthread_mutex_lock(&srv->log_lock);
    double now = eous_now_ms();
    int dropped = 0;
    if (now - srv->log_window_ms > HTTP_LOG_WINDOW_MS) {
        dropped = srv->log_dropped;
        srv->log_window_ms = now;
        srv->log_lines = srv->log_dropped = 0;
    }
    int say = srv->log_lines < HTTP_LOG_BURST;
    if (say)
        srv->log_lines++;
    else
        srv->log_dropped++;
    pthread_mutex_unlock(&srv->log_lock);
    if (dropped)
        EOUS_WARN("mcp", "http: %d more libmicrohttpd messages within %.0f s were not shown", dropped,
                  HTTP_LOG_WINDOW_MS / 1000);
    if (!say)
        return;
    char line[300];
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    EOUS_WARN("mcp", "http: %s", line);
}

/* ---- serve ---------------------------------------------------------------- */

static eous_rc server_init(http_server *srv, const mcp_http_opts *o, eous_err *err)
{
    memset(srv, 0, sizeof *srv);
    srv->o = *o;
    if (srv->o.max_sessions <= 0)
        srv->o.max_sessions = HTTP_DEFAULT_MAX_SESSIONS;
    if (!srv->o.max_body_bytes)
        srv->o.max_body_bytes = HTTP_DEFAULT_MAX_BODY;
    if (srv->o.request_timeout_s <= 0)
        srv->o.request_timeout_s = HTTP_DEFAULT_REQUEST_TIMEOUT_S;
    if (srv->o.header_timeout_s <= 0)
        srv->o.header_timeout_s = HTTP_DEFAULT_HEADER_TIMEOUT_S;
    if (srv->o.max_client_connections <= 0)
        srv->o.max_client_connections = HTTP_DEFAULT_MAX_CLIENT_CONNECTIONS;
    if (!srv->o.host || !*srv->o.host)
        srv->o.host = "127.0.0.1";
    srv->o.session.max_message_bytes = srv->o.max_body_bytes;
    pthread_mutex_init(&srv->lock, NULL);
    pthread_mutex_init(&srv->modern_lock, NULL);
    pthread_cond_init(&srv->cond, NULL);
    pthread_mutex_init(&srv->conn_lock, NULL);
    pthread_cond_init(&srv->conn_cond, NULL);
    pthread_mutex_init(&srv->log_lock, NULL);
    if (o->session.policy)
        return eous_err_set(err, EOUS_E_INVALID, "mcp http: session.policy must be NULL (use policy_file)");
    if (o->token) {
        if (!*o->token)
            return eous_err_set(err, EOUS_E_INVALID, "mcp http: the token is empty");
        sha256(o->token, strlen(o->token), srv->token_digest);
    }
    eous_rc rc;
    if ((rc = parse_list("--allowed-origins", o->allowed_origins, srv->origins, &srv->n_origins, &srv->any_origin,
                         err)) ||
        (rc = parse_list("--allowed-hosts", o->allowed_hosts, srv->hosts, &srv->n_hosts, &srv->any_host, err)))
        return rc;
    /* the name the server was bound to is an allowed Host too */
    if (srv->n_hosts < HTTP_MAX_LIST) {
        char *h = strdup(srv->o.host);
        if (!h)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        srv->hosts[srv->n_hosts++] = h;
    }
    srv->sessions = calloc((size_t)srv->o.max_sessions, sizeof *srv->sessions);
    if (!srv->sessions)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

static eous_rc server_start(http_server *srv, char *url, size_t url_size, eous_err *err)
{
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (srv->o.port < 0 || srv->o.port > 65535)
        return eous_err_set(err, EOUS_E_INVALID, "--port %d: expected 0..65535", srv->o.port);
    int gai = getaddrinfo(srv->o.host, NULL, &hints, &ai);
    if (gai)
        return eous_err_set(err, EOUS_E_INVALID, "--host '%s': %s", srv->o.host, gai_strerror(gai));
    struct sockaddr_storage sa;
    memset(&sa, 0, sizeof sa);
    memcpy(&sa, ai->ai_addr, ai->ai_addrlen);
    int v6 = ai->ai_family == AF_INET6;
    freeaddrinfo(ai);
    if (v6)
        ((struct sockaddr_in6 *)&sa)->sin6_port = htons((uint16_t)srv->o.port);
    else
        ((struct sockaddr_in *)&sa)->sin_port = htons((uint16_t)srv->o.port);
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
                     MHD_USE_POLL | (v6 ? MHD_USE_IPv6 : 0);
    srv->d = MHD_start_daemon(flags, (uint16_t)srv->o.port, NULL, NULL, on_request, srv,
                              MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, srv, /* first, so every message goes there */
                              MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_NOTIFY_COMPLETED,
                              on_completed, srv, MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)srv->o.request_timeout_s,
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_MAX_CONNECTIONS,
                              /* past it an address's next connection is closed at once */
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)srv->o.max_client_connections,
                              MHD_OPTION_END);
    if (!srv->d)
        return eous_err_set(err, EOUS_E_INFRA, "cannot listen on %s port %d (in use, or not an address of this "
                                               "machine)",
                            srv->o.host, srv->o.port);
    if (pthread_create(&srv->watchdog, NULL, watchdog_main, srv))
        return eous_err_set(err, EOUS_E_INFRA, "no thread for the connection deadlines");
    srv->watchdog_running = 1;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_BIND_PORT);
    int port = info ? info->port : srv->o.port;
    char addr[INET6_ADDRSTRLEN] = "";
    inet_ntop(v6 ? AF_INET6 : AF_INET,
              v6 ? (void *)&((struct sockaddr_in6 *)&sa)->sin6_addr : (void *)&((struct sockaddr_in *)&sa)->sin_addr,
              addr, sizeof addr);
    snprintf(url, url_size, v6 ? "http://[%s]:%d/mcp" : "http://%s:%d/mcp", addr, port);
    return EOUS_OK;
}

/* Ends every session and waits until each browser has stopped. */
static void server_stop(http_server *srv)
{
    pthread_mutex_lock(&srv->lock);
    srv->stopping = 1;
    for (int i = 0; srv->sessions && i < srv->o.max_sessions; i++)
        if (srv->sessions[i] && srv->sessions[i]->refs)
            mcp_hangup(srv->sessions[i]->m);
    if (srv->modern && srv->modern->refs)
        mcp_hangup(srv->modern->m);
    pthread_mutex_unlock(&srv->lock);
    watchdog_stop(srv);
    if (srv->d)
        MHD_stop_daemon(srv->d); /* joins the connection threads */
    srv->d = NULL;
    pthread_mutex_lock(&srv->lock);
    for (int i = -1; srv->sessions && i < srv->o.max_sessions; i++) {
        http_session *s = i < 0 ? srv->modern : srv->sessions[i];
        if (!s || !s->refs)
            continue;
        session_close_locked(s);
        pthread_mutex_unlock(&srv->lock);
        session_unref(s); /* the table's: frees it, stopping its browser */
        pthread_mutex_lock(&srv->lock);
    }
    while (srv->n_alive)
        pthread_cond_wait(&srv->cond, &srv->lock);
    pthread_mutex_unlock(&srv->lock);
}

static void server_free(http_server *srv)
{
    free_list(srv->origins, srv->n_origins);
    free_list(srv->hosts, srv->n_hosts);
    free(srv->sessions);
    pthread_mutex_destroy(&srv->lock);
    pthread_mutex_destroy(&srv->modern_lock);
    pthread_cond_destroy(&srv->cond);
    pthread_mutex_destroy(&srv->conn_lock);
    pthread_cond_destroy(&srv->conn_cond);
    pthread_mutex_destroy(&srv->log_lock);
}

eous_rc mcp_http_start(const mcp_http_opts *o, mcp_http **out, char *url, size_t url_size,
                             eous_err *err)
{
    *out = NULL;
    http_server *srv = malloc(sizeof *srv);
    if (!srv)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_rc rc = server_init(srv, o, err);
    if (!rc)
        rc = server_start(srv, url, url_size, err);
    if (rc) {
        server_stop(srv);
        server_free(srv);
        free(srv);
        return rc;
    }
    EOUS_INFO("mcp", "listening on %s (sessions at most %d, idle timeout %d s; headers within %d s, a body within "
                     "%d s, %d connections per client address)",
              url, srv->o.max_sessions, srv->o.idle_timeout_s, srv->o.header_timeout_s, srv->o.request_timeout_s,
              srv->o.max_client_connections);
    *out = (mcp_http *)srv;
    return EOUS_OK;
}

void mcp_http_tick(mcp_http *h)
{
    reap_idle((http_server *)h);
    wd_reap_orphans(); /* a long-lived server must not collect each ended browser's <defunct> helpers */
}

void mcp_http_stop(mcp_http *h)
{
    if (!h)
        return;
    http_server *srv = (http_server *)h;
    server_stop(srv);
    server_free(srv);
    free(srv);
}

eous_rc mcp_http_serve(const mcp_http_opts *o, eous_err *err)
{
    mcp_http *h = NULL;
    char url[128];
    eous_rc rc = mcp_http_start(o, &h, url, sizeof url, err);
    if (rc)
        return rc;
    if (o->url_out) {
        fprintf(o->url_out, "%s\n", url);
        fflush(o->url_out);
    }
    while (!eous_interrupted()) {
        eous_sleep_ms(200);
        mcp_http_tick(h);
    }
    mcp_http_stop(h);
    return eous_err_set(err, EOUS_E_INTERRUPTED, "interrupted");
}

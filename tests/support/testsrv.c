/* tests/support/testsrv.c — see testsrv.h. */
#define _GNU_SOURCE
#include "support/testsrv.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"

struct ts_server {
    int fd;
    int port;
    char root[1024];
    char url[64];
    pthread_t thread;
    volatile int stopping;
    volatile unsigned long requests;
    unsigned long flaky_served; /* /__flaky answers so far (atomic) */
    pthread_mutex_t mu;         /* guards active */
    pthread_cond_t idle;        /* signalled as each connection ends */
    int active;                 /* connections accepted and not yet closed */
    int refs;                   /* the owner's and each connection's: a connection may outlive ts_server_stop */
};

typedef struct conn {
    ts_server *srv;
    int fd;
} conn;

static const char *mime_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return "application/octet-stream";
    if (!strcmp(dot, ".html")) return "text/html; charset=utf-8";
    if (!strcmp(dot, ".js") || !strcmp(dot, ".mjs")) return "text/javascript; charset=utf-8";
    if (!strcmp(dot, ".css")) return "text/css; charset=utf-8";
    if (!strcmp(dot, ".json")) return "application/json";
    if (!strcmp(dot, ".png")) return "image/png";
    if (!strcmp(dot, ".svg")) return "image/svg+xml";
    if (!strcmp(dot, ".ico")) return "image/x-icon";
    return "application/octet-stream";
}

static void send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0) {
            if (w < 0 && errno == EINTR)
                continue;
            return;
        }
        c += w;
        n -= (size_t)w;
    }
}

static void respond_cache(int fd, int status, const char *type, const char *body, size_t len, const char *cache)
{
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: %s\r\nConnection: close\r\n\r\n",
                     status, status == 200 ? "OK" : status == 404 ? "Not Found" : "Error", type, len, cache);
    send_all(fd, head, (size_t)n);
    send_all(fd, body, len);
}

static void respond(int fd, int status, const char *type, const char *body, size_t len)
{
    respond_cache(fd, status, type, body, len, "no-store");
}

static void *serve_conn(void *arg)
{
    conn *c = arg;
    char req[8192];
    size_t got = 0;
    while (got < sizeof req - 1) {
        ssize_t r = recv(c->fd, req + got, sizeof req - 1 - got, 0);
        if (r <= 0)
            break;
        got += (size_t)r;
        req[got] = '\0';
        if (strstr(req, "\r\n\r\n"))
            break;
    }
    req[got] = '\0';
    char method[16], target[4096];
    if (got == 0 || sscanf(req, "%15s %4095s", method, target) != 2)
        goto done;
    if (!strcmp(target, "/__quiet")) { /* ts_server_quiesce's own request: not counted */
        respond(c->fd, 200, "text/plain", "quiet", 5);
        goto done;
    }
    c->srv->requests++;
    char *q = strchr(target, '?');
    char query[1024] = "";
    if (q) {
        snprintf(query, sizeof query, "%s", q + 1);
        *q = '\0';
    }
    if (!strcmp(target, "/__slow") || !strncmp(target, "/__slow/", 8)) { /* /__slow/NAME: one a page tells apart */
        long ms = 1000;
        const char *m = strstr(query, "ms=");
        if (m)
            ms = strtol(m + 3, NULL, 10);
        if (strstr(query, "head=1")) { /* the headers at once, the body after ms: a fetch resolves before its body */
            static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                                       "Content-Length: 11\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
            send_all(c->fd, head, sizeof head - 1);
            eous_sleep_ms(ms);
            send_all(c->fd, "<p>slow</p>", 11);
            goto done;
        }
        eous_sleep_ms(ms);
        respond(c->fd, 200, "text/html; charset=utf-8", "<p>slow</p>", 11);
        goto done;
    }
    if (!strcmp(target, "/__status")) {
        const char *code = strstr(query, "code=");
        int status = code ? (int)strtol(code + 5, NULL, 10) : 500;
        respond(c->fd, status >= 100 && status < 600 ? status : 500, "text/html; charset=utf-8", "<p>down</p>", 11);
        goto done;
    }
    if (!strcmp(target, "/__flaky")) {
        /* ?codes=404,503&then=/form.html: the nth request answers the nth code, later ones the page */
        unsigned long n = __atomic_fetch_add(&c->srv->flaky_served, 1, __ATOMIC_SEQ_CST);
        const char *codes = strstr(query, "codes="), *then = strstr(query, "then=");
        for (const char *p = codes ? codes + 6 : NULL; p && *p && *p != '&'; n--) {
            if (!n) {
                int status = (int)strtol(p, NULL, 10);
                if (!status) /* code 0: a blank 200 page */
                    respond(c->fd, 200, "text/html; charset=utf-8", "", 0);
                else
                    respond(c->fd, status >= 100 && status < 600 ? status : 500, "text/html; charset=utf-8",
                            "<p>not yet</p>", 14);
                goto done;
            }
            p = strchr(p, ',');
            p = p ? p + 1 : NULL;
        }
        snprintf(target, sizeof target, "%.*s", then ? (int)strcspn(then + 5, "&") : 1, then ? then + 5 : "/");
    }
    if (strstr(target, "..")) {
        respond(c->fd, 404, "text/plain", "not found", 9);
        goto done;
    }
    char path[6000];
    snprintf(path, sizeof path, "%s%s", c->srv->root, target);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        strncat(path, path[strlen(path) - 1] == '/' ? "index.html" : "/index.html", sizeof path - strlen(path) - 1);
    } else if (stat(path, &st) != 0) {
        const char *base = strrchr(target, '/');
        if (base && !strchr(base, '.'))
            snprintf(path, sizeof path, "%s/index.html", c->srv->root);
    }
    char *body = NULL;
    size_t len = 0;
    if (eous_read_file(path, 0, &body, &len, NULL) != EOUS_OK) {
        respond(c->fd, 404, "text/plain", "not found", 9);
        goto done;
    }
    /* ?bfcache: a page the back/forward cache may keep (no-store pages it never keeps) */
    respond_cache(c->fd, 200, mime_of(path), body, len, strstr(query, "bfcache") ? "no-cache" : "no-store");
    free(body);
done:
    close(c->fd);
    ts_server *srv = c->srv;
    free(c);
    pthread_mutex_lock(&srv->mu);
    srv->active--;
    int last = --srv->refs == 0;
    pthread_cond_broadcast(&srv->idle);
    pthread_mutex_unlock(&srv->mu);
    if (last)
        free(srv);
    return NULL;
}

static void *accept_loop(void *arg)
{
    ts_server *s = arg;
    while (!s->stopping) {
        int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC); /* a process a test starts holds none */
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (s->stopping) {
            close(fd);
            break;
        }
        struct timeval tv = {5, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        conn *c = malloc(sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->srv = s;
        c->fd = fd;
        pthread_mutex_lock(&s->mu);
        s->active++;
        s->refs++;
        pthread_mutex_unlock(&s->mu);
        pthread_t t;
        if (pthread_create(&t, NULL, serve_conn, c) != 0) {
            close(fd);
            free(c);
            pthread_mutex_lock(&s->mu);
            s->active--;
            s->refs--;
            pthread_mutex_unlock(&s->mu);
            continue;
        }
        pthread_detach(t);
    }
    return NULL;
}

ts_server *ts_server_start(const char *root)
{
    ts_server *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    snprintf(s->root, sizeof s->root, "%s", root);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->idle, NULL);
    s->refs = 1;
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    if (bind(s->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(s->fd, 64) != 0 ||
        getsockname(s->fd, (struct sockaddr *)&a, &alen) != 0) {
        fprintf(stderr, "testsrv: cannot listen on 127.0.0.1: %s\n", strerror(errno));
        close(s->fd);
        free(s);
        return NULL;
    }
    s->port = ntohs(a.sin_port);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d", s->port);
    if (pthread_create(&s->thread, NULL, accept_loop, s) != 0) {
        close(s->fd);
        free(s);
        return NULL;
    }
    return s;
}

const char *ts_server_url(const ts_server *s) { return s->url; }
int ts_server_port(const ts_server *s) { return s->port; }
unsigned long ts_server_requests(const ts_server *s) { return s->requests; }

int ts_server_quiesce(ts_server *s, int limit_ms)
{
    /* our request is accepted after every connection already waiting in the backlog */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)s->port);
    struct timeval tv = {limit_ms / 1000, (limit_ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    const char *req = "GET /__quiet HTTP/1.0\r\n\r\n";
    send_all(fd, req, strlen(req));
    char buf[256];
    while (recv(fd, buf, sizeof buf, 0) > 0) {
    }
    close(fd);
    /* then every connection accepted before it has ended (its request counted) */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += limit_ms / 1000;
    until.tv_nsec += (long)(limit_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    int rc = 0;
    pthread_mutex_lock(&s->mu);
    while (s->active > 0 && rc == 0)
        rc = pthread_cond_timedwait(&s->idle, &s->mu, &until);
    int left = s->active;
    pthread_mutex_unlock(&s->mu);
    return left ? -1 : 0;
}

void ts_server_stop(ts_server *s)
{
    if (!s)
        return;
    s->stopping = 1;
    shutdown(s->fd, SHUT_RDWR);
    close(s->fd);
    pthread_join(s->thread, NULL);
    /* a connection still being served frees the server as it ends */
    pthread_mutex_lock(&s->mu);
    int last = --s->refs == 0;
    pthread_mutex_unlock(&s->mu);
    if (last)
        free(s);
}

/* mcp/mcp_devtools.c — eous's own DevTools connection to the browser (see
 * mcp_devtools_int.h): a WebSocket client (RFC 6455, text frames, pings
 * answered) to the browser target named by chromedriver's debuggerAddress,
 * loopback only.  goog/cdp/execute delivers no CDP events; tracing,
 * network routing and video need them. */
#define _GNU_SOURCE
#include "mcp/mcp_devtools_int.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/core.h"

#define WS_WAIT_MS 30000

void mcp_devtools_close(mcp_devtools *d)
{
    if (d && d->fd >= 0)
        close(d->fd);
    if (d)
        d->fd = -1;
}

static eous_rc ws_write_all(int fd, const void *p, size_t n, eous_err *err)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return eous_err_set(err, EOUS_E_INFRA, "the browser's DevTools connection: %s", strerror(errno));
        c += w;
        n -= (size_t)w;
    }
    return EOUS_OK;
}

/* n bytes into p within deadline (eous_now_ms() value). */
static eous_rc ws_read_all(int fd, void *p, size_t n, double deadline, eous_err *err)
{
    char *c = p;
    while (n) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        double left = deadline - eous_now_ms();
        if (left <= 0 || poll(&pf, 1, (int)left) == 0)
            return eous_err_set(err, EOUS_E_TIMEOUT, "the browser's DevTools connection: no answer within %d s",
                                WS_WAIT_MS / 1000);
        ssize_t r = recv(fd, c, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return eous_err_set(err, EOUS_E_INFRA, "the browser's DevTools connection closed");
        c += r;
        n -= (size_t)r;
    }
    return EOUS_OK;
}

/* One masked text frame (a client's frames are masked, RFC 6455 5.3). */
static eous_rc ws_send(int fd, const char *text, eous_err *err)
{
    size_t n = strlen(text), h = 0;
    unsigned char hdr[14];
    hdr[h++] = 0x81;
    if (n < 126) {
        hdr[h++] = (unsigned char)(0x80 | n);
    } else if (n < 65536) {
        hdr[h++] = 0x80 | 126;
        hdr[h++] = (unsigned char)(n >> 8);
        hdr[h++] = (unsigned char)n;
    } else {
        hdr[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            hdr[h++] = (unsigned char)((uint64_t)n >> (8 * i));
    }
    unsigned char mask[4];
    for (int i = 0; i < 4; i++)
        mask[i] = (unsigned char)random();
    memcpy(hdr + h, mask, 4);
    h += 4;
    /* head and body in one write: two small ones wait out Nagle's algorithm and the browser's delayed ACK (40 ms) */
    unsigned char *frame = malloc(h + n);
    if (!frame)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    memcpy(frame, hdr, h);
    for (size_t i = 0; i < n; i++)
        frame[h + i] = (unsigned char)text[i] ^ mask[i % 4];
    eous_rc rc = ws_write_all(fd, frame, h + n, err);
    free(frame);
    return rc;
}

/* The next whole text message (fragments joined; pings answered) into out. */
static eous_rc ws_recv(int fd, eous_buf *out, eous_err *err)
{
    double deadline = eous_now_ms() + WS_WAIT_MS;
    eous_buf_reset(out);
    for (;;) {
        unsigned char h[2], ext[8];
        eous_rc rc = ws_read_all(fd, h, 2, deadline, err);
        uint64_t n = h[1] & 0x7f;
        if (!rc && n >= 126) {
            int k = n == 126 ? 2 : 8;
            n = 0;
            if (!(rc = ws_read_all(fd, ext, (size_t)k, deadline, err)))
                for (int i = 0; i < k; i++)
                    n = n << 8 | ext[i];
        }
        if (!rc && (h[1] & 0x80)) /* a server never masks */
            rc = eous_err_set(err, EOUS_E_PARSE, "the browser's DevTools connection sent a masked frame");
        if (!rc && out->len + n > MCP_DEVTOOLS_MAX_MESSAGE)
            rc = eous_err_set(err, EOUS_E_LIMIT, "a DevTools message over %zu bytes", MCP_DEVTOOLS_MAX_MESSAGE);
        if (rc)
            return rc;
        char *payload = malloc(n ? (size_t)n : 1);
        if (!payload)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        rc = ws_read_all(fd, payload, (size_t)n, deadline, err);
        int op = h[0] & 0x0f;
        if (!rc && op == 0x8)
            rc = eous_err_set(err, EOUS_E_INFRA, "the browser closed its DevTools connection");
        else if (!rc && op == 0x9) { /* ping: pong with its payload */
            char pong[2 + 125 + 4];
            pong[0] = (char)0x8a;
            pong[1] = (char)(0x80 | (n & 0x7f));
            memset(pong + 2, 0, 4);
            memcpy(pong + 6, payload, n > 125 ? 125 : (size_t)n);
            rc = ws_write_all(fd, pong, 6 + (n > 125 ? 125 : (size_t)n), err);
        } else if (!rc && (op == 0x0 || op == 0x1 || op == 0x2)) {
            rc = eous_buf_append(out, payload, (size_t)n, err);
            if (!rc && (h[0] & 0x80)) { /* the last fragment: the message is whole */
                free(payload);
                return EOUS_OK;
            }
        }
        free(payload);
        if (rc)
            return rc;
    }
}

eous_rc mcp_devtools_send(mcp_devtools *d, const char *method, const cJSON *params, const char *session_id,
                          long *id_out, eous_err *err)
{
    long id = ++d->next_id;
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddNumberToObject(msg, "id", (double)id);
    cJSON_AddStringToObject(msg, "method", method);
    cJSON_AddItemToObject(msg, "params", params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
    if (session_id)
        cJSON_AddStringToObject(msg, "sessionId", session_id);
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    eous_rc rc = text ? ws_send(d->fd, text, err) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_wipe_str(text); /* typed keys, a call's params: they may hold a secret */
    free(text);
    if (id_out)
        *id_out = id;
    return rc;
}

eous_rc mcp_devtools_recv(mcp_devtools *d, cJSON **msg, eous_err *err)
{
    eous_buf in;
    eous_buf_init(&in, MCP_DEVTOOLS_MAX_MESSAGE + 1);
    eous_rc rc = ws_recv(d->fd, &in, err);
    *msg = rc ? NULL : cJSON_ParseWithLength(in.data ? in.data : "", in.len);
    eous_buf_free(&in);
    if (!rc && !*msg)
        rc = eous_err_set(err, EOUS_E_PARSE, "the browser's DevTools connection sent a message that is not JSON");
    return rc;
}

eous_rc mcp_devtools_call(mcp_devtools *d, const char *method, const cJSON *params, cJSON **result, const char *want,
                          cJSON **event, eous_err *err)
{
    long id = 0;
    eous_rc rc = mcp_devtools_send(d, method, params, NULL, &id, err);
    eous_buf in;
    eous_buf_init(&in, MCP_DEVTOOLS_MAX_MESSAGE + 1);
    while (!rc) {
        if ((rc = ws_recv(d->fd, &in, err)))
            break;
        cJSON *v = cJSON_ParseWithLength(in.data ? in.data : "", in.len);
        const char *ev = eous_json_str(v, "method");
        if (ev && want && event && !*event && !strcmp(ev, want)) {
            *event = v;
            continue;
        }
        if (eous_json_num(v, "id", -1) == (double)id) {
            const cJSON *e = eous_json_obj(v, "error");
            if (e)
                rc = eous_err_set(err, EOUS_E_INFRA, "%s: %s", method, eous_json_str(e, "message"));
            else if (result)
                *result = cJSON_DetachItemFromObjectCaseSensitive(v, "result");
            cJSON_Delete(v);
            break;
        }
        cJSON_Delete(v);
    }
    eous_buf_free(&in);
    return rc;
}

eous_rc mcp_devtools_call_raw(mcp_devtools *d, const char *method, const cJSON *params, const char *session_id,
                              char **text, size_t *len, eous_err *err)
{
    *text = NULL;
    *len = 0;
    long id = 0;
    eous_rc rc = mcp_devtools_send(d, method, params, session_id, &id, err);
    char head[40];
    int hn = snprintf(head, sizeof head, "{\"id\":%ld,", id);
    eous_buf in;
    eous_buf_init(&in, MCP_DEVTOOLS_MAX_MESSAGE + 1);
    while (!rc && !(rc = ws_recv(d->fd, &in, err))) {
        /* Chromium writes an answer's id first; anything else (an event) is not ours */
        if (in.len < (size_t)hn || memcmp(in.data, head, (size_t)hn))
            continue;
        if (in.len > (size_t)hn + 8 && !memcmp(in.data + hn, "\"error\":", 8)) {
            cJSON *v = cJSON_ParseWithLength(in.data, in.len);
            rc = eous_err_set(err, EOUS_E_INFRA, "%s: %s", method, eous_json_str(eous_json_obj(v, "error"), "message"));
            cJSON_Delete(v);
            break;
        }
        *len = in.len;
        *text = eous_buf_steal(&in);
        break;
    }
    eous_buf_free(&in);
    return rc;
}

eous_rc mcp_devtools_event(mcp_devtools *d, const char *want, cJSON **event, eous_err *err)
{
    eous_buf in;
    eous_buf_init(&in, MCP_DEVTOOLS_MAX_MESSAGE + 1);
    eous_rc rc;
    while (!(rc = ws_recv(d->fd, &in, err))) {
        cJSON *v = cJSON_ParseWithLength(in.data ? in.data : "", in.len);
        const char *ev = eous_json_str(v, "method");
        if (ev && !strcmp(ev, want)) {
            *event = v;
            break;
        }
        cJSON_Delete(v);
    }
    eous_buf_free(&in);
    return rc;
}

/* A TCP connection to host:port (loopback names only). */
static int tcp_connect(const char *host, const char *port, eous_err *err)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
    if (getaddrinfo(host, port, &hints, &res)) {
        eous_err_set(err, EOUS_E_INFRA, "the browser's DevTools address %s:%s does not resolve", host, port);
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        eous_err_set(err, EOUS_E_INFRA, "the browser's DevTools port %s:%s: %s", host, port, strerror(errno));
    return fd;
}

/* Sends req on a new connection and reads the answer's head (and, with body, all of it until it closes). */
static eous_rc http_exchange(const char *host, const char *port, const char *req, int whole, int *fd_out,
                             eous_buf *answer, eous_err *err)
{
    int fd = tcp_connect(host, port, err);
    if (fd < 0)
        return err->rc;
    eous_rc rc = ws_write_all(fd, req, strlen(req), err);
    double deadline = eous_now_ms() + WS_WAIT_MS;
    /* byte by byte up to the head's end, so no WebSocket frame is swallowed */
    while (!rc && !(answer->len >= 4 && !memcmp(answer->data + answer->len - 4, "\r\n\r\n", 4))) {
        char ch;
        if (!(rc = ws_read_all(fd, &ch, 1, deadline, err)))
            rc = eous_buf_putc(answer, ch, err);
    }
    /* the body's length when the head gives it: the browser may keep the connection open after it
     * (waiting for it to close cost the first DevTools use 5 s) */
    if (!rc && eous_buf_putc(answer, '\0', err) == EOUS_OK) /* the head as a string */
        answer->len--;
    const char *cl = rc || !answer->data ? NULL : strcasestr(answer->data, "\r\nContent-Length:");
    size_t head = answer->len, want = cl ? strtoul(cl + 17, NULL, 10) : 0;
    while (!rc && whole && !(cl && answer->len - head >= want)) {
        char chunk[4096];
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 5000) <= 0)
            break;
        ssize_t r = recv(fd, chunk, sizeof chunk, 0);
        if (r <= 0)
            break;
        rc = eous_buf_append(answer, chunk, (size_t)r, err);
    }
    if (!rc && eous_buf_putc(answer, '\0', err) == EOUS_OK)
        answer->len--;
    if (rc || !fd_out)
        close(fd);
    else
        *fd_out = fd;
    return rc;
}

eous_rc mcp_devtools_open(wd_session *s, const char *tool, mcp_devtools *d, eous_err *err)
{
    d->fd = -1;
    const char *addr = eous_json_str(eous_json_obj(wd_session_capabilities(s), "goog:chromeOptions"),
                                     "debuggerAddress");
    char host[128], port[16];
    const char *colon = addr ? strrchr(addr, ':') : NULL;
    if (!colon || colon - addr >= (long)sizeof host || strlen(colon + 1) >= sizeof port)
        return eous_err_set(err, EOUS_E_INVALID, "%s: the driver names no DevTools address for the browser (it needs a local Chromium)", tool);
    snprintf(host, sizeof host, "%.*s", (int)(colon - addr), addr);
    snprintf(port, sizeof port, "%s", colon + 1);
    if (strcmp(host, "localhost") && strcmp(host, "127.0.0.1") && strcmp(host, "[::1]"))
        return eous_err_set(err, EOUS_E_INVALID, "%s: the browser's DevTools port is on %s, not this machine's loopback", tool, host);
    if (host[0] == '[') {
        memmove(host, host + 1, strlen(host));
        host[strcspn(host, "]")] = '\0';
    }
    char req[1024];
    eous_buf ans;
    eous_buf_init(&ans, 1 << 20);
    snprintf(req, sizeof req, "GET /json/version HTTP/1.1\r\nHost: %s:%s\r\nConnection: close\r\n\r\n", host, port);
    eous_rc rc = http_exchange(host, port, req, 1, NULL, &ans, err);
    const char *body = rc ? NULL : strstr(ans.data, "\r\n\r\n");
    cJSON *v = body ? cJSON_Parse(body + 4) : NULL;
    const char *ws = eous_json_str(v, "webSocketDebuggerUrl");
    const char *path = ws && !strncmp(ws, "ws://", 5) ? strchr(ws + 5, '/') : NULL;
    if (!rc && !path)
        rc = eous_err_set(err, EOUS_E_INFRA, "%s: the browser's /json/version names no WebSocket", tool);
    if (!rc) {
        unsigned char key[16];
        for (int i = 0; i < 16; i++)
            key[i] = (unsigned char)random();
        char *k64 = eous_base64_encode(key, sizeof key);
        snprintf(req, sizeof req, "GET %.500s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, host, port, k64 ? k64 : "");
        free(k64);
        eous_buf_reset(&ans);
        rc = http_exchange(host, port, req, 0, &d->fd, &ans, err);
        if (!rc && strncmp(ans.data, "HTTP/1.1 101", 12)) {
            mcp_devtools_close(d);
            rc = eous_err_set(err, EOUS_E_INFRA, "%s: the browser refused the DevTools connection (%.60s)", tool,
                              ans.data);
        }
    }
    cJSON_Delete(v);
    eous_buf_free(&ans);
    return rc;
}

int mcp_devtools_alive(const mcp_devtools *d)
{
    int fd = d->fd;
    if (fd < 0)
        return 0;
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    char c;
    return poll(&pf, 1, 0) <= 0 || recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) != 0;
}


/* benchmarks/perf/mcp_slow_clients.c — how long an authorised `ping` to the
 * MCP HTTP server (mcp_http_start, as `eous mcp --port` runs it) takes on a new
 * connection while 260 clients from 127.0.0.2..5 hold connections whose headers
 * never end (issue 48), against the same server with no slow client.  Each
 * round starts a server, opens a session, times PINGS pings alone, opens the
 * slow clients, times PINGS pings more and stops the server; the figures are
 * the medians over every round's pings.  Writes
 * benchmarks/results/mcp_slow_clients.{json,md} (or the argv[1] directory). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcp/mcp_int.h"

enum { ROUNDS = 5, PINGS = 10, SLOW = 260 };
#define TOKEN "bench-slow-clients-token"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

/* A TCP connection to 127.0.0.1:port from the loopback address from (NULL: any), or -1. */
static int dial(int port, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    if (fd >= 0 && from) {
        inet_pton(AF_INET, from, &sa.sin_addr);
        if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            close(fd);
            return -1;
        }
    }
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* POSTs body on a new connection (Connection: close) and reads the answer into
 * out; the milliseconds it took, or -1 when the server refused or failed. */
static double exchange(int port, const char *sid, const char *body, char *out, size_t out_size)
{
    char req[2048];
    int n = snprintf(req, sizeof req,
                     "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " TOKEN "\r\n"
                     "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                     "%s%s%sMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n%s",
                     sid ? "Mcp-Session-Id: " : "", sid ? sid : "", sid ? "\r\n" : "", strlen(body), body);
    double t0 = eous_now_ms();
    int fd = dial(port, NULL);
    if (fd < 0 || send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t got = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (got + 1 < out_size && poll(&p, 1, 20000) > 0) {
        ssize_t r = recv(fd, out + got, out_size - 1 - got, 0);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    out[got] = '\0';
    close(fd);
    return strstr(out, "HTTP/1.1 200") ? eous_now_ms() - t0 : -1;
}

/* Opens the slow clients (127.0.0.2..5 in turn), each with headers begun and
 * never ended; their sockets in fds (-1 where the connect failed). */
static void open_slow(int port, int *fds)
{
    static const char head[] = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a";
    for (int i = 0; i < SLOW; i++) {
        char from[16];
        snprintf(from, sizeof from, "127.0.0.%d", 2 + i % 4);
        fds[i] = dial(port, from);
        if (fds[i] >= 0 && send(fds[i], head, sizeof head - 1, MSG_NOSIGNAL) < 0) {
            close(fds[i]);
            fds[i] = -1;
        }
    }
    eous_sleep_ms(500); /* the connections past the per-address cap are closed meanwhile */
}

/* How many of the slow clients the server still holds open; closes them all. */
static int close_slow(int *fds)
{
    int held = 0;
    for (int i = 0; i < SLOW; i++) {
        if (fds[i] < 0)
            continue;
        char c;
        struct pollfd p = {.fd = fds[i], .events = POLLIN};
        held += !(poll(&p, 1, 0) > 0 && recv(fds[i], &c, 1, MSG_DONTWAIT) <= 0);
        close(fds[i]);
    }
    return held;
}

/* One round: the session, the pings alone and beside the slow clients. */
static int round_once(double *alone, double *slowed, int *held, int *refused)
{
    mcp_http_opts o;
    mcp_http_opts_init(&o);
    o.port = 0;
    o.token = TOKEN;
    o.session.webdriver = "http://127.0.0.1:9/"; /* no browser: ping needs none */
    mcp_http *h = NULL;
    char url[128], answer[8192];
    eous_err err;
    eous_err_clear(&err);
    if (mcp_http_start(&o, &h, url, sizeof url, &err)) {
        fprintf(stderr, "mcp_slow_clients: %s\n", err.msg);
        return -1;
    }
    int port = atoi(strrchr(url, ':') + 1);
    char sid[64] = "";
    const char *init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                       "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}";
    const char *hdr = exchange(port, NULL, init, answer, sizeof answer) >= 0 ? strcasestr(answer, "Mcp-Session-Id: ")
                                                                             : NULL;
    if (!hdr || sscanf(hdr + 16, "%63[0-9a-f]", sid) != 1) {
        fprintf(stderr, "mcp_slow_clients: no session: %.200s\n", answer);
        mcp_http_stop(h);
        return -1;
    }
    const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
    for (int i = 0; i < PINGS; i++)
        alone[i] = exchange(port, sid, ping, answer, sizeof answer);
    int fds[SLOW];
    open_slow(port, fds);
    *refused = 0;
    for (int i = 0; i < PINGS; i++)
        *refused += (slowed[i] = exchange(port, sid, ping, answer, sizeof answer)) < 0;
    *held = close_slow(fds);
    mcp_http_stop(h);
    return 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : EOUS_SOURCE_DIR "/benchmarks/results";
    eous_log_configure(EOUS_LOG_ERROR, 0, NULL); /* a warning per slow client is not the figure */
    double alone[ROUNDS * PINGS], slowed[ROUNDS * PINGS];
    int held = 0, refused = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int h = 0, f = 0;
        if (round_once(alone + r * PINGS, slowed + r * PINGS, &h, &f))
            return 3;
        held = h > held ? h : held;
        refused += f;
    }
    int n = ROUNDS * PINGS;
    double m_alone = median(alone, n), m_slowed = median(slowed, n), worst = slowed[n - 1];
    printf("ping alone %.2f ms, beside %d slow-header clients %.2f ms (worst %.2f ms; %d refused; the server held "
           "%d of them)\n",
           m_alone, SLOW, m_slowed, worst, refused, held);
    char path[1024];
    snprintf(path, sizeof path, "%s/mcp_slow_clients.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mcp_slow_clients: %s: cannot write\n", path);
        return 3;
    }
    fprintf(f,
            "{\"rounds\": %d, \"pings_per_round\": %d, \"slow_clients\": %d, \"ping_alone_median_ms\": %.3f, "
            "\"ping_with_slow_median_ms\": %.3f, \"ping_with_slow_worst_ms\": %.3f, \"pings_refused\": %d, "
            "\"slow_held_by_server\": %d}\n",
            ROUNDS, PINGS, SLOW, m_alone, m_slowed, worst, refused, held);
    fclose(f);
    snprintf(path, sizeof path, "%s/mcp_slow_clients.md", outdir);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "mcp_slow_clients: %s: cannot write\n", path);
        return 3;
    }
    fprintf(f,
            "# An authorised ping beside %d slow-header clients (benchmarks/perf/mcp_slow_clients.c)\n\n"
            "%d rounds x %d pings, each on a new connection, to a fresh server with default limits "
            "(--header-timeout 10, --max-client-connections 32 of 256); the slow clients connect from "
            "127.0.0.2..5 and never end their headers.\n\n"
            "| | median | worst |\n|---|---|---|\n"
            "| ping alone | %.2f ms | |\n| ping beside %d slow clients | %.2f ms | %.2f ms |\n\n"
            "Pings refused: %d. Slow connections the server held: %d (the rest were closed at once).\n",
            SLOW, ROUNDS, PINGS, m_alone, SLOW, m_slowed, worst, refused, held);
    fclose(f);
    return refused ? 1 : 0;
}

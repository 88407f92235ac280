/* tests/fuzz/fuzz_mcp_http.c — libFuzzer target for `eous mcp --port`'s
 * request handling: each input is the bytes a client sends on one TCP
 * connection (request line, headers, body; several pipelined requests, bad
 * framing, cut-off input), written raw to an in-process server
 * (mcp_http_start on a free loopback port) and then the write side is
 * closed; the answer is read until the server closes.  libmicrohttpd parses
 * the HTTP; the Host/Origin/token checks, JSON-RPC classification, sessions,
 * 2026-07-28 header checks and the MCP methods are ours.  A crash, a sanitizer
 * report or a hang (libFuzzer -timeout) is a finding.
 *
 * No browser ever starts: sessions point at a WebDriver URL where nothing
 * listens (a tool call that needs the browser fails at once).  Sessions are
 * few and idle out after a second, so inputs that open them do not pile up.
 * tests/mcp/test_mcp_http_corpus.c replays the corpus through the same function
 * with FUZZ_MCP_HTTP_ENTRY renamed, so it runs in every ordinary test run. */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcp/mcp_int.h"

#ifndef FUZZ_MCP_HTTP_ENTRY
#define FUZZ_MCP_HTTP_ENTRY LLVMFuzzerTestOneInput
#endif

#define FUZZ_MCP_HTTP_READ_MS 5000 /* longer than any answer without a browser takes */

int FUZZ_MCP_HTTP_ENTRY(const uint8_t *data, size_t size);

static mcp_http *fuzz_mcp_http_server;
static int fuzz_mcp_http_port;
/* what the server sent for the last input (its head), for the corpus replay's checks */
static char fuzz_mcp_http_answer[8192];

static void fuzz_mcp_http_start(void)
{
    if (fuzz_mcp_http_server)
        return;
    eous_log_configure(EOUS_LOG_ERROR, 0, NULL); /* malformed requests are the point: no warning per input */
    mcp_http_opts o;
    mcp_http_opts_init(&o);
    o.port = 0;
    o.max_sessions = 4;
    o.idle_timeout_s = 1;
    o.max_body_bytes = 64 * 1024;
    o.request_timeout_s = 2;
    o.session.webdriver = "http://127.0.0.1:9/"; /* nothing listens: a browser start fails at once */
    char url[128];
    eous_err err;
    eous_err_clear(&err);
    if (mcp_http_start(&o, &fuzz_mcp_http_server, url, sizeof url, &err) != EOUS_OK) {
        fprintf(stderr, "fuzz_mcp_http: cannot start the server: %s\n", err.msg);
        abort();
    }
    const char *colon = strrchr(url, ':');
    fuzz_mcp_http_port = colon ? atoi(colon + 1) : 0;
    if (fuzz_mcp_http_port <= 0)
        abort();
}

int FUZZ_MCP_HTTP_ENTRY(const uint8_t *data, size_t size)
{
    fuzz_mcp_http_start();
    fuzz_mcp_http_answer[0] = '\0';
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)fuzz_mcp_http_port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return 0;
    }
    size_t off = 0;
    while (off < size) {
        ssize_t n = send(fd, data + off, size - off, MSG_NOSIGNAL);
        if (n <= 0)
            break; /* the server closed early (a refusal before the body): fine */
        off += (size_t)n;
    }
    shutdown(fd, SHUT_WR);
    size_t got = 0;
    char buf[4096];
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (poll(&p, 1, FUZZ_MCP_HTTP_READ_MS) > 0) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        size_t keep = (size_t)n < sizeof fuzz_mcp_http_answer - 1 - got ? (size_t)n
                                                                         : sizeof fuzz_mcp_http_answer - 1 - got;
        memcpy(fuzz_mcp_http_answer + got, buf, keep);
        got += keep;
        fuzz_mcp_http_answer[got] = '\0';
    }
    close(fd);
    mcp_http_tick(fuzz_mcp_http_server);
    return 0;
}

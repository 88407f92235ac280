/* webdriver/attach.c — the DevTools endpoint of a running Chromium eous attaches to
 * (wd_session_opts.debugger_address), read from what a person types.
 * Loopback only: the DevTools port is full control of that browser, unauthenticated, so eous never
 * asks a person to open it to the network. */
#include "webdriver/wd.h"

#include "core/http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const LOOPBACK[] = {"127.0.0.1", "localhost", "[::1]"};

/* chromedriver 120's own switches for a browser it launches (its verbose log's "Launching chrome"), less
 * the logging ones and the debugging port: without them an attached browser throttled a background
 * tab's timers and held input sent before a new page's first frame (test_params under load) */
static const char *const ATTACH_SWITCHES[] = {
    "--allow-pre-commit-input", "--disable-background-networking", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows", "--disable-client-side-phishing-detection",
    "--disable-default-apps", "--disable-hang-monitor", "--disable-popup-blocking", "--disable-prompt-on-repost",
    "--disable-sync", "--enable-automation", "--no-first-run", "--no-service-autorun", "--password-store=basic",
    "--test-type=webdriver", "--use-mock-keychain", NULL};

const char *const *wd_attach_switches(void) { return ATTACH_SWITCHES; }

eous_rc wd_cdp_endpoint_parse(const char *in, char *out, size_t n, eous_err *err)
{
    const char *p = in ? in : "";
    static const char *const SCHEMES[] = {"http://", "ws://"};
    for (size_t i = 0; i < sizeof SCHEMES / sizeof *SCHEMES; i++)
        if (!strncmp(p, SCHEMES[i], strlen(SCHEMES[i])))
            p += strlen(SCHEMES[i]);
    size_t host_len = 0;
    const char *colon = NULL;
    for (size_t i = 0; i < sizeof LOOPBACK / sizeof *LOOPBACK && !colon; i++) {
        size_t len = strlen(LOOPBACK[i]);
        if (!strncmp(p, LOOPBACK[i], len) && p[len] == ':') {
            host_len = len;
            colon = p + len;
        }
    }
    if (!colon) {
        const char *c = strrchr(p, ':');
        if (c && c > p && !strchr(p, '/'))
            return eous_err_set(err, EOUS_E_INVALID,
                                "DevTools endpoint '%s': expected a loopback host (127.0.0.1, localhost, [::1]): the "
                                "DevTools port is full control of the browser",
                                in ? in : "");
        return eous_err_set(err, EOUS_E_INVALID,
                            "DevTools endpoint '%s': expected http://127.0.0.1:PORT (a Chromium started with "
                            "--remote-debugging-port=PORT)",
                            in ? in : "");
    }
    char *end = NULL;
    long port = strtol(colon + 1, &end, 10);
    /* a path after the port (ws://HOST:PORT/devtools/browser/ID) names the same browser */
    if (end == colon + 1 || port < 1 || port > 65535 || (*end && *end != '/'))
        return eous_err_set(err, EOUS_E_INVALID, "DevTools endpoint '%s': expected a port from 1 to 65535 after the host",
                            in ? in : "");
    if ((size_t)snprintf(out, n, "%.*s:%ld", (int)host_len, p, port) >= n)
        return eous_err_set(err, EOUS_E_INVALID, "DevTools endpoint '%s': too long", in ? in : "");
    return EOUS_OK;
}

eous_rc wd_cdp_endpoint_probe(const char *addr, eous_err *err)
{
    eous_http *http = NULL;
    eous_rc rc = eous_http_new(&http, err);
    if (rc)
        return rc;
    char url[128];
    snprintf(url, sizeof url, "http://%s/json/version", addr);
    eous_http_req req = {
        .method = "GET",
        .url = url,
        .timeout_ms = 5000,
        .connect_timeout_ms = 2000,
        .max_response = 64 * 1024,
        .direct = 1,
    };
    eous_http_resp hr;
    eous_err e;
    rc = eous_http_exchange(http, &req, &hr, &e);
    /* chromedriver would retry a dead port for a minute before saying so: said at once instead */
    if (rc || hr.status != 200 || !hr.body.data || !strstr(hr.body.data, "webSocketDebuggerUrl"))
        rc = eous_err_set(err, EOUS_E_INFRA,
                          "no Chromium answers at %s (%s): start one with "
                          "--remote-debugging-port=PORT and give that port",
                          addr, rc ? e.msg : hr.status != 200 ? "/json/version: not 200" : "/json/version: not a DevTools answer");
    eous_buf_free(&hr.body);
    eous_http_free(http);
    return rc;
}

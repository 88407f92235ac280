/* tests/support/browser.c — see browser.h. */
#include "support/browser.h"

#include "actions/action.h"
#include "actions/exec.h"
#include "actions/policy.h"
#include "agent/run.h"
#include "support/browser_pool.h"
#include "support/grounds.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int ts_pool_claim(char *addr, size_t size)
{
    const char *list = getenv(TS_POOL_ENV), *dir = getenv(TS_POOL_LOCKS_ENV);
    if (!list || !dir || strcmp(list, "off") == 0)
        return -1;
    int i = 0;
    for (const char *p = list; *p; i++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char path[512];
        snprintf(path, sizeof path, "%s/%d.lock", dir, i);
        /* close-on-exec: a driver or CLI this test starts must not hold the claim past the test */
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && len < size) {
            memcpy(addr, p, len);
            addr[len] = '\0';
            return fd;
        }
        if (fd >= 0)
            close(fd);
        if (!end)
            break;
        p = end + 1;
    }
    return -1;
}

static void pool_release(ts_browser *b)
{
    if (b->pooled)
        close(b->pool_lock); /* drops the flock */
    b->pooled = 0;
}

static void cdp_quiet(wd_session *s, const char *method)
{
    cJSON *r = NULL;
    wd_cdp(s, method, NULL, &r, NULL);
    cJSON_Delete(r);
}

/* A session on the pooled browser at addr, as clean as a launched one for
 * this test: a fresh tab (the others closed), no cookies, no cached
 * responses, and the server's origin without storage (a port of an earlier
 * test's server may come round again).  0, or -1 with nothing left open. */
static int pool_attach(ts_browser *b, const char *addr, eous_err *err)
{
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.debugger_address = addr;
    if (wd_driver_spawn(NULL, &b->driver, err) || wd_session_new(wd_driver_url(b->driver), &o, &b->session, err) ||
        agent_fresh_tab(b->session, err)) {
        wd_session_free(b->session);
        b->session = NULL;
        wd_driver_free(b->driver);
        b->driver = NULL;
        return -1;
    }
    cdp_quiet(b->session, "Network.clearBrowserCookies");
    cdp_quiet(b->session, "Network.clearBrowserCache");
    agent_clear_origin_first(b->session, ts_server_url(b->server));
    return 0;
}

static int start(ts_browser *b, const char *root, int may_share)
{
    memset(b, 0, sizeof *b);
    b->server = ts_server_start(root ? root : EOUS_SOURCE_DIR "/tests/fixtures/pages");
    if (!b->server)
        return -1;
    eous_err err;
    eous_err_clear(&err);
    char addr[64];
    if (may_share && (b->pool_lock = ts_pool_claim(addr, sizeof addr)) >= 0) {
        b->pooled = 1;
        if (pool_attach(b, addr, &err) == 0)
            return 0;
        fprintf(stderr, "ts_browser: the pooled browser at %s: %s; launching one\n", addr, err.msg);
        pool_release(b);
        eous_err_clear(&err);
    }
    if (wd_driver_spawn(NULL, &b->driver, &err) != EOUS_OK) {
        fprintf(stderr, "ts_browser: %s\n", err.msg);
        ts_browser_stop(b);
        return -1;
    }
    if (wd_session_new(wd_driver_url(b->driver), NULL, &b->session, &err) != EOUS_OK) {
        fprintf(stderr, "ts_browser: %s\n", err.msg);
        ts_browser_stop(b);
        return -1;
    }
    return 0;
}

int ts_browser_start(ts_browser *b, const char *root) { return start(b, root, 1); }
int ts_browser_launch(ts_browser *b, const char *root) { return start(b, root, 0); }

void ts_browser_stop(ts_browser *b)
{
    if (b->pooled && b->session) /* the next test finds no page of ours running */
        wd_navigate(b->session, "about:blank", NULL);
    wd_session_free(b->session);
    b->session = NULL;
    wd_driver_free(b->driver);
    b->driver = NULL;
    ts_server_stop(b->server);
    b->server = NULL;
    pool_release(b);
}

const char *ts_browser_url(ts_browser *b, const char *path)
{
    snprintf(b->url_buf, sizeof b->url_buf, "%s%s", ts_server_url(b->server), path ? path : "/");
    return b->url_buf;
}

const char *ts_site_root(void)
{
    static const char *root = TS_PLAYGROUND_DIST;
    struct stat st;
    char index[1024];
    snprintf(index, sizeof index, "%s/index.html", root);
    return stat(index, &st) == 0 ? root : NULL;
}

int ts_exec_start(ts_browser *b, double call_timeout_ms, struct act_exec **x, struct act_policy **p)
{
    *x = NULL;
    *p = NULL;
    eous_err err;
    eous_err_clear(&err);
    act_exec_opts o;
    act_exec_opts_init(&o);
    /* a page's answer may take seconds on a loaded 2-core CI machine (two test binaries at a time, each
     * with two jobs): a test of the timeout itself gives its own */
    o.call_timeout_ms = call_timeout_ms > 0 ? call_timeout_ms : TS_CALL_TIMEOUT_MS;
    if (act_exec_new(b->session, &o, x, &err) || act_policy_new(p, &err) ||
        act_policy_allow_origin(*p, ts_browser_url(b, "/"), &err)) {
        fprintf(stderr, "ts_exec_start: %s\n", err.msg);
        ts_exec_stop(x, p);
        return -1;
    }
    act_policy_set_interactive(*p, 0);
    act_exec_set_policy(*x, *p);
    return 0;
}

void ts_exec_stop(struct act_exec **x, struct act_policy **p)
{
    act_exec_free(*x);
    *x = NULL;
    act_policy_free(*p);
    *p = NULL;
}

eous_rc ts_exec_step(ts_browser *b, act_exec *x, const char *json, act_result *r, eous_err *err)
{
    perc_opts o;
    perc_opts_init(&o);
    perc_obs *obs = NULL;
    eous_rc rc = perc_observe(b->session, &o, &obs, err);
    if (rc)
        return rc;
    cJSON *j = cJSON_Parse(json);
    act_action a;
    act_action_init(&a);
    rc = !j ? eous_err_set(err, EOUS_E_INVALID, "not JSON: %s", json) : act_parse_script_step(j, &a, err);
    cJSON_Delete(j);
    if (!rc)
        rc = act_execute(x, obs, &a, r, err);
    act_action_clear(&a);
    perc_obs_free(obs);
    return rc;
}

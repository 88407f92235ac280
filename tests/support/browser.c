/* tests/support/browser.c — see browser.h. */
#include "support/browser.h"

#include "actions/exec.h"
#include "actions/policy.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int ts_browser_start(ts_browser *b, const char *root)
{
    memset(b, 0, sizeof *b);
    b->server = ts_server_start(root ? root : EOUS_SOURCE_DIR "/tests/fixtures/pages");
    if (!b->server)
        return -1;
    eous_err err;
    eous_err_clear(&err);
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

void ts_browser_stop(ts_browser *b)
{
    wd_session_free(b->session);
    b->session = NULL;
    wd_driver_free(b->driver);
    b->driver = NULL;
    ts_server_stop(b->server);
    b->server = NULL;
}

const char *ts_browser_url(ts_browser *b, const char *path)
{
    snprintf(b->url_buf, sizeof b->url_buf, "%s%s", ts_server_url(b->server), path ? path : "/");
    return b->url_buf;
}

const char *ts_site_root(void)
{
    static const char *root = EOUS_SOURCE_DIR "/benchmarks/site/dist";
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
    if (call_timeout_ms > 0)
        o.call_timeout_ms = call_timeout_ms;
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

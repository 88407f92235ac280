/* tests/support/browser.h — one real chromedriver + headless Chromium + a
 * loopback fixture server, for browser tests and benchmarks.
 *
 * ts_browser_start spawns everything on free loopback ports; ts_browser_stop
 * deletes the session, stops the driver's process group and the server.  In a
 * binary with a browser pool (tests/pool/browser_pool.c) the session attaches
 * to a free pooled Chromium instead of launching one, in a fresh tab with the
 * server's origin, cookies and cache cleared; ts_browser_stop leaves that
 * browser on a blank page for the next test. */
#ifndef EOUS_TS_BROWSER_H
#define EOUS_TS_BROWSER_H

#include "support/testsrv.h"
#include "webdriver/wd.h"

typedef struct ts_browser {
    ts_server *server;
    wd_driver *driver;
    wd_session *session;
    int pooled;         /* 1: the session is on a pooled browser, claimed by pool_lock */
    int pool_lock;      /* that claim's lock fd */
    char url_buf[2048];
} ts_browser;

/* root NULL = tests/fixtures/pages.  Returns 0 or prints why and returns -1. */
int ts_browser_start(ts_browser *b, const char *root);
/* As ts_browser_start, always launching a browser of its own: for a test that
 * kills or inspects the browser's processes. */
int ts_browser_launch(ts_browser *b, const char *root);
void ts_browser_stop(ts_browser *b);
/* Server URL + path (borrowed, overwritten by the next call). */
const char *ts_browser_url(ts_browser *b, const char *path);
/* Path of the built Playground (benchmarks/grounds/playground/dist) or NULL when not built. */
const char *ts_site_root(void);

/* An executor on b's session under a non-interactive policy allowing b's origin, as the action tests
 * use it; call_timeout_ms 0 = TS_CALL_TIMEOUT_MS (the executor's 5 s default is a product's bound, not a
 * loaded CI machine's).  0, or prints why and returns -1 (nothing left to free).  ts_exec_stop frees both
 * (NULLs them); NULLs are fine. */
#define TS_CALL_TIMEOUT_MS 20000.0
struct act_exec;
struct act_policy;
int ts_exec_start(ts_browser *b, double call_timeout_ms, struct act_exec **x, struct act_policy **p);
void ts_exec_stop(struct act_exec **x, struct act_policy **p);

/* One script step (JSON text) on b's page as the agent loop runs it: a fresh observation in perception's
 * default mode, the step parsed and executed by x (which settles after it) into r.  EOUS_E_INVALID when
 * the text is not a script step. */
struct act_result;
eous_rc ts_exec_step(ts_browser *b, struct act_exec *x, const char *json, struct act_result *r, eous_err *err);

/* A Criterion suite whose every test has a browser B on pages served from root and an executor X under
 * policy P on it (ts_browser_start, ts_exec_start; stopped after the test): the action tests' set-up.
 * The test file includes criterion/criterion.h and actions/exec.h. */
#define TS_EXEC_SUITE(suite, root, call_timeout_ms, timeout_s)                                                \
    static ts_browser B;                                                                                    \
    static act_exec *X;                                                                                     \
    static act_policy *P;                                                                                   \
    static void setup(void)                                                                                 \
    {                                                                                                       \
        cr_assert_eq(ts_browser_start(&B, root), 0, "browser start failed");                                \
        cr_assert_eq(ts_exec_start(&B, call_timeout_ms, &X, &P), 0);                                        \
    }                                                                                                       \
    static void teardown(void)                                                                              \
    {                                                                                                       \
        ts_exec_stop(&X, &P);                                                                               \
        ts_browser_stop(&B);                                                                                \
    }                                                                                                       \
    TestSuite(suite, .init = setup, .fini = teardown, .timeout = timeout_s)

#endif

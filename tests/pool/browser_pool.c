/* tests/pool/browser_pool.c — one headless Chromium per Criterion job, launched
 * once per test binary and shared by its tests through ts_browser_start.
 *
 * Why: launching Chromium costs about 4 CPU-seconds on a 2-core machine, and a
 * browser suite starts one per test; attaching a WebDriver session to a running
 * browser (goog:chromeOptions.debuggerAddress) costs a fraction of that.
 * Linked only into the binaries CMakeLists.txt lists in EOUS_BROWSER_POOL_TESTS
 * (it is a pair of Criterion report hooks, which a static library would drop).
 *
 * Ownership: the Criterion runner process.  PRE_ALL launches the browsers (each
 * in its own process group, killed if the runner dies) and publishes them in
 * EOUS_TEST_BROWSERS for the test processes it forks; POST_ALL stops them by
 * process group and removes their profiles and lock files.  A test process
 * claims one browser with a lock (support/browser.c); EOUS_TEST_BROWSERS=off
 * before the run turns the pool off (every test launches its own, as before).
 * Under ctest the binaries share the run's browsers instead (the browser_pool fixture:
 * tests/pool/pool.sh, EOUS_TEST_POOL_DIR): two launches a binary saved. */
#include "support/browser_pool.h"
#include "support/chromium.h"

#include "core/util.h"
#include "webdriver/wd.h"

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/options.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POOL_MAX 8

static ts_chromium_held pool[POOL_MAX];
static int pool_n;
static char lock_dir[64];

/* The browsers the ctest run's pool fixture holds (tests/pool/pool.sh, EOUS_TEST_POOL_DIR), published
 * for this binary's test processes: 1, or 0 when there is no such pool or its first browser is gone. */
static int use_run_pool(void)
{
    const char *dir = getenv("EOUS_TEST_POOL_DIR");
    char path[512], list[POOL_MAX * 24] = "", locks[512];
    if (!dir || !*dir)
        return 0;
    snprintf(path, sizeof path, "%s/browsers", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int got = fgets(list, sizeof list, f) != NULL;
    fclose(f);
    list[strcspn(list, "\n")] = '\0';
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(list, ","), list);
    eous_err err;
    if (!got || !*first || wd_cdp_endpoint_probe(first, &err)) /* a pool that died: this binary launches its own */
        return 0;
    snprintf(locks, sizeof locks, "%s/locks", dir);
    setenv(TS_POOL_ENV, list, 1);
    setenv(TS_POOL_LOCKS_ENV, locks, 1);
    return 1;
}

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    const char *env = getenv(TS_POOL_ENV);
    if (env && strcmp(env, "off") == 0)
        return;
    if (use_run_pool()) /* the ctest run's browsers: none of this binary's own to launch or stop */
        return;
    long want = criterion_options.jobs > 0 ? (long)criterion_options.jobs : sysconf(_SC_NPROCESSORS_ONLN);
    pool_n = (int)(want < 1 ? 1 : want > POOL_MAX ? POOL_MAX : want);
    snprintf(lock_dir, sizeof lock_dir, "/tmp/eous-test-locks-XXXXXX");
    if (!mkdtemp(lock_dir)) {
        pool_n = 0;
        return;
    }
    char list[POOL_MAX * 24] = "";
    size_t len = 0;
    for (int i = 0; i < pool_n; i++) {
        int port = ts_chromium_hold(&pool[i]);
        if (port < 0) {
            fprintf(stderr, "browser pool: browser %d did not start; tests launch their own\n", i);
            continue;
        }
        len += (size_t)snprintf(list + len, sizeof list - len, "%s127.0.0.1:%d", len ? "," : "", port);
    }
    if (len) {
        setenv(TS_POOL_ENV, list, 1);
        setenv(TS_POOL_LOCKS_ENV, lock_dir, 1);
    }
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    for (int i = 0; i < pool_n; i++)
        ts_chromium_release(&pool[i]);
    pool_n = 0;
    if (lock_dir[0]) {
        eous_rmtree(lock_dir);
        lock_dir[0] = '\0';
    }
}

/* tests/support/browser_pool.h — how a test binary's shared browsers
 * (tests/pool/browser_pool.c) are handed to its test processes.
 *
 * TS_POOL_ENV holds "127.0.0.1:PORT,..." (one running Chromium per Criterion
 * job), TS_POOL_LOCKS_ENV a directory where browser i is claimed by an flock
 * on "i.lock" for the life of one test.  Set "off" in TS_POOL_ENV before a run
 * to launch a browser per test instead. */
#ifndef EOUS_TS_BROWSER_POOL_H
#define EOUS_TS_BROWSER_POOL_H

#define TS_POOL_ENV "EOUS_TEST_BROWSERS"
#define TS_POOL_LOCKS_ENV "EOUS_TEST_BROWSER_LOCKS"

#include <stddef.h>

/* Claims a free pooled browser for this process: its "HOST:PORT" in addr and the held lock's fd (close it
 * to give the browser back), or -1 when there is no pool or none is free (support/browser.c). */
int ts_pool_claim(char *addr, size_t size);

#endif

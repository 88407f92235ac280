/* tests/support/chromium.h — a headless Chromium launched directly (not by
 * chromedriver), listening for a debugger on a free loopback port, for the
 * browser pool (tests/pool/browser_pool.c) and the tests of attaching to a
 * running browser (wd_session_opts.debugger_address).
 *
 * Ownership: the caller owns the profile dir and the process; the browser
 * runs in a process group of its own and is killed when its launcher dies. */
#ifndef EOUS_TS_CHROMIUM_H
#define EOUS_TS_CHROMIUM_H

#include <sys/types.h>

/* Launches Chromium with eous's flags (wd_browser_args) on profile_dir and
 * waits until it listens; its debugging port with *pid set, or -1. */
int ts_chromium_launch(const char *profile_dir, pid_t *pid);
/* Stops the browser's whole process group (SIGTERM, then SIGKILL) and reaps it. */
void ts_chromium_stop(pid_t pid);

/* A browser a pool holds (tests/pool/): its process and its own profile folder under /tmp. */
typedef struct ts_chromium_held {
    pid_t pid;
    char profile[64];
} ts_chromium_held;
/* Launches one into h with a fresh profile: its debugging port, or -1 (h then holds nothing to stop
 * but what ts_chromium_release removes). */
int ts_chromium_hold(ts_chromium_held *h);
/* Stops h's browser and removes its profile; h is empty after.  A no-op on an empty h. */
void ts_chromium_release(ts_chromium_held *h);

#endif

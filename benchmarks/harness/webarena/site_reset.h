/* webarena/site_reset.h — WebArena's "require_reset" on sites eous does not own.
 *
 * A site NAME (from the task's "sites" list) is resettable when the
 * environment has EOUS_SITE_<NAME>_RESET: a command, split on blanks and run
 * without a shell (task data never reaches it), e.g.
 * `scripts/wiki reset /tmp/wiki`, or one per copy of the site
 * (webarena/site_pool.h); the task's instance picks its copy.  For such sites
 * every task holds a lock on its copy for its whole run (reset, page, steps,
 * evaluation), so a reset never lands in the middle of another worker's task:
 *   - a task with "require_reset": true takes it exclusively, runs the
 *     command (bounded time; stdout discarded, stderr inherited), then keeps
 *     it shared;
 *   - any other task on that site takes it shared.
 * The lock is an flock(2) on $TMPDIR/eous-site-<name>-<hash of the copy's
 * URL>.lock, so separate processes serving the same site agree.
 * Sites without a reset command are untouched (no lock).
 *
 * A task's hold is an wa_site_hold the caller owns (the loop keeps one per
 * task): wa_site_enter before the task's page is prepared,
 * wa_site_leave when the task is scored. */
#ifndef EOUS_WEBARENA_SITE_RESET_H
#define EOUS_WEBARENA_SITE_RESET_H

#include "webarena/task.h"

/* Limit on one reset command, in seconds (override: EOUS_SITE_RESET_TIMEOUT). */
#define WA_SITE_RESET_TIMEOUT_S 120

#define WA_SITE_MAX 8

/* The site locks one task holds: zero it (or = WA_SITE_HOLD_INIT) before
 * wa_site_enter. */
typedef struct wa_site_hold {
    int fds[WA_SITE_MAX]; /* lock files' descriptors, n of them */
    int n;
} wa_site_hold;
#define WA_SITE_HOLD_INIT {{0}, 0}

/* Locks t's resettable sites and resets them if t requires it.  A reset
 * command that cannot start, fails or runs out of time → EOUS_E_INFRA with
 * one line naming the site and the command (nothing held on error). */
eous_rc wa_site_enter(wa_site_hold *h, const wa_task *t, eous_err *err);
/* Releases what wa_site_enter took into h (no-op when nothing, or NULL). */
void wa_site_leave(wa_site_hold *h);
/* 1 when t's wa_site_enter at instance would wait for a task running other
 * at other_instance: t requires a reset of a resettable site that other names
 * too, on the same copy (the reset needs the copy to itself).  A scheduler
 * runs something else meanwhile. */
int wa_site_reset_waits_for(const wa_task *t, int instance, const wa_task *other, int other_instance);

#endif

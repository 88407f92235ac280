/* agent/site_reset.h — WebArena's "require_reset" on sites eous does not own.
 *
 * A site NAME (from the task's "sites" list) is resettable when the
 * environment has EOUS_SITE_<NAME>_RESET: a command, split on blanks and run
 * without a shell (task data never reaches it), e.g.
 * `scripts/wiki reset /tmp/wiki`.  For such sites every task holds a lock on
 * the site for its whole run (reset, page, steps, evaluation), so a reset
 * never lands in the middle of another worker's task:
 *   - a task with "require_reset": true takes it exclusively, runs the
 *     command (bounded time; stdout discarded, stderr inherited), then keeps
 *     it shared;
 *   - any other task on that site takes it shared.
 * The lock is an flock(2) on $TMPDIR/eous-site-<name>-<hash of
 * EOUS_SITE_<NAME>>.lock, so separate processes serving the same site agree.
 * Sites without a reset command are untouched (no lock).
 *
 * The hold is per thread (one task per bench worker at a time):
 * agent_site_enter before the task's page is prepared, agent_site_leave when
 * the task is scored.  Not for nested use on one thread. */
#ifndef EOUS_AGENT_SITE_RESET_H
#define EOUS_AGENT_SITE_RESET_H

#include "agent/task.h"

/* Limit on one reset command, in seconds (override: EOUS_SITE_RESET_TIMEOUT). */
#define AGENT_SITE_RESET_TIMEOUT_S 120

/* Locks t's resettable sites and resets them if t requires it.  A reset
 * command that cannot start, fails or runs out of time → EOUS_E_INFRA with
 * one line naming the site and the command (nothing held on error). */
eous_rc agent_site_enter(const agent_task *t, eous_err *err);
/* Releases what agent_site_enter took on this thread (no-op when nothing). */
void agent_site_leave(void);

#endif

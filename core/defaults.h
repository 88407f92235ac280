/* core/defaults.h — defaults that more than one module (or the CLI and the
 * library) must agree on, named once.  Each options struct's _init takes
 * its value from here; its header comment states it. */
#ifndef EOUS_CORE_DEFAULTS_H
#define EOUS_CORE_DEFAULTS_H

/* The browser window (wd_session_opts) and the viewport actions assume. */
#define EOUS_DEFAULT_WINDOW_WIDTH 1280
#define EOUS_DEFAULT_WINDOW_HEIGHT 900

/* Connecting to a WebDriver endpoint. */
#define EOUS_DEFAULT_CONNECT_TIMEOUT_MS 5000.0

/* Acting (act_exec_opts): one page tool call; the settle: 0 = by its rule
 * (actions/exec.h), else a fixed DOM quiet time (--settle quiet:MS); the
 * rule's short quiet for chained renders; the longest settle wait. */
#define EOUS_DEFAULT_CALL_TIMEOUT_MS 5000.0
#define EOUS_DEFAULT_SETTLE_QUIET_MS 0.0
#define EOUS_DEFAULT_SETTLE_SHORT_MS 30.0
#define EOUS_DEFAULT_SETTLE_CAP_MS 3000.0

/* Perceiving (perc_opts): bound on each page provider call and on what
 * the providers may return. */
#define EOUS_DEFAULT_PROVIDER_TIMEOUT_MS 2000.0
#define EOUS_DEFAULT_PROVIDER_MAX_BYTES ((size_t)8 << 20)

/* One task (agent_run_opts, eous run/bench): WebArena's step budget and a
 * wall-clock budget. */
#define EOUS_DEFAULT_MAX_STEPS 30
#define EOUS_DEFAULT_MAX_SECONDS 600.0

#endif

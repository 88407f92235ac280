/* webdriver/wd.h — W3C WebDriver client over libcurl, CDP passthrough, and
 * chromedriver process management.
 *
 * Ownership: wd_driver and wd_session are opaque handles made by _spawn/_new
 * and released by _free (NULL is fine).  Strings returned through `char **out`
 * are malloc'd and freed by the caller with free(); cJSON values returned
 * through `cJSON **out` are freed by the caller with cJSON_Delete.  cJSON
 * arguments are borrowed.  A session is used by one thread at a time.
 *
 * Errors: W3C errors keep their error string in err->code ("no such element",
 * "stale element reference", ...) and chromedriver's message in err->msg;
 * the eous_rc says what kind of failure it is (EOUS_E_NOT_FOUND, EOUS_E_STALE,
 * EOUS_E_PAGE, EOUS_E_INFRA for a dead browser/driver, EOUS_E_TIMEOUT ...). */
#ifndef EOUS_WD_H
#define EOUS_WD_H

#include <stddef.h>
#include <sys/types.h>

#include "core/core.h"

/* The W3C element reference key. */
#define WD_ELEMENT_KEY "element-6066-11e4-a52e-4f735466cecf"

/* ---- driver processes ---------------------------------------------------- */

typedef struct wd_driver wd_driver;

typedef struct wd_driver_opts {
    const char *chromedriver;   /* binary name or path; NULL = $EOUS_CHROMEDRIVER or "chromedriver" */
    int port;                   /* 0 = a free loopback port */
    const char *log_path;       /* chromedriver's log; NULL = discarded */
    double start_timeout_ms;    /* wait for /status ready; 0 = 15000 */
} wd_driver_opts;

/* Checks that chromedriver and chromium exist (naming the missing binary and
 * its Debian package, EOUS_E_INFRA), spawns chromedriver in its own process
 * group on 127.0.0.1 and waits until /status says ready. */
eous_rc wd_driver_spawn(const wd_driver_opts *opts, wd_driver **out, eous_err *err);
/* "http://127.0.0.1:PORT" (borrowed). */
const char *wd_driver_url(const wd_driver *d);
pid_t wd_driver_pid(const wd_driver *d);
/* Stops chromedriver and every process in its group (its browsers): SIGTERM,
 * a short grace period, then SIGKILL; reaps what it can. */
void wd_driver_free(wd_driver *d);
/* 1 when the driver process is still running. */
int wd_driver_alive(wd_driver *d);

/* Installs SIGINT/SIGTERM handlers that set the interrupt flag (core/util.h)
 * and kill every live driver process group at once, so in-flight calls fail
 * fast and callers clean up along their normal paths.  Idempotent. */
void wd_install_signal_handlers(void);
/* Makes this process a child subreaper so browsers orphaned by a dying
 * chromedriver are reparented here and can be reaped (Linux only; no-op elsewhere). */
void wd_become_subreaper(void);
/* Reaps this process's ended children that no code of eous waits for by pid:
 * orphans reparented here as subreaper that left eous's session (Chromium's
 * crashpad handlers call setsid) or are non-leading members of another
 * process group (a browser whose driver died first).  Without it each ended
 * browser leaves <defunct> entries until eous exits.  Children eous forked
 * itself (chromedriver, the guardian, a reset script) are left to their
 * owners.  Cheap when nothing ended (one waitid that reaps nothing); returns
 * how many it reaped. */
int wd_reap_orphans(void);

/* ---- the guardian (webdriver/guard.c) ------------------------------------ */

/* Reaps what a crashed eous recorded in state_dir, then forks a guardian
 * process tied to this one by a pipe and records every driver process group,
 * remote session and browser profile dir started from now on (in the pipe and
 * in state_dir/.eous-guard-PID.log).  When this process exits in any way,
 * SIGKILL included, the guardian kills the groups, deletes the remote sessions
 * and removes the dirs still recorded, then exits.  Call before any thread or
 * driver starts; idempotent. */
eous_rc wd_guard_start(const char *state_dir, eous_err *err);
/* Closes the pipe (the guardian acts on what is left and exits), waits for it
 * and removes the record file.  No-op without a guardian. */
void wd_guard_stop(void);
pid_t wd_guard_pid(void);
/* Reaps the records of eous processes that are gone (only groups whose leader
 * start time matches the record); returns how many records it acted on. */
int wd_guard_reap_leftovers(const char *state_dir);
/* Used by the driver and session code; no-ops without a guardian. */
void wd_guard_track_group(pid_t pgid);
void wd_guard_release_group(pid_t pgid);
void wd_guard_track_session(const char *session_url);
void wd_guard_release_session(const char *session_url);
void wd_guard_track_dir(const char *path);
void wd_guard_release_dir(const char *path);
/* /proc start time of pid in clock ticks since boot; 0 when it is gone. */
unsigned long long wd_proc_start_time(pid_t pid);

/* Path of the chromium binary eous launches: $EOUS_CHROMIUM or /usr/bin/chromium. */
const char *wd_chromium_path(void);

/* ---- sessions ------------------------------------------------------------ */

typedef struct wd_session wd_session;

typedef struct wd_session_opts {
    const char *chromium;       /* browser binary; NULL = wd_chromium_path() for local drivers */
    int headless;               /* default 1 */
    int width, height;          /* window size, default 1280x900 */
    int remote;                 /* 1: URL is a remote WebDriver/Grid: no local profile dir or binary */
    const char *const *extra_args; /* NULL-terminated extra browser args, or NULL */
    double connect_timeout_ms;  /* default 5000 */
    double request_timeout_ms;  /* default 60000 (per HTTP request) */
    double script_timeout_ms;   /* W3C script timeout, default 30000 */
    double page_load_timeout_ms;/* default 30000 */
    int w3c_only;               /* 1: never use CDP, as on endpoints without it (perception and
                                 * actions then work through W3C scripts alone) */
    int network_log;            /* 1: chromedriver keeps CDP Network events in its "performance"
                                 * log (goog:loggingPrefs), read with wd_perf_log; not with w3c_only */
    const char *debugger_address; /* "HOST:PORT" of a running Chromium to attach to (its
                                 * --remote-debugging-port): nothing is launched, no profile dir is
                                 * made, and freeing the session leaves that browser running */
} wd_session_opts;

void wd_session_opts_init(wd_session_opts *o);
/* A running Chromium's DevTools endpoint as a person gives it (http://HOST:PORT, ws://HOST:PORT/...,
 * HOST:PORT) into out as debugger_address's "HOST:PORT"; HOST must be loopback (127.0.0.1, localhost,
 * [::1]).  EOUS_E_INVALID naming the input otherwise. */
eous_rc wd_cdp_endpoint_parse(const char *in, char *out, size_t n, eous_err *err);
/* The switches chromedriver adds to a browser it launches, NULL-terminated: a Chromium started to be
 * attached to (debugger_address) with these and wd_browser_args' behaves as one chromedriver launched. */
const char *const *wd_attach_switches(void);
/* Whether a Chromium answers DevTools at addr ("HOST:PORT"): 0, or EOUS_E_INFRA saying how to start one. */
eous_rc wd_cdp_endpoint_probe(const char *addr, eous_err *err);
/* The flags eous launches Chromium with for o (headless, window size, the
 * fixed ones, extra_args), and --user-data-dir when profile_dir is set: a
 * JSON array of strings, for callers that launch the browser themselves. */
cJSON *wd_browser_args(const wd_session_opts *o, const char *profile_dir);
/* Creates a session on the WebDriver endpoint `url` (chromedriver or Grid). */
eous_rc wd_session_new(const char *url, const wd_session_opts *opts, wd_session **out, eous_err *err);
/* Deletes the session (best effort) and removes its fresh profile directory. */
void wd_session_free(wd_session *s);
const char *wd_session_id(const wd_session *s);
/* Returned capabilities (borrowed). */
const cJSON *wd_session_capabilities(const wd_session *s);
/* 1 when goog/cdp/execute works on this endpoint (probed at session start);
 * 0 for w3c_only sessions, whose wd_cdp calls fail with EOUS_E_INVALID. */
int wd_session_has_cdp(const wd_session *s);
/* Per-request HTTP timeout for the following calls (0 restores the default). */
void wd_session_set_request_timeout(wd_session *s, double ms);
/* Number of HTTP round trips made so far (for perception/actions accounting). */
unsigned long wd_session_round_trips(const wd_session *s);
/* Milliseconds spent waiting on the endpoint's requests so far (an agent
 * program's per-step cost is the time between them: agent/loop.c). */
double wd_session_wait_ms(const wd_session *s);
/* Keeps the start (eous_now_ms's clock) of the next request; timing_first
 * returns it, 0 while none has started since the mark. */
void wd_session_timing_mark(wd_session *s);
double wd_session_timing_first(const wd_session *s);

/* GET /status: *ready = value.ready. */
eous_rc wd_status(const char *url, double timeout_ms, int *ready, eous_err *err);

/* ---- commands ------------------------------------------------------------ */

/* Any W3C command: METHOD /session/{id}PATH with body (NULL = "{}" for POST).
 * *value_out (may be NULL) receives the response's "value". */
eous_rc wd_command(wd_session *s, const char *method, const char *path, const cJSON *body,
                   cJSON **value_out, eous_err *err);

eous_rc wd_navigate(wd_session *s, const char *url, eous_err *err);
/* Opens the first page of a task or a command.  A page that could not be
 * loaded (connection refused, DNS, TLS: Chromium shows its error page) or that
 * answered 5xx is EOUS_E_INFRA naming the network error or the status: the
 * site is down, not the task failed.  Later navigations use wd_navigate. */
eous_rc wd_navigate_start(wd_session *s, const char *url, eous_err *err);
eous_rc wd_get_url(wd_session *s, char **out, eous_err *err);
eous_rc wd_get_title(wd_session *s, char **out, eous_err *err);
eous_rc wd_back(wd_session *s, eous_err *err);
eous_rc wd_forward(wd_session *s, eous_err *err);
eous_rc wd_refresh(wd_session *s, eous_err *err);
eous_rc wd_get_page_source(wd_session *s, char **out, eous_err *err);

eous_rc wd_window_handle(wd_session *s, char **out, eous_err *err);
/* *out: JSON array of handle strings. */
eous_rc wd_window_handles(wd_session *s, cJSON **out, eous_err *err);
/* type "tab" or "window"; *handle_out may be NULL. */
eous_rc wd_new_window(wd_session *s, const char *type, char **handle_out, eous_err *err);
eous_rc wd_switch_window(wd_session *s, const char *handle, eous_err *err);
eous_rc wd_close_window(wd_session *s, eous_err *err);
eous_rc wd_set_window_rect(wd_session *s, int width, int height, eous_err *err);

/* Runs `script` (a function body) with `args` (a JSON array or NULL); Promise
 * results are awaited.  A thrown page error gives EOUS_E_PAGE, code "javascript error". */
eous_rc wd_execute(wd_session *s, const char *script, const cJSON *args, cJSON **out, eous_err *err);
/* Async form: the script calls arguments[arguments.length-1](result). */
eous_rc wd_execute_async(wd_session *s, const char *script, const cJSON *args, cJSON **out, eous_err *err);
eous_rc wd_set_timeouts(wd_session *s, long script_ms, long page_load_ms, long implicit_ms, eous_err *err);

/* using: "css selector" | "xpath" | "link text" | "tag name". */
eous_rc wd_find(wd_session *s, const char *using, const char *value, char **elem_out, eous_err *err);
/* *out: JSON array of element id strings (possibly empty). */
eous_rc wd_find_all(wd_session *s, const char *using, const char *value, cJSON **out, eous_err *err);
eous_rc wd_element_click(wd_session *s, const char *elem, eous_err *err);
eous_rc wd_element_clear(wd_session *s, const char *elem, eous_err *err);
eous_rc wd_element_send_keys(wd_session *s, const char *elem, const char *text, eous_err *err);
eous_rc wd_element_property(wd_session *s, const char *elem, const char *name, cJSON **out, eous_err *err);
/* *out NULL when the attribute is absent. */
eous_rc wd_element_attribute(wd_session *s, const char *elem, const char *name, char **out, eous_err *err);
eous_rc wd_element_text(wd_session *s, const char *elem, char **out, eous_err *err);
typedef struct wd_rect { double x, y, width, height; } wd_rect;
eous_rc wd_element_rect(wd_session *s, const char *elem, wd_rect *out, eous_err *err);
eous_rc wd_element_computed_role(wd_session *s, const char *elem, char **out, eous_err *err);
eous_rc wd_element_computed_label(wd_session *s, const char *elem, char **out, eous_err *err);

/* W3C actions: `actions` is the array of input sources. */
eous_rc wd_perform_actions(wd_session *s, const cJSON *actions, eous_err *err);
eous_rc wd_release_actions(wd_session *s, eous_err *err);
/* Presses a key chord such as "Enter", "Control+a", "Shift+Tab", "PageDown". */
eous_rc wd_press_keys(wd_session *s, const char *chord, eous_err *err);
/* Wheel scroll by (dx, dy) CSS pixels at viewport point (x, y). */
eous_rc wd_wheel(wd_session *s, int x, int y, int dx, int dy, eous_err *err);
/* Moves the pointer to viewport point (x, y) and clicks (button 0). */
eous_rc wd_click_at(wd_session *s, double x, double y, eous_err *err);
/* Clicks at viewport point (x, y), then types `keys` (UTF-8, as Element Send
 * Keys takes them: WebDriver's private-use key codes, Shift/Control/Alt/Meta
 * toggling until pressed again or the end, the NULL key releasing them) into
 * whatever has the focus then: one W3C actions request, the same trusted
 * pointer and key events as a click and a send keys. */
eous_rc wd_click_type_at(wd_session *s, double x, double y, const char *keys, eous_err *err);
/* Types `keys` (as wd_click_type_at takes them) into whatever has the focus:
 * one W3C actions request of key events. */
eous_rc wd_type_keys(wd_session *s, const char *keys, eous_err *err);
/* Moves the pointer to viewport point (x, y). */
eous_rc wd_move_to(wd_session *s, double x, double y, eous_err *err);

/* PNG bytes of the viewport (caller frees). */
eous_rc wd_screenshot(wd_session *s, unsigned char **png, size_t *len, eous_err *err);

/* Takes (and so empties) chromedriver's "performance" log: *out = a list of
 * {message, timestamp, level}, message a JSON text {"message": {method,
 * params}}.  Needs network_log; caller frees *out. (webdriver/perflog.c) */
eous_rc wd_perf_log(wd_session *s, cJSON **out, eous_err *err);
/* 1 when the session was opened with network_log (and CDP). */
int wd_session_has_network_log(const wd_session *s);

/* Chrome DevTools Protocol command through goog/cdp/execute; *out = result. */
eous_rc wd_cdp(wd_session *s, const char *cmd, const cJSON *params, cJSON **out, eous_err *err);

/* The same, returning the raw HTTP body ({"value": RESULT}) for callers that
 * scan big results without building a cJSON tree; *body is malloc'd. */
eous_rc wd_cdp_raw(wd_session *s, const char *cmd, const cJSON *params, char **body, size_t *len, eous_err *err);

/* {"element-6066-...": id} (caller frees with cJSON_Delete). */
cJSON *wd_element_ref(const char *elem_id);
/* The element id inside a W3C element reference, or NULL (borrowed). */
const char *wd_element_id_of(const cJSON *value);

/* Maps a W3C error string to an eous_rc. */
eous_rc wd_error_rc(const char *w3c_error, const char *message);

/* When err is the driver's "unexpected alert open" (it dismissed a dialog
 * the page opened), copies the dialog's text into out and returns 1; 0 for
 * any other error.  The text comes from the error's data.text (W3C) or
 * chromedriver's "{Alert text : ...}", whichever the driver sent. */
int wd_alert_text(const eous_err *err, char *out, size_t out_size);

/* Translates a chord name ("Enter", "Control", "a") to its WebDriver key code
 * as UTF-8 into out; returns 0 on success, -1 for an unknown key name. */
int wd_key_code(const char *name, char out[8]);

#endif

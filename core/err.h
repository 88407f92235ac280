/* core/err.h — error codes and the one-line error carried by every eous call.
 *
 * Every fallible function returns an eous_rc (0 = ok) and, when it fails,
 * writes a one-line human message into the eous_err the caller passed (which
 * may be NULL when the caller does not care).  The struct is plain data owned
 * by the caller; nothing in it needs freeing. */
#ifndef EOUS_CORE_ERR_H
#define EOUS_CORE_ERR_H

#include <stddef.h>

typedef enum eous_rc {
    EOUS_OK = 0,
    EOUS_E_INVALID,     /* bad input: usage, task file, params, policy file */
    EOUS_E_NOMEM,       /* allocation failed */
    EOUS_E_LIMIT,       /* a bounded buffer or budget was exceeded */
    EOUS_E_PARSE,       /* malformed JSON or text from the page, model or network */
    EOUS_E_IO,          /* file system */
    EOUS_E_INFRA,       /* browser, driver, grid, network, model endpoint */
    EOUS_E_TIMEOUT,     /* a bounded wait ran out */
    EOUS_E_NOT_FOUND,   /* no such element, component, tool, window */
    EOUS_E_STALE,       /* the target existed in the observation but is gone */
    EOUS_E_PAGE,        /* the page refused: JS error, not interactable, intercepted */
    EOUS_E_POLICY,      /* refused by policy */
    EOUS_E_REJECTED,    /* params rejected by validation against metadata M */
    EOUS_E_INTERRUPTED  /* SIGINT/SIGTERM asked us to stop */
} eous_rc;

#define EOUS_ERR_MSG_MAX 1024

typedef struct eous_err {
    eous_rc rc;
    int http_status;               /* HTTP status when the error came over HTTP, else 0 */
    char code[64];                 /* machine code: W3C error, provider error type, ... */
    char msg[EOUS_ERR_MSG_MAX];    /* one line, no trailing newline */
} eous_err;

/* Sets err (if not NULL) and returns rc, so callers can `return eous_err_set(...)`. */
eous_rc eous_err_set(eous_err *err, eous_rc rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefixes the existing message with "PREFIX: " (context as the error travels up). */
eous_rc eous_err_prefix(eous_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void eous_err_clear(eous_err *err);
/* Sets the machine code string (truncated to fit). */
void eous_err_set_code(eous_err *err, const char *code);

/* Sets err->rc (if err is not NULL) and returns rc: a caller that reclassifies
 * a failure (a page error while starting a session is the infrastructure's)
 * keeps the code it returns and the one on err the same. */
eous_rc eous_err_remap(eous_err *err, eous_rc rc);

/* Short stable name of a code, e.g. "infra", "rejected". */
const char *eous_rc_name(eous_rc rc);

/* The one rule for "is this the infrastructure's failure?": the browser,
 * driver, grid, network or model endpoint failed, or a bounded wait on one of
 * them ran out.  Such a task is recorded as "infra" and rerun by --resume. */
int eous_rc_is_infra(eous_rc rc);
/* 1 when the task cannot be scored at all: an infrastructure failure or an
 * interruption (SIGINT/SIGTERM). */
int eous_rc_ends_task(eous_rc rc);

/* CLI exit codes, derived from the predicates above. */
#define EOUS_EXIT_OK 0
#define EOUS_EXIT_FAILED 1 /* a task failed */
#define EOUS_EXIT_INPUT 2  /* bad input: usage, task file, policy or secrets file */
#define EOUS_EXIT_INFRA 3  /* infrastructure */
/* 0 ok, 2 bad input, 3 infrastructure, 128+signal when interrupted (130 for
 * SIGINT, 143 for SIGTERM, as shells expect; also for an infrastructure
 * failure after the interruption, which killed the browsers), 1 otherwise. */
int eous_rc_exit_code(eous_rc rc);

#endif

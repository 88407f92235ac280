/* core/err.c — see err.h. */
#include "core/err.h"

#include <signal.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

/* Keep messages to one line: newlines from page or driver text become spaces. */
static void flatten(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r' || *s == '\t')
            *s = ' ';
}

eous_rc eous_err_set(eous_err *err, eous_rc rc, const char *fmt, ...)
{
    if (!err)
        return rc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    flatten(err->msg);
    err->rc = rc;
    return rc;
}

eous_rc eous_err_prefix(eous_err *err, const char *fmt, ...)
{
    if (!err)
        return EOUS_OK;
    char prefix[512], old[EOUS_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
    flatten(err->msg);
    return err->rc;
}

void eous_err_clear(eous_err *err)
{
    if (!err)
        return;
    err->rc = EOUS_OK;
    err->http_status = 0;
    err->code[0] = '\0';
    err->msg[0] = '\0';
}

void eous_err_set_code(eous_err *err, const char *code)
{
    if (!err)
        return;
    snprintf(err->code, sizeof err->code, "%s", code ? code : "");
}

const char *eous_rc_name(eous_rc rc)
{
    switch (rc) {
    case EOUS_OK: return "ok";
    case EOUS_E_INVALID: return "invalid";
    case EOUS_E_NOMEM: return "nomem";
    case EOUS_E_LIMIT: return "limit";
    case EOUS_E_PARSE: return "parse";
    case EOUS_E_IO: return "io";
    case EOUS_E_INFRA: return "infra";
    case EOUS_E_TIMEOUT: return "timeout";
    case EOUS_E_NOT_FOUND: return "not_found";
    case EOUS_E_STALE: return "stale";
    case EOUS_E_PAGE: return "page";
    case EOUS_E_POLICY: return "policy";
    case EOUS_E_REJECTED: return "rejected";
    case EOUS_E_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

eous_rc eous_err_remap(eous_err *err, eous_rc rc)
{
    if (err)
        err->rc = rc;
    return rc;
}

int eous_rc_is_infra(eous_rc rc)
{
    return rc == EOUS_E_INFRA || rc == EOUS_E_TIMEOUT;
}

int eous_rc_ends_task(eous_rc rc)
{
    return eous_rc_is_infra(rc) || rc == EOUS_E_INTERRUPTED;
}


int eous_rc_exit_code(eous_rc rc)
{
    if (rc == EOUS_OK)
        return EOUS_EXIT_OK;
    /* a signal kills the browsers first: what failed after it was us stopping */
    if (rc == EOUS_E_INTERRUPTED || (eous_interrupted() && eous_rc_ends_task(rc))) {
        int sig = eous_interrupt_signal();
        return 128 + (sig ? sig : SIGINT);
    }
    if (rc == EOUS_E_INVALID)
        return EOUS_EXIT_INPUT;
    return eous_rc_is_infra(rc) ? EOUS_EXIT_INFRA : EOUS_EXIT_FAILED;
}

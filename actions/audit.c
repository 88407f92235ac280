/* actions/audit.c — the append-only audit log (see audit.h). */
#include "actions/audit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct act_audit {
    int fd;
    char *path;
};

eous_rc act_audit_open(const char *path, act_audit **out, eous_err *err)
{
    *out = NULL;
    act_audit *a = calloc(1, sizeof *a);
    if (!a || !(a->path = strdup(path))) {
        free(a);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory opening the audit log");
    }
    a->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (a->fd < 0) {
        eous_rc rc = eous_err_set(err, EOUS_E_IO, "audit log %s: cannot open for appending: %s", path,
                                  strerror(errno));
        free(a->path);
        free(a);
        return rc;
    }
    *out = a;
    return EOUS_OK;
}

static void iso_now(char *out, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t k = strftime(out, n, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + k, n - k, ".%03ldZ", ts.tv_nsec / 1000000);
}

eous_rc act_audit_write(act_audit *a, const act_audit_entry *e, eous_err *err)
{
    if (!a)
        return EOUS_OK;
    char when[40];
    iso_now(when, sizeof when);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "time", when);
    cJSON_AddStringToObject(o, "url", e->url ? e->url : "");
    cJSON_AddStringToObject(o, "action", e->action ? e->action : "");
    cJSON_AddStringToObject(o, "path", act_path_name(e->path));
    cJSON_AddStringToObject(o, "result", e->result_name ? e->result_name : e->result ? eous_rc_name(e->result) : "ok");
    cJSON_AddStringToObject(o, "message", e->message ? e->message : "");
    if (e->fallback_reason && *e->fallback_reason)
        cJSON_AddStringToObject(o, "fallback_reason", e->fallback_reason);
    cJSON_AddNumberToObject(o, "act_ms", (double)(long)(e->act_ms * 10) / 10);
    cJSON_AddNumberToObject(o, "settle_ms", (double)(long)(e->settle_ms * 10) / 10);
    char *raw = eous_json_print(o);
    cJSON_Delete(o);
    char *line = raw ? eous_redact(raw) : NULL;
    free(raw);
    if (!line)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory writing the audit log");
    char what[4200];
    snprintf(what, sizeof what, "audit log %s", a->path);
    /* one whole line or none: a full disk leaves no torn entry */
    eous_rc rc = eous_append_line(a->fd, line, what, err);
    free(line);
    return rc;
}

void act_audit_close(act_audit *a)
{
    if (!a)
        return;
    close(a->fd);
    free(a->path);
    free(a);
}

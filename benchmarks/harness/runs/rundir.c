/* runs/rundir.c — see rundir.h. */
#define _GNU_SOURCE
#include "runs/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int same_job(const cJSON *a, const cJSON *b)
{
    const char *ai = eous_json_str(a, "task_id"), *am = eous_json_str(a, "mode");
    const char *bi = eous_json_str(b, "task_id"), *bm = eous_json_str(b, "mode");
    return ai && am && bi && bm && !strcmp(ai, bi) && !strcmp(am, bm);
}

static int is_job(const cJSON *r, const char *id, const char *mode)
{
    const char *ri = eous_json_str(r, "task_id"), *rm = eous_json_str(r, "mode");
    return ri && rm && !strcmp(ri, id) && !strcmp(rm, mode);
}

static eous_rc resolve_path(runs_dir *rd, const char *arg, eous_err *err)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return eous_err_set(err, EOUS_E_INVALID, "%s: no such run (expected a run directory or its results.jsonl)",
                            arg);
    if (!S_ISDIR(st.st_mode)) {
        snprintf(rd->path, sizeof rd->path, "%s", arg);
        return EOUS_OK;
    }
    snprintf(rd->path, sizeof rd->path, "%s/results.jsonl", arg);
    if (stat(rd->path, &st) != 0 || !S_ISREG(st.st_mode))
        return eous_err_set(err, EOUS_E_INVALID,
                            "%s: no results.jsonl (expected a run folder written by eous bench or eous run)",
                            arg);
    return EOUS_OK;
}

/* A line the runner wrote: an object with string task_id, mode and status. */
static const char *not_a_result(const cJSON *o)
{
    static const char *required[] = {"task_id", "mode", "status"};
    if (!cJSON_IsObject(o))
        return "not a JSON object (expected one result per line)";
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, required[i])))
            return required[i];
    return NULL;
}

/* Numbers each row's attempt by its position when the writer did not. */
static void number_attempts(cJSON *rows)
{
    for (cJSON *r = rows->child; r; r = r->next) {
        if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "attempt")))
            continue;
        int n = 1;
        for (const cJSON *q = rows->child; q != r; q = q->next)
            n += same_job(q, r);
        cJSON_AddNumberToObject(r, "attempt", n);
    }
}

eous_rc runs_dir_load(const char *arg, int strict, runs_dir *rd, eous_err *err)
{
    memset(rd, 0, sizeof *rd);
    eous_rc rc = resolve_path(rd, arg, err);
    if (rc)
        return rc;
    FILE *f = fopen(rd->path, "r");
    if (!f)
        return eous_err_set(err, EOUS_E_INVALID, "%s: cannot be read: %s", rd->path, strerror(errno));
    if (!(rd->rows = cJSON_CreateArray())) {
        fclose(f);
        return eous_err_set(err, EOUS_E_NOMEM, "%s: out of memory", rd->path);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        int complete = len > 0 && line[len - 1] == '\n';
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (!*p)
            continue;
        cJSON *o = cJSON_ParseWithLength(line, (size_t)len);
        const char *why = not_a_result(o);
        if (!why) {
            cJSON_AddItemToArray(rd->rows, o);
            continue;
        }
        cJSON_Delete(o);
        if (!complete && getline(&line, &cap, f) < 0) { /* the line a crash cut short: it never was a result */
            rd->skipped_tail = 1;
            break;
        }
        if (!strict)
            continue;
        if (!strncmp(why, "not ", 4))
            rc = eous_err_set(err, EOUS_E_INVALID, "%s:%ld: %s", rd->path, lineno, why);
        else
            rc = eous_err_set(err, EOUS_E_INVALID, "%s:%ld: no string \"%s\" (expected a result line of eous)",
                              rd->path, lineno, why);
        break;
    }
    free(line);
    fclose(f);
    if (rc) {
        runs_dir_free(rd);
        return rc;
    }
    number_attempts(rd->rows);
    return EOUS_OK;
}

void runs_dir_free(runs_dir *rd)
{
    cJSON_Delete(rd->rows);
    rd->rows = NULL;
}

int runs_dir_is_last(const cJSON *r)
{
    for (const cJSON *n = r->next; n; n = n->next)
        if (same_job(n, r))
            return 0;
    return 1;
}

const cJSON *runs_dir_last(const runs_dir *rd, const char *id, const char *mode)
{
    const cJSON *last = NULL;
    for (const cJSON *r = rd->rows ? rd->rows->child : NULL; r; r = r->next)
        if (is_job(r, id, mode))
            last = r;
    return last;
}

int runs_dir_attempts(const runs_dir *rd, const char *id, const char *mode)
{
    int n = 0;
    for (const cJSON *r = rd->rows ? rd->rows->child : NULL; r; r = r->next)
        n += is_job(r, id, mode);
    return n;
}

int runs_dir_failed_attempts(const runs_dir *rd)
{
    int n = 0;
    for (const cJSON *r = rd->rows ? rd->rows->child : NULL; r; r = r->next) {
        const char *st = eous_json_str(r, "status");
        n += !runs_dir_is_last(r) && st && eous_status_parse(st) != EOUS_ST_PASSED;
    }
    return n;
}

int runs_dir_status_final(const char *status)
{
    eous_status s = eous_status_parse(status);
    return status && s != EOUS_ST_INFRA && s != EOUS_ST_INTERRUPTED;
}

eous_rc runs_dir_append(const char *out_dir, const char *line, eous_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results.jsonl", out_dir);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return eous_err_set(err, EOUS_E_IO, "%s: cannot append: %s", path, strerror(errno));
    eous_rc rc = eous_append_line(fd, line, path, err);
    close(fd);
    return rc;
}

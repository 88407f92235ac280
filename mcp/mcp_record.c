/* mcp/mcp_record.c — `eous mcp --record DIR`: an agent's session kept as a run folder that
 * `eous distill` reads (issue 52: record once, replay without a model), so what an agent did
 * through MCP becomes a job cron replays.
 *
 * Each session is one "task" of the folder, named mcp-<UTC time>-<pid>-<n>: at its first action
 * a results.jsonl line (status "recorded": no verdict, the person who kept it vouches for it),
 * then per action taken through mcp_run_action_as a line of trace/<name>-<mode>.jsonl in the
 * loop's trace format (step, url, mode, the action's text, "error" when it failed, "observation")
 * and the view it was taken on, trace/<name>-<mode>/step-NN.txt, redacted as a run's are
 * (agent/evidence.h).  The action's text keeps {{secret:NAME}} as the client wrote it.  Tools that
 * act without an action (a drag, a click at a point, routes) are not recorded.  A file that cannot
 * be written is logged once and the session goes on unrecorded: recording never fails a call. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/evidence.h"
#include "mcp/mcp_server_int.h"

struct mcp_record {
    char name[96];      /* the session's task id */
    char trace[4200];   /* DIR/trace/<name>-<mode>.jsonl */
    agent_evidence *ev; /* the views beside it */
    int step;           /* actions recorded so far */
    int broken;         /* a write failed: no more recording */
};

/* One line appended to path (O_APPEND: sessions of one HTTP server may share results.jsonl). */
static eous_rc append_line(const char *path, const cJSON *line, eous_err *err)
{
    char *text = cJSON_PrintUnformatted(line);
    if (!text)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    size_t n = strlen(text);
    text[n] = '\n'; /* the terminator's place: written as one line */
    eous_rc rc = fd < 0 || write(fd, text, n + 1) != (ssize_t)(n + 1)
                     ? eous_err_set(err, EOUS_E_IO, "%s: %s", path, strerror(errno ? errno : EIO))
                     : EOUS_OK;
    if (fd >= 0)
        close(fd);
    free(text);
    return rc;
}

/* The session's name, its results line and its trace folder, at its first action. */
static eous_rc record_begin(mcp_server *m, eous_err *err)
{
    static int sessions; /* this process's sessions so far (an HTTP server has several) */
    struct mcp_record *r = calloc(1, sizeof *r);
    if (!r)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    m->record = r;
    char when[32], results[4200];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(r->name, sizeof r->name, "mcp-%s-%ld-%d", when, (long)getpid(), __atomic_add_fetch(&sessions, 1, __ATOMIC_SEQ_CST));
    const char *mode = perc_mode_name(m->o.mode);
    eous_rc rc = eous_mkdirs(m->o.record_dir, 0700, err);
    if (!rc)
        rc = eous_path_under(r->trace, sizeof r->trace, m->o.record_dir, err, "trace/%s-%s.jsonl", r->name, mode);
    if (!rc)
        rc = eous_path_under(results, sizeof results, m->o.record_dir, err, "results.jsonl");
    if (!rc)
        rc = agent_evidence_new(r->trace, AGENT_SHOTS_NONE, &r->ev, err);
    cJSON *line = rc ? NULL : cJSON_CreateObject();
    if (!rc && !line)
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!rc) {
        cJSON_AddStringToObject(line, "task_id", r->name);
        cJSON_AddStringToObject(line, "mode", mode);
        cJSON_AddStringToObject(line, "planner", "mcp");
        cJSON_AddStringToObject(line, "status", eous_status_name(EOUS_ST_RECORDED));
        cJSON_AddStringToObject(line, "intent", "");
        rc = append_line(results, line, err);
    }
    cJSON_Delete(line);
    return rc;
}

void mcp_record_action(mcp_server *m, const act_action *a, eous_rc rc, const char *message)
{
    if (!m->o.record_dir || (m->record && m->record->broken))
        return;
    eous_err err;
    eous_err_clear(&err);
    eous_rc wrc = m->record ? EOUS_OK : record_begin(m, &err);
    struct mcp_record *r = m->record;
    cJSON *line = wrc ? NULL : cJSON_CreateObject();
    char *action = wrc ? NULL : act_format(a);
    if (!wrc && (!line || !action))
        wrc = eous_err_set(&err, EOUS_E_NOMEM, "out of memory");
    if (!wrc) {
        int step = ++r->step;
        cJSON_AddNumberToObject(line, "step", step);
        if (m->obs) {
            const char *view = perc_obs_text(m->obs);
            cJSON_AddStringToObject(line, "url", perc_obs_url(m->obs));
            cJSON_AddStringToObject(line, "mode", perc_mode_name(perc_obs_mode(m->obs)));
            wrc = agent_evidence_perceived(r->ev, m->b.session, step, view, strlen(view), &err);
            agent_evidence_annotate(r->ev, line);
        }
        cJSON_AddStringToObject(line, "action", action);
        if (a->kind == ACT_TYPE && !a->clear)
            cJSON_AddFalseToObject(line, "clear"); /* typed after what the field held: the text form does not say */
        if (rc) {
            char *clean = eous_redact(message ? message : eous_rc_name(rc));
            cJSON_AddStringToObject(line, "error", clean ? clean : eous_rc_name(rc));
            free(clean);
        }
    }
    if (!wrc)
        wrc = append_line(r->trace, line, &err);
    if (wrc) {
        EOUS_WARN("mcp", "--record %s: %s; this session is no longer recorded", m->o.record_dir, err.msg);
        if (r)
            r->broken = 1;
    }
    free(action);
    cJSON_Delete(line);
}

void mcp_record_free(mcp_server *m)
{
    if (!m->record)
        return;
    agent_evidence_free(m->record->ev);
    free(m->record);
    m->record = NULL;
}

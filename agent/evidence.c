/* agent/evidence.c — see evidence.h. */
#include "agent/evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/shot.h"

#define REL_MAX 512

struct agent_evidence {
    agent_shots shots;
    char dir[4096];           /* OUT/trace/<task>-<mode> */
    char rel_dir[REL_MAX];    /* trace/<task>-<mode>: dir relative to the run directory */
    /* this step's files (relative paths, "" when none) */
    char observation[REL_MAX], screenshot[REL_MAX], failed_screenshot[REL_MAX], vision[REL_MAX];
    char shot_err[256];
    unsigned char *final_png;
    size_t final_len;
    char final_rel[REL_MAX];
};

static const char *const shot_names[] = {[AGENT_SHOTS_NONE] = "none", [AGENT_SHOTS_FAILURE] = "failure",
                                          [AGENT_SHOTS_FINAL] = "final", [AGENT_SHOTS_EVERY] = "every"};

int agent_shots_parse(const char *s, agent_shots *out)
{
    int i = eous_name_find(shot_names, EOUS_NAMES_N(shot_names), s);
    if (i < 0)
        return -1;
    *out = (agent_shots)i;
    return 0;
}

const char *agent_shots_name(agent_shots s)
{
    return eous_name_of(shot_names, EOUS_NAMES_N(shot_names), (int)s, "failure");
}

/* rel_dir = the last two components of dir ("trace/<task>-<mode>"). */
static void set_rel_dir(agent_evidence *ev)
{
    const char *from = ev->dir, *last = strrchr(ev->dir, '/');
    if (last) {
        for (const char *p = last; p > ev->dir; p--)
            if (p[-1] == '/') {
                from = p;
                break;
            }
    }
    snprintf(ev->rel_dir, sizeof ev->rel_dir, "%s", from);
}

eous_rc agent_evidence_new(const char *trace_path, agent_shots shots, agent_evidence **out, eous_err *err)
{
    *out = NULL;
    size_t n = strlen(trace_path);
    if (n > 6 && !strcmp(trace_path + n - 6, ".jsonl"))
        n -= 6;
    agent_evidence *ev = calloc(1, sizeof *ev);
    if (!ev)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (n >= sizeof ev->dir) {
        free(ev);
        return eous_err_set(err, EOUS_E_INVALID, "%s: trace path too long for its evidence directory", trace_path);
    }
    memcpy(ev->dir, trace_path, n);
    ev->shots = shots;
    set_rel_dir(ev);
    /* a rerun (--resume, a retry) replaces the evidence of the last attempt */
    eous_rmtree(ev->dir);
    eous_rc rc = eous_mkdirs(ev->dir, 0755, err);
    if (rc) {
        free(ev);
        return rc;
    }
    *out = ev;
    return EOUS_OK;
}

void agent_evidence_free(agent_evidence *ev)
{
    if (!ev)
        return;
    free(ev->final_png);
    free(ev);
}

/* Writes name atomically; rel (REL_MAX bytes) gets its run-relative path. */
static eous_rc write_named(agent_evidence *ev, const char *name, const void *data, size_t len, char *rel,
                           eous_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", ev->dir, name);
    eous_rc rc = eous_write_file_atomic(path, data, len, err);
    if (!rc)
        snprintf(rel, REL_MAX, "%s/%s", ev->rel_dir, name);
    return rc;
}

/* Takes a masked screenshot and writes it as name; a browser that cannot
 * take it only leaves a note for the trace line. */
static eous_rc shoot(agent_evidence *ev, wd_session *s, const char *name, char *rel, eous_err *err)
{
    unsigned char *png = NULL;
    size_t len = 0;
    eous_err serr;
    eous_err_clear(&serr);
    if (perc_screenshot(s, &png, &len, &serr)) {
        snprintf(ev->shot_err, sizeof ev->shot_err, "%s", serr.msg);
        return EOUS_OK;
    }
    eous_rc rc = write_named(ev, name, png, len, rel, err);
    free(png);
    return rc;
}

eous_rc agent_evidence_perceived(agent_evidence *ev, wd_session *s, int step, const char *text, size_t len,
                                 eous_err *err)
{
    if (!ev)
        return EOUS_OK;
    char *copy = malloc(len + 1);
    if (!copy)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (len)
        memcpy(copy, text, len);
    copy[len] = '\0';
    char *clean = eous_redact(copy);
    free(copy);
    if (!clean)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    char name[32];
    snprintf(name, sizeof name, "step-%02d.txt", step);
    eous_rc rc = write_named(ev, name, clean, strlen(clean), ev->observation, err);
    free(clean);
    if (rc || ev->shots != AGENT_SHOTS_EVERY)
        return rc;
    snprintf(name, sizeof name, "step-%02d.png", step);
    return shoot(ev, s, name, ev->screenshot, err);
}

eous_rc agent_evidence_vision(agent_evidence *ev, int step, const unsigned char *png, size_t len, eous_err *err)
{
    if (!ev)
        return EOUS_OK;
    char name[32];
    snprintf(name, sizeof name, "step-%02d-vision.png", step);
    return write_named(ev, name, png, len, ev->vision, err);
}

eous_rc agent_evidence_failed(agent_evidence *ev, wd_session *s, int step, eous_err *err)
{
    if (!ev || ev->shots == AGENT_SHOTS_NONE)
        return EOUS_OK;
    char name[32];
    snprintf(name, sizeof name, "step-%02d-failed.png", step);
    return shoot(ev, s, name, ev->failed_screenshot, err);
}

void agent_evidence_annotate(agent_evidence *ev, cJSON *line)
{
    if (!ev)
        return;
    if (ev->observation[0])
        cJSON_AddStringToObject(line, "observation", ev->observation);
    if (ev->screenshot[0])
        cJSON_AddStringToObject(line, "screenshot", ev->screenshot);
    if (ev->failed_screenshot[0])
        cJSON_AddStringToObject(line, "failed_screenshot", ev->failed_screenshot);
    if (ev->vision[0])
        cJSON_AddStringToObject(line, "vision_screenshot", ev->vision);
    if (ev->shot_err[0])
        cJSON_AddStringToObject(line, "screenshot_error", ev->shot_err);
    ev->observation[0] = ev->screenshot[0] = ev->failed_screenshot[0] = ev->vision[0] = ev->shot_err[0] = '\0';
}

void agent_evidence_capture_final(agent_evidence *ev, wd_session *s)
{
    if (!ev || ev->shots == AGENT_SHOTS_NONE)
        return;
    free(ev->final_png);
    ev->final_png = NULL;
    ev->final_len = 0;
    eous_err serr;
    eous_err_clear(&serr);
    if (perc_screenshot(s, &ev->final_png, &ev->final_len, &serr))
        EOUS_INFO("evidence", "%s: no final screenshot: %s", ev->rel_dir, serr.msg);
}

int agent_evidence_wants_final(const agent_evidence *ev, int passed)
{
    return ev && ev->shots != AGENT_SHOTS_NONE && !(passed && ev->shots == AGENT_SHOTS_FAILURE);
}

eous_rc agent_evidence_keep_final(agent_evidence *ev, int passed, eous_err *err)
{
    if (!ev || !ev->final_png || !agent_evidence_wants_final(ev, passed))
        return EOUS_OK;
    return write_named(ev, "final.png", ev->final_png, ev->final_len, ev->final_rel, err);
}

const char *agent_evidence_final(const agent_evidence *ev)
{
    return ev && ev->final_rel[0] ? ev->final_rel : NULL;
}

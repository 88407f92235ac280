/* agent/outputs.c — a task's output and downloads, from the executor into
 * its result, its schema check and output.json (see outputs.h). */
#include "agent/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/rpa.h"
#include "core/schema.h"

/* trace/<task>-<mode>.jsonl → trace/<task>-<mode> (into out). */
static void evidence_dir(const char *trace_path, char *out, size_t n)
{
    size_t len = strlen(trace_path);
    if (len > 6 && !strcmp(trace_path + len - 6, ".jsonl"))
        len -= 6;
    snprintf(out, n, "%.*s", (int)len, trace_path);
}

/* The last two parts of dir: "trace/<task>-<mode>", as paths in results are written. */
static const char *rel_dir(const char *dir)
{
    const char *last = strrchr(dir, '/');
    if (!last)
        return dir;
    const char *p = last;
    while (p > dir && p[-1] != '/')
        p--;
    return p == last ? last + 1 : p;
}

void agent_downloads_dir(const char *trace_path, char *out, size_t n)
{
    char dir[4096];
    evidence_dir(trace_path, dir, sizeof dir);
    snprintf(out, n, "%s/downloads", dir);
}

eous_rc agent_outputs_finish(const agent_job *t, const struct act_exec *x, const char *trace_path, agent_result *res,
                             eous_err *err)
{
    const cJSON *out = act_exec_output(x), *dl = act_exec_downloads(x);
    char dir[4096] = "";
    if (trace_path)
        evidence_dir(trace_path, dir, sizeof dir);
    if (dl && !(res->rpa.downloads = cJSON_Duplicate(dl, 1)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON *d;
    cJSON_ArrayForEach(d, res->rpa.downloads) {
        char rel[1024];
        eous_rc rc = eous_path_under(rel, sizeof rel, rel_dir(dir), err, "downloads/%s", eous_json_str(d, "name"));
        if (rc)
            return rc;
        cJSON_AddStringToObject(d, "file", rel);
    }
    if (res->status != EOUS_ST_PASSED)
        return EOUS_OK; /* the output of a task that failed goes nowhere */
    char why[512];
    if (t->output_schema && !eous_schema_validate(t->output_schema, out, why, sizeof why)) {
        res->status = EOUS_ST_FAILED;
        res->stop_reason = AGENT_STOP_OUTPUT_SCHEMA;
        snprintf(res->error, sizeof res->error, "output_schema: %s", why);
        res->score = 0;
        return EOUS_OK;
    }
    if (out && !(res->rpa.output = cJSON_Duplicate(out, 1)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!res->rpa.output || !dir[0])
        return EOUS_OK;
    char *text = cJSON_Print(res->rpa.output);
    /* page text may carry a value typed from a secret */
    char *clean = text ? eous_redact(text) : NULL;
    free(text);
    if (!clean)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    char path[4200];
    snprintf(path, sizeof path, "%s/output.json", dir);
    eous_rc rc = eous_write_file_atomic(path, clean, strlen(clean), err);
    free(clean);
    if (!rc)
        snprintf(res->rpa.output_file, sizeof res->rpa.output_file, "%s/output.json", rel_dir(dir));
    return rc;
}

/* Past this many bytes the output stays in output.json only: results.jsonl lines stay small enough to read. */
#define MAX_INLINE_OUTPUT (64 * 1024)

void agent_outputs_json(const agent_result *r, cJSON *line)
{
    char *text = r->rpa.output ? cJSON_PrintUnformatted(r->rpa.output) : NULL;
    if (text && strlen(text) <= MAX_INLINE_OUTPUT)
        cJSON_AddItemToObject(line, "output", cJSON_Duplicate(r->rpa.output, 1));
    else if (text)
        cJSON_AddTrueToObject(line, "output_in_file_only");
    cJSON_free(text);
    if (r->rpa.output_file[0])
        cJSON_AddStringToObject(line, "output_file", r->rpa.output_file);
    if (r->rpa.downloads)
        cJSON_AddItemToObject(line, "downloads", cJSON_Duplicate(r->rpa.downloads, 1));
    if (r->rpa.repaired)
        cJSON_AddTrueToObject(line, "repaired");
}

/* agent/repair.c — --repair llm (see repair.h): the question to the model,
 * its answer as a task file's step, repair.json, and `eous repair apply`. */
#define _GNU_SOURCE /* strndup, realpath, PATH_MAX */
#include "agent/repair.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "llm/llm.h"

/* View lines kept in repair.json around the new target. */
#define EXCERPT_LINES 3

int agent_repair_wanted(const act_action *a, eous_rc rc, const char *msg)
{
    if (!a->from_script || !act_kind_has_target(a->kind))
        return 0;
    /* missing ("no button 'X' on the page") or ambiguous ("names 2 components") */
    return rc == EOUS_E_NOT_FOUND || (rc == EOUS_E_INVALID && msg && strstr(msg, " names ") && strstr(msg, "components"));
}

eous_rc agent_repair_ask(struct llm_client *llm, const perc_obs *obs, const char *intent,
                         const act_action *failed, const char *error, act_action *out, struct llm_usage *usage,
                         eous_err *err)
{
    char *step = act_format(failed);
    char objective[3072];
    snprintf(objective, sizeof objective,
             "%s\n\nThis task runs a fixed script. Its step \"%s\" failed: %s. The page may have changed (a label "
             "renamed, a field moved). Answer with the ONE action on the page below that does what that step meant "
             "to do; do not stop and do not navigate.",
             intent ? intent : "", step ? step : act_kind_name(failed->kind), error);
    free(step);
    llm_step_input in;
    memset(&in, 0, sizeof in);
    in.objective = objective;
    in.url = perc_obs_url(obs);
    in.observation = perc_obs_text(obs);
    in.mode = perc_obs_mode(obs); /* the prompt explains the view the model reads */
    in.max_batch = 1;
    eous_rc rc = llm_next_action(llm, &in, out, usage, err);
    if (rc)
        return rc;
    if (!act_kind_has_target(out->kind)) {
        char *got = act_format(out);
        rc = eous_err_set(err, EOUS_E_REJECTED, "repair: the model answered %s, which acts on nothing on the page",
                          got ? got : act_kind_name(out->kind));
        free(got);
        act_action_clear(out);
    }
    return rc;
}

/* "role 'name'" (with " #N" when it is not the first of its kind) for the node of view id `id`. */
static int element_target(const perc_obs *obs, const char *id, char *out, size_t n)
{
    int backend = 0;
    if (perc_obs_resolve_id(obs, id, &backend, NULL))
        return -1;
    const perc_node *node = perc_obs_node_by_backend(obs, backend);
    if (!node || !node->role || !node->name || strchr(node->name, '\''))
        return -1;
    for (int nth = 1; nth < 100; nth++) {
        int b = 0;
        if (perc_obs_find_role_name(obs, node->role, node->name, nth, &b, NULL))
            return -1;
        if (b == backend) {
            if (nth == 1)
                snprintf(out, n, "%s '%s'", node->role, node->name);
            else
                snprintf(out, n, "%s '%s' #%d", node->role, node->name, nth);
            return 0;
        }
    }
    return -1;
}

cJSON *agent_repair_script_step(const perc_obs *obs, const act_action *model, const cJSON *original)
{
    char target[700];
    if (model->kind == ACT_CALL) {
        const perc_component *c = perc_obs_find_component(obs, model->target ? model->target : "");
        if (!c)
            return NULL;
        snprintf(target, sizeof target, "%s", c->label && *c->label ? c->label : c->key);
    } else if (element_target(obs, model->target ? model->target : "", target, sizeof target)) {
        return NULL;
    }
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, act_kind_name(model->kind), target);
    switch (model->kind) {
    case ACT_CALL:
        cJSON_AddStringToObject(s, "tool", model->tool ? model->tool : "");
        cJSON_AddItemToObject(s, "params", model->params ? cJSON_Duplicate(model->params, 1) : cJSON_CreateObject());
        break;
    case ACT_TYPE:
        cJSON_AddStringToObject(s, "text", model->text ? model->text : "");
        cJSON_AddBoolToObject(s, "enter", model->enter);
        if (!model->clear)
            cJSON_AddFalseToObject(s, "clear");
        break;
    case ACT_SELECT: cJSON_AddStringToObject(s, "option", model->text ? model->text : ""); break;
    default: break;
    }
    static const char *const keep[] = {"retries", "timeout_ms"};
    for (size_t i = 0; i < 2; i++) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(original, keep[i]);
        if (k)
            cJSON_AddItemToObject(s, keep[i], cJSON_Duplicate(k, 1));
    }
    return s;
}

/* The view's lines around the first that names what (perception's reading of the view: an element or
 * component so named), all of the first lines when none does. */
static char *excerpt(const char *view, const char *what)
{
    perc_lines *ls;
    if (perc_lines_read(view, strlen(view), &ls, NULL) != EOUS_OK)
        return NULL;
    size_t n = perc_lines_count(ls), hit = n, first = 0, last;
    for (size_t i = 0; what && *what && i < n && hit == n; i++) {
        const perc_line *l = perc_lines_at(ls, i);
        for (size_t k = 0; k < l->n_items && hit == n; k++)
            if (perc_span_is(l->items[k].name, what, strlen(what)))
                hit = i;
    }
    if (hit < n) {
        first = hit > EXCERPT_LINES ? hit - EXCERPT_LINES : 0;
        last = hit + EXCERPT_LINES;
    } else {
        last = 2 * EXCERPT_LINES;
    }
    char *clean = NULL;
    if (n) {
        if (last >= n)
            last = n - 1;
        /* from the first line's tabs to the last line's end and its newline */
        const perc_line *a = perc_lines_at(ls, first), *b = perc_lines_at(ls, last);
        const char *from = a->whole.s - a->depth, *to = b->whole.s + b->whole.len + (last + 1 < n);
        char *copy = strndup(from, (size_t)(to - from));
        clean = copy ? eous_redact(copy) : NULL;
        free(copy);
    } else {
        clean = strdup("");
    }
    perc_lines_free(ls);
    return clean;
}

void agent_repair_log_add(agent_repair_log *log, const char *plan, int index, int sub, const cJSON *original,
                          const cJSON *replacement, const char *model_action, const char *error, const char *view)
{
    if (!log->repairs && !(log->repairs = cJSON_CreateArray()))
        return;
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "plan", plan);
    cJSON_AddNumberToObject(r, "index", index);
    if (sub >= 0)
        cJSON_AddNumberToObject(r, "action", sub);
    cJSON_AddItemToObject(r, "original", cJSON_Duplicate(original, 1));
    cJSON_AddItemToObject(r, "replacement", replacement ? cJSON_Duplicate(replacement, 1) : cJSON_CreateNull());
    cJSON_AddStringToObject(r, "model_action", model_action ? model_action : "");
    cJSON_AddStringToObject(r, "error", error ? error : "");
    /* the new target's line: its quoted name when it has one */
    const char *q = replacement && replacement->child && cJSON_IsString(replacement->child)
                        ? strchr(replacement->child->valuestring, '\'') : NULL;
    char name[256] = "";
    if (q)
        snprintf(name, sizeof name, "%.*s", (int)strcspn(q + 1, "'"), q + 1);
    char *ex = excerpt(view ? view : "", name[0] ? name : NULL);
    cJSON_AddStringToObject(r, "view_excerpt", ex ? ex : "");
    free(ex);
    cJSON_AddItemToArray(log->repairs, r);
}

void agent_repair_log_free(agent_repair_log *log)
{
    cJSON_Delete(log->repairs);
    log->repairs = NULL;
}

eous_rc agent_repair_log_write(const agent_repair_log *log, const agent_job *t, const char *mode, int passed,
                               const char *trace_path, eous_err *err)
{
    if (!log->repairs || !trace_path)
        return EOUS_OK;
    size_t n = strlen(trace_path);
    if (n > 6 && !strcmp(trace_path + n - 6, ".jsonl"))
        n -= 6;
    char path[4200];
    snprintf(path, sizeof path, "%.*s/repair.json", (int)n, trace_path);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "task_id", t->id);
    cJSON_AddStringToObject(o, "mode", mode);
    cJSON_AddStringToObject(o, "task_file", t->file ? t->file : "");
    cJSON_AddNumberToObject(o, "config", t->index);
    cJSON_AddBoolToObject(o, "passed", passed);
    cJSON_AddItemToObject(o, "repairs", cJSON_Duplicate(log->repairs, 1));
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    char *clean = text ? eous_redact(text) : NULL;
    free(text);
    if (!clean)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_rc rc = eous_write_file_atomic(path, clean, strlen(clean), err);
    free(clean);
    return rc;
}

/* ---- eous repair apply --------------------------------------------------------- */

/* The steps a repair's plan ("script", "atomic_script") names in a task file: a plain job writes
 * them "steps" and "atomic_steps", and atomic mode runs the steps of a file without atomic ones. */
static cJSON *plan_steps(cJSON *cfg, const char *plan)
{
    static const char *const atomic[] = {"atomic_script", "atomic_steps", "script", "steps"};
    int from = plan && !strcmp(plan, "script") ? 2 : 0;
    cJSON *s = plan ? cJSON_GetObjectItemCaseSensitive(cfg, plan) : NULL;
    for (int i = from; !s && plan && (from || !strcmp(plan, "atomic_script")) && i < 4; i++)
        s = cJSON_GetObjectItemCaseSensitive(cfg, atomic[i]);
    return s;
}

/* Replaces the repaired steps of one task config in place. */
static eous_rc apply_one(cJSON *cfg, const cJSON *rep, const char *file, eous_err *err)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, eous_json_arr(rep, "repairs")) {
        const char *plan = eous_json_str(r, "plan");
        cJSON *steps = plan_steps(cfg, plan);
        cJSON *step = cJSON_GetArrayItem(steps, eous_json_int(r, "index", -1));
        int sub = eous_json_int(r, "action", -1);
        const cJSON *with = cJSON_GetObjectItemCaseSensitive(r, "replacement");
        if (!step || (sub >= 0 && !cJSON_GetArrayItem(step, sub)) || !cJSON_IsObject(with))
            return eous_err_set(err, EOUS_E_INVALID, "%s: repair of %s step %d does not fit the file (edited since?)",
                                file, plan ? plan : "?", eous_json_int(r, "index", -1) + 1);
        if (sub >= 0)
            cJSON_ReplaceItemInArray(step, sub, cJSON_Duplicate(with, 1));
        else
            cJSON_ReplaceItemInArray(steps, eous_json_int(r, "index", -1), cJSON_Duplicate(with, 1));
    }
    return EOUS_OK;
}

static eous_rc apply_file(const char *run_dir, const char *rep_path, FILE *out, int *written, eous_err *err)
{
    cJSON *rep = eous_json_parse_file(rep_path, 0, err);
    if (!rep)
        return eous_err_remap(err, EOUS_E_INVALID);
    eous_rc rc = EOUS_OK;
    const char *file = eous_json_str(rep, "task_file");
    cJSON *doc = NULL;
    if (!eous_json_bool(rep, "passed", 0) || !file || !*file)
        goto done; /* a repair that did not make the task pass proposes nothing */
    if (!(doc = eous_json_parse_file(file, 0, err))) {
        rc = eous_err_remap(err, EOUS_E_INVALID);
        goto done;
    }
    cJSON *cfg = cJSON_IsArray(doc) ? cJSON_GetArrayItem(doc, eous_json_int(rep, "config", 0)) : doc;
    if (!cfg || (rc = apply_one(cfg, rep, file, err)))
        goto done;
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char dir[4200], path[4400];
    snprintf(dir, sizeof dir, "%s/repaired", run_dir);
    if ((rc = eous_mkdirs(dir, 0755, err)))
        goto done;
    snprintf(path, sizeof path, "%s/%s", dir, base);
    char *text = cJSON_Print(doc);
    if (!text) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    size_t len = strlen(text);
    text[len] = '\0';
    if (!(rc = eous_write_file_atomic(path, text, len, err))) {
        fprintf(out, "%s: %d step(s) replaced (task %s, from %s)\n", path,
                cJSON_GetArraySize(eous_json_arr(rep, "repairs")), eous_json_str(rep, "task_id"), file);
        (*written)++;
    }
    free(text);
done:
    cJSON_Delete(doc);
    cJSON_Delete(rep);
    return rc;
}

eous_rc agent_repair_apply(const char *run_dir, FILE *out, int *written, eous_err *err)
{
    *written = 0;
    char trace[4200];
    snprintf(trace, sizeof trace, "%s/trace", run_dir);
    DIR *d = opendir(trace);
    if (!d)
        return eous_err_set(err, EOUS_E_INVALID, "%s: not a run directory (no trace/)", run_dir);
    eous_rc rc = EOUS_OK;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char rep[4600];
        snprintf(rep, sizeof rep, "%s/%s/repair.json", trace, e->d_name);
        FILE *f = fopen(rep, "r");
        if (!f)
            continue;
        fclose(f);
        rc = apply_file(run_dir, rep, out, written, err);
    }
    closedir(d);
    return rc;
}

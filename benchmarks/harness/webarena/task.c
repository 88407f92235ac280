/* webarena/task.c — see task.h. */
#define _GNU_SOURCE
#include "webarena/task.h"
#include "webarena/verified_task.h"

#include "actions/action.h"
#include "webarena/params.h"
#include "core/schema.h"
#include "webarena/site_pool.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

eous_rc wa_resolve_placeholders(const char *in, char **out, eous_err *err)
{
    return wa_resolve_placeholders_at(in, 0, out, err);
}

eous_rc wa_resolve_placeholders_at(const char *in, int instance, char **out, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    const char *p = in;
    *out = NULL;
    while (*p) {
        const char *s = strstr(p, "__");
        if (!s) {
            eous_buf_puts(&b, p, NULL);
            break;
        }
        const char *e = s + 2;
        while (*e && (isupper((unsigned char)*e) || isdigit((unsigned char)*e) || *e == '_') && strncmp(e, "__", 2))
            e++;
        if (e > s + 2 && !strncmp(e, "__", 2)) {
            char name[128];
            size_t n = (size_t)(e - (s + 2));
            if (n >= sizeof name - 12)
                n = sizeof name - 12;
            char var[160], url[2048];
            memcpy(name, s + 2, n);
            name[n] = '\0';
            snprintf(var, sizeof var, "EOUS_SITE_%s", name);
            const char *val = wa_site_url(name, instance, url, sizeof url) ? url : NULL;
            if (!val && !strcmp(name, "SSH_HOST")) {
                /* WebArena-Verified's git remote host template, kept for its URL type (git@__SSH_HOST__:path) */
                eous_buf_append(&b, p, (size_t)(e + 2 - p), NULL);
                p = e + 2;
                continue;
            }
            if (!val) {
                eous_buf_free(&b);
                return eous_err_set(err, EOUS_E_INVALID, "placeholder __%s__ needs the environment variable %s (the site's base URL)",
                                    name, var);
            }
            eous_buf_append(&b, p, (size_t)(s - p), NULL);
            size_t vl = strlen(val);
            while (vl && val[vl - 1] == '/')
                vl--;
            eous_buf_append(&b, val, vl, NULL);
            p = e + 2;
        } else {
            eous_buf_append(&b, p, (size_t)(s - p) + 2, NULL);
            p = s + 2;
        }
    }
    *out = eous_buf_steal(&b);
    return EOUS_OK;
}

/* Resolves placeholders in every string of the tree; the first failure is kept. */
static void resolve_tree(cJSON *node, int instance, char *problem, size_t psize)
{
    for (cJSON *c = node ? node->child : NULL; c; c = c->next) {
        if (cJSON_IsString(c) && strstr(c->valuestring, "__")) {
            char *r = NULL;
            eous_err e;
            eous_err_clear(&e);
            if (wa_resolve_placeholders_at(c->valuestring, instance, &r, &e) == EOUS_OK) {
                cJSON_SetValuestring(c, r);
            } else if (!problem[0]) {
                snprintf(problem, psize, "%s", e.msg);
            }
            free(r);
        } else if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
            resolve_tree(c, instance, problem, psize);
        }
    }
}

static const char *string_or_null(const cJSON *o, const char *k)
{
    const char *s = eous_json_str(o, k);
    return s && *s ? s : NULL;
}

/* Things WebArena's harness would need its own site APIs for. */
static void check_eval(wa_task *t)
{
    const cJSON *types = eous_json_arr(t->eval, "eval_types");
    const cJSON *ty;
    cJSON_ArrayForEach(ty, types) {
        if (!cJSON_IsString(ty))
            continue;
        const char *s = ty->valuestring;
        if (strcmp(s, "string_match") && strcmp(s, "url_match") && strcmp(s, "program_html")) {
            snprintf(t->problem, sizeof t->problem, "unsupported eval type '%s'", s);
            return;
        }
    }
    const cJSON *ph = eous_json_arr(t->eval, "program_html");
    const cJSON *target;
    cJSON_ArrayForEach(target, ph) {
        const char *url = eous_json_str(target, "url");
        const char *loc = eous_json_str(target, "locator");
        if (url && !strncmp(url, "func:", 5) && strncmp(url, "func:reddit_get_post_url(", 25)) {
            snprintf(t->problem, sizeof t->problem, "program_html url '%.80s' needs WebArena's site APIs (unsupported)", url);
            return;
        }
        if (loc && !strncmp(loc, "func:", 5)) {
            snprintf(t->problem, sizeof t->problem, "program_html locator '%.80s' needs WebArena's site APIs (unsupported)",
                     loc);
            return;
        }
        /* WebArena: a blank locator (after strip) reads the page source */
        if (loc && loc[strspn(loc, " \t\n\r\f\v")] && strncmp(loc, "document.", 9) &&
            strncmp(loc, "[...document.", 13)) {
            snprintf(t->problem, sizeof t->problem, "program_html locator '%.60s': expected empty, document... or func:", loc);
            return;
        }
    }
}

/* Every script step parses and the output schema is one eous can apply: a
 * task that would stop on its own file is bad input before a browser starts. */
static void check_plans(wa_task *t)
{
    eous_err e;
    eous_err_clear(&e);
    if (t->output_schema && eous_schema_check(t->output_schema, &e)) {
        snprintf(t->problem, sizeof t->problem, "%s", e.msg);
        return;
    }
    const cJSON *plans[2] = {t->script, t->atomic_script};
    const char *names[2] = {t->plain ? "steps" : "script",
                            !t->plain ? "atomic_script" : t->script ? "atomic_steps" : "steps"};
    for (int p = 0; p < 2; p++) {
        /* present but not a list (null, a string): found here, not after a browser started */
        const cJSON *given = cJSON_GetObjectItemCaseSensitive(t->raw, p ? "atomic_script" : "script");
        if (given && !cJSON_IsArray(given)) {
            snprintf(t->problem, sizeof t->problem, "\"%s\" must be a list of steps, got %s", names[p],
                     eous_json_type_name(given));
            return;
        }
    }
    for (int p = 0; p < 2; p++) {
        int i = 0;
        const cJSON *step;
        cJSON_ArrayForEach(step, plans[p]) {
            i++;
            const cJSON *one;
            int k = 0;
            for (one = cJSON_IsArray(step) ? step->child : step; one; one = cJSON_IsArray(step) ? one->next : NULL) {
                k++;
                act_action a;
                act_action_init(&a);
                eous_rc rc = act_parse_script_step(one, &a, &e);
                act_action_clear(&a);
                if (rc == EOUS_E_INVALID || rc == EOUS_E_PARSE) {
                    if (cJSON_IsArray(step))
                        snprintf(t->problem, sizeof t->problem, "%s step %d, action %d: %s", names[p], i, k, e.msg);
                    else
                        snprintf(t->problem, sizeof t->problem, "%s step %d: %s", names[p], i, e.msg);
                    return;
                }
            }
        }
    }
}

/* A task id names files under --out (trace/<id>-<mode>.jsonl and its
 * directory), so it is a name: 1..WA_TASK_ID_MAX of [A-Za-z0-9._-], not
 * starting with '.'.  EOUS_E_INVALID naming file, config and the id (control
 * bytes shown as \xNN) otherwise. */
static eous_rc check_id(const cJSON *id, const char *key, const char *file, int index, eous_err *err)
{
    char text[WA_TASK_ID_MAX + 2] = "";
    if (cJSON_IsNumber(id))
        snprintf(text, sizeof text, "%d", id->valueint);
    else if (!cJSON_IsString(id))
        return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: \"%s\" must be a string or a number, got %s",
                            file, index, key, eous_json_type_name(id));
    const char *s = cJSON_IsString(id) ? id->valuestring : text;
    size_t n = strlen(s), bad = s[0] == '.' || n == 0 || n > WA_TASK_ID_MAX ? 1 : 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
                s[i] == '.' || s[i] == '_' || s[i] == '-');
    if (!bad)
        return EOUS_OK;
    char shown[200];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 5 < sizeof shown; i++) {
        unsigned char c = (unsigned char)s[i];
        k += (size_t)snprintf(shown + k, sizeof shown - k, c < 0x20 || c >= 0x7f || c == '"' || c == '\\' ? "\\x%02x" : "%c", c);
    }
    return eous_err_set(err, EOUS_E_INVALID,
                        "%s: config #%d: %s \"%s%s\" is not a name (expected 1 to %d of A-Z a-z 0-9 . _ -, not "
                        "starting with '.': it names the task's files in the run folder)",
                        file, index, key, shown, k + 5 >= sizeof shown ? "..." : "", WA_TASK_ID_MAX);
}

/* ---- plain job files ---------------------------------------------------------- */

/* A WebArena site placeholder (__NAME__ of A-Z 0-9 _) in s, or NULL. */
static const char *site_placeholder(const char *s)
{
    for (const char *p = strstr(s, "__"); p; p = strstr(p + 1, "__")) {
        const char *e = p + 2;
        while (isupper((unsigned char)*e) || isdigit((unsigned char)*e) || (*e == '_' && e[1] != '_'))
            e++;
        if (e > p + 2 && !strncmp(e, "__", 2))
            return p;
    }
    return NULL;
}

/* The first string in v holding a site placeholder, or NULL. */
static const char *tree_site_placeholder(const cJSON *v)
{
    if (cJSON_IsString(v))
        return site_placeholder(v->valuestring) ? v->valuestring : NULL;
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next) {
        const char *hit = tree_site_placeholder(c);
        if (hit)
            return hit;
    }
    return NULL;
}

/* A plain job is a config with no task_id that has steps or a name. */
static int is_plain(const cJSON *cfg)
{
    return !cJSON_GetObjectItemCaseSensitive(cfg, "task_id") &&
           (cJSON_GetObjectItemCaseSensitive(cfg, "steps") || cJSON_GetObjectItemCaseSensitive(cfg, "name"));
}

static const char *const PLAIN_KEYS[] = {"name",   "start_url", "steps", "atomic_steps", "output_schema",
                                         "params", "intent", "notes"};

/* Each key is a plain job's, name is a task id, start_url a string, steps a
 * list, and no site placeholder anywhere: EOUS_E_INVALID naming the file otherwise. */
static eous_rc check_plain(const cJSON *job, const char *file, int index, eous_err *err)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, job) {
        size_t k = 0;
        while (k < sizeof PLAIN_KEYS / sizeof *PLAIN_KEYS && strcmp(c->string, PLAIN_KEYS[k]))
            k++;
        if (k == sizeof PLAIN_KEYS / sizeof *PLAIN_KEYS)
            return eous_err_set(err, EOUS_E_INVALID,
                                "%s: a plain job holds name, start_url, steps, atomic_steps, output_schema, params, "
                                "intent and notes; "
                                "\"%.40s\" is not one of them%s",
                                file, c->string,
                                strcmp(c->string, "sites") && strcmp(c->string, "eval")
                                    ? ""
                                    : " (a WebArena config's: a plain job has a real URL and no evaluator)");
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(job, "name");
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(job, "steps");
    const cJSON *intent = cJSON_GetObjectItemCaseSensitive(job, "intent");
    if (!name)
        return eous_err_set(err, EOUS_E_INVALID, "%s: a plain job needs a \"name\" (it names its files in the run folder)",
                            file);
    eous_rc rc = check_id(name, "name", file, index, err);
    if (rc)
        return rc;
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(job, "start_url")))
        return eous_err_set(err, EOUS_E_INVALID, "%s: a plain job needs \"start_url\", a real http(s) URL", file);
    if (!cJSON_IsArray(steps) || !cJSON_GetArraySize(steps))
        return eous_err_set(err, EOUS_E_INVALID, "%s: a plain job needs \"steps\", a list of one or more steps, got %s",
                            file, steps ? eous_json_type_name(steps) : "none");
    const cJSON *atomic = cJSON_GetObjectItemCaseSensitive(job, "atomic_steps");
    if (atomic && (!cJSON_IsArray(atomic) || !cJSON_GetArraySize(atomic)))
        return eous_err_set(err, EOUS_E_INVALID,
                            "%s: \"atomic_steps\" (what atomic mode runs instead of steps) must be a list of one or "
                            "more steps, got %s",
                            file, eous_json_type_name(atomic));
    if (intent && !cJSON_IsString(intent))
        return eous_err_set(err, EOUS_E_INVALID, "%s: \"intent\" must be a string, got %s", file,
                            eous_json_type_name(intent));
    /* what eous distill says about how it named the steps: read by a person, never run */
    const cJSON *notes = cJSON_GetObjectItemCaseSensitive(job, "notes"), *note;
    if (notes && !cJSON_IsArray(notes))
        return eous_err_set(err, EOUS_E_INVALID, "%s: \"notes\" must be a list of strings, got %s", file,
                            eous_json_type_name(notes));
    cJSON_ArrayForEach(note, notes) {
        if (!cJSON_IsString(note))
            return eous_err_set(err, EOUS_E_INVALID, "%s: \"notes\" must be a list of strings, one is %s", file,
                                eous_json_type_name(note));
    }
    const char *ph = tree_site_placeholder(cJSON_GetObjectItemCaseSensitive(job, "start_url"));
    ph = ph ? ph : tree_site_placeholder(steps);
    ph = ph ? ph : tree_site_placeholder(atomic);
    if (ph)
        return eous_err_set(err, EOUS_E_INVALID,
                            "%s: '%.80s' holds a site placeholder: a plain job takes real URLs (a {{param:NAME}} "
                            "can carry the site's address)",
                            file, ph);
    return EOUS_OK;
}

/* The WebArena config a plain job stands for into *out (caller frees):
 * task_id its name, intent its intent or name, no evaluator, its steps the
 * atomic_script (which every mode runs when there is no script); with
 * atomic_steps (a hybrid recording's calls as atomic steps) its steps are the
 * script and atomic_steps the atomic_script. */
static eous_rc plain_config(const cJSON *job, const char *file, int index, cJSON **out, eous_err *err)
{
    *out = NULL;
    eous_rc rc = check_plain(job, file, index, err);
    if (rc)
        return rc;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(job, "name");
    const char *intent = eous_json_str(job, "intent");
    cJSON *c = cJSON_CreateObject(), *eval = cJSON_AddObjectToObject(c, "eval");
    cJSON_AddItemToObject(c, "task_id", cJSON_Duplicate(name, 1));
    cJSON_AddStringToObject(c, "intent", intent ? intent : cJSON_IsString(name) ? name->valuestring : "");
    cJSON_AddStringToObject(c, "start_url", eous_json_str(job, "start_url"));
    cJSON_AddItemToObject(eval, "eval_types", cJSON_CreateArray());
    const cJSON *atomic = cJSON_GetObjectItemCaseSensitive(job, "atomic_steps");
    if (atomic)
        cJSON_AddItemToObject(c, "script", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(job, "steps"), 1));
    cJSON_AddItemToObject(c, "atomic_script",
                          cJSON_Duplicate(atomic ? atomic : cJSON_GetObjectItemCaseSensitive(job, "steps"), 1));
    static const char *const kept[] = {"output_schema", "params"};
    for (size_t k = 0; k < 2; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(job, kept[k]);
        if (v)
            cJSON_AddItemToObject(c, kept[k], cJSON_Duplicate(v, 1));
    }
    if (!c || !eval || cJSON_GetArraySize(c) < 5 + (atomic != NULL)) {
        cJSON_Delete(c);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    *out = c;
    return EOUS_OK;
}

/* cfg's copy with its {{param:NAME}} filled (*used: the values) into *out (caller frees). */
static eous_rc filled_config(const cJSON *cfg, const char *file, int index, const wa_load_opts *o, cJSON **out,
                             cJSON **used, eous_err *err)
{
    char where[4200];
    if (index < 0) /* a plain job: the file is the job */
        snprintf(where, sizeof where, "%s", file);
    else
        snprintf(where, sizeof where, "%s: config #%d", file, index);
    *used = NULL;
    *out = cJSON_Duplicate(cfg, 1);
    if (!*out)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_rc rc = wa_params_fill(*out, o ? o->params : NULL, o ? o->keep_missing : 0, where, used, err);
    if (rc) {
        cJSON_Delete(*out);
        *out = NULL;
    }
    return rc;
}

static eous_rc load_cfg(wa_task_list *l, const char *file, const cJSON *cfg, int index, int instance, int plain,
                        const wa_load_opts *o, eous_err *err)
{
    if (!cJSON_IsObject(cfg))
        return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: expected a JSON object, got %s", file, index,
                            eous_json_type_name(cfg));
    /* WebArena-Verified: start_urls and a list of evaluators */
    int verified = wa_verified_is_cfg(cfg);
    static const char *required[] = {"task_id", "start_url", "intent", "eval"};
    for (size_t i = 0; i < 4; i++) {
        const char *k = verified && i == 1 ? "start_urls" : required[i];
        if (!cJSON_GetObjectItemCaseSensitive(cfg, k))
            return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: missing required field \"%s\"", file, index, k);
    }
    eous_rc vrc = check_id(cJSON_GetObjectItemCaseSensitive(cfg, "task_id"), "task_id", file, index, err);
    if (vrc)
        return vrc;
    vrc = verified ? wa_verified_check_cfg(cfg, file, index, err) : EOUS_OK;
    if (vrc)
        return vrc;
    const cJSON *eval = eous_json_obj(cfg, "eval");
    if (!verified && (!eval || !eous_json_arr(eval, "eval_types")))
        return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: \"eval\" must be an object with an \"eval_types\" list",
                            file, index);
    if (!verified && !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cfg, "start_url")))
        return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: \"start_url\" must be a string", file, index);
    cJSON *config = NULL, *used = NULL;
    if ((vrc = filled_config(cfg, file, plain ? -1 : index, o, &config, &used, err)))
        return vrc;
    wa_task *grown = realloc(l->tasks, (l->n + 1) * sizeof *grown);
    if (!grown) {
        cJSON_Delete(config);
        cJSON_Delete(used);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    l->tasks = grown;
    wa_task *t = &l->tasks[l->n];
    memset(t, 0, sizeof *t);
    t->config = config;
    t->param_values = used;
    t->raw = cJSON_Duplicate(config, 1);
    l->n++;
    if (!t->raw)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    t->file = file;
    t->index = index;
    t->instance = instance;
    t->plain = plain;
    if (!plain) /* a plain job has real URLs: nothing to resolve */
        resolve_tree(t->raw, instance, t->problem, sizeof t->problem);
    /* the id as written (check_id's): a placeholder in it never becomes a path */
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(cfg, "task_id");
    if (cJSON_IsNumber(id))
        snprintf(t->id, sizeof t->id, "%d", id->valueint);
    else if (cJSON_IsString(id))
        snprintf(t->id, sizeof t->id, "%s", id->valuestring);
    else
        snprintf(t->id, sizeof t->id, "%d", index);
    t->intent = eous_json_str(t->raw, "intent");
    t->start_url = verified ? wa_verified_start_url(t->raw) : eous_json_str(t->raw, "start_url");
    t->tier = string_or_null(t->raw, "tier");
    t->screen = string_or_null(t->raw, "screen");
    t->eval = verified ? NULL : eous_json_obj(t->raw, "eval");
    t->verified = verified ? eous_json_arr(t->raw, "eval") : NULL;
    t->script = eous_json_arr(t->raw, "script");
    t->atomic_script = eous_json_arr(t->raw, "atomic_script");
    t->storage_state = string_or_null(t->raw, "storage_state");
    t->require_login = eous_json_bool(t->raw, "require_login", 0);
    t->require_reset = eous_json_bool(t->raw, "require_reset", 0);
    t->sites = eous_json_arr(t->raw, "sites");
    if (!t->problem[0] && verified)
        wa_verified_check_task(t);
    else if (!t->problem[0])
        check_eval(t);
    t->output_schema = cJSON_GetObjectItemCaseSensitive(t->raw, "output_schema");
    if (!t->problem[0])
        check_plans(t);
    /* eous check without values: a parameter's placeholder stands in the URL */
    if (!t->problem[0] && t->start_url && !eous_is_http_url(t->start_url) && !strstr(t->start_url, "{{param:"))
        snprintf(t->problem, sizeof t->problem, "start_url '%.100s' is not an http(s) URL", t->start_url);
    return EOUS_OK;
}

static eous_rc load_one(wa_task_list *l, const char *file, const cJSON *cfg, int index, const wa_load_opts *o,
                        eous_err *err)
{
    if (!cJSON_IsObject(cfg) || !is_plain(cfg))
        return load_cfg(l, file, cfg, index, 0, 0, o, err);
    cJSON *conv = NULL;
    eous_rc rc = plain_config(cfg, file, index, &conv, err);
    if (!rc)
        rc = load_cfg(l, file, conv, index, 0, 1, o, err);
    cJSON_Delete(conv);
    return rc;
}

/* Keeps in root (a list of configs) those whose task_id is in ids ("107,108");
 * an id no config has is an error naming it. */
static eous_rc select_ids(cJSON *root, const char *file, const char *ids, eous_err *err)
{
    if (!cJSON_IsArray(root))
        return eous_err_set(err, EOUS_E_INVALID, "%s: picking tasks by id (#%s) needs a list of configs", file, ids);
    char *copy = strdup(ids), *save = NULL;
    if (!copy)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON *keep = cJSON_CreateArray();
    for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
        cJSON *c, *hit = NULL;
        cJSON_ArrayForEach(c, root) {
            const cJSON *tid = cJSON_GetObjectItemCaseSensitive(c, "task_id");
            char buf[64] = "";
            if (cJSON_IsNumber(tid))
                snprintf(buf, sizeof buf, "%d", tid->valueint);
            else if (cJSON_IsString(tid))
                snprintf(buf, sizeof buf, "%s", tid->valuestring);
            if (!strcmp(buf, id))
                hit = c;
        }
        if (!hit) {
            eous_err_set(err, EOUS_E_INVALID, "%s: no config has task_id %s (picked by #%s)", file, id, ids);
            free(copy);
            cJSON_Delete(keep);
            return EOUS_E_INVALID;
        }
        cJSON_AddItemToArray(keep, cJSON_Duplicate(hit, 1));
    }
    free(copy);
    /* root becomes the picked configs */
    while (root->child)
        cJSON_DeleteItemFromArray(root, 0);
    cJSON *c;
    while ((c = cJSON_DetachItemFromArray(keep, 0)))
        cJSON_AddItemToArray(root, c);
    cJSON_Delete(keep);
    return EOUS_OK;
}

/* A file's configs: an array of them, or one object. */
static eous_rc load_root(wa_task_list *out, const char *file, cJSON *root, const wa_load_opts *o, eous_err *err)
{
    if (!cJSON_IsArray(root))
        return load_one(out, file, root, 0, o, err);
    int i = 0;
    cJSON *c;
    cJSON_ArrayForEach(c, root) {
        eous_rc rc = load_one(out, file, c, i++, o, err);
        if (rc)
            return rc;
    }
    return EOUS_OK;
}

/* Every given parameter is declared by a loaded job: a misspelt --param is
 * bad input, not a value silently unused. */
static eous_rc check_given(const wa_task_list *l, const cJSON *given, eous_err *err)
{
    const cJSON *g;
    cJSON_ArrayForEach(g, given) {
        char names[400] = "";
        size_t k = 0, hit = 0;
        for (size_t i = 0; i < l->n && !hit; i++) {
            const cJSON *d;
            hit = wa_params_declares(l->tasks[i].config, g->string);
            cJSON_ArrayForEach(d, eous_json_obj(l->tasks[i].config, "params"))
                if (k + strlen(d->string) + 3 < sizeof names)
                    k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", k ? ", " : "", d->string);
        }
        if (!hit) {
            eous_err_set_code(err, WA_ERR_PARAM_UNDECLARED); /* the CLI names the flag that gave it */
            return eous_err_set(err, EOUS_E_INVALID, "parameter %.80s: no job given declares it (declared: %s)",
                                g->string, k ? names : "none");
        }
    }
    return EOUS_OK;
}

eous_rc wa_tasks_load(const char *const *files, size_t n_files, wa_task_list *out, eous_err *err)
{
    return wa_tasks_load_opts(files, n_files, NULL, out, err);
}

eous_rc wa_tasks_load_opts(const char *const *files, size_t n_files, const wa_load_opts *o, wa_task_list *out,
                           eous_err *err)
{
    memset(out, 0, sizeof *out);
    out->files = calloc(n_files + 1, sizeof *out->files);
    if (!out->files)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (size_t f = 0; f < n_files; f++) {
        /* FILE#ID,ID... picks tasks of a file by task_id (the verified dataset is one file) */
        const char *hash = access(files[f], F_OK) ? strrchr(files[f], '#') : NULL;
        out->files[out->n_files++] = hash ? strndup(files[f], (size_t)(hash - files[f])) : strdup(files[f]);
        const char *file = out->files[out->n_files - 1];
        cJSON *root = eous_json_parse_file(file, 0, err);
        if (root && hash && select_ids(root, file, hash + 1, err)) {
            cJSON_Delete(root);
            wa_tasks_free(out);
            return EOUS_E_INVALID;
        }
        if (!root) {
            if (err)
                err->rc = EOUS_E_INVALID;
            wa_tasks_free(out);
            return EOUS_E_INVALID;
        }
        eous_rc rc = load_root(out, file, root, o, err);
        cJSON_Delete(root);
        if (rc) {
            wa_tasks_free(out);
            return rc;
        }
    }
    eous_rc rc = check_given(out, o ? o->params : NULL, err);
    if (rc)
        wa_tasks_free(out);
    return rc;
}

eous_rc wa_tasks_load_text(const char *text, size_t len, const char *name, wa_task_list *out, eous_err *err)
{
    memset(out, 0, sizeof *out);
    out->files = calloc(2, sizeof *out->files);
    if (!out->files || !(out->files[0] = strdup(name ? name : "input"))) {
        wa_tasks_free(out);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    out->n_files = 1;
    cJSON *root = eous_json_parse(text, len, out->files[0], err);
    if (!root) {
        wa_tasks_free(out);
        if (err)
            err->rc = EOUS_E_INVALID; /* the parse message names the position */
        return EOUS_E_INVALID;
    }
    eous_rc rc = load_root(out, out->files[0], root, NULL, err);
    cJSON_Delete(root);
    if (rc)
        wa_tasks_free(out);
    return rc;
}

void wa_tasks_free(wa_task_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++) {
        cJSON_Delete(l->tasks[i].raw);
        cJSON_Delete(l->tasks[i].config);
        cJSON_Delete(l->tasks[i].param_values);
    }
    free(l->tasks);
    for (size_t i = 0; i < l->n_files; i++)
        free(l->files[i]);
    free(l->files);
    memset(l, 0, sizeof *l);
}

eous_rc wa_task_at_instance(const wa_task *t, int instance, wa_task_list *out, eous_err *err)
{
    memset(out, 0, sizeof *out);
    /* t->config has its parameters filled already: the values are kept as they were */
    wa_load_opts o = {t->param_values, 1};
    eous_rc rc = load_cfg(out, t->file, t->config, t->index, instance, t->plain, &o, err);
    if (rc)
        wa_tasks_free(out);
    return rc;
}

int wa_task_uses_pool(const wa_task *t)
{
    const cJSON *s;
    cJSON_ArrayForEach(s, t->sites)
        if (cJSON_IsString(s) && wa_site_pool_size(s->valuestring) > 1)
            return 1;
    return 0;
}

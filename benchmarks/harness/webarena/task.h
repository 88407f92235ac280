/* webarena/task.h — WebArena task configs: loading, placeholder resolution, checks.
 *
 * A file holds one config object or a list of them (like test.raw.json).
 * wa_tasks_load returns an array the caller frees with wa_tasks_free;
 * each task owns its cJSON config (`raw`), and every pointer in the struct
 * points into it or into strings the task owns. */
#ifndef EOUS_WEBARENA_TASK_H
#define EOUS_WEBARENA_TASK_H

#include "core/core.h"

/* A task_id is a name of at most this many characters of [A-Za-z0-9._-], not
 * starting with '.' (it names the task's files under --out); anything else
 * fails the load. */
#define WA_TASK_ID_MAX 64

typedef struct wa_task {
    cJSON *raw;               /* the whole config, placeholders resolved */
    cJSON *config;            /* the whole config as written (for wa_task_at_instance) */
    int instance;             /* the site copies its placeholders were resolved for (webarena/site_pool.h); 0 at load */
    char id[WA_TASK_ID_MAX + 1]; /* task_id as text */
    const char *file;         /* file it came from (owned by the task list) */
    int index;                /* position in its file */
    const char *intent;
    const char *start_url;
    const char *tier;         /* "short" | "medium" | "long" | NULL */
    const char *screen;
    const cJSON *eval;
    const cJSON *script;      /* semantic-first plan, or NULL */
    const cJSON *atomic_script;
    const cJSON *output_schema; /* JSON Schema (core/schema.h) the read steps' output must satisfy, or NULL */
    const char *storage_state;/* path or NULL */
    int require_login;
    int require_reset;        /* WebArena: the task changes its site; reset it first (webarena/site_reset.h) */
    const cJSON *sites;       /* the "sites" list, or NULL */
    const cJSON *verified;    /* WebArena-Verified: its "eval" list (webarena/verified_task.h); eval is NULL then */
    /* problems found at load (missing site variable, unsupported func: ...);
     * a task with problems can be listed by `eous check` but not run */
    char problem[512];
    int plain;                /* a plain job file ({name, start_url, steps, ...}); its steps are atomic_script */
    cJSON *param_values;      /* {NAME: value} of its declared parameters that have one (owned), or NULL */
} wa_task;

typedef struct wa_task_list {
    wa_task *tasks;
    size_t n;
    char **files;
    size_t n_files;
} wa_task_list;

/* Loads every config of every file: WebArena configs, and plain jobs
 * {"name", "start_url", "steps", "output_schema"?, "params"?, "intent"?}
 * (a real URL, no site placeholders; the id is the name, the steps run in
 * every mode).  Structural errors (not JSON, not an
 * object/list, missing required fields) fail with EOUS_E_INVALID naming
 * file, position and what was expected.  Unresolvable placeholders and
 * unsupported evaluator forms are recorded per task in `problem`. */
eous_rc wa_tasks_load(const char *const *files, size_t n_files, wa_task_list *out, eous_err *err);
/* How a load fills {{param:NAME}} (webarena/params.h): the values given
 * ({NAME: string}, borrowed; NULL: none) and whether a used parameter with no
 * value stays a placeholder (eous check lists it) instead of failing the
 * load.  A given name no loaded job declares fails the load too. */
typedef struct wa_load_opts {
    const cJSON *params;
    int keep_missing;
} wa_load_opts;
/* wa_tasks_load with o (NULL: no values given, a missing one fails). */
eous_rc wa_tasks_load_opts(const char *const *files, size_t n_files, const wa_load_opts *o, wa_task_list *out,
                           eous_err *err);
/* The same from text already in memory; `name` stands for the file in messages. */
eous_rc wa_tasks_load_text(const char *text, size_t len, const char *name, wa_task_list *out, eous_err *err);
void wa_tasks_free(wa_task_list *l);

/* t again, its placeholders resolved for site instance (each pooled site's
 * copy for it, webarena/site_pool.h), as the one task of out (freed with
 * wa_tasks_free; t->file is borrowed, so t's list must outlive out). */
eous_rc wa_task_at_instance(const wa_task *t, int instance, wa_task_list *out, eous_err *err);
/* 1 when one of t's sites has several copies (EOUS_SITE_<NAME> lists several URLs). */
int wa_task_uses_pool(const wa_task *t);

/* Replaces __NAME__ placeholders with $EOUS_SITE_NAME in a string; caller
 * frees *out.  Missing variable → EOUS_E_INVALID naming it.  With several
 * URLs in the variable (a pool), the first; _at: instance's. */
eous_rc wa_resolve_placeholders(const char *in, char **out, eous_err *err);
eous_rc wa_resolve_placeholders_at(const char *in, int instance, char **out, eous_err *err);

#endif

/* bench/known_limits.c — a bench's known limits (see bench.h): failures whose
 * cause is known and not fixed, named in each failed task's results line so
 * the report and the figures' scripts read one verdict, not each its own. */
#define _GNU_SOURCE
#include "bench/bench.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/regex_tame.h"
#include "runs/rundir.h"

#define KNOWN_MAX_BYTES (1024 * 1024)
#define KNOWN_MAX 256

typedef struct known_limit {
    const char *mode, *task, *why; /* borrowed from doc */
    regex_t said;
} known_limit;

struct bench_known_limits {
    cJSON *doc;
    known_limit *v;
    int n;
};

void bench_known_limits_free(bench_known_limits *k)
{
    if (!k)
        return;
    for (int i = 0; i < k->n; i++)
        regfree(&k->v[i].said);
    free(k->v);
    cJSON_Delete(k->doc);
    free(k);
}

/* An optional string member: 0 (NULL when absent), -1 when present and not a non-empty string. */
static int opt_str(const cJSON *e, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    *out = cJSON_IsString(v) ? v->valuestring : NULL;
    return v && (!*out || !**out) ? -1 : 0;
}

/* Entry i of the limits array into k->v[k->n]: 0, or EOUS_E_INVALID naming it. */
static eous_rc one_limit(bench_known_limits *k, const char *path, int i, const cJSON *e, eous_err *err)
{
    known_limit *l = &k->v[k->n];
    const char *said = NULL;
    if (!cJSON_IsObject(e) || opt_str(e, "mode", &l->mode) || opt_str(e, "task", &l->task) ||
        opt_str(e, "said", &said) || opt_str(e, "why", &l->why) || !said || !l->why)
        return eous_err_set(err, EOUS_E_INVALID, "%s: limits[%d]: expected {\"said\": REGEX, \"why\": TEXT} with an "
                                                 "optional \"mode\" and \"task\" (strings)", path, i);
    perc_mode m;
    if (l->mode && perc_mode_parse(l->mode, &m))
        return eous_err_set(err, EOUS_E_INVALID, "%s: limits[%d]: mode '%s': expected hybrid, pruned, atomic, html "
                                                 "or vision", path, i, l->mode);
    /* the file is the user's, but a pattern glibc would take minutes over is refused all the same */
    if (!eous_regex_is_tame(said) || regcomp(&l->said, said, REG_EXTENDED | REG_NOSUB))
        return eous_err_set(err, EOUS_E_INVALID, "%s: limits[%d]: said '%.80s' is not a POSIX extended regular "
                                                 "expression eous takes (at most %d bytes, no backreference, no "
                                                 "stacked quantifier)", path, i, said, EOUS_REGEX_MAX_PATTERN);
    k->n++;
    return EOUS_OK;
}

eous_rc bench_known_limits_load(const char *path, bench_known_limits **out, eous_err *err)
{
    *out = NULL;
    bench_known_limits *k = calloc(1, sizeof *k);
    if (!k)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_rc rc = EOUS_OK;
    const cJSON *arr = NULL, *e;
    if (!(k->doc = eous_json_parse_file(path, KNOWN_MAX_BYTES, err))) {
        rc = eous_err_remap(err, EOUS_E_INVALID);
        goto done;
    }
    arr = eous_json_arr(k->doc, "limits");
    int n = arr ? cJSON_GetArraySize(arr) : -1;
    if (n < 0 || n > KNOWN_MAX) {
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: expected {\"limits\": [...]} with at most %d entries", path,
                          KNOWN_MAX);
        goto done;
    }
    if (n && !(k->v = calloc((size_t)n, sizeof *k->v))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    int i = 0;
    cJSON_ArrayForEach(e, arr) {
        if ((rc = one_limit(k, path, i++, e, err)))
            goto done;
    }
done:
    if (rc)
        bench_known_limits_free(k);
    else
        *out = k;
    return rc;
}

static int said_matches(const regex_t *re, const char *text)
{
    return text && *text && regexec(re, text, 0, NULL, 0) == 0;
}

const char *bench_known_limit(const bench_known_limits *k, const agent_result *r)
{
    if (!k || !r || r->status != EOUS_ST_FAILED)
        return NULL;
    for (int i = 0; i < k->n; i++) {
        const known_limit *l = &k->v[i];
        if ((l->mode && strcmp(l->mode, r->mode)) || (l->task && strcmp(l->task, r->task_id)))
            continue;
        if (said_matches(&l->said, r->answer) || said_matches(&l->said, r->error) ||
            said_matches(&l->said, r->eval_detail))
            return l->why;
    }
    return NULL;
}

/* webarena/verified.h — WebArena-Verified: its value normalisers and its two
 * evaluators (AgentResponseEvaluator, NetworkEventEvaluator) in C.
 *
 * Reference: ServiceNow/webarena-verified 6473f72,
 * src/webarena_verified/core/evaluation/ (data_types/, value_normalizer.py,
 * value_comparator.py, evaluators/).  Facts and formats carried over, code
 * not.  Where its behaviour surprised us the case is written down in
 * tests/fixtures/verified/README.md and followed.
 *
 * Normalised values are cJSON trees (caller frees with cJSON_Delete): a typed
 * value is an object {"\x01t": TYPE, "\x01a": [alternative, ...]}; dicts and
 * arrays are plain objects and arrays; anything that failed to normalise in
 * lenient mode stays the raw JSON it was, as theirs keeps the raw value. */
#ifndef EOUS_WEBARENA_VERIFIED_H
#define EOUS_WEBARENA_VERIFIED_H

#include <stddef.h>

#include "core/core.h"

/* ---- normalisation (webarena/verified_norm.c) ------------------------------ */

/* The sites a task names ("shopping_admin", "playground") turn site URLs
 * (EOUS_SITE_<NAME>) back into templates (__NAME__), as theirs derenders. */
typedef struct vf_ctx {
    const cJSON *sites;      /* the task's "sites" list (borrowed), or NULL */
    char err[512];           /* first normalisation error in strict mode */
} vf_ctx;

/* One typed value, or a list of 2+ alternatives of it (a 1-item list is an
 * error, as theirs).  strict: failure sets ctx->err and returns NULL; lenient:
 * a copy of raw.  type is a results_schema type or format name. */
cJSON *vf_norm_typed(vf_ctx *ctx, const char *type, const cJSON *raw, int strict);
/* ValueNormalizer.normalize / normalize_array / object forms by schema. */
cJSON *vf_norm_schema(vf_ctx *ctx, const cJSON *value, const cJSON *schema, int strict);
cJSON *vf_norm_array(vf_ctx *ctx, const cJSON *value, const cJSON *schema, int strict);
/* The string pipeline every typed string goes through first (marks, dashes
 * between letters, control characters, ASCII transliteration, spaces,
 * casefold).  Caller frees. */
char *vf_norm_string(vf_ctx *ctx, const char *s);
/* Is it "^...$"? */
int vf_is_regexp(const char *s);
/* A site URL in s replaced by its __TEMPLATE__ (caller frees); NULL when none. */
char *vf_derender(const vf_ctx *ctx, const char *s);

/* URL normalisation with the evaluator's options. */
typedef struct vf_url_opts {
    const cJSON *query_params;          /* replaces the URL's query when set */
    const cJSON *ignored;               /* names */
    const cJSON *ignored_patterns;      /* regexes, case-insensitive search */
    const cJSON *query_schema;          /* query_params_schema */
    int decode_base64_query;
} vf_url_opts;
cJSON *vf_norm_url(vf_ctx *ctx, const cJSON *raw, const vf_url_opts *o, int strict);
/* URL.compare_path: base paths (regex either side) of any alternatives. */
int vf_url_compare_path(const cJSON *a, const cJSON *b);

/* ---- comparison (ValueComparator) --------------------------------------- */

/* Appends failed assertions {assertion_name, assertion_msgs[]} to out (an
 * array).  ignored_key: a key whose value is not compared (or NULL). */
void vf_compare(const cJSON *actual, const cJSON *expected, int ordered, const char *name, const char *ignored_key,
                int ignore_extra_keys, cJSON *out);
/* NormalizedType equality with alternatives (either side typed or raw). */
int vf_equal(const cJSON *expected, const cJSON *actual);
/* The reportable form: typed values as their first alternative. */
cJSON *vf_report(const cJSON *v);

/* ---- evaluation (webarena/verified_eval.c) --------------------------------- */

/* A HAR read into memory: the whole log (owned) and its entries. */
typedef struct vf_har {
    cJSON *root;
    const cJSON *entries;
} vf_har;
/* Reads a HAR 1.2 file: {"log": {"entries": [...]}}, each entry with a
 * request {method, url, headers[]} and a response {status}.  Errors name the
 * file and what was expected, one line. */
eous_rc vf_har_load(const char *path, vf_har *out, eous_err *err);
eous_rc vf_har_parse(const char *text, size_t len, const char *name, vf_har *out, eous_err *err);
void vf_har_free(vf_har *h);

/* Scores a verified task (its object with "eval" a list) against the agent's
 * response (a JSON value: object, or a string kept verbatim; NULL = none)
 * and a HAR (NULL when none was recorded).  Returns a new object:
 * {"score", "status": success|failure|error, "evaluators": [{evaluator,
 * status, score, actual, actual_normalized, expected, assertions[], error}]}. */
cJSON *vf_score_task(const cJSON *task, const cJSON *response, const vf_har *har);

/* What keeps a verified task from being scored: an evaluator eous lacks, an
 * expected value its normalisers refuse (as theirs would, strictly).  0 when
 * none; otherwise -1 and one line in why. */
int vf_check_task(const cJSON *task, char *why, size_t n);

/* The task's expected task_type ("retrieve" | "navigate" | "mutate"), or NULL. */
const char *vf_task_type(const cJSON *task);
/* The answer format a model is told for the task (caller frees). */
char *vf_answer_format(const cJSON *task);
/* The JSON schema of that answer, for the stop tool (caller frees). */
cJSON *vf_answer_schema(const cJSON *task);

#endif

/* agent/eval.h — WebArena's evaluators with its exact semantics.
 *
 * The pure functions (answer cleaning, exact/must_include, url matching) need
 * no browser and are unit-tested against WebArena's rules; agent_evaluate
 * runs a task's eval_types against the final page and the stop answer. */
#ifndef EOUS_AGENT_EVAL_H
#define EOUS_AGENT_EVAL_H

#include "core/core.h"
#include "webdriver/wd.h"

struct llm_client;

/* strip, drop one pair of enclosing quotes, lower-case (caller frees). */
char *agent_clean_answer(const char *answer);
/* 1.0 / 0.0 as WebArena's StringEvaluator.exact_match. */
double agent_exact_match(const char *ref, const char *pred);
/* WebArena's must_include; tokenize = the single-token rule for one-item lists. */
double agent_must_include(const char *ref, const char *pred, int tokenize);
/* URLEvaluator "GOLD in PRED": netloc+path substring, query values, |OR|. */
double agent_url_match(const char *reference_urls, const char *pred_url);

typedef struct agent_eval_result {
    double score;        /* product over evaluators */
    int needs_judge;     /* a fuzzy_match/ua_match had no model to judge it: score is 0 */
    int unsupported;     /* a func: form that needs WebArena's site APIs */
    char detail[1024];   /* one line: which evaluator failed and why */
} agent_eval_result;

/* Evaluates eval (the task's "eval" object) given the stop answer (may be
 * NULL), the session (for url_match and program_html) and an optional judge.
 * intent is used by the judge.  Infrastructure failures return an error. */
eous_rc agent_evaluate(const cJSON *eval, const char *intent, const char *answer, wd_session *s,
                       struct llm_client *judge, agent_eval_result *out, eous_err *err);

#endif

/* webarena/eval.h — WebArena's evaluators with its exact semantics.
 *
 * Reference: web-arena-x/webarena main (f62e0b9, 2025-09-05),
 * evaluation_harness/evaluators.py and helper_functions.py.  The pure
 * functions need no browser; wa_evaluate reads what the evaluators look at
 * (final URL, program_html locator values) from the session and scores them
 * with wa_score_observed, which `eous score` and the parity corpus
 * (tests/fixtures/eval_parity/) call directly. */
#ifndef EOUS_WEBARENA_EVAL_H
#define EOUS_WEBARENA_EVAL_H

#include <stddef.h>

#include "actions/exec.h"
#include "core/core.h"
#include "webdriver/wd.h"

struct llm_client;

/* ---- Python text semantics (webarena/eval_text.c); results are caller-freed ---- */

/* str.strip(): start offset and length of s without Python's Unicode
 * whitespace (str.isspace: ASCII, U+001C-001F, U+0085, U+00A0, U+1680,
 * U+2000-200A, U+2028/9, U+202F, U+205F, U+3000) at either end. */
void wa_py_strip(const char *s, size_t *start, size_t *len);
/* str.lower() of n bytes: Python's full single-code-point lower-case table
 * (webarena/unicode_tables.inc, generated from Python 3.11 / Unicode 14 by
 * scripts/gen-unicode-tables), U+0130 → "i̇", and Final_Sigma.  Invalid UTF-8
 * bytes are kept.  NULL when out of memory. */
char *wa_py_lower(const char *s, size_t n);
/* len() in code points. */
size_t wa_py_len(const char *s);
/* html.unescape: every HTML5 named reference (generated table), numeric
 * references with Python's replacements, the longest-prefix rule. */
char *wa_html_unescape(const char *s);
/* str() of a page.evaluate result: ints as ints, floats as repr (shortest
 * round trip), True/False/None, lists and dicts as Python prints them. */
char *wa_py_str(const cJSON *v);
/* Is tok one of NLTK word_tokenize(text)'s tokens?  Covers what decides it
 * for a one-character reference: Punkt's period breaks (numbers and initials
 * before a lower-case word are no break; no abbreviation list), Treebank's
 * padding of ;@#$%&?!*()[]{}<>"` and curly quotes, ':' and ',' unless a digit
 * follows, '..' runs, '--', the sentence-final period, and the clitics
 * 's 'm 'd 'll 're 've n't and a closing quote. */
int wa_word_tokenize_contains(const char *text, const char *tok);

/* ---- WebArena's matchers ------------------------------------------------------- */

/* StringEvaluator.clean_answer: strip, drop one pair of enclosing quotes, lower. */
char *wa_clean_answer(const char *answer);
/* 1.0 / 0.0 as StringEvaluator.exact_match. */
double wa_exact_match(const char *ref, const char *pred);
/* StringEvaluator.must_include: with tokenize (the list has one entry) and a
 * one-character cleaned reference, ref must be a word_tokenize token of pred;
 * otherwise a substring test. */
double wa_must_include(const char *ref, const char *pred, int tokenize);
/* URLEvaluator "GOLD in PRED": rstrip('/') of each whole URL, then urlparse;
 * any reference netloc+path a substring of pred's; for every query key of any
 * reference (parse_qs: '&' only, blank values dropped, '+' and %XX decoded)
 * one of the references' values among pred's. */
double wa_url_match(const char *reference_urls, const char *pred_url);
/* One program_html target's required_contents against the selected value
 * (already str()'d, before unescape): 1.0 / 0.0; -1 when required_contents
 * has neither exact_match nor must_include. */
double wa_required_contents_score(const cJSON *required_contents, const char *selected);

typedef struct wa_eval_result {
    double score;        /* product over evaluators */
    int needs_judge;     /* a fuzzy_match/ua_match had no model (or its call failed): not scored */
    int unsupported;     /* a func: form that needs WebArena's site APIs */
    char detail[1024];   /* one line: which evaluator failed and why */
} wa_eval_result;

/* What the evaluators read from the browser: the answer (NULL: no stop
 * action, scored as ""), the final URL, and per program_html target the
 * locator's value (a JSON value as page.evaluate returns it; a string for the
 * page source; "" when the locator threw).  values may be NULL when the task
 * has no program_html. */
typedef struct wa_eval_observed {
    const char *answer;
    const char *url;
    const cJSON *values;
} wa_eval_observed;

/* Scores eval against obs; judge (may be NULL) answers fuzzy_match/ua_match. */
void wa_score_observed(const cJSON *eval, const char *intent, const wa_eval_observed *obs,
                          struct llm_client *judge, wa_eval_result *out);

/* Evaluates eval (the task's "eval" object) given the stop answer (may be
 * NULL), the session (for url_match and program_html) and an optional judge.
 * intent is used by the judge.  A program_html page it opens is read once it
 * has settled by x's rule (actions/exec.h; x borrowed, the task's executor;
 * NULL: one is made for the evaluation), where WebArena sleeps 3 s.
 * Infrastructure failures return an error. */
eous_rc wa_evaluate(const cJSON *eval, const char *intent, const char *answer, wd_session *s, act_exec *x,
                    struct llm_client *judge, wa_eval_result *out, eous_err *err);

#endif

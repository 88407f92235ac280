/* tests/test_eval_parity.c — eous's evaluators give WebArena's score on every
 * case of tests/fixtures/eval_parity/cases.jsonl (see its README for how each
 * expected score was derived from WebArena's code). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/eval.h"
#include "llm/llm.h"

#define CASES EOUS_SOURCE_DIR "/tests/fixtures/eval_parity/cases.jsonl"

/* Returns NULL when the case matches, else a malloc'd one-line reason. */
static char *check_case(const cJSON *c)
{
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(c, "expected");
    const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(c, "verdict");
    char *why = NULL;
    if (verdict) {
        const char *kind = eous_json_str(verdict, "kind");
        int v = llm_judge_verdict(!strcmp(kind, "ua") ? LLM_JUDGE_UA : LLM_JUDGE_FUZZY, eous_json_str(verdict, "reply"));
        int w = cJSON_IsNumber(want) ? (int)want->valuedouble : -1;
        if (v != w && asprintf(&why, "verdict %d, want %d", v, w) < 0)
            why = NULL;
        return why;
    }
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(c, "input");
    agent_eval_observed obs = {
        .answer = eous_json_str(in, "answer"),
        .url = eous_json_str(in, "url"),
        .values = cJSON_GetObjectItemCaseSensitive(in, "values"),
    };
    agent_eval_result r;
    agent_score_observed(cJSON_GetObjectItemCaseSensitive(in, "eval"), eous_json_str(in, "intent"), &obs, NULL, &r);
    if (cJSON_IsString(want)) { /* "needs_judge": no verdict without a model, never passed or failed */
        if (!r.needs_judge && asprintf(&why, "status %s, want needs_judge (%s)", r.score >= 1 ? "passed" : "failed",
                                       r.detail) < 0)
            why = NULL;
    } else if (r.needs_judge || r.score != want->valuedouble) {
        if (asprintf(&why, "score %g%s, want %g (%s)", r.score, r.needs_judge ? " needs_judge" : "", want->valuedouble,
                     r.detail) < 0)
            why = NULL;
    }
    return why;
}

Test(eval_parity, every_case_scores_as_webarena)
{
    FILE *f = fopen(CASES, "r");
    cr_assert_not_null(f, "cannot open %s", CASES);
    char *line = NULL;
    size_t cap = 0;
    int total = 0, wrong = 0, scored = 0, verdicts = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *c = cJSON_Parse(line);
        cr_assert_not_null(c, "case line %d is not JSON", total + 1);
        total++;
        if (cJSON_GetObjectItemCaseSensitive(c, "verdict"))
            verdicts++;
        else
            scored++;
        char *why = check_case(c);
        if (why) {
            wrong++;
            cr_log_error("%s: %s — %s", eous_json_str(c, "id"), why, eous_json_str(c, "how"));
            free(why);
        }
        cJSON_Delete(c);
    }
    free(line);
    fclose(f);
    cr_assert_geq(total, 200, "the corpus has %d cases", total);
    cr_assert_gt(verdicts, 0);
    cr_assert_eq(wrong, 0, "%d of %d cases (%d scored, %d verdicts) differ from WebArena", wrong, total, scored,
                 verdicts);
}

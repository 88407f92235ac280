/* tests/fuzz/fuzz_act_parse.c — libFuzzer target for the three action parsers.
 *
 * Input: one selector byte, then the payload.
 *   selector % 3 == 0: model text → act_parse_text
 *   selector % 3 == 1: "NAME\nARGS_JSON" → act_parse_tool_call
 *   selector % 3 == 2: a JSON script step → act_parse_script_step
 * Every action that parses is formatted, copied and compared with its copy.
 * tests/llm/test_llm_corpus.c replays the corpus through the same function with
 * FUZZ_ACT_ENTRY renamed, so the corpus runs in every ordinary test run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"

#ifndef FUZZ_ACT_ENTRY
#define FUZZ_ACT_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ACT_ENTRY(const uint8_t *data, size_t size);

static void fuzz_act_check(const act_action *a)
{
    char *s = act_format(a);
    if (!s)
        abort(); /* formatting a parsed action must always work */
    act_action copy;
    if (act_action_copy(&copy, a, NULL) == EOUS_OK) {
        if (!act_equal(&copy, a))
            abort();
        act_action_clear(&copy);
    }
    free(s);
}

int FUZZ_ACT_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int sel = data[0] % 3;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    act_action a;
    act_action_init(&a);
    eous_err err;
    eous_err_clear(&err);
    eous_rc rc = EOUS_E_PARSE;
    int called = 1;
    if (sel == 0) {
        rc = act_parse_text(text, &a, &err);
    } else if (sel == 1) {
        char *nl = strchr(text, '\n');
        if (nl)
            *nl++ = '\0';
        rc = act_parse_tool_call(text, nl, &a, &err);
    } else {
        cJSON *step = cJSON_Parse(text);
        if (step)
            rc = act_parse_script_step(step, &a, &err);
        else
            called = 0;
        cJSON_Delete(step);
    }
    if (rc == EOUS_OK)
        fuzz_act_check(&a);
    else if (called && (a.kind != ACT_NONE || a.target || a.text || a.params || !err.msg[0] || strchr(err.msg, '\n')))
        abort(); /* failures leave the action cleared and give one line */
    act_action_clear(&a);
    free(text);
    return 0;
}

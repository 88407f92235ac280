/* tests/fuzz/fuzz_task.c — libFuzzer target: task files (one config or a
 * list) → loader, placeholder resolution, script step parsing, evaluator
 * string rules.  tests/fuzz/test_fuzz_corpus.c replays the corpus. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"
#include "webarena/eval.h"
#include "webarena/task.h"

#ifndef FUZZ_TASK_ENTRY
#define FUZZ_TASK_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_TASK_ENTRY(const uint8_t *data, size_t size);

int FUZZ_TASK_ENTRY(const uint8_t *data, size_t size)
{
    setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:9", 0);
    wa_task_list l;
    eous_err err;
    eous_err_clear(&err);
    if (wa_tasks_load_text((const char *)data, size, "fuzz.json", &l, &err) != EOUS_OK) {
        if (!err.msg[0])
            abort();
        return 0;
    }
    for (size_t i = 0; i < l.n; i++) {
        const wa_task *t = &l.tasks[i];
        const cJSON *step;
        cJSON_ArrayForEach(step, t->script) {
            act_action a;
            act_action_init(&a);
            if (act_parse_script_step(step, &a, NULL) == EOUS_OK) {
                char *s = act_format(&a);
                if (!s)
                    abort();
                free(s);
            }
            act_action_clear(&a);
        }
        /* string evaluators never need a browser */
        const cJSON *refs = eous_json_obj(t->eval, "reference_answers");
        const char *ex = refs ? eous_json_str(refs, "exact_match") : NULL;
        if (ex) {
            if (wa_exact_match(ex, ex) != 1.0)
                abort(); /* an answer always matches itself */
            wa_must_include(ex, t->intent ? t->intent : "", 1);
        }
        const char *url = eous_json_str(t->eval, "reference_url");
        if (url)
            wa_url_match(url, url);
    }
    wa_tasks_free(&l);
    return 0;
}

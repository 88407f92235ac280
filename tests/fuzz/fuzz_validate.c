/* tests/fuzz/fuzz_validate.c — libFuzzer target for the params validator.
 *
 * Input: "TOOLS\nMETADATA\nPARAMS" (three JSON texts split at the first two
 * newlines); the validator is run for every tool named in TOOLS (or "t").
 * tests/fuzz/test_fuzz_corpus.c includes this file with FUZZ_VALIDATE_ENTRY renamed, so the corpus runs in
 * every ordinary test run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "actions/validate.h"

#ifndef FUZZ_VALIDATE_ENTRY
#define FUZZ_VALIDATE_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_VALIDATE_ENTRY(const uint8_t *data, size_t size);

int FUZZ_VALIDATE_ENTRY(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *meta = strchr(text, '\n');
    char *params = meta ? strchr(meta + 1, '\n') : NULL;
    if (meta)
        *meta++ = '\0';
    if (params)
        *params++ = '\0';
    cJSON *t = cJSON_Parse(text);
    cJSON *m = meta ? cJSON_Parse(meta) : NULL;
    cJSON *p = params ? cJSON_Parse(params) : NULL;
    eous_err err;
    const cJSON *name;
    int ran = 0;
    cJSON_ArrayForEach(name, t) {
        if (cJSON_IsString(name)) {
            act_validate_meta(t, m, name->valuestring, p, &err);
            ran = 1;
        }
    }
    if (!ran)
        act_validate_meta(t, m, "t", p, &err);
    char out[256];
    const cJSON *tool;
    cJSON_ArrayForEach(tool, m) {
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(tool, "params");
        const cJSON *spec;
        cJSON_ArrayForEach(spec, ps)
            act_spec_describe(spec, out, sizeof out);
    }
    cJSON_Delete(t);
    cJSON_Delete(m);
    cJSON_Delete(p);
    free(text);
    return 0;
}

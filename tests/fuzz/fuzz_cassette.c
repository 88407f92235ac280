/* tests/fuzz/fuzz_cassette.c — libFuzzer target for what the llm layer reads
 * back: cassette files and provider responses.
 *
 * Input: one selector byte, then the payload.
 *   selector % 3 == 0: a cassette file → llm_client_new in replay mode, then
 *                      one step (whose request is almost never recorded)
 *   selector % 3 == 1: an OpenAI Chat Completions response body
 *   selector % 3 == 2: an Anthropic Messages response body
 * tests/llm/test_llm_corpus.c replays the corpus through the same function. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "llm/llm_int.h"

#ifndef FUZZ_CASSETTE_ENTRY
#define FUZZ_CASSETTE_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_CASSETTE_ENTRY(const uint8_t *data, size_t size);

static llm_client *fuzz_cas_client(const char *provider, const char *path)
{
    llm_opts o;
    llm_opts_init(&o);
    o.provider = provider;
    o.model = "gpt-4o";
    o.cassette_mode = LLM_CASSETTE_REPLAY;
    o.cassette_path = path;
    llm_client *c = NULL;
    if (llm_client_new(&o, &c, NULL) != EOUS_OK)
        return NULL;
    return c;
}

int FUZZ_CASSETTE_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int sel = data[0] % 3;
    char path[] = "/tmp/eous-fuzz-cassette-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    if (sel == 0 && size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    act_action a;
    act_action_init(&a);
    llm_usage u;
    memset(&u, 0, sizeof u);
    eous_err err;
    eous_err_clear(&err);
    llm_client *c = fuzz_cas_client(sel == 2 ? "anthropic" : "openai", path);
    if (c && sel == 0) {
        llm_step_input in = {.objective = "o", .url = "u", .observation = "[1] RootWebArea 'x'",
                             .mode = PERC_MODE_HYBRID};
        llm_next_action(c, &in, &a, &u, &err);
    } else if (c) {
        cJSON *root = cJSON_ParseWithLength((const char *)data + 1, size - 1);
        if (root && llm_response_to_action(c, root, &a, &u, &err) == EOUS_OK) {
            char *s = act_format(&a);
            if (!s)
                abort();
            free(s);
        } else if (root && (a.kind != ACT_NONE || !err.msg[0])) {
            abort();
        }
        cJSON_Delete(root);
    }
    llm_client_free(c);
    act_action_clear(&a);
    unlink(path);
    return 0;
}

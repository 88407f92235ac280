/* tests/fuzz/fuzz_har.c — libFuzzer target: the HAR writer's inputs and the
 * HAR reader.  An input is JSON: a list is taken as chromedriver performance
 * log entries (wa_har_build: odd headers, binary and huge bodies, huge
 * URLs, redirects, events out of order); the HAR written must read back
 * (vf_har_parse) when it has entries and never hold the registered secret
 * as it is.  Any input is also read as a HAR and, when it reads, scored by
 * the network evaluator, and when the evaluators' fields alone read
 * (vf_har_prune) they must score exactly as the whole file parsed does.
 * tests/fuzz/test_fuzz_corpus.c replays the corpus. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "webarena/har.h"
#include "webarena/verified.h"
#include "webarena/verified_int.h"
#include "core/core.h"

#ifndef FUZZ_HAR_ENTRY
#define FUZZ_HAR_ENTRY LLVMFuzzerTestOneInput
#endif

#define FUZZ_HAR_SECRET "s3cr3t-Pa55word"

int FUZZ_HAR_ENTRY(const uint8_t *data, size_t size);

int FUZZ_HAR_ENTRY(const uint8_t *data, size_t size)
{
    static cJSON *task;
    if (!task) {
        eous_redact_add(FUZZ_HAR_SECRET);
        setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:8080", 0);
        task = cJSON_Parse("{\"task_id\": 1, \"sites\": [\"playground\"], \"eval\": [{\"evaluator\": "
                           "\"AgentResponseEvaluator\", \"results_schema\": {\"type\": \"null\"}, \"expected\": "
                           "{\"task_type\": \"mutate\", \"status\": \"SUCCESS\", \"retrieved_data\": null}}, "
                           "{\"evaluator\": \"NetworkEventEvaluator\", \"last_event_only\": false, "
                           "\"ignored_query_params_patterns\": [\"^_\"], \"expected\": {\"url\": "
                           "\"__PLAYGROUND__/api/orders\", \"http_method\": \"POST\", \"headers\": {\"referer\": "
                           "\"__PLAYGROUND__/orders\"}, \"post_data\": {\"status\": \"shipped\", \"$.note.text\": "
                           "\"^left.*$\"}, \"response_content\": {\"$.ok\": true}}}]}");
    }
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cJSON *in = cJSON_ParseWithLength(text, size);
    if (cJSON_IsArray(in)) {
        int skipped = 0;
        cJSON *har = wa_har_build(in, &skipped);
        if (!har)
            abort();
        char *out = cJSON_PrintUnformatted(har);
        if (!out || strstr(out, FUZZ_HAR_SECRET))
            abort(); /* a secret reached the HAR */
        vf_har h;
        if (cJSON_GetArraySize(eous_json_arr(eous_json_obj(har, "log"), "entries")) > 0) {
            if (vf_har_parse(out, strlen(out), "fuzz", &h, NULL))
                abort(); /* what we write must read back */
            cJSON *r = vf_score_task(task, NULL, &h);
            cJSON_Delete(r);
            vf_har_free(&h);
        }
        free(out);
        cJSON_Delete(har);
    }
    cJSON_Delete(in);
    vf_har h;
    if (!vf_har_parse(text, size, "fuzz", &h, NULL)) {
        cJSON *resp = cJSON_CreateString("{\"task_type\": \"MUTATE\", \"status\": \"SUCCESS\"}");
        cJSON *r = vf_score_task(task, resp, &h);
        /* the evaluators' fields alone must score as the whole file does (verified_harscan.c) */
        cJSON *all = cJSON_ParseWithLength(text, size);
        vf_har w = {all, eous_json_arr(eous_json_obj(all, "log"), "entries")};
        cJSON *again = vf_har_prune(text, size);
        if (again) {
            vf_har p = {again, eous_json_arr(eous_json_obj(again, "log"), "entries")};
            cJSON *rp = vf_score_task(task, resp, &p), *rw = all ? vf_score_task(task, resp, &w) : NULL;
            if (!rw || !cJSON_Compare(rp, rw, 1))
                abort(); /* a verdict or its detail differs from the whole parse's */
            cJSON_Delete(rp), cJSON_Delete(rw), cJSON_Delete(again);
        }
        cJSON_Delete(all);
        cJSON_Delete(r), cJSON_Delete(resp);
        vf_har_free(&h);
    }
    free(text);
    return 0;
}

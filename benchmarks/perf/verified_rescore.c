/* benchmarks/perf/verified_rescore.c — what re-scoring a WebArena-Verified
 * run directory offline costs per task (`eous score --run`): read the task,
 * its answer and its HAR from disk, run both evaluators.  The tasks are the
 * fixture retrieve tasks (tests/fixtures/verified/tasks.json) each given a
 * NetworkEventEvaluator, the HAR is WebArena-Verified's demo log (800 KB, 359
 * entries, tests/fixtures/verified/demo/network.har).  Writes
 * benchmarks/results/verified_rescore.{json,md} (or argv[1] directory). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webarena/verified.h"
#include "core/core.h"
#include "support/gitrev.h"

#define FIX EOUS_SOURCE_DIR "/tests/fixtures/verified"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : EOUS_SOURCE_DIR "/benchmarks/results";
    setenv("EOUS_SITE_SHOPPING_ADMIN", "http://192.168.1.35:7780/admin", 1);
    eous_err err;
    eous_err_clear(&err);
    cJSON *tasks = eous_json_parse_file(FIX "/tasks.json", 0, &err);
    if (!tasks) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* each task on disk as a run directory would hold it, with a network evaluator */
    char tmp[] = "/tmp/eous-rescore-XXXXXX";
    if (!mkdtemp(tmp))
        return 1;
    int n = 0;
    cJSON *t;
    cJSON_ArrayForEach(t, tasks) {
        cJSON *c = cJSON_Duplicate(t, 1);
        cJSON_ReplaceItemInObjectCaseSensitive(c, "sites", cJSON_Parse("[\"shopping_admin\"]"));
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(c, "eval"),
                             cJSON_Parse("{\"evaluator\": \"NetworkEventEvaluator\", \"last_event_only\": false, "
                                         "\"ignored_query_params_patterns\": [\"^sorting\", \"isAjax\"], \"expected\": "
                                         "{\"url\": \"__SHOPPING_ADMIN__/mui/index/render/?namespace=notification_area\", "
                                         "\"headers\": {\"referer\": \"__SHOPPING_ADMIN__/customer/index/\"}}}"));
        char p[200];
        snprintf(p, sizeof p, "%s/%d.json", tmp, n++);
        char *text = eous_json_print(c);
        eous_write_file_atomic(p, text, strlen(text), NULL);
        free(text);
        cJSON_Delete(c);
    }
    const char *answer = "{\"task_type\": \"RETRIEVE\", \"status\": \"SUCCESS\", \"retrieved_data\": [\"x\"]}";
    static const char *hars[] = {FIX "/demo/network.har", FIX "/eous_dokuwiki.har"};
    static const char *har_names[] = {"WebArena-Verified's demo HAR (800 KB, 359 entries)",
                                      "an eous HAR of the DokuWiki mutate task (200 KB, 124 entries)"};
    double med[2], p10[2], p90[2], max[2];
    int scored_ok = 0;
    enum { ROUNDS = 3 };
    double *ms = malloc(sizeof *ms * (size_t)n * ROUNDS);
    for (int hi = 0; hi < 2; hi++) {
    int k = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < n; i++) {
            double t0 = eous_now_ms();
            char p[200];
            snprintf(p, sizeof p, "%s/%d.json", tmp, i);
            cJSON *task = eous_json_parse_file(p, 0, NULL);
            vf_har har;
            if (vf_har_load(hars[hi], &har, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            cJSON *resp = cJSON_CreateString(answer);
            cJSON *res = vf_score_task(task, resp, &har);
            const cJSON *ev = cJSON_GetArrayItem(eous_json_arr(res, "evaluators"), 1);
            scored_ok += hi == 0 && eous_json_num(ev, "score", 0) == 1;
            cJSON_Delete(res), cJSON_Delete(resp), cJSON_Delete(task);
            vf_har_free(&har);
            ms[k++] = eous_now_ms() - t0;
        }
    }
    qsort(ms, (size_t)k, sizeof *ms, cmp);
    med[hi] = ms[k / 2], p10[hi] = ms[k / 10], p90[hi] = ms[(k * 9) / 10], max[hi] = ms[k - 1];
    }
    eous_rmtree(tmp);
    char commit[64];
    ts_git_commit(commit, sizeof commit);
    char path[600];
    snprintf(path, sizeof path, "%s/verified_rescore.json", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "{\"commit\": \"%s\", \"tasks\": %d, \"rounds\": %d, \"network_matches_demo\": %d, \"rescore_ms_per_task\": [\n",
                commit, n, ROUNDS, scored_ok);
        for (int hi = 0; hi < 2; hi++)
            fprintf(f, "  {\"har\": \"%s\", \"median\": %.2f, \"p10\": %.2f, \"p90\": %.2f, \"max\": %.2f}%s\n",
                    har_names[hi], med[hi], p10[hi], p90[hi], max[hi], hi ? "" : ",");
        fprintf(f, "]}\n");
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/verified_rescore.md", dir);
    f = fopen(path, "w");
    if (f) {
        fprintf(f,
                "# Re-scoring a WebArena-Verified task offline (commit %s)\n\n"
                "`build/perf_verified_rescore`: per task, read task.json, the answer and the HAR from disk, then "
                "AgentResponseEvaluator and NetworkEventEvaluator (every entry's URL normalised); %d tasks x %d "
                "rounds on this 2-core machine shared with other jobs (load average about 17 while measured).\n\n"
                "| HAR | median ms | p10 | p90 | max |\n|---|---|---|---|---|\n",
                commit, n, ROUNDS);
        for (int hi = 0; hi < 2; hi++)
            fprintf(f, "| %s | %.2f | %.2f | %.2f | %.2f |\n", har_names[hi], med[hi], p10[hi], p90[hi], max[hi]);
        fprintf(f, "\nGoal: under 10 ms per task. Parsing the HAR (cJSON) is most of it.\n");
        fclose(f);
    }
    printf("re-score median %.2f ms (demo HAR) / %.2f ms (eous HAR); network evaluator matched %d\n", med[0], med[1],
           scored_ok);
    free(ms);
    cJSON_Delete(tasks);
    return 0;
}

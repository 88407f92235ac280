/* benchmarks/perf/verified_rescore.c — what re-scoring a WebArena-Verified
 * run directory offline costs per task (`eous score --run`): read the task,
 * its answer and its HAR from disk, run both evaluators.  The tasks are the
 * fixture retrieve tasks (tests/fixtures/verified/tasks.json) each given a
 * NetworkEventEvaluator, the HAR is WebArena-Verified's demo log (800 KB, 359
 * entries, tests/fixtures/verified/demo/network.har), and an eous HAR; each
 * read as eous score reads it and, side by side, parsed whole (the way it
 * was read before verified_harscan.c).  Wall and CPU time, median and p95;
 * the load average at start and end.  Writes
 * benchmarks/results/verified_rescore.{json,md} (or argv[1] directory). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "webarena/verified.h"
#include "core/core.h"
#include "support/gitrev.h"

#define FIX EOUS_SOURCE_DIR "/tests/fixtures/verified"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { ROUNDS = 7 };

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void loadavg(double out[3])
{
    out[0] = out[1] = out[2] = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &out[0], &out[1], &out[2]) != 3)
            out[0] = -1;
        fclose(f);
    }
}

/* The HAR parsed whole into cJSON, as vf_har_load did before it kept only the evaluators' fields. */
static eous_rc whole(const char *path, vf_har *h, eous_err *err)
{
    h->root = eous_json_parse_file(path, 0, err);
    h->entries = eous_json_arr(eous_json_obj(h->root, "log"), "entries");
    return h->entries ? EOUS_OK : EOUS_E_INVALID;
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
    /* per HAR and way of reading it: wall and CPU ms per task, median and p95 */
    double wall_med[2][2], wall_p95[2][2], cpu_med[2][2], cpu_p95[2][2];
    int scored_ok[2] = {0, 0};
    double *wall = malloc(sizeof *wall * (size_t)n * ROUNDS), *cpu = malloc(sizeof *cpu * (size_t)n * ROUNDS);
    double load0[3];
    loadavg(load0);
    for (int hi = 0; hi < 2; hi++) {
        for (int way = 0; way < 2; way++) { /* 0: as eous score reads it (vf_har_load), 1: the whole file parsed */
            int k = 0;
            for (int r = 0; r < ROUNDS; r++) {
                for (int i = 0; i < n; i++) {
                    double t0 = eous_now_ms(), c0 = cpu_ms();
                    char p[200];
                    snprintf(p, sizeof p, "%s/%d.json", tmp, i);
                    cJSON *task = eous_json_parse_file(p, 0, NULL);
                    vf_har har = {0};
                    if (way == 0 ? vf_har_load(hars[hi], &har, &err) : whole(hars[hi], &har, &err)) {
                        fprintf(stderr, "%s\n", err.msg);
                        return 1;
                    }
                    cJSON *resp = cJSON_CreateString(answer);
                    cJSON *res = vf_score_task(task, resp, &har);
                    const cJSON *ev = cJSON_GetArrayItem(eous_json_arr(res, "evaluators"), 1);
                    scored_ok[way] += hi == 0 && r == 0 && eous_json_num(ev, "score", 0) == 1;
                    cJSON_Delete(res), cJSON_Delete(resp), cJSON_Delete(task);
                    vf_har_free(&har);
                    cpu[k] = cpu_ms() - c0;
                    wall[k++] = eous_now_ms() - t0;
                }
            }
            qsort(wall, (size_t)k, sizeof *wall, cmp);
            qsort(cpu, (size_t)k, sizeof *cpu, cmp);
            wall_med[hi][way] = wall[k / 2], wall_p95[hi][way] = wall[(k * 95) / 100];
            cpu_med[hi][way] = cpu[k / 2], cpu_p95[hi][way] = cpu[(k * 95) / 100];
        }
    }
    double load1[3];
    loadavg(load1);
    eous_rmtree(tmp);
    char commit[64];
    ts_git_commit(commit, sizeof commit);
    static const char *ways[] = {"eous score (the evaluators' fields)", "whole HAR parsed (before)"};
    char path[600];
    snprintf(path, sizeof path, "%s/verified_rescore.json", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "{\"commit\": \"%s\", \"tasks\": %d, \"rounds\": %d, \"loadavg_1min\": [%.2f, %.2f], "
                   "\"network_matches_demo\": %d, \"network_matches_demo_whole\": %d, \"rescore_ms_per_task\": [\n",
                commit, n, ROUNDS, load0[0], load1[0], scored_ok[0], scored_ok[1]);
        for (int hi = 0; hi < 2; hi++)
            for (int way = 0; way < 2; way++)
                fprintf(f, "  {\"har\": \"%s\", \"read\": \"%s\", \"wall_median\": %.2f, \"wall_p95\": %.2f, "
                           "\"cpu_median\": %.2f, \"cpu_p95\": %.2f}%s\n",
                        har_names[hi], ways[way], wall_med[hi][way], wall_p95[hi][way], cpu_med[hi][way],
                        cpu_p95[hi][way], hi && way ? "" : ",");
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
                "rounds, per HAR, read as `eous score` reads it (only the fields the evaluators read become JSON "
                "nodes, `webarena/verified_harscan.c`) and, side by side, with the whole file parsed as before. "
                "On this 2-core machine the load average (1 min) was %.1f at the start and %.1f at the end (above "
                "2, wall time includes waiting for a core); CPU time is the process's own.\n\n"
                "| HAR | read | wall median ms | wall p95 | CPU median ms | CPU p95 |\n|---|---|---|---|---|---|\n",
                commit, n, ROUNDS, load0[0], load1[0]);
        for (int hi = 0; hi < 2; hi++)
            for (int way = 0; way < 2; way++)
                fprintf(f, "| %s | %s | %.2f | %.2f | %.2f | %.2f |\n", har_names[hi], ways[way], wall_med[hi][way],
                        wall_p95[hi][way], cpu_med[hi][way], cpu_p95[hi][way]);
        fprintf(f, "\nGoal: under 10 ms per task. The network evaluator matched on %d of the demo HAR's tasks read "
                   "either way (%d with the whole file): the same verdicts.\n",
                scored_ok[0], scored_ok[1]);
        fclose(f);
    }
    printf("re-score median %.2f ms wall / %.2f ms CPU (demo HAR; whole parse %.2f / %.2f), %.2f / %.2f (eous HAR); "
           "load %.1f -> %.1f\n",
           wall_med[0][0], cpu_med[0][0], wall_med[0][1], cpu_med[0][1], wall_med[1][0], cpu_med[1][0], load0[0],
           load1[0]);
    free(wall), free(cpu);
    cJSON_Delete(tasks);
    return 0;
}

/* benchmarks/perf/har_overhead.c — what the network log costs a Playground
 * task: the same tasks (their scripts, hybrid mode) on two sessions of one
 * chromedriver, one opened with the performance log (network_log) and one
 * without, alternating task by task; on the logged session each task also
 * empties the log before it starts and builds and writes its HAR after it
 * ends, as a WebArena-Verified run does.  Needs benchmarks/grounds/playground/dist
 * (make site).  Writes benchmarks/results/har_overhead.{json,md} (or argv[2]
 * directory); argv[1] = rounds (default 3). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/task_job.h"
#include "webarena/har.h"
#include "agent/run.h"
#include "webarena/task.h"
#include "bench/verified_run.h"
#include "support/browser.h"
#include "support/gitrev.h"

#define N_TASKS 12

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double loadavg1(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n ? v[n / 2] : 0;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    const char *dir = argc > 2 ? argv[2] : EOUS_SOURCE_DIR "/benchmarks/results";
    if (rounds < 1 || rounds > 50)
        rounds = 3;
    const char *root = ts_site_root();
    if (!root) {
        fprintf(stderr, "perf_har_overhead: the Playground is not built (make site)\n");
        return 2;
    }
    ts_server *srv = ts_server_start(root);
    if (!srv)
        return 3;
    char base[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", ts_server_port(srv));
    setenv("EOUS_SITE_PLAYGROUND", base, 1);
    eous_err err;
    eous_err_clear(&err);
    wd_driver *drv = NULL;
    wd_session *off = NULL, *on = NULL;
    wd_session_opts o;
    wd_session_opts_init(&o);
    if (wd_driver_spawn(NULL, &drv, &err) || wd_session_new(wd_driver_url(drv), &o, &off, &err)) {
        fprintf(stderr, "perf_har_overhead: %s\n", err.msg);
        return 3;
    }
    o.network_log = 1;
    if (wd_session_new(wd_driver_url(drv), &o, &on, &err)) {
        fprintf(stderr, "perf_har_overhead: %s\n", err.msg);
        return 3;
    }
    char *files[N_TASKS];
    for (int i = 0; i < N_TASKS; i++)
        if (asprintf(&files[i], "%s/benchmarks/grounds/tasks/playground/%03d.json", EOUS_SOURCE_DIR, i) < 0)
            return 1;
    wa_task_list l;
    if (wa_tasks_load((const char *const *)files, N_TASKS, &l, &err)) {
        fprintf(stderr, "perf_har_overhead: %s\n", err.msg);
        return 2;
    }
    char tmp[] = "/tmp/eous-haroh-XXXXXX";
    if (!mkdtemp(tmp))
        return 1;
    double *w_off = calloc((size_t)(rounds * N_TASKS), sizeof(double));
    double *w_on = calloc((size_t)(rounds * N_TASKS), sizeof(double));
    double *har_ms = calloc((size_t)(rounds * N_TASKS), sizeof(double));
    double sum_off = 0, sum_on = 0, entries = 0;
    int n = 0, passed_off = 0, passed_on = 0;
    double load0 = loadavg1();
    for (int r = 0; r < rounds; r++) {
        for (size_t i = 0; i < l.n; i++) {
            for (int side = 0; side < 2; side++) {
                int logged = (side + r + (int)i) % 2; /* alternate which goes first */
                wd_session *s = logged ? on : off;
                agent_run_opts ro;
                agent_run_opts_init(&ro);
                ro.mode = PERC_MODE_HYBRID;
                agent_result res;
                double t0 = eous_now_ms();
                if (logged)
                    bench_verified_begin(s, &l.tasks[i]);
                agent_job job;
                bench_task_job(&l.tasks[i], &job);
                eous_rc rc = agent_run_task(s, &job, &ro, &res, &err);
                if (logged) {
                    double h0 = eous_now_ms();
                    cJSON *log = NULL;
                    if (!wd_perf_log(s, &log, &err)) {
                        cJSON *har = wa_har_build(log, NULL);
                        entries += cJSON_GetArraySize(eous_json_arr(eous_json_obj(har, "log"), "entries"));
                        char *text = eous_json_print(har);
                        char path[200];
                        snprintf(path, sizeof path, "%s/network.har", tmp);
                        if (text)
                            eous_write_file_atomic(path, text, strlen(text), NULL);
                        free(text);
                        cJSON_Delete(har);
                    }
                    cJSON_Delete(log);
                    har_ms[n] = eous_now_ms() - h0;
                }
                double w = eous_now_ms() - t0;
                int ok = !rc && res.status == EOUS_ST_PASSED;
                if (logged)
                    w_on[n] = w, sum_on += w, passed_on += ok;
                else
                    w_off[n] = w, sum_off += w, passed_off += ok;
                agent_result_clear(&res);
            }
            n++;
        }
    }
    double load1 = loadavg1();
    eous_rmtree(tmp);
    /* per task, the pair's ratio: less sensitive to the load of a shared machine than the totals */
    double *pair = calloc((size_t)n + 1, sizeof(double));
    for (int i = 0; i < n; i++)
        pair[i] = w_off[i] > 0 ? w_on[i] / w_off[i] : 1;
    double m_pair = median(pair, n);
    free(pair);
    double m_off = median(w_off, n), m_on = median(w_on, n), m_har = median(har_ms, n);
    double ratio = sum_off > 0 ? sum_on / sum_off : 0;
    char commit[64];
    ts_git_commit(commit, sizeof commit);
    char path[600];
    snprintf(path, sizeof path, "%s/har_overhead.json", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f,
                "{\"commit\": \"%s\", \"tasks\": %zu, \"rounds\": %d, \"passed_off\": %d, \"passed_on\": %d,\n"
                " \"wall_ms_per_task_median\": {\"off\": %.1f, \"on\": %.1f}, \"total_wall_ratio_on_off\": %.4f,\n"
                " \"pair_ratio_on_off_median\": %.4f, \"har_build_write_ms_median\": %.2f, \"har_entries_mean\": %.1f,\n"
                " \"loadavg_1min\": [%.2f, %.2f]}\n",
                commit, l.n, rounds, passed_off, passed_on, m_off, m_on, ratio, m_pair, m_har, n ? entries / n : 0,
                load0, load1);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/har_overhead.md", dir);
    f = fopen(path, "w");
    if (f) {
        fprintf(f,
                "# The network log's cost on Playground tasks (commit %s)\n\n"
                "`build/perf_har_overhead %d`: Playground tasks 000-%03zu (their scripts, hybrid mode), each run "
                "on a session without the performance log and on one with it (emptied before the task, the HAR "
                "built and written after it; Chromium keeps no response bodies unless an evaluator reads them), "
                "alternating which goes first; %d rounds, one chromedriver; this 2-core machine's load average "
                "(1 min) %.1f at the start, %.1f at the end (above 2, other work shared the cores).\n\n"
                "| | off | on |\n|---|---|---|\n"
                "| wall ms per task, median | %.1f | %.1f |\n| tasks passed | %d | %d |\n\n"
                "Total wall time on/off: **%.3f**; the median of each task's on/off pair: **%.3f** (goal: at most "
                "1.05). HAR build + write: median %.2f ms per task, %.1f entries per HAR on average.\n",
                commit, rounds, l.n - 1, rounds, load0, load1, m_off, m_on, passed_off, passed_on, ratio, m_pair, m_har,
                n ? entries / n : 0);
        fclose(f);
    }
    printf("wall per task median off %.1f ms, on %.1f ms; total on/off %.3f; HAR build+write %.2f ms\n", m_off, m_on,
           ratio, m_har);
    wa_tasks_free(&l);
    for (int i = 0; i < N_TASKS; i++)
        free(files[i]);
    free(w_off), free(w_on), free(har_ms);
    wd_session_free(off);
    wd_session_free(on);
    wd_driver_free(drv);
    ts_server_stop(srv);
    return 0;
}

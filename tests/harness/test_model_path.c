/* tests/harness/test_model_path.c — the model path end to end: `eous bench --planner llm` on real
 * Chromium over the Playground, the model played by the view-bound stand-in
 * (benchmarks/standin), which acts only on what each request shows.  One
 * action per reply with deltas on (the default conversation) must pass: a
 * delta whose base view is not in the same request makes the stand-in stop
 * with "cannot see the view this delta refers to".  A task from each screen
 * and tier, hybrid and atomic, on two workers, each its own model client. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "webarena/task.h"
#include "core/core.h"
#include "support/cli.h"
#include "support/service.h"
#include "support/testsrv.h"
#include "support/workdir.h"
#include "support/grounds.h"

static char tmpdir[256], out_path[300], err_path[300], log_path[300];
static ts_server *site;
static pid_t standin = -1;
static char standin_url[64];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "model-path", NULL, NULL, 0);
    snprintf(out_path, sizeof out_path, "%s/out.txt", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/err.txt", tmpdir);
    snprintf(log_path, sizeof log_path, "%s/standin.jsonl", tmpdir);
    site = ts_server_start(TS_PLAYGROUND_DIST);
    cr_assert_not_null(site, "the Playground is built (scripts/build-site)");
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(site), 1);
    cr_assert_eq(ts_standin_start(log_path, &standin, standin_url, sizeof standin_url), 0, "the stand-in starts");
}

static void teardown(void)
{
    ts_service_stop(standin);
    standin = -1;
    if (site)
        ts_server_stop(site);
    site = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(model_path, .init = setup, .fini = teardown, .timeout = 1200);

/* The first task of each (screen, tier) pair, linked into dir; how many. */
static int make_slice(const char *dir)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/playground", TS_TASKS);
    struct dirent **names = NULL;
    int n = scandir(src, &names, NULL, alphasort), picked = 0;
    char seen[32][48];
    int ns = 0;
    for (int i = 0; i < n; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", src, names[i]->d_name);
        size_t len = strlen(names[i]->d_name);
        cJSON *t = len > 5 && !strcmp(names[i]->d_name + len - 5, ".json") ? eous_json_parse_file(path, 1 << 20, NULL)
                                                                           : NULL;
        char key[48];
        snprintf(key, sizeof key, "%s/%s", eous_json_str(t, "screen") ? eous_json_str(t, "screen") : "?",
                 eous_json_str(t, "tier") ? eous_json_str(t, "tier") : "?");
        int dup = !t;
        for (int k = 0; k < ns && !dup; k++)
            dup = !strcmp(seen[k], key);
        if (!dup && ns < 32) {
            snprintf(seen[ns++], sizeof seen[0], "%s", key);
            char link[600];
            snprintf(link, sizeof link, "%s/%s", dir, names[i]->d_name);
            cr_assert_eq(symlink(path, link), 0);
            picked++;
        }
        cJSON_Delete(t);
        free(names[i]);
    }
    free(names);
    return picked;
}

Test(model_path, one_action_per_reply_with_deltas_passes_through_the_stand_in)
{
    char slice[300], outdir[300];
    snprintf(slice, sizeof slice, "%s/slice", tmpdir);
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    cr_assert_eq(mkdir(slice, 0755), 0);
    int n = make_slice(slice);
    cr_assert_geq(n, 10, "every screen and tier: %d tasks", n);
    const char *args[] = {"bench", slice, "--modes", "hybrid,atomic", "--planner", "llm", "--llm", "openai:standin",
                          "--llm-base-url", standin_url, "--max-batch", "1", "--workers", "2", "--out", outdir, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 1100);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *results = ts_slurp(path);
    cr_expect_eq(ts_count_lines(results), 2 * n, "a line per task and mode");
    cr_expect(strstr(results, "\"history\":\"full\""), "the default conversation");
    /* each task that did not pass, with what the stand-in said (its stop answer) */
    char failed[4096] = "";
    size_t used = 0;
    for (char *line = strtok(results, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *r = cJSON_Parse(line);
        const char *status = eous_json_str(r, "status");
        if (status && strcmp(status, "passed") && used < sizeof failed - 1)
            used += (size_t)snprintf(failed + used, sizeof failed - used, "\n  task %s %s: %s (%s)",
                                     eous_json_str(r, "task_id"), eous_json_str(r, "mode"), status,
                                     eous_json_str(r, "answer") ? eous_json_str(r, "answer") : "no answer");
        cJSON_Delete(r);
    }
    cr_expect_eq(rc, 0, "every task passed; not:%s", failed);
    free(results);
    /* deltas were really sent, and the stand-in never lacked a delta's base */
    cr_expect_not_null(ts_file_with(outdir, "\"obs_delta\":true"), "some observation went as a delta");
    char *log = ts_slurp(log_path);
    cr_expect_null(strstr(log, "cannot see the view this delta refers to"), "a delta without its base");
    cr_expect_null(strstr(log, "cannot see"), "the stand-in saw everything it needed");
    /* two workers, each with its own model client, asked at once: one task's requests are not all
     * in a row (on one worker the log changes task as often as there are tasks, less one) */
    int changes = 0, prev = -1;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *e = cJSON_Parse(line);
        int id = (int)eous_json_num(e, "task_id", -1);
        changes += prev >= 0 && id != prev;
        prev = id;
        cJSON_Delete(e);
    }
    cr_expect_geq(changes, n, "the model's requests interleave across tasks (%d changes of task, %d tasks)", changes,
                  n);
    free(log);
}

/* tests/harness/test_compare.c — `eous compare RUN_A RUN_B`: two run directories whose
 * result lines are written by agent_result_json (the runner's own writer),
 * with known differences; the CLI must report exactly those. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent/run.h"
#include "bench/verified_run.h"
#include "core/core.h"
#include "support/cli.h"
#include "support/workdir.h"

static char tmpdir[256], run_a[300], run_b[300], out_path[300], err_path[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "compare", NULL, NULL, 0);
    snprintf(run_a, sizeof run_a, "%s/a", tmpdir);
    snprintf(run_b, sizeof run_b, "%s/b", tmpdir);
    cr_assert_eq(mkdir(run_a, 0755), 0);
    cr_assert_eq(mkdir(run_b, 0755), 0);
    snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(compare, .init = setup, .fini = teardown, .timeout = 60);

/* Appends one result line, as the runner writes it. */
static void put(const char *run, const char *task, const char *mode, const char *status, int steps, size_t tokens,
                double wall_ms)
{
    agent_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.task_id, sizeof r.task_id, "%s", task);
    snprintf(r.mode, sizeof r.mode, "%s", mode);
    snprintf(r.planner, sizeof r.planner, "script");
    r.status = eous_status_parse(status);
    r.steps = steps;
    r.obs.tokens = tokens;
    r.time.wall_ms = wall_ms;
    char *line = agent_result_json(&r);
    cr_assert(line);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", run);
    FILE *f = fopen(path, "a");
    cr_assert(f);
    fprintf(f, "%s\n", line);
    fclose(f);
    free(line);
}

static int compare(const char *a, const char *b, const char *format)
{
    const char *args[] = {"compare", a, b, "--format", format, NULL};
    return ts_cli_run(args, out_path, err_path, 30);
}

static void known_difference(void)
{
    put(run_a, "9", "hybrid", "passed", 4, 2000, 3000);
    put(run_b, "9", "hybrid", "passed", 4, 2000, 3100);   /* only time differs: not a change */
    put(run_a, "10", "hybrid", "passed", 5, 3000, 4000);
    put(run_b, "10", "hybrid", "failed", 7, 3500, 5000);  /* regression */
    put(run_a, "2", "atomic", "failed", 9, 9000, 9000);
    put(run_b, "2", "atomic", "passed", 8, 8000, 8000);   /* fix */
    put(run_a, "3", "atomic", "passed", 6, 600, 1000);
    put(run_b, "3", "atomic", "infra", 0, 0, 10);         /* unsettled, not a regression */
    put(run_a, "4", "atomic", "passed", 3, 300, 1000);    /* dropped from B: a regression */
    put(run_b, "5", "atomic", "passed", 3, 300, 1000);    /* only in B */
}

Test(compare, reports_exactly_the_known_difference_in_markdown)
{
    known_difference();
    cr_assert_eq(compare(run_a, run_b, "md"), 1, "regressions exit 1");
    char *o = ts_slurp(out_path);
    cr_assert(strstr(o, "A → B: 2 regressions (1 passed→failed, 1 dropped), 1 fix, 1 unsettled, 0 other changes, "
                        "1 only in B; passed 4/5 → 3/5; over the 4 in both: steps/task 6.00 → 4.75 (-20.8%)"),
              "%s", o);
    /* rows in task order (2, 3, 4, 5, 10), task 9 (time only) absent */
    const char *r2 = strstr(o, "| 2 | atomic | failed | passed | fix | 9 → 8 | 9000 → 8000 | 9.0 → 8.0 |");
    const char *r3 = strstr(o, "| 3 | atomic | passed | infra | unsettled |");
    const char *r4 = strstr(o, "| 4 | atomic | passed | – | dropped | 3 → – |");
    const char *r5 = strstr(o, "| 5 | atomic | – | passed | only in B |");
    const char *r10 = strstr(o, "| 10 | hybrid | passed | failed | regression | 5 → 7 | 3000 → 3500 | 4.0 → 5.0 |");
    cr_assert(r2 && r3 && r4 && r5 && r10, "%s", o);
    cr_assert(r2 < r3 && r3 < r4 && r4 < r5 && r5 < r10, "numeric task order: %s", o);
    cr_assert_null(strstr(o, "| 9 |"), "a time-only difference is not listed: %s", o);
    free(o);
}

Test(compare, json_counts_and_every_pair)
{
    known_difference();
    cr_assert_eq(compare(run_a, run_b, "json"), 1);
    char *o = ts_slurp(out_path);
    cJSON *j = cJSON_Parse(o);
    cr_assert(j, "%s", o);
    const cJSON *k = cJSON_GetObjectItem(j, "counts");
    cr_assert_eq(cJSON_GetObjectItem(k, "regressions")->valueint, 2);
    cr_assert_eq(cJSON_GetObjectItem(k, "dropped")->valueint, 1);
    cr_assert_eq(cJSON_GetObjectItem(k, "fixes")->valueint, 1);
    cr_assert_eq(cJSON_GetObjectItem(k, "unsettled")->valueint, 1);
    cr_assert_eq(cJSON_GetObjectItem(k, "only_b")->valueint, 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")), 6, "every pair, unchanged ones too");
    cJSON_Delete(j);
    free(o);
}

Test(compare, identical_runs_exit_0_and_b_fixing_a_is_not_a_regression)
{
    put(run_a, "1", "hybrid", "failed", 4, 100, 10);
    put(run_b, "1", "hybrid", "passed", 4, 100, 10);
    cr_assert_eq(compare(run_a, run_a, "md"), 0);
    char *o = ts_slurp(out_path);
    cr_assert(strstr(o, "No task × mode differs"), "%s", o);
    free(o);
    cr_assert_eq(compare(run_a, run_b, "md"), 0, "a fix alone exits 0");
}

Test(compare, a_resumed_rerun_counts_its_last_line_and_reports_the_failed_attempt)
{
    put(run_a, "1", "hybrid", "passed", 4, 100, 10);
    put(run_b, "1", "hybrid", "failed", 4, 100, 10);
    put(run_b, "1", "hybrid", "passed", 4, 100, 10);   /* rerun */
    cr_assert_eq(compare(run_a, run_b, "md"), 0);
    char *o = ts_slurp(out_path);
    cr_expect(strstr(o, "failed attempts a retry or a resumed run followed: 0 → 1"), "%s", o);
    free(o);
    cr_assert_eq(compare(run_a, run_b, "json"), 0);
    o = ts_slurp(out_path);
    cr_expect(strstr(o, "\"failed_attempts_b\":1"), "%s", o);
    free(o);
}

Test(compare, a_last_line_cut_by_a_crash_is_skipped_but_a_broken_middle_line_is_bad_input)
{
    put(run_a, "1", "hybrid", "passed", 4, 100, 10);
    put(run_b, "1", "hybrid", "passed", 4, 100, 10);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", run_b);
    FILE *f = fopen(path, "a");
    fputs("{\"task_id\":\"2\",\"mo", f);   /* no newline: the writer died here */
    fclose(f);
    cr_assert_eq(compare(run_a, run_b, "md"), 0);
    char *e = ts_slurp(err_path);
    cr_assert(strstr(e, "cut short"), "%s", e);
    free(e);
    f = fopen(path, "a");
    fputs("\n", f);
    fclose(f);
    put(run_b, "3", "hybrid", "passed", 4, 100, 10);
    cr_assert_eq(compare(run_a, run_b, "md"), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "results.jsonl:2: not a JSON object"), "%s", e);
    cr_assert_eq(ts_count_lines(e), 1, "%s", e);
    free(e);
}

Test(compare, bad_input_is_one_line_exit_2)
{
    const char *missing = "/nonexistent-eous-run";
    cr_assert_eq(compare(run_a, missing, "md"), 2);
    char *e = ts_slurp(err_path);
    cr_assert(strstr(e, "no results.jsonl") || strstr(e, "no such run"), "%s", e);
    cr_assert_eq(ts_count_lines(e), 1, "%s", e);
    free(e);
    put(run_a, "1", "hybrid", "passed", 4, 100, 10);
    put(run_b, "1", "hybrid", "passed", 4, 100, 10);
    cr_assert_eq(compare(run_a, run_b, "yaml"), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "--format 'yaml'"), "%s", e);
    free(e);
    const char *one[] = {"compare", run_a, NULL};
    cr_assert_eq(ts_cli_run(one, out_path, err_path, 30), 2);
    char bad[400];
    snprintf(bad, sizeof bad, "%s/results.jsonl", run_b);
    FILE *f = fopen(bad, "w");
    fputs("{\"mode\":\"hybrid\",\"status\":\"passed\"}\n", f);
    fclose(f);
    cr_assert_eq(compare(run_a, run_b, "md"), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "results.jsonl:1: no string \"task_id\""), "%s", e);
    free(e);
}

/* A verified task's result line, as the runner writes it: its evaluators from a score such as
 * vf_score_task returns (bench_verified_evaluators), its answer and HAR beside the trace. */
static void put_verified(const char *run, const char *task, const char *status, const char *response_st,
                         const char *network_st)
{
    agent_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.task_id, sizeof r.task_id, "%s", task);
    snprintf(r.mode, sizeof r.mode, "atomic");
    r.status = eous_status_parse(status);
    r.steps = 3;
    snprintf(r.bench.agent_response, sizeof r.bench.agent_response, "trace/%s-atomic/agent_response.json", task);
    snprintf(r.bench.har, sizeof r.bench.har, "trace/%s-atomic/network.har", task);
    char score[600];
    snprintf(score, sizeof score,
             "{\"score\":0,\"evaluators\":[{\"evaluator\":\"AgentResponseEvaluator\",\"status\":\"%s\","
             "\"assertions\":[]},{\"evaluator\":\"NetworkEventEvaluator\",\"status\":\"%s\",\"assertions\":"
             "[{\"assertion_name\":\"network_event.post_data_mismatch\",\"assertion_msgs\":[\"m\"]}]}]}",
             response_st, network_st);
    cJSON *sc = cJSON_Parse(score);
    r.bench.evaluators = bench_verified_evaluators(sc);
    cJSON_Delete(sc);
    char *line = agent_result_json(&r);
    agent_result_clear(&r);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", run);
    FILE *f = fopen(path, "a");
    cr_assert(f);
    fprintf(f, "%s\n", line);
    fclose(f);
    free(line);
}

/* Both runs failed 9001, but B fails another evaluator: a change, listed with each evaluator's move and
 * links to both runs' answers and HARs; 9002 is the same in both and stays out of the table. */
Test(compare, a_verified_task_whose_evaluators_moved_is_listed_with_its_har)
{
    put_verified(run_a, "9001", "failed", "failure", "success");
    put_verified(run_b, "9001", "failed", "success", "failure");
    put_verified(run_a, "9002", "passed", "success", "success");
    put_verified(run_b, "9002", "passed", "success", "success");
    cr_assert_eq(compare(run_a, run_b, "md"), 0, "no regression");
    char *o = ts_slurp(out_path);
    char want[1200];
    snprintf(want, sizeof want,
             "| 9001 | atomic | failed | failed | changed | 3 → 3 | 0 → 0 | 0.0 → 0.0 | AgentResponseEvaluator failure "
             "→ success · NetworkEventEvaluator success → failure · answer [A](%s/trace/9001-atomic/agent_response.json) "
             "[B](%s/trace/9001-atomic/agent_response.json) · HAR [A](%s/trace/9001-atomic/network.har) "
             "[B](%s/trace/9001-atomic/network.har) |",
             run_a, run_b, run_a, run_b);
    cr_expect(strstr(o, want), "%s", o);
    cr_expect(strstr(o, "| evaluators (WebArena-Verified) |"), "%s", o);
    cr_expect_null(strstr(o, "| 9002 |"), "%s", o);
    free(o);
    cr_assert_eq(compare(run_a, run_b, "json"), 0);
    o = ts_slurp(out_path);
    cJSON *j = cJSON_Parse(o);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    cr_expect_str_eq(eous_json_str(row, "change"), "changed", "%s", o);
    const cJSON *b = eous_json_obj(row, "b");
    cr_expect_str_eq(eous_json_str(eous_json_obj(b, "evaluators"), "NetworkEventEvaluator"), "failure", "%s", o);
    cr_expect(strstr(eous_json_str(b, "har"), "/b/trace/9001-atomic/network.har"), "%s", o);
    cJSON_Delete(j);
    free(o);
}

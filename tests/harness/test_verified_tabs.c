/* tests/harness/test_verified_tabs.c — a WebArena-Verified task whose start_urls
 * lists two pages opens one tab each, as WebArena does, with the first
 * active: on real chromedriver + headless Chromium, two loopback servers (two
 * origins) serve the pages; the task's first step sees the first page, it
 * switches to the second tab and answers from it, and its HAR holds both
 * loads (the NetworkEventEvaluator expects the second).  The next task in
 * the same browser starts with one tab. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define PAGES EOUS_SOURCE_DIR "/tests/fixtures/verified/tabs"

static char tmpdir[256];
static ts_server *first, *second;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "verified-tabs", NULL, NULL, 0);
    first = ts_server_start(PAGES);
    second = ts_server_start(PAGES);
    cr_assert(first && second, "two fixture servers");
    setenv("EOUS_SITE_FIRST", ts_server_url(first), 1);
    setenv("EOUS_SITE_SECOND", ts_server_url(second), 1);
}

static void teardown(void)
{
    ts_server_stop(first);
    ts_server_stop(second);
    ts_workdir_remove(tmpdir);
}

TestSuite(verified_tabs, .init = setup, .fini = teardown, .timeout = 300);

/* 9101 opens both pages and reads the code in the second tab; 9102, run next
 * in the same browser, starts on the first page alone: its tab_focus 1 must fail. */
static const char TASKS_JSON[] =
    "[{\"sites\": [\"first\", \"second\"], \"task_id\": 9101, \"intent_template_id\": 9101,"
    "  \"start_urls\": [\"__FIRST__/first.html\", \"__SECOND__/second.html\"],"
    "  \"intent\": \"What is the door code?\", \"eval\": ["
    "   {\"evaluator\": \"AgentResponseEvaluator\", \"results_schema\": {\"type\": \"array\", \"items\": {\"type\": "
    "\"string\"}},"
    "    \"expected\": {\"task_type\": \"retrieve\", \"status\": \"SUCCESS\", \"retrieved_data\": [\"4711\"]}},"
    "   {\"evaluator\": \"NetworkEventEvaluator\", \"expected\": {\"url\": \"__SECOND__/second.html\","
    "    \"http_method\": \"GET\", \"response_status\": 200}}],"
    "  \"atomic_script\": [{\"tab_focus\": 1}, {\"stop\": {\"task_type\": \"RETRIEVE\", \"status\": \"SUCCESS\","
    "   \"retrieved_data\": [\"4711\"], \"error_details\": null}}]},"
    " {\"sites\": [\"first\"], \"task_id\": 9102, \"intent_template_id\": 9102,"
    "  \"start_urls\": [\"__FIRST__/first.html\"], \"intent\": \"Is there a second tab?\", \"eval\": ["
    "   {\"evaluator\": \"AgentResponseEvaluator\", \"results_schema\": {\"type\": \"null\"},"
    "    \"expected\": {\"task_type\": \"navigate\", \"status\": \"SUCCESS\", \"retrieved_data\": null}}],"
    "  \"atomic_script\": [{\"tab_focus\": 1}, {\"stop\": {\"task_type\": \"NAVIGATE\", \"status\": \"SUCCESS\","
    "   \"retrieved_data\": null, \"error_details\": null}}]}]\n";

/* The results line of task id (caller deletes). */
static cJSON *result_of(const char *out, const char *id)
{
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", out);
    char *text = ts_slurp(path);
    cJSON *found = NULL;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && !found; l = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(l);
        if (eous_json_str(j, "task_id") && !strcmp(eous_json_str(j, "task_id"), id))
            found = j;
        else
            cJSON_Delete(j);
    }
    free(text);
    return found;
}

Test(verified_tabs, two_start_urls_open_two_tabs_the_first_active)
{
    char tasks[400], out[400], so[400], se[400];
    snprintf(tasks, sizeof tasks, "%s/tasks.json", tmpdir);
    cr_assert_eq(eous_write_file_atomic(tasks, TASKS_JSON, strlen(TASKS_JSON), NULL), EOUS_OK);
    snprintf(out, sizeof out, "%s/run", tmpdir);
    snprintf(so, sizeof so, "%s/bench.out", tmpdir);
    snprintf(se, sizeof se, "%s/bench.err", tmpdir);
    const char *args[] = {"bench", tasks, "--modes", "atomic", "--workers", "1", "--out", out, NULL};
    int rc = ts_cli_run(args, so, se, 240);
    char *err = ts_slurp(se);
    cr_assert_eq(rc, 1, "9101 passes, 9102 fails (exit %d): %s", rc, err);
    free(err);

    cJSON *r = result_of(out, "9101");
    cr_assert_not_null(r, "9101 ran");
    cr_expect_str_eq(eous_json_str(r, "status"), "passed", "%s", eous_json_str(r, "eval_detail"));
    cJSON_Delete(r);
    /* the first step was taken on the first page, the answer read on the second */
    char path[500];
    snprintf(path, sizeof path, "%s/trace/9101-atomic.jsonl", out);
    char *trace = ts_slurp(path);
    char *nl = strchr(trace, '\n');
    cr_assert_not_null(nl, "%s", trace);
    *nl = '\0';
    cJSON *l1 = cJSON_Parse(trace), *l2 = cJSON_Parse(nl + 1);
    char want1[300], want2[300];
    snprintf(want1, sizeof want1, "%s/first.html", ts_server_url(first));
    snprintf(want2, sizeof want2, "%s/second.html", ts_server_url(second));
    cr_expect_str_eq(eous_json_str(l1, "url"), want1, "the first start page is the active tab");
    cr_expect_str_eq(eous_json_str(l2, "url"), want2, "tab 1 is the second start page");
    cJSON_Delete(l1), cJSON_Delete(l2);
    free(trace);
    /* both loads are in the task's HAR */
    snprintf(path, sizeof path, "%s/trace/9101-atomic/network.har", out);
    char *har = ts_slurp(path);
    cr_expect(strstr(har, want1) && strstr(har, want2), "the HAR holds both start pages");
    free(har);

    /* the next task in the same browser has the first page alone */
    r = result_of(out, "9102");
    cr_assert_not_null(r, "9102 ran");
    cr_expect_str_eq(eous_json_str(r, "status"), "failed");
    cJSON_Delete(r);
    snprintf(path, sizeof path, "%s/trace/9102-atomic.jsonl", out);
    trace = ts_slurp(path);
    cr_expect(strstr(trace, "tab_focus: no tab 1 (tabs 0..0 are open)"), "%s", trace);
    free(trace);
}

/* tests/harness/test_report.c — the reports written from a results.jsonl without a
 * browser: every mode gets a colour of its own in report.html's charts (five
 * modes once shared four colours, so vision drew exactly as atomic). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/report.h"
#include "core/core.h"
#include "support/cli.h"

/* The fill colours of the first chart's legend, in order, as one string "a b c ". */
static void legend_fills(const char *html, char *out, size_t n)
{
    const char *mark = "y='8' width='10' height='10' fill='";
    const char *end = strstr(html, "</svg>");
    out[0] = '\0';
    for (const char *p = strstr(html, mark); p && (!end || p < end); p = strstr(p + 1, mark)) {
        const char *c = p + strlen(mark);
        size_t len = strcspn(c, "'");
        size_t have = strlen(out);
        snprintf(out + have, n - have, "%.*s ", (int)len, c);
    }
}

/* Writes dir/results.jsonl with one passed short-tier task t1 of 2 steps per
 * mode, then the reports from it; returns the text of dir/name (caller frees). */
static char *report_of(char *dir, const char *const *modes, int n, const char *name)
{
    cr_assert(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < n; i++)
        fprintf(f, "{\"task_id\":\"t1\",\"mode\":\"%s\",\"status\":\"passed\",\"tier\":\"short\",\"steps\":2}\n",
                modes[i]);
    fclose(f);
    runs_outcome o;
    eous_err err = {0};
    cr_assert_eq(runs_reports_write(dir, &o, NULL, &err), EOUS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_slurp(path);
}

/* A fresh run directory in dir (a mkdtemp template) holding results.jsonl = lines. */
static void results_dir(char *dir, const char *lines)
{
    cr_assert(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    cr_assert_eq(eous_write_file_atomic(path, lines, strlen(lines), NULL), EOUS_OK);
}

Test(report, each_mode_has_its_own_colour)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX";
    const char *modes[] = {"atomic", "pruned", "hybrid", "html", "vision"};
    char *html = report_of(dir, modes, 5, "report.html");
    cr_assert_not_null(html);
    char fills[256];
    legend_fills(html, fills, sizeof fills);
    free(html);
    char *words[8] = {0};
    int n = 0;
    for (char *save = NULL, *w = strtok_r(fills, " ", &save); w && n < 8; w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    cr_assert_eq(n, 5, "one legend entry per mode (%d)", n);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            cr_expect_str_neq(words[i], words[j], "%s and %s share a colour", modes[i], modes[j]);
    eous_rmtree(dir);
}

/* A tier without tasks has no success rate: summary.md says "–", not "0.0%" (which read as all failed). */
Test(report, empty_tier_shows_no_rate)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX";
    const char *modes[] = {"atomic"};
    char *md = report_of(dir, modes, 1, "summary.md");
    cr_assert(strstr(md, "| atomic | 100.0% · 2.00 (n=1) | – (n=0) | – (n=0) |"), "%s", md);
    free(md);
    eous_rmtree(dir);
}

/* A model run's summary says what a provider bills per task: round trips, input (cached), completion,
 * cost, the fixed share; a script run's has no such table. */
Test(report, model_runs_report_what_a_provider_bills)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < 2; i++)
        fprintf(f,
                "{\"task_id\":\"t%d\",\"mode\":\"hybrid\",\"planner\":\"llm\",\"status\":\"passed\",\"tier\":\"short\","
                "\"steps\":3,\"plan_calls\":%d,\"prompt_tokens\":%d,\"cached_tokens\":%d,\"completion_tokens\":40,"
                "\"cost_usd\":0.01,\"request_tokens\":{\"total\":%d,\"prefix\":0,\"new\":0,\"fixed\":%d}}\n",
                i, 2 + i * 2, 3000 + i * 1000, 1024 * i, 3000 + i * 1000, 1000 + i * 400);
    fprintf(f, "{\"task_id\":\"t9\",\"mode\":\"atomic\",\"planner\":\"script\",\"status\":\"passed\",\"tier\":\"short\","
               "\"steps\":2}\n");
    fclose(f);
    runs_outcome o;
    eous_err err = {0};
    cr_assert_eq(runs_reports_write(dir, &o, NULL, &err), EOUS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    char *md = ts_slurp(path);
    /* round trips (2+4)/2, input (3000+4000)/2, cached 1024/2, fixed (1000+1400)/(3000+4000) */
    cr_expect(strstr(md, "| hybrid | 3.00 | 3500 | 512 | 40 | 0.0100 | 34% |"), "%s", md);
    cr_expect_null(strstr(md, "| atomic | 2.00 |"), "a script run bills nothing: %s", md);
    free(md);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = ts_slurp(path);
    cr_expect(strstr(html, "4040 (1024 cached)"), "the task's tokens say what was cached");
    free(html);
    eous_rmtree(dir);
}

/* Every attempt stays: a task that failed and then passed on --resume counts
 * as passed, and the failed attempt is reported, listed and countable. */
Test(report, an_earlier_failed_attempt_is_counted_and_listed)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX", path[300];
    results_dir(dir, "{\"task_id\":\"t1\",\"mode\":\"hybrid\",\"status\":\"infra\",\"attempt\":1,"
                     "\"error\":\"chromedriver went away\"}\n"
                     "{\"task_id\":\"t2\",\"mode\":\"hybrid\",\"status\":\"passed\",\"tier\":\"short\",\"steps\":2}\n"
                     "{\"task_id\":\"t1\",\"mode\":\"hybrid\",\"status\":\"passed\",\"attempt\":2,"
                     "\"tier\":\"short\",\"steps\":3}\n");
    runs_outcome o;
    eous_err err = {0};
    cr_assert_eq(runs_reports_write(dir, &o, NULL, &err), EOUS_OK, "%s", err.msg);
    cr_expect_eq(o.tasks, 2);
    cr_expect_eq(o.passed, 2);
    cr_expect(o.all_passed, "each task's last attempt passed");
    cr_expect_not(o.any_infra, "the infra attempt was followed by a pass");
    cr_expect_eq(o.failed_attempts, 1);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    char *md = ts_slurp(path);
    cr_expect(strstr(md, "2/2 passed · 1 failed attempt "), "%s", md);
    free(md);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *sj = ts_slurp(path);
    cr_expect(strstr(sj, "\"failed_attempts\":\t1") || strstr(sj, "\"failed_attempts\": 1"), "%s", sj);
    free(sj);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = ts_slurp(path);
    cr_expect(strstr(html, "attempt 1: <span class='st-infra'>infra</span> — chromedriver went away"),
              "the drill-down lists the earlier attempt");
    free(html);
    eous_rmtree(dir);
}

/* RPA runs: summary.md and summary.json count repaired passes apart, and the files downloaded. */
Test(report, summary_counts_repaired_tasks_and_downloads)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"task_id\":\"a\",\"mode\":\"hybrid\",\"status\":\"passed\",\"steps\":3,\"repaired\":true,"
          "\"output_file\":\"trace/a-hybrid/output.json\",\"downloads\":[{\"name\":\"r.csv\"},{\"name\":\"s.csv\"}]}\n"
          "{\"task_id\":\"b\",\"mode\":\"hybrid\",\"status\":\"passed\",\"steps\":2,\"downloads\":[{\"name\":\"t.pdf\"}]}\n",
          f);
    fclose(f);
    runs_outcome o;
    eous_err err = {0};
    cr_assert_eq(runs_reports_write(dir, &o, NULL, &err), EOUS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    char *md = ts_slurp(path);
    cr_expect(strstr(md, "hybrid RPA: 1 task(s) passed after a repair replaced a step"), "%s", md);
    cr_expect(strstr(md, "3 file(s) downloaded, 1 output.json written"), "%s", md);
    free(md);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *js = ts_slurp(path);
    cJSON *sum = cJSON_Parse(js);
    const cJSON *all = eous_json_obj(eous_json_obj(eous_json_obj(sum, "modes"), "hybrid"), "all");
    cr_expect_eq(eous_json_int(all, "repaired", -1), 1, "%s", js);
    cr_expect_eq(eous_json_int(all, "downloads", -1), 3, "%s", js);
    cJSON_Delete(sum);
    free(js);
    eous_rmtree(dir);
}

/* WebArena-Verified results read like original ones: summary.md counts each evaluator's verdicts,
 * report.html's drill-down lists each evaluator's status and failed assertions beside links to the
 * answer and the HAR, junit.xml's failure names the failed assertion and its system-out the HAR. */
Test(report, verified_results_show_each_evaluator_the_answer_and_the_har)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX", path[300];
    results_dir(dir,
                "{\"task_id\":\"9001\",\"mode\":\"atomic\",\"status\":\"failed\",\"steps\":3,"
                "\"answer\":\"{\\\"task_type\\\":\\\"navigate\\\"}\","
                "\"eval_detail\":\"AgentResponseEvaluator failure: agent_response.task_type_mismatch\","
                "\"agent_response\":\"trace/9001-atomic/agent_response.json\",\"har\":\"trace/9001-atomic/network.har\","
                "\"evaluators\":[{\"evaluator\":\"AgentResponseEvaluator\",\"status\":\"failure\",\"failed\":"
                "[\"agent_response.task_type_mismatch: Expected \\\"retrieve\\\", got \\\"navigate\\\"\"]},"
                "{\"evaluator\":\"NetworkEventEvaluator\",\"status\":\"success\",\"failed\":[]}]}\n"
                "{\"task_id\":\"9002\",\"mode\":\"atomic\",\"status\":\"passed\",\"steps\":2,"
                "\"agent_response\":\"trace/9002-atomic/agent_response.json\",\"har\":\"trace/9002-atomic/network.har\","
                "\"evaluators\":[{\"evaluator\":\"AgentResponseEvaluator\",\"status\":\"success\",\"failed\":[]},"
                "{\"evaluator\":\"NetworkEventEvaluator\",\"status\":\"success\",\"failed\":[]}]}\n"
                "{\"task_id\":\"9003\",\"mode\":\"atomic\",\"status\":\"failed\",\"steps\":2,"
                "\"agent_response\":\"trace/9003-atomic/agent_response.json\","
                "\"evaluators\":[{\"evaluator\":\"AgentResponseEvaluator\",\"status\":\"success\",\"failed\":[]},"
                "{\"evaluator\":\"NetworkEventEvaluator\",\"status\":\"error\",\"error\":\"no network log\","
                "\"failed\":[]}]}\n"
                "{\"task_id\":\"t1\",\"mode\":\"atomic\",\"status\":\"passed\",\"steps\":2}\n");
    runs_outcome o;
    eous_err err = {0};
    cr_assert_eq(runs_reports_write(dir, &o, NULL, &err), EOUS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    char *md = ts_slurp(path);
    cr_expect(strstr(md, "atomic WebArena-Verified: 3 task(s), 2 with a network log (HAR): AgentResponseEvaluator "
                         "2 success · 1 failure · 0 error; NetworkEventEvaluator 2 success · 0 failure · 1 error."),
              "%s", md);
    free(md);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *js = ts_slurp(path);
    cJSON *sum = cJSON_Parse(js);
    const cJSON *v = eous_json_obj(eous_json_obj(eous_json_obj(eous_json_obj(sum, "modes"), "atomic"), "all"), "verified");
    cr_expect_eq(eous_json_int(v, "tasks", -1), 3, "%s", js);
    cr_expect_eq(eous_json_int(eous_json_obj(eous_json_obj(v, "evaluators"), "NetworkEventEvaluator"), "error", -1), 1,
                 "%s", js);
    cJSON_Delete(sum);
    free(js);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = ts_slurp(path);
    cr_expect(strstr(html, "<li class='evaluator'><b>AgentResponseEvaluator</b>: <span class='st-failed'>failure</span>"
                           "<ul class='assertions'><li>agent_response.task_type_mismatch: Expected &quot;retrieve&quot;, "
                           "got &quot;navigate&quot;</li></ul>"),
              "the drill-down lists the failed evaluator and its assertion");
    cr_expect(strstr(html, "<b>NetworkEventEvaluator</b>: <span class='st-passed'>success</span>"));
    cr_expect(strstr(html, "<b>NetworkEventEvaluator</b>: <span class='st-failed'>error</span>"
                           "<div class='result'>error: no network log</div>"));
    cr_expect(strstr(html, "<a href='trace/9001-atomic/network.har'>network log (HAR)</a>"), "the HAR is linked");
    cr_expect(strstr(html, "<a href='trace/9001-atomic/agent_response.json'>agent response (JSON)</a>"));
    cr_expect(strstr(html, "answer: {&quot;task_type&quot;:&quot;navigate&quot;}"), "the answer is shown");
    cr_expect(strstr(html, "no network log (HAR) was recorded"), "9003 had no HAR, and says so");
    free(html);
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    char *xml = ts_slurp(path);
    cr_expect(strstr(xml, "AgentResponseEvaluator: failure\n  agent_response.task_type_mismatch: Expected "
                          "&quot;retrieve&quot;, got &quot;navigate&quot;\nNetworkEventEvaluator: success\n"),
              "the failure lists each evaluator and its failed assertion: %s", xml);
    cr_expect(strstr(xml, "<system-out>agent response: trace/9001-atomic/agent_response.json\n"
                          "network log (HAR): trace/9001-atomic/network.har\n"
                          "[[ATTACHMENT|trace/9001-atomic/network.har]]\n</system-out>"),
              "system-out names the answer and attaches the HAR: %s", xml);
    cr_expect(strstr(xml, "network log (HAR): none recorded"), "%s", xml);
    cr_expect_null(strstr(xml, "name=\"task t1\">\n      <system-out>"), "an original task has no such lines: %s", xml);
    free(xml);
    eous_rmtree(dir);
}

/* report.html's summary is HTML, not summary.md in a <pre>: its tables are tables; beside each mode's
 * pass rate the round trips, input tokens (cached share) and cost per task at the run's prices (a
 * model with no price says so, not 0.0000); a task that did not pass is listed with why and the known
 * limit its result names. */
Test(report, html_summary_is_tables_with_cost_round_trips_and_failures)
{
    char dir[] = "/tmp/eous-report-unit-XXXXXX", path[300];
    results_dir(dir,
                "{\"task_id\":\"t1\",\"mode\":\"hybrid\",\"planner\":\"llm\",\"status\":\"passed\",\"tier\":\"short\","
                "\"steps\":3,\"plan_calls\":2,\"prompt_tokens\":3000,\"cached_tokens\":0,\"completion_tokens\":40,"
                "\"cost_usd\":0.008,\"request_tokens\":{\"total\":3000,\"prefix\":0,\"new\":0,\"fixed\":1000}}\n"
                "{\"task_id\":\"t2\",\"mode\":\"hybrid\",\"planner\":\"llm\",\"status\":\"failed\",\"tier\":\"short\","
                "\"steps\":5,\"plan_calls\":4,\"prompt_tokens\":4000,\"cached_tokens\":1024,\"completion_tokens\":40,"
                "\"cost_usd\":0.012,\"stop_reason\":\"stop\",\"error\":\"cannot see the Save button\","
                "\"known_limit\":\"the stand-in reads no tooltip\","
                "\"request_tokens\":{\"total\":4000,\"prefix\":0,\"new\":0,\"fixed\":1400}}\n"
                "{\"task_id\":\"t1\",\"mode\":\"atomic\",\"planner\":\"llm\",\"status\":\"passed\",\"tier\":\"short\","
                "\"steps\":2,\"plan_calls\":2,\"prompt_tokens\":2000,\"cached_tokens\":0,\"completion_tokens\":40,"
                "\"cost_usd\":0,\"request_tokens\":{\"total\":2000,\"prefix\":0,\"new\":0,\"fixed\":900}}\n");
    runs_outcome o;
    eous_err err = {0};
    cr_assert_eq(runs_reports_write(dir, &o, NULL, &err), EOUS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = ts_slurp(path);
    cr_expect_null(strstr(html, "|---|"), "no Markdown table left in the page");
    cr_expect_null(strstr(html, "<pre>"), "no summary in a monospace block");
    cr_expect(strstr(html, "<div class='summary'><p>2/3 passed"), "the summary's first line a paragraph");
    cr_expect(strstr(html, "<th>mode</th><th>tasks</th><th>success</th>"), "summary.md's first table as a table");
    cr_expect(strstr(html, "<td>hybrid</td><td class='num'>2</td><td class='num'>1 (50.0%)</td>"
                           "<td class='num'>3.00</td><td class='num'>3500</td><td class='num'>512 (15%)</td>"
                           "<td class='num'>0.0100</td>"),
              "pass rate, round trips, input (cached share) and cost per task: %s", strstr(html, "glance"));
    cr_expect(strstr(html, "<td>atomic</td><td class='num'>1</td><td class='num'>1 (100.0%)</td>"
                           "<td class='num'>2.00</td><td class='num'>2000</td><td class='num'>0 (0%)</td>"
                           "<td class='num' title='the model has no price in the price table'>no price "
                           "known</td>"),
              "a model without a price: %s", strstr(html, "glance"));
    cr_expect(strstr(html, "<tr><td>t2</td><td>hybrid</td><td>failed</td><td>stop</td>"
                           "<td class='why'>cannot see the Save button</td><td>the stand-in reads no tooltip</td></tr>"),
              "the failed task, why and its known limit");
    cr_expect(strstr(html, "4040 (1024 cached) · $0.0120"), "the task's cost beside its tokens");
    free(html);
    eous_rmtree(dir);
}

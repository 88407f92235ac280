/* tests/harness/test_verified_e2e.c — WebArena-Verified tasks run live: three
 * DokuWiki tasks in the verified format (benchmarks/grounds/tasks/verified: retrieve,
 * navigate, mutate) through `eous bench` on real Chromium against a real
 * DokuWiki (scripts/wiki), each scored by both evaluators, the mutate task
 * from its HAR's post data; `eous score --run` gives the live scores again;
 * the HAR never holds the login password or a cookie value; a wrong expected
 * post body scores 0; --w3c-only runs say that no HAR is available. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/workdir.h"
#include "support/grounds.h"
#include "support/site.h"

#define TASKS TS_TASKS "/verified"
#define WIKI EOUS_SOURCE_DIR "/scripts/wiki"

static char tmpdir[256], wikidir[300], secrets[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "verified-test", NULL, NULL, 0);
    snprintf(wikidir, sizeof wikidir, "%s/wiki", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/secrets.env", tmpdir);
    cr_assert_eq(ts_site_start(WIKI, "DOKUWIKI", wikidir, secrets), 0, "scripts/wiki started (its stderr says why not)");
}

static void teardown(void)
{
    ts_site_stop(WIKI, wikidir);
    ts_workdir_remove(tmpdir);
}

static char *password(void)
{
    char *env = ts_slurp(secrets);
    char *p = strstr(env, "WIKI_PASSWORD=");
    cr_assert_not_null(p);
    p += strlen("WIKI_PASSWORD=");
    char *r = strndup(p, strcspn(p, "\r\n"));
    free(env);
    return r;
}

/* score of task id in OUT's results.jsonl; -1 when absent */
static double result_score(const char *out, const char *id, char *status, size_t n)
{
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", out);
    char *text = ts_slurp(path);
    double s = -1;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(l);
        const char *tid = eous_json_str(j, "task_id");
        if (tid && !strcmp(tid, id)) {
            s = eous_json_num(j, "score", -1);
            snprintf(status, n, "%s", eous_json_str(j, "status") ? eous_json_str(j, "status") : "");
        }
        cJSON_Delete(j);
    }
    free(text);
    return s;
}

TestSuite(verified_e2e, .init = setup, .fini = teardown, .timeout = 900);

Test(verified_e2e, three_tasks_live_then_the_same_offline)
{
    char out[400], so[460], se[460];
    snprintf(out, sizeof out, "%s/run", tmpdir);
    snprintf(so, sizeof so, "%s/bench.out", tmpdir);
    snprintf(se, sizeof se, "%s/bench.err", tmpdir);
    const char *args[] = {"bench", TASKS, "--modes", "atomic", "--workers", "1", "--out", out, "--secrets", secrets, NULL};
    int rc = ts_cli_run(args, so, se, 600);
    char *err = ts_slurp(se);
    cr_assert_eq(rc, 0, "every verified task passes live: %s", err);
    free(err);
    static const char *ids[] = {"9001", "9002", "9003"};
    for (int i = 0; i < 3; i++) {
        char st[32] = "";
        cr_assert_eq(result_score(out, ids[i], st, sizeof st), 1, "task %s", ids[i]);
        cr_assert_str_eq(st, "passed");
    }
    /* reports: the drill-down shows each evaluator's status and links the answer and the HAR */
    char rep[500];
    snprintf(rep, sizeof rep, "%s/report.html", out);
    char *html = ts_slurp(rep);
    cr_assert(strstr(html, "trace/9003-atomic/network.har"), "report.html links the HAR");
    cr_assert(strstr(html, "trace/9001-atomic/agent_response.json"), "report.html links the answer");
    cr_assert(strstr(html, "NetworkEventEvaluator success"), "per-evaluator status in the drill-down");
    cr_assert(strstr(html, "<b>NetworkEventEvaluator</b>: <span class='st-passed'>success</span>"),
              "each evaluator listed in the drill-down");
    free(html);
    /* junit.xml attaches each task's HAR; summary.md counts the evaluators' verdicts */
    snprintf(rep, sizeof rep, "%s/junit.xml", out);
    char *xml = ts_slurp(rep);
    cr_assert(strstr(xml, "[[ATTACHMENT|trace/9003-atomic/network.har]]"), "%s", xml);
    free(xml);
    snprintf(rep, sizeof rep, "%s/summary.md", out);
    char *md = ts_slurp(rep);
    cr_assert(strstr(md, "atomic WebArena-Verified: 3 task(s), 3 with a network log (HAR): AgentResponseEvaluator "
                         "3 success · 0 failure · 0 error"),
              "%s", md);
    free(md);
    /* the mutate task was scored from its HAR's post data: the POST with the page text is there */
    char har[500];
    snprintf(har, sizeof har, "%s/trace/9003-atomic/network.har", out);
    char *h = ts_slurp(har);
    cr_assert(strstr(h, "wikitext=Project+Delta+studies+wave+heights+on+Lake+Varna."), "the save's post body");
    char *pw = password();
    cr_assert_null(strstr(h, pw), "the login password is not in the HAR");
    cr_assert(strstr(h, "p=%5Bredacted%5D"), "the password field is redacted");
    cJSON *hj = cJSON_Parse(h);
    cr_assert_not_null(hj, "the HAR is JSON");
    const cJSON *e;
    int cookies = 0;
    cJSON_ArrayForEach(e, eous_json_arr(eous_json_obj(hj, "log"), "entries")) {
        const cJSON *hd;
        cJSON_ArrayForEach(hd, eous_json_arr(eous_json_obj(e, "request"), "headers")) {
            const char *n = eous_json_str(hd, "name");
            if (n && !strcasecmp(n, "cookie")) {
                cookies++;
                cr_assert_str_eq(eous_json_str(hd, "value"), "[redacted]", "no cookie value");
            }
        }
    }
    cr_assert_gt(cookies, 0, "a logged-in session sent cookies, and they are redacted");
    cJSON_Delete(hj);
    free(h);
    /* nothing else the run wrote holds the password */
    cr_assert_null(ts_file_with(out, pw), "found the password in %s", ts_file_with(out, pw));
    free(pw);

    /* offline: the same scores from the saved answers and HARs */
    snprintf(so, sizeof so, "%s/score.out", tmpdir);
    snprintf(se, sizeof se, "%s/score.err", tmpdir);
    const char *sargs[] = {"score", "--run", out, NULL};
    cr_assert_eq(ts_cli_run(sargs, so, se, 60), 0);
    char *lines = ts_slurp(so);
    cr_assert_eq(ts_count_lines(lines), 3);
    cr_assert_null(strstr(lines, "\"same\":false"));
    cr_assert(strstr(lines, "\"task_id\":9003,\"score\":1"), "%s", lines);
    free(lines);

    /* a different expected page text fails the same saved HAR */
    char task[500];
    snprintf(task, sizeof task, "%s/trace/9003-atomic/task.json", out);
    char *t = ts_slurp(task);
    char *at = strstr(t, "Project Delta studies wave heights on Lake Varna.\",\"do[save]");
    cr_assert_not_null(at, "%s", t);
    memcpy(at, "Project Gamma", 13);
    FILE *f = fopen(task, "w");
    fputs(t, f);
    fclose(f);
    free(t);
    cr_assert_eq(ts_cli_run(sargs, so, se, 60), 1, "a score differs from the live one now");
    lines = ts_slurp(so);
    cr_assert(strstr(lines, "\"task_id\":9003,\"score\":0"), "%s", lines);
    free(lines);
}

Test(verified_e2e, w3c_only_says_no_har)
{
    char out[400], so[460], se[460];
    snprintf(out, sizeof out, "%s/run", tmpdir);
    snprintf(so, sizeof so, "%s/run.out", tmpdir);
    snprintf(se, sizeof se, "%s/run.err", tmpdir);
    const char *args[] = {"run", TASKS "/9002.json", "--mode", "atomic", "--w3c-only", "--out", out, NULL};
    int rc = ts_cli_run(args, so, se, 300);
    cr_assert_eq(rc, 1, "the network evaluator cannot run without a HAR");
    char trace[500];
    snprintf(trace, sizeof trace, "%s/trace/9002-atomic.jsonl", out);
    char *t = ts_slurp(trace);
    cr_assert(strstr(t, "no HAR available"), "the trace says so: %s", t);
    free(t);
    snprintf(trace, sizeof trace, "%s/trace/9002-atomic/network.har", out);
    struct stat st;
    cr_assert_neq(stat(trace, &st), 0, "no HAR file");
    char sc[500];
    snprintf(sc, sizeof sc, "%s/trace/9002-atomic/score.json", out);
    char *s = ts_slurp(sc);
    cr_assert(strstr(s, "no network log (HAR)"), "%s", s);
    free(s);
}

#include "support/testsrv.h"

/* a response body is kept where an evaluator reads it (response_content) */
TestSuite(verified_body, .timeout = 300);

Test(verified_body, response_content_from_the_body)
{
    char dir[] = "/tmp/eous-verified-body-XXXXXX";
    cr_assert(mkdtemp(dir));
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    cr_assert_not_null(srv);
    char base[128];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", ts_server_port(srv));
    setenv("EOUS_SITE_FIXTURES", base, 1);
    char task[400];
    snprintf(task, sizeof task, "%s/task.json", dir);
    FILE *f = fopen(task, "w");
    fputs("{\"task_id\": 9100, \"sites\": [\"fixtures\"], \"start_urls\": [\"__FIXTURES__/verified/orders.html\"], "
          "\"intent\": \"Which item is order 7?\", \"eval\": [{\"evaluator\": \"AgentResponseEvaluator\", "
          "\"results_schema\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, \"expected\": {\"task_type\": "
          "\"retrieve\", \"status\": \"SUCCESS\", \"retrieved_data\": [\"Widget\"]}}, {\"evaluator\": "
          "\"NetworkEventEvaluator\", \"ignored_query_params\": [\"page\"], \"expected\": {\"url\": "
          "\"__FIXTURES__/verified/orders.json\", \"response_content\": {\"$.orders[0].item\": \"Widget\", \"total\": 2}}}], "
          "\"script\": [{\"stop\": {\"task_type\": \"RETRIEVE\", \"status\": \"SUCCESS\", \"retrieved_data\": [\"widget\"]}}]}",
          f);
    fclose(f);
    char out[400], so[460], se[460];
    snprintf(out, sizeof out, "%s/run", dir);
    snprintf(so, sizeof so, "%s/o", dir);
    snprintf(se, sizeof se, "%s/e", dir);
    const char *args[] = {"run", task, "--mode", "hybrid", "--out", out, NULL};
    int rc = ts_cli_run(args, so, se, 240);
    char har[500];
    snprintf(har, sizeof har, "%s/trace/9100-hybrid/network.har", out);
    char *h = ts_slurp(har);
    char *e = ts_slurp(se);
    cr_assert_eq(rc, 0, "%s", e);
    cr_assert(strstr(h, "\\\"item\\\":\\\"Widget\\\""), "the body of orders.json is in the HAR: %.600s", h);
    cr_assert_null(strstr(h, "<h1>Orders</h1>"), "no body nobody reads");
    free(h), free(e);
    ts_server_stop(srv);
    eous_rmtree(dir);
}

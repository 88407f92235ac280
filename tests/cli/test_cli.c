/* tests/cli/test_cli.c — the eous CLI contract: exit codes, one-line errors,
 * run and bench on fixture tasks with real Chromium, results and traces. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/testsrv.h"
#include "runs/rundir.h"
#include "core/core.h"
#include "support/cli.h"
#include "support/workdir.h"

static char out_path[256], err_path[256], tmpdir[256];

static int run_cli(const char *const *args)
{
    return ts_cli_run(args, out_path, err_path, 240);
}

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "cli", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

/* tests/fixtures/pages on a loopback server, as the fixture tasks' __FIXTURE__ site */
static ts_server *serve_fixture_site(void)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    return srv;
}

TestSuite(cli, .init = setup, .fini = teardown, .timeout = 600); /* per suite: per-test timeouts under --jobs leak a Criterion allocation (LeakSanitizer) */

Test(cli, help_version_and_usage_errors)
{
    cr_assert_eq(run_cli((const char *[]){"--version", NULL}), 0);
    char *o = ts_slurp(out_path);
    cr_assert(!strncmp(o, "eous ", 5), "%s", o);
    free(o);
    cr_assert_eq(run_cli((const char *[]){"--help", NULL}), 0);
    cr_assert_eq(run_cli((const char *[]){"frobnicate", NULL}), 2);
    char *e = ts_slurp(err_path);
    cr_assert(strstr(e, "frobnicate"), "%s", e);
    cr_assert_eq(ts_count_lines(e), 1, "one line: %s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"run", NULL}), 2);
    cr_assert_eq(run_cli((const char *[]){"run", "/nonexistent/task.json", NULL}), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "/nonexistent/task.json"), "names the file: %s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"observe", "not-a-url", NULL}), 2);
    cr_assert_eq(run_cli((const char *[]){"observe", "http://127.0.0.1:9/", "--mode", "fancy", NULL}), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "fancy"), "%s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"bench", "x.json", "--workers", "zero", NULL}), 2);
    cr_assert_eq(run_cli((const char *[]){"run", "x.json", "--planner", "llm", NULL}), 2, "llm needs --llm");
    /* an MCP client takes screenshots itself: a vision view would be hybrid text that says it is not */
    cr_assert_eq(run_cli((const char *[]){"mcp", "--mode", "vision", NULL}), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "--mode 'vision': expected hybrid, pruned, atomic or html"), "%s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"mcp", "--deltas", "maybe", NULL}), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "--deltas 'maybe': expected on or off"), "%s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"bench", "x.json", "--fail-on", "sometimes", NULL}), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "--fail-on 'sometimes': expected any-attempt or last-attempt"), "%s", e);
    cr_assert_eq(ts_count_lines(e), 1, "one line: %s", e);
    free(e);
}

/* whole numbers in range, digits only: " 5", "+5", "5 ", "40" workers and an
 * overflow were taken (or cut to 32) before; each is one line naming it */
Test(cli, numeric_options_are_digits_in_range)
{
    const char *cases[][3] = {
        {"--workers", "40", "from 1 to 32"},       {"--workers", "+2", "from 1 to 32"},
        {"--max-steps", " 5", "positive integer"}, {"--max-steps", "5 ", "positive integer"},
        {"--max-batch", "0", "from 1 to"},         {"--max-obs-tokens", "99999999999999999999", "tokens"},
        {"--max-image-px", "8", "from 16 to 10000"}, {"--settle", "quiet:0", "rule or quiet:MS"},
        {"--settle", "quiet", "rule or quiet:MS"},   {"--settle", "150", "rule or quiet:MS"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_assert_eq(run_cli((const char *[]){"bench", "x.json", cases[i][0], cases[i][1], NULL}), 2, "%s '%s'",
                     cases[i][0], cases[i][1]);
        char *e = ts_slurp(err_path);
        char want[64];
        snprintf(want, sizeof want, "%s '%s'", cases[i][0], cases[i][1]);
        cr_assert(strstr(e, want) && strstr(e, cases[i][2]), "%s", e);
        cr_assert_eq(ts_count_lines(e), 1, "one line: %s", e);
        free(e);
    }
    cr_assert_eq(run_cli((const char *[]){"observe", "http://127.0.0.1:9/", "--max-image-px", "-3", NULL}), 2);
    char *e = ts_slurp(err_path);
    cr_assert(strstr(e, "--max-image-px '-3'"), "%s", e);
    free(e);
}

/* The libraries name the thing (the model, a parameters file, the agent command) and no flag, for an
 * embedder has none; the CLI adds the flag that gave the value: one line, exit 2, and nothing written
 * (--out's folder is made only once every input held, the model's spec among them) */
Test(cli, a_library_error_gets_the_flag_that_gave_the_value)
{
    char out[300];
    snprintf(out, sizeof out, "%s/flagged", tmpdir);
    const char *task = EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json";
    const char *cases[][5] = {
        {"--planner", "exec", "--agent", "python3 'x", "--agent: agent command 'python3 'x': an unclosed quote"},
        {"--params", "/nonexistent/p.env", NULL, NULL,
         "--params: parameters file /nonexistent/p.env: cannot read it (/nonexistent/p.env: "},
        {"--param", "DAY", NULL, NULL, "--param: parameter 'DAY': expected NAME=VALUE"},
        {"--planner", "llm", "--llm", "google:gemini", "--llm: model 'google:gemini': unknown provider 'google'"},
    };
    setenv("EOUS_SITE_FIXTURE", "http://127.0.0.1:9", 1);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *args[] = {"run", task, cases[i][0], cases[i][1], "--out", out, cases[i][2], cases[i][3], NULL};
        cr_assert_eq(run_cli(args), 2, "%s '%s'", cases[i][0], cases[i][1]);
        char *e = ts_slurp(err_path);
        cr_expect(strstr(e, cases[i][4]), "'%s' in: %s", cases[i][4], e);
        cr_expect_eq(ts_count_lines(e), 1, "one line: %s", e);
        free(e);
        cr_expect_neq(access(out, F_OK), 0, "nothing written for %s", cases[i][0]);
    }
    unsetenv("EOUS_SITE_FIXTURE");
}

Test(cli, check_reports_problems_per_config)
{
    setenv("EOUS_SITE_FIXTURE", "http://127.0.0.1:9", 1);
    cr_assert_eq(run_cli((const char *[]){"check", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", NULL}), 0);
    unsetenv("EOUS_SITE_FIXTURE");
    cr_assert_eq(run_cli((const char *[]){"check", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", NULL}), 2);
    char *o = ts_slurp(out_path);
    cr_assert(strstr(o, "EOUS_SITE_FIXTURE"), "%s", o);
    free(o);
}

Test(cli, missing_chromedriver_is_infra_exit_3)
{
    setenv("EOUS_CHROMEDRIVER", "/nonexistent/chromedriver", 1);
    cr_assert_eq(run_cli((const char *[]){"observe", "http://127.0.0.1:9/", NULL}), 3);
    char *e = ts_slurp(err_path);
    cr_assert(strstr(e, "chromium-driver"), "%s", e);
    free(e);
    unsetenv("EOUS_CHROMEDRIVER");
}

Test(cli, run_fixture_task_in_hybrid_and_atomic)
{
    ts_server *srv = serve_fixture_site();
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    const char *task = EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json";
    int rc = run_cli((const char *[]){"run", task, "--mode", "hybrid", "--out", outdir, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s stderr: %s", o, e);
    cr_assert(strstr(o, "passed"), "%s", o);
    free(o);
    free(e);
    rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--out", outdir, NULL});
    cr_assert_eq(rc, 0);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    cr_assert_eq(ts_count_lines(res), 2, "%s", res);
    cr_assert(strstr(res, "\"mode\":\"hybrid\"") && strstr(res, "\"mode\":\"atomic\""));
    free(res);
    snprintf(path, sizeof path, "%s/trace/fx-1-atomic.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_assert_eq(ts_count_lines(tr), 3, "one trace line per step: %s", tr);
    cr_assert(strstr(tr, "\"path\":\"atomic\""), "%s", tr);
    cr_assert(strstr(tr, "\"perceive\""), "%s", tr);
    free(tr);
    /* the same task on a W3C-only session (no CDP) */
    rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--w3c-only", "--out", outdir, NULL});
    o = ts_slurp(out_path);
    e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s stderr: %s", o, e);
    free(o);
    free(e);
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    res = ts_slurp(path);
    cr_assert_eq(ts_count_lines(res), 3, "the W3C-only run added its result: %s", res);
    res[strlen(res) - 1] = '\0'; /* the last line alone */
    cr_assert(strstr(strrchr(res, '\n'), "\"status\":\"passed\""), "%s", res);
    free(res);
    ts_server_stop(srv);
}

/* --type keys presses every key of a type: the page counts 12 keydowns for 'Ada Lovelace'; by default
 * the text goes in as one edit and only its last character as a key, so the task (>= 12) fails */
Test(cli, type_keys_presses_every_key_and_edit_is_the_default)
{
    ts_server *srv = serve_fixture_site();
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/keys", tmpdir);
    const char *task = EOUS_SOURCE_DIR "/tests/fixtures/tasks/type_keys.json";
    int rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--type", "keys", "--out", outdir, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_expect_eq(rc, 0, "every key pressed: stdout %s stderr %s", o, e);
    free(o);
    free(e);
    rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--out", outdir, NULL});
    o = ts_slurp(out_path);
    cr_expect_eq(rc, 1, "one edit and a last key by default: %s", o);
    free(o);
    rc = run_cli((const char *[]){"run", task, "--type", "letters", "--out", outdir, NULL});
    e = ts_slurp(err_path);
    cr_expect_eq(rc, 2);
    cr_expect(strstr(e, "--type 'letters': expected edit or keys"), "%s", e);
    free(e);
    ts_server_stop(srv);
}

Test(cli, call_runs_one_validated_semantic_call)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    char url[300];
    snprintf(url, sizeof url, "%s/ci4a.html", ts_server_url(srv));
    int rc = run_cli((const char *[]){"call", url, "datepicker-checkin", "setValue", "{\"date\": \"2026-03-14\"}", NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s stderr: %s", o, e);
    cJSON *j = cJSON_Parse(o);
    cr_assert(j, "one JSON line: %s", o);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")), "%s", o);
    cr_assert_str_eq(eous_json_str(j, "path"), "semantic");
    cr_assert_str_eq(eous_json_str(eous_json_obj(j, "state"), "value"), "2026-03-14", "%s", o);
    cJSON_Delete(j);
    free(o);
    free(e);
    /* M says 2025-12-25 is not allowed: refused before the page is touched */
    rc = run_cli((const char *[]){"call", url, "datepicker-checkin", "setValue", "{\"date\": \"2025-12-25\"}", NULL});
    o = ts_slurp(out_path);
    cr_assert_neq(rc, 0, "%s", o);
    cr_assert(strstr(o, "\"ok\":false") && strstr(o, "2025-12-25"), "%s", o);
    free(o);
    /* bad input: one line naming it, exit 2 */
    rc = run_cli((const char *[]){"call", url, "datepicker-checkin", "setValue", "{date: 1}", NULL});
    e = ts_slurp(err_path);
    cr_assert_eq(rc, 2, "%s", e);
    cr_assert(strstr(e, "PARAMS_JSON") && ts_count_lines(e) == 1, "%s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"call", url, "datepicker-checkin", NULL}), 2);
    ts_server_stop(srv);
}

Test(cli, bench_writes_reports_resumes_and_locks)
{
    ts_server *srv = serve_fixture_site();
    char outdir[300], lock[320];
    snprintf(outdir, sizeof outdir, "%s/bench", tmpdir);
    snprintf(lock, sizeof lock, "%s/lock", tmpdir);
    const char *suite = EOUS_SOURCE_DIR "/tests/fixtures/tasks/suite";
    int rc = run_cli((const char *[]){"bench", suite, "--modes", "hybrid,atomic", "--workers", "2", "--out", outdir,
                                      "--lock", lock, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s\nstderr: %s", o, e);
    cr_assert(strstr(o, "| hybrid |") && strstr(o, "| atomic |"), "comparison table: %s", o);
    free(o);
    free(e);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    cr_assert_eq(ts_count_lines(res), 6, "3 tasks x 2 modes: %s", res);
    free(res);
    const char *reports[] = {"summary.json", "summary.md", "report.html", "junit.xml"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, reports[i]);
        struct stat st;
        cr_assert_eq(stat(path, &st), 0, "%s written", reports[i]);
        cr_assert_gt(st.st_size, 50);
    }
    snprintf(path, sizeof path, "%s/junit.xml", outdir);
    char *junit = ts_slurp(path);
    cr_assert_eq(ts_count_lines(junit) > 0, 1);
    int cases = 0;
    for (const char *p = junit; (p = strstr(p, "<testcase")); p++)
        cases++;
    cr_assert_eq(cases, 6);
    free(junit);
    /* resume: nothing left to do, nothing duplicated */
    rc = run_cli((const char *[]){"bench", suite, "--modes", "hybrid,atomic", "--out", outdir, "--resume", NULL});
    cr_assert_eq(rc, 0);
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    res = ts_slurp(path);
    cr_assert_eq(ts_count_lines(res), 6, "resume added nothing: %s", res);
    free(res);
    /* lock held by someone else: refuse to start */
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    cr_assert_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
    rc = run_cli((const char *[]){"bench", suite, "--out", outdir, "--lock", lock, NULL});
    cr_assert_eq(rc, 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "lock"), "%s", e);
    free(e);
    close(fd);
    ts_server_stop(srv);
}

/* Two copies of the fixture site, one per worker: every job runs on, resets and is scored against its
 * worker's copy, and the results line says which copy that was. */
Test(cli, bench_gives_each_worker_its_copy_of_a_pooled_site)
{
    ts_server *one = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    ts_server *two = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    char tasks[300], outdir[300], urls[200], resets[900], path[400];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(outdir, sizeof outdir, "%s/bench", tmpdir);
    cr_assert_eq(mkdir(tasks, 0755), 0);
    for (int i = 1; i <= 4; i++) {
        char json[600];
        snprintf(json, sizeof json,
                 "{\"sites\": [\"fixture\"], \"task_id\": \"pool-%d\", \"require_reset\": true, "
                 "\"start_url\": \"__FIXTURE__/keys.html\", \"intent\": \"Stop on the start page\", "
                 "\"eval\": {\"eval_types\": [\"url_match\"], \"reference_url\": \"__FIXTURE__/keys.html\"}, "
                 "\"script\": [{\"stop\": \"\"}], \"atomic_script\": [{\"stop\": \"\"}]}",
                 i);
        snprintf(path, sizeof path, "%s/pool-%d.json", tasks, i);
        cr_assert_eq(eous_write_file_atomic(path, json, strlen(json), NULL), EOUS_OK);
    }
    snprintf(urls, sizeof urls, "%s %s", ts_server_url(one), ts_server_url(two));
    setenv("EOUS_SITE_FIXTURE", urls, 1);
    /* bad input first: one reset command for two copies, refused before anything is written */
    setenv("EOUS_SITE_FIXTURE_RESET", "true", 1);
    int rc = run_cli((const char *[]){"bench", tasks, "--modes", "hybrid", "--workers", "2", "--out", outdir, NULL});
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 2, "%s", e);
    cr_expect(strstr(e, "EOUS_SITE_FIXTURE_RESET: expected 2 reset commands") && ts_count_lines(e) == 1, "%s", e);
    free(e);
    cr_expect_neq(access(outdir, F_OK), 0, "no run directory for bad input");
    snprintf(resets, sizeof resets, "touch %s/reset-one; touch %s/reset-two", tmpdir, tmpdir);
    setenv("EOUS_SITE_FIXTURE_RESET", resets, 1);
    setenv("TMPDIR", tmpdir, 1);
    rc = run_cli((const char *[]){"bench", tasks, "--modes", "hybrid", "--workers", "2", "--out", outdir, NULL});
    unsetenv("EOUS_SITE_FIXTURE_RESET");
    e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "every job passes, scored against its own copy: %s", e);
    free(e);
    /* both workers take a job at their start, so both copies serve one */
    cr_expect_gt(ts_server_requests(one), 0);
    cr_expect_gt(ts_server_requests(two), 0, "the second worker used the second copy");
    snprintf(path, sizeof path, "%s/reset-one", tmpdir);
    cr_expect_eq(access(path, F_OK), 0, "the first copy was reset by its own command");
    snprintf(path, sizeof path, "%s/reset-two", tmpdir);
    cr_expect_eq(access(path, F_OK), 0, "the second copy was reset by its own command");
    runs_dir rd;
    eous_err err;
    cr_assert_eq(runs_dir_load(outdir, 0, &rd, &err), EOUS_OK, "%s", err.msg);
    int on[2] = {0, 0};
    const cJSON *line;
    cJSON_ArrayForEach(line, rd.rows) {
        const char *u = eous_json_str(eous_json_obj(line, "site_urls"), "fixture");
        cr_assert(u, "each line names its copy: %s", eous_json_str(line, "task_id"));
        on[0] += !strcmp(u, ts_server_url(one));
        on[1] += !strcmp(u, ts_server_url(two));
    }
    cr_expect_eq(on[0] + on[1], 4, "four jobs, each on one of the two copies");
    cr_expect(on[0] && on[1], "both copies ran jobs: %d and %d", on[0], on[1]);
    runs_dir_free(&rd);
    setenv("EOUS_SITE_FIXTURE", ts_server_url(one), 1);
    ts_server_stop(one);
    ts_server_stop(two);
}

/* A port nothing listens on: bound and closed again. */
/* A loopback port that refuses connections for the rest of this test's process: bound, never listening, so
 * no other process can take it meanwhile (a free port handed back was taken by a browser's DevTools server
 * another test launched, which answered the "down" site with HTTP 404, in CI at 519406c). */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    cr_assert(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
              getsockname(fd, (struct sockaddr *)&a, &len) == 0);
    return ntohs(a.sin_port); /* fd stays open until the test's process ends */
}

Test(cli, observe_unreachable_or_5xx_start_url_exits_3)
{
    /* eous observe names the network error instead of printing Chromium's error page */
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", closed_port());
    cr_assert_eq(run_cli((const char *[]){"observe", url, NULL}), 3);
    char *o = ts_slurp(out_path), *e = ts_drop_wait_notes(ts_slurp(err_path));
    cr_assert(strstr(e, "ERR_CONNECTION_REFUSED") && strstr(e, url), "%s", e);
    cr_assert_eq(ts_count_lines(e), 1, "one line: %s", e);
    cr_assert_eq(o[0], '\0', "nothing observed: %s", o);
    free(o);
    free(e);
    /* a site answering 503 to the first navigation is down too */
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    snprintf(url, sizeof url, "%s/__status?code=503", ts_server_url(srv));
    cr_assert_eq(run_cli((const char *[]){"observe", url, NULL}), 3);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "HTTP 503"), "%s", e);
    free(e);
    /* and so is one whose page is not there (a site whose files are not built yet) */
    snprintf(url, sizeof url, "%s/no-such-page.html", ts_server_url(srv));
    cr_assert_eq(run_cli((const char *[]){"observe", url, NULL}), 3);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "HTTP 404") && strstr(e, url), "%s", e);
    free(e);
    ts_server_stop(srv);
}

Test(cli, unreachable_start_url_is_infra_and_resume_reruns_it)
{
    char down[64];
    snprintf(down, sizeof down, "http://127.0.0.1:%d", closed_port());
    /* eous run: the task is infra (exit 3), not failed */
    setenv("EOUS_SITE_FIXTURE", down, 1);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/down", tmpdir);
    const char *task = EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json";
    cr_assert_eq(run_cli((const char *[]){"run", task, "--out", outdir, NULL}), 3);
    int n = 0;
    cJSON *line = ts_result_line(outdir, &n);
    cr_assert(line && n == 1);
    cr_assert_str_eq(eous_json_str(line, "status"), "infra");
    cr_assert(strstr(eous_json_str(line, "error"), "ERR_CONNECTION_REFUSED"), "%s", eous_json_str(line, "error"));
    cJSON_Delete(line);

    /* eous bench records infra (after its retries); --resume once the site
     * is up reruns it and the reports count the rerun, not the old line */
    snprintf(outdir, sizeof outdir, "%s/bench", tmpdir);
    cr_assert_eq(run_cli((const char *[]){"bench", task, "--out", outdir, NULL}), 3);
    ts_server *srv = serve_fixture_site();
    int rc = run_cli((const char *[]){"bench", task, "--out", outdir, "--resume", NULL});
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "%s", e);
    free(e);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    free(res);
    /* each attempt kept: the first run's tries (its retries included) as infra, then the pass */
    runs_dir rd;
    eous_err err;
    cr_assert_eq(runs_dir_load(outdir, 1, &rd, &err), EOUS_OK, "%s", err.msg);
    int n_rows = cJSON_GetArraySize(rd.rows);
    cr_assert_geq(n_rows, 2);
    for (int i = 0; i < n_rows; i++) {
        const cJSON *r = cJSON_GetArrayItem(rd.rows, i);
        cr_expect_eq(eous_json_int(r, "attempt", 0), i + 1, "attempts numbered in order");
        cr_expect_str_eq(eous_json_str(r, "status"), i + 1 < n_rows ? "infra" : "passed");
    }
    runs_dir_free(&rd);
    snprintf(path, sizeof path, "%s/summary.md", outdir);
    char *md = ts_slurp(path);
    cr_expect(strstr(md, "1/1 passed · "), "%s", md);
    free(md);
    /* a cron job that must know about the failed attempts asks for them */
    cr_assert_eq(run_cli((const char *[]){"bench", task, "--out", outdir, "--resume", "--fail-on", "any-attempt",
                                          NULL}), 1);
    e = ts_slurp(err_path);
    cr_expect(strstr(e, "--fail-on any-attempt: "), "%s", e);
    free(e);
    ts_server_stop(srv);
    unsetenv("EOUS_SITE_FIXTURE");
}

/* A site coming up: its start page answers 404, then 503, then a blank page,
 * then the page.  Each is infra (the start page's failure, not the agent's),
 * kept as its own attempt with what it met; the bench retries twice, and
 * --resume runs the fourth attempt, which passes. */
Test(cli, a_failing_start_page_is_infra_and_every_attempt_is_kept)
{
    ts_server *srv = serve_fixture_site();
    char task[300], outdir[300];
    snprintf(task, sizeof task, "%s/coming-up.json", tmpdir);
    snprintf(outdir, sizeof outdir, "%s/coming-up", tmpdir);
    const char *json = "{\"sites\": [\"fixture\"], \"task_id\": \"up-1\","
                       " \"start_url\": \"__FIXTURE__/__flaky?codes=404,503,0&then=/form.html\","
                       " \"intent\": \"Greet Ada\", \"eval\": {\"eval_types\": [\"program_html\"],"
                       " \"reference_answers\": null, \"reference_url\": \"\", \"program_html\": [{\"url\": \"last\","
                       " \"locator\": \"document.querySelector('#out').textContent\","
                       " \"required_contents\": {\"exact_match\": \"Hello Ada\"}}]},"
                       " \"script\": [{\"type\": \"textbox 'Full name'\", \"text\": \"Ada\"},"
                       " {\"click\": \"button 'Send'\"}, {\"stop\": \"Hello Ada\"}]}";
    cr_assert_eq(eous_write_file_atomic(task, json, strlen(json), NULL), EOUS_OK);
    cr_assert_eq(run_cli((const char *[]){"bench", task, "--modes", "hybrid", "--out", outdir, NULL}), 3);
    int rc = run_cli((const char *[]){"bench", task, "--modes", "hybrid", "--out", outdir, "--resume", NULL});
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "the last attempt passed: %s", e);
    free(e);
    runs_dir rd;
    eous_err err;
    cr_assert_eq(runs_dir_load(outdir, 1, &rd, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(cJSON_GetArraySize(rd.rows), 4, "four attempts, each its line");
    const char *met[] = {"HTTP 404", "HTTP 503", "empty document"};
    for (int i = 0; i < 3; i++) {
        const cJSON *r = cJSON_GetArrayItem(rd.rows, i);
        cr_expect_str_eq(eous_json_str(r, "status"), "infra");
        cr_expect_eq(eous_json_int(r, "attempt", 0), i + 1);
        cr_expect(strstr(eous_json_str(r, "error"), met[i]), "attempt %d names what it met: %s", i + 1,
                  eous_json_str(r, "error"));
    }
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(rd.rows, 3), "status"), "passed");
    cr_expect_eq(eous_json_int(cJSON_GetArrayItem(rd.rows, 3), "attempt", 0), 4);
    runs_dir_free(&rd);
    char path[400];
    snprintf(path, sizeof path, "%s/summary.md", outdir);
    char *md = ts_slurp(path);
    cr_expect(strstr(md, "1/1 passed · 3 failed attempts"), "%s", md);
    free(md);
    ts_server_stop(srv);
    unsetenv("EOUS_SITE_FIXTURE");
}

/* Starts `eous ARGS` on a task whose start page never finishes loading,
 * waits until the task is under way (its trace exists), sends sig. */
static int signal_mid_run(const char *cmd, const char *outdir, int sig)
{
    ts_server *srv = serve_fixture_site();
    char task[300];
    snprintf(task, sizeof task, "%s/slow.json", tmpdir);
    const char *json = "{\"sites\": [\"fixture\"], \"task_id\": \"slow-1\", \"start_url\": \"__FIXTURE__/__slow?ms=30000\","
                       " \"intent\": \"wait\", \"eval\": {\"eval_types\": [\"string_match\"],"
                       " \"reference_answers\": {\"exact_match\": \"x\"}}, \"script\": [{\"stop\": \"x\"}]}";
    cr_assert_eq(eous_write_file_atomic(task, json, strlen(json), NULL), EOUS_OK);
    pid_t pid = ts_cli_spawn((const char *[]){cmd, task, "--out", outdir, NULL}, out_path, err_path);
    cr_assert(pid > 0);
    char trace[400];
    snprintf(trace, sizeof trace, "%s/trace/slow-1-hybrid.jsonl", outdir);
    for (int i = 0; i < 1200 && access(trace, F_OK) != 0; i++)
        usleep(50 * 1000);
    cr_assert_eq(access(trace, F_OK), 0, "the task started");
    /* inside the start page's load: the server has its request, which answers in 30 s */
    for (int i = 0; i < 1200 && ts_server_requests(srv) < 1; i++)
        usleep(50 * 1000);
    cr_assert_geq(ts_server_requests(srv), 1, "the start page was asked for");
    kill(pid, sig);
    int rc = ts_cli_wait(pid, 120);
    ts_server_stop(srv);
    unsetenv("EOUS_SITE_FIXTURE");
    return rc;
}

Test(cli, sigint_mid_run_records_interrupted_and_exits_130)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/int", tmpdir);
    int rc = signal_mid_run("run", outdir, SIGINT);
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 130, "%s", e);
    free(e);
    int n = 0;
    cJSON *line = ts_result_line(outdir, &n);
    cr_assert(line && n == 1);
    cr_assert_str_eq(eous_json_str(line, "status"), "interrupted");
    cJSON_Delete(line);
}

Test(cli, sigterm_mid_bench_records_interrupted_exits_143_with_reports)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/term", tmpdir);
    int rc = signal_mid_run("bench", outdir, SIGTERM);
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 143, "%s", e);
    free(e);
    int n = 0;
    cJSON *line = ts_result_line(outdir, &n);
    cr_assert(line && n == 1);
    cr_assert_str_eq(eous_json_str(line, "status"), "interrupted");
    cJSON_Delete(line);
    char path[400];
    snprintf(path, sizeof path, "%s/junit.xml", outdir);
    char *junit = ts_slurp(path);
    cr_assert(strstr(junit, "errors=\"1\""), "the interrupted job is an error in the reports: %s", junit);
    free(junit);
}

Test(cli, bench_on_a_folder_of_suites_names_the_suites_and_grounding_flag_is_checked)
{
    char suites[300], a[320], b[320], f[400], out[320];
    snprintf(suites, sizeof suites, "%s/suites", tmpdir);
    snprintf(a, sizeof a, "%s/alpha", suites);
    snprintf(b, sizeof b, "%s/beta", suites);
    cr_assert_eq(mkdir(suites, 0755), 0);
    cr_assert_eq(mkdir(a, 0755), 0);
    cr_assert_eq(mkdir(b, 0755), 0);
    snprintf(f, sizeof f, "%s/000.json", a);
    cr_assert_eq(eous_write_file_atomic(f, "{}", 2, NULL), EOUS_OK);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    cr_assert_eq(run_cli((const char *[]){"bench", suites, "--out", out, NULL}), 2);
    char *e = ts_slurp(err_path);
    cr_assert(strstr(e, "alpha") && strstr(e, "holds no task files"), "%s", e);
    cr_assert(!strstr(e, "beta"), "beta holds no tasks: %s", e);
    free(e);
    struct stat st;
    cr_assert_neq(stat(out, &st), 0, "nothing written");
    cr_assert_eq(run_cli((const char *[]){"bench", a, "--grounding", "loose", NULL}), 2);
    e = ts_slurp(err_path);
    cr_assert(strstr(e, "--grounding 'loose'") && strstr(e, "strict, report or off"), "%s", e);
    free(e);
}

/* eous score with nothing on stdin (a broken pipe upstream) says so and exits 2, not 0 with no output */
Test(cli, score_with_nothing_on_stdin_is_bad_input)
{
    cr_assert_eq(run_cli((const char *[]){"score", NULL}), 2);
    char *e = ts_slurp(err_path), *o = ts_slurp(out_path);
    cr_expect(strstr(e, "eous score: stdin held no JSON line to score") && ts_count_lines(e) == 1, "%s", e);
    cr_expect_eq(o[0], '\0', "nothing printed: %s", o);
    free(e);
    free(o);
}

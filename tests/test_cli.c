/* tests/test_cli.c — the eous CLI contract: exit codes, one-line errors,
 * run and bench on fixture tasks with real Chromium, results and traces. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/testsrv.h"
#include "core/core.h"

static char out_path[256], err_path[256], tmpdir[256];

static int run_cli(const char *const *args)
{
    const char *cli = getenv("EOUS_CLI");
    cr_assert(cli, "EOUS_CLI is set by ctest");
    pid_t pid = fork();
    if (pid == 0) {
        int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        const char *argv[32];
        int n = 0;
        argv[n++] = cli;
        for (; args[n - 1] && n < 31; n++)
            argv[n] = args[n - 1];
        argv[n] = NULL;
        execv(cli, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static char *slurp(const char *path)
{
    char *s = NULL;
    if (eous_read_file(path, 0, &s, NULL, NULL))
        return strdup("");
    return s;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/eous-cli-XXXXXX");
    cr_assert(mkdtemp(tmpdir));
    snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
}

static void teardown(void)
{
    eous_rmtree(tmpdir);
}

TestSuite(cli, .init = setup, .fini = teardown, .timeout = 300);

Test(cli, help_version_and_usage_errors)
{
    cr_assert_eq(run_cli((const char *[]){"--version", NULL}), 0);
    char *o = slurp(out_path);
    cr_assert(!strncmp(o, "eous ", 5), "%s", o);
    free(o);
    cr_assert_eq(run_cli((const char *[]){"--help", NULL}), 0);
    cr_assert_eq(run_cli((const char *[]){"frobnicate", NULL}), 2);
    char *e = slurp(err_path);
    cr_assert(strstr(e, "frobnicate"), "%s", e);
    cr_assert_eq(count_lines(e), 1, "one line: %s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"run", NULL}), 2);
    cr_assert_eq(run_cli((const char *[]){"run", "/nonexistent/task.json", NULL}), 2);
    e = slurp(err_path);
    cr_assert(strstr(e, "/nonexistent/task.json"), "names the file: %s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"observe", "not-a-url", NULL}), 2);
    cr_assert_eq(run_cli((const char *[]){"observe", "http://127.0.0.1:9/", "--mode", "fancy", NULL}), 2);
    e = slurp(err_path);
    cr_assert(strstr(e, "fancy"), "%s", e);
    free(e);
    cr_assert_eq(run_cli((const char *[]){"bench", "x.json", "--workers", "zero", NULL}), 2);
    cr_assert_eq(run_cli((const char *[]){"run", "x.json", "--planner", "llm", NULL}), 2, "llm needs --llm");
}

Test(cli, check_reports_problems_per_config)
{
    setenv("EOUS_SITE_FIXTURE", "http://127.0.0.1:9", 1);
    cr_assert_eq(run_cli((const char *[]){"check", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", NULL}), 0);
    unsetenv("EOUS_SITE_FIXTURE");
    cr_assert_eq(run_cli((const char *[]){"check", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", NULL}), 2);
    char *o = slurp(out_path);
    cr_assert(strstr(o, "EOUS_SITE_FIXTURE"), "%s", o);
    free(o);
}

Test(cli, missing_chromedriver_is_infra_exit_3)
{
    setenv("EOUS_CHROMEDRIVER", "/nonexistent/chromedriver", 1);
    cr_assert_eq(run_cli((const char *[]){"observe", "http://127.0.0.1:9/", NULL}), 3);
    char *e = slurp(err_path);
    cr_assert(strstr(e, "chromium-driver"), "%s", e);
    free(e);
    unsetenv("EOUS_CHROMEDRIVER");
}

Test(cli, run_fixture_task_in_hybrid_and_atomic)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    const char *task = EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json";
    int rc = run_cli((const char *[]){"run", task, "--mode", "hybrid", "--out", outdir, NULL});
    char *o = slurp(out_path), *e = slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s stderr: %s", o, e);
    cr_assert(strstr(o, "passed"), "%s", o);
    free(o);
    free(e);
    rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--out", outdir, NULL});
    cr_assert_eq(rc, 0);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = slurp(path);
    cr_assert_eq(count_lines(res), 2, "%s", res);
    cr_assert(strstr(res, "\"mode\":\"hybrid\"") && strstr(res, "\"mode\":\"atomic\""));
    free(res);
    snprintf(path, sizeof path, "%s/trace/fx-1-atomic.jsonl", outdir);
    char *tr = slurp(path);
    cr_assert_eq(count_lines(tr), 3, "one trace line per step: %s", tr);
    cr_assert(strstr(tr, "\"path\":\"atomic\""), "%s", tr);
    cr_assert(strstr(tr, "\"perceive\""), "%s", tr);
    free(tr);
    ts_server_stop(srv);
}

Test(cli, bench_writes_reports_resumes_and_locks)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    char outdir[300], lock[320];
    snprintf(outdir, sizeof outdir, "%s/bench", tmpdir);
    snprintf(lock, sizeof lock, "%s/lock", tmpdir);
    const char *suite = EOUS_SOURCE_DIR "/tests/fixtures/tasks/suite";
    int rc = run_cli((const char *[]){"bench", suite, "--modes", "hybrid,atomic", "--workers", "2", "--out", outdir,
                                      "--lock", lock, NULL});
    char *o = slurp(out_path), *e = slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s\nstderr: %s", o, e);
    cr_assert(strstr(o, "| hybrid |") && strstr(o, "| atomic |"), "comparison table: %s", o);
    free(o);
    free(e);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = slurp(path);
    cr_assert_eq(count_lines(res), 6, "3 tasks x 2 modes: %s", res);
    free(res);
    const char *reports[] = {"summary.json", "summary.md", "report.html", "junit.xml"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, reports[i]);
        struct stat st;
        cr_assert_eq(stat(path, &st), 0, "%s written", reports[i]);
        cr_assert_gt(st.st_size, 50);
    }
    snprintf(path, sizeof path, "%s/junit.xml", outdir);
    char *junit = slurp(path);
    cr_assert_eq(count_lines(junit) > 0, 1);
    int cases = 0;
    for (const char *p = junit; (p = strstr(p, "<testcase")); p++)
        cases++;
    cr_assert_eq(cases, 6);
    free(junit);
    /* resume: nothing left to do, nothing duplicated */
    rc = run_cli((const char *[]){"bench", suite, "--modes", "hybrid,atomic", "--out", outdir, "--resume", NULL});
    cr_assert_eq(rc, 0);
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    res = slurp(path);
    cr_assert_eq(count_lines(res), 6, "resume added nothing: %s", res);
    free(res);
    /* lock held by someone else: refuse to start */
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    cr_assert_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
    rc = run_cli((const char *[]){"bench", suite, "--out", outdir, "--lock", lock, NULL});
    cr_assert_eq(rc, 2);
    e = slurp(err_path);
    cr_assert(strstr(e, "lock"), "%s", e);
    free(e);
    close(fd);
    ts_server_stop(srv);
}

/* tests/harness/test_run_folders.c — where `eous run` and `eous bench` write without
 * --out: a new eous-runs/<date>-<task>-<mode>[-N]/ (bench: <date>-bench[-N])
 * under the current directory each time, never out/ (make demo's) nor runs/
 * (the source tree's module), and the folder printed at the end.  Real
 * Chromium on the fixture pages, served on loopback by the test. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

static char out_path[256], err_path[256], tmpdir[256];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "runfolders", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(run_folders, .init = setup, .fini = teardown, .timeout = 600);

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The last line of s (s is changed). */
static const char *last_line(char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        s[--n] = '\0';
    char *nl = strrchr(s, '\n');
    return nl ? nl + 1 : s;
}

Test(run_folders, run_and_bench_without_out_get_a_new_folder_each_time)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    char cwd[256];
    snprintf(cwd, sizeof cwd, "%s/work", tmpdir);
    cr_assert_eq(mkdir(cwd, 0755), 0);
    cr_assert_eq(chdir(cwd), 0, "the CLI runs in an empty folder, as a user's first run does");
    char day[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(day, sizeof day, "%Y-%m-%d", localtime_r(&now, &tm));
    const char *task = EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json";
    char want[2][128];
    snprintf(want[0], sizeof want[0], "eous-runs/%s-fx-1-hybrid", day);
    snprintf(want[1], sizeof want[1], "eous-runs/%s-fx-1-hybrid-2", day);
    for (int i = 0; i < 2; i++) {
        int rc = ts_cli_run((const char *[]){"run", task, NULL}, out_path, err_path, 240);
        char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
        cr_assert_eq(rc, 0, "stdout: %s\nstderr: %s", o, e);
        char line[200], results[200];
        snprintf(line, sizeof line, "run folder: %s", want[i]);
        cr_assert_str_eq(last_line(o), line, "the folder is the last line printed");
        snprintf(results, sizeof results, "%s/results.jsonl", want[i]);
        char *r = ts_slurp(results);
        cr_assert_eq(ts_count_lines(r), 1, "a new folder each run, one result in it: %s", r);
        free(r);
        free(o);
        free(e);
    }
    cr_assert(!exists("out") && !exists("runs"), "nothing in out/ (make demo's) or runs/ (the source module's)");
    /* bench: the same rule; --resume names the folder it resumes */
    int rc = ts_cli_run((const char *[]){"bench", task, NULL}, out_path, err_path, 240);
    char *o = ts_slurp(out_path);
    cr_assert_eq(rc, 0, "%s", o);
    char bench[128], report[160], line[200];
    snprintf(bench, sizeof bench, "eous-runs/%s-bench", day);
    snprintf(report, sizeof report, "%s/report.html", bench);
    snprintf(line, sizeof line, "run folder: %s", bench);
    cr_assert(exists(report), "%s written", report);
    cr_assert_str_eq(last_line(o), line);
    free(o);
    rc = ts_cli_run((const char *[]){"bench", task, "--resume", NULL}, out_path, err_path, 60);
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 2, "%s", e);
    cr_assert(strstr(e, "--resume needs --out DIR"), "%s", e);
    cr_assert_eq(ts_count_lines(e), 1, "%s", e);
    free(e);
    /* bad input leaves no folder behind */
    rc = ts_cli_run((const char *[]){"run", task, "--policy", "/nonexistent/policy.json", NULL}, out_path, err_path,
                    60);
    cr_assert_eq(rc, 2);
    char none[128];
    snprintf(none, sizeof none, "eous-runs/%s-fx-1-hybrid-3", day);
    cr_assert(!exists(none), "%s not left behind", none);
    ts_server_stop(srv);
}

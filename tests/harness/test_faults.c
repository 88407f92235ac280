/* tests/harness/test_faults.c — nothing half-written: a file-size limit (what a full
 * disk looks like to write()) leaves no torn line in results.jsonl, and
 * `eous bench` says so in one line and exits 3, as it does for a run
 * directory it may not write; a cassette cut mid-line by a
 * crash replays up to its last whole exchange and records on after it. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "llm/llm_int.h"
#include "support/workdir.h"

static char tmpdir[256];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "faults", NULL, NULL, 0);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(faults, .init = setup, .fini = teardown, .timeout = 120);

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

Test(faults, append_past_a_size_limit_leaves_no_torn_line)
{
    char path[400];
    snprintf(path, sizeof path, "%s/r.jsonl", tmpdir);
    pid_t child = fork();
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {100, 100};
        setrlimit(RLIMIT_FSIZE, &rl);
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        char line[70];
        memset(line, 'a', 59);
        line[59] = '\0';
        eous_err err;
        eous_err_clear(&err);
        if (eous_append_line(fd, line, path, &err) != EOUS_OK)
            _exit(1);
        /* 60 more bytes cross the 100-byte limit: 40 would be written */
        if (eous_append_line(fd, line, path, &err) != EOUS_E_IO || !strstr(err.msg, path))
            _exit(2);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", WEXITSTATUS(status));
    cr_assert_eq(file_size(path), 60, "the torn second line was cut back");
}

/* A task the bench records as skipped without a browser (it needs WebArena's
 * site APIs), so the results line is the first thing written. */
static void write_skipped_task(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("{\"task_id\": 1, \"sites\": [\"shopping\"], \"start_url\": \"http://127.0.0.1:9/\", \"intent\": \"x\", "
          "\"eval\": {\"eval_types\": [\"program_html\"], \"reference_answers\": null, \"reference_url\": \"\", "
          "\"program_html\": [{\"url\": \"func:shopping_get_latest_order_url()\", \"locator\": \"\", "
          "\"required_contents\": {\"must_include\": [\"a\"]}}]}}\n",
          f);
    fclose(f);
}

Test(faults, bench_on_a_full_disk_exits_3_with_one_line_and_no_torn_result)
{
    const char *cli = getenv("EOUS_CLI");
    cr_assert(cli, "EOUS_CLI set (ctest sets it)");
    char task[400], out[400], results[500];
    snprintf(task, sizeof task, "%s/task.json", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    write_skipped_task(task);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    if (child == 0) {
        dup2(fds[1], 2); /* a pipe: the size limit applies to files only */
        dup2(fds[1], 1);
        close(fds[0]);
        struct rlimit rl = {64, 64};
        setrlimit(RLIMIT_FSIZE, &rl);
        execl(cli, cli, "bench", task, "--out", out, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char text[8192];
    ssize_t n, got = 0;
    while ((n = read(fds[0], text + got, sizeof text - 1 - (size_t)got)) > 0)
        got += n;
    text[got] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3, "exit %d, log:\n%s", WEXITSTATUS(status), text);
    cr_assert(strstr(text, "results.jsonl: write failed: "), "one line naming the file:\n%s", text);
    cr_assert_leq(file_size(results), 0, "no partial line in results.jsonl");
}

/* Runs `eous bench TASK --out OUT` as a user who may not write OUT (root
 * writes anywhere, so root drops to nobody); returns the exit status and
 * fills text with what it printed. */
static int bench_as_reader(const char *task, const char *out, char *text, size_t cap)
{
    const char *cli = getenv("EOUS_CLI");
    cr_assert(cli, "EOUS_CLI set (ctest sets it)");
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    if (child == 0) {
        dup2(fds[1], 2);
        dup2(fds[1], 1);
        close(fds[0]);
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(126);
        execl(cli, cli, "bench", task, "--out", out, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    ssize_t n, got = 0;
    while ((n = read(fds[0], text + got, cap - 1 - (size_t)got)) > 0)
        got += n;
    text[got] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(faults, read_only_run_directory_exits_3_with_one_line_and_writes_nothing)
{
    char task[400], out[400], text[8192];
    snprintf(task, sizeof task, "%s/task.json", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    write_skipped_task(task);
    cr_assert_eq(chmod(tmpdir, 0755), 0);
    cr_assert_eq(chmod(task, 0644), 0);
    cr_assert_eq(mkdir(out, 0555), 0);
    if (geteuid() == 0)
        cr_assert_eq(chown(out, 65534, 65534), 0, "the reader owns the directory and still may not write it");
    int code = bench_as_reader(task, out, text, sizeof text);
    if (code == 126 || code == 127)
        cr_skip_test("cannot run %s as user nobody here (exit %d)", getenv("EOUS_CLI"), code);
    cr_assert_eq(code, 3, "exit %d, log:\n%s", code, text);
    cr_assert(strstr(text, "/out/trace: cannot create directory: Permission denied"), "names the directory:\n%s", text);
    cr_assert(!strchr(text, '\n') || strchr(text, '\n') == text + strlen(text) - 1, "one line:\n%s", text);
    char results[500];
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    cr_assert_eq(file_size(results), -1, "nothing written");
    cr_assert_eq(chmod(out, 0755), 0); /* so teardown can remove it */
}

Test(faults, cassette_cut_mid_line_replays_its_whole_exchanges)
{
    char path[400];
    snprintf(path, sizeof path, "%s/c.jsonl", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("{\"key\":\"0123456789abcdef\",\"provider\":\"openai\",\"model\":\"m\",\"response\":{\"a\":1}}\n"
          "{\"key\":\"fedcba9876543210\",\"response\":{\"a\":",
          f);
    fclose(f);
    llm_cassette *c = NULL;
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(llm_cassette_open(path, LLM_CASSETTE_REPLAY, &c, &err), EOUS_OK, "%s", err.msg);
    llm_cassette_free(c);
    /* recording on: the torn tail goes, so the next exchange is a line of its own */
    cr_assert_eq(llm_cassette_open(path, LLM_CASSETTE_RECORD, &c, &err), EOUS_OK, "%s", err.msg);
    llm_cassette_free(c);
    char *text = NULL;
    eous_read_file(path, 0, &text, NULL, NULL);
    cr_assert_eq(strchr(text, '\n') - text + 1, (long)strlen(text), "only the whole first line is left: %s", text);
    free(text);
}

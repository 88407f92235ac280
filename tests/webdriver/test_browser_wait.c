/* tests/webdriver/test_browser_wait.c — a slow browser start says what it waits for:
 * `eous observe` with a chromedriver that takes 7 s to start prints one line
 * on stderr naming the driver's port after 5 s, and its stdout (the view,
 * which a caller may parse) holds nothing of it; the note itself repeats
 * every 10 s and says nothing when the wait ends sooner. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"
#include "webdriver/wait_int.h"

static char tmpdir[256], out_path[300], err_path[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "wait", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    unsetenv("EOUS_CHROMEDRIVER");
    ts_workdir_remove(tmpdir);
}

TestSuite(browser_wait, .init = setup, .fini = teardown, .timeout = 240);

/* A chromedriver that sleeps 7 s before it starts: the path of a script in tmpdir. */
static void slow_driver(char *path, size_t size)
{
    const char *real = getenv("EOUS_CHROMEDRIVER");
    char found[4096];
    cr_assert(eous_which(real && *real ? real : "chromedriver", found, sizeof found), "no chromedriver");
    snprintf(path, size, "%s/slow-chromedriver", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\nsleep 7\nexec '%s' \"$@\"\n", found);
    fclose(f);
    cr_assert_eq(chmod(path, 0755), 0);
}

Test(browser_wait, slow_driver_start_is_said_on_stderr_not_stdout)
{
    char driver[400];
    slow_driver(driver, sizeof driver);
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    cr_assert_not_null(srv);
    char url[300];
    snprintf(url, sizeof url, "%s/form.html", ts_server_url(srv));
    setenv("EOUS_CHROMEDRIVER", driver, 1);
    int rc = ts_cli_run((const char *[]){"observe", url, "--mode", "atomic", NULL}, out_path, err_path, 180);
    unsetenv("EOUS_CHROMEDRIVER");
    ts_server_stop(srv);
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stderr: %s", e);
    cr_expect(strstr(o, "Send"), "the view: %s", o);
    cr_expect_null(strstr(o, "waiting"), "stdout is the view alone: %s", o);
    const char *line = strstr(e, "eous: still waiting for chromedriver on port ");
    cr_assert_not_null(line, "the wait is said: %s", e);
    int port = 0, secs = 0;
    cr_expect_eq(sscanf(line, "eous: still waiting for chromedriver on port %d to answer (%d s)…", &port, &secs), 2,
                 "%s", line);
    cr_expect(port > 0 && secs >= 5 && secs < 7, "port %d after %d s: %s", port, secs, line);
    free(o);
    free(e);
}

/* The note in-process, stderr into a file: nothing before 5 s, then a line at 5 s and one at 15 s. */
Test(browser_wait, note_repeats_every_ten_seconds_and_is_quiet_when_quick)
{
    char path[400];
    snprintf(path, sizeof path, "%s/note.err", tmpdir);
    fflush(stderr);
    int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    wd_wait_note *quick = wd_wait_note_start("something quick");
    eous_sleep_ms(300);
    wd_wait_note_stop(quick);
    wd_wait_note *slow = wd_wait_note_start("the thing on port %d", 4444);
    eous_sleep_ms(16000);
    wd_wait_note_stop(slow);
    eous_sleep_ms(100);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *e = ts_slurp(path);
    cr_expect_str_eq(e, "eous: still waiting for the thing on port 4444 (5 s)…\n"
                        "eous: still waiting for the thing on port 4444 (15 s)…\n", "%s", e);
    free(e);
}

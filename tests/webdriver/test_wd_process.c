/* tests/webdriver/test_wd_process.c — driver process management: nothing survives. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/browser.h"
#include "support/proc.h"


TestSuite(wd_process, .timeout = 120);

Test(wd_process, driver_and_browser_gone_after_free)
{
    wd_become_subreaper();
    eous_err err;
    eous_err_clear(&err);
    wd_driver *d = NULL;
    cr_assert_eq(wd_driver_spawn(NULL, &d, &err), EOUS_OK, "%s", err.msg);
    wd_session *s = NULL;
    cr_assert_eq(wd_session_new(wd_driver_url(d), NULL, &s, &err), EOUS_OK, "%s", err.msg);
    pid_t g = wd_driver_pid(d);
    cr_assert_gt(ts_proc_group_count(g), 1, "driver and browser running in one group");
    /* no session delete: simulate a failed run that only frees the driver */
    wd_driver_free(d);
    cr_assert_eq(ts_proc_group_count(g), 0, "processes survived the driver");
    wd_session_free(s); /* must not hang on the dead driver */
}

Test(wd_process, failed_session_leaves_nothing)
{
    wd_become_subreaper();
    eous_err err;
    eous_err_clear(&err);
    wd_driver *d = NULL;
    cr_assert_eq(wd_driver_spawn(NULL, &d, &err), EOUS_OK, "%s", err.msg);
    pid_t g = wd_driver_pid(d);
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.chromium = "/nonexistent/chromium";
    wd_session *s = NULL;
    cr_assert_neq(wd_session_new(wd_driver_url(d), &o, &s, &err), EOUS_OK);
    cr_assert_null(s);
    wd_driver_free(d);
    cr_assert_eq(ts_proc_group_count(g), 0);
}

/* A descriptor the caller holds when eous starts the driver is not the driver's too: a test server's
 * accepted connection, inherited, stayed open after the server closed it, and a browser that kept its
 * idle socket to that server sent its next page's request into it and waited 30 s. */
Test(wd_process, driver_holds_none_of_the_callers_descriptors)
{
    wd_become_subreaper();
    int p[2];
    cr_assert_eq(pipe(p), 0); /* inheritable, as a socket accept() returned is */
    eous_err err;
    eous_err_clear(&err);
    wd_driver *d = NULL;
    cr_assert_eq(wd_driver_spawn(NULL, &d, &err), EOUS_OK, "%s", err.msg);
    /* the driver answered: it was exec'd, after letting go of them */
    cr_expect(ts_pipe_closed_everywhere(p, 0), "the pipe's end closed here is still open in the driver");
    wd_driver_free(d);
}

/* The guardian, which lives as long as eous, keeps only its pipe from eous: nothing eous's caller closes
 * stays open in it. */
Test(wd_process, guardian_holds_none_of_the_callers_descriptors)
{
    char dir[] = "/tmp/eous-guard-fds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    int p[2];
    cr_assert_eq(pipe(p), 0);
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_guard_start(dir, &err), EOUS_OK, "%s", err.msg);
    /* the guardian lets go of it as it starts, a moment after the fork */
    cr_expect(ts_pipe_closed_everywhere(p, 10000), "the pipe's end closed here is still open in the guardian");
    eous_rmtree(dir);
}

Test(wd_process, missing_binary_names_the_package)
{
    eous_err err;
    eous_err_clear(&err);
    wd_driver_opts o = {0};
    o.chromedriver = "/nonexistent/chromedriver";
    wd_driver *d = NULL;
    cr_assert_eq(wd_driver_spawn(&o, &d, &err), EOUS_E_INFRA);
    cr_assert(strstr(err.msg, "chromium-driver"), "%s", err.msg);
    cr_assert_eq(eous_rc_exit_code(err.rc), 3);
    setenv("EOUS_CHROMIUM", "/nonexistent/chromium", 1);
    o.chromedriver = NULL;
    cr_assert_eq(wd_driver_spawn(&o, &d, &err), EOUS_E_INFRA);
    cr_assert(strstr(err.msg, "install the Debian package chromium"), "%s", err.msg);
    unsetenv("EOUS_CHROMIUM");
}

Test(wd_process, sigterm_kills_driver_and_browser)
{
    /* A child process starts a session and waits; we SIGTERM it and check
     * that its driver group is gone. */
    int pipefd[2];
    cr_assert_eq(pipe(pipefd), 0);
    pid_t child = fork();
    if (child == 0) {
        close(pipefd[0]);
        wd_install_signal_handlers();
        eous_err err;
        wd_driver *d = NULL;
        wd_session *s = NULL;
        if (wd_driver_spawn(NULL, &d, &err) || wd_session_new(wd_driver_url(d), NULL, &s, &err))
            _exit(9);
        int g = (int)wd_driver_pid(d);
        if (write(pipefd[1], &g, sizeof g) != sizeof g)
            _exit(8);
        while (!eous_interrupted())
            eous_sleep_ms(20);
        wd_session_free(s);
        wd_driver_free(d);
        _exit(0);
    }
    close(pipefd[1]);
    int g = 0;
    cr_assert_eq(read(pipefd[0], &g, sizeof g), (ssize_t)sizeof g, "child started a session");
    cr_assert_gt(ts_proc_group_count(g), 1);
    kill(child, SIGTERM);
    int status = 0;
    waitpid(child, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child cleaned up and exited 0");
    for (int i = 0; i < 40 && ts_proc_group_count(g); i++)
        eous_sleep_ms(50);
    cr_assert_eq(ts_proc_group_count(g), 0, "no process of the driver group survived SIGTERM");
}

/* Waits (5 s at most) until pid is a zombie child of ours. */
static int becomes_our_zombie(pid_t pid)
{
    for (int i = 0; i < 250; i++) {
        char state = 0;
        pid_t ppid = 0, pgid = 0;
        if (ts_proc_stat(pid, &state, &ppid, &pgid) == 0 && state == 'Z' && ppid == getpid())
            return 1;
        eous_sleep_ms(20);
    }
    return 0;
}

/* A subreaper collects ended orphans (Chromium's crashpad handlers call setsid
 * and outlive the browser): wd_reap_orphans reaps those, and leaves the
 * children eous forked itself, which their owners wait for by pid and status. */
Test(wd_process, reaps_orphans_not_own_children)
{
    wd_become_subreaper();
    pid_t own = fork(); /* as the guardian: in our group */
    if (own == 0)
        _exit(7);
    pid_t leader = fork(); /* as chromedriver or a reset command: a group of its own */
    if (leader == 0) {
        setpgid(0, 0);
        _exit(8);
    }
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t middle = fork(); /* starts a daemon-like helper and ends: the helper is orphaned to us */
    if (middle == 0) {
        pid_t helper = fork();
        if (helper == 0) {
            setsid();
            eous_sleep_ms(300);
            _exit(0);
        }
        _exit(write(fds[1], &helper, sizeof helper) == sizeof helper ? 0 : 1);
    }
    close(fds[1]);
    pid_t helper = 0;
    cr_assert_eq(read(fds[0], &helper, sizeof helper), (ssize_t)sizeof helper);
    close(fds[0]);
    int status = 0;
    cr_assert_eq(waitpid(middle, &status, 0), middle);
    cr_assert(becomes_our_zombie(helper), "the orphaned helper %d never ended as our child", (int)helper);
    cr_assert(becomes_our_zombie(own) && becomes_our_zombie(leader));
    cr_expect_geq(wd_reap_orphans(), 1);
    char state = 0;
    pid_t ppid = 0, pgid = 0;
    cr_expect(ts_proc_stat(helper, &state, &ppid, &pgid) != 0, "the orphan %d is still <defunct>", (int)helper);
    cr_expect_eq(waitpid(own, &status, 0), own, "our own child was reaped by someone else");
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    cr_expect_eq(waitpid(leader, &status, 0), leader, "a group leader we started was reaped by someone else");
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 8);
}

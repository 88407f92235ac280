/* tests/harness/test_wiki_site.c — the second ground: a real DokuWiki (Debian's
 * package, served by scripts/wiki on a free loopback port) and its suite
 * benchmarks/grounds/tasks/dokuwiki through the real runner.  Every task passes in
 * atomic, pruned and hybrid modes with the site reset between tasks
 * (EOUS_SITE_DOKUWIKI_RESET), each of the bench's two workers on its own copy
 * of the wiki; with nothing done, and with the answer "N/A",
 * every task scores 0.  The site_reset suite checks the reset hook itself
 * without a browser. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "webarena/site_pool.h"
#include "webarena/site_reset.h"
#include "webarena/task.h"
#include "support/browser.h"
#include "support/cli.h"
#include "support/proc.h"
#include "support/site.h"
#include "support/untouched_check.h"
#include "support/workdir.h"
#include "support/grounds.h"

#define SUITE_DIR TS_TASKS "/dokuwiki"
#define WIKI EOUS_SOURCE_DIR "/scripts/wiki"

static char tmpdir[256];
static char wikidir[300];
static char wikidir2[300]; /* a second copy, for the bench's second worker */
static char secrets[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "wiki-test", NULL, NULL, 0);
    snprintf(wikidir, sizeof wikidir, "%s/wiki", tmpdir);
    snprintf(wikidir2, sizeof wikidir2, "%s/wiki2", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/secrets.env", tmpdir);
}

static void teardown(void)
{
    ts_site_stop(WIKI, wikidir); /* by the PID in wiki.pid; nothing when that copy never started */
    ts_site_stop(WIKI, wikidir2);
    ts_workdir_remove(tmpdir);
}

/* Starts the wiki; sets EOUS_SITE_DOKUWIKI and EOUS_SITE_DOKUWIKI_RESET. */
static void start_wiki(void)
{
    cr_assert_eq(ts_site_start(WIKI, "DOKUWIKI", wikidir, secrets), 0, "scripts/wiki started (its stderr says why not)");
}

/* Starts two copies of the wiki, a pool (webarena/site_pool.h): each of the bench's two workers resets
 * and uses its own, so a require_reset task waits for no task of the other worker. */
static void start_wiki_copies(void)
{
    const char *dirs[] = {wikidir, wikidir2};
    cr_assert_eq(ts_site_start_copies(WIKI, "DOKUWIKI", dirs, 2, secrets), 0,
                 "scripts/wiki started twice (its stderr says why not)");
}

static int bench(const char *tasks, const char *modes, const char *out)
{
    return ts_suite_bench(tasks, modes, NULL, secrets, out, 5400);
}

TestSuite(wiki_site, .init = setup, .fini = teardown, .timeout = 7200);

Test(wiki_site, every_task_passes_in_atomic_pruned_and_hybrid)
{
    start_wiki_copies();
    int n = ts_suite_count(SUITE_DIR);
    cr_assert_geq(n, 20, "at least 20 DokuWiki tasks");
    char out[300], results[400];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    int rc = bench(SUITE_DIR, "atomic,pruned,hybrid", out);
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    char *text = ts_slurp(results);
    cr_expect_eq(rc, 0, "every task passed; results:\n%s", text);
    cr_expect_eq(ts_count_lines(text), 3 * n, "one line per task and mode");
    cr_expect_eq(ts_results_count(results, "passed", NULL), 3 * n, "results:\n%s", text);
    /* both copies served tasks' forms (php -S logs each request; the start script only GETs) */
    const char *dirs[] = {wikidir, wikidir2};
    for (int i = 0; i < 2; i++) {
        char log[400];
        snprintf(log, sizeof log, "%s/wiki.log", dirs[i]);
        char *served = ts_slurp(log);
        cr_expect(served && strstr(served, "POST /doku.php"), "the wiki in %s served a task's form", dirs[i]);
        free(served);
    }
    /* the password reached the login form (tasks passed) but no file of the run */
    const char *found;
    cr_assert_eq(ts_secrets_in(secrets, out, &found), 1, "the wiki password in %s", secrets);
    cr_expect_null(found, "the wiki password is in %s", found);
    free(text);
}

Test(wiki_site, doing_nothing_or_answering_na_scores_zero_on_every_task)
{
    start_wiki();
    /* what `eous bench` scores for an empty plan and for stop("N/A"), on each task's start page in one
     * browser, the site reset before a require_reset task as the runner does: no task's loop run */
    ts_expect_untouched_scores_zero(SUITE_DIR, 20, "DokuWiki");
}

/* ---- the reset hook itself (no browser) ---- */

static void load_task(wa_task_list *l, const char *site, int require_reset)
{
    char json[512];
    snprintf(json, sizeof json,
             "{\"task_id\": 7, \"sites\": [\"%s\"], \"start_url\": \"http://127.0.0.1:9/\", \"intent\": \"x\", "
             "\"require_reset\": %s, \"eval\": {\"eval_types\": [\"string_match\"]}}",
             site, require_reset ? "true" : "false");
    eous_err err;
    cr_assert_eq(wa_tasks_load_text(json, strlen(json), "t.json", l, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(l->tasks[0].require_reset, require_reset, "require_reset parsed");
}

TestSuite(site_reset, .init = setup, .fini = teardown, .timeout = 60);

Test(site_reset, runs_the_command_only_for_require_reset_tasks)
{
    char marker[400], cmd[600];
    snprintf(marker, sizeof marker, "%s/reset-ran", tmpdir);
    snprintf(cmd, sizeof cmd, "touch %s", marker);
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", cmd, 1);
    setenv("TMPDIR", tmpdir, 1);
    wa_task_list keep, reset;
    load_task(&keep, "resettest", 0);
    load_task(&reset, "resettest", 1);
    eous_err err;
    wa_site_hold hold = WA_SITE_HOLD_INIT;
    cr_assert_eq(wa_site_enter(&hold, &keep.tasks[0], &err), EOUS_OK, "%s", err.msg);
    wa_site_leave(&hold);
    cr_expect_neq(access(marker, F_OK), 0, "no reset for a task without require_reset");
    cr_assert_eq(wa_site_enter(&hold, &reset.tasks[0], &err), EOUS_OK, "%s", err.msg);
    wa_site_leave(&hold);
    cr_expect_eq(access(marker, F_OK), 0, "the reset command ran");
    unsetenv("EOUS_SITE_RESETTEST_RESET");
    unlink(marker);
    cr_assert_eq(wa_site_enter(&hold, &reset.tasks[0], &err), EOUS_OK, "%s", err.msg);
    wa_site_leave(&hold);
    cr_expect_neq(access(marker, F_OK), 0, "no command configured, nothing run");
    wa_tasks_free(&keep);
    wa_tasks_free(&reset);
}

Test(site_reset, a_failing_or_slow_command_is_an_infra_error_on_one_line)
{
    setenv("TMPDIR", tmpdir, 1);
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9", 1);
    wa_task_list l;
    load_task(&l, "resettest", 1);
    eous_err err;
    wa_site_hold hold = WA_SITE_HOLD_INIT;
    setenv("EOUS_SITE_RESETTEST_RESET", "false", 1);
    cr_assert_eq(wa_site_enter(&hold, &l.tasks[0], &err), EOUS_E_INFRA);
    cr_expect(strstr(err.msg, "site resettest") && strstr(err.msg, "'false' failed (exit 1)"), "%s", err.msg);
    cr_expect_null(strchr(err.msg, '\n'), "one line: %s", err.msg);
    setenv("EOUS_SITE_RESETTEST_RESET", "/nonexistent/reset-tool now", 1);
    cr_assert_eq(wa_site_enter(&hold, &l.tasks[0], &err), EOUS_E_INFRA);
    cr_expect(strstr(err.msg, "/nonexistent/reset-tool"), "%s", err.msg);
    setenv("EOUS_SITE_RESETTEST_RESET", "sleep 30", 1);
    setenv("EOUS_SITE_RESET_TIMEOUT", "1", 1);
    cr_assert_eq(wa_site_enter(&hold, &l.tasks[0], &err), EOUS_E_INFRA);
    cr_expect(strstr(err.msg, "did not finish within 1 s"), "%s", err.msg);
    unsetenv("EOUS_SITE_RESET_TIMEOUT");
    unsetenv("EOUS_SITE_RESETTEST_RESET");
    wa_tasks_free(&l);
}

/* A reset that leaves a server running (a restart) holds none of eous's descriptors: one eous closes is
 * closed, not kept open for that server's life. */
Test(site_reset, a_reset_command_holds_none_of_the_callers_descriptors)
{
    char script[400], pidfile[400], cmd[900];
    snprintf(script, sizeof script, "%s/restart.sh", tmpdir);
    snprintf(pidfile, sizeof pidfile, "%s/server.pid", tmpdir);
    FILE *f = fopen(script, "w");
    cr_assert_not_null(f);
    fputs("#!/bin/sh\nsleep 30 </dev/null >/dev/null 2>&1 &\necho $! > \"$1\"\n", f);
    fclose(f);
    cr_assert_eq(chmod(script, 0755), 0);
    snprintf(cmd, sizeof cmd, "%s %s", script, pidfile);
    setenv("TMPDIR", tmpdir, 1);
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", cmd, 1);
    wa_task_list l;
    load_task(&l, "resettest", 1);
    int p[2];
    cr_assert_eq(pipe(p), 0); /* inheritable, as a socket accept() returned is */
    eous_err err;
    wa_site_hold hold = WA_SITE_HOLD_INIT;
    cr_assert_eq(wa_site_enter(&hold, &l.tasks[0], &err), EOUS_OK, "%s", err.msg);
    wa_site_leave(&hold);
    int closed = ts_pipe_closed_everywhere(p, 0); /* the reset has ended: what it left running is its server */
    int server = ts_file_int(pidfile);
    if (server > 0)
        kill(server, SIGKILL);
    unsetenv("EOUS_SITE_RESETTEST_RESET");
    wa_tasks_free(&l);
    cr_expect_gt(server, 0, "the reset left its server running");
    cr_expect(closed, "the pipe's end closed here is still open in the server the reset left");
}

Test(site_reset, a_reset_waits_only_for_tasks_on_its_own_resettable_site)
{
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9", 1);
    setenv("EOUS_SITE_OTHERSITE", "http://127.0.0.1:10", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", "true", 1);
    wa_task_list keep, reset, other;
    load_task(&keep, "resettest", 0);
    load_task(&reset, "resettest", 1);
    load_task(&other, "othersite", 0);
    const wa_task *k = &keep.tasks[0], *r = &reset.tasks[0], *o = &other.tasks[0];
    /* the bench runs something else while one of these would wait (bench/bench.c) */
    cr_expect(wa_site_reset_waits_for(r, 0, k, 1), "a reset waits for a task reading its site");
    cr_expect(wa_site_reset_waits_for(r, 0, r, 1), "a reset waits for another reset of its site");
    cr_expect_not(wa_site_reset_waits_for(k, 0, r, 1), "a task that resets nothing takes the site shared");
    cr_expect_not(wa_site_reset_waits_for(r, 0, o, 1), "another site is no reason to wait");
    cr_expect_not(wa_site_reset_waits_for(r, 0, NULL, 1), "an idle worker is no reason to wait");
    /* two copies of the site: instances 0 and 2 share the first, 1 has the second */
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9 http://127.0.0.1:11", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", "true;true", 1);
    cr_expect_not(wa_site_reset_waits_for(r, 0, k, 1), "a reset waits for no task on another copy");
    cr_expect(wa_site_reset_waits_for(r, 0, k, 2), "a reset waits for a task on its own copy");
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", "true", 1);
    unsetenv("EOUS_SITE_RESETTEST_RESET");
    cr_expect_not(wa_site_reset_waits_for(r, 0, k, 1), "a site with no reset command takes no lock");
    wa_tasks_free(&keep);
    wa_tasks_free(&reset);
    wa_tasks_free(&other);
}

/* ---- a site's copies (webarena/site_pool.h) ---- */

Test(site_reset, a_pool_gives_each_instance_its_copy_url_and_reset_command)
{
    char done1[400], done2[400], cmds[1000];
    snprintf(done1, sizeof done1, "%s/reset-one", tmpdir);
    snprintf(done2, sizeof done2, "%s/reset-two", tmpdir);
    snprintf(cmds, sizeof cmds, " touch %s ;touch %s", done1, done2);
    setenv("TMPDIR", tmpdir, 1);
    setenv("EOUS_SITE_RESETTEST", " http://127.0.0.1:9/\thttp://127.0.0.1:11 ", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", cmds, 1);
    eous_err err;
    cr_assert_eq(wa_site_pools_check(&err), EOUS_OK, "%s", err.msg);
    cr_expect_eq(wa_site_pool_size("resettest"), 2);
    char url[64];
    cr_assert(wa_site_url("resettest", 3, url, sizeof url));
    cr_expect_str_eq(url, "http://127.0.0.1:11", "instance 3 of 2 copies is the second");
    char *r = NULL;
    cr_assert_eq(wa_resolve_placeholders_at("__RESETTEST__/doku.php", 1, &r, &err), EOUS_OK, "%s", err.msg);
    cr_expect_str_eq(r, "http://127.0.0.1:11/doku.php");
    free(r);
    cr_assert_eq(wa_resolve_placeholders("__RESETTEST__/doku.php", &r, &err), EOUS_OK, "%s", err.msg);
    cr_expect_str_eq(r, "http://127.0.0.1:9/doku.php", "without an instance, the first copy");
    free(r);

    const char json[] = "{\"task_id\": 8, \"sites\": [\"resettest\"], \"start_url\": \"__RESETTEST__/start\", "
                        "\"intent\": \"x\", \"require_reset\": true, \"eval\": {\"eval_types\": [\"url_match\"], "
                        "\"reference_url\": \"__RESETTEST__/done\"}}";
    wa_task_list l, copy;
    cr_assert_eq(wa_tasks_load_text(json, strlen(json), "t.json", &l, &err), EOUS_OK, "%s", err.msg);
    cr_expect(wa_task_uses_pool(&l.tasks[0]));
    cr_expect_str_eq(l.tasks[0].start_url, "http://127.0.0.1:9/start");
    cr_assert_eq(wa_task_at_instance(&l.tasks[0], 1, &copy, &err), EOUS_OK, "%s", err.msg);
    const wa_task *t = &copy.tasks[0];
    cr_expect_eq(t->instance, 1);
    cr_expect_str_eq(t->start_url, "http://127.0.0.1:11/start");
    cr_expect_str_eq(eous_json_str(t->eval, "reference_url"), "http://127.0.0.1:11/done", "the evaluator's URLs too");
    cr_expect_str_eq(l.tasks[0].start_url, "http://127.0.0.1:9/start", "the loaded task is left as it was");
    wa_site_hold hold = WA_SITE_HOLD_INIT;
    cr_assert_eq(wa_site_enter(&hold, t, &err), EOUS_OK, "%s", err.msg);
    /* the first copy stays free while a task holds the second */
    wa_site_hold other = WA_SITE_HOLD_INIT;
    cr_assert_eq(wa_site_enter(&other, &l.tasks[0], &err), EOUS_OK, "%s", err.msg);
    wa_site_leave(&other);
    wa_site_leave(&hold);
    cr_expect_eq(access(done2, F_OK), 0, "instance 1 ran the second command");
    cr_expect_eq(access(done1, F_OK), 0, "instance 0 ran the first command");
    wa_tasks_free(&copy);
    wa_tasks_free(&l);

    setenv("EOUS_SITE_RESETTEST_RESET", "true", 1);
    cr_assert_eq(wa_site_pools_check(&err), EOUS_E_INVALID, "one command for two copies resets one of them");
    cr_expect(strstr(err.msg, "EOUS_SITE_RESETTEST_RESET: expected 2 reset commands separated by ';'") &&
                  strstr(err.msg, "got 1"), "%s", err.msg);
    cr_expect_null(strchr(err.msg, '\n'), "one line: %s", err.msg);
    setenv("EOUS_SITE_RESETTEST", "http://127.0.0.1:9", 1);
    setenv("EOUS_SITE_RESETTEST_RESET", "true;true", 1);
    cr_assert_eq(wa_site_pools_check(&err), EOUS_E_INVALID, "two commands for one copy");
    cr_expect(strstr(err.msg, "expected 1 reset command separated"), "%s", err.msg);
    unsetenv("EOUS_SITE_RESETTEST_RESET");
}

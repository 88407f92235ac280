/* tests/harness/test_bench_site.c — the Playground suite through the real runner:
 * every task scores 0 when nothing is done (no answer, or stop("N/A") on a
 * task that can be done), a slice covering every screen and
 * tier passes in hybrid and atomic modes (each task in a fresh tab, the
 * default, so the atomic view's ids, and what WebArena's rule drops, are the
 * same every run), and a slice through Selenium Grid
 * survives a killed browser with nothing lost or duplicated. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/task_job.h"
#include "webarena/eval.h"
#include "agent/run.h"
#include "runs/rundir.h"
#include "webarena/task.h"
#include "support/browser.h"
#include "support/page_js.h"
#include "support/workdir.h"
#include "support/grounds.h"
#include "support/site.h"

static char tmpdir[256];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "bsite", NULL, NULL, 0);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(bench_site, .init = setup, .fini = teardown, .timeout = 1800);

/* The Playground's task set, loaded (ts_suite_load); the number of tasks. */
static int load_suite(wa_task_list *l)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/playground", TS_TASKS);
    cr_assert_eq(ts_suite_load(dir, l), 0, "the Playground's task set loads (stderr says why not)");
    return (int)l->n;
}

/* The first task of every (screen, tier) pair, written into dir as links. */
static int make_slice(const wa_task_list *l, const char *dir, int max)
{
    char seen[64][48];
    int ns = 0, picked = 0;
    for (size_t i = 0; i < l->n && picked < max; i++) {
        char key[48];
        snprintf(key, sizeof key, "%s/%s", l->tasks[i].screen ? l->tasks[i].screen : "?",
                 l->tasks[i].tier ? l->tasks[i].tier : "?");
        int dup = 0;
        for (int k = 0; k < ns; k++)
            dup |= !strcmp(seen[k], key);
        if (dup || ns == 64)
            continue;
        snprintf(seen[ns++], sizeof seen[0], "%s", key);
        char link[512];
        snprintf(link, sizeof link, "%s/%s.json", dir, l->tasks[i].id);
        cr_assert_eq(symlink(l->tasks[i].file, link), 0);
        picked++;
    }
    return picked;
}

static int run_cli(const char *const *args, const char *out_file)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        const char *argv[32];
        int n = 0;
        argv[n++] = getenv("EOUS_CLI");
        for (; args[n - 1] && n < 31; n++)
            argv[n] = args[n - 1];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int count_status(const char *results, const char *status)
{
    char *text = NULL;
    if (eous_read_file(results, 0, &text, NULL, NULL))
        return -1;
    char needle[64];
    snprintf(needle, sizeof needle, "\"status\":\"%s\"", status);
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    free(text);
    return n;
}

static int count_lines(const char *path)
{
    char *text = NULL;
    if (eous_read_file(path, 0, &text, NULL, NULL))
        return -1;
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    free(text);
    return n;
}

/* Runs task t's program_html locators (on its start page) on the untouched
 * page; *ran += those that selected a value, *total += all.  A score of 0
 * must come from the value a locator selects, not from a locator that throws
 * (which scores 0 whatever the agent did); one whose element appears only
 * after the task's action (a result panel) is logged. */
static void run_locators(wd_session *s, const wa_task *t, int *ran, int *total)
{
    const cJSON *pt;
    cJSON_ArrayForEach(pt, eous_json_arr(t->eval, "program_html")) {
        const char *url = eous_json_str(pt, "url"), *loc = eous_json_str(pt, "locator");
        if (!loc || !*loc || (url && strcmp(url, "last")))
            continue;
        char script[2048];
        snprintf(script, sizeof script, "try { return (() => %s)() !== undefined; } catch (e) { return 'threw: ' + e; }",
                 loc);
        char *v = ts_page_js(s, script);
        (*total)++;
        if (!strcmp(v, "true"))
            (*ran)++;
        else
            cr_log_info("task %s: locator %s on the untouched page: %s", t->id, loc, v);
        free(v);
    }
}

Test(bench_site, doing_nothing_scores_zero_on_every_task)
{
    const char *site = ts_site_root();
    cr_assert(site, "the Playground is built (scripts/build-site)");
    ts_browser b;
    cr_assert_eq(ts_browser_start(&b, site), 0);
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(b.server), 1);
    wa_task_list l;
    int n = load_suite(&l);
    cr_assert_geq(n, 100, "at least 100 tasks");
    int zero = 0, na_right = 0, n_unachievable = 0, locators = 0, n_locators = 0;
    for (size_t i = 0; i < l.n; i++) {
        eous_err err;
        agent_job job;
        bench_task_job(&l.tasks[i], &job);
        cr_assert_eq(agent_prepare_page(b.session, &job, &err), EOUS_OK, "%s", err.msg);
        ts_page_wait(b.session, "document.querySelector('[data-cid]')"); /* the app has rendered its screen */
        run_locators(b.session, &l.tasks[i], &locators, &n_locators);
        wa_eval_result ev;
        cr_assert_eq(wa_evaluate(l.tasks[i].eval, l.tasks[i].intent, NULL, b.session, NULL, NULL, &ev, &err), EOUS_OK,
                     "task %s: %s", l.tasks[i].id, err.msg);
        cr_expect_eq(ev.score, 0.0, "task %s passes by doing nothing", l.tasks[i].id);
        zero += ev.score == 0.0;
        /* stop("N/A") without acting: only the unachievable tasks may accept it */
        const char *kind = eous_json_str(l.tasks[i].raw, "kind");
        int unachievable = kind && !strcmp(kind, "unachievable");
        cr_assert_eq(wa_evaluate(l.tasks[i].eval, l.tasks[i].intent, "N/A", b.session, NULL, NULL, &ev, &err), EOUS_OK,
                     "task %s: %s", l.tasks[i].id, err.msg);
        cr_expect_eq(ev.score, unachievable ? 1.0 : 0.0, "task %s scores %g for stop(N/A) without acting",
                     l.tasks[i].id, ev.score);
        na_right += ev.score == (unachievable ? 1.0 : 0.0);
        n_unachievable += unachievable;
    }
    cr_assert_eq(zero, (int)l.n);
    cr_assert_eq(na_right, (int)l.n);
    cr_assert_gt(n_locators, 40, "the suite checks pages through program_html locators");
    cr_assert_geq(locators * 10, n_locators * 9, "%d of %d locators selected a value on the untouched pages",
                  locators, n_locators);
    cr_assert_geq(n_unachievable, 4, "the suite keeps its unachievable tasks");
    wa_tasks_free(&l);
    ts_browser_stop(&b);
}

Test(bench_site, slice_of_every_screen_and_tier_passes_in_hybrid_and_atomic)
{
    const char *site = ts_site_root();
    cr_assert(site, "the Playground is built (scripts/build-site)");
    ts_server *srv = ts_server_start(site);
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(srv), 1);
    wa_task_list l;
    load_suite(&l);
    char slice[300], out[300], log[300], results[400];
    snprintf(slice, sizeof slice, "%s/slice", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(log, sizeof log, "%s/log", tmpdir);
    mkdir(slice, 0755);
    int n = make_slice(&l, slice, 15);
    cr_assert_geq(n, 15, "5 screens x 3 tiers");
    /* at the defaults: each task starts in a fresh tab (agent_fresh_tab), so backend node ids depend on
     * the task's own page alone, and with them WebArena's repeated-text rule, which drops task 81's
     * "StaticText '180'" slider mark when an id before it contains 180 (test_perc_views shows it) */
    int rc = run_cli((const char *[]){"bench", slice, "--modes", "hybrid,atomic", "--workers", "2", "--out", out,
                                      NULL},
                     log);
    char *text = NULL;
    eous_read_file(log, 0, &text, NULL, NULL);
    cr_assert_eq(rc, 0, "bench log:\n%s", text ? text : "");
    free(text);
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    cr_assert_eq(count_lines(results), 2 * n);
    cr_assert_eq(count_status(results, "passed"), 2 * n);
    wa_tasks_free(&l);
    ts_server_stop(srv);
}

/* Browser processes under the grid's java process (children of its chromedrivers). */
static int kill_grid_browsers(pid_t grid)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ps -eo pid=,ppid=,comm=");
    FILE *p = popen(cmd, "r");
    int pids[4096], ppids[4096], n = 0;
    char comm[64];
    while (p && n < 4096 && fscanf(p, "%d %d %63s", &pids[n], &ppids[n], comm) == 3)
        n++;
    if (p)
        pclose(p);
    /* descendants of the grid: drivers are its children, browsers theirs */
    int killed = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (ppids[i] == pids[j] && ppids[j] == grid) {
                kill(pids[i], SIGKILL);
                killed++;
            }
        }
    }
    return killed;
}

Test(bench_site, grid_slice_survives_a_killed_browser)
{
    const char *site = ts_site_root();
    cr_assert(site, "the Playground is built (scripts/build-site)");
    ts_server *srv = ts_server_start(site);
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(srv), 1);
    char griddir[300], cmd[900], url[256] = "";
    snprintf(griddir, sizeof griddir, "%s/grid", tmpdir);
    snprintf(cmd, sizeof cmd, "bash %s/scripts/grid start --sessions 2 --dir %s", EOUS_SOURCE_DIR, griddir);
    FILE *g = popen(cmd, "r");
    cr_assert(g && fgets(url, sizeof url, g), "grid started");
    pclose(g);
    url[strcspn(url, "\n")] = '\0';
    cr_assert(!strncmp(url, "http://127.0.0.1:", 17), "grid URL: %s", url);
    char pidfile[400];
    snprintf(pidfile, sizeof pidfile, "%s/grid.pid", griddir);
    char *pidtext = NULL;
    eous_read_file(pidfile, 0, &pidtext, NULL, NULL);
    pid_t grid = pidtext ? atoi(pidtext) : 0;
    free(pidtext);

    wa_task_list l;
    load_suite(&l);
    char slice[300], out[300], log[300], results[400];
    snprintf(slice, sizeof slice, "%s/slice", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(log, sizeof log, "%s/log", tmpdir);
    mkdir(slice, 0755);
    int n = make_slice(&l, slice, 6);
    pid_t bench = fork();
    if (bench == 0) {
        _exit(run_cli((const char *[]){"bench", slice, "--modes", "hybrid", "--workers", "2", "--webdriver", url,
                                       "--out", out, NULL},
                      log));
    }
    /* once the first results are in, kill the grid's browsers mid-run */
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    int status = 0, ended = 0;
    while (count_lines(results) < 1 && !(ended = waitpid(bench, &status, WNOHANG) == bench))
        eous_sleep_ms(200); /* the suite's timeout bounds a bench that never gets going */
    int got_going = count_lines(results) >= 1;
    int killed = kill_grid_browsers(grid);
    if (!ended)
        waitpid(bench, &status, 0);
    snprintf(cmd, sizeof cmd, "bash %s/scripts/grid stop %s", EOUS_SOURCE_DIR, griddir);
    cr_assert_eq(system(cmd), 0);
    char *text = NULL;
    eous_read_file(log, 0, &text, NULL, NULL);
    cr_assert(got_going, "the bench wrote a first result; log:\n%s", text ? text : "");
    cr_assert_gt(killed, 0, "browsers found under the grid; log:\n%s", text ? text : "");
    /* every attempt has its line: each task × mode once by its last attempt,
     * attempt numbers unique, and a killed task retried on a fresh session */
    runs_dir rd;
    eous_err err;
    cr_assert_eq(runs_dir_load(out, 1, &rd, &err), EOUS_OK, "%s", err.msg);
    int last = 0, last_passed = 0, retried_then_passed = 0;
    const cJSON *r, *q;
    cJSON_ArrayForEach(r, rd.rows) {
        for (q = r->next; q; q = q->next)
            cr_assert(strcmp(eous_json_str(q, "task_id"), eous_json_str(r, "task_id")) ||
                          eous_json_int(q, "attempt", 0) != eous_json_int(r, "attempt", 0),
                      "task %s attempt %d recorded twice", eous_json_str(r, "task_id"), eous_json_int(r, "attempt", 0));
        if (!runs_dir_is_last(r))
            continue;
        last++;
        int ok = !strcmp(eous_json_str(r, "status"), "passed");
        last_passed += ok;
        retried_then_passed += ok && eous_json_int(r, "attempt", 0) > 1;
    }
    cr_assert_eq(last, n, "each task once by its last attempt, none lost; log:\n%s", text ? text : "");
    cr_assert_geq(last_passed, n - 1, "%s", text ? text : "");
    cr_assert_gt(retried_then_passed, 0, "a killed task was retried on a fresh session and passed:\n%s",
                 text ? text : "");
    runs_dir_free(&rd);
    free(text);
    wa_tasks_free(&l);
    ts_server_stop(srv);
}

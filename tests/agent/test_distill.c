/* tests/agent/test_distill.c — `eous distill`: the stand-in model's passed runs
 * (`--planner llm` through benchmarks/standin, on real Chromium over the
 * Playground) become plain jobs whose steps name what the view printed, and
 * those jobs pass with `--planner script`, no model, in the mode they were
 * recorded in.  A typed value the intent holds is a parameter: changed with
 * --param, the task's own evaluator sees the new value.  A hybrid recording's
 * widget calls (a sort, a tab, a field cleared) replay in atomic mode as the
 * steps a person takes.  A failed run and a run without traces are bad input. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/service.h"
#include "support/testsrv.h"
#include "support/workdir.h"
#include "support/grounds.h"
#include "support/job_check.h"
#include "support/site.h"

static char tmpdir[256], out_path[300], err_path[300];
static ts_server *site;
static pid_t standin = -1, wiki_standin = -1;
static char wikidir[300], secrets[300]; /* a test's own wiki (scripts/wiki), stopped by teardown */
static char standin_url[64];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "distill", NULL, NULL, 0);
    snprintf(out_path, sizeof out_path, "%s/out.txt", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/err.txt", tmpdir);
    site = ts_server_start(TS_PLAYGROUND_DIST);
    cr_assert_not_null(site, "the Playground is built (scripts/build-site)");
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(site), 1);
    cr_assert_eq(ts_standin_start(NULL, &standin, standin_url, sizeof standin_url), 0, "the stand-in starts");
}

static void wiki_stop(void);

static void teardown(void)
{
    ts_service_stop(standin);
    standin = -1;
    wiki_stop();
    if (site)
        ts_server_stop(site);
    site = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(distill, .init = setup, .fini = teardown, .timeout = 900);

/* Playground tasks linked into dir/tasks: a booking (parameters), a table filtered
 * three times (one button name three times in the atomic view), a user edited in a
 * modal, settings saved. */
static const char *const TASKS[] = {"000", "030", "040", "070"};
static const char *const IDS[] = {"0", "30", "40", "70"};
static const char *const MODES[] = {"hybrid", "atomic"};

static void link_tasks(const char *dir, const char *const *names, size_t n)
{
    cr_assert_eq(mkdir(dir, 0755), 0);
    for (size_t i = 0; i < n; i++) {
        char src[512], dst[512];
        snprintf(src, sizeof src, "%s/playground/%s.json", TS_TASKS, names[i]);
        snprintf(dst, sizeof dst, "%s/%s.json", dir, names[i]);
        cr_assert_eq(symlink(src, dst), 0);
    }
}

/* `eous bench TASKS --planner llm` through the stand-in into out, with the default batches (what a user
 * records: several actions a reply, each with the view it was taken on); its exit code. */
static int model_run(const char *tasks, const char *modes, const char *out, const char *max_steps)
{
    const char *args[] = {"bench", tasks, "--modes", modes, "--planner", "llm", "--llm", "openai:standin",
                          "--llm-base-url", standin_url, "--workers", "2", "--out", out,
                          "--max-steps", max_steps, NULL};
    return ts_cli_run(args, out_path, err_path, 600);
}

static int distil(const char *run, const char *task, const char *mode, const char *file)
{
    const char *args[] = {"distill", run, "--task", task, "--mode", mode, "-o", file, NULL};
    return ts_cli_run(args, out_path, err_path, 60);
}

static void expect_no_view_ids(const cJSON *job, const char *file)
{
    const char *id = ts_job_view_id(job, "steps");
    cr_expect(!id, "%s: a step targets the view id %s", file, id);
}

Test(distill, stand_in_runs_replay_with_the_script_planner_in_their_mode)
{
    char tasks[300], run[300];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    link_tasks(tasks, TASKS, 4);
    cr_assert_eq(model_run(tasks, "hybrid,atomic", run, "30"), 0, "the stand-in passes the 4 tasks in both modes");
    /* each task x mode distilled, hybrid jobs in one folder and atomic in another */
    for (size_t m = 0; m < 2; m++) {
        char dir[300];
        snprintf(dir, sizeof dir, "%s/jobs-%s", tmpdir, MODES[m]);
        cr_assert_eq(mkdir(dir, 0755), 0);
        for (size_t i = 0; i < 4; i++) {
            char file[400];
            snprintf(file, sizeof file, "%s/%s.json", dir, IDS[i]);
            int rc = distil(run, IDS[i], MODES[m], file);
            char *err = ts_slurp(err_path);
            cr_assert_eq(rc, 0, "task %s %s distils: %s", IDS[i], MODES[m], err);
            free(err);
            cJSON *job = eous_json_parse_file(file, 1 << 20, NULL);
            cr_assert_not_null(job, "%s is JSON", file);
            expect_no_view_ids(job, file);
            cJSON_Delete(job);
        }
    }
    /* what the view printed, with the parameters the intent holds and the #N a repeated name needs */
    char path[400];
    snprintf(path, sizeof path, "%s/jobs-hybrid/0.json", tmpdir);
    char *booking = ts_slurp(path);
    cr_expect(strstr(booking, "\"call\":\t\"datepicker 'Check-in'\""), "a component by kind and label: %s", booking);
    cr_expect(strstr(booking, "\"text\":\t\"{{param:GUEST_NAME}}\""), "the typed name is a parameter: %s", booking);
    cr_expect(strstr(booking, "\"default\":\t\"Ada Lovelace\""), "with the run's value as default: %s", booking);
    free(booking);
    snprintf(path, sizeof path, "%s/jobs-atomic/30.json", tmpdir);
    char *filters = ts_slurp(path);
    cr_expect(strstr(filters, "\"click\":\t\"button 'filter' #2\""), "the second of three 'filter' buttons: %s",
              filters);
    free(filters);
    /* replayed without a model, each in the mode it was recorded in */
    for (size_t m = 0; m < 2; m++) {
        char dir[300], out[300];
        snprintf(dir, sizeof dir, "%s/jobs-%s", tmpdir, MODES[m]);
        snprintf(out, sizeof out, "%s/replay-%s", tmpdir, MODES[m]);
        const char *args[] = {"bench", dir, "--modes", MODES[m], "--planner", "script", "--workers", "2",
                              "--out", out, NULL};
        int rc = ts_cli_run(args, out_path, err_path, 600);
        snprintf(path, sizeof path, "%s/results.jsonl", out);
        char *results = ts_slurp(path);
        int passed = 0;
        for (const char *p = strstr(results, "\"status\":\"passed\""); p; p = strstr(p + 1, "\"status\":\"passed\""))
            passed++;
        cr_expect_eq(rc, 0, "%s replay: every distilled job passes: %s", MODES[m], results);
        cr_expect_eq(passed, 4, "%s replay: 4 of 4 passed: %s", MODES[m], results);
        cr_expect(strstr(results, "\"planner\":\"script\""), "no model: %s", results);
        free(results);
    }
}

/* Task 0's config with the distilled hybrid steps as its script and their parameters, its
 * evaluator expecting guest and dates; written to file. */
static void booking_config(const char *job_file, const char *guest, const char *in, const char *out_date,
                           const char *file)
{
    cJSON *cfg = eous_json_parse_file(TS_TASKS "/playground/000.json", 1 << 20, NULL);
    cJSON *job = eous_json_parse_file(job_file, 1 << 20, NULL);
    cr_assert(cfg && job);
    cJSON_ReplaceItemInObjectCaseSensitive(cfg, "script",
                                           cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(job, "steps"), 1));
    cJSON_DeleteItemFromObjectCaseSensitive(cfg, "atomic_script");
    cJSON_AddItemToObject(cfg, "params", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(job, "params"), 1));
    cJSON *prog = cJSON_GetArrayItem(eous_json_arr(eous_json_obj(cfg, "eval"), "program_html"), 0);
    cJSON *req = cJSON_GetObjectItemCaseSensitive(prog, "required_contents");
    char want[256];
    snprintf(want, sizeof want, "%s|France/Paris|%s|%s|2|deluxe||false", guest, in, out_date);
    cJSON_ReplaceItemInObjectCaseSensitive(req, "exact_match", cJSON_CreateString(want));
    char *text = cJSON_Print(cfg);
    FILE *f = fopen(file, "w");
    cr_assert(f && text);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(cfg);
    cJSON_Delete(job);
}

Test(distill, a_changed_parameter_is_what_the_evaluator_finds)
{
    char tasks[300], run[300], job[300], cfg[300], out[300];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    snprintf(job, sizeof job, "%s/booking.json", tmpdir);
    snprintf(cfg, sizeof cfg, "%s/cfg.json", tmpdir);
    link_tasks(tasks, TASKS, 1);
    cr_assert_eq(model_run(tasks, "hybrid", run, "30"), 0, "the stand-in books");
    cr_assert_eq(distil(run, "0", "hybrid", job), 0);
    /* the evaluator expects Grace Hopper from 2025-09-10 to 2025-09-12: the run's values fail it ... */
    booking_config(job, "Grace Hopper", "2025-09-10", "2025-09-12", cfg);
    snprintf(out, sizeof out, "%s/defaults", tmpdir);
    const char *plain[] = {"run", cfg, "--mode", "hybrid", "--planner", "script", "--out", out, NULL};
    cr_expect_eq(ts_cli_run(plain, out_path, err_path, 300), 1, "the run's own values are not Grace Hopper's");
    /* ... and the parameters given with --param pass it */
    snprintf(out, sizeof out, "%s/changed", tmpdir);
    const char *given[] = {"run", cfg, "--mode", "hybrid", "--planner", "script", "--out", out,
                           "--param", "GUEST_NAME=Grace Hopper", "--param", "CHECK_IN=2025-09-10",
                           "--param", "CHECK_OUT=2025-09-12", NULL};
    int rc = ts_cli_run(given, out_path, err_path, 300);
    char *so = ts_slurp(out_path);
    cr_expect_eq(rc, 0, "the evaluator finds the booking the parameters made: %s", so);
    free(so);
    int lines = 0;
    cJSON *r = ts_result_line(out, &lines);
    cr_expect_eq(eous_json_num(r, "score", -1), 1);
    cr_expect_str_eq(eous_json_str(eous_json_obj(r, "params"), "GUEST_NAME"), "Grace Hopper");
    cJSON_Delete(r);
}

Test(distill, a_failed_run_or_one_without_traces_is_bad_input)
{
    char tasks[300], run[300], bare[300], job[300], cmd[900];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    snprintf(bare, sizeof bare, "%s/bare", tmpdir);
    snprintf(job, sizeof job, "%s/job.json", tmpdir);
    link_tasks(tasks, TASKS, 1);
    /* two steps are not enough to book: a real failed run, with its trace */
    cr_assert_eq(model_run(tasks, "hybrid", run, "2"), 1, "the booking fails in 2 steps");
    int rc = distil(run, "0", "hybrid", job);
    char *err = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "a failed run is bad input: %s", err);
    cr_expect(strstr(err, "did not pass") && ts_count_lines(err) == 1, "one line saying why: %s", err);
    cr_expect_neq(access(job, F_OK), 0, "nothing written");
    free(err);
    /* the same results without trace/: nothing to name the steps by */
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && sed 's/\"status\":\"failed\"/\"status\":\"passed\"/' '%s/results.jsonl' > '%s/results.jsonl'",
             bare, run, bare);
    cr_assert_eq(system(cmd), 0);
    rc = distil(bare, "0", "hybrid", job);
    err = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "a run without traces is bad input: %s", err);
    cr_expect(strstr(err, "without traces") && ts_count_lines(err) == 1, "one line saying why: %s", err);
    cr_expect_neq(access(job, F_OK), 0, "nothing written");
    free(err);
}

/* ---- DokuWiki: the hybrid view's "role [id] 'name'", a form, a line typed below a page's last --------- */

/* A private wiki (scripts/wiki) with EOUS_SITE_DOKUWIKI and its reset set, and a stand-in that knows
 * the wiki's tasks into *pid and url. */
static void wiki_start(pid_t *pid, char *url, size_t n)
{
    snprintf(wikidir, sizeof wikidir, "%s/wiki", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/wiki-secrets.env", tmpdir);
    cr_assert_eq(ts_site_start(EOUS_SOURCE_DIR "/scripts/wiki", "DOKUWIKI", wikidir, secrets), 0,
                 "scripts/wiki started (its stderr says why not)");
    const char *argv[] = {"node", TS_STANDIN, "--tasks",
                          TS_TASKS "/dokuwiki", NULL};
    int port = 0;
    cr_assert_eq(ts_service_start(argv, pid, &port), 0, "the stand-in starts with the wiki's tasks");
    snprintf(url, n, "http://127.0.0.1:%d", port);
}

static void wiki_stop(void)
{
    if (wiki_standin > 0)
        ts_service_stop(wiki_standin);
    wiki_standin = -1;
    if (!wikidir[0])
        return;
    ts_site_stop(EOUS_SOURCE_DIR "/scripts/wiki", wikidir);
    wikidir[0] = '\0';
}

/* The task's config (tasks/<suite>/<name>.json) with the distilled job's steps as its plan: script the
 * steps, atomic_script its atomic_steps (else the steps), its params and intent; written to file. */
static void scored_config(const char *suite, const char *name, const char *job_file, const char *file)
{
    char src[512];
    snprintf(src, sizeof src, "%s/%s/%s.json", TS_TASKS, suite, name);
    cJSON *cfg = eous_json_parse_file(src, 1 << 20, NULL), *job = eous_json_parse_file(job_file, 1 << 20, NULL);
    cr_assert(cfg && job, "%s and %s are JSON", src, job_file);
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(job, "steps");
    const cJSON *atomic = cJSON_GetObjectItemCaseSensitive(job, "atomic_steps");
    cJSON_ReplaceItemInObjectCaseSensitive(cfg, "script", cJSON_Duplicate(steps, 1));
    cJSON_ReplaceItemInObjectCaseSensitive(cfg, "atomic_script", cJSON_Duplicate(atomic ? atomic : steps, 1));
    if (cJSON_GetObjectItemCaseSensitive(job, "params"))
        cJSON_AddItemToObject(cfg, "params", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(job, "params"), 1));
    if (eous_json_str(job, "intent")) /* the task's, with what the model counted said (a check-out date) */
        cJSON_ReplaceItemInObjectCaseSensitive(cfg, "intent", cJSON_CreateString(eous_json_str(job, "intent")));
    char *text = cJSON_Print(cfg);
    FILE *f = fopen(file, "w");
    cr_assert(f && text);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(cfg);
    cJSON_Delete(job);
}

/* `eous bench dir --modes modes --planner script` (strict grounding, the tasks' evaluators); passes. */
static int replay_passes(const char *dir, const char *modes, const char *out, char **results)
{
    const char *args[] = {"bench", dir, "--modes", modes, "--planner", "script", "--workers", "2", "--out", out,
                          secrets[0] ? "--secrets" : NULL, secrets, NULL}; /* the wiki's, once it started */
    ts_cli_run(args, out_path, err_path, 900);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", out);
    *results = ts_slurp(path);
    int passed = 0;
    for (const char *p = strstr(*results, "\"status\":\"passed\""); p; p = strstr(p + 1, "\"status\":\"passed\""))
        passed++;
    return passed;
}

/* Wiki tasks: a link the page lists (3), a search (7: its field is named by its access key, "[F]"),
 * logging in and adding a line at a page's end (14). */
static const char *const WIKI_TASKS[] = {"003", "007", "014"};
static const char *const WIKI_IDS[] = {"3", "7", "14"};

Test(distill, dokuwiki_runs_replay_in_their_mode_and_hybrid_ones_in_atomic)
{
    char url[64], tasks[300], run[300];
    wiki_start(&wiki_standin, url, sizeof url);
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    cr_assert_eq(mkdir(tasks, 0755), 0);
    for (size_t i = 0; i < 3; i++) {
        char src[512], dst[512];
        snprintf(src, sizeof src, "%s/dokuwiki/%s.json", TS_TASKS, WIKI_TASKS[i]);
        snprintf(dst, sizeof dst, "%s/%s.json", tasks, WIKI_TASKS[i]);
        cr_assert_eq(symlink(src, dst), 0);
    }
    /* one worker: `php -S` serves one request at a time, and two runs on it time out on a loaded machine */
    const char *args[] = {"bench", tasks, "--modes", "hybrid,atomic", "--planner", "llm", "--llm", "openai:standin",
                          "--llm-base-url", url, "--workers", "1", "--secrets", secrets,
                          "--out", run, NULL};
    int brc = ts_cli_run(args, out_path, err_path, 900);
    if (brc) {
        char path[400];
        snprintf(path, sizeof path, "%s/results.jsonl", run);
        char *results = ts_slurp(path), *err = ts_slurp(err_path);
        cr_assert_fail("the stand-in passes the wiki tasks in both modes: exit %d\n%s\n%s", brc, results, err);
    }
    for (size_t m = 0; m < 2; m++) {
        char dir[300];
        snprintf(dir, sizeof dir, "%s/scored-%s", tmpdir, MODES[m]);
        cr_assert_eq(mkdir(dir, 0755), 0);
        for (size_t i = 0; i < 3; i++) {
            char job[400], cfg[400];
            snprintf(job, sizeof job, "%s/%s-%s.json", tmpdir, WIKI_IDS[i], MODES[m]);
            snprintf(cfg, sizeof cfg, "%s/%s.json", dir, WIKI_TASKS[i]);
            int rc = distil(run, WIKI_IDS[i], MODES[m], job);
            char *err = ts_slurp(err_path);
            cr_assert_eq(rc, 0, "wiki task %s %s distils: %s", WIKI_IDS[i], MODES[m], err);
            free(err);
            scored_config("dokuwiki", WIKI_TASKS[i], job, cfg);
        }
    }
    char path[400];
    snprintf(path, sizeof path, "%s/3-hybrid.json", tmpdir);
    char *link = ts_slurp(path);
    cr_expect(strstr(link, "\"click\":\t\"link 'Aurora'\""), "the hybrid view's link [6] 'Aurora': %s", link);
    free(link);
    snprintf(path, sizeof path, "%s/14-hybrid.json", tmpdir);
    char *form = ts_slurp(path);
    cr_expect(strstr(form, "\"call\":\t\"form 'Log In'\""), "the login form called: %s", form);
    cr_expect(strstr(form, "\"atomic_steps\"") && strstr(form, "\"type\":\t\"Username\"") &&
                  strstr(form, "\"click\":\t\"button 'Log In'\""),
              "atomic mode types the form's fields and clicks its button: %s", form);
    free(form);
    snprintf(path, sizeof path, "%s/7-hybrid.json", tmpdir);
    char *search = ts_slurp(path);
    cr_expect(strstr(search, "\"type\":\t\"textbox '[F]'\""), "the field named [F], not the view id [F]: %s", search);
    free(search);
    snprintf(path, sizeof path, "%s/14-atomic.json", tmpdir);
    char *line = ts_slurp(path);
    cr_expect(strstr(line, "\"text\":\t\"\\nLens cover replaced on 2025-06-20.\""), "the line typed below: %s", line);
    cr_expect(strstr(line, "\"clear\":\tfalse"), "typed after the page's text, not in place of it: %s", line);
    free(line);
    /* the tasks' own evaluators score each replay; task 14 resets the wiki first */
    char out[300], *results = NULL;
    snprintf(path, sizeof path, "%s/scored-hybrid", tmpdir);
    snprintf(out, sizeof out, "%s/replay-hybrid", tmpdir);
    cr_expect_eq(replay_passes(path, "hybrid,atomic", out, &results), 6,
                 "hybrid recordings replay in hybrid and in atomic: %s", results);
    free(results);
    /* task 14's atomic recording typed its line after the page's text (clear: false, from the trace
     * line): its replay keeps the page's text, which the evaluator reads */
    snprintf(path, sizeof path, "%s/scored-atomic", tmpdir);
    snprintf(out, sizeof out, "%s/replay-atomic", tmpdir);
    cr_expect_eq(replay_passes(path, "atomic", out, &results), 3, "atomic recordings replay: %s", results);
    free(results);
}

/* ---- Playground: a widget's call with no tool in atomic mode as the steps a person takes ---------- */

/* A column's sort (26), a tab (72), a field cleared (79), a checkbox group's values (80: email held, sms
 * and push wanted), a wizard's select by its key (86: sre, printed sre=Site Reliability Engineer) and a
 * checkbox group's check(go) (98), a cascader's path (0: `combobox 'Destination'` clicked, then
 * `menuitemcheckbox 'France right'`, a level named with its expand icon, then `menuitemcheckbox 'Paris'`)
 * and a slider's value (77: 30 to 90 days, the one slider clicked and ArrowRight pressed 60 times),
 * recorded in hybrid as calls, distil to atomic steps (a header clicked, a tab clicked, empty text
 * typed, each box whose state changes clicked, the option by its label) that pass each task's
 * evaluator in atomic mode. */
static const char *const WIDGET_TASKS[] = {"026", "072", "079", "080", "086", "098", "000", "077"};
static const char *const WIDGET_IDS[] = {"26", "72", "79", "80", "86", "98", "0", "77"};
#define N_WIDGET 8

/* The stand-in's hybrid runs of n Playground tasks (names: "026", ids: "26") distilled, each job's
 * atomic_steps holding want[i] and no call, replayed in atomic mode with the tasks' evaluators; the
 * replays passed. */
static int atomic_replays(const char *const *names, const char *const *ids, const char *const *want, size_t n)
{
    char tasks[300], run[300], dir[300], out[300];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    snprintf(dir, sizeof dir, "%s/scored", tmpdir);
    link_tasks(tasks, names, n);
    cr_assert_eq(model_run(tasks, "hybrid", run, "30"), 0, "the stand-in passes the tasks in hybrid");
    cr_assert_eq(mkdir(dir, 0755), 0);
    for (size_t i = 0; i < n; i++) {
        char job[400], cfg[400];
        snprintf(job, sizeof job, "%s/%s.json", tmpdir, ids[i]);
        snprintf(cfg, sizeof cfg, "%s/%s.json", dir, names[i]);
        int rc = distil(run, ids[i], "hybrid", job);
        char *err = ts_slurp(err_path);
        cr_assert_eq(rc, 0, "task %s distils: %s", ids[i], err);
        free(err);
        scored_config("playground", names[i], job, cfg);
        char *text = ts_slurp(job);
        const char *atomic = strstr(text, "\"atomic_steps\"");
        cr_expect(atomic && strstr(atomic, want[i]) && !strstr(atomic, "\"call\""),
                  "task %s's call as atomic steps (%s): %s", ids[i], want[i], text);
        free(text);
    }
    snprintf(out, sizeof out, "%s/replay", tmpdir);
    char *results = NULL;
    int passed = replay_passes(dir, "atomic", out, &results);
    cr_expect_eq(passed, (int)n, "the evaluators pass the atomic replays: %s", results);
    free(results);
    return passed;
}

/* A table's filters (30: the Active filter's 'Inactive', then Role's and Department's items, OK each
 * time), a row's edit button named by the row with the modal's switch and its last button (27: 'Edit
 * Ivan Sammet', switch 'Active', 'Save'), a row's link named by its key (52: 'ORD-1002'), the menu's
 * item by the label the view printed for its key (15: booking=Travel booking) and a checkbox named with
 * its form item's label in front (11: 'Extras Breakfast included') and a page tool that opened a page
 * as that page's URL (60: open_order, then the order's buttons) and a cascader's search as its
 * country opened (13: 'Portugal right', its cities then shown), recorded in hybrid as calls, pass their
 * evaluators replayed in atomic mode as a person's steps. */
Test(distill, table_menu_and_modal_calls_replay_in_atomic_mode_as_atomic_steps)
{
    static const char *const names[] = {"030", "027", "052", "015", "011", "060", "013"};
    static const char *const ids[] = {"30", "27", "52", "15", "11", "60", "13"};
    static const char *const want[] = {"\"click\":\t\"menuitem 'Inactive'\"",
                                       "\"click\":\t\"button 'Save'\"",
                                       "\"click\":\t\"link 'ORD-1002'\"",
                                       "\"click\":\t\"menuitem 'Travel booking'\"",
                                       "\"click\":\t\"checkbox 'Extras Breakfast included'\"",
                                       "\"goto\":\t\"http",
                                       "\"click\":\t\"menuitemcheckbox '{{param:DESTINATION}} right'\""};
    atomic_replays(names, ids, want, sizeof names / sizeof *names);
}

Test(distill, widget_calls_replay_in_atomic_mode_as_atomic_steps)
{
    static const char *const want[] = {"\"click\":\t\"columnheader '{{param:COLUMN}}'\"",
                                       "\"click\":\t\"tab '{{param:KEY}}'\"", "\"type\":\t\"Project name\"",
                                       "\"click\":\t\"checkbox 'email'\"",
                                       "\"option\":\t\"Site Reliability Engineer\"",
                                       "\"click\":\t\"checkbox 'go'\"", "\"click\":\t\"menuitemcheckbox '",
                                       "\"press\":\t\"ArrowRight\""};
    atomic_replays(WIDGET_TASKS, WIDGET_IDS, want, N_WIDGET);
}

/* `eous bench dir --modes hybrid --planner script` over the Playground (no secrets): the replays passed. */
static int hybrid_replays(const char *dir, const char *out)
{
    char *results = NULL;
    int passed = replay_passes(dir, "hybrid", out, &results);
    cr_expect_eq(passed, 5, "the evaluators pass the hybrid replays: %s", results);
    free(results);
    return passed;
}

/* A drawer's submit by its last button, which a delta printed after the drawer's line (34: 'Create user'),
 * a multiple select's options toggled in the tab that holds it (78: deselect; 83: setValue, each option
 * whose state changes, then Escape), a date the model counted as a parameter the job's intent names (19:
 * check-out 14 nights after the intent's check-in), answers counted from the page (14: the matches of a
 * cascader's search, in atomic the options of the level it opened; 71: a slider's value, shown on its
 * handle once clicked), a range picker's dates typed into its two fields by the names the view printed (54:
 * 'From date', 'To date'), a switch toggled in the Members tab (81) and a checkbox group's box after the
 * Members tab was opened, its own tab (the hybrid view's activeKey, 'general') clicked again first (84):
 * recorded in hybrid, they replay in atomic mode.  A probe typed to pass a wizard's
 * step is a parameter of filler text (99: 'X Y', "from": "placeholder"), and 99, 19 and 14 replay in hybrid. */
Test(distill, drawer_multiple_select_and_computed_values_replay_in_atomic_mode)
{
    static const char *const names[] = {"034", "078", "083", "019", "014", "071", "054", "081", "084"};
    static const char *const ids[] = {"34", "78", "83", "19", "14", "71", "54", "81", "84"};
    static const char *const want[] = {"\"click\":\t\"button 'Create user'\"",
                                       "\"click\":\t\"tab 'Members'\"",
                                       "\"press\":\t\"Escape\"",
                                       "Check-out: {{param:CHECK_OUT}}.",
                                       "\"from\":\t\"count of options listed for '{{param:DESTINATION}} right'\"",
                                       "\"click\":\t\"css=[role=\\\"slider\\\"]\"",
                                       "\"type\":\t\"textbox 'From date'\"",
                                       "\"click\":\t\"switch 'Allow guests'\"",
                                       "\"click\":\t\"tab 'general'\""};
    atomic_replays(names, ids, want, sizeof names / sizeof *names);
    char tasks[300], run[300], job[300], dir[300], out[300], path[400];
    snprintf(tasks, sizeof tasks, "%s/tasks99", tmpdir);
    snprintf(run, sizeof run, "%s/model99", tmpdir);
    snprintf(dir, sizeof dir, "%s/hybrid", tmpdir);
    snprintf(job, sizeof job, "%s/99.json", tmpdir);
    link_tasks(tasks, (const char *const[]){"099"}, 1);
    cr_assert_eq(model_run(tasks, "hybrid", run, "30"), 0, "the stand-in passes 99 in hybrid");
    cr_assert_eq(distil(run, "99", "hybrid", job), 0, "99 distils");
    char *text = ts_slurp(job);
    cr_expect(strstr(text, "\"from\":\t\"placeholder\"") && strstr(text, "{{param:FULL_NAME}}"),
              "the probe 'X Y' is a parameter typed as filler: %s", text);
    free(text);
    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/099.json", dir);
    scored_config("playground", "099", job, path);
    static const char *const again[] = {"019", "014", "034", "078"}; /* the scored configs, in hybrid */
    for (size_t i = 0; i < 4; i++) {
        char src[400];
        snprintf(src, sizeof src, "%s/scored/%s.json", tmpdir, again[i]);
        snprintf(path, sizeof path, "%s/%s.json", dir, again[i]);
        cr_assert_eq(symlink(src, path), 0);
    }
    snprintf(out, sizeof out, "%s/replay-hybrid", tmpdir);
    hybrid_replays(dir, out);
}

/* The booking's recorded run with a probe typed into 'Guest name' first and typed over at the next step,
 * the view between them changing nothing but that field (probe.txt), is dropped, which the job's notes
 * say; the same probe kept when the view between shows the page changed (the room type's select). */
static void probe_trace(const char *run, const char *between)
{
    char path[400], probe[400];
    snprintf(path, sizeof path, "%s/trace/0-hybrid.jsonl", run);
    snprintf(probe, sizeof probe, "%s/trace/0-hybrid/probe.txt", run);
    FILE *f = fopen(probe, "w");
    cr_assert_not_null(f);
    fputs(between, f);
    fclose(f);
    char *text = ts_slurp(path);
    cr_assert_not_null(text);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    int step = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        cJSON *line = cJSON_Parse(l);
        cr_assert_not_null(line);
        if (!step) { /* the probe, on the first view; the run's own first step then acts on probe.txt */
            cJSON *first = cJSON_Duplicate(line, 1);
            cJSON_ReplaceItemInObjectCaseSensitive(first, "action",
                                                   cJSON_CreateString("call [c3] [setValue] [{\"text\":\"Ada Byron\"}]"));
            char *s = cJSON_PrintUnformatted(first);
            fprintf(f, "%s\n", s);
            free(s);
            cJSON_Delete(first);
            cJSON_ReplaceItemInObjectCaseSensitive(line, "observation", cJSON_CreateString("trace/0-hybrid/probe.txt"));
        }
        cJSON_ReplaceItemInObjectCaseSensitive(line, "step", cJSON_CreateNumber(++step + 1));
        char *s = cJSON_PrintUnformatted(line);
        fprintf(f, "%s\n", s);
        free(s);
        cJSON_Delete(line);
    }
    fclose(f);
    free(text);
}

Test(distill, a_probe_typed_over_before_anything_read_it_is_dropped)
{
    char tasks[300], run[300], job[300], dir[300], out[300], cfg[400];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    link_tasks(tasks, (const char *const[]){"000"}, 1);
    cr_assert_eq(model_run(tasks, "hybrid", run, "30"), 0, "the stand-in passes the booking in hybrid");
    char run2[300], cmd[800];
    snprintf(run2, sizeof run2, "%s/model2", tmpdir);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", run, run2);
    cr_assert_eq(system(cmd), 0);
    probe_trace(run, "(changes since the last observation)\nchanged components:\n[c3] input 'Guest name' value: 'Ada "
                     "Byron' placeholder: 'Full name' \xe2\x86\x92 setValue(text) clear()\n");
    probe_trace(run2, "(changes since the last observation)\nchanged components:\n[c3] input 'Guest name' value: 'Ada "
                      "Byron' placeholder: 'Full name' \xe2\x86\x92 setValue(text) clear()\n[c5] select 'Room type' "
                      "mode: 'single' value: 'Standard' \xe2\x86\x92 setValue(value: standard) clear()\n");
    snprintf(job, sizeof job, "%s/0.json", tmpdir);
    cr_assert_eq(distil(run, "0", "hybrid", job), 0, "the run distils");
    char *text = ts_slurp(job);
    cr_expect(!strstr(text, "Ada Byron") && strstr(text, "step 1 dropped"), "the probe is dropped, noted: %s", text);
    free(text);
    snprintf(cfg, sizeof cfg, "%s/kept.json", tmpdir);
    cr_assert_eq(distil(run2, "0", "hybrid", cfg), 0, "the run distils");
    text = ts_slurp(cfg);
    cr_expect(strstr(text, "Ada Byron") && !strstr(text, "dropped"), "the probe the page showed is kept: %s", text);
    free(text);
    snprintf(dir, sizeof dir, "%s/scored", tmpdir);
    snprintf(cfg, sizeof cfg, "%s/000.json", dir);
    cr_assert_eq(mkdir(dir, 0755), 0);
    scored_config("playground", "000", job, cfg);
    snprintf(out, sizeof out, "%s/replay", tmpdir);
    const char *args[] = {"bench", dir, "--modes", "hybrid,atomic", "--planner", "script", "--out", out, NULL};
    ts_cli_run(args, out_path, err_path, 600);
    snprintf(cfg, sizeof cfg, "%s/results.jsonl", out);
    char *results = ts_slurp(cfg);
    int passed = 0;
    for (const char *p = strstr(results, "\"status\":\"passed\""); p; p = strstr(p + 1, "\"status\":\"passed\""))
        passed++;
    cr_expect_eq(passed, 2, "the job without the probe replays in hybrid and atomic: %s", results);
    free(results);
}

/* An answer counted from the page (14: the cities of Japan, 4), recorded in hybrid (a cascader's search:
 * "from": "count of matches in the last result") and in atomic (Japan's level opened: "from": "count of
 * options listed for 'Japan right'", the items of the list the last click opened, counted in its view),
 * replays in the mode it was recorded in. */
Test(distill, a_counted_answer_replays_in_the_mode_it_was_recorded_in)
{
    char tasks[300], run[300], dir[300], out[300], path[400];
    snprintf(tasks, sizeof tasks, "%s/tasks", tmpdir);
    snprintf(run, sizeof run, "%s/model", tmpdir);
    link_tasks(tasks, (const char *const[]){"014"}, 1);
    cr_assert_eq(model_run(tasks, "hybrid,atomic", run, "30"), 0, "the stand-in passes 14 in both modes");
    static const char *const want[] = {"count of matches in the last result", "count of options listed for 'Japan right'"};
    for (size_t m = 0; m < 2; m++) {
        char job[300];
        snprintf(job, sizeof job, "%s/14-%s.json", tmpdir, MODES[m]);
        cr_assert_eq(distil(run, "14", MODES[m], job), 0, "14 %s distils", MODES[m]);
        char *text = ts_slurp(job);
        cr_expect(strstr(text, want[m]), "14 %s's answer says how it was counted (%s): %s", MODES[m], want[m], text);
        free(text);
        snprintf(dir, sizeof dir, "%s/scored-%s", tmpdir, MODES[m]);
        cr_assert_eq(mkdir(dir, 0755), 0);
        snprintf(path, sizeof path, "%s/014.json", dir);
        scored_config("playground", "014", job, path);
        snprintf(out, sizeof out, "%s/replay-%s", tmpdir, MODES[m]);
        const char *args[] = {"bench", dir, "--modes", MODES[m], "--planner", "script", "--out", out, NULL};
        ts_cli_run(args, out_path, err_path, 300);
        snprintf(path, sizeof path, "%s/results.jsonl", out);
        char *results = ts_slurp(path);
        cr_expect(results && strstr(results, "\"status\":\"passed\""), "14 replays in %s: %s", MODES[m], results);
        free(results);
    }
}

/* tests/cli/test_hostile.c — hostile pages through `eous run` / `eous bench` /
 * `eous observe` on real Chromium (pages and tasks in tests/fixtures/hostile).
 * Every run is bounded (a hang is stopped after 240 s and fails the test as
 * exit 124); no timing upper bound is asserted beyond that.
 *
 *  - prompt injection: a script obeying the page (goto evil.example, goto
 *    another local origin, click the page's evil link) is refused by policy;
 *    the other origin's server sees no request;
 *  - hostile CI4A registries (getStatus throws / hangs / ~50 MB / cyclic /
 *    BigInt / a string): a warning on the step, the atomic step still works;
 *  - callTool that never resolves / opens an alert / navigates away;
 *  - 100k-node DOM and 5000-deep nesting: observe completes;
 *  - alert/confirm/prompt during clicks: dismissed, reported, not hung;
 *  - navigation during click / after a delay / on a key press;
 *  - data-agent-hidden click refused; data-agent-confirm refused in a
 *    non-interactive run with "Needs a person: <sentence>".
 *
 * Three of these began as KNOWN BUG tests written before their fix; they
 * pass now and guard the fix (each comment says what was wrong). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define TASKS EOUS_SOURCE_DIR "/tests/fixtures/hostile/tasks"

static char tmpdir[256], out_path[300], err_path[300];
static ts_server *SRV, *EVIL;

/* ---- running the CLI ------------------------------------------------------- */

static double g_elapsed_s; /* wall time of the last run_cli */

static int run_cli(const char *const *args)
{
    double t0 = eous_now_ms();
    int rc = ts_cli_run(args, out_path, err_path, 240);
    g_elapsed_s = (eous_now_ms() - t0) / 1000.0;
    return rc;
}

/* ---- suite ----------------------------------------------------------------- */

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "hostile", out_path, err_path, sizeof out_path);
    SRV = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/hostile/pages");
    cr_assert_not_null(SRV);
    /* a second origin: the "attacker" (and a beacon that counts effects) */
    EVIL = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    cr_assert_not_null(EVIL);
    setenv("EOUS_SITE_HOSTILE", ts_server_url(SRV), 1);
    setenv("EOUS_SITE_EVIL", ts_server_url(EVIL), 1);
    setenv("EOUS_SITE_BEACON", ts_server_url(EVIL), 1);
}

static void teardown(void)
{
    if (SRV)
        ts_server_stop(SRV);
    if (EVIL)
        ts_server_stop(EVIL);
    SRV = EVIL = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(hostile, .init = setup, .fini = teardown, .timeout = 600);

/* The results.jsonl line of task id (caller deletes), or fails. */
static cJSON *result_of(const char *outdir, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *s = ts_slurp(path);
    cJSON *found = NULL;
    for (char *line = strtok(s, "\n"); line && !found; line = strtok(NULL, "\n")) {
        cJSON *j = cJSON_Parse(line);
        if (j && eous_json_str(j, "task_id") && !strcmp(eous_json_str(j, "task_id"), id))
            found = j;
        else
            cJSON_Delete(j);
    }
    free(s);
    cr_assert_not_null(found, "a result line for %s in %s", id, path);
    return found;
}

/* The trace of task id (hybrid) as a string (caller frees). */
static char *trace_of(const char *outdir, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/trace/%s-hybrid.jsonl", outdir, id);
    return ts_slurp(path);
}

/* Line n (1-based) of a trace as JSON (caller deletes); NULL when missing. */
static cJSON *trace_step(const char *trace, int n)
{
    char *copy = strdup(trace), *save = NULL;
    cJSON *j = NULL;
    int i = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (++i == n) {
            j = cJSON_Parse(line);
            break;
        }
    free(copy);
    return j;
}

static void assert_ran(int rc, const char *what)
{
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_neq(rc, 124, "%s hung: stopped after %.0f s\nstdout: %s\nstderr: %s", what, g_elapsed_s, o, e);
    cr_assert_lt(rc, 128, "%s crashed (exit %d)\nstdout: %s\nstderr: %s", what, rc, o, e);
    free(o);
    free(e);
}

/* ---- prompt injection ------------------------------------------------------ */

Test(hostile, injected_goto_is_refused_by_policy)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/inj", tmpdir);
    unsigned long evil_before = ts_server_requests(EVIL);
    int rc = run_cli((const char *[]){"bench", TASKS "/inj/inj-evil.json", TASKS "/inj/inj-other-origin.json",
                                      "--out", outdir, NULL});
    assert_ran(rc, "bench inj");
    cr_expect_eq(rc, 1, "the injected tasks fail (exit %d)", rc);
    const char *ids[] = {"inj-evil", "inj-other-origin"};
    for (int i = 0; i < 2; i++) {
        cJSON *r = result_of(outdir, ids[i]);
        cr_expect_str_eq(eous_json_str(r, "status"), "failed", "%s", ids[i]);
        cr_expect_str_eq(eous_json_str(r, "stop_reason"), "script_error", "%s", ids[i]);
        cr_expect(strstr(eous_json_str(r, "error"), "is refused"), "%s: %s", ids[i], eous_json_str(r, "error"));
        cJSON_Delete(r);
        char *tr = trace_of(outdir, ids[i]);
        cr_expect_eq(ts_count_lines(tr), 1, "stopped at the refused step: %s", tr);
        cJSON *s1 = trace_step(tr, 1);
        cr_assert_not_null(s1, "%s", tr);
        cr_expect(strstr(eous_json_str(s1, "error") ? eous_json_str(s1, "error") : "", "not allowed"), "%s", tr);
        cr_expect(strstr(eous_json_str(s1, "url"), ts_server_url(SRV)) == eous_json_str(s1, "url"),
                  "still on the task's page: %s", tr);
        cJSON_Delete(s1);
        free(tr);
    }
    char path[400];
    snprintf(path, sizeof path, "%s/trace/inj-evil-hybrid.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_expect(strstr(tr, "evil.example"), "the refusal names the URL: %s", tr);
    cr_expect_null(strstr(tr, "hunter2-injected"), "the next step (typing the password) never ran: %s", tr);
    free(tr);
    snprintf(path, sizeof path, "%s/audit.jsonl", outdir);
    char *au = ts_slurp(path);
    cr_expect(strstr(au, "evil.example"), "refused actions are audited too: %s", au);
    free(au);
    cr_expect_eq(ts_server_requests(EVIL), evil_before, "nothing navigated to the other origin");
}

/* A click on the injected page's link to http://evil.example/: the loop
 * checks where every action led, goes back and fails the step. */
Test(hostile, injected_link_click_to_other_origin_is_refused)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/inj-link", tmpdir);
    int rc = run_cli((const char *[]){"run", TASKS "/inj/inj-link.json", "--out", outdir, NULL});
    assert_ran(rc, "run inj-link");
    char *tr = trace_of(outdir, "inj-link");
    cJSON *s1 = trace_step(tr, 1);
    cr_assert_not_null(s1, "%s", tr);
    const char *e1 = eous_json_str(s1, "error");
    cr_expect(e1 && strstr(e1, "refused"), "the click that leaves for http://evil.example/ is refused: %s", tr);
    cJSON *s2 = trace_step(tr, 2);
    if (s2) {
        const char *url = eous_json_str(s2, "url");
        cr_expect(url && !strncmp(url, ts_server_url(SRV), strlen(ts_server_url(SRV))),
                  "the next step still sees the task's origin, not '%s'", url ? url : "");
    }
    cr_expect_neq(rc, 0, "a run that was led off-origin does not pass: %s", tr);
    cJSON_Delete(s1);
    cJSON_Delete(s2);
    free(tr);
}

/* ---- hostile registries ---------------------------------------------------- */

Test(hostile, hostile_registries_warn_and_the_step_still_works)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/reg", tmpdir);
    /* the plans address the fields atomically whether or not the broken
     * registry yields a component; grounding is not what is under test here */
    int rc = run_cli((const char *[]){"bench", TASKS "/reg", "--grounding", "report", "--out", outdir, NULL});
    assert_ran(rc, "bench reg");
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_expect_eq(rc, 0, "every task still passes with its registry broken (exit %d)\nstdout: %s\nstderr: %s", rc, o,
                 e);
    free(o);
    free(e);
    struct {
        const char *id, *warning;
    } cases[] = {
        {"reg-throws", "registry exploded"},
        {"reg-hangs", "timed out"},
        {"reg-huge", "byte limit"},
        {"reg-cyclic", "cycle"}, /* the cycle is cut and the rest of the registry kept */
        {"reg-nonjson", "cannot be serialised"},
        {"reg-garbage", "expected an object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cJSON *r = result_of(outdir, cases[i].id);
        cr_expect_str_eq(eous_json_str(r, "status"), "passed", "%s: %s", cases[i].id, eous_json_str(r, "eval_detail"));
        cJSON_Delete(r);
        char *tr = trace_of(outdir, cases[i].id);
        cr_expect_eq(ts_count_lines(tr), 2, "%s: %s", cases[i].id, tr);
        cJSON *s1 = trace_step(tr, 1);
        cr_assert_not_null(s1, "%s: %s", cases[i].id, tr);
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(s1, "warnings");
        const char *w0 = cJSON_IsArray(w) && cJSON_GetArrayItem(w, 0) ? cJSON_GetArrayItem(w, 0)->valuestring : NULL;
        cr_expect(w0 && strstr(w0, "ci4a") && strstr(w0, cases[i].warning), "%s: the step reports '%s': %s",
                  cases[i].id, cases[i].warning, tr);
        cr_expect_str_eq(eous_json_str(s1, "path"), "atomic", "%s", cases[i].id);
        cr_expect_leq(strlen(tr), 64 * 1024, "%s: the 50 MB answer is not copied into the trace", cases[i].id);
        cJSON_Delete(s1);
        free(tr);
    }
}

/* A page tool that never resolves is the page's failure, not
 * infrastructure: the step reports the hung tool and the task fails (exit 1).
 * It once made the task "infra" (exit 3, retried on fresh browsers) because
 * agent/loop.c treated the call's EOUS_E_TIMEOUT like EOUS_E_INFRA. */
Test(hostile, call_tool_that_never_resolves_is_a_step_error)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/call-hang", tmpdir);
    int rc = run_cli((const char *[]){"run", TASKS "/call-hang.json", "--out", outdir, NULL});
    assert_ran(rc, "run call-hang");
    char *tr = trace_of(outdir, "call-hang");
    cr_expect_eq(ts_count_lines(tr), 1, "%s", tr);
    cr_expect(strstr(tr, "no answer from the page within"), "the step reports the hung tool: %s", tr);
    free(tr);
    cJSON *r = result_of(outdir, "call-hang");
    cr_expect_str_eq(eous_json_str(r, "status"), "failed", "a hung page tool is the page's failure, not infra");
    cr_expect_str_eq(eous_json_str(r, "stop_reason"), "script_error");
    cJSON_Delete(r);
    cr_expect_eq(rc, 1, "exit 1 (task failed), not 3 (infrastructure): got %d", rc);
}

/* An alert() inside callTool is named in the step error: the dialog's text
 * (dismissed by chromedriver's "dismiss and notify").  It once read only
 * "unexpected answer from the call script". */
Test(hostile, alert_inside_call_tool_is_reported)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/call-dialog", tmpdir);
    int rc = run_cli((const char *[]){"run", TASKS "/call-dialog.json", "--out", outdir, NULL});
    assert_ran(rc, "run call-dialog");
    cr_expect_neq(rc, 3, "a page dialog is not infrastructure");
    char *tr = trace_of(outdir, "call-dialog");
    cr_expect_geq(ts_count_lines(tr), 1, "%s", tr);
    cr_expect(strstr(tr, "Alert from inside callTool"), "the step names the dialog it dismissed: %s", tr);
    free(tr);
}

Test(hostile, call_tool_that_navigates_away_is_reported)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/call-nav", tmpdir);
    int rc = run_cli((const char *[]){"run", TASKS "/call-nav.json", "--out", outdir, NULL});
    assert_ran(rc, "run call-nav");
    cr_expect_eq(rc, 1, "the step fails, the run ends normally (exit %d)", rc);
    char *tr = trace_of(outdir, "call-nav");
    cJSON *s1 = trace_step(tr, 1);
    cr_assert_not_null(s1, "%s", tr);
    const char *e1 = eous_json_str(s1, "error");
    cr_expect(e1 && (strstr(e1, "stale") || strstr(e1, "navigat")), "the step reports the page went away: %s", tr);
    cJSON_Delete(s1);
    free(tr);
}

/* A page tool that sends the browser to another origin: refused like a
 * link would be; the agent is back on the task's origin for its next step. */
Test(hostile, page_tool_leading_off_origin_is_refused)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/call-off", tmpdir);
    unsigned long evil_before = ts_server_requests(EVIL);
    int rc = run_cli((const char *[]){"run", TASKS "/call-off.json", "--out", outdir, NULL});
    assert_ran(rc, "run call-off");
    cr_expect_eq(rc, 1, "the task fails (exit %d)", rc);
    char *tr = trace_of(outdir, "call-off");
    cJSON *s1 = trace_step(tr, 1);
    cr_assert_not_null(s1, "%s", tr);
    const char *e1 = eous_json_str(s1, "error");
    cr_expect(e1 && strstr(e1, "policy refuses"), "the call that left the origin is refused: %s", tr);
    cr_expect(e1 && strstr(e1, ts_server_url(EVIL)), "the refusal names where it led: %s", tr);
    cJSON_Delete(s1);
    free(tr);
    cr_expect_gt(ts_server_requests(EVIL), evil_before, "the page did go there (the check is after the fact)");
}

/* ---- navigation during atomic actions -------------------------------------- */

Test(hostile, navigation_during_click_delay_and_keypress)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/nav", tmpdir);
    int rc = run_cli((const char *[]){"bench", TASKS "/nav", "--out", outdir, NULL});
    assert_ran(rc, "bench nav");
    char *o = ts_slurp(out_path);
    cr_expect_eq(rc, 0, "exit %d: %s", rc, o);
    free(o);
    const char *ids[] = {"nav-click", "nav-soon", "nav-type"};
    for (int i = 0; i < 3; i++) {
        cJSON *r = result_of(outdir, ids[i]);
        cr_expect_str_eq(eous_json_str(r, "status"), "passed", "%s: %s %s", ids[i], eous_json_str(r, "error"),
                         eous_json_str(r, "eval_detail"));
        cJSON_Delete(r);
        char *tr = trace_of(outdir, ids[i]);
        cJSON *s2 = trace_step(tr, 2);
        cr_assert_not_null(s2, "%s: %s", ids[i], tr);
        cr_expect(strstr(eous_json_str(s2, "url"), "/after.html"), "%s: the next observation is the new page: %s",
                  ids[i], tr);
        cJSON_Delete(s2);
        free(tr);
    }
}

/* ---- dialogs mid-action ------------------------------------------------------ */

/* alert/confirm/prompt opened by an action (or just after it) are dismissed
 * (chromedriver's unhandledPromptBehavior "dismiss and notify") and the step
 * says which one, with its text; the next observation keeps its URL.  Through
 * CDP the recording hook is installed for every new document; through plain
 * W3C it is installed by the first action on a document, and a dialog still
 * open when the step ends is read from the driver's error. */
static void dialogs_are_reported(const char *sub, const char *extra_flag)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/%s", tmpdir, sub);
    int rc = run_cli((const char *[]){"run", TASKS "/dialogs.json", "--out", outdir, extra_flag, NULL});
    assert_ran(rc, "run dialogs");
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_expect_eq(rc, 0, "the run goes on after the dialogs (exit %d)\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    char *all = trace_of(outdir, "dialogs");
    /* the script's steps are batched: a dialog stops the batch, and the
     * actions it did not run (one trace line each) come in the next plan */
    char *tr = calloc(1, strlen(all) + 1), *save = NULL, *copy = strdup(all);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strstr(line, "\"not_run\""))
            strcat(strcat(tr, line), "\n");
        else
            cr_expect(strstr(line, "\"not_run\":\"the page opened a dialog\""), "a batch stops at a dialog: %s", line);
    }
    free(copy);
    free(all);
    cr_expect_eq(ts_count_lines(tr), 6, "every step ran: %s", tr);
    const char *texts[] = {"Alert text from the page", "Confirm text from the page", "Prompt text from the page",
                           "Delayed alert text"};
    for (int i = 0; i < 4; i++)
        cr_expect(strstr(tr, texts[i]), "the trace reports the dismissed dialog '%s': %s", texts[i], tr);
    for (int n = 1; n <= 6; n++) {
        cJSON *s = trace_step(tr, n);
        if (!s)
            continue;
        const char *url = eous_json_str(s, "url");
        cr_expect(url && url[0], "step %d keeps its url: %s", n, tr);
        cJSON_Delete(s);
    }
    free(tr);
}

Test(hostile, dialogs_mid_action_are_dismissed_and_reported)
{
    dialogs_are_reported("dialogs", NULL);
}

Test(hostile, dialogs_mid_action_are_reported_without_cdp)
{
    dialogs_are_reported("dialogs-w3c", "--w3c-only");
}

/* ---- page marks -------------------------------------------------------------- */

Test(hostile, hidden_click_and_confirm_button_are_refused)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/marks", tmpdir);
    unsigned long beacon_before = ts_server_requests(EVIL);
    int rc = run_cli((const char *[]){"bench", TASKS "/marks", "--out", outdir, NULL});
    assert_ran(rc, "bench marks");
    cr_expect_eq(rc, 1, "exit %d", rc);
    cJSON *r = result_of(outdir, "mark-hidden");
    cr_expect_str_eq(eous_json_str(r, "status"), "failed");
    cr_expect(strstr(eous_json_str(r, "error"), "data-agent-hidden"), "%s", eous_json_str(r, "error"));
    cJSON_Delete(r);
    r = result_of(outdir, "mark-confirm");
    cr_expect_str_eq(eous_json_str(r, "status"), "failed");
    cr_expect(strstr(eous_json_str(r, "error"), "Needs a person: Transfer 500 EUR to Mallory"), "%s",
              eous_json_str(r, "error"));
    cJSON_Delete(r);
    char *tr = trace_of(outdir, "mark-confirm");
    cr_expect(strstr(tr, "\"error\":\"Needs a person: Transfer 500 EUR to Mallory\""), "%s", tr);
    free(tr);
    tr = trace_of(outdir, "mark-hidden");
    cr_expect(strstr(tr, "refused"), "%s", tr);
    free(tr);
    /* the buttons' handlers would have pinged the beacon: every request the run's browser made has been served */
    cr_assert_eq(ts_server_quiesce(EVIL, 30000), 0, "the beacon server went quiet");
    cr_expect_eq(ts_server_requests(EVIL), beacon_before, "neither button was clicked");
}

/* ---- big and deep pages ------------------------------------------------------ */

static void observe_ok(const char *path, const char *mode, const char *must_show)
{
    char url[400];
    snprintf(url, sizeof url, "%s/%s", ts_server_url(SRV), path);
    int rc = run_cli((const char *[]){"observe", url, "--mode", mode, NULL});
    assert_ran(rc, path);
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_expect_eq(rc, 0, "observe %s --mode %s: exit %d after %.0f s\nstderr: %.2000s", path, mode, rc, g_elapsed_s, e);
    cr_expect(strstr(o, must_show), "observe %s --mode %s shows '%s' (%zu bytes of output)", path, mode, must_show,
              strlen(o));
    free(o);
    free(e);
}

/* A page of ~100,000 DOM nodes is observed, not failed: it once ran past
 * the CDP command timeouts (Accessibility.getFullAXTree,
 * DOMSnapshot.captureSnapshot) on this 2-core machine and exited 3. */
Test(hostile, observe_100k_node_dom)
{
    observe_ok("bigdom.html", "atomic", "Top button");
}

Test(hostile, observe_deep_nesting)
{
    observe_ok("deep.html?depth=500", "hybrid", "Deepest button");
    observe_ok("deep.html?depth=500", "atomic", "Deepest button");
}

/* Chromium's own renderer crashes on deep.html?depth=1000 and deeper (also
 * with plain `chromium --headless=new --dump-dom`, no eous involved).  eous
 * must report it, not hang.  Note: `eous observe` exits 1 here ("tab crashed")
 * although 1 means "a task failed"; a crashed browser tab is closer to 3. */
Test(hostile, observe_page_that_crashes_the_tab_is_reported)
{
    char url[400];
    snprintf(url, sizeof url, "%s/deep.html?depth=5000", ts_server_url(SRV));
    int rc = run_cli((const char *[]){"observe", url, "--mode", "atomic", NULL});
    assert_ran(rc, "observe deep 5000");
    char *e = ts_drop_wait_notes(ts_slurp(err_path));
    cr_expect_neq(rc, 0, "a crashed tab is an error");
    cr_expect(strstr(e, "crash"), "stderr names the crash: %s", e);
    cr_expect_eq(ts_count_lines(e), 1, "one line: %s", e);
    free(e);
}

/* tests/agent/test_evidence.c — what a run leaves to look at (agent/evidence.c,
 * perception/shot.c) on real Chromium: each step's observation text in
 * trace/TASK-MODE/step-NN.txt, screenshots as --screenshots asks, trace lines
 * and results naming them, no secret in any of them; and the screenshot mask,
 * which hides a password field's value (two values, one image) without
 * moving anything on the page. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "perception/shot.h"
#include "support/page_js.h"
#include "support/browser.h"
#include "support/cli.h"
#include "support/workdir.h"

#define SECRET "S3cr3t-Pa55-e2e-7781"
#define PAGES EOUS_SOURCE_DIR "/tests/fixtures/e2e/pages"
#define LOGIN_TASK EOUS_SOURCE_DIR "/tests/fixtures/e2e/tasks/login_secret.json"

static char tmpdir[256], out_path[300], err_path[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "evidence", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(evidence, .init = setup, .fini = teardown, .timeout = 300);

/* ---- the mask -------------------------------------------------------------- */

/* Every element's box and the page's scroll size, as one string. */
static const char layout_js[] =
    "return JSON.stringify([document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
    " Array.from(document.querySelectorAll('body *')).filter(e => e.id !== '__eous_mask__')"
    ".map(e => { const r = e.getBoundingClientRect(); return [e.tagName, r.x, r.y, r.width, r.height]; })]);";

static unsigned char *masked_shot_with_password(wd_session *s, const char *value, size_t *len)
{
    char js[256];
    snprintf(js, sizeof js, "document.getElementById('pw').value = '%s'; document.activeElement.blur(); return '';",
             value);
    free(ts_page_js(s, js));
    unsigned char *png = NULL;
    eous_err err;
    cr_assert_eq(perc_screenshot(s, &png, len, &err), EOUS_OK, "%s", err.msg);
    cr_assert(*len > 8 && !memcmp(png, "\x89PNG", 4), "a PNG");
    return png;
}

Test(evidence, mask_hides_values_and_moves_nothing)
{
    ts_browser B;
    cr_assert_eq(ts_browser_start(&B, PAGES), 0, "browser start failed");
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/login.html"), &err), EOUS_OK, "%s", err.msg);
    free(ts_page_js(B.session, "document.getElementById('pw').value = '" SECRET "'; return '';"));
    char *before = ts_page_js(B.session, layout_js);
    cr_assert_eq(perc_mask(B.session, 1, &err), EOUS_OK, "%s", err.msg);
    char *masked = ts_page_js(B.session, layout_js);
    char *color = ts_page_js(B.session, "return getComputedStyle(document.getElementById('pw')).color;");
    cr_assert_eq(perc_mask(B.session, 0, &err), EOUS_OK, "%s", err.msg);
    char *after = ts_page_js(B.session, layout_js);
    char *left = ts_page_js(B.session, "return String(!!document.getElementById('__eous_mask__'));");
    cr_expect_str_eq(masked, before, "the mask moved something");
    cr_expect_str_eq(after, before, "removing the mask moved something");
    cr_expect_str_eq(color, "rgba(0, 0, 0, 0)", "the password's text is transparent under the mask");
    cr_expect_str_eq(left, "false", "the mask is removed after the capture");
    free(before), free(masked), free(color), free(after), free(left);

    /* two different passwords of one length give the same masked image... */
    size_t la, lb;
    unsigned char *a = masked_shot_with_password(B.session, SECRET, &la);
    unsigned char *b = masked_shot_with_password(B.session, "XXXXXXXXXXXXXXXXXXXX", &lb);
    cr_expect(la == lb && !memcmp(a, b, la), "the masked screenshot shows the password's value");
    /* ...and unmasked they do not (the check above can see a difference) */
    unsigned char *ua = NULL, *ub = NULL;
    size_t lua, lub;
    free(ts_page_js(B.session, "document.getElementById('pw').value = '" SECRET "'; return '';"));
    cr_assert_eq(wd_screenshot(B.session, &ua, &lua, &err), EOUS_OK, "%s", err.msg);
    free(ts_page_js(B.session, "document.getElementById('pw').value = 'x'; return '';"));
    cr_assert_eq(wd_screenshot(B.session, &ub, &lub, &err), EOUS_OK, "%s", err.msg);
    cr_expect(lua != lub || memcmp(ua, ub, lua), "control: unmasked screenshots differ");
    free(a), free(b), free(ua), free(ub);
    ts_browser_stop(&B);
}

/* ---- run directories ------------------------------------------------------- */

static int run_cli(const char *const *args)
{
    return ts_cli_run(args, out_path, err_path, 240);
}

static int exists(const char *dir, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

static int is_png(const char *dir, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *s = ts_slurp(path);
    int ok = !memcmp(s, "\x89PNG", 4);
    free(s);
    return ok;
}

Test(evidence, every_step_keeps_its_observation_and_screenshot_without_secrets)
{
    ts_server *srv = ts_server_start(PAGES);
    cr_assert_not_null(srv);
    setenv("EOUS_SITE_E2E", ts_server_url(srv), 1);
    setenv("EOUS_SECRET_PASSWORD", SECRET, 1);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    /* one action per plan, so every step has a view of its own (a batch's
     * actions share the one view they were planned on) */
    int rc = run_cli((const char *[]){"run", LOGIN_TASK, "--screenshots", "every", "--max-batch", "1", "--out", outdir,
                                      NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s stderr: %s", o, e);
    free(o), free(e);
    const char *files[] = {"trace/e2e-login-hybrid/step-01.txt", "trace/e2e-login-hybrid/step-04.txt",
                           "trace/e2e-login-hybrid/step-01.png", "trace/e2e-login-hybrid/step-04.png",
                           "trace/e2e-login-hybrid/final.png"};
    for (int i = 0; i < 5; i++)
        cr_expect(exists(outdir, files[i]), "%s written", files[i]);
    cr_expect(is_png(outdir, files[2]) && is_png(outdir, files[4]), "PNG files");
    char path[600];
    snprintf(path, sizeof path, "%s/trace/e2e-login-hybrid/step-03.txt", outdir);
    char *obs = ts_slurp(path);
    /* hybrid: the native provider folds the login form into one triplet; the typed password is nowhere */
    cr_expect(strstr(obs, "form 'Sign in' values: Username='ada', Password='filled (secret)' → fill(Username?; "
                          "Password?) submit(as in fill)"),
              "the view the planner read: %s", obs);
    cr_expect_null(strstr(obs, SECRET), "the view the planner read: %s", obs);
    free(obs);
    snprintf(path, sizeof path, "%s/trace/e2e-login-hybrid.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_expect_eq(ts_count_lines(tr), 4, "one trace line per step: %s", tr);
    cr_expect(strstr(tr, "\"observation\":\"trace/e2e-login-hybrid/step-02.txt\""), "%s", tr);
    cr_expect(strstr(tr, "\"screenshot\":\"trace/e2e-login-hybrid/step-02.png\""), "%s", tr);
    free(tr);
    cJSON *r = ts_result_line(outdir, &(int){0});
    cr_expect_str_eq(eous_json_str(r, "screenshot"), "trace/e2e-login-hybrid/final.png");
    cJSON_Delete(r);
    const char *leak = ts_file_with(outdir, SECRET);
    cr_expect_null(leak, "the secret leaked into %s", leak ? leak : "");
    /* no temp file left behind by the atomic writes */
    cr_expect_null(ts_file_with(outdir, ".tmp."), "a temp file name appears in the run");
    unsetenv("EOUS_SECRET_PASSWORD");
    ts_server_stop(srv);
}

static void write_failing_task(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"sites\": [\"fixture\"], \"task_id\": \"fx-fail\", \"start_url\": \"__FIXTURE__/form.html\",\n"
          " \"intent\": \"Press a button the page does not have\", \"tier\": \"short\",\n"
          " \"eval\": {\"eval_types\": [\"string_match\"], \"reference_answers\": {\"must_include\": [\"x\"]}},\n"
          " \"atomic_script\": [{\"type\": \"css=#name\", \"text\": \"Ada\"}, {\"click\": \"button 'Nope'\"}]}\n",
          f);
    fclose(f);
}

Test(evidence, failure_keeps_the_failed_step_and_final_page_only)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    cr_assert_not_null(srv);
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    char task[300], outdir[300];
    snprintf(task, sizeof task, "%s/fail.json", tmpdir);
    write_failing_task(task);
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    /* the default is failure: a passing task keeps text only */
    int rc = run_cli((const char *[]){"run", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", "--mode",
                                      "atomic", "--out", outdir, NULL});
    cr_assert_eq(rc, 0);
    cr_expect(exists(outdir, "trace/fx-1-atomic/step-01.txt"));
    cr_expect(!exists(outdir, "trace/fx-1-atomic/final.png"), "a passed task keeps no screenshot by default");
    cr_expect(!exists(outdir, "trace/fx-1-atomic/step-01.png"));
    rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--out", outdir, NULL});
    char *o = ts_slurp(out_path);
    cr_assert_eq(rc, 1, "the task fails: %s", o);
    free(o);
    cr_expect(is_png(outdir, "trace/fx-fail-atomic/step-02-failed.png"), "the failed step's page");
    cr_expect(is_png(outdir, "trace/fx-fail-atomic/final.png"), "the failed task's last page");
    cr_expect(!exists(outdir, "trace/fx-fail-atomic/step-01.png"), "no shot of a step that went fine");
    char path[600];
    snprintf(path, sizeof path, "%s/trace/fx-fail-atomic.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_expect(strstr(tr, "\"failed_screenshot\":\"trace/fx-fail-atomic/step-02-failed.png\""), "%s", tr);
    free(tr);
    /* none: text only; a rerun replaces the last run's files */
    rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--screenshots", "none", "--out", outdir, NULL});
    cr_assert_eq(rc, 1);
    cr_expect(exists(outdir, "trace/fx-fail-atomic/step-02.txt"));
    cr_expect(!exists(outdir, "trace/fx-fail-atomic/final.png"), "--screenshots none, and the old one is gone");
    cr_expect(!exists(outdir, "trace/fx-fail-atomic/step-02-failed.png"));
    ts_server_stop(srv);
}

/* A secret typed into an ordinary text field: the field is marked secret
 * before the value goes in, so the screenshot is the same whatever the value
 * (the control: the same run typing the values as plain text differs). */
static char *final_shot_after_typing(const char *text, const char *value, const char *sub)
{
    char task[300], outdir[300], path[600];
    snprintf(task, sizeof task, "%s/%s.json", tmpdir, sub);
    FILE *f = fopen(task, "w");
    cr_assert_not_null(f);
    fprintf(f, "{\"sites\": [\"e2e\"], \"task_id\": \"%s\", \"start_url\": \"__E2E__/login.html\",\n"
               " \"intent\": \"Type the user name\", \"eval\": {\"eval_types\": [\"string_match\"],\n"
               " \"reference_answers\": {\"must_include\": [\"typed\"]}},\n"
               " \"script\": [{\"type\": \"textbox 'Username'\", \"text\": \"%s\"}, {\"stop\": \"typed\"}]}\n",
            sub, text);
    fclose(f);
    setenv("EOUS_SECRET_USERNAME", value, 1);
    snprintf(outdir, sizeof outdir, "%s/%s", tmpdir, sub);
    int rc = run_cli((const char *[]){"run", task, "--screenshots", "final", "--grounding", "off", "--out", outdir,
                                      NULL});
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "%s", e);
    free(e);
    snprintf(path, sizeof path, "%s/trace/%s-hybrid/final.png", outdir, sub);
    char *png = ts_slurp(path);
    cr_assert(!memcmp(png, "\x89PNG", 4), "%s is a PNG", path);
    unsetenv("EOUS_SECRET_USERNAME");
    return png;
}

static long slurp_len(const char *dir, const char *sub)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s/trace/%s-hybrid/final.png", tmpdir, dir, sub);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

Test(evidence, secret_typed_into_a_plain_field_is_masked_in_screenshots)
{
    ts_server *srv = ts_server_start(PAGES);
    cr_assert_not_null(srv);
    setenv("EOUS_SITE_E2E", ts_server_url(srv), 1);
    char *a = final_shot_after_typing("{{secret:USERNAME}}", "Wwwwwwwwwwwwwwwwwwww", "sa");
    char *b = final_shot_after_typing("{{secret:USERNAME}}", "iiiiiiiiiiiiiiiiiiii", "sb");
    long na = slurp_len("sa", "sa"), nb = slurp_len("sb", "sb");
    cr_expect(na == nb && !memcmp(a, b, (size_t)na), "the two secrets give the same picture");
    char *c = final_shot_after_typing("Wwwwwwwwwwwwwwwwwwww", "x", "pa");
    char *d = final_shot_after_typing("iiiiiiiiiiiiiiiiiiii", "x", "pb");
    long nc = slurp_len("pa", "pa"), nd = slurp_len("pb", "pb");
    cr_expect(nc != nd || memcmp(c, d, (size_t)nc), "plain text shows: the comparison can see a difference");
    free(a), free(b), free(c), free(d);
    ts_server_stop(srv);
}

Test(evidence, bad_screenshots_value_is_one_line_exit_2)
{
    int rc = run_cli((const char *[]){"run", LOGIN_TASK, "--screenshots", "sometimes", NULL});
    char *e = ts_slurp(err_path);
    cr_expect_eq(rc, 2);
    cr_expect(strstr(e, "--screenshots 'sometimes'") && strstr(e, "none, failure, final or every"), "%s", e);
    cr_expect_eq(ts_count_lines(e), 1, "%s", e);
    free(e);
}

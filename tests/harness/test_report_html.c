/* tests/harness/test_report_html.c — report.html as a reader uses it, in real
 * headless Chromium: a bench run of a passing and a failing task in two
 * modes, its report opened over loopback; tasks sorted by id with the modes
 * side by side; "failed only" leaves the failing task; opening it shows its
 * intent, verdict, each mode's steps (observation collapsed) and the failed
 * step's screenshot, loaded from trace/ by its relative link; the mode filter
 * hides the other mode; the page asks the network for nothing. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/page_js.h"
#include "support/browser.h"
#include "support/cli.h"
#include "support/workdir.h"

static char tmpdir[256], out_path[300], err_path[300], outdir[300];

static void write_failing_task(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"sites\": [\"fixture\"], \"task_id\": \"fx-fail\", \"start_url\": \"__FIXTURE__/form.html\",\n"
          " \"intent\": \"Press a button the page does not have\", \"tier\": \"medium\", \"screen\": \"form\",\n"
          " \"eval\": {\"eval_types\": [\"string_match\"], \"reference_answers\": {\"must_include\": [\"x\"]}},\n"
          " \"atomic_script\": [{\"type\": \"css=#name\", \"text\": \"Ada\"}, {\"click\": \"button 'Nope'\"}]}\n",
          f);
    fclose(f);
}

/* A bench run in OUT: fx-1 passes, fx-fail fails at step 2, in atomic and pruned. */
static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "report", out_path, err_path, sizeof out_path);
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    char task[300];
    snprintf(task, sizeof task, "%s/fail.json", tmpdir);
    write_failing_task(task);
    /* fx-fail's atomic failure is a known limit; its pruned one is not */
    char known[300];
    snprintf(known, sizeof known, "%s/known.json", tmpdir);
    FILE *kf = fopen(known, "w");
    cr_assert_not_null(kf);
    fputs("{\"limits\": [{\"mode\": \"atomic\", \"said\": \"Nope|must_include 'x'\", \"task\": \"fx-fail\",\n"
          "  \"why\": \"the fixture has no button 'Nope', on purpose\"}]}\n", kf);
    fclose(kf);
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    cr_assert_not_null(srv);
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    /* the failing task first: the report sorts, results.jsonl does not; its
     * click on a button the page lacks runs and fails (strict grounding,
     * bench's default, would refuse it before it ran) */
    int rc = ts_cli_run((const char *[]){"bench", task, EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json",
                                         "--modes", "atomic,pruned", "--grounding", "report", "--known-limits", known, "--out",
                                         outdir, NULL},
                        out_path, err_path, 240);
    ts_server_stop(srv);
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 1, "one task fails: %s", e);
    free(e);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(report_html, .init = setup, .fini = teardown, .timeout = 300);

static void expect_js(wd_session *s, const char *script, const char *want, const char *what)
{
    char *got = ts_page_js(s, script);
    cr_expect_str_eq(got, want, "%s", what);
    free(got);
}

/* Clicks the element as a person would (W3C element click: real input events). */
static void click(wd_session *s, const char *css)
{
    char *el = NULL;
    eous_err err;
    cr_assert_eq(wd_find(s, "css selector", css, &el, &err), EOUS_OK, "%s: %s", css, err.msg);
    cr_assert_eq(wd_element_click(s, el, &err), EOUS_OK, "%s: %s", css, err.msg);
    free(el);
}

Test(report_html, filter_open_a_failed_task_see_its_steps_and_screenshot)
{
    char *html = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/report.html", outdir);
    eous_err err;
    cr_assert_eq(eous_read_file(path, 0, &html, NULL, &err), EOUS_OK, "%s", err.msg);
    cr_expect_null(strstr(html, "<script src"), "no script from elsewhere");
    cr_expect_null(strstr(html, "<link"), "no stylesheet from elsewhere");
    cr_expect_null(strstr(html, "src='http"), "no image from elsewhere");
    free(html);

    ts_browser B;
    cr_assert_eq(ts_browser_start(&B, outdir), 0, "browser start failed");
    wd_session *s = B.session;
    cr_assert_eq(wd_navigate(s, ts_browser_url(&B, "/report.html"), &err), EOUS_OK, "%s", err.msg);
    expect_js(s, "return Array.from(document.querySelectorAll('tr.task')).map(t => t.dataset.task).join(',');",
              "fx-1,fx-fail", "tasks sorted by id");
    expect_js(s, "return Array.from(document.querySelectorAll('th.mode')).map(t => t.textContent).join(',');",
              "atomic,pruned", "modes side by side");
    expect_js(s, "return document.querySelector('tr.task[data-task=\"fx-1\"] td.m-atomic').textContent;", "passed",
              "the status cell");

    click(s, "#f-failed");
    expect_js(s, "return Array.from(document.querySelectorAll('tr.task')).filter(t => t.offsetParent)"
                 ".map(t => t.dataset.task).join(',');",
              "fx-fail", "failed only");
    expect_js(s, "return document.getElementById('f-count').textContent;", "1 task(s) shown", "the count");

    click(s, "tr.task[data-task='fx-fail'] button.open");
    const char *detail = "document.getElementById(document.querySelector('tr.task[data-task=\"fx-fail\"] "
                         "button.open').getAttribute('aria-controls'))";
    char script[1024];
    snprintf(script, sizeof script, "return String(!!%s.offsetParent);", detail);
    expect_js(s, script, "true", "the drill-down opens");
    snprintf(script, sizeof script, "return %s.querySelector('.intent').textContent;", detail);
    expect_js(s, script, "Press a button the page does not have", "the intent");
    snprintf(script, sizeof script,
             "return Array.from(%s.querySelectorAll('.mode-detail.m-atomic li.step')).filter(l => l.offsetParent)"
             ".length + ' ' + %s.querySelector('.mode-detail.m-atomic .verdict').textContent;", detail, detail);
    expect_js(s, script, "2 eval: string_match: must_include 'x' not in ''", "its step list and verdict");
    snprintf(script, sizeof script,
             "const li = %s.querySelector('.m-atomic li.step.err'); const d = li.querySelector('details.obs');"
             "return [li.dataset.step, String(d.open), String(d.textContent.includes(\"button 'Send'\"))].join(' ');",
             detail);
    expect_js(s, script, "2 false true", "the failed step, its observation collapsed");
    /* the failed step's screenshot loads from its relative link */
    snprintf(script, sizeof script,
             "const img = %s.querySelector('.m-atomic li.step.err img.shot'); img.scrollIntoView();"
             "return img.decode().then(() => img.getAttribute('src') + ' ' + (img.naturalWidth > 100))"
             ".catch(e => 'not loaded: ' + img.getAttribute('src'));", detail);
    char want[300];
    snprintf(want, sizeof want, "trace/fx-fail-atomic/step-02-failed.png true");
    expect_js(s, script, want, "the failed step's screenshot is there and loads");
    snprintf(script, sizeof script, "return String(%s.querySelector('.m-atomic img.shot[src$=\"final.png\"]') != null);",
             detail);
    expect_js(s, script, "true", "and the task's last page");

    /* one mode: the other's columns and steps go */
    cr_assert_eq(wd_execute(s, "const m = document.getElementById('f-mode'); m.value = 'pruned';"
                               "m.dispatchEvent(new Event('change')); return true;", NULL, NULL, &err),
                 EOUS_OK, "%s", err.msg);
    snprintf(script, sizeof script,
             "return [document.querySelector('th.mode.m-atomic').offsetParent === null,"
             " %s.querySelector('.mode-detail.m-atomic').offsetParent === null,"
             " %s.querySelector('.mode-detail.m-pruned').offsetParent !== null].join(' ');", detail, detail);
    expect_js(s, script, "true true true", "the mode filter");
    ts_browser_stop(&B);
}

/* The summary reads as tables in a real browser, and at 1280 and at 800 CSS px nothing is wider than
 * the page: a wide table scrolls in its own box, the page never sideways. */
Test(report_html, summary_is_tables_and_nothing_is_wider_than_the_page)
{
    ts_browser B;
    eous_err err;
    cr_assert_eq(ts_browser_start(&B, outdir), 0, "browser start failed");
    wd_session *s = B.session;
    const int widths[] = {1280, 800};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(wd_set_window_rect(s, widths[i], 900, &err), EOUS_OK, "%s", err.msg);
        cr_assert_eq(wd_navigate(s, ts_browser_url(&B, "/report.html"), &err), EOUS_OK, "%s", err.msg);
        expect_js(s, "return String(document.querySelectorAll('.summary table').length >= 2 && "
                     "!document.body.innerText.includes('|---|') && !document.querySelector('.summary pre'));",
                  "true", "summary.md's tables are tables");
        expect_js(s, "return document.querySelector('table.glance tbody tr').cells.length + ' ' + "
                     "document.querySelector('table.failures td').textContent;",
                  "7 fx-fail", "the pass-rate table and the task that failed");
        char *got = ts_page_js(s, "const w = document.documentElement.clientWidth;"
                                  "const wide = Array.from(document.querySelectorAll('body *')).filter(e => "
                                  "e.offsetParent && e.getBoundingClientRect().right > w + 1 && !e.closest('.wide'));"
                                  "return document.documentElement.scrollWidth <= w ? 'fits' : "
                                  "'scrollWidth ' + document.documentElement.scrollWidth + ' > ' + w + ': ' + "
                                  "wide.slice(0, 3).map(e => e.tagName + '.' + e.className).join(' ');");
        cr_expect_str_eq(got, "fits", "at %d px: %s", widths[i], got);
        free(got);
    }
    ts_browser_stop(&B);
}

/* A failure a known limit explains says so in its results line, in the table of tasks that did not pass
 * and in its drill-down; one no limit explains, and a pass, carry none. */
Test(report_html, known_limit_of_a_failed_task_in_results_and_report)
{
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    int atomic = 0, others = 0;
    for (char *line = strtok(res, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *r = cJSON_Parse(line);
        cr_assert_not_null(r, "%s", line);
        const char *known = eous_json_str(r, "known_limit");
        if (!strcmp(eous_json_str(r, "task_id"), "fx-fail") && !strcmp(eous_json_str(r, "mode"), "atomic")) {
            cr_expect_str_eq(known ? known : "(none)", "the fixture has no button 'Nope', on purpose", "%s", line);
            atomic++;
        } else {
            cr_expect_null(known, "no limit explains it: %s", line);
            others++;
        }
        cJSON_Delete(r);
    }
    free(res);
    cr_expect_eq(atomic * 10 + others, 13, "fx-fail atomic once, three others");

    ts_browser B;
    eous_err err;
    cr_assert_eq(ts_browser_start(&B, outdir), 0, "browser start failed");
    wd_session *s = B.session;
    cr_assert_eq(wd_navigate(s, ts_browser_url(&B, "/report.html"), &err), EOUS_OK, "%s", err.msg);
    expect_js(s, "return Array.from(document.querySelectorAll('table.failures tbody tr')).map(tr => "
                 "tr.cells[1].textContent + ': ' + tr.cells[5].textContent).join(' | ');",
              "atomic: the fixture has no button 'Nope', on purpose | pruned: –", "the failures' known limits");
    click(s, "tr.task[data-task='fx-fail'] button.open");
    expect_js(s, "return Array.from(document.querySelectorAll('.mode-detail .known')).map(d => d.textContent)"
                 ".join(' | ');",
              "known limit: the fixture has no button 'Nope', on purpose", "the drill-down names it");
    ts_browser_stop(&B);
}

/* run-b: the run's results with fx-1's atomic attempt turned into a failure (a run folder is its results.jsonl) */
static void make_run_b(char *dir, size_t size)
{
    snprintf(dir, size, "%s/run-b", tmpdir);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (char *line = strtok(res, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *r = cJSON_Parse(line);
        cr_assert_not_null(r);
        if (!strcmp(eous_json_str(r, "task_id"), "fx-1") && !strcmp(eous_json_str(r, "mode"), "atomic"))
            cJSON_ReplaceItemInObject(r, "status", cJSON_CreateString("failed"));
        char *text = cJSON_PrintUnformatted(r);
        fprintf(f, "%s\n", text);
        free(text);
        cJSON_Delete(r);
    }
    fclose(f);
    free(res);
}

/* Bad input: one line on stderr, exit 2, no page. */
static void expect_refused(const char *const *args, const char *page, const char *want)
{
    cr_assert_eq(ts_cli_run(args, out_path, err_path, 60), 2);
    char *e = ts_slurp(err_path);
    cr_expect(strstr(e, want) && ts_count_lines(e) == 1, "one line naming it: %s", e);
    cr_expect_neq(access(page, F_OK), 0, "no page written for: %s", e);
    free(e);
}

/* eous report RUN RUN-B -o compare.html: one page with both runs' pass rates and costs per mode and, per
 * task, what differs; the filter leaves the task whose outcome differs; nothing wider than the page at
 * 1280 and 800 px.  A folder that is no run, or one run alone, is refused with one line and no page. */
Test(report_html, compare_page_of_two_runs)
{
    char run_b[300], page[400], not_run[300];
    make_run_b(run_b, sizeof run_b);
    snprintf(page, sizeof page, "%s/compare.html", tmpdir);
    snprintf(not_run, sizeof not_run, "%s/trace", outdir);
    expect_refused((const char *[]){"report", outdir, not_run, "-o", page, NULL}, page, "not a run folder");
    expect_refused((const char *[]){"report", outdir, "-o", page, NULL}, page, "expected two run folders or more");
    int rc = ts_cli_run((const char *[]){"report", outdir, run_b, "-o", page, NULL}, out_path, err_path, 60);
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "%s", e);
    cr_expect(strstr(o, "comparison: ") && strstr(o, page), "the path printed: %s", o);
    free(o);
    free(e);

    ts_browser B;
    eous_err err;
    cr_assert_eq(ts_browser_start(&B, tmpdir), 0, "browser start failed");
    wd_session *s = B.session;
    const int widths[] = {1280, 800};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(wd_set_window_rect(s, widths[i], 900, &err), EOUS_OK, "%s", err.msg);
        cr_assert_eq(wd_navigate(s, ts_browser_url(&B, "/compare.html"), &err), EOUS_OK, "%s", err.msg);
        expect_js(s, "return Array.from(document.querySelectorAll('table.glance tbody tr')).map(tr => "
                     "tr.cells[0].textContent + ' ' + tr.cells[1].textContent + ' ' + tr.cells[3].textContent)"
                     ".join(' | ');",
                  "run atomic 1 (50.0%) | run pruned 1 (50.0%) | run-b atomic 0 (0.0%) | run-b pruned 1 (50.0%)",
                  "pass rates per run x mode, side by side");
        expect_js(s, "return document.getElementById('cmp-counts').textContent;",
                  "2 task(s): 0 passed in every run and mode, 1 had one other outcome in every one, 1 differ.",
                  "the counts");
        expect_js(s, "return Array.from(document.querySelectorAll('tr.task')).map(tr => tr.dataset.task + ': ' + "
                     "tr.cells[tr.cells.length - 1].textContent).join(' | ');",
                  "fx-1: passed in run (atomic, pruned), run-b (pruned); failed in run-b (atomic) | "
                  "fx-fail: same in every column", "the per-task deltas");
        char *got = ts_page_js(s, "const w = document.documentElement.clientWidth;"
                                  "return document.documentElement.scrollWidth <= w ? 'fits' : "
                                  "'scrollWidth ' + document.documentElement.scrollWidth + ' > ' + w;");
        cr_expect_str_eq(got, "fits", "at %d px: %s", widths[i], got);
        free(got);
    }
    click(s, "#f-differs");
    expect_js(s, "return Array.from(document.querySelectorAll('tr.task')).filter(t => t.offsetParent)"
                 ".map(t => t.dataset.task).join(',');",
              "fx-1", "only the task whose outcome differs");
    ts_browser_stop(&B);
}

/* tests/agent/test_rpa.c — the RPA steps (wait, read, expect, upload, download,
 * retries, output_schema) through `eous run` on real Chromium against a slow
 * back office page (tests/fixtures/pages/rpa/index.html: a report ready 1.5 s
 * after it is asked for, a download that starts 2 s after its click), and
 * the bad inputs: each one line, exit 2 or a failed task, no output.json. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/browser.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"
#include "mock/llm_mock.h"

#define TASKS EOUS_SOURCE_DIR "/tests/fixtures/rpa/tasks"
#define PAGES EOUS_SOURCE_DIR "/tests/fixtures/pages"

static char tmpdir[256], out_path[300], err_path[300], files_dir[300];
static ts_server *SRV;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "rpa", out_path, err_path, sizeof out_path);
    /* --files: one file to upload, and a symlink that leads out of the directory */
    snprintf(files_dir, sizeof files_dir, "%s/files", tmpdir);
    cr_assert_eq(mkdir(files_dir, 0755), 0);
    char p[400];
    snprintf(p, sizeof p, "%s/note.txt", files_dir);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("hello upload\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/escape.txt", files_dir);
    cr_assert_eq(symlink("/etc/hostname", p), 0);
    SRV = ts_server_start(PAGES);
    cr_assert_not_null(SRV);
    setenv("EOUS_SITE_RPA", ts_server_url(SRV), 1);
}

static void teardown(void)
{
    if (SRV)
        ts_server_stop(SRV);
    SRV = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(rpa, .init = setup, .fini = teardown, .timeout = 600);

/* eous run TASKS/<id>.json --out tmpdir/<id> --files files_dir [extra]; the exit code. */
static int run_task(const char *id, const char *extra, char *outdir, size_t n)
{
    char task[400];
    snprintf(task, sizeof task, "%s/%s.json", TASKS, id);
    snprintf(outdir, n, "%s/%s", tmpdir, id);
    const char *args[] = {"run", task, "--out", outdir, "--files", files_dir, extra, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 240);
    cr_assert_lt(rc, 124, "%s: exit %d\n%s", id, rc, ts_slurp(err_path));
    return rc;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void sha256_hex(const char *path, char out[65])
{
    char *s = ts_slurp(path);
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dl = 0;
    EVP_Digest(s, strlen(s), d, &dl, EVP_sha256(), NULL);
    for (unsigned i = 0; i < dl; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
    free(s);
}

/* Waits for a slow report, reads a table into rows keyed by its headers, a
 * text and a value, asserts them, uploads a file from --files, and saves a
 * download that starts 2 s after its click: output.json and results.jsonl
 * carry the data, the result the file's name, size, MIME type and sha256. */
Test(rpa, job_waits_reads_asserts_uploads_and_downloads)
{
    char out[400];
    int rc = run_task("rpa-job", NULL, out, sizeof out);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r);
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    const cJSON *o = eous_json_obj(r, "output");
    const cJSON *inv = eous_json_arr(o, "invoices");
    cr_assert_eq(cJSON_GetArraySize(inv), 3, "three rows");
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(inv, 1), "Customer"), "Grace");
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(inv, 1), "Amount"), "20.00");
    cr_expect_str_eq(eous_json_str(o, "total"), "Total: 42.75");
    cr_expect_str_eq(eous_json_str(o, "reference"), "PO-7");
    cr_expect_str_eq(eous_json_str(o, "chosen"), "Chosen: note.txt (13 bytes)", "the page got the uploaded file");
    /* output.json is the same data */
    char path[600];
    snprintf(path, sizeof path, "%s/%s", out, eous_json_str(r, "output_file"));
    char *text = ts_slurp(path);
    cJSON *file = cJSON_Parse(text);
    cr_expect(cJSON_Compare(file, o, 1), "output.json holds the output: %s", text);
    cJSON_Delete(file);
    free(text);
    /* the late download */
    const cJSON *dl = cJSON_GetArrayItem(eous_json_arr(r, "downloads"), 0);
    cr_assert_not_null(dl, "a download in the result");
    cr_expect_str_eq(eous_json_str(dl, "name"), "late-report.csv");
    cr_expect_str_eq(eous_json_str(dl, "mime"), "text/csv");
    struct stat st;
    cr_assert_eq(stat(PAGES "/rpa/report.csv", &st), 0);
    cr_expect_eq((long)eous_json_num(dl, "size", -1), (long)st.st_size);
    char want[65];
    sha256_hex(PAGES "/rpa/report.csv", want);
    cr_expect_str_eq(eous_json_str(dl, "sha256"), want);
    snprintf(path, sizeof path, "%s/%s", out, eous_json_str(dl, "file"));
    char *saved = ts_slurp(path), *orig = ts_slurp(PAGES "/rpa/report.csv");
    cr_expect_str_eq(saved, orig, "the saved file is the server's");
    free(saved);
    free(orig);
    /* the report's fetch was seen start and end: network_idle waited on it */
    snprintf(path, sizeof path, "%s/trace/rpa-job-hybrid.jsonl", out);
    char *tr = ts_slurp(path);
    cr_expect(strstr(tr, "the network is idle"), "network_idle waited: %s", tr);
    free(tr);
    cJSON_Delete(r);
}

/* A step that fails: one line naming what, a failed task (exit 1), and no output.json. */
static void expect_failed_step(const char *id, const char *needle)
{
    char out[400];
    int rc = run_task(id, NULL, out, sizeof out);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "%s: a result", id);
    cr_expect_eq(rc, 1, "%s: exit %d", id, rc);
    cr_expect_str_eq(eous_json_str(r, "status"), "failed", "%s", id);
    const char *e = eous_json_str(r, "error");
    cr_expect(e && strstr(e, needle), "%s: error names it: %s", id, e);
    cr_expect(e && !strchr(e, '\n'), "%s: one line", id);
    cr_expect_null(cJSON_GetObjectItem(r, "output"), "%s: no output in the result", id);
    char path[600];
    snprintf(path, sizeof path, "%s/trace/%s-hybrid/output.json", out, id);
    cr_expect(!exists(path), "%s: no output.json", id);
    snprintf(path, sizeof path, "%s/trace/%s-hybrid/step-01.txt", out, id);
    cr_expect(exists(path), "%s: the step's view is kept", id);
    cJSON_Delete(r);
}

Test(rpa, upload_through_a_symlink_out_of_files_is_refused)
{
    expect_failed_step("rpa-upload-symlink", "leads outside the files folder");
}

Test(rpa, read_of_a_hidden_region_is_refused)
{
    expect_failed_step("rpa-read-hidden", "data-agent-hidden");
}

Test(rpa, read_of_something_not_shown_fails)
{
    expect_failed_step("rpa-read-missing", "no table 'Payments' on the page");
}

Test(rpa, read_of_a_secret_field_is_refused)
{
    expect_failed_step("rpa-read-secret", "secret field");
    char path[600];
    snprintf(path, sizeof path, "%s/rpa-read-secret", tmpdir);
    cr_expect_null(ts_file_with(path, "hunter2"), "the password is nowhere in the run directory");
}

Test(rpa, expect_on_a_missing_target_fails)
{
    expect_failed_step("rpa-expect-missing", "expected a value of textbox 'Quantity', got no such target");
}

/* A failed assertion: expected … got …, the failed step's screenshot and final.png. */
Test(rpa, expect_mismatch_fails_with_expected_got_and_evidence)
{
    expect_failed_step("rpa-expect-wrong", "expected 4 items in the output (invoices), got 3");
    char path[600];
    snprintf(path, sizeof path, "%s/rpa-expect-wrong/trace/rpa-expect-wrong-hybrid/step-02-failed.png", tmpdir);
    cr_expect(exists(path), "the failed step's screenshot");
    snprintf(path, sizeof path, "%s/rpa-expect-wrong/trace/rpa-expect-wrong-hybrid/step-02.txt", tmpdir);
    cr_expect(exists(path), "the failed step's view");
}

Test(rpa, wait_that_times_out_says_what_did_not_happen)
{
    expect_failed_step("rpa-wait-timeout", "text 'Never shown' did not appear within 1500 ms");
}

Test(rpa, output_breaking_its_schema_fails_with_the_path)
{
    expect_failed_step("rpa-schema-mismatch", "output_schema: at /invoices/0/Amount: expected text matching");
}

/* An expect that holds only once the slow report is ready passes through its
 * retries; each failed attempt is a trace line of its own. */
Test(rpa, retries_back_off_until_the_page_catches_up)
{
    char out[400];
    int rc = run_task("rpa-retry", NULL, out, sizeof out);
    cr_expect_eq(rc, 0, "exit %d: %s", rc, ts_slurp(out_path));
    char path[600];
    snprintf(path, sizeof path, "%s/trace/rpa-retry-hybrid.jsonl", out);
    char *tr = ts_slurp(path);
    int attempts = 0;
    for (const char *p = tr; (p = strstr(p, "\"retry_in_ms\"")); p++)
        attempts++;
    cr_expect_geq(attempts, 1, "a failed attempt before the report was ready: %s", tr);
    cr_expect(strstr(tr, "\"attempt\":"), "the step's line says which attempt passed");
    free(tr);
}

/* Bad input: one line on stderr, exit 2, no result written as passed. */
static void expect_bad_input(const char *id, const char *extra, const char *needle)
{
    char out[400];
    int rc = run_task(id, extra, out, sizeof out);
    cr_expect_eq(rc, 2, "%s: exit %d", id, rc);
    char *e = ts_slurp(err_path);
    cr_expect(strstr(e, needle), "%s: stderr names it: %s", id, e);
    cr_expect_eq(ts_count_lines(e), 1, "%s: one line: %s", id, e);
    free(e);
    char path[600];
    snprintf(path, sizeof path, "%s/trace/%s-hybrid/output.json", out, id);
    cr_expect(!exists(path), "%s: no output.json", id);
}

Test(rpa, upload_path_with_dotdot_is_bad_input)
{
    expect_bad_input("rpa-upload-dotdot", NULL, "'../secrets.env' is outside the files folder");
}

Test(rpa, schema_that_does_not_parse_is_bad_input)
{
    expect_bad_input("rpa-bad-schema", NULL, "output_schema at /properties/x/$ref: unsupported keyword");
}

/* Without CDP a download cannot be saved: the step says so in one line. */
Test(rpa, download_under_w3c_only_says_it_cannot)
{
    char out[400];
    int rc = run_task("rpa-download-w3c", "--w3c-only", out, sizeof out);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r);
    cr_expect_eq(rc, 1, "exit %d", rc);
    const char *e = eous_json_str(r, "error");
    cr_expect(e && strstr(e, "download: cannot save files without CDP"), "%s", e);
    cJSON_Delete(r);
}

/* The Playground's orders, filtered to pending, read page by page through its
 * pager: every row once (the summary's count), keyed by the table's headers,
 * checked against the task's output_schema. */
Test(rpa, playground_orders_every_page_into_rows)
{
    const char *root = ts_site_root();
    cr_assert_not_null(root, "the Playground is built (make site)");
    ts_server *site = ts_server_start(root);
    cr_assert_not_null(site);
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(site), 1);
    char out[400];
    snprintf(out, sizeof out, "%s/orders", tmpdir);
    const char *args[] = {"run", EOUS_SOURCE_DIR "/tests/fixtures/rpa/playground/orders-pending.json", "--out", out, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 240);
    ts_server_stop(site);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "%s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    const cJSON *orders = eous_json_arr(eous_json_obj(r, "output"), "orders");
    cr_expect_eq(cJSON_GetArraySize(orders), 70, "the 70 pending orders of 4 pages");
    int seen_last = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, orders) {
        cr_expect_str_eq(eous_json_str(o, "Status"), "Pending");
        seen_last |= !strcmp(eous_json_str(o, "Order") ? eous_json_str(o, "Order") : "", "ORD-1396");
    }
    cr_expect(seen_last, "the last page's last order is there");
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(orders, 0), "Total (EUR)"), "966.74");
    cJSON_Delete(r);
}

/* A label renamed since the script was written ("Create report" is now
 * "Generate report"): with --repair llm the model is asked once, its click
 * runs, the task passes as repaired and repair.json holds the proposed step;
 * the same run replayed from the cassette (no model server, no key) repairs
 * the same way, and `eous repair apply` writes the fixed task file for review. */
Test(rpa, renamed_label_repaired_through_a_replayed_model_answer)
{
    llm_mock mock;
    cr_assert_eq(mock_setup(&mock), 0);
    cr_assert_eq(mock_start_responses(&mock, "[{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":{\"id\":\"1\"}}]}]"), 0);
    setenv("OPENAI_API_KEY", "sk-test-repair-KEY-0123456789", 1);
    char base[200], cassette[400], rec[400], rep[400], task[400];
    snprintf(base, sizeof base, "%s/v1", mock.base);
    snprintf(cassette, sizeof cassette, "%s/repair.cassette.jsonl", tmpdir);
    snprintf(rec, sizeof rec, "%s/record", tmpdir);
    snprintf(rep, sizeof rep, "%s/replay", tmpdir);
    snprintf(task, sizeof task, "%s/rpa-renamed.json", TASKS);
    int rc = ts_cli_run((const char *[]){"run", task, "--repair", "llm", "--llm", "openai:test-model", "--llm-base-url", base,
                                         "--llm-ca", mock.ca, "--cassette", cassette, "--out", rec, NULL},
                        out_path, err_path, 240);
    mock_teardown(&mock);
    int nl = 0;
    cJSON *r = ts_result_line(rec, &nl);
    cr_assert_not_null(r, "%s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "recorded run: exit %d: %s", rc, eous_json_str(r, "error"));
    cr_expect(eous_json_bool(r, "repaired", 0), "marked repaired");
    cJSON_Delete(r);

    /* replay: nothing listens, no key */
    unsetenv("OPENAI_API_KEY");
    rc = ts_cli_run((const char *[]){"run", task, "--repair", "llm", "--planner", "replay", "--cassette", cassette,
                                     "--out", rep, NULL},
                    out_path, err_path, 240);
    r = ts_result_line(rep, &nl);
    cr_assert_not_null(r, "%s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "replayed run: exit %d: %s", rc, eous_json_str(r, "error"));
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect(eous_json_bool(r, "repaired", 0), "marked repaired on replay");
    cJSON_Delete(r);
    char path[600];
    snprintf(path, sizeof path, "%s/trace/rpa-renamed-hybrid/repair.json", rep);
    char *text = ts_slurp(path);
    cJSON *j = cJSON_Parse(text);
    const cJSON *one = cJSON_GetArrayItem(eous_json_arr(j, "repairs"), 0);
    cr_assert_not_null(one, "repair.json: %s", text);
    cr_expect_str_eq(eous_json_str(eous_json_obj(one, "original"), "click"), "button 'Create report'");
    cr_expect_str_eq(eous_json_str(eous_json_obj(one, "replacement"), "click"), "button 'Generate report'");
    cr_expect_eq(eous_json_int(eous_json_obj(one, "replacement"), "retries", -1), 1, "the step's retries stay");
    cr_expect(strstr(eous_json_str(one, "view_excerpt"), "Generate report"), "the view excerpt shows the new target");
    cJSON_Delete(j);
    free(text);

    /* repair apply: the task file with the step replaced, beside the run; the original untouched */
    rc = ts_cli_run((const char *[]){"repair", "apply", rep, NULL}, out_path, err_path, 60);
    cr_expect_eq(rc, 0, "repair apply: %s", ts_slurp(err_path));
    snprintf(path, sizeof path, "%s/repaired/rpa-renamed.json", rep);
    text = ts_slurp(path);
    j = cJSON_Parse(text);
    cr_assert_not_null(j, "the repaired file: %s", text);
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(eous_json_arr(j, "script"), 0), "click"), "button 'Generate report'");
    cJSON_Delete(j);
    free(text);
    text = ts_slurp(task);
    cr_expect(strstr(text, "Create report"), "the task file itself is not changed");
    free(text);
}

/* Without --repair the renamed label fails the task, with the step's error. */
Test(rpa, renamed_label_fails_without_repair)
{
    expect_failed_step("rpa-renamed", "no button 'Create report' on the page");
}

/* A submit the page refuses in an alert ("Member cannot be blank"): the
 * step fails with the alert's text, and so does the run (it once dismissed
 * the alert and went on as if done). */
Test(rpa, an_alert_fails_the_step_with_its_text)
{
    expect_failed_step("rpa-alert", "alert \"Member cannot be blank\"");
    char path[600];
    snprintf(path, sizeof path, "%s/rpa-alert/trace/rpa-alert-hybrid/step-01-failed.png", tmpdir);
    cr_expect(exists(path), "the failed step's screenshot");
}

/* A step that says "expect_dialog": true opens its alert and goes on. */
Test(rpa, an_expected_alert_does_not_fail_the_step)
{
    char out[400];
    int rc = run_task("rpa-alert-expected", NULL, out, sizeof out);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result");
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cJSON_Delete(r);
}

/* "expect_dialog" that is not true or false is bad input: one line, exit 2. */
Test(rpa, expect_dialog_that_is_not_a_boolean_is_bad_input)
{
    char task[400];
    snprintf(task, sizeof task, "%s/bad-expect-dialog.json", tmpdir);
    FILE *f = fopen(task, "w");
    cr_assert_not_null(f);
    fputs("{\"task_id\": \"bad-expect-dialog\", \"start_url\": \"__RPA__/rpa/refuse.html\", \"intent\": \"x\","
          " \"eval\": {\"eval_types\": []}, \"script\": [{\"click\": \"button 'Add'\", \"expect_dialog\": \"yes\"}]}",
          f);
    fclose(f);
    const char *args[] = {"check", task, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 60);
    char *o = ts_slurp(out_path);
    cr_expect_eq(rc, 2, "exit %d: %s", rc, o);
    cr_expect(o && strstr(o, "\"expect_dialog\" must be true or false, got a string"), "%s", o);
    free(o);
}

/* The healing loop on a distilled job: a model's run (its trace and view, written here as
 * `--planner llm` writes them) clicked "Create report", which the page has since renamed
 * "Generate report".  The distilled plain job fails on the page as it is; with --repair llm the
 * model (a mock answering once) names the new button, the job passes as repaired, `eous repair
 * apply` writes the job with the new step, and that job passes with no model. */
Test(rpa, distilled_job_healed_by_repair_replays_without_a_model)
{
    char run[400], job[400], path[600], text[1200], rec[400], again[400];
    snprintf(run, sizeof run, "%s/model", tmpdir);
    snprintf(job, sizeof job, "%s/report.json", tmpdir);
    snprintf(path, sizeof path, "mkdir -p '%s/trace/report-hybrid'", run);
    cr_assert_eq(system(path), 0);
    snprintf(path, sizeof path, "%s/results.jsonl", run);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"task_id\":\"report\",\"mode\":\"hybrid\",\"status\":\"passed\",\"intent\":\"Ask for the daily report\"}\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/trace/report-hybrid/step-01.txt", run);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("Tab 0 (current): Back office\n\nbutton [5] 'Create report'\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/trace/report-hybrid.jsonl", run);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    snprintf(text, sizeof text,
             "{\"step\":1,\"mode\":\"hybrid\",\"url\":\"%s/rpa/index.html\",\"observation\":"
             "\"trace/report-hybrid/step-01.txt\",\"action\":\"click [5]\"}\n"
             "{\"step\":2,\"mode\":\"hybrid\",\"action\":\"stop []\"}\n",
             ts_server_url(SRV));
    fputs(text, f);
    fclose(f);
    int rc = ts_cli_run((const char *[]){"distill", run, "-o", job, NULL}, out_path, err_path, 60);
    cr_assert_eq(rc, 0, "distils: %s", ts_slurp(err_path));
    char *j0 = ts_slurp(job);
    cr_expect(strstr(j0, "\"click\":\t\"button 'Create report'\""), "the recorded step: %s", j0);
    free(j0);

    llm_mock mock;
    cr_assert_eq(mock_setup(&mock), 0);
    cr_assert_eq(mock_start_responses(&mock, "[{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":{\"id\":\"1\"}}]}]"), 0);
    setenv("OPENAI_API_KEY", "sk-test-repair-KEY-0123456789", 1);
    char base[200];
    snprintf(base, sizeof base, "%s/v1", mock.base);
    snprintf(rec, sizeof rec, "%s/healed", tmpdir);
    rc = ts_cli_run((const char *[]){"run", job, "--repair", "llm", "--llm", "openai:test-model", "--llm-base-url", base,
                                     "--llm-ca", mock.ca, "--out", rec, NULL},
                    out_path, err_path, 240);
    mock_teardown(&mock);
    unsetenv("OPENAI_API_KEY");
    int nl = 0;
    cJSON *r = ts_result_line(rec, &nl);
    cr_assert_not_null(r, "%s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "healed run: exit %d: %s", rc, eous_json_str(r, "error"));
    cr_expect(eous_json_bool(r, "repaired", 0), "marked repaired");
    cJSON_Delete(r);

    rc = ts_cli_run((const char *[]){"repair", "apply", rec, NULL}, out_path, err_path, 60);
    cr_expect_eq(rc, 0, "repair apply: %s", ts_slurp(err_path));
    snprintf(path, sizeof path, "%s/repaired/report.json", rec);
    char *fixed = ts_slurp(path);
    cJSON *jf = cJSON_Parse(fixed);
    cr_assert_not_null(jf, "the repaired job: %s", fixed);
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(eous_json_arr(jf, "steps"), 0), "click"),
                     "button 'Generate report'");
    cJSON_Delete(jf);
    free(fixed);

    /* the repaired job, no model, no --repair */
    snprintf(again, sizeof again, "%s/again", tmpdir);
    rc = ts_cli_run((const char *[]){"run", path, "--out", again, NULL}, out_path, err_path, 240);
    r = ts_result_line(again, &nl);
    cr_assert_not_null(r, "%s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "the repaired job replays: exit %d: %s", rc, eous_json_str(r, "error"));
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect(!eous_json_bool(r, "repaired", 0), "no repair needed");
    cJSON_Delete(r);
}

/* tests/harness/test_params.c — a job's parameters, the plain job file and every
 * upload target form, through `eous run` and `eous check` on real Chromium
 * against fixture pages served on loopback (tests/fixtures/pages/rpa):
 *   - {{param:NAME}} filled from --param, --params (dotenv and JSON) and
 *     declared defaults, in the start URL, the intent and the steps, and
 *     checked by the page (params.html refuses a day that is not YYYY-MM-DD);
 *     the values in results.jsonl;
 *   - a missing value, an unknown --param, an undeclared {{param:X}}: exit 2,
 *     one line naming it, nothing written, no browser (--webdriver points at
 *     a closed port: a started run would exit 3);
 *   - a plain job ({name, start_url, steps}) runs; one with WebArena's sites
 *     or a site placeholder is bad input;
 *   - every step kind (wait, read, expect, type, click, download, select)
 *     naming its target by a label alone or the hybrid view's "select 'Label'";
 *   - an upload step's target as the label alone, the hybrid view's
 *     "file 'Label'", the atomic view's "button 'Label'" and css=, in hybrid
 *     and atomic; a misspelt label fails naming what is close;
 *   - a label naming a component and the control it wraps, or a column header
 *     too, is one target (rpa/twins.html);
 *   - a name printed twice is told apart by the heading it stands under, as
 *     distill writes it and the resolver finds it (rpa/sections.html). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define JOBS EOUS_SOURCE_DIR "/tests/fixtures/rpa/jobs"
#define PAGES EOUS_SOURCE_DIR "/tests/fixtures/pages"
/* nothing listens here: a run that got as far as a browser would exit 3 */
#define NO_DRIVER "http://127.0.0.1:9"

static char tmpdir[256], out_path[300], err_path[300], files_dir[300], base[300];
static ts_server *SRV;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "params", out_path, err_path, sizeof out_path);
    snprintf(files_dir, sizeof files_dir, "%s/files", tmpdir);
    cr_assert_eq(mkdir(files_dir, 0755), 0);
    char p[400];
    snprintf(p, sizeof p, "%s/note.txt", files_dir);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("hello upload\n", f);
    fclose(f);
    SRV = ts_server_start(PAGES);
    cr_assert_not_null(SRV);
    snprintf(base, sizeof base, "BASE=%s", ts_server_url(SRV));
}

static void teardown(void)
{
    if (SRV)
        ts_server_stop(SRV);
    SRV = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(params, .init = setup, .fini = teardown, .timeout = 600);

static int nl; /* results.jsonl's line count, from ts_result_line */

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A file under tmpdir holding text; its path in out. */
static void write_file(const char *name, const char *text, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", tmpdir, name);
    FILE *f = fopen(out, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* OUT/trace/ID-MODE/output.json parsed (caller deletes). */
static cJSON *output_of(const char *out, const char *id, const char *mode)
{
    char path[700];
    snprintf(path, sizeof path, "%s/trace/%s-%s/output.json", out, id, mode);
    char *text = ts_slurp(path);
    cJSON *o = cJSON_Parse(text);
    free(text);
    return o;
}

/* Bad input: exit 2, stderr one line holding want, nothing under out. */
static void expect_bad_input(const char *const *args, const char *out, const char *want)
{
    int rc = ts_cli_run(args, out_path, err_path, 120);
    char *err = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "exit %d (2: bad input before a browser): %s", rc, err);
    cr_expect_eq(ts_count_lines(err), 1, "one line: %s", err);
    cr_expect_not_null(strstr(err, want), "'%s' in: %s", want, err);
    cr_expect(!exists(out), "nothing written under %s", out);
    free(err);
}

/* The values reach the start URL, the intent and the steps, the last one
 * given wins over a --params file and a default, and the page checks them;
 * results.jsonl holds every declared parameter's value. */
Test(params, filled_from_param_params_and_defaults_and_checked_by_the_page)
{
    char env[400], json[400], out[400];
    write_file("day.env", "# the day's run\nexport DAY=2026-12-24\nWHO=\"Ann Lee\"  # overridden below\n", env,
               sizeof env);
    snprintf(out, sizeof out, "%s/env", tmpdir);
    const char *args[] = {"run", JOBS "/member-day.json", "--params", env, "--param", base, "--param", "WHO=Ole Berg",
                          "--mode", "atomic", "--out", out, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 240);
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    cJSON *o = output_of(out, "member-day", "atomic");
    cr_expect_str_eq(eous_json_str(o, "saved"), "Saved Ole Berg for 2026-12-24", "the page saw the typed values");
    cr_expect_str_eq(eous_json_str(o, "team"), "Team: blue", "the start URL took the declared default");
    cr_expect_str_eq(eous_json_str(r, "intent"), "book Ole Berg for 2026-12-24");
    const cJSON *p = eous_json_obj(r, "params");
    cr_assert_not_null(p, "results.jsonl holds the values");
    cr_expect_str_eq(eous_json_str(p, "WHO"), "Ole Berg");
    cr_expect_str_eq(eous_json_str(p, "DAY"), "2026-12-24");
    cr_expect_str_eq(eous_json_str(p, "TEAM"), "blue");
    cr_expect_str_eq(eous_json_str(p, "BASE"), ts_server_url(SRV));
    cJSON_Delete(o);
    cJSON_Delete(r);

    /* a JSON --params file, in hybrid: another day and team reach the page */
    write_file("day.json", "{\"DAY\": \"2027-01-02\", \"TEAM\": \"red\"}", json, sizeof json);
    snprintf(out, sizeof out, "%s/json", tmpdir);
    const char *args2[] = {"run", JOBS "/member-day.json", "--params", json, "--param", base, "--out", out, NULL};
    rc = ts_cli_run(args2, out_path, err_path, 240);
    r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    o = output_of(out, "member-day", "hybrid");
    cr_expect_str_eq(eous_json_str(o, "saved"), "Saved Mira Okafor for 2027-01-02");
    cr_expect_str_eq(eous_json_str(o, "team"), "Team: red");
    cJSON_Delete(o);
    cJSON_Delete(r);

    /* a value the page refuses fails the run there: the value went through as given */
    snprintf(out, sizeof out, "%s/refused", tmpdir);
    const char *args3[] = {"run", JOBS "/member-day.json", "--param", base, "--param", "DAY=24.12.2026", "--out", out,
                           NULL};
    rc = ts_cli_run(args3, out_path, err_path, 240);
    r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
    cr_expect_eq(rc, 1, "the page refused the day: exit %d", rc);
    cJSON_Delete(r);
}

/* A used parameter with no value and no default: exit 2 naming it, before a browser. */
Test(params, missing_value_is_bad_input_before_a_browser)
{
    char out[400];
    snprintf(out, sizeof out, "%s/missing", tmpdir);
    const char *args[] = {"run", JOBS "/member-day.json", "--param", base, "--webdriver", NO_DRIVER, "--out", out,
                          NULL};
    /* the loader names the parameter, the CLI the flags that give one */
#define NO_DAY "parameter DAY has no value and no default (expected DAY=VALUE among the parameters given); " \
               "--param NAME=VALUE or --params FILE gives one"
    expect_bad_input(args, out, NO_DAY);
    const char *bench[] = {"bench", JOBS "/member-day.json", "--param", base, "--webdriver", NO_DRIVER, "--out", out,
                           NULL};
    expect_bad_input(bench, out, NO_DAY);
#undef NO_DAY
}

/* A --param no job declares (a misspelt name): exit 2 naming it and what is declared. */
Test(params, unknown_param_is_bad_input)
{
    char out[400];
    snprintf(out, sizeof out, "%s/unknown", tmpdir);
    const char *args[] = {"run", JOBS "/member-day.json", "--param", base, "--param", "DAY=2026-12-24", "--param",
                          "DYA=2026-12-25", "--webdriver", NO_DRIVER, "--out", out, NULL};
    expect_bad_input(args, out, "--param: parameter DYA: no job given declares it (declared: BASE, DAY, WHO, TEAM)");
    /* a value may not hold a placeholder: a parameter never turns into a secret */
    const char *args2[] = {"run", JOBS "/member-day.json", "--param", base, "--param", "DAY={{secret:PW}}",
                           "--webdriver", NO_DRIVER, "--out", out, NULL};
    expect_bad_input(args2, out, "a value may not hold '{{'");
}

/* {{param:X}} with no declaration: eous check and eous run exit 2 naming it. */
Test(params, undeclared_placeholder_is_bad_input)
{
    char job[400], out[400];
    write_file("undeclared.json",
               "{\"name\": \"undeclared\", \"start_url\": \"http://127.0.0.1:9/\", \"params\": {\"DAY\": \"x\"},"
               " \"steps\": [{\"type\": \"Day\", \"text\": \"{{param:DYA}}\"}, {\"stop\": \"\"}]}",
               job, sizeof job);
    snprintf(out, sizeof out, "%s/undeclared", tmpdir);
    const char *args[] = {"run", job, "--webdriver", NO_DRIVER, "--out", out, NULL};
    expect_bad_input(args, out, "{{param:DYA}} is not declared");
    const char *check[] = {"check", job, NULL};
    int rc = ts_cli_run(check, out_path, err_path, 60);
    char *said = ts_slurp(out_path);
    cr_expect_eq(rc, 2, "check: exit %d", rc);
    cr_expect_not_null(strstr(said, "{{param:DYA}} is not declared"), "%s", said);
    free(said);
}

/* eous check lists a job's parameters (no values needed) and passes it. */
Test(params, check_lists_parameters)
{
    const char *args[] = {"check", JOBS "/member-day.json", NULL};
    int rc = ts_cli_run(args, out_path, err_path, 60);
    char *said = ts_slurp(out_path);
    cr_expect_eq(rc, 0, "exit %d: %s%s", rc, said, ts_slurp(err_path));
    cr_expect_not_null(strstr(said, "task member-day: param BASE (required): the back office's address"), "%s", said);
    cr_expect_not_null(strstr(said, "param WHO (default \"Mira Okafor\"): the member"), "%s", said);
    cr_expect_not_null(strstr(said, "param TEAM (default \"blue\")"), "%s", said);
    free(said);
}

/* A plain job names no sites and no evaluator; one with WebArena's keys or a
 * site placeholder is bad input, as is a name that is not a task id. */
Test(params, plain_job_shape_is_checked)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"{\"name\": \"a\", \"sites\": [\"x\"], \"start_url\": \"http://127.0.0.1:9/\", \"steps\": [{\"stop\": \"\"}]}",
         "\"sites\" is not one of them (a WebArena config's"},
        {"{\"name\": \"a\", \"start_url\": \"http://127.0.0.1:9/\", \"steps\": [{\"goto\": \"__SHOP__/x\"}]}",
         "'__SHOP__/x' holds a site placeholder: a plain job takes real URLs"},
        {"{\"name\": \"../a\", \"start_url\": \"http://127.0.0.1:9/\", \"steps\": [{\"stop\": \"\"}]}",
         "name \"../a\" is not a name"},
        {"{\"name\": \"a\", \"start_url\": \"http://127.0.0.1:9/\", \"steps\": []}", "a list of one or more steps"},
        {"{\"name\": \"a\", \"start_url\": \"ftp://127.0.0.1/\", \"steps\": [{\"stop\": \"\"}]}",
         "is not an http(s) URL"},
        {"{\"name\": \"a\", \"start_url\": \"http://127.0.0.1:9/\", \"steps\": [{\"stop\": \"\"}], \"notes\": [3]}",
         "\"notes\" must be a list of strings, one is number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char job[400], out[400];
        write_file("plain.json", bad[i].text, job, sizeof job);
        snprintf(out, sizeof out, "%s/plain-%zu", tmpdir, i);
        const char *args[] = {"run", job, "--webdriver", NO_DRIVER, "--out", out, NULL};
        expect_bad_input(args, out, bad[i].want);
    }
}

/* One upload run of jobs/upload.json with target in mode: exit code; *chosen what the page shows. */
static int upload_with(const char *target, const char *mode, char *chosen, size_t n)
{
    char out[400], tparam[300];
    static int k;
    snprintf(out, sizeof out, "%s/upload-%d", tmpdir, k++);
    snprintf(tparam, sizeof tparam, "TARGET=%s", target);
    const char *args[] = {"run", JOBS "/upload.json", "--param", base, "--param", tparam, "--files", files_dir,
                          "--mode", mode, "--out", out, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 240);
    cJSON *o = output_of(out, "upload-target", mode);
    snprintf(chosen, n, "%s", eous_json_str(o, "chosen") ? eous_json_str(o, "chosen") : "");
    cJSON_Delete(o);
    cJSON *r = ts_result_line(out, &nl);
    if (rc)
        cr_log_info("%s in %s: exit %d: %s", target, mode, rc, r ? eous_json_str(r, "error") : ts_slurp(err_path));
    cJSON_Delete(r);
    return rc;
}

/* The README's forms of an upload target, each in both views: the label
 * alone, what the hybrid view prints (file 'Label'), what the atomic view
 * prints (button 'Label') and css=. */
Test(params, upload_takes_every_target_form)
{
    static const char *const targets[] = {"Attachment", "file 'Attachment'", "button 'Attachment'", "css=#att"};
    static const char *const modes[] = {"hybrid", "atomic"};
    for (size_t t = 0; t < 4; t++)
        for (size_t m = 0; m < 2; m++) {
            char chosen[200];
            int rc = upload_with(targets[t], modes[m], chosen, sizeof chosen);
            cr_expect_eq(rc, 0, "upload to %s in %s: exit %d", targets[t], modes[m], rc);
            cr_expect_str_eq(chosen, "Chosen: note.txt (13 bytes)", "upload to %s in %s", targets[t], modes[m]);
        }
}

/* A target no control has fails its step naming what is close to it. */
Test(params, misspelt_target_names_what_is_close)
{
    char chosen[200], out[400];
    int rc = upload_with("Attachmnt", "hybrid", chosen, sizeof chosen);
    cr_expect_eq(rc, 1, "exit %d", rc);
    snprintf(out, sizeof out, "%s/upload-%d", tmpdir, 0);
    cJSON *r = ts_result_line(out, &nl);
    const char *e = r ? eous_json_str(r, "error") : "";
    cr_expect_not_null(strstr(e, "no control labelled 'Attachmnt'; close: file 'Attachment', button 'Attachment'"),
                       "%s", e);
    cJSON_Delete(r);
}

/* Every step kind takes a label alone (and select the hybrid view's "select
 * 'Label'"), in both views: wait, read, expect, type, click, download, select. */
Test(params, every_step_kind_takes_a_label)
{
    static const char *const modes[] = {"hybrid", "atomic"};
    for (size_t m = 0; m < 2; m++) {
        char out[400];
        snprintf(out, sizeof out, "%s/kinds-%s", tmpdir, modes[m]);
        const char *args[] = {"run", JOBS "/kinds.json", "--param", base, "--mode", modes[m], "--out", out, NULL};
        int rc = ts_cli_run(args, out_path, err_path, 240);
        cJSON *r = ts_result_line(out, &nl);
        cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
        cr_expect_eq(rc, 0, "%s: exit %d: %s", modes[m], rc, eous_json_str(r, "error"));
        cr_expect_eq(cJSON_GetArraySize(eous_json_arr(r, "downloads")), 1, "%s: the report downloaded", modes[m]);
        cJSON *o = output_of(out, "step-kinds", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "reference"), "PO-7", "%s", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "country"), "Germany", "%s", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "country_again"), "France", "%s", modes[m]);
        cJSON_Delete(o);
        cJSON_Delete(r);
    }
}

/* A label that names a component and the control it wraps (Guest name, Status),
 * beside a column header of the same name, is one target in both views: the
 * control; a type or select takes what takes text over the header (Check-in:
 * the date picker, its field named otherwise). */
Test(params, a_label_naming_a_component_and_its_control_is_one_target)
{
    static const char *const modes[] = {"hybrid", "atomic"};
    for (size_t m = 0; m < 2; m++) {
        char out[400];
        snprintf(out, sizeof out, "%s/twins-%s", tmpdir, modes[m]);
        const char *args[] = {"run", JOBS "/twins.json", "--param", base, "--mode", modes[m], "--out", out, NULL};
        int rc = ts_cli_run(args, out_path, err_path, 240);
        cJSON *r = ts_result_line(out, &nl);
        cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
        cr_expect_eq(rc, 0, "%s: exit %d: %s", modes[m], rc, eous_json_str(r, "error"));
        cJSON *o = output_of(out, "label-twins", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "guest"), "Ole Berg", "%s", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "status"), "Pending", "%s", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "checkin"), "2026-03-04", "%s", modes[m]);
        cJSON_Delete(o);
        cJSON_Delete(r);
    }
}

/* One atomic run of jobs/counted.json clicking target: exit code; *got what the page says it did,
 * or the step's error. */
static int counted_with(const char *target, char *got, size_t n)
{
    char out[400], tparam[300];
    static int k;
    snprintf(out, sizeof out, "%s/counted-%d", tmpdir, k++);
    snprintf(tparam, sizeof tparam, "TARGET=%s", target);
    const char *args[] = {"run", JOBS "/counted.json", "--param", base, "--param", tparam, "--mode", "atomic",
                          "--out", out, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 240);
    cJSON *o = output_of(out, "counted-target", "atomic"), *r = ts_result_line(out, &nl);
    const char *v = rc ? (r ? eous_json_str(r, "error") : ts_slurp(err_path)) : eous_json_str(o, "done");
    snprintf(got, n, "%s", v ? v : "");
    cJSON_Delete(o);
    cJSON_Delete(r);
    return rc;
}

/* A button whose name carries a live count (rpa/counted.html: "Deactivate selected (2)") is the
 * job's bare name, as a role and name or a label alone; another count, part of the name, or a bare
 * name two counted buttons carry ("Save (1)", "Save (2)") fail, the last naming both. */
Test(params, a_bare_name_finds_its_button_with_a_count)
{
    char got[600];
    cr_expect_eq(counted_with("button 'Deactivate selected'", got, sizeof got), 0, "%s", got);
    cr_expect_str_eq(got, "Deactivated 2 of 3");
    cr_expect_eq(counted_with("Deactivate selected", got, sizeof got), 0, "%s", got);
    cr_expect_str_eq(got, "Deactivated 2 of 3");
    cr_expect_eq(counted_with("button 'Deactivate selected (3)'", got, sizeof got), 1, "%s", got);
    cr_expect_not_null(strstr(got, "no button 'Deactivate selected (3)' on the page"), "%s", got);
    cr_expect_eq(counted_with("button 'Deactivate'", got, sizeof got), 1, "%s", got);
    cr_expect_not_null(strstr(got, "no button 'Deactivate' on the page"), "%s", got);
    cr_expect_eq(counted_with("button 'Save'", got, sizeof got), 1, "%s", got);
    cr_expect_not_null(strstr(got, "'Save' names 2 controls (button 'Save (1)', button 'Save (2)')"), "%s", got);
}

/* text into the file at path. */
static void write_abs(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* A run dir (results.jsonl, trace/ID-atomic.jsonl and its view) whose atomic view prints
 * textbox 'Note' and button 'Save' under two headings, the actions on the second ones. */
static void fake_sections_run(const char *run)
{
    char path[500];
    snprintf(path, sizeof path, "%s/trace/under-atomic", run);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    cr_assert_eq(system(cmd), 0);
    char text[1200];
    snprintf(path, sizeof path, "%s/results.jsonl", run);
    write_abs(path, "{\"task_id\":\"under\",\"mode\":\"atomic\",\"status\":\"passed\","
                    "\"intent\":\"Save a note for shipping\"}\n");
    snprintf(path, sizeof path, "%s/trace/under-atomic/step-01.txt", run);
    write_abs(path, "Tab 0 (current): Sections\n\n[1] RootWebArea 'Sections' focused: True\n\t[2] heading 'Account'\n"
                    "\t[3] heading 'Billing'\n\t[4] textbox 'Note'\n\t[5] button 'Save'\n\t[6] heading 'Shipping'\n"
                    "\t[7] textbox 'Note'\n\t[8] button 'Save'\n\t[9] status 'Result'\n");
    const char *base_url = base + strlen("BASE=");
    snprintf(text, sizeof text,
             "{\"step\":1,\"mode\":\"atomic\",\"url\":\"%s/rpa/sections.html\",\"observation\":"
             "\"trace/under-atomic/step-01.txt\",\"action\":\"type [7] [Leave at door] [0]\"}\n"
             "{\"step\":2,\"mode\":\"atomic\",\"action\":\"click [8]\"}\n"
             "{\"step\":3,\"mode\":\"atomic\",\"action\":\"read [9] [said] [text]\"}\n"
             "{\"step\":4,\"mode\":\"atomic\",\"action\":\"stop []\"}\n",
             base_url);
    snprintf(path, sizeof path, "%s/trace/under-atomic.jsonl", run);
    write_abs(path, text);
}

/* A name the view prints twice is told apart by the heading it stands under: distill writes
 * "button 'Save' under 'Shipping'" (not #2), and the resolver finds that one for a type and a
 * click in both views. */
Test(params, a_target_under_its_heading_is_told_apart)
{
    char run[400], job[400];
    snprintf(run, sizeof run, "%s/under-run", tmpdir);
    snprintf(job, sizeof job, "%s/under.json", tmpdir);
    fake_sections_run(run);
    const char *dargs[] = {"distill", run, "-o", job, NULL};
    int rc = ts_cli_run(dargs, out_path, err_path, 60);
    char *text = ts_slurp(job);
    cr_assert_eq(rc, 0, "distils: %s", ts_slurp(err_path));
    cr_expect(strstr(text, "\"type\":\t\"textbox 'Note' under 'Shipping'\""), "the field by its heading: %s", text);
    cr_expect(strstr(text, "\"click\":\t\"button 'Save' under 'Shipping'\""), "the button by its heading: %s", text);
    free(text);
    static const char *const modes[] = {"hybrid", "atomic"};
    for (size_t m = 0; m < 2; m++) {
        char out[400];
        snprintf(out, sizeof out, "%s/under-%s", tmpdir, modes[m]);
        const char *args[] = {"run", job, "--mode", modes[m], "--out", out, NULL};
        rc = ts_cli_run(args, out_path, err_path, 240);
        cJSON *r = ts_result_line(out, &nl);
        cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
        cr_expect_eq(rc, 0, "%s: exit %d: %s", modes[m], rc, eous_json_str(r, "error"));
        cJSON *o = output_of(out, "under-atomic-distilled", modes[m]);
        cr_expect_str_eq(eous_json_str(o, "said"), "Saved shipping: Leave at door", "%s", modes[m]);
        cJSON_Delete(o);
        cJSON_Delete(r);
    }
}

/* A wait step takes the same target forms as the others: "role 'name' under 'Heading'" waits for
 * that one, not for any control of that name (the page has a Save under Billing and Shipping, and
 * none under a heading 'Returns'). */
Test(params, a_wait_for_a_target_under_a_heading_waits_for_that_one)
{
    static const char *const unders[] = {"Shipping", "Returns"};
    for (size_t i = 0; i < 2; i++) {
        char job[400], out[400], text[1000];
        snprintf(job, sizeof job, "%s/wait-under-%zu.json", tmpdir, i);
        snprintf(out, sizeof out, "%s/wait-under-%zu", tmpdir, i);
        snprintf(text, sizeof text,
                 "{\"name\": \"wait-under-%zu\", \"start_url\": \"%s/rpa/sections.html\", \"steps\": ["
                 "{\"wait\": {\"target\": \"button 'Save' under '%s'\", \"timeout_ms\": 1500}}, {\"stop\": \"\"}]}",
                 i, base + strlen("BASE="), unders[i]);
        write_abs(job, text);
        const char *args[] = {"run", job, "--mode", "atomic", "--out", out, NULL};
        int rc = ts_cli_run(args, out_path, err_path, 120);
        cJSON *r = ts_result_line(out, &nl);
        cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
        if (i == 0)
            cr_expect_eq(rc, 0, "the Save under Shipping is there: %s", eous_json_str(r, "error"));
        else
            cr_expect(rc == 1 && strstr(eous_json_str(r, "error"), "wait"),
                      "no Save stands under 'Returns', so the wait times out (exit %d): %s", rc,
                      eous_json_str(r, "error"));
        cJSON_Delete(r);
    }
}

/* tests/perception/test_ci4a_conformance.c — a CI4A page written by hand from the
 * protocol's own text (tests/fixtures/pages/ci4a/, from the seed's examples,
 * not from the Playground): every component has its visible label, every
 * documented constraint is on its tools line and enforced, the registry
 * variants the seed allows all work, and errors reach the caller as one line
 * with their constraints.  Driven through `eous observe`, `eous call` and
 * `eous run` with real Chromium. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

static char out_path[256], err_path[256], tmpdir[256];
static ts_server *srv;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "ci4a", out_path, err_path, sizeof out_path);
    srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    cr_assert(srv);
}

static void teardown(void)
{
    ts_server_stop(srv);
    ts_workdir_remove(tmpdir);
}

TestSuite(ci4a_conformance, .init = setup, .fini = teardown, .timeout = 600);

static const char *page(const char *query)
{
    static char url[300];
    snprintf(url, sizeof url, "%s/ci4a/booking.html%s", ts_server_url(srv), query ? query : "");
    return url;
}

/* `eous observe URL` in hybrid mode; the view text (caller frees). */
static char *observe(const char *url)
{
    int rc = ts_cli_run((const char *[]){"observe", url, "--mode", "hybrid", NULL}, out_path, err_path, 240);
    char *o = ts_slurp(out_path);
    cr_assert_eq(rc, 0, "observe %s: %s / %s", url, o, ts_slurp(err_path));
    return o;
}

/* `eous call URL TARGET TOOL PARAMS`: its exit code, its JSON line in *out. */
static int call(const char *url, const char *target, const char *tool, const char *params, char **out)
{
    int rc = ts_cli_run((const char *[]){"call", url, target, tool, params, NULL}, out_path, err_path, 240);
    *out = ts_slurp(out_path);
    return rc;
}

static void expect_line(const char *view, const char *line)
{
    char want[1024];
    snprintf(want, sizeof want, "%s\n", line);
    cr_expect(strstr(view, want), "missing line\n%s\nin\n%s", line, view);
}

/* The seed's components, each a native labelled control in a data-cid
 * wrapper: labels from <label for>, aria-labelledby, a table's aria-label
 * and a portal's owner; constraints beside params and param-level limits. */
static void expect_booking_view(const char *v)
{
    expect_line(v, "[c1] input 'Patient name' → setValue(text, 2..40 chars, /^[A-Za-z ]+$/)");
    expect_line(v, "[c2] datepicker 'Visit date' → "
                   "setValue(date?: YYYY-MM-DD, 2025-01-01..2026-12-31, not 2025-12-25) clear()");
    /* 104 Sundays: six shown, the count of the rest, never dropped */
    expect_line(v, "[c3] datepicker 'Return date' → "
                   "setValue(date?: YYYY-MM-DD, 2025-01-01..2026-12-31, not 2025-01-05, 2025-01-12, 2025-01-19, "
                   "2025-01-26, 2025-02-02, 2025-02-09, … +98 more (104 in all))");
    expect_line(v, "[c4] stepper 'Number of guests' value: 2 → setValue(count: integer, 1..8)");
    expect_line(v, "[c5] select 'Room type' → selectOption(value: single=Single room|double=Double room|suite)");
    expect_line(v, "[c6] cascader 'Delivery region' options: Zhejiang/Hangzhou | Zhejiang/Ningbo | Jiangsu/Nanjing → "
                   "setValue(path: zhejiang/hangzhou|zhejiang/ningbo|jiangsu/nanjing)");
    expect_line(v, " → sort(column?: name|age; order?: ascend|descend) filter(column?: ward; values?: [string]) "
                   "goToPage(page?: number, 1..3)");
    cr_expect(strstr(v, "[c7] table 'Patients' "), "%s", v);
    expect_line(v, "[c8] dropdown 'Room type' open: true → pick(value?: single|double|suite)");
    /* a label printed on a triplet is not printed again as loose text */
    for (const char *l = v; (l = strstr(l, "\n")); l++)
        cr_expect(strncmp(l + 1, "Patient name\n", 13) && strncmp(l + 1, "Visit date\n", 11) &&
                      strncmp(l + 1, "Delivery region\n", 16),
                  "label repeated as text:\n%s", v);
}

Test(ci4a_conformance, getstatus_with_and_without_key)
{
    char *v = observe(page(NULL));
    expect_booking_view(v);
    free(v);
}

Test(ci4a_conformance, only_components_registry)
{
    char *v = observe(page("?registry=components-only"));
    expect_booking_view(v);
    free(v);
}

Test(ci4a_conformance, getstatus_that_needs_a_key)
{
    char *v = observe(page("?registry=keyed"));
    expect_booking_view(v);
    char *e = ts_slurp(err_path);
    cr_expect(!strstr(e, "needs a component key"), "asked per key, no warning: %s", e);
    free(e);
    free(v);
}

Test(ci4a_conformance, validator_refuses_what_metadata_forbids)
{
    char *o;
    /* the validator refuses what M forbids, before the page is touched */
    cr_assert_neq(call(page(NULL), "Visit date", "setValue", "{\"date\": \"2025-12-25\"}", &o), 0);
    cr_expect(strstr(o, "setValue: date must be YYYY-MM-DD within 2025-01-01..2026-12-31, not 2025-12-25 "
                        "(got \\\"2025-12-25\\\": disabled)"), "%s", o);
    free(o);
    cr_assert_neq(call(page(NULL), "Return date", "setValue", "{\"date\": \"2026-03-01\"}", &o), 0);
    cr_expect(strstr(o, "disabled"), "a Sunday is refused: %s", o);
    free(o);
    cr_assert_neq(call(page(NULL), "Patient name", "setValue", "{\"text\": \"A1\"}", &o), 0);
    cr_expect(strstr(o, "setValue: text must be a string of 2..40 characters matching /^[A-Za-z ]+$/ (got \\\"A1\\\")"),
              "%s", o);
    free(o);
}

Test(ci4a_conformance, page_errors_are_one_line_with_constraints)
{
    char *o;
    /* the page's own refusals: an Error, a string, a {code, message, constraints} object */
    cr_assert_neq(call(page(NULL), "Visit date", "setValue", "{\"date\": \"2025-12-24\"}", &o), 0);
    cr_expect(strstr(o, "\"message\":\"datepicker-visit.setValue: the page refused (Error): Visit date 2025-12-24 is fully "
                        "booked\""), "%s", o);
    free(o);
    cr_assert_neq(call(page(NULL), "Room type", "selectOption", "{\"value\": \"suite\"}", &o), 0);
    cr_expect(strstr(o, "\"message\":\"select-room.selectOption: the page refused: Suite is sold out for these dates\""),
              "%s", o);
    free(o);
    cr_assert_neq(call(page(NULL), "Patients", "goToPage", "{\"page\": 3}", &o), 0);
    cr_expect(strstr(o, "\"message\":\"table-patients.goToPage: the page refused (PAGE_RANGE): page 3 is past the last "
                        "page (constraints: {\\\"min\\\":1,\\\"max\\\":2})\""), "%s", o);
    free(o);
}

Test(ci4a_conformance, cascader_paths_and_registry_variants_take_calls)
{
    char *o;
    /* a cascader path from the enum of arrays; the new state comes back */
    cr_assert_eq(call(page(NULL), "Delivery region", "setValue", "{\"path\": [\"zhejiang\", \"ningbo\"]}", &o), 0, "%s", o);
    cr_expect(strstr(o, "\"value\":[\"zhejiang\",\"ningbo\"]"), "%s", o);
    free(o);
    cr_assert_neq(call(page(NULL), "Delivery region", "setValue", "{\"path\": [\"jiangsu\", \"ningbo\"]}", &o), 0);
    free(o);
    /* only _components: the tool is called directly; keyed: a Promise of the new state */
    cr_assert_eq(call(page("?registry=components-only"), "Room type", "selectOption", "{\"value\": \"double\"}", &o), 0,
                 "%s", o);
    cr_expect(strstr(o, "\"state\":{\"value\":\"double\""), "%s", o);
    free(o);
    cr_assert_eq(call(page("?registry=keyed"), "Number of guests", "setValue", "{\"count\": 4}", &o), 0, "%s", o);
    cr_expect(strstr(o, "result {\\\"value\\\":4}"), "the resolved Promise is the result: %s", o);
    free(o);
}

Test(ci4a_conformance, script_by_labels_passes_in_hybrid_mode)
{
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    int rc = ts_cli_run((const char *[]){"run", EOUS_SOURCE_DIR "/tests/fixtures/tasks/ci4a_booking.json", "--mode",
                                         "hybrid", "--out", outdir, NULL},
                        out_path, err_path, 240);
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "stdout: %s stderr: %s", o, e);
    cr_expect(strstr(o, "passed"), "%s", o);
    free(o);
    free(e);
    int n = 0;
    cJSON *res = ts_result_line(outdir, &n);
    cr_assert(res);
    cr_expect_str_eq(eous_json_str(res, "status"), "passed");
    cJSON_Delete(res);
}

Test(ci4a_conformance, bad_metadata_warns_and_stays_usable)
{
    char url[300];
    snprintf(url, sizeof url, "%s/ci4a/bad-metadata.html", ts_server_url(srv));
    char *v = observe(url);
    char *e = ts_slurp(err_path);
    expect_line(v, "[c1] input 'Odd field' options: Alpha → "
                   "setValue(text?: colour; size?: number, 10..1; mode?: fast|2|true)");
    cr_expect(strstr(e, "ci4a: odd-field holds a cycle (1 cut)"), "%s", e);
    cr_expect(strstr(e, "odd-field.setValue param text has unknown type 'colour'"), "%s", e);
    cr_expect(strstr(e, "odd-field.setValue param size has min 10 above max 1; no value can pass"), "%s", e);
    cr_expect(strstr(e, "odd-field.setValue param mode has an enum of mixed types"), "%s", e);
    free(e);
    free(v);
    char *o;
    cr_assert_neq(call(url, "Odd field", "setValue", "{\"size\": 5}", &o), 0, "%s", o);
    cr_expect(strstr(o, "\"ok\":false") && strstr(o, "size"), "refused with a line naming the param: %s", o);
    free(o);
}

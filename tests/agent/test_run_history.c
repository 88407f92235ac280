/* tests/agent/test_run_history.c — `eous run`'s trace holds the value history
 * (issue 53 item 2, actions/history.h, agent/loop.c): on a fixture page on
 * loopback, the name the script types is the agent's change, the coupon the
 * page's own script fills seconds later is the page's, and the password the
 * script types appears only as filled, its value nowhere in the run. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define SECRET "Hist-S3cret-pw-9931"
#define TASK EOUS_SOURCE_DIR "/tests/fixtures/run_history/coupon.json"
#define MAX_LINES 32

static char tmpdir[256], out_path[300], err_path[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "run-history", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(run_history, .init = setup, .fini = teardown, .timeout = 300);

/* The trace's lines parsed (each a cJSON the caller deletes); returns how many. */
static int trace_lines(const char *path, cJSON *lines[MAX_LINES])
{
    char *s = ts_slurp(path);
    int n = 0;
    for (char *save = NULL, *l = strtok_r(s, "\n", &save); l && n < MAX_LINES; l = strtok_r(NULL, "\n", &save))
        if ((lines[n] = cJSON_Parse(l)))
            n++;
    free(s);
    return n;
}

/* The history entry labelled label in the trace, and the step whose line holds it; NULL when none. */
static const cJSON *entry_labelled(cJSON *const lines[], int n, const char *label, int *step)
{
    for (int i = 0; i < n; i++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, eous_json_arr(lines[i], "history")) {
            const char *l = eous_json_str(e, "label");
            if (l && !strcmp(l, label)) {
                *step = (int)eous_json_num(lines[i], "step", 0);
                return e;
            }
        }
    }
    return NULL;
}

static void expect_entry(cJSON *const lines[], int n, const char *mode, const char *label, const char *source,
                         const char *value, int want_step)
{
    int step = 0;
    const cJSON *e = entry_labelled(lines, n, label, &step);
    cr_assert_not_null(e, "%s: no history entry for %s in the trace", mode, label);
    cr_expect_str_eq(eous_json_str(e, "source"), source, "%s: %s changed by", mode, label);
    cr_expect_str_eq(eous_json_str(e, "value"), value, "%s: %s's value", mode, label);
    cr_expect_str_eq(eous_json_str(e, "previous"), "", "%s: %s was empty", mode, label);
    cr_expect_str_eq(eous_json_str(e, "key"), "value", "%s: %s's key", mode, label);
    cr_expect_str_eq(eous_json_str(e, "provider"), "native", "%s: %s is a plain control", mode, label);
    const char *t = eous_json_str(e, "time");
    cr_expect(t && strlen(t) == 24 && t[10] == 'T' && t[23] == 'Z', "%s: %s's time %s", mode, label, t ? t : "");
    cr_expect_eq(step, want_step, "%s: %s's change is on step %d's line, not %d", mode, label, want_step, step);
}

Test(run_history, trace_says_who_changed_each_field_and_never_a_secret)
{
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures");
    cr_assert_not_null(srv);
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
    setenv("EOUS_SECRET_HISTPW", SECRET, 1);
    const char *modes[] = {"hybrid", "atomic"}; /* the native setter and typed keys */
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        char outdir[300], path[400];
        snprintf(outdir, sizeof outdir, "%s/%s", tmpdir, modes[m]);
        int rc = ts_cli_run((const char *[]){"run", TASK, "--mode", modes[m], "--out", outdir, NULL}, out_path,
                            err_path, 240);
        char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
        cr_assert_eq(rc, 0, "%s: eous run: %s%s", modes[m], o, e);
        free(o), free(e);
        snprintf(path, sizeof path, "%s/trace/history-coupon-%s.jsonl", outdir, modes[m]);
        cJSON *lines[MAX_LINES];
        int n = trace_lines(path, lines);
        cr_assert_geq(n, 4, "%s: one trace line per step in %s", modes[m], path);
        /* the agent typed the name on step 1; the page filled the coupon during the wait of step 3 */
        expect_entry(lines, n, modes[m], "Full name", "agent", "Ada Lovelace", 1);
        expect_entry(lines, n, modes[m], "Password", "agent", "[redacted]", 2);
        expect_entry(lines, n, modes[m], "Coupon", "page", "WELCOME10", 3);
        int step;
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(entry_labelled(lines, n, "Password", &step), "secret")),
                  "%s: the password's entry says it is secret", modes[m]);
        for (int i = 0; i < n; i++)
            cJSON_Delete(lines[i]);
        const char *leak = ts_file_with(outdir, SECRET);
        cr_expect_null(leak, "%s: the password's value is in %s", modes[m], leak ? leak : "");
    }
    unsetenv("EOUS_SECRET_HISTPW");
    ts_server_stop(srv);
}

/* tests/agent/test_e2e_secrets.c — {{secret:NAME}} end to end through `eous run` and
 * `eous bench` on real Chromium: the value comes from EOUS_SECRET_PASSWORD or
 * from a 0600 --secrets file, reaches the password field (checked by the
 * task's program_html evaluator, which compares the reversed value so the
 * evaluator itself never prints the secret), and appears in no output:
 * stdout, stderr, results.jsonl, trace/, audit.jsonl, summary.*, report.html,
 * junit.xml.  A 0644 secrets file is refused with exit 2 naming the file and
 * its mode.  A data-agent-secret region holding the same text is shown as
 * [redacted] by `eous observe` in every mode.  Query parameters that carry
 * credentials (a feed key, a signature, and a name a policy file adds) are
 * redacted in views, traces, evidence and reports. */
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

#define SECRET "S3cr3t-Pa55-e2e-7781"
#define PAGE_ONLY_SECRET "PageOnlyToken-4242"
#define TASK EOUS_SOURCE_DIR "/tests/fixtures/e2e/tasks/login_secret.json"

static char tmpdir[256], out_path[300], err_path[300];
static ts_server *SRV;

/* ---- running the CLI ------------------------------------------------------- */

static int run_cli(const char *const *args)
{
    return ts_cli_run(args, out_path, err_path, 240);
}

/* First line of OUT/results.jsonl as JSON (caller deletes). */
static cJSON *result_line(const char *outdir, int expect_lines)
{
    int n = 0;
    cJSON *j = ts_result_line(outdir, &n);
    cr_assert_eq(n, expect_lines, "results.jsonl lines");
    cr_assert_not_null(j, "the first results line is JSON");
    return j;
}

/* ---- suite ----------------------------------------------------------------- */

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "e2e-sec", out_path, err_path, sizeof out_path);
    SRV = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/e2e/pages");
    cr_assert_not_null(SRV);
    setenv("EOUS_SITE_E2E", ts_server_url(SRV), 1);
    unsetenv("EOUS_SECRET_PASSWORD");
    unsetenv("EOUS_SECRET_DOMAINS_PASSWORD");
}

static void teardown(void)
{
    if (SRV)
        ts_server_stop(SRV);
    SRV = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(e2e_secrets, .init = setup, .fini = teardown, .timeout = 600);

/* No output of the run (dir, stdout, stderr) holds needle. */
static void assert_nowhere(const char *dir, const char *needle)
{
    const char *f = ts_file_with(dir, needle);
    cr_assert_null(f, "'%s' leaked into %s", needle, f ? f : "");
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_null(strstr(o, needle), "'%s' leaked into stdout: %s", needle, o);
    cr_assert_null(strstr(e, needle), "'%s' leaked into stderr: %s", needle, e);
    free(o);
    free(e);
}

static void write_secrets_file(const char *path, mode_t mode)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("# test secrets\nPASSWORD=" SECRET "\n", f);
    fclose(f);
    cr_assert_eq(chmod(path, mode), 0);
}

Test(e2e_secrets, env_secret_reaches_the_field_and_no_output)
{
    setenv("EOUS_SECRET_PASSWORD", SECRET, 1);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    int rc = run_cli((const char *[]){"run", TASK, "--mode", "hybrid", "--out", outdir, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "the value must reach the field (program_html); exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    cJSON *r = result_line(outdir, 1);
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect_eq(eous_json_int(r, "steps", -1), 4);
    cJSON_Delete(r);
    char path[512];
    snprintf(path, sizeof path, "%s/trace/e2e-login-hybrid.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_expect_eq(ts_count_lines(tr), 4, "%s", tr);
    cr_expect(strstr(tr, "{{secret:PASSWORD}}"), "the trace keeps the placeholder: %s", tr);
    free(tr);
    snprintf(path, sizeof path, "%s/audit.jsonl", outdir);
    char *au = ts_slurp(path);
    cr_expect_geq(ts_count_lines(au), 3, "every executed action is audited: %s", au);
    cr_expect(strstr(au, "{{secret:PASSWORD}}"), "the audit log keeps the placeholder: %s", au);
    free(au);
    assert_nowhere(outdir, SECRET);
    assert_nowhere(outdir, PAGE_ONLY_SECRET);
}

Test(e2e_secrets, secrets_file_0600_through_bench_both_modes)
{
    char outdir[300], secrets[300];
    snprintf(outdir, sizeof outdir, "%s/bench", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/secrets.env", tmpdir);
    write_secrets_file(secrets, 0600);
    /* the scanner finds what is there (control) */
    cr_assert_not_null(ts_file_with(tmpdir, SECRET), "control: the secrets file holds the value");
    int rc = run_cli((const char *[]){"bench", TASK, "--modes", "hybrid,atomic", "--secrets", secrets, "--out",
                                      outdir, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    char path[512];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    cr_expect_eq(ts_count_lines(res), 2, "%s", res);
    cr_expect_null(strstr(res, "\"status\":\"failed\""), "%s", res);
    free(res);
    const char *reports[] = {"summary.json", "summary.md", "report.html", "junit.xml", "audit.jsonl"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, reports[i]);
        struct stat st;
        cr_expect_eq(stat(path, &st), 0, "%s written", reports[i]);
    }
    assert_nowhere(outdir, SECRET);
    assert_nowhere(outdir, PAGE_ONLY_SECRET);
}

Test(e2e_secrets, secrets_file_0644_is_refused_with_exit_2)
{
    char outdir[300], secrets[300];
    snprintf(outdir, sizeof outdir, "%s/refused", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/secrets-0644.env", tmpdir);
    write_secrets_file(secrets, 0644);
    int rc = run_cli((const char *[]){"run", TASK, "--secrets", secrets, "--out", outdir, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    cr_expect(strstr(e, secrets), "the message names the file: %s", e);
    cr_expect(strstr(e, "0644"), "the message names the mode: %s", e);
    cr_expect_eq(ts_count_lines(e), 1, "one line: %s", e);
    cr_expect_null(strstr(o, SECRET));
    cr_expect_null(strstr(e, SECRET));
    free(o);
    free(e);
    char res_path[400];
    snprintf(res_path, sizeof res_path, "%s/results.jsonl", outdir);
    struct stat st;
    cr_expect_neq(stat(res_path, &st), 0, "no task ran");
    /* bench too */
    snprintf(outdir, sizeof outdir, "%s/refused-bench", tmpdir);
    rc = run_cli((const char *[]){"bench", TASK, "--secrets", secrets, "--out", outdir, NULL});
    e = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "bench exit %d: %s", rc, e);
    cr_expect(strstr(e, "0644"), "%s", e);
    free(e);
}

/* `eous observe` registers no secrets, so this checks the page mark itself. */
static void observe_hides(const char *mode, const char *format)
{
    char url[300];
    snprintf(url, sizeof url, "%s/login.html", ts_server_url(SRV));
    int rc = run_cli((const char *[]){"observe", url, "--mode", mode, "--format", format, NULL});
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "observe %s exit %d\nstdout: %s\nstderr: %s", mode, rc, o, e);
    cr_expect(strstr(o, "Username"), "the page was observed (%s): %s", mode, o);
    cr_expect_null(strstr(o, SECRET), "data-agent-secret text shown in %s mode: %s", mode, o);
    cr_expect_null(strstr(o, PAGE_ONLY_SECRET), "data-agent-secret text shown in %s mode: %s", mode, o);
    cr_expect_null(strstr(o, "Vault code"), "data-agent-secret text shown in %s mode: %s", mode, o);
    cr_expect_null(strstr(e, SECRET));
    free(o);
    free(e);
}

Test(e2e_secrets, observe_atomic_and_html_hide_the_secret_region)
{
    observe_hides("atomic", "text");
    observe_hides("html", "text");
}

Test(e2e_secrets, observe_hybrid_json_hides_the_secret_region)
{
    observe_hides("hybrid", "json");
}

/* ---- credentials in URLs ---------------------------------------------------- */

#define FEED_KEY "FeedKey-3f9a0c77e1"
#define EXPORT_SIG "Sig-0b7d55aa21"
#define PRIVATE_TOKEN "glpat-Pt-77Zx81"

Test(e2e_secrets, credential_query_parameters_never_reach_a_view_or_an_output)
{
    char url[300];
    snprintf(url, sizeof url, "%s/feeds.html", ts_server_url(SRV));
    const char *modes[] = {"atomic", "pruned", "hybrid"};
    for (int i = 0; i < 3; i++) {
        int rc = run_cli((const char *[]){"observe", url, "--mode", modes[i], NULL});
        char *o = ts_slurp(out_path);
        cr_assert_eq(rc, 0, "observe %s: %s", modes[i], o);
        cr_expect(strstr(o, "Atom"), "the page was observed (%s): %s", modes[i], o);
        cr_expect_null(strstr(o, FEED_KEY), "the feed key is in the %s view: %s", modes[i], o);
        cr_expect_null(strstr(o, EXPORT_SIG), "the signature is in the %s view: %s", modes[i], o);
        if (!strcmp(modes[i], "atomic"))
            cr_expect(strstr(o, "key=[redacted]") && strstr(o, "page=2"), "redacted, the rest kept: %s", o);
        free(o);
    }
    /* a run with a policy that names the site's own parameter: nothing of the three anywhere */
    char outdir[300], policy[300];
    snprintf(outdir, sizeof outdir, "%s/feeds", tmpdir);
    snprintf(policy, sizeof policy, "%s/policy.json", tmpdir);
    const char *pj = "{\"redact_params\": [\"private_token\"]}";
    cr_assert_eq(eous_write_file_atomic(policy, pj, strlen(pj), NULL), EOUS_OK);
    int rc = run_cli((const char *[]){"bench", EOUS_SOURCE_DIR "/tests/fixtures/e2e/tasks/feeds.json", "--modes",
                                      "atomic,hybrid", "--screenshots", "every", "--policy", policy, "--out", outdir,
                                      NULL});
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "%s", e);
    free(e);
    char *step = ts_file_with(outdir, "private_token=[redacted]") ? strdup("found") : NULL;
    cr_expect_not_null(step, "the evidence shows the parameter, redacted");
    free(step);
    assert_nowhere(outdir, FEED_KEY);
    assert_nowhere(outdir, EXPORT_SIG);
    assert_nowhere(outdir, PRIVATE_TOKEN);
}

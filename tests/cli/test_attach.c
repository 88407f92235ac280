/* tests/cli/test_attach.c — `--cdp-endpoint URL` (and EOUS_CDP_ENDPOINT): the CLI drives a Chromium
 * already running with a debugging port instead of launching one.  The test launches that browser
 * itself (support/chromium.h) and reads its tabs over DevTools' own HTTP list, so a CLI that ignored
 * the option and launched a browser of its own leaves no trace there and fails.  Bad endpoints are
 * refused with one line before anything starts.  Real eous CLI, chromedriver, headless Chromium and
 * pages on loopback. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/http_int.h"
#include "support/chromium.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define PAGES EOUS_SOURCE_DIR "/tests/fixtures/pages"

static char tmpdir[256], out_path[300], err_path[300], profile[300], endpoint[64];
static ts_server *SRV;
static pid_t chromium;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "attach", out_path, err_path, sizeof out_path);
    ts_cli_own_browser(1); /* the endpoints below are the test's own */
    SRV = ts_server_start(PAGES);
    cr_assert_not_null(SRV);
    setenv("EOUS_SITE_FIXTURE", ts_server_url(SRV), 1);
    snprintf(profile, sizeof profile, "%s/profile", tmpdir);
    cr_assert_eq(mkdir(profile, 0700), 0);
    int port = ts_chromium_launch(profile, &chromium);
    cr_assert_gt(port, 0, "a Chromium with a debugging port starts");
    snprintf(endpoint, sizeof endpoint, "http://127.0.0.1:%d", port);
}

static void teardown(void)
{
    if (chromium > 0)
        ts_chromium_stop(chromium);
    chromium = 0;
    if (SRV)
        ts_server_stop(SRV);
    SRV = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(attach, .init = setup, .fini = teardown, .timeout = 300);

/* The attached browser's page tabs (DevTools' /json/list), as a JSON array (caller deletes). */
static cJSON *page_tabs(void)
{
    eous_http *http = NULL;
    cr_assert_eq(eous_http_new(&http, NULL), EOUS_OK);
    char url[128];
    snprintf(url, sizeof url, "%s/json/list", endpoint);
    eous_http_req req = {.method = "GET", .url = url, .timeout_ms = 10000, .connect_timeout_ms = 5000,
                         .max_response = 1 << 20, .direct = 1};
    eous_http_resp hr;
    eous_err err;
    cr_assert_eq(eous_http_exchange(http, &req, &hr, &err), EOUS_OK, "%s", err.msg);
    cJSON *all = cJSON_Parse(hr.body.data), *pages = cJSON_CreateArray(), *t;
    eous_buf_free(&hr.body);
    eous_http_free(http);
    cr_assert_not_null(all);
    cJSON_ArrayForEach(t, all)
        if (!strcmp(eous_json_str(t, "type") ? eous_json_str(t, "type") : "", "page"))
            cJSON_AddItemToArray(pages, cJSON_Duplicate(t, 1));
    cJSON_Delete(all);
    return pages;
}

/* Whether a page tab of the attached browser shows url. */
static int has_tab_at(const cJSON *tabs, const char *url)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, tabs)
        if (eous_json_str(t, "url") && !strcmp(eous_json_str(t, "url"), url))
            return 1;
    return 0;
}

/* The attached browser's one page tab's id (into id): a command that drove it left one tab, its own
 * fresh one, on a blank page; one that launched a browser of its own left the first tab as it was. */
static void one_blank_tab(char *id, size_t n)
{
    cJSON *tabs = page_tabs();
    cr_assert_eq(cJSON_GetArraySize(tabs), 1, "one page tab");
    const char *url = eous_json_str(tabs->child, "url"), *tid = eous_json_str(tabs->child, "id");
    cr_assert(url && !strcmp(url, "about:blank"), "the tab is left blank: %s", url ? url : "");
    cr_assert_not_null(tid);
    snprintf(id, n, "%s", tid);
    cJSON_Delete(tabs);
}

/* observe and call through --cdp-endpoint work in the running browser, in one fresh tab of their own,
 * and leave it running. */
Test(attach, observe_and_call_drive_the_running_browser_and_leave_it_running)
{
    char url[256], first[128], tab[128], next_tab[128];
    snprintf(url, sizeof url, "%s/form.html", ts_server_url(SRV));
    one_blank_tab(first, sizeof first);
    const char *const observe[] = {"observe", url, "--cdp-endpoint", endpoint, NULL};
    int rc = ts_cli_run(observe, out_path, err_path, 120);
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, ts_slurp(err_path));
    char *out = ts_slurp(out_path);
    cr_assert_not_null(strstr(out, "Sign up"), "the page's view is printed:\n%s", out);
    free(out);
    one_blank_tab(tab, sizeof tab);
    cr_assert_str_neq(tab, first, "observe worked in a fresh tab of the attached browser, its first one closed");
    cr_assert_eq(kill(chromium, 0), 0, "the attached browser still runs after the CLI ended");

    /* the environment's endpoint, as Playwright MCP reads its options: a second command, same browser */
    char next[256];
    snprintf(next, sizeof next, "%s/next.html", ts_server_url(SRV));
    setenv("EOUS_CDP_ENDPOINT", endpoint + strlen("http://"), 1);
    const char *const again[] = {"observe", next, NULL};
    rc = ts_cli_run(again, out_path, err_path, 120);
    unsetenv("EOUS_CDP_ENDPOINT");
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, ts_slurp(err_path));
    out = ts_slurp(out_path);
    cr_assert_not_null(strstr(out, "Second page"), "the second page's view is printed:\n%s", out);
    free(out);
    one_blank_tab(next_tab, sizeof next_tab);
    cr_assert_str_neq(next_tab, tab, "EOUS_CDP_ENDPOINT attached too, in a fresh tab, the earlier command's closed");
}

/* A task run attached: it passes and its folder holds what a launched run's does. */
Test(attach, a_run_attached_passes_and_writes_its_folder)
{
    char outdir[400], first[128];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    one_blank_tab(first, sizeof first);
    const char *const args[] = {"run", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", "--cdp-endpoint",
                                endpoint, "--out", outdir, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 180);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, ts_slurp(out_path), ts_slurp(err_path));
    int n = 0;
    cJSON *line = ts_result_line(outdir, &n);
    cr_assert_not_null(line);
    cr_assert_str_eq(eous_json_str(line, "status"), "passed");
    cJSON_Delete(line);
    char tab[128];
    one_blank_tab(tab, sizeof tab);
    cr_assert_str_neq(tab, first, "the task ran in a fresh tab of the attached browser");
}

/* Bad endpoints: one line naming the value and what was expected, before any browser starts; a port
 * nothing listens on is eous's own probe's words ("no Chromium answers"), not chromedriver's after a minute
 * of retries ("cannot connect to chrome"). */
Test(attach, a_bad_endpoint_is_one_line_and_nothing_starts)
{
    char url[256];
    snprintf(url, sizeof url, "%s/form.html", ts_server_url(SRV));
    static const struct {
        const char *value, *cmd, *expect;
        int code;
    } cases[] = {
        {"http://192.0.2.1:9222", "observe", "expected a loopback host", 2},
        {"127.0.0.1", "observe", "expected http://127.0.0.1:PORT", 2},
        {"127.0.0.1:99999", "call", "expected a port from 1 to 65535", 2},
        {"127.0.0.1:1", "observe", "no Chromium answers at 127.0.0.1:1", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *const obs[] = {"observe", url, "--cdp-endpoint", cases[i].value, NULL};
        const char *const call[] = {"call", url, "c1", "fill", "{}", "--cdp-endpoint", cases[i].value, NULL};
        int rc = ts_cli_run(strcmp(cases[i].cmd, "call") ? obs : call, out_path, err_path, 120);
        char *err = ts_slurp(err_path);
        cr_assert_eq(rc, cases[i].code, "%s: exit %d\n%s", cases[i].value, rc, err);
        cr_assert_not_null(strstr(err, cases[i].expect), "%s:\n%s", cases[i].value, err);
        cr_assert_eq(ts_count_lines(err), 1, "one line:\n%s", err);
        free(err);
    }
    cJSON *tabs = page_tabs();
    cr_assert(!has_tab_at(tabs, url), "nothing reached the running browser");
    cJSON_Delete(tabs);

    /* one browser, one driver of it: several workers or a window of its own cannot share it */
    const char *const bench[] = {"bench", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json", "--workers", "2",
                                 "--cdp-endpoint", endpoint, "--out", tmpdir, NULL};
    const char *const mcp[] = {"mcp", "--cdp-endpoint", endpoint, "--headed", NULL};
    const struct {
        const char *const *args;
        const char *expect;
    } refused[] = {{bench, "--workers 2 with one attached browser"}, {mcp, "not with --headed"}};
    for (size_t i = 0; i < 2; i++) {
        int rc = ts_cli_run(refused[i].args, out_path, err_path, 60);
        char *err = ts_slurp(err_path);
        cr_assert_eq(rc, 2, "%s: exit %d\n%s", refused[i].args[0], rc, err);
        cr_assert_not_null(strstr(err, refused[i].expect), "%s", err);
        free(err);
    }
}

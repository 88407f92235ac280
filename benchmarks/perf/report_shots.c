/* benchmarks/perf/report_shots.c — screenshots of report pages for a reader
 * (benchmarks/results/report_html/), each checked to be no wider than its window:
 *
 *   perf_report_shots ROOT OUT NAME=PATH [NAME=PATH ...]
 *
 * serves ROOT over loopback, opens each PATH under it at 1280 and 800 CSS px wide
 * and writes OUT/NAME-1280.png and OUT/NAME-800.png, each as tall as its page (at
 * most 4000 px).  A page wider than its window is said on stderr and the exit code
 * is 1; bad arguments exit 2.  Not a test: the width check of every CI run is
 * tests/harness/test_report_html.c's compare_page_of_two_runs and summary tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "support/browser.h"
#include "webdriver/wd.h"

/* The page script's answer as text (caller frees), NULL with err set. */
static char *page_text(wd_session *s, const char *script, eous_err *err)
{
    cJSON *v = NULL;
    if (wd_execute(s, script, NULL, &v, err))
        return NULL;
    char *out = cJSON_IsString(v) ? strdup(v->valuestring) : eous_json_print(v);
    cJSON_Delete(v);
    return out;
}

/* 0 written and fitting, 1 written but wider than the window, -1 failed (said on stderr). */
static int shoot(ts_browser *b, const char *page, const char *name, int width, const char *out)
{
    wd_session *s = b->session;
    eous_err err;
    char rel[400], path[600];
    snprintf(rel, sizeof rel, "%s%s", page[0] == '/' ? "" : "/", page);
    if (wd_set_window_rect(s, width, 900, &err) || wd_navigate(s, ts_browser_url(b, rel), &err))
        goto fail;
    char *fit = page_text(s, "const w = document.documentElement.clientWidth;"
                             "return document.documentElement.scrollWidth <= w ? 'fits' : 'scrollWidth ' + "
                             "document.documentElement.scrollWidth + ' > ' + w;", &err);
    char *hs = fit ? page_text(s, "return String(document.documentElement.scrollHeight + "
                                  "(window.outerHeight - window.innerHeight));", &err) : NULL;
    int wide = fit && strcmp(fit, "fits");
    if (wide)
        fprintf(stderr, "report_shots: %s at %d px: %s\n", page, width, fit);
    int height = hs ? atoi(hs) : 0;
    free(fit);
    free(hs);
    if (!height)
        goto fail;
    unsigned char *png = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s-%d.png", out, name, width);
    if (wd_set_window_rect(s, width, height > 4000 ? 4000 : height < 600 ? 600 : height, &err) ||
        wd_screenshot(s, &png, &len, &err) || eous_write_file_atomic(path, png, len, &err)) {
        free(png);
        goto fail;
    }
    free(png);
    return wide;
fail:
    fprintf(stderr, "report_shots: %s at %d px: %s\n", page, width, err.msg);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: perf_report_shots ROOT OUT NAME=PATH [NAME=PATH ...]\n");
        return 2;
    }
    for (int i = 3; i < argc; i++)
        if (!strchr(argv[i], '=') || argv[i][0] == '=') {
            fprintf(stderr, "report_shots: '%s': expected NAME=PATH\n", argv[i]);
            return 2;
        }
    ts_browser b;
    if (ts_browser_start(&b, argv[1])) {
        fprintf(stderr, "report_shots: the browser did not start\n");
        return 1;
    }
    int bad = 0;
    for (int i = 3; i < argc; i++) {
        char name[200];
        const char *eq = strchr(argv[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - argv[i]), argv[i]);
        bad |= shoot(&b, eq + 1, name, 1280, argv[2]) != 0;
        bad |= shoot(&b, eq + 1, name, 800, argv[2]) != 0;
    }
    ts_browser_stop(&b);
    return bad;
}

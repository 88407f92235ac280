/* benchmarks/perf/wd_roundtrip.c — WebDriver costs on this machine: session
 * start, execute/sync round trip, CDP passthrough round trip, element click.
 * Writes benchmarks/results/wd_roundtrip.{json,md} (or argv[1] directory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/browser.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void stats(double *v, int n, double *median, double *p90, double *mean)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    *median = v[n / 2];
    *p90 = v[(n * 9) / 10];
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    *mean = s / n;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : EOUS_SOURCE_DIR "/benchmarks/results";
    ts_server *srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    eous_err err;
    eous_err_clear(&err);
    wd_driver *d = NULL;
    double t0 = eous_now_ms();
    if (!srv || wd_driver_spawn(NULL, &d, &err)) {
        fprintf(stderr, "wd_roundtrip: %s\n", err.msg);
        return 3;
    }
    double driver_ms = eous_now_ms() - t0;
    enum { SESSIONS = 5, N = 200 };
    double sess[SESSIONS], exec[N], cdp[N], click[N / 4];
    wd_session *s = NULL;
    for (int i = 0; i < SESSIONS; i++) {
        t0 = eous_now_ms();
        if (wd_session_new(wd_driver_url(d), NULL, &s, &err)) {
            fprintf(stderr, "wd_roundtrip: %s\n", err.msg);
            return 3;
        }
        sess[i] = eous_now_ms() - t0;
        if (i < SESSIONS - 1)
            wd_session_free(s);
    }
    char url[256];
    snprintf(url, sizeof url, "%s/form.html", ts_server_url(srv));
    wd_navigate(s, url, &err);
    for (int i = 0; i < N; i++) {
        cJSON *v = NULL;
        t0 = eous_now_ms();
        wd_execute(s, "return 1;", NULL, &v, &err);
        exec[i] = eous_now_ms() - t0;
        cJSON_Delete(v);
    }
    for (int i = 0; i < N; i++) {
        cJSON *v = NULL;
        t0 = eous_now_ms();
        wd_cdp(s, "Runtime.evaluate", NULL, &v, NULL);
        cJSON *p = cJSON_Parse("{\"expression\":\"1\"}");
        wd_cdp(s, "Runtime.evaluate", p, &v, &err);
        cJSON_Delete(p);
        cdp[i] = (eous_now_ms() - t0) / 2;
        cJSON_Delete(v);
    }
    char *btn = NULL;
    wd_find(s, "css selector", "#go", &btn, &err);
    for (int i = 0; i < N / 4; i++) {
        t0 = eous_now_ms();
        wd_element_click(s, btn, &err);
        click[i] = eous_now_ms() - t0;
    }
    free(btn);
    double sm, sp, sa, em, ep, ea, cm, cp, ca, km, kp, ka;
    stats(sess, SESSIONS, &sm, &sp, &sa);
    stats(exec, N, &em, &ep, &ea);
    stats(cdp, N, &cm, &cp, &ca);
    stats(click, N / 4, &km, &kp, &ka);
    wd_session_free(s);
    wd_driver_free(d);
    ts_server_stop(srv);

    char path[1024];
    snprintf(path, sizeof path, "%s/wd_roundtrip.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "wd_roundtrip: cannot write %s\n", path);
        return 1;
    }
    fprintf(f,
            "{\"driver_spawn_ms\": %.1f,\n \"session_start_ms\": {\"median\": %.1f, \"p90\": %.1f, \"mean\": %.1f, \"n\": %d},\n"
            " \"execute_sync_ms\": {\"median\": %.2f, \"p90\": %.2f, \"mean\": %.2f, \"n\": %d},\n"
            " \"cdp_execute_ms\": {\"median\": %.2f, \"p90\": %.2f, \"mean\": %.2f, \"n\": %d},\n"
            " \"element_click_ms\": {\"median\": %.2f, \"p90\": %.2f, \"mean\": %.2f, \"n\": %d}}\n",
            driver_ms, sm, sp, sa, SESSIONS, em, ep, ea, N, cm, cp, ca, N, km, kp, ka, N / 4);
    fclose(f);
    snprintf(path, sizeof path, "%s/wd_roundtrip.md", outdir);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "| measure | median ms | p90 ms | mean ms | n |\n|---|---|---|---|---|\n"
                   "| chromedriver spawn to ready | %.1f | | | 1 |\n| session start (headless Chromium) | %.1f | %.1f | %.1f | %d |\n"
                   "| execute/sync round trip | %.2f | %.2f | %.2f | %d |\n| CDP passthrough round trip | %.2f | %.2f | %.2f | %d |\n"
                   "| W3C element click | %.2f | %.2f | %.2f | %d |\n",
                driver_ms, sm, sp, sa, SESSIONS, em, ep, ea, N, cm, cp, ca, N, km, kp, ka, N / 4);
        fclose(f);
    }
    printf("session start median %.1f ms · execute/sync median %.2f ms · CDP median %.2f ms · click median %.2f ms\n",
           sm, em, cm, km);
    return 0;
}

/* benchmarks/perf/vision_shots.c — what the evidence and vision screenshots
 * cost on the Playground's five screens: a masked screenshot (the evidence
 * PNG), and the vision capture (set-of-marks boxes from CDP, overlay, mask,
 * capture) as captured and at --max-image-px 768; marks drawn, PNG bytes,
 * median ms of N runs each.  Writes benchmarks/results/vision_shots.{json,md}
 * (or argv[1] directory) with the git commit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/gitrev.h"
#include "perception/shot.h"
#include "support/browser.h"

#define RUNS 9

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

typedef struct row {
    const char *screen;
    double mask_ms, marked_ms, scaled_ms;
    size_t mask_bytes, marked_bytes, scaled_bytes;
    int marks;
} row;

/* One screen: RUNS of each capture; 0 or -1 with the error printed. */
static int measure(wd_session *s, const perc_obs *obs, row *r)
{
    double a[RUNS], b[RUNS], c[RUNS];
    eous_err err;
    for (int i = 0; i < RUNS; i++) {
        unsigned char *png = NULL;
        size_t len = 0;
        double t0 = eous_now_ms();
        if (perc_screenshot(s, &png, &len, &err))
            goto fail;
        a[i] = eous_now_ms() - t0;
        r->mask_bytes = len;
        free(png);
        perc_marked_shot m;
        t0 = eous_now_ms();
        if (perc_screenshot_marked(s, obs, 0, &m, &err))
            goto fail;
        b[i] = eous_now_ms() - t0;
        r->marked_bytes = m.len;
        r->marks = m.n_marks;
        perc_marked_shot_clear(&m);
        t0 = eous_now_ms();
        if (perc_screenshot_marked(s, obs, 768, &m, &err))
            goto fail;
        c[i] = eous_now_ms() - t0;
        r->scaled_bytes = m.len;
        perc_marked_shot_clear(&m);
    }
    r->mask_ms = median(a, RUNS);
    r->marked_ms = median(b, RUNS);
    r->scaled_ms = median(c, RUNS);
    return 0;
fail:
    fprintf(stderr, "vision_shots: %s: %s\n", r->screen, err.msg);
    return -1;
}

static void write_results(const char *outdir, const row *rows, int n)
{
    char commit[64], path[1024];
    ts_git_commit(commit, sizeof commit);
    snprintf(path, sizeof path, "%s/vision_shots.json", outdir);
    FILE *j = fopen(path, "w");
    snprintf(path, sizeof path, "%s/vision_shots.md", outdir);
    FILE *m = fopen(path, "w");
    if (!j || !m) {
        fprintf(stderr, "vision_shots: cannot write into %s\n", outdir);
        if (j)
            fclose(j);
        if (m)
            fclose(m);
        return;
    }
    fprintf(j, "{\"commit\": \"%s\", \"runs\": %d, \"viewport\": \"headless default\", \"screens\": [\n", commit, RUNS);
    fprintf(m, "Screenshots on the Playground (commit %s, median of %d, headless Chromium, 2 shared cores).\n\n"
               "| screen | masked shot ms | bytes | vision shot ms | marks | bytes | vision at 768 px ms | bytes |\n"
               "|---|---|---|---|---|---|---|---|\n", commit, RUNS);
    for (int i = 0; i < n; i++) {
        const row *r = &rows[i];
        fprintf(j, "  {\"screen\": \"%s\", \"masked_ms\": %.1f, \"masked_bytes\": %zu, \"vision_ms\": %.1f, "
                   "\"marks\": %d, \"vision_bytes\": %zu, \"vision_768_ms\": %.1f, \"vision_768_bytes\": %zu}%s\n",
                r->screen, r->mask_ms, r->mask_bytes, r->marked_ms, r->marks, r->marked_bytes, r->scaled_ms,
                r->scaled_bytes, i + 1 < n ? "," : "");
        fprintf(m, "| %s | %.1f | %zu | %.1f | %d | %zu | %.1f | %zu |\n", r->screen, r->mask_ms, r->mask_bytes,
                r->marked_ms, r->marks, r->marked_bytes, r->scaled_ms, r->scaled_bytes);
    }
    fputs("]}\n", j);
    fclose(j);
    fclose(m);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : EOUS_SOURCE_DIR "/benchmarks/results";
    const char *root = ts_site_root();
    if (!root) {
        fprintf(stderr, "vision_shots: the Playground is not built (benchmarks/grounds/playground/dist)\n");
        return 2;
    }
    ts_browser B;
    if (ts_browser_start(&B, root))
        return 3;
    static const char *screens[] = {"/booking", "/orders", "/users", "/settings", "/apply"};
    row rows[5];
    int n = 0, code = 0;
    for (int i = 0; i < 5 && !code; i++) {
        eous_err err;
        perc_opts o;
        perc_opts_init(&o);
        o.mode = PERC_MODE_VISION;
        perc_obs *obs = NULL;
        memset(&rows[n], 0, sizeof rows[n]);
        rows[n].screen = screens[i];
        if (wd_navigate(B.session, ts_browser_url(&B, screens[i]), &err) || perc_observe(B.session, &o, &obs, &err)) {
            fprintf(stderr, "vision_shots: %s: %s\n", screens[i], err.msg);
            code = 3;
        } else if (measure(B.session, obs, &rows[n]) == 0) {
            printf("%-10s masked %.1f ms · vision %.1f ms (%d marks) · at 768 px %.1f ms\n", screens[i],
                   rows[n].mask_ms, rows[n].marked_ms, rows[n].marks, rows[n].scaled_ms);
            n++;
        } else {
            code = 3;
        }
        perc_obs_free(obs);
    }
    ts_browser_stop(&B);
    if (n)
        write_results(outdir, rows, n);
    return code;
}

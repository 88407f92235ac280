/* benchmarks/perf/perc_views.c — perception costs.
 *
 * 1. On each Playground screen (site built into benchmarks/grounds/playground/dist): bytes
 *    and o200k tokens of the atomic / pruned / hybrid / html views, and
 *    perceive latency split into browser round trips and C time.
 * 2. From the recorded getFullAXTree + DOM snapshot + registry of the biggest
 *    screen, scaled by repetition to ~1k, 10k and 100k nodes: parse + hybrid
 *    build + serialise throughput (MB/s of AX JSON) and peak heap growth.
 * Writes benchmarks/results/perc_views.{json,md} (or argv[1] directory).
 *
 * perc_views --marks [DIR]: what a perceive costs, part by part, and that the
 * page marks read by the providers' script (two round trips on a frameless
 * page) give the same views as a DOMSnapshot (three): on each Playground
 * screen (popups closed and open) and DokuWiki pages (scripts/wiki, started
 * and stopped here), atomic, pruned and hybrid views both ways, compared
 * byte for byte.  Writes DIR/perc_marks.md (default benchmarks/results). */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tokenize.h"
#include "support/gitrev.h"
#include "support/workdir.h"
#include "perception/perc.h"
#include "support/browser.h"

static const char *SCREENS[] = {"/booking", "/users", "/settings", "/orders", "/apply"};
#define N_SCREENS 5
/* how each screen's popup is opened (the same states benchmarks/compare uses) */
static const char *OPEN_CLICKS[N_SCREENS][2] = {
    {"//*[contains(@class,'ci4a-k-datepicker-checkin')]//input", NULL},
    {"//th[contains(., 'Role')]//*[contains(@class,'ant-table-filter-trigger')]", NULL},
    {"//*[@role='tab' and contains(., 'Members')]", "//*[contains(@class,'ci4a-k-select-members')]"},
    {"//*[contains(@class,'ci4a-k-select-order-status')]", NULL},
    {"//*[contains(@class,'ci4a-k-select-country')]", NULL},
};

static int click_xpath(wd_session *s, const char *xpath)
{
    eous_err err;
    char *el = NULL;
    wd_rect r;
    if (wd_find(s, "xpath", xpath, &el, &err) || wd_element_rect(s, el, &r, &err)) {
        fprintf(stderr, "perc_views: cannot open popup (%s): %s\n", xpath, err.msg);
        free(el);
        return -1;
    }
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, wd_element_ref(el));
    cJSON *v = NULL;
    wd_execute(s, "arguments[0].scrollIntoView({block: 'center'}); const r = arguments[0].getBoundingClientRect();"
                  "return [r.x + r.width / 2, r.y + r.height / 2];", args, &v, &err);
    cJSON_Delete(args);
    int rc = -1;
    if (cJSON_GetArraySize(v) == 2)
        rc = wd_click_at(s, cJSON_GetArrayItem(v, 0)->valuedouble, cJSON_GetArrayItem(v, 1)->valuedouble, &err) ? -1 : 0;
    cJSON_Delete(v);
    free(el);
    eous_sleep_ms(600);
    return rc;
}

static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

/* Repeats the node list k times under the root with fresh ids. */
static char *scale_ax(const cJSON *ax, int k, size_t *n_nodes)
{
    const cJSON *nodes = eous_json_arr(ax, "nodes");
    cJSON *out = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(out, "nodes");
    cJSON *root = cJSON_Duplicate(cJSON_GetArrayItem(nodes, 0), 1);
    cJSON *root_kids = cJSON_GetObjectItemCaseSensitive(root, "childIds");
    cJSON_AddItemToArray(arr, root);
    const char *root_id = eous_json_str(root, "nodeId");
    for (int r = 0; r < k; r++) {
        const cJSON *n;
        int first = 1;
        cJSON_ArrayForEach(n, nodes) {
            if (first) { /* the root itself: only its children are copied */
                first = 0;
                const cJSON *c;
                if (r > 0)
                    cJSON_ArrayForEach(c, eous_json_arr(n, "childIds")) {
                        char id[64];
                        snprintf(id, sizeof id, "%s_%d", c->valuestring, r);
                        cJSON_AddItemToArray(root_kids, cJSON_CreateString(id));
                    }
                continue;
            }
            cJSON *copy = cJSON_Duplicate(n, 1);
            if (r > 0) {
                char id[64];
                snprintf(id, sizeof id, "%s_%d", eous_json_str(n, "nodeId"), r);
                cJSON_ReplaceItemInObjectCaseSensitive(copy, "nodeId", cJSON_CreateString(id));
                cJSON *kids = cJSON_GetObjectItemCaseSensitive(copy, "childIds");
                cJSON *c;
                cJSON_ArrayForEach(c, kids) {
                    snprintf(id, sizeof id, "%s_%d", c->valuestring, r);
                    cJSON_SetValuestring(c, id);
                }
                const char *pid = eous_json_str(n, "parentId");
                if (pid && strcmp(pid, root_id)) {
                    snprintf(id, sizeof id, "%s_%d", pid, r);
                    cJSON_ReplaceItemInObjectCaseSensitive(copy, "parentId", cJSON_CreateString(id));
                }
            }
            cJSON_AddItemToArray(arr, copy);
        }
    }
    *n_nodes = (size_t)cJSON_GetArraySize(arr);
    char *s = cJSON_PrintUnformatted(out);
    cJSON_Delete(out);
    return s;
}

/* ---- --marks: the parts of a perceive, and script marks against the snapshot's ---- */

static int cmp_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median and p90 of n timings of one request (cmd: a CDP command, "handles", "exec"). */
static void time_part(wd_session *s, const char *cmd, int n, double *med, double *p90)
{
    double v[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        cJSON *out = NULL, *p = NULL;
        eous_err err;
        double t0 = eous_now_ms();
        if (!strcmp(cmd, "handles"))
            wd_window_handles(s, &out, &err);
        else if (!strcmp(cmd, "exec"))
            wd_execute(s, "return 1;", NULL, &out, &err);
        else {
            if (!strcmp(cmd, "DOMSnapshot.captureSnapshot"))
                p = cJSON_Parse("{\"computedStyles\":[]}");
            wd_cdp(s, cmd, p, &out, &err);
        }
        v[i] = eous_now_ms() - t0;
        cJSON_Delete(out);
        cJSON_Delete(p);
    }
    qsort(v, (size_t)n, sizeof *v, cmp_ms);
    *med = v[n / 2];
    *p90 = v[(n * 9) / 10];
}

typedef struct marks_tally {
    int views, same, trips_script[8], trips_snap[8];
} marks_tally;

static perc_obs *observe_way(wd_session *s, perc_mode mode, int snapshot, const char *what)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    o.snapshot_marks = snapshot;
    perc_obs *obs = NULL;
    eous_err err;
    if (perc_observe(s, &o, &obs, &err)) {
        fprintf(stderr, "perc_views: %s: %s\n", what, err.msg);
        return NULL;
    }
    return obs;
}

/* The page as it is now, in three modes, both ways; a row per mode in md.
 * A page still moving (an animation ending) is not a difference: the
 * snapshot's view is compared with script views taken just before and
 * just after it, and the three are taken again (up to 5 times) until those
 * two agree. */
static void compare_here(wd_session *s, const char *ground, const char *page, FILE *md, marks_tally *t)
{
    static const perc_mode modes[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID};
    char what[256];
    for (int m = 0; m < 3; m++) {
        snprintf(what, sizeof what, "%s %s %s", ground, page, perc_mode_name(modes[m]));
        perc_obs *a = NULL, *b = NULL, *c = NULL;
        int tries = 0, steady = 0;
        for (; tries < 5 && !steady; tries++) {
            perc_obs_free(a);
            perc_obs_free(b);
            perc_obs_free(c);
            a = observe_way(s, modes[m], 0, what);
            b = observe_way(s, modes[m], 1, what);
            c = observe_way(s, modes[m], 0, what);
            if (!a || !b || !c)
                break;
            steady = !strcmp(perc_obs_text(a), perc_obs_text(c));
            if (!steady)
                eous_sleep_ms(300);
        }
        if (a && b && c) {
            int same = steady && !strcmp(perc_obs_text(a), perc_obs_text(b));
            /* node by node too: what views do not print (a hidden node's children) actions read */
            if (same && perc_obs_n_nodes(a) == perc_obs_n_nodes(b)) {
                for (size_t i = 0; i < perc_obs_n_nodes(a) && same; i++) {
                    const perc_node *x = perc_obs_node(a, i), *y = perc_obs_node(b, i);
                    same = x->backend_id == y->backend_id && x->hidden == y->hidden && x->secret == y->secret &&
                           x->component == y->component && x->component_root == y->component_root;
                    if (!same)
                        fprintf(stderr, "perc_views: %s: node %zu (%s '%s') is marked otherwise\n", what, i,
                                x->role ? x->role : "", x->name ? x->name : "");
                }
            }
            unsigned ta = perc_obs_timings(a)->round_trips, tb = perc_obs_timings(b)->round_trips;
            t->views++;
            t->same += same;
            t->trips_script[ta < 8 ? ta : 7]++;
            t->trips_snap[tb < 8 ? tb : 7]++;
            fprintf(md, "| %s | %s | %s | %zu | %zu | %s | %u | %u | %.1f | %.1f |\n", ground, page,
                    perc_mode_name(modes[m]), perc_obs_text_len(a), perc_obs_n_components(a),
                    same ? (tries > 1 ? "yes (page still moving at first)" : "yes") : "**no**", ta, tb,
                    perc_obs_timings(a)->total_ms, perc_obs_timings(b)->total_ms);
            if (!same)
                fprintf(stderr, "perc_views: %s: the views differ%s\n--- script marks\n%s\n--- snapshot marks\n%s\n",
                        what, steady ? "" : " (the page never held still)", perc_obs_text(a), perc_obs_text(b));
        }
        perc_obs_free(a);
        perc_obs_free(b);
        perc_obs_free(c);
    }
}

static int run_marks(const char *outdir)
{
    const char *site = ts_site_root();
    if (!site) {
        fprintf(stderr, "perc_views: the Playground is not built (scripts/build-site)\n");
        return 2;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/perc_marks.md", outdir);
    FILE *md = fopen(path, "w");
    if (!md) {
        fprintf(stderr, "perc_views: cannot write %s\n", path);
        return 2;
    }
    ts_browser b;
    if (ts_browser_start(&b, site)) {
        fclose(md);
        return 3;
    }
    eous_err err;
    eous_err_clear(&err);
    marks_tally t;
    memset(&t, 0, sizeof t);
    char commit[64], load[64];
    ts_git_commit(commit, sizeof commit);
    ts_load_average(load, sizeof load);
    fprintf(md, "# Perceive: its parts, and the page marks read by the providers' script\n\n"
                "Commit %s; `perf_perc_views --marks` (benchmarks/perf/perc_views.c); 1-minute load average %s "
                "at the start (milliseconds are loaded figures; round trips and identity are exact).\n\n",
            commit, load);
    fprintf(md, "## The parts of a perceive (Playground /booking, %d requests each)\n\n"
                "| request | what it is for | median ms | p90 ms |\n|---|---|---|---|\n", 30);
    wd_navigate(b.session, ts_browser_url(&b, "/booking"), &err);
    eous_sleep_ms(500);
    static const char *const PARTS[][2] = {
        {"exec", "one execute/sync doing nothing: the floor of a script round trip"},
        {"handles", "GET /window/handles: the open tabs (act_observe, before perceiving)"},
        {"DOMSnapshot.captureSnapshot", "the page marks (now only with frames, in the html mode, or past 400 marked elements)"},
        {"Accessibility.getFullAXTree", "the accessibility tree of the main frame"},
        {"Page.getFrameTree", "child frames (only when the snapshot has more than one document)"},
    };
    for (size_t i = 0; i < sizeof PARTS / sizeof *PARTS; i++) {
        double med, p90;
        time_part(b.session, PARTS[i][0], 30, &med, &p90);
        fprintf(md, "| %s | %s | %.1f | %.1f |\n", PARTS[i][0], PARTS[i][1], med, p90);
    }
    fprintf(md, "\n## Page marks from the providers' script vs a DOMSnapshot, view by view\n\n"
                "| ground | page | mode | bytes | components | identical (view and every node's marks) | round trips (script) | round trips "
                "(snapshot) | ms (script) | ms (snapshot) |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int st = 0; st < N_SCREENS * 2; st++) {
        int sc = st / 2, open = st % 2;
        if (!open) {
            wd_navigate(b.session, ts_browser_url(&b, SCREENS[sc]), &err);
            eous_sleep_ms(500);
        } else if (click_xpath(b.session, OPEN_CLICKS[sc][0]) ||
                   (OPEN_CLICKS[sc][1] && click_xpath(b.session, OPEN_CLICKS[sc][1]))) {
            continue;
        }
        char page[128];
        snprintf(page, sizeof page, "%s%s", SCREENS[sc], open ? " (popup open)" : "");
        compare_here(b.session, "playground", page, md, &t);
    }
    /* DokuWiki: a private instance for the length of the run */
    char tmp[256], dir[300], secrets[300], url[256] = "", cmd[1024];
    ts_workdir_make(tmp, sizeof tmp, "perc-marks-wiki", NULL, NULL, 0);
    snprintf(dir, sizeof dir, "%s/wiki", tmp);
    snprintf(secrets, sizeof secrets, "%s/secrets.env", tmp);
    snprintf(cmd, sizeof cmd, "bash %s/scripts/wiki start --dir %s --secrets %s", EOUS_SOURCE_DIR, dir, secrets);
    FILE *p = popen(cmd, "r");
    int wiki = p && fgets(url, sizeof url, p);
    if (p && pclose(p) != 0)
        wiki = 0;
    url[strcspn(url, "\n")] = '\0';
    static const char *const WIKI_PAGES[] = {"/doku.php?id=start", "/doku.php?id=start&do=edit",
                                             "/doku.php?id=start&do=login", "/doku.php?do=search&q=wiki",
                                             "/doku.php?id=start&do=index", "/doku.php?id=start&do=recent"};
    for (size_t i = 0; wiki && i < sizeof WIKI_PAGES / sizeof *WIKI_PAGES; i++) {
        char u[512];
        snprintf(u, sizeof u, "%s%s", url, WIKI_PAGES[i]);
        if (wd_navigate(b.session, u, &err)) {
            fprintf(stderr, "perc_views: %s: %s\n", u, err.msg);
            continue;
        }
        compare_here(b.session, "dokuwiki", WIKI_PAGES[i], md, &t);
    }
    if (!wiki)
        fprintf(stderr, "perc_views: DokuWiki did not start (scripts/wiki); compared on the Playground only\n");
    snprintf(cmd, sizeof cmd, "bash %s/scripts/wiki stop %s >/dev/null 2>&1", EOUS_SOURCE_DIR, dir);
    if (wiki && system(cmd) != 0)
        fprintf(stderr, "perc_views: scripts/wiki stop failed\n");
    ts_browser_stop(&b);
    fprintf(md, "\n%d of %d views identical.  Round trips per perceive (perc_observe, without the tab list):", t.same,
            t.views);
    for (int i = 0; i < 8; i++)
        if (t.trips_script[i] || t.trips_snap[i])
            fprintf(md, " %d: %d views with script marks, %d with the snapshot;", i, t.trips_script[i], t.trips_snap[i]);
    fprintf(md, "\n");
    fclose(md);
    printf("wrote %s (%d of %d views identical)\n", path, t.same, t.views);
    return t.same == t.views ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--marks"))
        return run_marks(argc > 2 ? argv[2] : EOUS_SOURCE_DIR "/benchmarks/results");
    const char *outdir = argc > 1 ? argv[1] : EOUS_SOURCE_DIR "/benchmarks/results";
    const char *site = ts_site_root();
    if (!site) {
        fprintf(stderr, "perc_views: the Playground is not built (scripts/build-site)\n");
        return 2;
    }
    ts_browser b;
    if (ts_browser_start(&b, site))
        return 3;
    eous_err err;
    eous_err_clear(&err);
    cJSON *report = cJSON_CreateObject();
    cJSON *screens = cJSON_AddArrayToObject(report, "screens");
    FILE *md = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/perc_views.md", outdir);
    md = fopen(path, "w");
    if (md)
        fprintf(md, "## Views per Playground screen\n\n| screen | mode | bytes | tokens (o200k) | AX nodes | components | perceive ms | browser ms | C ms | C share |\n|---|---|---|---|---|---|---|---|---|---|\n");
    char *big_ax = NULL, *big_dom = NULL, *big_reg = NULL;
    size_t big_nodes = 0;
    for (int st = 0; st < N_SCREENS * 2; st++) {
        int s = st / 2, open = st % 2;
        if (!open) {
            wd_navigate(b.session, ts_browser_url(&b, SCREENS[s]), &err);
            eous_sleep_ms(500);
        } else {
            if (click_xpath(b.session, OPEN_CLICKS[s][0]) ||
                (OPEN_CLICKS[s][1] && click_xpath(b.session, OPEN_CLICKS[s][1])))
                continue;
        }
        size_t atomic_bytes = 0;
        for (int m = 0; m < 4; m++) {
            perc_opts o;
            perc_opts_init(&o);
            o.mode = (perc_mode)m;
            perc_obs *obs = NULL;
            /* warm once, measure the second */
            perc_observe(b.session, &o, &obs, &err);
            perc_obs_free(obs);
            obs = NULL;
            if (perc_observe(b.session, &o, &obs, &err)) {
                fprintf(stderr, "perc_views: %s: %s\n", SCREENS[s], err.msg);
                continue;
            }
            const perc_timings *t = perc_obs_timings(obs);
            size_t bytes = perc_obs_text_len(obs);
            size_t tokens = eous_tok_count_o200k(perc_obs_text(obs), bytes); /* o200k (eous's tokenizer) */
            if (m == 0)
                atomic_bytes = bytes;
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "screen", SCREENS[s]);
            cJSON_AddStringToObject(j, "state", open ? "popup open" : "closed");
            cJSON_AddStringToObject(j, "mode", perc_mode_name((perc_mode)m));
            cJSON_AddNumberToObject(j, "bytes", (double)bytes);
            cJSON_AddNumberToObject(j, "tokens_o200k", (double)tokens);
            cJSON_AddNumberToObject(j, "ax_nodes", (double)perc_obs_n_nodes(obs));
            cJSON_AddNumberToObject(j, "components", (double)perc_obs_n_components(obs));
            cJSON_AddNumberToObject(j, "perceive_ms", t->total_ms);
            cJSON_AddNumberToObject(j, "browser_ms", t->browser_ms);
            cJSON_AddNumberToObject(j, "c_ms", t->c_ms);
            cJSON_AddNumberToObject(j, "vs_atomic", atomic_bytes ? (double)bytes / (double)atomic_bytes : 1);
            cJSON_AddItemToArray(screens, j);
            if (md)
                fprintf(md, "| %s%s | %s | %zu | %zu | %zu | %zu | %.1f | %.1f | %.2f | %.1f%% |\n", SCREENS[s],
                        open ? " (popup open)" : "",
                        perc_mode_name((perc_mode)m), bytes, tokens, perc_obs_n_nodes(obs),
                        perc_obs_n_components(obs), t->total_ms, t->browser_ms, t->c_ms,
                        t->total_ms > 0 ? t->c_ms / t->total_ms * 100 : 0);
            /* text for the tokenizer comparison script */
            char tpath[1024];
            snprintf(tpath, sizeof tpath, "%s/views/%s%s.%s.txt", outdir, SCREENS[s] + 1, open ? "-open" : "",
                     perc_mode_name((perc_mode)m));
            char vdir[1024];
            snprintf(vdir, sizeof vdir, "%s/views", outdir);
            eous_mkdirs(vdir, 0755, NULL);
            FILE *tf = fopen(tpath, "w");
            if (tf) {
                fputs(perc_obs_text(obs), tf);
                fclose(tf);
            }
            perc_obs_free(obs);
        }
        if (open)
            continue;
        /* record the raw inputs of the biggest screen for the throughput runs */
        cJSON *ax = NULL, *dom = NULL, *reg = NULL;
        cJSON *sp = cJSON_Parse("{\"computedStyles\":[]}");
        if (!wd_cdp(b.session, "Accessibility.getFullAXTree", NULL, &ax, &err) &&
            !wd_cdp(b.session, "DOMSnapshot.captureSnapshot", sp, &dom, &err) &&
            !wd_execute(b.session, "return JSON.stringify(window.__ci4a__ ? window.__ci4a__.getStatus() : {});", NULL,
                        &reg, &err)) {
            size_t n = (size_t)cJSON_GetArraySize(eous_json_arr(ax, "nodes"));
            if (n > big_nodes) {
                big_nodes = n;
                free(big_ax);
                free(big_dom);
                free(big_reg);
                big_ax = cJSON_PrintUnformatted(ax);
                big_dom = cJSON_PrintUnformatted(dom);
                big_reg = strdup(cJSON_IsString(reg) ? reg->valuestring : "{}");
            }
        }
        cJSON_Delete(sp);
        cJSON_Delete(ax);
        cJSON_Delete(dom);
        cJSON_Delete(reg);
    }
    ts_browser_stop(&b);

    /* throughput on scaled trees */
    cJSON *tp = cJSON_AddArrayToObject(report, "throughput");
    if (md)
        fprintf(md, "\n## Parse + hybrid build + serialise (recorded %zu-node screen, scaled)\n\n| AX nodes | AX JSON MB | ms | MB/s | heap growth / input |\n|---|---|---|---|---|\n",
                big_nodes);
    cJSON *ax = big_ax ? cJSON_Parse(big_ax) : NULL;
    int targets[] = {1000, 10000, 100000};
    for (int i = 0; i < 3 && ax && big_nodes; i++) {
        int k = (int)(targets[i] / big_nodes) + 1;
        size_t n_nodes = 0;
        char *json = scale_ax(ax, k, &n_nodes);
        size_t len = strlen(json);
        perc_opts o;
        perc_opts_init(&o);
        o.mode = PERC_MODE_HYBRID;
        int reps = targets[i] >= 100000 ? 3 : targets[i] >= 10000 ? 10 : 50;
        double best = 1e18;
        size_t peak_growth = 0;
        for (int r = 0; r < reps; r++) {
            size_t before = heap_in_use();
            double t0 = eous_now_ms();
            perc_obs *obs = NULL;
            if (perc_build(json, len, big_dom, strlen(big_dom), big_reg, strlen(big_reg), "http://bench/", &o, &obs,
                           &err)) {
                fprintf(stderr, "perc_views: build: %s\n", err.msg);
                break;
            }
            double dt = eous_now_ms() - t0;
            size_t after = heap_in_use();
            if (after - before > peak_growth && after > before)
                peak_growth = after - before;
            perc_obs_free(obs);
            if (dt < best)
                best = dt;
        }
        double mbps = (double)len / 1e6 / (best / 1000.0);
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "ax_nodes", (double)n_nodes);
        cJSON_AddNumberToObject(j, "ax_json_bytes", (double)len);
        cJSON_AddNumberToObject(j, "best_ms", best);
        cJSON_AddNumberToObject(j, "mb_per_s", mbps);
        cJSON_AddNumberToObject(j, "heap_growth_ratio", (double)peak_growth / (double)len);
        cJSON_AddItemToArray(tp, j);
        if (md)
            fprintf(md, "| %zu | %.2f | %.1f | %.0f | %.2fx |\n", n_nodes, (double)len / 1e6, best, mbps,
                    (double)peak_growth / (double)len);
        free(json);
    }
    cJSON_Delete(ax);
    free(big_ax);
    free(big_dom);
    free(big_reg);
    if (md)
        fclose(md);
    char *out = cJSON_Print(report);
    snprintf(path, sizeof path, "%s/perc_views.json", outdir);
    eous_write_file_atomic(path, out, strlen(out), &err);
    free(out);
    cJSON_Delete(report);
    printf("wrote %s/perc_views.{json,md}\n", outdir);
    return 0;
}

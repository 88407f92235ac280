/* benchmarks/perf/act_latency.c — per action kind, the latency of the
 * semantic path and of the atomic path on the same widgets (Playground antd
 * widgets when benchmarks/grounds/playground/dist is built, else the actions fixture), and
 * the C-side validation + dispatch overhead.  A type runs a third way beside
 * them, key by key (act_exec_opts.type_by_key), against the default one edit
 * and a real last key.
 *
 * usage: perf_act_latency [ROUNDS [DIR]]   (default 10, benchmarks/results)
 * writes DIR/act_latency.json and act_latency.md.  Round trips are the
 * requests to the driver an action and its settle made (exact, unlike ms). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "actions/validate.h"
#include "support/browser.h"
#include "support/gitrev.h"

#define MAX_ROUNDS 100

typedef struct series {
    const char *kind, *path, *widget;
    double total[MAX_ROUNDS], act[MAX_ROUNDS], settle[MAX_ROUNDS], trips[MAX_ROUNDS];
    int n, failures;
    char last_error[256];
} series;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, int n, double p)
{
    if (n <= 0)
        return 0;
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp);
    int i = (int)(p * (n - 1) + 0.5);
    return s[i];
}

static ts_browser B;
static act_exec *X, *X_keys; /* X_keys: every typed character a key press */

static perc_obs *observe(perc_mode mode)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    perc_obs *obs = NULL;
    eous_err err;
    if (perc_observe(B.session, &o, &obs, &err) != EOUS_OK) {
        fprintf(stderr, "observe: %s\n", err.msg);
        return NULL;
    }
    return obs;
}

/* Runs a sequence of script steps as one logical action; times only act_execute. */
static void run_with(act_exec *x, series *s, const char *const *steps, const char *reset_url)
{
    eous_err err;
    if (reset_url && wd_navigate(B.session, reset_url, &err) == EOUS_OK) {
        double ms;
        act_settle(x, &ms, NULL);
    }
    double total = 0, act = 0, settle = 0, trips = 0;
    int ok = 1;
    for (const char *const *st = steps; *st && ok; st++) {
        perc_obs *obs = observe(strstr(*st, "\"call\"") ? PERC_MODE_HYBRID : PERC_MODE_ATOMIC);
        cJSON *j = cJSON_Parse(*st);
        act_action a;
        act_action_init(&a);
        if (!obs || !j || act_parse_script_step(j, &a, &err) != EOUS_OK) {
            ok = 0;
        } else {
            act_result r;
            double t0 = eous_now_ms();
            unsigned long rt = wd_session_round_trips(B.session);
            eous_rc rc = act_execute(x, obs, &a, &r, &err);
            total += eous_now_ms() - t0;
            trips += (double)(wd_session_round_trips(B.session) - rt);
            act += r.act_ms;
            settle += r.settle_ms;
            if (rc) {
                ok = 0;
                snprintf(s->last_error, sizeof s->last_error, "%s", err.msg);
            }
            act_result_clear(&r);
        }
        act_action_clear(&a);
        cJSON_Delete(j);
        perc_obs_free(obs);
    }
    if (!ok) {
        s->failures++;
        return;
    }
    s->total[s->n] = total;
    s->act[s->n] = act;
    s->settle[s->n] = settle;
    s->trips[s->n] = trips;
    s->n++;
}

static void run(series *s, const char *const *steps, const char *reset_url)
{
    run_with(X, s, steps, reset_url);
}

/* C-side cost of validate + dispatch for a call rejected before the page:
 * no browser round trip is involved, so this is pure C. */
static void c_overhead(double *validate_us, double *dispatch_us)
{
    cJSON *tools = cJSON_Parse("[\"setValue\", \"clear\"]");
    cJSON *meta = cJSON_Parse("{\"setValue\": {\"params\": {\"date\": {\"type\": \"string\", \"format\": \"YYYY-MM-DD\","
                              " \"required\": true, \"min\": \"2025-01-01\", \"max\": \"2026-12-31\","
                              " \"disabled\": [\"2025-12-24\", \"2025-12-25\", \"2025-12-31\", \"2026-01-01\"]}}}}");
    cJSON *good = cJSON_Parse("{\"date\": \"2025-10-01\"}");
    const int N = 200000;
    eous_err err;
    double t0 = eous_now_ms();
    for (int i = 0; i < N; i++)
        act_validate_meta(tools, meta, "setValue", good, &err);
    *validate_us = (eous_now_ms() - t0) * 1000.0 / N;
    /* dispatch: parse a model tool call + validate + format for the trace */
    t0 = eous_now_ms();
    for (int i = 0; i < N / 10; i++) {
        act_action a;
        act_action_init(&a);
        act_parse_tool_call("call", "{\"k\": \"c3\", \"tool\": \"setValue\", \"params\": {\"date\": \"2025-10-01\"}}", &a,
                            &err);
        act_validate_meta(tools, meta, a.tool, a.params, &err);
        char *t = act_format(&a);
        free(t);
        act_action_clear(&a);
    }
    *dispatch_us = (eous_now_ms() - t0) * 1000.0 / (N / 10);
    cJSON_Delete(tools);
    cJSON_Delete(meta);
    cJSON_Delete(good);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    const char *dir = argc > 2 ? argv[2] : EOUS_SOURCE_DIR "/benchmarks/results";
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 10;
    char commit[64], load[64];
    ts_git_commit(commit, sizeof commit);
    ts_load_average(load, sizeof load);
    double v_us = 0, d_us = 0;
    c_overhead(&v_us, &d_us);
    const char *site = ts_site_root();
    if (ts_browser_start(&B, site ? site : EOUS_SOURCE_DIR "/tests/fixtures/actions") != 0)
        return 3;
    eous_err err;
    act_policy *pol = NULL;
    act_policy_new(&pol, &err);
    act_policy_allow_origin(pol, ts_browser_url(&B, "/"), &err);
    act_policy_set_interactive(pol, 0);
    act_exec_opts by_key;
    act_exec_opts_init(&by_key);
    by_key.type_by_key = 1;
    if (act_exec_new(B.session, NULL, &X, &err) != EOUS_OK || act_exec_new(B.session, &by_key, &X_keys, &err) != EOUS_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 3;
    }
    act_exec_set_policy(X, pol);
    act_exec_set_policy(X_keys, pol);

    series S[14];
    memset(S, 0, sizeof S);
    int ns = 0;
    char page[2048];
    if (site) {
        snprintf(page, sizeof page, "%s", ts_browser_url(&B, "/booking"));
        static const char *const sem_type[] = {
            "{\"call\": \"input-guest-name\", \"tool\": \"setValue\", \"params\": {\"text\": \"Ada Lovelace\"}}", NULL};
        static const char *const atom_type[] = {"{\"type\": \"textbox '* Guest name'\", \"text\": \"Ada Lovelace\"}",
                                                NULL};
        static const char *const sem_sel[] = {
            "{\"call\": \"select-room-type\", \"tool\": \"setValue\", \"params\": {\"value\": \"deluxe\"}}", NULL};
        static const char *const atom_sel[] = {"{\"select\": \"combobox '* Room type'\", \"option\": \"Deluxe\"}",
                                               NULL};
        static const char *const sem_cas[] = {
            "{\"call\": \"cascader-destination\", \"tool\": \"setValue\", \"params\": {\"path\": [\"Italy\", \"Venice\"]}}",
            NULL};
        static const char *const atom_cas[] = {
            "{\"select\": \"combobox '* Destination'\", \"option\": \"Italy / Venice\"}", NULL};
        static const char *const sem_date[] = {
            "{\"call\": \"datepicker-checkout\", \"tool\": \"setValue\", \"params\": {\"date\": \"2026-06-10\"}}", NULL};
        static const char *const atom_date[] = {
            "{\"click\": \"css=.ci4a-k-datepicker-checkin input\"}",
            "{\"click\": \"css=.ci4a-o-datepicker-checkin td.ant-picker-cell-in-view:not(.ant-picker-cell-disabled)\"}",
            NULL};
        static const char *const sem_click[] = {"{\"call\": \"button-reset-booking\", \"tool\": \"click\"}", NULL};
        static const char *const atom_click[] = {"{\"click\": \"button 'Reset form'\"}", NULL};
        struct {
            const char *kind, *widget;
            const char *const *sem, *const *atom;
        } K[] = {
            {"type", "antd Input 'Guest name'", sem_type, atom_type},
            {"select", "antd Select 'Room type'", sem_sel, atom_sel},
            {"cascader", "antd Cascader 'Destination'", sem_cas, atom_cas},
            {"date", "antd DatePicker (semantic: check-out setValue; atomic: open + click a day)", sem_date, atom_date},
            {"click", "antd Button 'Reset form'", sem_click, atom_click},
        };
        for (size_t k = 0; k < sizeof K / sizeof *K; k++) {
            series *se = &S[ns++], *sa = &S[ns++];
            /* a type also key by key, in the same rounds */
            series *sk = K[k].atom == atom_type ? &S[ns++] : NULL;
            se->kind = sa->kind = K[k].kind;
            se->widget = sa->widget = K[k].widget;
            se->path = "semantic";
            sa->path = "atomic";
            if (sk) {
                sk->kind = K[k].kind;
                sk->widget = K[k].widget;
                sk->path = "atomic, key by key";
            }
            for (int i = 0; i < rounds; i++) {
                run(se, K[k].sem, page);
                run(sa, K[k].atom, page);
                if (sk)
                    run_with(X_keys, sk, K[k].atom, page);
            }
        }
    } else {
        snprintf(page, sizeof page, "%s", ts_browser_url(&B, "/index.html"));
        static const char *const sem[] = {
            "{\"call\": \"dp-checkin\", \"tool\": \"setValue\", \"params\": {\"date\": \"2026-03-14\"}}", NULL};
        static const char *const atom[] = {"{\"type\": \"textbox 'Full name'\", \"text\": \"Ada\"}", NULL};
        series *se = &S[ns++], *sa = &S[ns++];
        se->kind = sa->kind = "set a value";
        se->widget = "fixture datepicker";
        sa->widget = "fixture textbox";
        se->path = "semantic";
        sa->path = "atomic";
        for (int i = 0; i < rounds; i++) {
            run(se, sem, page);
            run(sa, atom, page);
        }
    }

    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "commit", commit);
    cJSON_AddStringToObject(out, "load_start", load);
    cJSON_AddStringToObject(out, "site", site ? "playground" : "fixture");
    cJSON_AddNumberToObject(out, "rounds", rounds);
    cJSON_AddNumberToObject(out, "validate_us", v_us);
    cJSON_AddNumberToObject(out, "parse_validate_format_us", d_us);
    cJSON *arr = cJSON_AddArrayToObject(out, "series");
    eous_buf md;
    eous_buf_init(&md, 0);
    eous_buf_printf(&md, NULL,
                    "# Action latency (%s, %d rounds, median / p90 ms)\n\n"
                    "Commit %s, `perf_act_latency` (benchmarks/perf/act_latency.c); 1-minute load average %s at the "
                    "start. Each round runs every path of a kind in turn on a freshly loaded page. \"atomic\" types "
                    "plain text of 4+ characters as one edit and its last character as keys; \"atomic, key by key\" "
                    "sends every character as a key press (`act_exec_opts.type_by_key`).\n\n"
                    "C-side: validate %.2f µs per call; parse + validate + format %.2f µs per call.\n\n"
                    "| kind | path | widget | total | act | settle | round trips | failures |\n|---|---|---|---|---|---|---|---|\n",
                    site ? "Playground antd widgets" : "actions fixture", rounds, commit, load, v_us, d_us);
    for (int i = 0; i < ns; i++) {
        series *s = &S[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", s->kind);
        cJSON_AddStringToObject(o, "path", s->path);
        cJSON_AddStringToObject(o, "widget", s->widget);
        cJSON_AddNumberToObject(o, "n", s->n);
        cJSON_AddNumberToObject(o, "failures", s->failures);
        cJSON_AddNumberToObject(o, "total_median_ms", pct(s->total, s->n, 0.5));
        cJSON_AddNumberToObject(o, "total_p90_ms", pct(s->total, s->n, 0.9));
        cJSON_AddNumberToObject(o, "act_median_ms", pct(s->act, s->n, 0.5));
        cJSON_AddNumberToObject(o, "settle_median_ms", pct(s->settle, s->n, 0.5));
        cJSON_AddNumberToObject(o, "round_trips_median", pct(s->trips, s->n, 0.5));
        if (s->failures)
            cJSON_AddStringToObject(o, "last_error", s->last_error);
        cJSON_AddItemToArray(arr, o);
        eous_buf_printf(&md, NULL, "| %s | %s | %s | %.1f / %.1f | %.1f | %.1f | %.0f | %d%s%s |\n", s->kind, s->path,
                        s->widget, pct(s->total, s->n, 0.5), pct(s->total, s->n, 0.9), pct(s->act, s->n, 0.5),
                        pct(s->settle, s->n, 0.5), pct(s->trips, s->n, 0.5), s->failures, s->failures ? ": " : "",
                        s->failures ? s->last_error : "");
    }
    char *json = cJSON_Print(out);
    cJSON_Delete(out);
    eous_mkdirs(dir, 0755, NULL);
    int rc = 0;
    char jpath[1024], mpath[1024];
    snprintf(jpath, sizeof jpath, "%s/act_latency.json", dir);
    snprintf(mpath, sizeof mpath, "%s/act_latency.md", dir);
    if (eous_write_file_atomic(jpath, json, strlen(json), &err) || eous_write_file_atomic(mpath, md.data, md.len, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        rc = 1;
    }
    fputs(md.data, stdout);
    free(json);
    eous_buf_free(&md);
    act_exec_free(X);
    act_exec_free(X_keys);
    act_policy_free(pol);
    ts_browser_stop(&B);
    return rc;
}

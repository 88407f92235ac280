/* agent/report.c — see report.h. */
#define _GNU_SOURCE
#include "agent/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#define MAX_MODES 4
#define MAX_TIERS 4
static const char *TIERS[MAX_TIERS] = {"short", "medium", "long", "all"};

typedef struct agg {
    int n, passed, infra, skipped, needs_judge; /* needs_judge: neither passed nor failed */
    double steps, tokens, obs_tokens, wall_ms, perceive_ms, act_ms, settle_ms, plan_ms;
    double semantic, atomic, fallbacks;
} agg;

typedef struct mode_stats {
    char name[16];
    agg tier[MAX_TIERS];
} mode_stats;

static void add(agg *a, const cJSON *r)
{
    const char *status = eous_json_str(r, "status");
    a->n++;
    if (status && !strcmp(status, "passed"))
        a->passed++;
    if (status && !strcmp(status, "infra"))
        a->infra++;
    if (status && !strcmp(status, "skipped"))
        a->skipped++;
    if (status && !strcmp(status, "needs_judge"))
        a->needs_judge++;
    a->steps += eous_json_num(r, "steps", 0);
    a->tokens += eous_json_num(r, "prompt_tokens", 0) + eous_json_num(r, "completion_tokens", 0);
    a->obs_tokens += eous_json_num(r, "obs_tokens", 0);
    a->wall_ms += eous_json_num(r, "wall_ms", 0);
    a->perceive_ms += eous_json_num(r, "perceive_ms", 0);
    a->plan_ms += eous_json_num(r, "plan_ms", 0);
    a->act_ms += eous_json_num(r, "act_ms", 0);
    a->settle_ms += eous_json_num(r, "settle_ms", 0);
    a->semantic += eous_json_num(r, "semantic_actions", 0);
    a->atomic += eous_json_num(r, "atomic_actions", 0);
    a->fallbacks += eous_json_num(r, "fallbacks", 0);
}

static double avg(double sum, int n)
{
    return n ? sum / n : 0.0;
}

static cJSON *agg_json(const agg *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tasks", a->n);
    cJSON_AddNumberToObject(o, "passed", a->passed);
    cJSON_AddNumberToObject(o, "infra_errors", a->infra);
    cJSON_AddNumberToObject(o, "needs_judge", a->needs_judge);
    /* of the tasks with a verdict: one waiting for a judge is neither a pass nor a failure */
    cJSON_AddNumberToObject(o, "success_rate", avg(a->passed, a->n - a->needs_judge));
    cJSON_AddNumberToObject(o, "avg_steps", avg(a->steps, a->n));
    cJSON_AddNumberToObject(o, "avg_model_tokens", avg(a->tokens, a->n));
    cJSON_AddNumberToObject(o, "avg_obs_tokens_per_task", avg(a->obs_tokens, a->n));
    cJSON_AddNumberToObject(o, "avg_obs_tokens_per_step", a->steps ? a->obs_tokens / a->steps : 0);
    cJSON_AddNumberToObject(o, "avg_task_s", avg(a->wall_ms, a->n) / 1000.0);
    cJSON_AddNumberToObject(o, "avg_step_ms", a->steps ? a->wall_ms / a->steps : 0);
    cJSON_AddNumberToObject(o, "perceive_ms_per_step", a->steps ? a->perceive_ms / a->steps : 0);
    cJSON_AddNumberToObject(o, "act_ms_per_step", a->steps ? a->act_ms / a->steps : 0);
    cJSON_AddNumberToObject(o, "settle_ms_per_step", a->steps ? a->settle_ms / a->steps : 0);
    cJSON_AddNumberToObject(o, "semantic_share",
                            a->semantic + a->atomic ? a->semantic / (a->semantic + a->atomic) : 0);
    cJSON_AddNumberToObject(o, "fallbacks", a->fallbacks);
    return o;
}

static int tier_index(const char *t)
{
    for (int i = 0; i < 3; i++)
        if (t && !strcmp(t, TIERS[i]))
            return i;
    return -1;
}

static void svg_bars(eous_buf *b, const char *title, mode_stats *ms, int nm, int metric, double max)
{
    /* grouped bars: tiers on x, one bar per mode */
    static const char *colors[] = {"#3b7dd8", "#e07b39", "#4caf50", "#9c27b0"};
    int w = 560, h = 240, left = 40, bottom = 200;
    eous_buf_printf(b, NULL, "<h3>%s</h3><svg width='%d' height='%d' role='img' aria-label='%s'>", title, w, h, title);
    eous_buf_printf(b, NULL, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>", left, bottom, w - 10, bottom);
    for (int t = 0; t < MAX_TIERS; t++) {
        int gx = left + 10 + t * 125;
        eous_buf_printf(b, NULL, "<text x='%d' y='%d' font-size='12'>%s</text>", gx + 20, bottom + 16, TIERS[t]);
        for (int m = 0; m < nm; m++) {
            const agg *a = &ms[m].tier[t];
            double v = metric == 0 ? avg(a->passed, a->n) * 100 : avg(a->steps, a->n);
            double bh = max > 0 ? v / max * 170 : 0;
            int x = gx + m * (100 / (nm ? nm : 1));
            eous_buf_printf(b, NULL,
                            "<rect x='%d' y='%.1f' width='%d' height='%.1f' fill='%s'><title>%s %s: %.1f</title></rect>"
                            "<text x='%d' y='%.1f' font-size='10'>%.1f</text>",
                            x, bottom - bh, 100 / (nm ? nm : 1) - 4, bh, colors[m % 4], ms[m].name, TIERS[t], v, x,
                            bottom - bh - 3, v);
        }
    }
    for (int m = 0; m < nm; m++)
        eous_buf_printf(b, NULL, "<rect x='%d' y='8' width='10' height='10' fill='%s'/><text x='%d' y='17' font-size='12'>%s</text>",
                        left + m * 110, colors[m % 4], left + 14 + m * 110, ms[m].name);
    eous_buf_puts(b, "</svg>", NULL);
}

eous_rc agent_reports_write(const char *out_dir, int *all_passed, int *any_infra, char **table_md, eous_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results.jsonl", out_dir);
    char *text = NULL;
    size_t len = 0;
    *all_passed = 1;
    *any_infra = 0;
    if (table_md)
        *table_md = NULL;
    eous_rc rc = eous_read_file(path, 0, &text, &len, err);
    if (rc)
        return rc;
    mode_stats ms[MAX_MODES];
    memset(ms, 0, sizeof ms);
    int nm = 0;
    cJSON *rows = cJSON_CreateArray();
    for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        cJSON *r = cJSON_Parse(line);
        if (!r)
            continue; /* a torn last line from a killed run is ignored */
        const char *mode = eous_json_str(r, "mode");
        int m;
        for (m = 0; m < nm; m++)
            if (!strcmp(ms[m].name, mode ? mode : "?"))
                break;
        if (m == nm && nm < MAX_MODES)
            snprintf(ms[nm++].name, sizeof ms[0].name, "%s", mode ? mode : "?");
        if (m < MAX_MODES) {
            int t = tier_index(eous_json_str(r, "tier"));
            if (t >= 0)
                add(&ms[m].tier[t], r);
            add(&ms[m].tier[3], r);
        }
        const char *st = eous_json_str(r, "status");
        if (!st || strcmp(st, "passed"))
            *all_passed = 0;
        if (st && !strcmp(st, "infra"))
            *any_infra = 1;
        cJSON_AddItemToArray(rows, r);
    }
    free(text);

    /* summary.json */
    cJSON *sum = cJSON_CreateObject();
    cJSON *modes = cJSON_AddObjectToObject(sum, "modes");
    for (int m = 0; m < nm; m++) {
        cJSON *mo = cJSON_AddObjectToObject(modes, ms[m].name);
        for (int t = 0; t < MAX_TIERS; t++)
            if (ms[m].tier[t].n)
                cJSON_AddItemToObject(mo, TIERS[t], agg_json(&ms[m].tier[t]));
    }
    char *sj = cJSON_Print(sum);
    cJSON_Delete(sum);
    snprintf(path, sizeof path, "%s/summary.json", out_dir);
    if (sj && (rc = eous_write_file_atomic(path, sj, strlen(sj), err))) {
        free(sj);
        cJSON_Delete(rows);
        return rc;
    }
    free(sj);

    /* summary.md: the shape of the paper's Table 1 plus the tier ablation */
    eous_buf md;
    eous_buf_init(&md, 0);
    eous_buf_puts(&md, "| mode | tasks | success | avg steps | obs tokens/step | model tokens/task | s/task | ms/step | semantic share | fallbacks | infra |\n"
                       "|---|---|---|---|---|---|---|---|---|---|---|\n", NULL);
    for (int m = 0; m < nm; m++) {
        const agg *a = &ms[m].tier[3];
        eous_buf_printf(&md, NULL, "| %s | %d | %.1f%% | %.2f | %.0f | %.0f | %.2f | %.0f | %.0f%% | %.0f | %d |\n",
                        ms[m].name, a->n, avg(a->passed, a->n - a->needs_judge) * 100, avg(a->steps, a->n),
                        a->steps ? a->obs_tokens / a->steps : 0, avg(a->tokens, a->n), avg(a->wall_ms, a->n) / 1000,
                        a->steps ? a->wall_ms / a->steps : 0,
                        a->semantic + a->atomic ? a->semantic / (a->semantic + a->atomic) * 100 : 0, a->fallbacks,
                        a->infra);
    }
    for (int m = 0; m < nm; m++)
        if (ms[m].tier[3].needs_judge)
            eous_buf_printf(&md, NULL, "\n%s: %d task(s) need a judge (fuzzy_match/ua_match without --llm): "
                                       "not counted as passed or failed.\n",
                            ms[m].name, ms[m].tier[3].needs_judge);
    eous_buf_puts(&md, "\nBy tier (success · avg steps):\n\n| mode | short | medium | long |\n|---|---|---|---|\n", NULL);
    for (int m = 0; m < nm; m++) {
        eous_buf_printf(&md, NULL, "| %s", ms[m].name);
        for (int t = 0; t < 3; t++) {
            const agg *a = &ms[m].tier[t];
            eous_buf_printf(&md, NULL, " | %.1f%% · %.2f (n=%d)", avg(a->passed, a->n) * 100, avg(a->steps, a->n), a->n);
        }
        eous_buf_puts(&md, " |\n", NULL);
    }
    eous_buf_puts(&md, "\nTime per step (ms): perceive · act · settle\n\n", NULL);
    for (int m = 0; m < nm; m++) {
        const agg *a = &ms[m].tier[3];
        eous_buf_printf(&md, NULL, "- %s: %.0f · %.0f · %.0f\n", ms[m].name, a->steps ? a->perceive_ms / a->steps : 0,
                        a->steps ? a->act_ms / a->steps : 0, a->steps ? a->settle_ms / a->steps : 0);
    }
    snprintf(path, sizeof path, "%s/summary.md", out_dir);
    rc = eous_write_file_atomic(path, md.data ? md.data : "", md.len, err);

    /* report.html */
    if (!rc) {
        eous_buf h;
        eous_buf_init(&h, 0);
        eous_buf_puts(&h, "<!doctype html><html><head><meta charset='utf-8'><title>eous report</title>"
                          "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
                          "td,th{border:1px solid #ccc;padding:4px 8px}</style></head><body><h1>eous benchmark report</h1><pre>",
                      NULL);
        for (const char *p = md.data ? md.data : ""; *p; p++) {
            if (*p == '<')
                eous_buf_puts(&h, "&lt;", NULL);
            else if (*p == '&')
                eous_buf_puts(&h, "&amp;", NULL);
            else
                eous_buf_putc(&h, *p, NULL);
        }
        eous_buf_puts(&h, "</pre>", NULL);
        svg_bars(&h, "Success rate (%) by tier", ms, nm, 0, 100);
        double maxsteps = 1;
        for (int m = 0; m < nm; m++)
            for (int t = 0; t < MAX_TIERS; t++)
                if (avg(ms[m].tier[t].steps, ms[m].tier[t].n) > maxsteps)
                    maxsteps = avg(ms[m].tier[t].steps, ms[m].tier[t].n);
        svg_bars(&h, "Average steps by tier", ms, nm, 1, maxsteps);
        eous_buf_puts(&h, "<h3>Tasks</h3><table><tr><th>task</th><th>mode</th><th>status</th><th>steps</th><th>obs tokens</th><th>detail</th></tr>", NULL);
        const cJSON *r;
        cJSON_ArrayForEach(r, rows) {
            const char *d = eous_json_str(r, "eval_detail");
            const char *e = eous_json_str(r, "error");
            eous_buf_printf(&h, NULL, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>",
                            eous_json_str(r, "task_id") ? eous_json_str(r, "task_id") : "",
                            eous_json_str(r, "mode") ? eous_json_str(r, "mode") : "",
                            eous_json_str(r, "status") ? eous_json_str(r, "status") : "", eous_json_int(r, "steps", 0),
                            eous_json_int(r, "obs_tokens", 0));
            const char *txt = e && *e ? e : d ? d : "";
            for (const char *p = txt; *p; p++) {
                if (*p == '<')
                    eous_buf_puts(&h, "&lt;", NULL);
                else if (*p == '&')
                    eous_buf_puts(&h, "&amp;", NULL);
                else
                    eous_buf_putc(&h, *p, NULL);
            }
            eous_buf_puts(&h, "</td></tr>", NULL);
        }
        eous_buf_puts(&h, "</table></body></html>\n", NULL);
        char *clean = eous_redact(h.data ? h.data : "");
        snprintf(path, sizeof path, "%s/report.html", out_dir);
        rc = eous_write_file_atomic(path, clean ? clean : "", clean ? strlen(clean) : 0, err);
        free(clean);
        eous_buf_free(&h);
    }

    /* junit.xml: one test case per task × mode */
    if (!rc) {
        snprintf(path, sizeof path, "%s/junit.xml", out_dir);
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        xmlTextWriterPtr w = xmlNewTextWriterFilename(tmp, 0);
        if (!w) {
            rc = eous_err_set(err, EOUS_E_IO, "%s: cannot write", tmp);
        } else {
            xmlTextWriterSetIndent(w, 1);
            xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
            xmlTextWriterStartElement(w, BAD_CAST "testsuites");
            for (int m = 0; m < nm; m++) {
                const agg *a = &ms[m].tier[3];
                xmlTextWriterStartElement(w, BAD_CAST "testsuite");
                xmlTextWriterWriteFormatAttribute(w, BAD_CAST "name", "eous.%s", ms[m].name);
                xmlTextWriterWriteFormatAttribute(w, BAD_CAST "tests", "%d", a->n);
                xmlTextWriterWriteFormatAttribute(w, BAD_CAST "failures", "%d",
                                                  a->n - a->passed - a->infra - a->skipped - a->needs_judge);
                xmlTextWriterWriteFormatAttribute(w, BAD_CAST "errors", "%d", a->infra);
                xmlTextWriterWriteFormatAttribute(w, BAD_CAST "skipped", "%d", a->skipped + a->needs_judge);
                const cJSON *r;
                cJSON_ArrayForEach(r, rows) {
                    const char *mode = eous_json_str(r, "mode");
                    if (!mode || strcmp(mode, ms[m].name))
                        continue;
                    const char *st = eous_json_str(r, "status");
                    xmlTextWriterStartElement(w, BAD_CAST "testcase");
                    xmlTextWriterWriteFormatAttribute(w, BAD_CAST "classname", "eous.%s", mode);
                    xmlTextWriterWriteFormatAttribute(w, BAD_CAST "name", "task %s", eous_json_str(r, "task_id"));
                    xmlTextWriterWriteFormatAttribute(w, BAD_CAST "time", "%.3f", eous_json_num(r, "wall_ms", 0) / 1000);
                    if (st && strcmp(st, "passed")) {
                        const char *el = !strcmp(st, "infra")                                   ? "error"
                                         : !strcmp(st, "skipped") || !strcmp(st, "needs_judge") ? "skipped"
                                                                                               : "failure";
                        const char *d = eous_json_str(r, "error");
                        if (!d || !*d)
                            d = eous_json_str(r, "eval_detail");
                        char *clean = eous_redact(d ? d : "");
                        xmlTextWriterStartElement(w, BAD_CAST el);
                        xmlTextWriterWriteAttribute(w, BAD_CAST "message", BAD_CAST(clean ? clean : ""));
                        xmlTextWriterEndElement(w);
                        free(clean);
                    }
                    xmlTextWriterEndElement(w);
                }
                xmlTextWriterEndElement(w);
            }
            xmlTextWriterEndElement(w);
            xmlTextWriterEndDocument(w);
            xmlFreeTextWriter(w);
            if (rename(tmp, path) != 0)
                rc = eous_err_set(err, EOUS_E_IO, "%s: cannot write", path);
        }
    }
    if (table_md && !rc)
        *table_md = eous_buf_steal(&md);
    eous_buf_free(&md);
    cJSON_Delete(rows);
    return rc;
}

/* runs/report_html.c — report.html: one self-contained page (inline CSS and
 * script, no network; screenshots by relative link into trace/) with the
 * tasks sorted by id, the modes side by side, filters (failed only, mode,
 * tier, screen) and per task a drill-down: intent, each mode's verdict and
 * reason, and each step from its trace line with the observation the
 * planner read (collapsed), action, path, fallback, result, timings and
 * screenshots. */
#define _GNU_SOURCE
#include "runs/report_int.h"
#include "runs/report_ui_js.h" /* generated from report_ui.js: RUNS_REPORT_UI_JS */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBS_MAX_BYTES (256 * 1024) /* an observation longer than this is cut in the report */
#define TRACE_MAX_BYTES (64 * 1024 * 1024)

void runs_html_text(eous_buf *h, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        switch (*p) {
        case '<': eous_buf_puts(h, "&lt;", NULL); break;
        case '>': eous_buf_puts(h, "&gt;", NULL); break;
        case '&': eous_buf_puts(h, "&amp;", NULL); break;
        case '"': eous_buf_puts(h, "&quot;", NULL); break;
        case '\'': eous_buf_puts(h, "&#39;", NULL); break;
        default: eous_buf_putc(h, *p, NULL);
        }
    }
}

const char runs_report_css[] =
    "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}"
    "th.mode{text-align:center;background:#f3f3f3}.st-passed{color:#1b7d2e}.st-failed,.st-infra{color:#b3261e;"
    "font-weight:600}.filters{margin:.8em 0;display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}"
    "button.open{font:inherit;background:none;border:0;color:#1a56b0;cursor:pointer;text-decoration:underline;"
    "padding:0}tr.detail>td{background:#fafafa}.mode-detail{margin:.6em 0 1.2em}"
    "ol.steps{padding-left:1.6em}li.step{margin:.5em 0;padding:.3em;border-left:3px solid #ccc}"
    "li.step.err{border-color:#b3261e}.action{font-family:monospace}.path{font-size:.85em;"
    "background:#eef;padding:0 .4em;border-radius:3px}.ms{color:#666;font-size:.85em}"
    "pre.obs{max-height:24em;overflow:auto;background:#fff;border:1px solid #ddd;padding:.5em;font-size:.8em}"
    "img.shot{max-width:min(640px,100%);border:1px solid #bbb;display:block;margin:.3em 0}.charts{display:flex;"
    "flex-wrap:wrap;gap:1em}.wide{max-width:100%;overflow-x:auto}td.num,th.num{text-align:right}"
    ".summary p,.summary li{max-width:60em}.summary table{margin:.4em 0 .8em}figure.chart{margin:0}"
    "figure.chart svg{max-width:100%;height:auto}pre{white-space:pre-wrap;overflow-wrap:anywhere}"
    "code{background:#f3f3f3;padding:0 .2em}td.why{max-width:40em;overflow-wrap:anywhere}";


/* ---- tasks: ids in order, rows per task ------------------------------------- */

static int by_id(const void *a, const void *b)
{
    return strverscmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct task ids of rows, sorted as versions ("2" before "10"); caller frees the array. */
static const char **sorted_ids(const cJSON *rows, int *n_out)
{
    int n = cJSON_GetArraySize(rows), k = 0;
    const char **ids = calloc((size_t)n + 1, sizeof *ids);
    const cJSON *r;
    cJSON_ArrayForEach(r, rows) {
        const char *id = eous_json_str(r, "task_id");
        int seen = !id || !ids;
        for (int i = 0; i < k && !seen; i++)
            seen = !strcmp(ids[i], id);
        if (!seen)
            ids[k++] = id;
    }
    if (ids)
        qsort(ids, (size_t)k, sizeof *ids, by_id);
    *n_out = ids ? k : 0;
    return ids;
}

const cJSON *runs_row_of(const cJSON *rows, const char *id, const char *mode)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, rows) {
        const char *rid = eous_json_str(r, "task_id"), *rm = eous_json_str(r, "mode");
        if (rid && rm && !strcmp(rid, id) && !strcmp(rm, mode))
            return r;
    }
    return NULL;
}

static int passed(const cJSON *r)
{
    return eous_status_parse(eous_json_str(r, "status")) == EOUS_ST_PASSED;
}

/* A value the row set holds for key, once each, in first-seen order. */
static void option_list(eous_buf *h, const cJSON *rows, const char *key)
{
    const cJSON *r, *q;
    cJSON_ArrayForEach(r, rows) {
        const char *v = eous_json_str(r, key);
        int first = v && *v;
        for (q = rows->child; q != r && first; q = q->next) {
            const char *w = eous_json_str(q, key);
            first = !w || strcmp(w, v);
        }
        if (!first)
            continue;
        eous_buf_puts(h, "<option>", NULL);
        runs_html_text(h, v);
        eous_buf_puts(h, "</option>", NULL);
    }
}

static void filters(eous_buf *h, const cJSON *rows, const char *const *modes, int nm)
{
    eous_buf_puts(h, "<div class='filters'><label><input type='checkbox' id='f-failed'> failed only</label>"
                     "<label>mode <select id='f-mode'><option value=''>all</option>", NULL);
    for (int m = 0; m < nm; m++) {
        eous_buf_puts(h, "<option>", NULL);
        runs_html_text(h, modes[m]);
        eous_buf_puts(h, "</option>", NULL);
    }
    eous_buf_puts(h, "</select></label><label>tier <select id='f-tier'><option value=''>all</option>", NULL);
    option_list(h, rows, "tier");
    eous_buf_puts(h, "</select></label><label>screen <select id='f-screen'><option value=''>all</option>", NULL);
    option_list(h, rows, "screen");
    eous_buf_puts(h, "</select></label><span id='f-count'></span></div>", NULL);
}

/* ---- the table -------------------------------------------------------------- */

static void mode_class(eous_buf *h, const char *mode)
{
    eous_buf_puts(h, "m m-", NULL);
    runs_html_text(h, mode);
}

/* Model tokens when a model planned, else the observation tokens it read. */
static void tokens_cell(eous_buf *h, const cJSON *r)
{
    double model = eous_json_num(r, "prompt_tokens", 0) + eous_json_num(r, "completion_tokens", 0);
    double cached = eous_json_num(r, "cached_tokens", 0);
    double cost = eous_json_num(r, "cost_usd", 0);
    if (model > 0 && cached > 0) /* what a provider bills: the cached part at its discount */
        eous_buf_printf(h, NULL, "%.0f (%.0f cached)", model, cached);
    else if (model > 0)
        eous_buf_printf(h, NULL, "%.0f", model);
    else
        eous_buf_printf(h, NULL, "%.0f obs", eous_json_num(r, "obs_tokens", 0));
    if (cost > 0)
        eous_buf_printf(h, NULL, " · $%.4f", cost);
}

#define MODE_COLS 5 /* status, steps, round trips, tokens, time */

static void mode_cells(eous_buf *h, const cJSON *r, const char *mode)
{
    for (int i = 0; i < MODE_COLS; i++) {
        eous_buf_puts(h, "<td class='", NULL);
        mode_class(h, mode);
        if (i > 0)
            eous_buf_puts(h, " num", NULL);
        if (i == 0 && r) {
            eous_buf_puts(h, " st-", NULL);
            runs_html_text(h, eous_json_str(r, "status"));
        }
        eous_buf_puts(h, "'>", NULL);
        if (!r)
            eous_buf_puts(h, i == 0 ? "—" : "", NULL);
        else if (i == 0)
            runs_html_text(h, eous_json_str(r, "status"));
        else if (i == 1)
            eous_buf_printf(h, NULL, "%d", eous_json_int(r, "steps", 0));
        else if (i == 2) /* the model's round trips: what a reader of the README compares first */
            eous_buf_printf(h, NULL, "%d", eous_json_int(r, "plan_calls", 0));
        else if (i == 3)
            tokens_cell(h, r);
        else
            eous_buf_printf(h, NULL, "%.1f s", eous_json_num(r, "wall_ms", 0) / 1000);
        eous_buf_puts(h, "</td>", NULL);
    }
}

static void table_head(eous_buf *h, const char *const *modes, int nm)
{
    eous_buf_puts(h, "<div class='wide'><table id='task-table'><thead><tr><th rowspan='2'>task</th><th rowspan='2'>tier</th>"
                     "<th rowspan='2'>screen</th>", NULL);
    for (int m = 0; m < nm; m++) {
        eous_buf_printf(h, NULL, "<th colspan='%d' class='mode ", MODE_COLS);
        mode_class(h, modes[m]);
        eous_buf_puts(h, "'>", NULL);
        runs_html_text(h, modes[m]);
        eous_buf_puts(h, "</th>", NULL);
    }
    eous_buf_puts(h, "</tr><tr>", NULL);
    static const char *const cols[] = {"status", "steps", "round trips", "tokens", "time"};
    for (int m = 0; m < nm; m++)
        for (int i = 0; i < MODE_COLS; i++) {
            eous_buf_puts(h, "<th class='", NULL);
            mode_class(h, modes[m]);
            eous_buf_printf(h, NULL, "%s'%s>%s</th>", i ? " num" : "",
                            i == 3 ? " title='model tokens (the cached part, the cost at the run&#39;s prices), or "
                                     "the observation tokens read when a script planned'"
                                   : i == 2 ? " title='model requests (plan calls) the task took'" : "",
                            cols[i]);
        }
    eous_buf_puts(h, "</tr></thead><tbody>", NULL);
}

/* ---- the drill-down --------------------------------------------------------- */

/* A path a trace line names, when it stays inside the run directory's trace/. */
static int evidence_path_ok(const char *p)
{
    return p && !strncmp(p, "trace/", 6) && !strstr(p, "..") && !strpbrk(p, "\\:?#");
}

static void shot(eous_buf *h, const char *rel, const char *caption)
{
    if (!evidence_path_ok(rel))
        return;
    eous_buf_puts(h, "<figure><a href='", NULL);
    runs_html_text(h, rel);
    eous_buf_puts(h, "'><img class='shot' loading='lazy' src='", NULL);
    runs_html_text(h, rel);
    eous_buf_puts(h, "' alt='", NULL);
    runs_html_text(h, caption);
    eous_buf_puts(h, "'></a><figcaption>", NULL);
    runs_html_text(h, caption);
    eous_buf_puts(h, "</figcaption></figure>", NULL);
}

static void observation(eous_buf *h, const char *out_dir, const cJSON *line)
{
    const char *rel = eous_json_str(line, "observation");
    if (!evidence_path_ok(rel))
        return;
    char path[4200], *text = NULL;
    size_t len = 0;
    eous_err err;
    if (eous_path_under(path, sizeof path, out_dir, &err, "%s", rel) || eous_read_file(path, 0, &text, &len, &err)) {
        eous_buf_puts(h, "<p class='ms'>observation file missing: ", NULL);
        runs_html_text(h, rel);
        eous_buf_puts(h, "</p>", NULL);
        return;
    }
    int cut = len > OBS_MAX_BYTES;
    if (cut)
        text[OBS_MAX_BYTES] = '\0';
    eous_buf_printf(h, NULL, "<details class='obs'><summary>observation (%.0f tokens)</summary><pre class='obs'>",
                    eous_json_num(line, "obs_tokens", 0));
    runs_html_text(h, text);
    eous_buf_printf(h, NULL, "%s</pre></details>", cut ? "\n… (cut; the whole text is in the file)" : "");
    free(text);
}

/* A WebArena-Verified file of the task (agent_response.json, network.har), linked. */
static void evidence_link(eous_buf *h, const char *rel, const char *caption)
{
    if (!evidence_path_ok(rel))
        return;
    eous_buf_puts(h, "<div class='verdict'><a href='", NULL);
    runs_html_text(h, rel);
    eous_buf_puts(h, "'>", NULL);
    runs_html_text(h, caption);
    eous_buf_puts(h, "</a></div>", NULL);
}

static void labelled(eous_buf *h, const char *cls, const char *label, const char *value)
{
    if (!value || !*value)
        return;
    eous_buf_printf(h, NULL, "<div class='%s'>%s", cls, label);
    runs_html_text(h, value);
    eous_buf_puts(h, "</div>", NULL);
}

/* A WebArena-Verified result's evaluators: each one's status, error and failed assertions. */
static void evaluators(eous_buf *h, const cJSON *r)
{
    const cJSON *evs = eous_json_arr(r, "evaluators"), *e, *f;
    if (!evs || !evs->child)
        return;
    eous_buf_puts(h, "<ul class='evaluators'>", NULL);
    cJSON_ArrayForEach(e, evs) {
        const char *st = eous_json_str(e, "status");
        /* the evaluator's words (success | failure | error) coloured as a task's passed | failed */
        const char *cls = st && !strcmp(st, "success") ? "passed" : "failed";
        eous_buf_puts(h, "<li class='evaluator'><b>", NULL);
        runs_html_text(h, eous_json_str(e, "evaluator"));
        eous_buf_printf(h, NULL, "</b>: <span class='st-%s'>", cls);
        runs_html_text(h, st);
        eous_buf_puts(h, "</span>", NULL);
        labelled(h, "result", "error: ", eous_json_str(e, "error"));
        const cJSON *failed = eous_json_arr(e, "failed");
        if (failed && failed->child) {
            eous_buf_puts(h, "<ul class='assertions'>", NULL);
            cJSON_ArrayForEach(f, failed) if (cJSON_IsString(f)) {
                eous_buf_puts(h, "<li>", NULL);
                runs_html_text(h, f->valuestring);
                eous_buf_puts(h, "</li>", NULL);
            }
            eous_buf_puts(h, "</ul>", NULL);
        }
        eous_buf_puts(h, "</li>", NULL);
    }
    eous_buf_puts(h, "</ul>", NULL);
}

static void step_item(eous_buf *h, const char *out_dir, const cJSON *line)
{
    const char *error = eous_json_str(line, "error"), *perr = eous_json_str(line, "parse_error");
    eous_buf_printf(h, NULL, "<li class='step%s' data-step='%d'>", error || perr ? " err" : "",
                    eous_json_int(line, "step", 0));
    if (perr) {
        labelled(h, "result", "the model's answer did not parse: ", perr);
    } else {
        eous_buf_puts(h, "<span class='action'>", NULL);
        runs_html_text(h, eous_json_str(line, "action"));
        eous_buf_puts(h, "</span> <span class='path'>", NULL);
        runs_html_text(h, eous_json_str(line, "path"));
        eous_buf_puts(h, "</span>", NULL);
        labelled(h, "fallback", "fallback: ", eous_json_str(line, "fallback_reason"));
        labelled(h, "result", error ? "error: " : "result: ", error ? error : eous_json_str(line, "result"));
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(line, "ms");
        eous_buf_printf(h, NULL, "<div class='ms'>perceive %.0f · plan %.0f · act %.0f · settle %.0f ms · "
                                 "%.0f+%.0f model tokens",
                        eous_json_num(ms, "perceive", 0), eous_json_num(ms, "plan", 0), eous_json_num(ms, "act", 0),
                        eous_json_num(ms, "settle", 0), eous_json_num(line, "prompt_tokens", 0),
                        eous_json_num(line, "completion_tokens", 0));
        /* the request as billed: its prefix shared with the request before, its fixed part */
        const cJSON *bill = cJSON_GetObjectItemCaseSensitive(line, "request_tokens");
        if (bill)
            eous_buf_printf(h, NULL, " · request %.0f (prefix %.0f, fixed %.0f, cached %.0f)",
                            eous_json_num(bill, "total", 0), eous_json_num(bill, "prefix", 0),
                            eous_json_num(bill, "fixed", 0), eous_json_num(line, "cached_tokens", 0));
        eous_buf_puts(h, "</div>", NULL);
    }
    observation(h, out_dir, line);
    shot(h, eous_json_str(line, "screenshot"), "the page the planner saw");
    shot(h, eous_json_str(line, "vision_screenshot"), "the screenshot the model got (set-of-marks)");
    shot(h, eous_json_str(line, "failed_screenshot"), "the page after this step failed");
    labelled(h, "ms", "no screenshot: ", eous_json_str(line, "screenshot_error"));
    eous_buf_puts(h, "</li>", NULL);
}

/* The steps of OUT/trace/<task>-<mode>.jsonl. */
static void steps(eous_buf *h, const char *out_dir, const char *id, const char *mode)
{
    char path[4200], *text = NULL;
    eous_err err;
    /* id and mode come from results.jsonl: a trace outside the run directory is no trace */
    if (eous_path_under(path, sizeof path, out_dir, &err, "trace/%s-%s.jsonl", id, mode) ||
        eous_read_file(path, TRACE_MAX_BYTES, &text, NULL, &err)) {
        eous_buf_puts(h, "<p class='ms'>no trace</p>", NULL);
        return;
    }
    eous_buf_puts(h, "<ol class='steps'>", NULL);
    for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        cJSON *line = cJSON_Parse(p);
        if (line)
            step_item(h, out_dir, line);
        cJSON_Delete(line);
    }
    eous_buf_puts(h, "</ol>", NULL);
    free(text);
}

/* The attempts of this task × mode before the one that counts, in order. */
static void earlier_attempts(eous_buf *h, const cJSON *earlier, const char *id, const char *mode)
{
    const cJSON *e;
    int any = 0;
    cJSON_ArrayForEach(e, earlier) {
        const char *eid = eous_json_str(e, "task_id"), *emode = eous_json_str(e, "mode");
        if (!eid || !emode || strcmp(eid, id) || strcmp(emode, mode))
            continue;
        eous_buf_puts(h, any ? "" : "<ul class='attempts'>", NULL);
        any = 1;
        eous_buf_printf(h, NULL, "<li>attempt %d: <span class='st-", eous_json_int(e, "attempt", 0));
        runs_html_text(h, eous_json_str(e, "status"));
        eous_buf_puts(h, "'>", NULL);
        runs_html_text(h, eous_json_str(e, "status"));
        eous_buf_puts(h, "</span>", NULL);
        const char *error = eous_json_str(e, "error");
        if (error && *error) {
            eous_buf_puts(h, " — ", NULL);
            runs_html_text(h, error);
        }
        eous_buf_puts(h, "</li>", NULL);
    }
    if (any)
        eous_buf_puts(h, "</ul>", NULL);
}

static void mode_detail(eous_buf *h, const char *out_dir, const cJSON *r, const cJSON *earlier, const char *mode)
{
    eous_buf_puts(h, "<div class='mode-detail ", NULL);
    mode_class(h, mode);
    eous_buf_puts(h, "'><h4>", NULL);
    runs_html_text(h, mode);
    eous_buf_puts(h, ": <span class='st-", NULL);
    runs_html_text(h, eous_json_str(r, "status"));
    eous_buf_puts(h, "'>", NULL);
    runs_html_text(h, eous_json_str(r, "status"));
    eous_buf_printf(h, NULL, "</span> (score %.2f, %d steps, stopped: ", eous_json_num(r, "score", 0),
                    eous_json_int(r, "steps", 0));
    runs_html_text(h, eous_json_str(r, "stop_reason"));
    eous_buf_puts(h, ")</h4>", NULL);
    labelled(h, "verdict", "eval: ", eous_json_str(r, "eval_detail"));
    evaluators(h, r);
    labelled(h, "result", "error: ", eous_json_str(r, "error"));
    labelled(h, "answer", "answer: ", eous_json_str(r, "answer"));
    labelled(h, "known", "known limit: ", eous_json_str(r, "known_limit"));
    evidence_link(h, eous_json_str(r, "agent_response"), "agent response (JSON)");
    evidence_link(h, eous_json_str(r, "har"), "network log (HAR)");
    if (eous_json_str(r, "agent_response") && !eous_json_str(r, "har")) /* --w3c-only: the network evaluator errs */
        eous_buf_puts(h, "<div class='ms'>no network log (HAR) was recorded</div>", NULL);
    if (eous_json_int(r, "attempt", 1) > 1)
        eous_buf_printf(h, NULL, "<p class='ms'>attempt %d; before it:</p>", eous_json_int(r, "attempt", 1));
    earlier_attempts(h, earlier, eous_json_str(r, "task_id"), mode);
    steps(h, out_dir, eous_json_str(r, "task_id"), mode);
    shot(h, eous_json_str(r, "screenshot"), "the page at the end of the task");
    eous_buf_puts(h, "</div>", NULL);
}

static void task_rows(eous_buf *h, const char *out_dir, const cJSON *rows, const cJSON *earlier, const char *id,
                      int index, const char *const *modes, int nm)
{
    const cJSON *any = NULL;
    eous_buf bad, have;
    eous_buf_init(&bad, 0);
    eous_buf_init(&have, 0);
    for (int m = 0; m < nm; m++) {
        const cJSON *r = runs_row_of(rows, id, modes[m]);
        if (!r)
            continue;
        any = any ? any : r;
        eous_buf_printf(&have, NULL, "%s ", modes[m]);
        if (!passed(r))
            eous_buf_printf(&bad, NULL, "%s ", modes[m]);
    }
    eous_buf_puts(h, "<tr class='task' data-task='", NULL);
    runs_html_text(h, id);
    eous_buf_puts(h, "' data-tier='", NULL);
    runs_html_text(h, eous_json_str(any, "tier"));
    eous_buf_puts(h, "' data-screen='", NULL);
    runs_html_text(h, eous_json_str(any, "screen"));
    eous_buf_puts(h, "' data-modes='", NULL);
    runs_html_text(h, have.data);
    eous_buf_puts(h, "' data-failed='", NULL);
    runs_html_text(h, bad.data);
    eous_buf_printf(h, NULL, "'><td><button class='open' aria-expanded='false' aria-controls='d-%d'>", index);
    runs_html_text(h, id);
    eous_buf_puts(h, "</button></td><td>", NULL);
    runs_html_text(h, eous_json_str(any, "tier"));
    eous_buf_puts(h, "</td><td>", NULL);
    runs_html_text(h, eous_json_str(any, "screen"));
    eous_buf_puts(h, "</td>", NULL);
    for (int m = 0; m < nm; m++)
        mode_cells(h, runs_row_of(rows, id, modes[m]), modes[m]);
    eous_buf_printf(h, NULL, "</tr><tr class='detail' id='d-%d' hidden><td colspan='%d'><p class='intent'>", index,
                    3 + MODE_COLS * nm);
    runs_html_text(h, eous_json_str(any, "intent"));
    eous_buf_puts(h, "</p>", NULL);
    for (int m = 0; m < nm; m++) {
        const cJSON *r = runs_row_of(rows, id, modes[m]);
        if (r)
            mode_detail(h, out_dir, r, earlier, modes[m]);
    }
    eous_buf_puts(h, "</td></tr>", NULL);
    eous_buf_free(&bad);
    eous_buf_free(&have);
}

/* ---- the summary: summary.md as HTML, cost and round trips, failures ------------ */

/* s[0..n) into HTML, `code` spans as <code>. */
static void md_inline(eous_buf *h, const char *s, size_t n)
{
    char *t = strndup(s, n);
    int in_code = 0;
    for (char *p = t, *tick; p && *p; p = tick ? tick + 1 : NULL) {
        tick = strchr(p, '`');
        if (tick)
            *tick = '\0';
        runs_html_text(h, p);
        if (tick)
            eous_buf_puts(h, (in_code = !in_code) ? "<code>" : "</code>", NULL);
    }
    if (in_code)
        eous_buf_puts(h, "</code>", NULL);
    free(t);
}

/* A Markdown table row "| a | b |" as cells of kind cell (th or td); a cell that is a number is right-aligned. */
static void md_row(eous_buf *h, const char *line, size_t len, const char *cell)
{
    const char *p = line + 1, *end = line + len;
    while (end > p && (end[-1] == ' ' || end[-1] == '|'))
        end--;
    eous_buf_puts(h, "<tr>", NULL);
    while (p <= end) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *stop = bar ? bar : end;
        while (p < stop && *p == ' ')
            p++;
        const char *e = stop;
        while (e > p && e[-1] == ' ')
            e--;
        int num = p < e && (isdigit((unsigned char)*p) || *p == '-' || *p == '$') && cell[1] == 'd';
        eous_buf_printf(h, NULL, "<%s%s>", cell, num ? " class='num'" : "");
        md_inline(h, p, (size_t)(e - p));
        eous_buf_printf(h, NULL, "</%s>", cell);
        if (!bar)
            break;
        p = bar + 1;
    }
    eous_buf_puts(h, "</tr>", NULL);
}

/* summary.md's subset of Markdown (tables, "- " lists, paragraphs, `code`) as HTML. */
static void md_html(eous_buf *h, const char *md)
{
    const char *p = md ? md : "";
    enum { NONE, TABLE, LIST, PARA } open = NONE;
    static const char *const close[] = {"", "</tbody></table></div>", "</ul>", "</p>"};
    int rows = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int want = !len ? NONE : p[0] == '|' ? TABLE : len > 1 && p[0] == '-' && p[1] == ' ' ? LIST : PARA;
        if (want != (int)open) {
            eous_buf_puts(h, close[open], NULL);
            eous_buf_puts(h, want == TABLE ? "<div class='wide'><table><thead>" : want == LIST ? "<ul>"
                             : want == PARA ? "<p>" : "", NULL);
            open = want;
            rows = 0;
        } else if (open == PARA) {
            eous_buf_putc(h, ' ', NULL);
        }
        if (open == TABLE && strspn(p, "|-: ") == len) /* the |---| line: the header row ends */
            eous_buf_puts(h, "</thead><tbody>", NULL);
        else if (open == TABLE)
            md_row(h, p, len, rows++ ? "td" : "th");
        else if (open == LIST) {
            eous_buf_puts(h, "<li>", NULL);
            md_inline(h, p + 2, len - 2);
            eous_buf_puts(h, "</li>", NULL);
        } else if (open == PARA)
            md_inline(h, p, len);
        p += len + (nl != NULL);
    }
    eous_buf_puts(h, close[open], NULL);
}

typedef struct glance_agg {
    int n, passed, billed, priced;
    double trips, input, cached, cost;
} glance_agg;

void runs_html_glance_head(eous_buf *h, int run_col)
{
    eous_buf_printf(h, NULL, "<div class='wide'><table class='glance'><thead><tr>%s"
                             "<th>mode</th><th class='num'>tasks</th><th class='num'>passed</th>"
                             "<th class='num'>round trips/task</th><th class='num'>input tokens/task</th>"
                             "<th class='num'>of them cached</th><th class='num'>cost/task (USD)</th></tr></thead><tbody>",
                    run_col ? "<th>run</th>" : "");
}

/* Pass rate beside round trips, input tokens (cached share) and cost per task, the cost at the prices
 * the run billed with (cost_usd of each result; a model with no known price bills 0). */
void runs_html_glance_row(eous_buf *h, const char *run, const cJSON *rows, const char *mode)
{
    glance_agg a = {0};
    const cJSON *r;
    cJSON_ArrayForEach(r, rows) {
        const char *m = eous_json_str(r, "mode");
        if (!m || strcmp(m, mode))
            continue;
        a.n++;
        a.passed += passed(r);
        a.trips += eous_json_num(r, "plan_calls", 0);
        if (eous_json_num(r, "prompt_tokens", 0) > 0) {
            a.billed++;
            a.input += eous_json_num(r, "prompt_tokens", 0);
            a.cached += eous_json_num(r, "cached_tokens", 0);
            a.cost += eous_json_num(r, "cost_usd", 0);
            a.priced += eous_json_num(r, "cost_usd", 0) > 0;
        }
    }
    eous_buf_puts(h, "<tr>", NULL);
    if (run) {
        eous_buf_puts(h, "<td>", NULL);
        runs_html_text(h, run);
        eous_buf_puts(h, "</td>", NULL);
    }
    eous_buf_puts(h, "<td>", NULL);
    runs_html_text(h, mode);
    eous_buf_printf(h, NULL, "</td><td class='num'>%d</td><td class='num'>%d (%.1f%%)</td><td class='num'>%.2f</td>",
                    a.n, a.passed, a.n ? 100.0 * a.passed / a.n : 0, a.n ? a.trips / a.n : 0);
    if (!a.billed) /* a script or a program planned: no model was billed */
        eous_buf_puts(h, "<td class='num'>–</td><td class='num'>–</td><td class='num'>–</td></tr>", NULL);
    else
        eous_buf_printf(h, NULL, "<td class='num'>%.0f</td><td class='num'>%.0f (%.0f%%)</td>", a.input / a.billed,
                        a.cached / a.billed, a.input ? 100 * a.cached / a.input : 0);
    if (a.billed && a.priced)
        eous_buf_printf(h, NULL, "<td class='num'>%.4f</td></tr>", a.cost / a.billed);
    else if (a.billed)
        eous_buf_puts(h, "<td class='num' title='the model has no price in the price table'>no price "
                         "known</td></tr>", NULL);
}

/* Per mode: what it passed and what it cost. */
static void glance(eous_buf *h, const cJSON *rows, const char *const *modes, int nm)
{
    eous_buf_puts(h, "<h2>Pass rate and what it cost</h2>", NULL);
    runs_html_glance_head(h, 0);
    for (int m = 0; m < nm; m++)
        runs_html_glance_row(h, NULL, rows, modes[m]);
    eous_buf_puts(h, "</tbody></table></div>", NULL);
}

/* Every task x mode that did not pass: why it stopped, and the known limit that explains it when the
 * result names one ("known_limit"). */
static void failures(eous_buf *h, const cJSON *rows)
{
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, rows) {
        const char *st = eous_json_str(r, "status");
        if (passed(r) || eous_status_parse(st) == EOUS_ST_SKIPPED)
            continue;
        if (!n++)
            eous_buf_puts(h, "<h2>Tasks that did not pass</h2><div class='wide'><table class='failures'><thead><tr>"
                             "<th>task</th><th>mode</th><th>status</th><th>stop</th><th>why</th><th>known limit</th>"
                             "</tr></thead><tbody>", NULL);
        const char *why = eous_json_str(r, "error");
        if (!why || !*why)
            why = eous_json_str(r, "eval_detail");
        if (!why || !*why)
            why = eous_json_str(r, "answer");
        const char *known = eous_json_str(r, "known_limit");
        const char *cells[] = {eous_json_str(r, "task_id"), eous_json_str(r, "mode"), st, eous_json_str(r, "stop_reason"),
                               why, known && *known ? known : "–"};
        eous_buf_puts(h, "<tr>", NULL);
        for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
            eous_buf_puts(h, i == 4 ? "<td class='why'>" : "<td>", NULL);
            runs_html_text(h, cells[i]);
            eous_buf_puts(h, "</td>", NULL);
        }
        eous_buf_puts(h, "</tr>", NULL);
    }
    if (n)
        eous_buf_puts(h, "</tbody></table></div>", NULL);
}

eous_rc runs_report_html_write(const char *out_dir, const cJSON *rows, const cJSON *earlier, const char *const *modes,
                                int n_modes,
                                const char *summary_md, const char *charts_svg, eous_err *err)
{
    eous_buf h;
    eous_buf_init(&h, 0);
    eous_buf_printf(&h, NULL, "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>eous report</title>"
                              "<meta name='viewport' content='width=device-width, initial-scale=1'>"
                              "<style>%s</style></head><body><h1>eous benchmark report</h1>", runs_report_css);
    glance(&h, rows, modes, n_modes);
    eous_buf_puts(&h, "<h2>Summary</h2><div class='summary'>", NULL);
    md_html(&h, summary_md);
    eous_buf_puts(&h, "</div>", NULL);
    failures(&h, rows);
    eous_buf_printf(&h, NULL, "<div class='charts'>%s</div><h2>Tasks</h2>", charts_svg ? charts_svg : "");
    filters(&h, rows, modes, n_modes);
    table_head(&h, modes, n_modes);
    int n_ids = 0;
    const char **ids = sorted_ids(rows, &n_ids);
    for (int i = 0; i < n_ids; i++)
        task_rows(&h, out_dir, rows, earlier, ids[i], i, modes, n_modes);
    free(ids);
    eous_buf_printf(&h, NULL, "</tbody></table></div><script>%s</script></body></html>\n", RUNS_REPORT_UI_JS);
    char path[4200];
    snprintf(path, sizeof path, "%s/report.html", out_dir);
    if (h.failed) { /* every piece above is appended unchecked: a hole anywhere fails the whole page */
        eous_buf_free(&h);
        return eous_err_set(err, EOUS_E_LIMIT, "%s: the report would exceed %zu bytes (or memory ran out); not written",
                            path, (size_t)EOUS_BUF_DEFAULT_MAX);
    }
    char *clean = eous_redact(h.data ? h.data : "");
    eous_rc rc = clean ? eous_write_file_atomic(path, clean, strlen(clean), err)
                       : eous_err_set(err, EOUS_E_NOMEM, "%s: out of memory", path);
    free(clean);
    eous_buf_free(&h);
    return rc;
}

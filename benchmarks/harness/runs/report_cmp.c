/* runs/report_cmp.c — the comparison page (runs_compare_html_write in
 * report.h): runs side by side on one self-contained page in report.html's
 * style and with its tables (report_int.h), so default vs baseline or mode vs
 * mode reads as one table of pass rates and costs and one of tasks. */
#define _GNU_SOURCE
#include "runs/report.h"
#include "runs/report_int.h"
#include "runs/rundir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMP_MAX_RUNS 16
#define CMP_MAX_MODES 8

typedef struct cmp_run {
    runs_dir rd;
    cJSON *last;                      /* references to rd.rows' last attempts (the array owns no row) */
    char label[256];                  /* the shortest end of its path no other run's ends with */
    const char *modes[CMP_MAX_MODES]; /* first-seen order, borrowed from rd.rows */
    int n_modes;
} cmp_run;

/* A column of the task table: one run x mode. */
typedef struct cmp_col {
    const cmp_run *run;
    const char *mode;
} cmp_col;

/* arg without trailing slashes and a trailing results.jsonl, into out. */
static void run_path(const char *arg, char *out, size_t size)
{
    snprintf(out, size, "%s", arg);
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/')
        out[--n] = '\0';
    if (n > 14 && !strcmp(out + n - 14, "/results.jsonl"))
        out[n -= 14] = '\0';
}

/* The last k components of path (all of it when it has fewer). */
static const char *last_parts(const char *path, int k)
{
    const char *p = path + strlen(path);
    while (p > path && k > 0) {
        p--;
        if (*p == '/' && --k == 0)
            return p + 1;
    }
    return path;
}

/* Labels: the last path component each, one more for all while two are the same
 * (out/model/default/playground and out/model/baseline/playground: default/playground, ...). */
static void label_runs(cmp_run *runs, int n, char paths[][4200])
{
    for (int k = 1; k < 64; k++) {
        for (int i = 0; i < n; i++)
            snprintf(runs[i].label, sizeof runs[i].label, "%s", last_parts(paths[i], k));
        int same = 0;
        for (int i = 0; i < n && !same; i++)
            for (int j = i + 1; j < n && !same; j++)
                same = !strcmp(runs[i].label, runs[j].label);
        if (!same)
            return;
    }
}

static eous_rc load_run(cmp_run *c, const char *arg, eous_err *err)
{
    if (runs_dir_load(arg, 0, &c->rd, err)) {
        eous_err_prefix(err, "not a run folder");
        return eous_err_remap(err, EOUS_E_INVALID);
    }
    if (!(c->last = cJSON_CreateArray()))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    const cJSON *r;
    cJSON_ArrayForEach(r, c->rd.rows) {
        const char *mode = eous_json_str(r, "mode");
        if (!runs_dir_is_last(r) || !mode)
            continue;
        cJSON_AddItemReferenceToArray(c->last, (cJSON *)r);
        int seen = 0;
        for (int m = 0; m < c->n_modes && !seen; m++)
            seen = !strcmp(c->modes[m], mode);
        if (!seen && c->n_modes < CMP_MAX_MODES)
            c->modes[c->n_modes++] = mode;
    }
    if (!cJSON_GetArraySize(c->last))
        return eous_err_set(err, EOUS_E_INVALID, "%s: a run folder with no results yet", arg);
    return EOUS_OK;
}

static int by_id(const void *a, const void *b)
{
    return strverscmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every task id of every run, once, sorted as versions; caller frees the array (not the ids). */
static const char **all_ids(const cmp_run *runs, int n, int *n_out)
{
    int cap = 0, k = 0;
    for (int i = 0; i < n; i++)
        cap += cJSON_GetArraySize(runs[i].last);
    const char **ids = calloc((size_t)cap + 1, sizeof *ids);
    for (int i = 0; i < n && ids; i++) {
        const cJSON *r;
        cJSON_ArrayForEach(r, runs[i].last) {
            const char *id = eous_json_str(r, "task_id");
            int seen = !id;
            for (int j = 0; j < k && !seen; j++)
                seen = !strcmp(ids[j], id);
            if (!seen)
                ids[k++] = id;
        }
    }
    if (ids)
        qsort(ids, (size_t)k, sizeof *ids, by_id);
    *n_out = ids ? k : 0;
    return ids;
}

/* "passed in A (hybrid, pruned); failed in B (atomic)": the row's columns grouped by status. */
static void delta_text(eous_buf *h, const cmp_col *cols, int nc, const cJSON *const *cells)
{
    const char *done[CMP_MAX_RUNS * CMP_MAX_MODES];
    int nd = 0;
    for (int i = 0; i < nc; i++) {
        const char *st = cells[i] ? eous_json_str(cells[i], "status") : "absent";
        int seen = 0;
        for (int d = 0; d < nd && !seen; d++)
            seen = !strcmp(done[d], st ? st : "");
        if (seen || !st)
            continue;
        done[nd++] = st;
        eous_buf_printf(h, NULL, "%s<b>", nd > 1 ? "; " : "");
        runs_html_text(h, st);
        eous_buf_puts(h, "</b> in ", NULL);
        const cmp_run *run = NULL;
        for (int j = i; j < nc; j++) {
            const char *sj = cells[j] ? eous_json_str(cells[j], "status") : "absent";
            if (!sj || strcmp(sj, st))
                continue;
            eous_buf_puts(h, run == cols[j].run ? ", " : run ? "), " : "", NULL);
            if (run != cols[j].run) {
                runs_html_text(h, cols[j].run->label);
                eous_buf_puts(h, " (", NULL);
            }
            run = cols[j].run;
            runs_html_text(h, cols[j].mode);
        }
        eous_buf_puts(h, ")", NULL);
    }
}

/* One task's row; *differs gets 1 when its columns do not all have one status. */
static void task_row(eous_buf *h, const char *id, const cmp_col *cols, int nc, int *all_pass, int *differs)
{
    const cJSON *cells[CMP_MAX_RUNS * CMP_MAX_MODES];
    const char *first = NULL;
    *differs = 0;
    *all_pass = 1;
    for (int i = 0; i < nc; i++) {
        cells[i] = runs_row_of(cols[i].run->last, id, cols[i].mode);
        const char *st = cells[i] ? eous_json_str(cells[i], "status") : "absent";
        first = first ? first : st;
        *differs |= strcmp(first, st ? st : "") != 0;
        *all_pass &= eous_status_parse(st) == EOUS_ST_PASSED;
    }
    eous_buf_printf(h, NULL, "<tr class='task%s' data-task='", *differs ? " differs" : "");
    runs_html_text(h, id);
    eous_buf_puts(h, "'><td>", NULL);
    runs_html_text(h, id);
    eous_buf_puts(h, "</td>", NULL);
    for (int i = 0; i < nc; i++) {
        const cJSON *r = cells[i];
        if (!r) {
            eous_buf_puts(h, "<td>—</td>", NULL);
            continue;
        }
        const char *why = eous_json_str(r, "known_limit");
        if (!why || !*why)
            why = eous_json_str(r, "error");
        if (!why || !*why)
            why = eous_json_str(r, "eval_detail");
        eous_buf_puts(h, "<td class='st-", NULL);
        runs_html_text(h, eous_json_str(r, "status"));
        eous_buf_puts(h, "' title='", NULL);
        runs_html_text(h, why);
        eous_buf_puts(h, "'>", NULL);
        runs_html_text(h, eous_json_str(r, "status"));
        eous_buf_printf(h, NULL, " · %d", eous_json_int(r, "plan_calls", 0));
        eous_buf_puts(h, "</td>", NULL);
    }
    eous_buf_puts(h, "<td class='why'>", NULL);
    if (*differs)
        delta_text(h, cols, nc, cells);
    else
        eous_buf_puts(h, "same in every column", NULL);
    eous_buf_puts(h, "</td></tr>", NULL);
}

static void task_table_head(eous_buf *h, const cmp_run *runs, int n)
{
    eous_buf_puts(h, "<div class='wide'><table id='task-table'><thead><tr><th rowspan='2'>task</th>", NULL);
    for (int i = 0; i < n; i++) {
        eous_buf_printf(h, NULL, "<th colspan='%d' class='mode'>", runs[i].n_modes);
        runs_html_text(h, runs[i].label);
        eous_buf_puts(h, "</th>", NULL);
    }
    eous_buf_puts(h, "<th rowspan='2'>what differs</th></tr><tr>", NULL);
    for (int i = 0; i < n; i++)
        for (int m = 0; m < runs[i].n_modes; m++) {
            eous_buf_puts(h, "<th title='status · round trips (model requests)'>", NULL);
            runs_html_text(h, runs[i].modes[m]);
            eous_buf_puts(h, "</th>", NULL);
        }
    eous_buf_puts(h, "</tr></thead><tbody>", NULL);
}

/* The tasks: a row each, the count of those whose outcome differs above the table. */
static void task_table(eous_buf *h, const cmp_run *runs, int n)
{
    cmp_col cols[CMP_MAX_RUNS * CMP_MAX_MODES];
    int nc = 0, n_ids = 0, n_diff = 0, n_pass = 0;
    for (int i = 0; i < n; i++)
        for (int m = 0; m < runs[i].n_modes; m++)
            cols[nc++] = (cmp_col){&runs[i], runs[i].modes[m]};
    const char **ids = all_ids(runs, n, &n_ids);
    eous_buf body;
    eous_buf_init(&body, 0);
    for (int t = 0; t < n_ids; t++) {
        int all_pass, differs;
        task_row(&body, ids[t], cols, nc, &all_pass, &differs);
        n_diff += differs;
        n_pass += all_pass;
    }
    free(ids);
    eous_buf_printf(h, NULL, "<h2>Tasks</h2><p id='cmp-counts'>%d task(s): %d passed in every run and mode, %d had one "
                             "other outcome in every one, <b>%d differ</b>.</p><div class='filters'><label><input "
                             "type='checkbox' id='f-differs'> only tasks whose outcome differs</label></div>",
                    n_ids, n_pass, n_ids - n_pass - n_diff, n_diff);
    task_table_head(h, runs, n);
    eous_buf_puts(h, body.data ? body.data : "", NULL);
    h->failed |= body.failed;
    eous_buf_free(&body);
    eous_buf_puts(h, "</tbody></table></div>", NULL);
}

static const char cmp_js[] =
    "document.getElementById('f-differs').addEventListener('change', e => {"
    "for (const tr of document.querySelectorAll('tr.task'))"
    " tr.hidden = e.target.checked && !tr.classList.contains('differs'); });";

static eous_rc page(eous_buf *h, const cmp_run *runs, int n, char paths[][4200])
{
    eous_buf_printf(h, NULL, "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>eous comparison</title>"
                             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
                             "<style>%s</style></head><body><h1>eous comparison</h1><ul class='runs'>", runs_report_css);
    for (int i = 0; i < n; i++) {
        eous_buf_puts(h, "<li><b>", NULL);
        runs_html_text(h, runs[i].label);
        eous_buf_puts(h, "</b>: <code>", NULL);
        runs_html_text(h, paths[i]);
        eous_buf_printf(h, NULL, "</code>, %d task × mode result(s)</li>", cJSON_GetArraySize(runs[i].last));
    }
    eous_buf_puts(h, "</ul><h2>Pass rate and what it cost</h2>", NULL);
    runs_html_glance_head(h, 1);
    for (int i = 0; i < n; i++)
        for (int m = 0; m < runs[i].n_modes; m++)
            runs_html_glance_row(h, runs[i].label, runs[i].last, runs[i].modes[m]);
    eous_buf_puts(h, "</tbody></table></div>", NULL);
    task_table(h, runs, n);
    eous_buf_printf(h, NULL, "<script>%s</script></body></html>\n", cmp_js);
    return h->failed ? EOUS_E_LIMIT : EOUS_OK;
}

eous_rc runs_compare_html_write(const char *const *args, int n, const char *path, eous_err *err)
{
    if (n < 2 || n > CMP_MAX_RUNS)
        return eous_err_set(err, EOUS_E_INVALID, "expected 2 to %d run folders to compare, got %d", CMP_MAX_RUNS, n);
    cmp_run *runs = calloc((size_t)n, sizeof *runs);
    char(*paths)[4200] = calloc((size_t)n, sizeof *paths);
    eous_buf h;
    eous_buf_init(&h, 0);
    eous_rc rc = runs && paths ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (int i = 0; i < n && !rc; i++) {
        run_path(args[i], paths[i], sizeof paths[i]);
        rc = load_run(&runs[i], args[i], err);
    }
    if (rc)
        goto cleanup;
    label_runs(runs, n, paths);
    if (page(&h, runs, n, paths)) {
        rc = eous_err_set(err, EOUS_E_LIMIT, "%s: the page would exceed %zu bytes (or memory ran out); not written",
                          path, (size_t)EOUS_BUF_DEFAULT_MAX);
        goto cleanup;
    }
    char *clean = eous_redact(h.data);
    rc = clean ? eous_write_file_atomic(path, clean, strlen(clean), err)
               : eous_err_set(err, EOUS_E_NOMEM, "%s: out of memory", path);
    free(clean);
cleanup:
    for (int i = 0; runs && i < n; i++) {
        cJSON_Delete(runs[i].last);
        runs_dir_free(&runs[i].rd);
    }
    free(runs);
    free(paths);
    eous_buf_free(&h);
    return rc;
}

/* runs/runcmp.c — run A vs run B per task × mode (see runcmp.h). */
#include "runs/runcmp.h"
#include "runs/rundir.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct cmp_row {
    char *task, *mode;
    char status[24];   /* the word as the line has it, for the table */
    eous_status st;    /* the status it names (EOUS_ST_NONE: none or unknown) */
    double steps, obs_tokens, wall_ms;
    /* WebArena-Verified: {evaluator: status} (owned, NULL for other tasks), and the task's answer and
     * HAR as paths from where compare runs (NULL when none) */
    cJSON *verdicts;
    char *agent_response, *har;
} cmp_row;

typedef struct cmp_run {
    char path[1024];   /* the results.jsonl read */
    char dir[1024];    /* the run directory holding it: trace paths are relative to it */
    cmp_row *rows;
    int n, cap;
    int skipped_tail;  /* 1 when a last line cut short by a crash was skipped */
    int failed_attempts; /* earlier attempts (a retry or --resume followed) that did not pass */
} cmp_run;

typedef enum cmp_change { CH_SAME = 0, CH_CHANGED, CH_REGRESSION, CH_FIX, CH_UNSETTLED, CH_DROPPED, CH_ONLY_A, CH_ONLY_B } cmp_change;

typedef struct cmp_pair {
    const cmp_row *a, *b;
    cmp_change change;
} cmp_pair;

struct runs_cmp {
    cmp_run a, b;
    cmp_pair *pairs;
    int npairs;
    runs_cmp_counts counts;
};

static const char *CHANGE_NAMES[] = {"unchanged", "changed", "regression", "fix", "unsettled", "dropped", "only in A",
                                     "only in B"};

/* ---- reading one run ---------------------------------------------------- */

static cmp_row *run_find(cmp_run *r, const char *task, const char *mode)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->rows[i].task, task) && !strcmp(r->rows[i].mode, mode))
            return &r->rows[i];
    return NULL;
}

static double num_field(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A file a results line names (relative to the run directory) as a path from here; NULL when none. */
static char *run_file(const cmp_run *r, const char *rel)
{
    if (!rel || !*rel)
        return NULL;
    char *p = malloc(strlen(r->dir) + strlen(rel) + 2);
    if (p)
        sprintf(p, "%s/%s", r->dir, rel);
    return p;
}

/* A verified result's {evaluator: status}; NULL when the line has no evaluators. */
static cJSON *verdicts_of(const cJSON *o)
{
    const cJSON *evs = eous_json_arr(o, "evaluators"), *e;
    if (!evs)
        return NULL;
    cJSON *v = cJSON_CreateObject();
    cJSON_ArrayForEach(e, evs) {
        const char *name = eous_json_str(e, "evaluator"), *st = eous_json_str(e, "status");
        if (v && name && !cJSON_GetObjectItemCaseSensitive(v, name))
            cJSON_AddStringToObject(v, name, st ? st : "?");
    }
    return v;
}

/* The last attempt of a task × mode into the run (runs/rundir.h checked its fields). */
static eous_rc run_add(cmp_run *r, const cJSON *o, eous_err *err)
{
    const char *task = eous_json_str(o, "task_id"), *mode = eous_json_str(o, "mode");
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        cmp_row *grown = realloc(r->rows, (size_t)cap * sizeof *grown);
        if (!grown)
            return eous_err_set(err, EOUS_E_NOMEM, "%s: out of memory", r->path);
        r->rows = grown;
        r->cap = cap;
    }
    cmp_row *row = &r->rows[r->n];
    memset(row, 0, sizeof *row);
    row->task = eous_strdup(task);
    row->mode = eous_strdup(mode);
    if (!row->task || !row->mode) {
        free(row->task);
        free(row->mode);
        return eous_err_set(err, EOUS_E_NOMEM, "%s: out of memory", r->path);
    }
    r->n++;
    snprintf(row->status, sizeof row->status, "%s", eous_json_str(o, "status"));
    row->st = eous_status_parse(eous_json_str(o, "status"));
    row->steps = num_field(o, "steps");
    row->obs_tokens = num_field(o, "obs_tokens");
    row->wall_ms = num_field(o, "wall_ms");
    row->verdicts = verdicts_of(o);
    row->agent_response = run_file(r, eous_json_str(o, "agent_response"));
    row->har = run_file(r, eous_json_str(o, "har"));
    return EOUS_OK;
}

/* A run's results.jsonl, strictly: each task × mode by its last attempt, the
 * earlier failed attempts counted. */
static eous_rc run_load(cmp_run *r, const char *arg, eous_err *err)
{
    runs_dir rd;
    eous_rc rc = runs_dir_load(arg, 1, &rd, err);
    if (rc)
        return rc;
    snprintf(r->path, sizeof r->path, "%s", rd.path);
    snprintf(r->dir, sizeof r->dir, "%s", rd.path);
    char *slash = strrchr(r->dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(r->dir, sizeof r->dir, ".");
    r->skipped_tail = rd.skipped_tail;
    r->failed_attempts = runs_dir_failed_attempts(&rd);
    const cJSON *o;
    cJSON_ArrayForEach(o, rd.rows) {
        if (runs_dir_is_last(o) && (rc = run_add(r, o, err)))
            break;
    }
    runs_dir_free(&rd);
    return rc;
}

static void run_clear(cmp_run *r)
{
    for (int i = 0; i < r->n; i++) {
        free(r->rows[i].task);
        free(r->rows[i].mode);
        cJSON_Delete(r->rows[i].verdicts);
        free(r->rows[i].agent_response);
        free(r->rows[i].har);
    }
    free(r->rows);
    memset(r, 0, sizeof *r);
}

/* ---- pairing and classifying ------------------------------------------- */

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* Task ids in numeric order where both are numbers ("9" before "10"), else by text. */
static int task_cmp(const char *x, const char *y)
{
    if (all_digits(x) && all_digits(y)) {
        size_t lx = strlen(x), ly = strlen(y);
        if (lx != ly)
            return lx < ly ? -1 : 1;
    }
    return strcmp(x, y);
}

static int pair_cmp(const void *pa, const void *pb)
{
    const cmp_pair *p = pa, *q = pb;
    const cmp_row *x = p->a ? p->a : p->b, *y = q->a ? q->a : q->b;
    int c = task_cmp(x->task, y->task);
    return c ? c : strcmp(x->mode, y->mode);
}

static int is_settled(eous_status st)
{
    return st == EOUS_ST_PASSED || st == EOUS_ST_FAILED;
}

static cmp_change classify(const cmp_row *a, const cmp_row *b)
{
    if (!b)
        return a->st == EOUS_ST_PASSED ? CH_DROPPED : CH_ONLY_A;
    if (!a)
        return CH_ONLY_B;
    if (a->st != b->st) {
        if (!is_settled(a->st) || !is_settled(b->st))
            return CH_UNSETTLED;
        return a->st == EOUS_ST_PASSED ? CH_REGRESSION : CH_FIX;
    }
    /* a verified task whose evaluators moved (one now fails where the other did) changed too */
    int verdicts_moved = (a->verdicts || b->verdicts) && !cJSON_Compare(a->verdicts, b->verdicts, 1);
    return a->steps != b->steps || a->obs_tokens != b->obs_tokens || verdicts_moved ? CH_CHANGED : CH_SAME;
}

static void count_change(runs_cmp_counts *n, cmp_change ch)
{
    switch (ch) {
    case CH_REGRESSION: n->regressions++; break;
    case CH_DROPPED: n->regressions++; n->dropped++; n->only_a++; break;
    case CH_FIX: n->fixes++; break;
    case CH_UNSETTLED: n->unsettled++; break;
    case CH_ONLY_A: n->only_a++; break;
    case CH_ONLY_B: n->only_b++; break;
    case CH_CHANGED: n->other++; break;
    case CH_SAME: break;
    }
    if (ch == CH_REGRESSION || ch == CH_FIX || ch == CH_UNSETTLED || ch == CH_CHANGED)
        n->changed++;
}

static eous_rc pair_up(runs_cmp *c, eous_err *err)
{
    c->pairs = calloc((size_t)(c->a.n + c->b.n) + 1, sizeof *c->pairs);
    if (!c->pairs)
        return eous_err_set(err, EOUS_E_NOMEM, "compare: out of memory");
    for (int i = 0; i < c->a.n; i++) {
        cmp_pair *p = &c->pairs[c->npairs++];
        p->a = &c->a.rows[i];
        p->b = run_find(&c->b, p->a->task, p->a->mode);
    }
    for (int i = 0; i < c->b.n; i++)
        if (!run_find(&c->a, c->b.rows[i].task, c->b.rows[i].mode))
            c->pairs[c->npairs++].b = &c->b.rows[i];
    qsort(c->pairs, (size_t)c->npairs, sizeof *c->pairs, pair_cmp);
    for (int i = 0; i < c->npairs; i++) {
        cmp_pair *p = &c->pairs[i];
        p->change = classify(p->a, p->b);
        if (p->a && p->b)
            c->counts.both++;
        count_change(&c->counts, p->change);
    }
    return EOUS_OK;
}

eous_rc runs_cmp_load(const char *run_a, const char *run_b, runs_cmp **out, eous_err *err)
{
    *out = NULL;
    runs_cmp *c = calloc(1, sizeof *c);
    if (!c)
        return eous_err_set(err, EOUS_E_NOMEM, "compare: out of memory");
    eous_rc rc = run_load(&c->a, run_a, err);
    if (!rc)
        rc = run_load(&c->b, run_b, err);
    if (!rc)
        rc = pair_up(c, err);
    if (rc) {
        runs_cmp_free(c);
        return rc;
    }
    if (c->a.skipped_tail || c->b.skipped_tail)
        EOUS_WARN("compare", "skipped a last line cut short by a crash in %s",
                 c->a.skipped_tail ? c->a.path : c->b.path);
    *out = c;
    return EOUS_OK;
}

void runs_cmp_free(runs_cmp *c)
{
    if (!c)
        return;
    run_clear(&c->a);
    run_clear(&c->b);
    free(c->pairs);
    free(c);
}

void runs_cmp_get_counts(const runs_cmp *c, runs_cmp_counts *out)
{
    *out = c->counts;
}

/* ---- totals and text ---------------------------------------------------- */

typedef struct cmp_totals {
    int passed_a, passed_b;            /* over each run's own results */
    double steps_a, steps_b;           /* means over pairs present in both */
    double tokens_a, tokens_b;
    double wall_a, wall_b;
} cmp_totals;

static void totals(const runs_cmp *c, cmp_totals *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < c->a.n; i++)
        t->passed_a += c->a.rows[i].st == EOUS_ST_PASSED;
    for (int i = 0; i < c->b.n; i++)
        t->passed_b += c->b.rows[i].st == EOUS_ST_PASSED;
    int n = 0;
    for (int i = 0; i < c->npairs; i++) {
        const cmp_pair *p = &c->pairs[i];
        if (!p->a || !p->b)
            continue;
        n++;
        t->steps_a += p->a->steps, t->steps_b += p->b->steps;
        t->tokens_a += p->a->obs_tokens, t->tokens_b += p->b->obs_tokens;
        t->wall_a += p->a->wall_ms, t->wall_b += p->b->wall_ms;
    }
    if (n) {
        t->steps_a /= n, t->steps_b /= n;
        t->tokens_a /= n, t->tokens_b /= n;
        t->wall_a /= n, t->wall_b /= n;
    }
}

/* "5.29 → 5.10 (−3.6%)"; no percentage when A is 0. */
static void put_move(eous_buf *b, int decimals, double x, double y)
{
    eous_buf_printf(b, NULL, "%.*f → %.*f", decimals, x, decimals, y);
    if (x > 0)
        eous_buf_printf(b, NULL, " (%+.1f%%)", (y - x) / x * 100.0);
}

static void put_summary(const runs_cmp *c, eous_buf *b)
{
    const runs_cmp_counts *n = &c->counts;
    cmp_totals t;
    totals(c, &t);
    eous_buf_printf(b, NULL, "A → B: %d regression%s (%d passed→failed, %d dropped), %d fix%s, %d unsettled, "
                    "%d other change%s, %d only in B; passed %d/%d → %d/%d; over the %d in both: steps/task ",
                    n->regressions, n->regressions == 1 ? "" : "s", n->regressions - n->dropped, n->dropped,
                    n->fixes, n->fixes == 1 ? "" : "es", n->unsettled, n->other, n->other == 1 ? "" : "s", n->only_b,
                    t.passed_a, c->a.n, t.passed_b, c->b.n, n->both);
    put_move(b, 2, t.steps_a, t.steps_b);
    eous_buf_puts(b, ", obs tokens/task ", NULL);
    put_move(b, 0, t.tokens_a, t.tokens_b);
    eous_buf_puts(b, ", wall s/task ", NULL);
    put_move(b, 1, t.wall_a / 1000.0, t.wall_b / 1000.0);
    /* counted by last attempts above; an earlier failure is never hidden */
    if (c->a.failed_attempts || c->b.failed_attempts)
        eous_buf_printf(b, NULL, "; failed attempts a retry or a resumed run followed: %d → %d", c->a.failed_attempts,
                        c->b.failed_attempts);
}

char *runs_cmp_summary(const runs_cmp *c)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    put_summary(c, &b);
    return eous_buf_steal(&b);
}

/* " | 5 → 7": one metric of A and B; "–" where the run has no such result. */
static void put_cell_pair(eous_buf *b, int decimals, const double *x, const double *y, double scale)
{
    eous_buf_puts(b, " | ", NULL);
    if (x)
        eous_buf_printf(b, NULL, "%.*f", decimals, *x / scale);
    else
        eous_buf_puts(b, "–", NULL);
    eous_buf_puts(b, " → ", NULL);
    if (y)
        eous_buf_printf(b, NULL, "%.*f", decimals, *y / scale);
    else
        eous_buf_puts(b, "–", NULL);
}

/* " | AgentResponseEvaluator failure → success · NetworkEventEvaluator success · HAR [A](…) [B](…)":
 * a verified pair's evaluators (one status when both runs agree) and links to its answers and HARs. */
static void put_verified(eous_buf *b, const cmp_pair *p)
{
    eous_buf_puts(b, " | ", NULL);
    const cJSON *va = p->a ? p->a->verdicts : NULL, *vb = p->b ? p->b->verdicts : NULL, *e;
    int k = 0;
    for (int side = 0; side < 2; side++) {
        const cJSON *v = side ? vb : va;
        cJSON_ArrayForEach(e, v) {
            if (side && va && cJSON_GetObjectItemCaseSensitive(va, e->string))
                continue; /* listed with A's */
            const char *x = eous_json_str(va, e->string), *y = eous_json_str(vb, e->string);
            eous_buf_printf(b, NULL, "%s%s %s", k++ ? " · " : "", e->string, x ? x : "–");
            if (!x || !y || strcmp(x, y))
                eous_buf_printf(b, NULL, " → %s", y ? y : "–");
        }
    }
    const char *files[2][2] = {{p->a ? p->a->agent_response : NULL, p->b ? p->b->agent_response : NULL},
                               {p->a ? p->a->har : NULL, p->b ? p->b->har : NULL}};
    static const char *const caption[2] = {"answer", "HAR"};
    for (int f = 0; f < 2; f++) {
        if (!files[f][0] && !files[f][1])
            continue;
        eous_buf_printf(b, NULL, "%s%s", k++ ? " · " : "", caption[f]);
        for (int side = 0; side < 2; side++)
            if (files[f][side])
                eous_buf_printf(b, NULL, " [%s](%s)", side ? "B" : "A", files[f][side]);
    }
}

char *runs_cmp_markdown(const runs_cmp *c)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    eous_buf_printf(&b, NULL, "# eous compare\n\nA: %s (%d results) · B: %s (%d results)\n\n", c->a.path, c->a.n,
                    c->b.path, c->b.n);
    put_summary(c, &b);
    eous_buf_puts(&b, "\n", NULL);
    int shown = 0, verified = 0;
    for (int i = 0; i < c->npairs; i++) /* WebArena-Verified tasks get a column of their evaluators */
        verified |= c->pairs[i].change != CH_SAME && ((c->pairs[i].a && c->pairs[i].a->verdicts) ||
                                                      (c->pairs[i].b && c->pairs[i].b->verdicts));
    for (int i = 0; i < c->npairs; i++) {
        const cmp_pair *p = &c->pairs[i];
        if (p->change == CH_SAME)
            continue;
        if (!shown++)
            eous_buf_printf(&b, NULL, "\n| task | mode | A | B | change | steps | obs tokens | wall s |%s\n"
                                      "|---|---|---|---|---|---|---|---|%s\n",
                            verified ? " evaluators (WebArena-Verified) |" : "", verified ? "---|" : "");
        const cmp_row *r = p->a ? p->a : p->b;
        eous_buf_printf(&b, NULL, "| %s | %s | %s | %s | %s", r->task, r->mode, p->a ? p->a->status : "–",
                        p->b ? p->b->status : "–", CHANGE_NAMES[p->change]);
        put_cell_pair(&b, 0, p->a ? &p->a->steps : NULL, p->b ? &p->b->steps : NULL, 1);
        put_cell_pair(&b, 0, p->a ? &p->a->obs_tokens : NULL, p->b ? &p->b->obs_tokens : NULL, 1);
        put_cell_pair(&b, 1, p->a ? &p->a->wall_ms : NULL, p->b ? &p->b->wall_ms : NULL, 1000);
        if (verified)
            put_verified(&b, p);
        eous_buf_puts(&b, " |\n", NULL);
    }
    if (!shown)
        eous_buf_puts(&b, "\nNo task × mode differs in status, steps, observation tokens or evaluator verdicts.\n",
                      NULL);
    return eous_buf_steal(&b);
}

static cJSON *row_json(const cmp_row *r)
{
    if (!r)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", r->status);
    cJSON_AddNumberToObject(o, "steps", r->steps);
    cJSON_AddNumberToObject(o, "obs_tokens", r->obs_tokens);
    cJSON_AddNumberToObject(o, "wall_ms", r->wall_ms);
    if (r->verdicts)
        cJSON_AddItemToObject(o, "evaluators", cJSON_Duplicate(r->verdicts, 1));
    if (r->agent_response)
        cJSON_AddStringToObject(o, "agent_response", r->agent_response);
    if (r->har)
        cJSON_AddStringToObject(o, "har", r->har);
    return o;
}

char *runs_cmp_json(const runs_cmp *c)
{
    const runs_cmp_counts *n = &c->counts;
    cmp_totals t;
    totals(c, &t);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "a", c->a.path);
    cJSON_AddStringToObject(o, "b", c->b.path);
    cJSON *k = cJSON_AddObjectToObject(o, "counts");
    cJSON_AddNumberToObject(k, "both", n->both);
    cJSON_AddNumberToObject(k, "regressions", n->regressions);
    cJSON_AddNumberToObject(k, "dropped", n->dropped);
    cJSON_AddNumberToObject(k, "fixes", n->fixes);
    cJSON_AddNumberToObject(k, "unsettled", n->unsettled);
    cJSON_AddNumberToObject(k, "changed", n->changed);
    cJSON_AddNumberToObject(k, "other", n->other);
    cJSON_AddNumberToObject(k, "only_a", n->only_a);
    cJSON_AddNumberToObject(k, "only_b", n->only_b);
    cJSON_AddNumberToObject(k, "failed_attempts_a", c->a.failed_attempts);
    cJSON_AddNumberToObject(k, "failed_attempts_b", c->b.failed_attempts);
    cJSON *tt = cJSON_AddObjectToObject(o, "totals");
    cJSON_AddNumberToObject(tt, "passed_a", t.passed_a);
    cJSON_AddNumberToObject(tt, "passed_b", t.passed_b);
    cJSON_AddNumberToObject(tt, "steps_per_task_a", t.steps_a);
    cJSON_AddNumberToObject(tt, "steps_per_task_b", t.steps_b);
    cJSON_AddNumberToObject(tt, "obs_tokens_per_task_a", t.tokens_a);
    cJSON_AddNumberToObject(tt, "obs_tokens_per_task_b", t.tokens_b);
    cJSON_AddNumberToObject(tt, "wall_ms_per_task_a", t.wall_a);
    cJSON_AddNumberToObject(tt, "wall_ms_per_task_b", t.wall_b);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (int i = 0; i < c->npairs; i++) {
        const cmp_pair *p = &c->pairs[i];
        const cmp_row *r = p->a ? p->a : p->b;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "task_id", r->task);
        cJSON_AddStringToObject(row, "mode", r->mode);
        cJSON_AddStringToObject(row, "change", CHANGE_NAMES[p->change]);
        cJSON_AddItemToObject(row, "a", row_json(p->a));
        cJSON_AddItemToObject(row, "b", row_json(p->b));
        cJSON_AddItemToArray(rows, row);
    }
    char *s = eous_json_print(o);
    cJSON_Delete(o);
    return s;
}

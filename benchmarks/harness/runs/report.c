/* runs/report.c — see report.h. */
#define _GNU_SOURCE
#include "runs/report.h"
#include "runs/report_int.h"
#include "runs/rundir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#define MAX_MODES 5
#define MAX_TIERS 4
static const char *TIERS[MAX_TIERS] = {"short", "medium", "long", "all"};

#define VF_EVALUATORS_MAX 4
/* One WebArena-Verified evaluator's verdicts over a mode's results. */
typedef struct vf_tally {
    char name[40];
    int success, failure, error;
} vf_tally;

typedef struct agg {
    int n, passed, infra, skipped, interrupted, needs_judge; /* needs_judge: neither passed nor failed */
    double steps, tokens, obs_tokens, wall_ms, perceive_ms, act_ms, settle_ms, plan_ms;
    double semantic, atomic, fallbacks;
    /* what a provider bills (model planners): round trips, input as reported (of it cached), completion,
     * and eous's own count of whole requests and their fixed part */
    double plan_calls, prompt, cached, completion, request, fixed, cost;
    int billed;                         /* results that carry request_tokens */
    int scripted;                       /* results of the script planner */
    int grounded, computed, addressing, ungrounded, ungrounded_tasks; /* grounding verdicts (steps), tasks stopped */
    char grounding[16];                 /* the mode the results were checked in ("" = none seen) */
    int repaired, downloads, outputs;   /* RPA: passed through --repair, files saved, output.json written */
    int verified, hars;                 /* WebArena-Verified results, of them with a network.har */
    vf_tally ev[VF_EVALUATORS_MAX];     /* their evaluators' verdicts, by name in first-seen order */
} agg;

typedef struct mode_stats {
    char name[16];
    agg tier[MAX_TIERS];
} mode_stats;

/* A verified result's evaluators (results line "evaluators") into the tallies. */
static void add_verified(agg *a, const cJSON *r)
{
    const cJSON *evs = eous_json_arr(r, "evaluators"), *e;
    if (!evs)
        return;
    a->verified++;
    a->hars += eous_json_str(r, "har") != NULL;
    cJSON_ArrayForEach(e, evs) {
        const char *name = eous_json_str(e, "evaluator"), *st = eous_json_str(e, "status");
        if (!name)
            continue;
        int i = 0;
        while (i < VF_EVALUATORS_MAX && a->ev[i].name[0] && strcmp(a->ev[i].name, name))
            i++;
        if (i == VF_EVALUATORS_MAX)
            continue;
        snprintf(a->ev[i].name, sizeof a->ev[i].name, "%s", name);
        if (st && !strcmp(st, "success"))
            a->ev[i].success++;
        else if (st && !strcmp(st, "failure"))
            a->ev[i].failure++;
        else
            a->ev[i].error++;
    }
}

static void add(agg *a, const cJSON *r)
{
    eous_status status = eous_status_parse(eous_json_str(r, "status"));
    a->n++;
    a->passed += status == EOUS_ST_PASSED;
    a->infra += status == EOUS_ST_INFRA;
    a->skipped += status == EOUS_ST_SKIPPED;
    a->interrupted += status == EOUS_ST_INTERRUPTED;
    a->needs_judge += status == EOUS_ST_NEEDS_JUDGE;
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
    a->plan_calls += eous_json_num(r, "plan_calls", 0);
    const cJSON *bill = eous_json_obj(r, "request_tokens");
    if (bill) {
        a->billed++;
        a->prompt += eous_json_num(r, "prompt_tokens", 0);
        a->cached += eous_json_num(r, "cached_tokens", 0);
        a->completion += eous_json_num(r, "completion_tokens", 0);
        a->cost += eous_json_num(r, "cost_usd", 0);
        a->request += eous_json_num(bill, "total", 0);
        a->fixed += eous_json_num(bill, "fixed", 0);
    }
    const char *planner = eous_json_str(r, "planner");
    a->scripted += planner && !strcmp(planner, "script");
    const cJSON *g = eous_json_obj(r, "grounding");
    if (g) {
        a->grounded += eous_json_int(g, "grounded", 0);
        a->computed += eous_json_int(g, "computed", 0);
        a->addressing += eous_json_int(g, "ungrounded_addressing", 0);
        a->ungrounded += eous_json_int(g, "ungrounded", 0);
        const char *gm = eous_json_str(g, "mode");
        if (gm)
            snprintf(a->grounding, sizeof a->grounding, "%s", gm);
    }
    const char *why = eous_json_str(r, "stop_reason");
    a->ungrounded_tasks += why && !strcmp(why, "ungrounded");
    a->repaired += eous_json_bool(r, "repaired", 0);
    a->downloads += cJSON_GetArraySize(eous_json_arr(r, "downloads"));
    a->outputs += eous_json_str(r, "output_file") != NULL;
    add_verified(a, r);
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
    cJSON_AddNumberToObject(o, "repaired", a->repaired);
    cJSON_AddNumberToObject(o, "downloads", a->downloads);
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
    cJSON_AddNumberToObject(o, "avg_plan_calls", avg(a->plan_calls, a->n));
    if (a->billed) {
        cJSON *b = cJSON_AddObjectToObject(o, "billed_per_task");
        cJSON_AddNumberToObject(b, "input_tokens", avg(a->prompt, a->billed));
        cJSON_AddNumberToObject(b, "cached_input_tokens", avg(a->cached, a->billed));
        cJSON_AddNumberToObject(b, "completion_tokens", avg(a->completion, a->billed));
        cJSON_AddNumberToObject(b, "cost_usd", avg(a->cost, a->billed));
        cJSON_AddNumberToObject(b, "request_tokens_counted", avg(a->request, a->billed));
        cJSON_AddNumberToObject(b, "fixed_share", a->request ? a->fixed / a->request : 0);
    }
    if (a->verified) {
        cJSON *v = cJSON_AddObjectToObject(o, "verified");
        cJSON_AddNumberToObject(v, "tasks", a->verified);
        cJSON_AddNumberToObject(v, "hars", a->hars);
        cJSON *evs = cJSON_AddObjectToObject(v, "evaluators");
        for (int i = 0; i < VF_EVALUATORS_MAX && a->ev[i].name[0]; i++) {
            cJSON *e = cJSON_AddObjectToObject(evs, a->ev[i].name);
            cJSON_AddNumberToObject(e, "success", a->ev[i].success);
            cJSON_AddNumberToObject(e, "failure", a->ev[i].failure);
            cJSON_AddNumberToObject(e, "error", a->ev[i].error);
        }
    }
    if (a->grounding[0]) {
        cJSON *g = cJSON_AddObjectToObject(o, "grounding");
        cJSON_AddStringToObject(g, "mode", a->grounding);
        cJSON_AddNumberToObject(g, "grounded_steps", a->grounded);
        cJSON_AddNumberToObject(g, "computed_answers", a->computed);
        cJSON_AddNumberToObject(g, "ungrounded_addressing_steps", a->addressing);
        cJSON_AddNumberToObject(g, "ungrounded_steps", a->ungrounded);
        cJSON_AddNumberToObject(g, "tasks_stopped_ungrounded", a->ungrounded_tasks);
    }
    return o;
}

static int tier_index(const char *t)
{
    for (int i = 0; i < 3; i++)
        if (t && !strcmp(t, TIERS[i]))
            return i;
    return -1;
}

enum { METRIC_SUCCESS, METRIC_STEPS, METRIC_MODEL_TOKENS, METRIC_OBS_TOKENS };

static double metric_value(const agg *a, int metric)
{
    switch (metric) {
    case METRIC_SUCCESS: return avg(a->passed, a->n - a->needs_judge) * 100;
    case METRIC_STEPS: return avg(a->steps, a->n);
    case METRIC_MODEL_TOKENS: return avg(a->tokens, a->n);
    default: return avg(a->obs_tokens, a->n);
    }
}

static void svg_bars(eous_buf *b, const char *title, const mode_stats *ms, int nm, int metric, double max)
{
    /* grouped bars: tiers on x, one bar per mode */
    /* one colour per mode: five modes used to share four colours (vision drew as atomic) */
    static const char *colors[MAX_MODES] = {"#3b7dd8", "#e07b39", "#4caf50", "#9c27b0", "#607d8b"};
    int w = 560, h = 240, left = 40, bottom = 200;
    eous_buf_printf(b, NULL, "<figure class='chart'><h3>%s</h3><svg width='%d' height='%d' role='img' aria-label='%s'>",
                    title, w, h, title);
    eous_buf_printf(b, NULL, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>", left, bottom, w - 10, bottom);
    for (int t = 0; t < MAX_TIERS; t++) {
        int gx = left + 10 + t * 125;
        eous_buf_printf(b, NULL, "<text x='%d' y='%d' font-size='12'>%s</text>", gx + 20, bottom + 16, TIERS[t]);
        for (int m = 0; m < nm; m++) {
            const agg *a = &ms[m].tier[t];
            double v = metric_value(a, metric);
            double bh = max > 0 ? v / max * 170 : 0;
            int x = gx + m * (100 / (nm ? nm : 1));
            eous_buf_printf(b, NULL,
                            "<rect x='%d' y='%.1f' width='%d' height='%.1f' fill='%s'><title>%s %s: %.1f</title></rect>"
                            "<text x='%d' y='%.1f' font-size='10'>%.*f</text>",
                            x, bottom - bh, 100 / (nm ? nm : 1) - 4, bh, colors[m % MAX_MODES], ms[m].name, TIERS[t], v, x,
                            bottom - bh - 3, v >= 100 && metric != METRIC_SUCCESS ? 0 : 1, v);
        }
    }
    for (int m = 0; m < nm; m++)
        eous_buf_printf(b, NULL, "<rect x='%d' y='8' width='10' height='10' fill='%s'/><text x='%d' y='17' font-size='12'>%s</text>",
                        left + m * 110, colors[m % MAX_MODES], left + 14 + m * 110, ms[m].name);
    eous_buf_puts(b, "</svg></figure>", NULL);
}

/* Everything the reports are made of: results.jsonl's rows and their
 * aggregates per mode and tier. */
typedef struct results {
    mode_stats ms[MAX_MODES];
    int nm;
    cJSON *rows;          /* the attempt that counts per task × mode, its last (owned) */
    cJSON *earlier;       /* the attempts a retry or --resume followed (owned) */
    int failed_attempts;  /* of earlier, those that did not pass */
} results;

static void results_add(results *R, cJSON *r)
{
    const char *mode = eous_json_str(r, "mode");
    int m;
    for (m = 0; m < R->nm; m++)
        if (!strcmp(R->ms[m].name, mode ? mode : "?"))
            break;
    if (m == R->nm && R->nm < MAX_MODES)
        snprintf(R->ms[R->nm++].name, sizeof R->ms[0].name, "%s", mode ? mode : "?");
    if (m < MAX_MODES) {
        int t = tier_index(eous_json_str(r, "tier"));
        if (t >= 0)
            add(&R->ms[m].tier[t], r);
        add(&R->ms[m].tier[3], r);
    }
    cJSON_AddItemToArray(R->rows, r);
}

/* Reads results.jsonl through agent/rundir: every attempt's line is kept;
 * the last per task × mode is counted, the earlier ones are listed. */
static eous_rc results_read(const char *out_dir, results *R, runs_outcome *o, eous_err *err)
{
    memset(R, 0, sizeof *R);
    runs_dir rd;
    eous_rc rc = runs_dir_load(out_dir, 0, &rd, err);
    if (rc)
        return rc;
    R->rows = cJSON_CreateArray();
    R->earlier = cJSON_CreateArray();
    if (!R->rows || !R->earlier) {
        cJSON_Delete(R->rows);
        cJSON_Delete(R->earlier);
        runs_dir_free(&rd);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory reading %s", rd.path);
    }
    while (rd.rows->child) {
        int last = runs_dir_is_last(rd.rows->child);
        cJSON *r = cJSON_DetachItemViaPointer(rd.rows, rd.rows->child);
        eous_status st = eous_status_parse(eous_json_str(r, "status"));
        if (!last) {
            R->failed_attempts += st != EOUS_ST_PASSED;
            cJSON_AddItemToArray(R->earlier, r);
            continue;
        }
        o->tasks++;
        if (st != EOUS_ST_PASSED)
            o->all_passed = 0;
        else
            o->passed++;
        if (st == EOUS_ST_INFRA)
            o->any_infra = 1;
        results_add(R, r);
    }
    o->failed_attempts = R->failed_attempts;
    runs_dir_free(&rd);
    return EOUS_OK;
}

static eous_rc write_summary_json(const char *out_dir, const results *R, eous_err *err)
{
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddNumberToObject(sum, "failed_attempts", R->failed_attempts);
    cJSON *modes = cJSON_AddObjectToObject(sum, "modes");
    for (int m = 0; m < R->nm && modes; m++) {
        cJSON *mo = cJSON_AddObjectToObject(modes, R->ms[m].name);
        for (int t = 0; t < MAX_TIERS; t++)
            if (R->ms[m].tier[t].n)
                cJSON_AddItemToObject(mo, TIERS[t], agg_json(&R->ms[m].tier[t]));
    }
    char *sj = cJSON_Print(sum);
    cJSON_Delete(sum);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", out_dir);
    eous_rc rc = sj ? eous_write_file_atomic(path, sj, strlen(sj), err)
                    : eous_err_set(err, EOUS_E_NOMEM, "%s: out of memory", path);
    free(sj);
    return rc;
}

/* summary.md: the shape of the paper's Table 1 plus the tier ablation. */
/* What a provider bills per task, when the run's model reported it. */
static void summary_billed(eous_buf *md, const results *R)
{
    const mode_stats *ms = R->ms;
    int any_billed = 0;
    for (int m = 0; m < R->nm; m++)
        any_billed |= ms[m].tier[3].billed > 0;
    if (any_billed) {
        /* a request bills its whole text, not the observation alone (llm/bill.c) */
        eous_buf_puts(md, "\nWhat a provider bills, per task (input as the provider reported it):\n\n"
                          "| mode | round trips | input tokens | of them cached | completion tokens | cost (USD) | "
                          "fixed share of requests |\n|---|---|---|---|---|---|---|\n", NULL);
        for (int m = 0; m < R->nm; m++) {
            const agg *a = &ms[m].tier[3];
            if (a->billed)
                eous_buf_printf(md, NULL, "| %s | %.2f | %.0f | %.0f | %.0f | %.4f | %.0f%% |\n", ms[m].name,
                                avg(a->plan_calls, a->n), avg(a->prompt, a->billed), avg(a->cached, a->billed),
                                avg(a->completion, a->billed), avg(a->cost, a->billed),
                                a->request ? a->fixed / a->request * 100 : 0);
        }
    }
}

/* Grounding, RPA, WebArena-Verified and judge notes, per mode. */
static void summary_notes(eous_buf *md, const results *R)
{
    const mode_stats *ms = R->ms;
    for (int m = 0; m < R->nm; m++) {
        const agg *a = &ms[m].tier[3];
        if (a->grounding[0])
            eous_buf_printf(md, NULL,
                            "\n%s grounding (%s): %d step(s) grounded, %d value(s) computed by a stated rule, "
                            "%d step(s) of ungrounded addressing (css= or page-data look-up), %d ungrounded step(s); "
                            "%d task(s) stopped as ungrounded.\n",
                            ms[m].name, a->grounding, a->grounded, a->computed, a->addressing, a->ungrounded,
                            a->ungrounded_tasks);
    }
    for (int m = 0; m < R->nm; m++) {
        const agg *a = &ms[m].tier[3];
        if (a->repaired || a->downloads || a->outputs) /* RPA jobs: a repaired pass is counted apart */
            eous_buf_printf(md, NULL,
                            "\n%s RPA: %d task(s) passed after a repair replaced a step (counted in passed; "
                            "see repair.json), %d file(s) downloaded, %d output.json written.\n",
                            ms[m].name, a->repaired, a->downloads, a->outputs);
    }
    for (int m = 0; m < R->nm; m++) {
        const agg *a = &ms[m].tier[3];
        if (!a->verified)
            continue;
        /* like an original task's verdict, per evaluator: WebArena-Verified scores 1 only when all succeed */
        eous_buf_printf(md, NULL, "\n%s WebArena-Verified: %d task(s), %d with a network log (HAR)", ms[m].name,
                        a->verified, a->hars);
        for (int i = 0; i < VF_EVALUATORS_MAX && a->ev[i].name[0]; i++)
            eous_buf_printf(md, NULL, "%s %s %d success · %d failure · %d error", i ? ";" : ":", a->ev[i].name,
                            a->ev[i].success, a->ev[i].failure, a->ev[i].error);
        eous_buf_puts(md, ". Each task's answer, HAR and scores are in trace/<task>-<mode>/ (agent_response.json, "
                          "network.har, score.json); `eous score` on the run folder re-scores them.\n", NULL);
    }
    for (int m = 0; m < R->nm; m++)
        if (ms[m].tier[3].needs_judge)
            eous_buf_printf(md, NULL, "\n%s: %d task(s) need a judge (fuzzy_match/ua_match without a judge model): "
                                      "not counted as passed or failed.\n",
                            ms[m].name, ms[m].tier[3].needs_judge);
}

/* Success and steps by tier, then time per step. */
static void summary_tiers(eous_buf *md, const results *R, int all_scripted)
{
    const mode_stats *ms = R->ms;
    eous_buf_printf(md, NULL, "\nBy tier (success · %s):\n\n| mode | short | medium | long |\n|---|---|---|---|\n",
                    all_scripted ? "plan steps" : "avg steps");
    for (int m = 0; m < R->nm; m++) {
        eous_buf_printf(md, NULL, "| %s", ms[m].name);
        for (int t = 0; t < 3; t++) {
            const agg *a = &ms[m].tier[t];
            /* a tier with no tasks has no success rate (0% would read as all failed) */
            if (!a->n)
                eous_buf_puts(md, " | – (n=0)", NULL);
            else
                eous_buf_printf(md, NULL, " | %.1f%% · %.2f (n=%d)", avg(a->passed, a->n) * 100, avg(a->steps, a->n),
                                a->n);
        }
        eous_buf_puts(md, " |\n", NULL);
    }
    eous_buf_puts(md, "\nTime per step (ms): perceive · act · settle\n\n", NULL);
    for (int m = 0; m < R->nm; m++) {
        const agg *a = &ms[m].tier[3];
        eous_buf_printf(md, NULL, "- %s: %.0f · %.0f · %.0f\n", ms[m].name, a->steps ? a->perceive_ms / a->steps : 0,
                        a->steps ? a->act_ms / a->steps : 0, a->steps ? a->settle_ms / a->steps : 0);
    }
}

static void summary_md(eous_buf *md, const results *R)
{
    const mode_stats *ms = R->ms;
    /* a script replays a plan: its step count is the plan's length, not an agent's */
    int all_scripted = R->nm > 0;
    for (int m = 0; m < R->nm; m++)
        all_scripted &= ms[m].tier[3].scripted == ms[m].tier[3].n;
    /* counted by each task × mode's last attempt; the earlier failed ones are never hidden */
    int n = 0, passed = 0;
    for (int m = 0; m < R->nm; m++) {
        n += ms[m].tier[3].n;
        passed += ms[m].tier[3].passed;
    }
    eous_buf_printf(md, NULL, "%d/%d passed · %d failed attempt%s%s\n\n", passed, n, R->failed_attempts,
                    R->failed_attempts == 1 ? "" : "s",
                    R->failed_attempts ? " (earlier attempts a retry or a resumed run followed; each is a line of "
                                         "results.jsonl)" : "");
    eous_buf_printf(md, NULL,
                    "| mode | tasks | success | %s | observation tokens (o200k)/step | model tokens/task | s/task | "
                    "ms/step | semantic share | fallbacks | infra |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|\n",
                    all_scripted ? "plan steps (grounded script)" : "avg steps");
    for (int m = 0; m < R->nm; m++) {
        const agg *a = &ms[m].tier[3];
        eous_buf_printf(md, NULL, "| %s | %d | %.1f%% | %.2f | %.0f | %.0f | %.2f | %.0f | %.0f%% | %.0f | %d |\n",
                        ms[m].name, a->n, avg(a->passed, a->n - a->needs_judge) * 100, avg(a->steps, a->n),
                        a->steps ? a->obs_tokens / a->steps : 0, avg(a->tokens, a->n), avg(a->wall_ms, a->n) / 1000,
                        a->steps ? a->wall_ms / a->steps : 0,
                        a->semantic + a->atomic ? a->semantic / (a->semantic + a->atomic) * 100 : 0, a->fallbacks,
                        a->infra);
    }
    /* obs tokens are eous's own o200k count; model tokens are what the provider reported */
    eous_buf_puts(md, "\nobs tokens: o200k_base tokens counted by eous (exact for OpenAI's o200k models, an estimate "
                      "for others such as Anthropic's); model tokens: the provider's reported usage.\n", NULL);
    summary_billed(md, R);
    summary_notes(md, R);
    summary_tiers(md, R, all_scripted);
}

/* Success, steps and tokens per task by tier, one bar per mode. */
static void charts(eous_buf *h, const results *R)
{
    const mode_stats *ms = R->ms;
    double max[4] = {100, 1, 1, 1};
    for (int k = 1; k < 4; k++)
        for (int m = 0; m < R->nm; m++)
            for (int t = 0; t < MAX_TIERS; t++)
                if (metric_value(&ms[m].tier[t], k) > max[k])
                    max[k] = metric_value(&ms[m].tier[t], k);
    svg_bars(h, "Success rate (%) by tier", ms, R->nm, METRIC_SUCCESS, max[0]);
    svg_bars(h, "Average steps by tier", ms, R->nm, METRIC_STEPS, max[1]);
    /* a scripted run asks no model: its tokens are the observations' */
    if (max[METRIC_MODEL_TOKENS] > 1)
        svg_bars(h, "Model tokens per task by tier", ms, R->nm, METRIC_MODEL_TOKENS, max[2]);
    svg_bars(h, "Observation tokens (o200k) per task by tier", ms, R->nm, METRIC_OBS_TOKENS, max[3]);
}

static eous_rc write_report_html(const char *out_dir, const results *R, const char *md, eous_err *err)
{
    eous_buf svg;
    eous_buf_init(&svg, 0);
    charts(&svg, R);
    if (svg.failed) {
        eous_rc failed = svg.failed;
        eous_buf_free(&svg);
        return eous_err_set(err, failed, "%s/report.html: out of memory drawing its charts", out_dir);
    }
    const char *modes[MAX_MODES];
    for (int m = 0; m < R->nm; m++)
        modes[m] = R->ms[m].name;
    eous_rc rc = runs_report_html_write(out_dir, R->rows, R->earlier, modes, R->nm, md, svg.data, err);
    eous_buf_free(&svg);
    return rc;
}

/* A verified result's evaluators, one a line, each failed assertion indented under it. */
static void evaluator_lines(eous_buf *b, const cJSON *r)
{
    const cJSON *e, *f;
    cJSON_ArrayForEach(e, eous_json_arr(r, "evaluators")) {
        eous_buf_printf(b, NULL, "%s: %s\n", eous_json_str(e, "evaluator"), eous_json_str(e, "status"));
        if (eous_json_str(e, "error"))
            eous_buf_printf(b, NULL, "  error: %s\n", eous_json_str(e, "error"));
        cJSON_ArrayForEach(f, eous_json_arr(e, "failed")) if (cJSON_IsString(f))
            eous_buf_printf(b, NULL, "  %s\n", f->valuestring);
    }
}

/* Text redacted, then written as an element's content. */
static void junit_text(xmlTextWriterPtr w, const char *el, const char *text)
{
    char *clean = eous_redact(text ? text : "");
    if (el)
        xmlTextWriterStartElement(w, BAD_CAST el);
    xmlTextWriterWriteString(w, BAD_CAST(clean ? clean : ""));
    if (el)
        xmlTextWriterEndElement(w);
    free(clean);
}

/* A verified task's files in system-out: its answer and HAR, the HAR as an
 * attachment CI servers (GitLab, Jenkins) link ([[ATTACHMENT|path]]). */
static void junit_files(xmlTextWriterPtr w, const cJSON *r)
{
    const char *resp = eous_json_str(r, "agent_response"), *har = eous_json_str(r, "har");
    if (!resp && !har)
        return;
    eous_buf b;
    eous_buf_init(&b, 0);
    if (resp)
        eous_buf_printf(&b, NULL, "agent response: %s\n", resp);
    if (har)
        eous_buf_printf(&b, NULL, "network log (HAR): %s\n[[ATTACHMENT|%s]]\n", har, har);
    else
        eous_buf_puts(&b, "network log (HAR): none recorded\n", NULL);
    junit_text(w, "system-out", b.data);
    eous_buf_free(&b);
}

static void junit_case(xmlTextWriterPtr w, const cJSON *r, const char *mode)
{
    const char *word = eous_json_str(r, "status");
    eous_status st = eous_status_parse(word);
    xmlTextWriterStartElement(w, BAD_CAST "testcase");
    xmlTextWriterWriteFormatAttribute(w, BAD_CAST "classname", "eous.%s", mode);
    xmlTextWriterWriteFormatAttribute(w, BAD_CAST "name", "task %s", eous_json_str(r, "task_id"));
    xmlTextWriterWriteFormatAttribute(w, BAD_CAST "time", "%.3f", eous_json_num(r, "wall_ms", 0) / 1000);
    if (word && st != EOUS_ST_PASSED) {
        /* infrastructure and interruptions are errors, not the task's failures */
        const char *el = st == EOUS_ST_INFRA || st == EOUS_ST_INTERRUPTED     ? "error"
                         : st == EOUS_ST_SKIPPED || st == EOUS_ST_NEEDS_JUDGE ? "skipped"
                                                                              : "failure";
        const char *d = eous_json_str(r, "error");
        if (!d || !*d)
            d = eous_json_str(r, "eval_detail");
        char *clean = eous_redact(d ? d : "");
        xmlTextWriterStartElement(w, BAD_CAST el);
        xmlTextWriterWriteAttribute(w, BAD_CAST "message", BAD_CAST(clean ? clean : ""));
        if (eous_json_arr(r, "evaluators")) { /* each evaluator's status and failed assertions */
            eous_buf b;
            eous_buf_init(&b, 0);
            evaluator_lines(&b, r);
            junit_text(w, NULL, b.data);
            eous_buf_free(&b);
        }
        xmlTextWriterEndElement(w);
        free(clean);
    }
    junit_files(w, r);
    xmlTextWriterEndElement(w);
}

/* junit.xml: one test case per task × mode. */
static eous_rc write_junit(const char *out_dir, const results *R, eous_err *err)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/junit.xml", out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    xmlTextWriterPtr w = xmlNewTextWriterFilename(tmp, 0);
    if (!w)
        return eous_err_set(err, EOUS_E_IO, "%s: cannot write", tmp);
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
    xmlTextWriterStartElement(w, BAD_CAST "testsuites");
    for (int m = 0; m < R->nm; m++) {
        const agg *a = &R->ms[m].tier[3];
        int errors = a->infra + a->interrupted;
        xmlTextWriterStartElement(w, BAD_CAST "testsuite");
        xmlTextWriterWriteFormatAttribute(w, BAD_CAST "name", "eous.%s", R->ms[m].name);
        xmlTextWriterWriteFormatAttribute(w, BAD_CAST "tests", "%d", a->n);
        xmlTextWriterWriteFormatAttribute(w, BAD_CAST "failures", "%d",
                                          a->n - a->passed - errors - a->skipped - a->needs_judge);
        xmlTextWriterWriteFormatAttribute(w, BAD_CAST "errors", "%d", errors);
        xmlTextWriterWriteFormatAttribute(w, BAD_CAST "skipped", "%d", a->skipped + a->needs_judge);
        const cJSON *r;
        cJSON_ArrayForEach(r, R->rows) {
            const char *mode = eous_json_str(r, "mode");
            if (mode && !strcmp(mode, R->ms[m].name))
                junit_case(w, r, mode);
        }
        xmlTextWriterEndElement(w);
    }
    xmlTextWriterEndElement(w);
    int end = xmlTextWriterEndDocument(w);
    xmlFreeTextWriter(w);
    if (end < 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return eous_err_set(err, EOUS_E_IO, "%s: cannot write", path);
    }
    return EOUS_OK;
}

eous_rc runs_reports_write(const char *out_dir, runs_outcome *o, char **table_md, eous_err *err)
{
    memset(o, 0, sizeof *o);
    o->all_passed = 1;
    if (table_md)
        *table_md = NULL;
    results R;
    eous_rc rc = results_read(out_dir, &R, o, err);
    if (rc)
        return rc;
    eous_buf md;
    eous_buf_init(&md, 0);
    summary_md(&md, &R);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.md", out_dir);
    if (md.failed)
        rc = eous_err_set(err, md.failed, "%s: out of memory building it; not written", path);
    else if (!(rc = write_summary_json(out_dir, &R, err)) &&
        !(rc = eous_write_file_atomic(path, md.data ? md.data : "", md.len, err)) &&
        !(rc = write_report_html(out_dir, &R, md.data, err)))
        rc = write_junit(out_dir, &R, err);
    if (table_md && !rc)
        *table_md = eous_buf_steal(&md);
    eous_buf_free(&md);
    cJSON_Delete(R.rows);
    cJSON_Delete(R.earlier);
    return rc;
}

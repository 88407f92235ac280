/* agent/result.c — a run's options and a task's result: defaults, planner
 * names, and the result as one results.jsonl line (runs/rundir.h appends
 * it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/batch.h"
#include "agent/outputs.h"
#include "agent/run.h"
#include "llm/llm.h"

void agent_run_opts_init(agent_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mode = PERC_MODE_HYBRID;
    o->planner = AGENT_PLANNER_SCRIPT;
    o->max_steps = EOUS_DEFAULT_MAX_STEPS;
    o->max_seconds = EOUS_DEFAULT_MAX_SECONDS;
    o->max_batch = AGENT_DEFAULT_MAX_BATCH;
    o->deltas = -1;
    o->history = LLM_DEFAULT_HISTORY;
    o->screenshots = AGENT_SHOTS_FAILURE;
}

static const char *const planner_names[] = {[AGENT_PLANNER_SCRIPT] = "script", [AGENT_PLANNER_LLM] = "llm",
                                             [AGENT_PLANNER_REPLAY] = "replay", [AGENT_PLANNER_EXEC] = "exec"};

int agent_planner_parse(const char *s, agent_planner *out)
{
    int i = eous_name_find(planner_names, EOUS_NAMES_N(planner_names), s);
    if (i < 0)
        return -1;
    *out = (agent_planner)i;
    return 0;
}

static const char *const stop_names[AGENT_STOP_COUNT] = {
    [AGENT_STOP_NONE] = "",
    [AGENT_STOP_STOP] = "stop",
    [AGENT_STOP_SCRIPT_END] = "script_end",
    [AGENT_STOP_MAX_STEPS] = "max_steps",
    [AGENT_STOP_TIME] = "time",
    [AGENT_STOP_PARSE_FAILURES] = "parse_failures",
    [AGENT_STOP_REPEATED_ACTION] = "repeated_action",
    [AGENT_STOP_SCRIPT_ERROR] = "script_error",
    [AGENT_STOP_EXPECT_FAILED] = "expect_failed",
    [AGENT_STOP_UNGROUNDED] = "ungrounded",
    [AGENT_STOP_OUTPUT_SCHEMA] = "output_schema",
    [AGENT_STOP_MODEL_UNAVAILABLE] = "model_unavailable",
    [AGENT_STOP_AGENT_EXITED] = "agent_exited",
    [AGENT_STOP_AGENT_TIMEOUT] = "agent_timeout",
    [AGENT_STOP_AGENT_BAD_LINE] = "agent_bad_line",
    [AGENT_STOP_INFRA] = "infra",
    [AGENT_STOP_INTERRUPTED] = "interrupted",
    [AGENT_STOP_ERROR] = "error",
};

const char *agent_stop_name(agent_stop s)
{
    return s > AGENT_STOP_NONE && s < AGENT_STOP_COUNT ? stop_names[s] : "";
}

const char *agent_planner_name(agent_planner p)
{
    return eous_name_of(planner_names, EOUS_NAMES_N(planner_names), (int)p, "script");
}

void agent_result_clear(agent_result *r)
{
    if (!r)
        return;
    free(r->answer);
    cJSON_Delete(r->bench.evaluators);
    cJSON_Delete(r->rpa.output);
    cJSON_Delete(r->rpa.downloads);
    cJSON_Delete(r->bench.site_urls);
    memset(r, 0, sizeof *r);
}

char *agent_result_json(const agent_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "task_id", r->task_id);
    cJSON_AddStringToObject(o, "mode", r->mode);
    cJSON_AddStringToObject(o, "planner", r->planner);
    cJSON_AddStringToObject(o, "status", eous_status_name(r->status));
    if (r->attempt > 0)
        cJSON_AddNumberToObject(o, "attempt", r->attempt);
    cJSON_AddNumberToObject(o, "score", r->score);
    if (r->tier)
        cJSON_AddStringToObject(o, "tier", r->tier);
    if (r->screen)
        cJSON_AddStringToObject(o, "screen", r->screen);
    if (r->intent)
        cJSON_AddStringToObject(o, "intent", r->intent);
    if (r->params) /* a parameter is not a secret: its value is what the job ran with */
        cJSON_AddItemToObject(o, "params", cJSON_Duplicate(r->params, 1));
    if (r->answer)
        cJSON_AddStringToObject(o, "answer", r->answer);
    else
        cJSON_AddNullToObject(o, "answer");
    cJSON_AddNumberToObject(o, "steps", r->steps);
    cJSON_AddNumberToObject(o, "plan_calls", r->plan_calls);
    cJSON_AddNumberToObject(o, "actions_not_run", r->not_run);
    cJSON_AddNumberToObject(o, "semantic_actions", r->semantic_actions);
    cJSON_AddNumberToObject(o, "atomic_actions", r->atomic_actions);
    cJSON_AddNumberToObject(o, "fallbacks", r->fallbacks);
    cJSON_AddNumberToObject(o, "errors", r->errors);
    cJSON_AddNumberToObject(o, "prompt_tokens", (double)r->usage.prompt_tokens);
    cJSON_AddNumberToObject(o, "completion_tokens", (double)r->usage.completion_tokens);
    cJSON_AddNumberToObject(o, "cached_tokens", (double)r->usage.cached_tokens);
    cJSON_AddNumberToObject(o, "cost_usd", r->usage.cost_usd);
    if (r->history) {
        cJSON *b = cJSON_AddObjectToObject(o, "request_tokens");
        cJSON_AddNumberToObject(b, "total", (double)r->usage.request_tokens);
        cJSON_AddNumberToObject(b, "prefix", (double)r->usage.prefix_tokens);
        cJSON_AddNumberToObject(b, "new", (double)(r->usage.request_tokens - r->usage.prefix_tokens));
        cJSON_AddNumberToObject(b, "fixed", (double)r->usage.fixed_tokens);
        cJSON_AddStringToObject(o, "history", r->history);
        cJSON_AddNumberToObject(o, "history_restarts", r->history_restarts);
    }
    if (r->bench.har[0])
        cJSON_AddStringToObject(o, "har", r->bench.har);
    if (r->bench.agent_response[0])
        cJSON_AddStringToObject(o, "agent_response", r->bench.agent_response);
    if (r->bench.evaluators)
        cJSON_AddItemToObject(o, "evaluators", cJSON_Duplicate(r->bench.evaluators, 1));
    cJSON_AddNumberToObject(o, "obs_bytes", (double)r->obs.bytes);
    cJSON_AddNumberToObject(o, "obs_tokens", (double)r->obs.tokens);
    cJSON_AddNumberToObject(o, "obs_tokens_sent", (double)r->obs.tokens_sent);
    cJSON_AddStringToObject(o, "obs_tokens_by", r->obs.tokens_by ? r->obs.tokens_by : "o200k_base");
    cJSON_AddNumberToObject(o, "wall_ms", r->time.wall_ms);
    cJSON_AddNumberToObject(o, "perceive_ms", r->time.perceive_ms);
    cJSON_AddNumberToObject(o, "plan_ms", r->time.plan_ms);
    cJSON_AddNumberToObject(o, "act_ms", r->time.act_ms);
    cJSON_AddNumberToObject(o, "settle_ms", r->time.settle_ms);
    cJSON_AddNumberToObject(o, "site_ms", r->time.site_ms);
    if (r->bench.site_urls)
        cJSON_AddItemToObject(o, "site_urls", cJSON_Duplicate(r->bench.site_urls, 1));
    cJSON_AddNumberToObject(o, "start_ms", r->time.start_ms);
    cJSON_AddNumberToObject(o, "score_ms", r->time.score_ms);
    cJSON_AddStringToObject(o, "stop_reason", agent_stop_name(r->stop_reason));
    if (r->ground.mode && strcmp(r->ground.mode, "off")) {
        cJSON *g = cJSON_AddObjectToObject(o, "grounding");
        cJSON_AddStringToObject(g, "mode", r->ground.mode);
        cJSON_AddNumberToObject(g, "grounded", r->ground.grounded);
        cJSON_AddNumberToObject(g, "computed", r->ground.computed);
        cJSON_AddNumberToObject(g, "ungrounded_addressing", r->ground.addressing);
        cJSON_AddNumberToObject(g, "ungrounded", r->ground.ungrounded);
    }
    cJSON_AddStringToObject(o, "error", r->error);
    cJSON_AddStringToObject(o, "eval_detail", r->eval_detail);
    if (r->bench.known_limit)
        cJSON_AddStringToObject(o, "known_limit", r->bench.known_limit);
    if (r->screenshot[0])
        cJSON_AddStringToObject(o, "screenshot", r->screenshot);
    agent_outputs_json(r, o);
    char *s = eous_json_print(o);
    cJSON_Delete(o);
    char *clean = s ? eous_redact(s) : NULL;
    free(s);
    return clean;
}

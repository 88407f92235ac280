/* agent/loop.c — the perceive → plan → act → settle loop for one task, with
 * WebArena's early-stop rules, per-step trace lines and the final score. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "actions/policy.h"
#include "agent/run.h"
#include "agent/site_reset.h"
#include "llm/llm.h"

#define MAX_FAILED_PARSES 3
#define MAX_REPEATED_ACTIONS 3

void agent_run_opts_init(agent_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mode = PERC_MODE_HYBRID;
    o->planner = AGENT_PLANNER_SCRIPT;
    o->max_steps = 30;
    o->max_seconds = 600;
}

int agent_planner_parse(const char *s, agent_planner *out)
{
    if (!s)
        return -1;
    if (!strcmp(s, "script"))
        *out = AGENT_PLANNER_SCRIPT;
    else if (!strcmp(s, "llm"))
        *out = AGENT_PLANNER_LLM;
    else if (!strcmp(s, "replay"))
        *out = AGENT_PLANNER_REPLAY;
    else
        return -1;
    return 0;
}

const char *agent_planner_name(agent_planner p)
{
    return p == AGENT_PLANNER_LLM ? "llm" : p == AGENT_PLANNER_REPLAY ? "replay" : "script";
}

void agent_result_clear(agent_result *r)
{
    if (!r)
        return;
    free(r->answer);
    memset(r, 0, sizeof *r);
}

char *agent_result_json(const agent_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "task_id", r->task_id);
    cJSON_AddStringToObject(o, "mode", r->mode);
    cJSON_AddStringToObject(o, "planner", r->planner);
    cJSON_AddStringToObject(o, "status", r->status);
    cJSON_AddNumberToObject(o, "score", r->score);
    if (r->tier)
        cJSON_AddStringToObject(o, "tier", r->tier);
    if (r->answer)
        cJSON_AddStringToObject(o, "answer", r->answer);
    else
        cJSON_AddNullToObject(o, "answer");
    cJSON_AddNumberToObject(o, "steps", r->steps);
    cJSON_AddNumberToObject(o, "semantic_actions", r->semantic_actions);
    cJSON_AddNumberToObject(o, "atomic_actions", r->atomic_actions);
    cJSON_AddNumberToObject(o, "fallbacks", r->fallbacks);
    cJSON_AddNumberToObject(o, "errors", r->errors);
    cJSON_AddNumberToObject(o, "prompt_tokens", (double)r->prompt_tokens);
    cJSON_AddNumberToObject(o, "completion_tokens", (double)r->completion_tokens);
    cJSON_AddNumberToObject(o, "cached_tokens", (double)r->cached_tokens);
    cJSON_AddNumberToObject(o, "cost_usd", r->cost_usd);
    cJSON_AddNumberToObject(o, "obs_bytes", (double)r->obs_bytes_total);
    cJSON_AddNumberToObject(o, "obs_tokens", (double)r->obs_tokens_total);
    cJSON_AddNumberToObject(o, "wall_ms", r->wall_ms);
    cJSON_AddNumberToObject(o, "perceive_ms", r->perceive_ms);
    cJSON_AddNumberToObject(o, "plan_ms", r->plan_ms);
    cJSON_AddNumberToObject(o, "act_ms", r->act_ms);
    cJSON_AddNumberToObject(o, "settle_ms", r->settle_ms);
    cJSON_AddStringToObject(o, "stop_reason", r->stop_reason);
    cJSON_AddStringToObject(o, "error", r->error);
    cJSON_AddStringToObject(o, "eval_detail", r->eval_detail);
    char *s = eous_json_print(o);
    cJSON_Delete(o);
    char *clean = s ? eous_redact(s) : NULL;
    free(s);
    return clean;
}

static void trace_line(FILE *f, cJSON *line)
{
    if (!f) {
        cJSON_Delete(line);
        return;
    }
    char *s = eous_json_print(line);
    cJSON_Delete(line);
    char *clean = s ? eous_redact(s) : NULL;
    if (clean) {
        fputs(clean, f);
        fputc('\n', f);
        fflush(f);
    }
    free(s);
    free(clean);
}

eous_rc agent_prepare_page(wd_session *s, const agent_task *t, eous_err *err)
{
    eous_rc rc;
    /* a clean slate on the start origin: cookies, localStorage, sessionStorage */
    if ((rc = wd_navigate(s, t->start_url, err)))
        return rc;
    wd_command(s, "DELETE", "/cookie", NULL, NULL, NULL);
    cJSON *v = NULL;
    wd_execute(s, "try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} return true;", NULL, &v, NULL);
    cJSON_Delete(v);
    if (t->storage_state) {
        /* Playwright storage_state: {cookies: [...], origins: [{origin, localStorage: [{name, value}]}]} */
        cJSON *st = eous_json_parse_file(t->storage_state, 0, err);
        if (!st) {
            eous_err_prefix(err, "task %s: storage_state", t->id);
            if (err)
                err->rc = EOUS_E_INVALID;
            return EOUS_E_INVALID;
        }
        const cJSON *c;
        cJSON_ArrayForEach(c, eous_json_arr(st, "cookies")) {
            cJSON *body = cJSON_CreateObject();
            cJSON *ck = cJSON_AddObjectToObject(body, "cookie");
            const char *keys[] = {"name", "value", "path", "domain"};
            for (int i = 0; i < 4; i++)
                if (eous_json_str(c, keys[i]))
                    cJSON_AddStringToObject(ck, keys[i], eous_json_str(c, keys[i]));
            cJSON_AddBoolToObject(ck, "secure", eous_json_bool(c, "secure", 0));
            cJSON_AddBoolToObject(ck, "httpOnly", eous_json_bool(c, "httpOnly", 0));
            wd_command(s, "POST", "/cookie", body, NULL, NULL);
            cJSON_Delete(body);
        }
        const cJSON *o;
        cJSON_ArrayForEach(o, eous_json_arr(st, "origins")) {
            const cJSON *ls = eous_json_arr(o, "localStorage");
            if (!ls)
                continue;
            cJSON *args = cJSON_CreateArray();
            cJSON_AddItemToArray(args, cJSON_Duplicate(ls, 1));
            wd_execute(s, "for (const kv of arguments[0]) localStorage.setItem(kv.name, kv.value); return true;", args,
                       &v, NULL);
            cJSON_Delete(v);
            cJSON_Delete(args);
        }
        cJSON_Delete(st);
    }
    /* geolocation: {"latitude", "longitude", "accuracy"?} as Playwright takes it */
    const cJSON *geo = eous_json_obj(t->raw, "geolocation");
    if (geo && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(geo, "latitude")) &&
        cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(geo, "longitude")) && wd_session_has_cdp(s)) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "latitude", eous_json_num(geo, "latitude", 0));
        cJSON_AddNumberToObject(p, "longitude", eous_json_num(geo, "longitude", 0));
        cJSON_AddNumberToObject(p, "accuracy", eous_json_num(geo, "accuracy", 10));
        cJSON *r = NULL;
        wd_cdp(s, "Emulation.setGeolocationOverride", p, &r, NULL);
        cJSON_Delete(r);
        cJSON_Delete(p);
    }
    return wd_navigate(s, t->start_url, err);
}

static const cJSON *plan_for(const agent_task *t, perc_mode mode)
{
    if (mode == PERC_MODE_HYBRID)
        return t->script ? t->script : t->atomic_script;
    return t->atomic_script;
}

eous_rc agent_run_task(wd_session *s, const agent_task *t, const agent_run_opts *o, agent_result *res, eous_err *err)
{
    memset(res, 0, sizeof *res);
    snprintf(res->task_id, sizeof res->task_id, "%s", t->id);
    snprintf(res->mode, sizeof res->mode, "%s", perc_mode_name(o->mode));
    snprintf(res->planner, sizeof res->planner, "%s", agent_planner_name(o->planner));
    res->tier = t->tier;
    double t0 = eous_now_ms();
    FILE *trace = NULL;
    act_exec *x = NULL;
    act_policy *own_policy = NULL;
    perc_obs *obs = NULL;
    eous_rc rc = EOUS_OK;
    llm_history_item *hist = NULL;
    size_t n_hist = 0;
    char **hist_text = NULL;
    act_action prev[MAX_REPEATED_ACTIONS];
    int n_prev = 0;
    for (int i = 0; i < MAX_REPEATED_ACTIONS; i++)
        act_action_init(&prev[i]);
    char last_error[1024] = "";
    int failed_parses = 0;

    if (t->problem[0]) {
        snprintf(res->status, sizeof res->status, "skipped");
        snprintf(res->error, sizeof res->error, "%s", t->problem);
        return eous_err_set(err, EOUS_E_INVALID, "task %s: %s", t->id, t->problem);
    }
    const cJSON *plan = NULL;
    if (o->planner == AGENT_PLANNER_SCRIPT) {
        plan = plan_for(t, o->mode);
        if (!plan) {
            snprintf(res->status, sizeof res->status, "skipped");
            snprintf(res->error, sizeof res->error, "task %s has no %s for the script planner", t->id,
                     o->mode == PERC_MODE_HYBRID ? "script" : "atomic_script");
            return eous_err_set(err, EOUS_E_INVALID, "%s", res->error);
        }
    } else if (!o->llm) {
        return eous_err_set(err, EOUS_E_INVALID, "planner %s needs a model (--llm or --cassette)",
                            agent_planner_name(o->planner));
    }
    if (o->trace_path) {
        trace = fopen(o->trace_path, "w");
        if (!trace)
            return eous_err_set(err, EOUS_E_IO, "%s: cannot write the trace", o->trace_path);
    }
    act_exec_opts xo;
    act_exec_opts_init(&xo);
    xo.audit_path = o->audit_path;
    if ((rc = act_exec_new(s, &xo, &x, err)))
        goto done;
    if (o->policy) {
        act_exec_set_policy(x, o->policy);
    } else {
        /* default policy: navigation stays on the task's own origin */
        if ((rc = act_policy_new(&own_policy, err)) || (rc = act_policy_allow_origin(own_policy, t->start_url, err)))
            goto done;
        act_policy_set_interactive(own_policy, 0);
        act_exec_set_policy(x, own_policy);
    }
    if (o->secrets)
        act_exec_set_secrets(x, o->secrets);

    if ((rc = agent_site_enter(t, err)) || (rc = agent_prepare_page(s, t, err)))
        goto done;
    double settle_ms = 0;
    act_settle(x, &settle_ms, NULL);
    res->settle_ms += settle_ms;

    perc_opts po;
    perc_opts_init(&po);
    po.mode = o->mode;
    int step = 0;
    /* a deterministic plan gets the steps it has (the budget is for models) */
    int max_steps = o->max_steps;
    if (plan && cJSON_GetArraySize(plan) > max_steps)
        max_steps = cJSON_GetArraySize(plan);
    for (;;) {
        if (eous_interrupted()) {
            rc = eous_err_set(err, EOUS_E_INTERRUPTED, "interrupted");
            goto done;
        }
        if (step >= max_steps) {
            snprintf(res->stop_reason, sizeof res->stop_reason, "max_steps");
            break;
        }
        if (o->max_seconds > 0 && eous_now_ms() - t0 > o->max_seconds * 1000) {
            snprintf(res->stop_reason, sizeof res->stop_reason, "time");
            break;
        }
        /* perceive */
        double tp = eous_now_ms();
        perc_obs_free(obs);
        obs = NULL;
        if ((rc = perc_observe(s, &po, &obs, err)))
            goto done;
        double perceive_ms = eous_now_ms() - tp;
        res->perceive_ms += perceive_ms;
        res->obs_bytes_total += perc_obs_text_len(obs);
        size_t obs_tokens = perc_estimate_tokens(perc_obs_text(obs), perc_obs_text_len(obs));
        res->obs_tokens_total += obs_tokens;

        /* plan */
        double tl = eous_now_ms();
        act_action a;
        act_action_init(&a);
        llm_usage usage;
        memset(&usage, 0, sizeof usage);
        eous_err perr;
        eous_err_clear(&perr);
        eous_rc prc;
        if (o->planner == AGENT_PLANNER_SCRIPT) {
            const cJSON *stepj = cJSON_GetArrayItem(plan, step);
            if (!stepj) {
                snprintf(res->stop_reason, sizeof res->stop_reason, "script_end");
                break;
            }
            prc = act_parse_script_step(stepj, &a, &perr);
            if (prc) {
                snprintf(res->error, sizeof res->error, "script step %d: %s", step + 1, perr.msg);
                snprintf(res->stop_reason, sizeof res->stop_reason, "script_error");
                break;
            }
        } else {
            llm_step_input in;
            memset(&in, 0, sizeof in);
            in.objective = t->intent;
            in.url = perc_obs_url(obs);
            in.observation = perc_obs_text(obs);
            in.mode = perc_mode_name(o->mode);
            in.history = hist;
            in.n_history = n_hist;
            in.last_error = last_error[0] ? last_error : NULL;
            prc = llm_next_action(o->llm, &in, &a, &usage, &perr);
            res->prompt_tokens += usage.prompt_tokens;
            res->completion_tokens += usage.completion_tokens;
            res->cached_tokens += usage.cached_tokens;
            res->cost_usd += usage.cost_usd;
            if (prc == EOUS_E_PARSE || prc == EOUS_E_INVALID) {
                if (prc == EOUS_E_INVALID && o->planner == AGENT_PLANNER_REPLAY) {
                    rc = eous_err_set(err, EOUS_E_INVALID, "%s", perr.msg);
                    goto done;
                }
                failed_parses++;
                snprintf(last_error, sizeof last_error, "your last answer could not be parsed: %s", perr.msg);
                cJSON *line = cJSON_CreateObject();
                cJSON_AddNumberToObject(line, "step", step + 1);
                cJSON_AddStringToObject(line, "parse_error", perr.msg);
                trace_line(trace, line);
                step++;
                res->steps = step;
                res->plan_ms += eous_now_ms() - tl;
                if (failed_parses >= MAX_FAILED_PARSES) {
                    snprintf(res->stop_reason, sizeof res->stop_reason, "parse_failures");
                    break;
                }
                continue;
            }
            if (prc) {
                rc = prc;
                if (err)
                    *err = perr;
                /* the model endpoint's failure, not the browser's: the bench
                 * keeps the session and counts it toward its breaker */
                if (prc == EOUS_E_INFRA || prc == EOUS_E_TIMEOUT)
                    snprintf(res->stop_reason, sizeof res->stop_reason, "model_unavailable");
                goto done;
            }
            failed_parses = 0;
        }
        double plan_ms = eous_now_ms() - tl;
        res->plan_ms += plan_ms;

        /* WebArena's rule: a model repeating the same action 3 times in a row
         * is stuck; a deterministic plan may repeat on purpose (next month ×3) */
        int same = o->planner != AGENT_PLANNER_SCRIPT && n_prev >= MAX_REPEATED_ACTIONS - 1;
        for (int i = 0; i < MAX_REPEATED_ACTIONS - 1 && same; i++)
            same = act_equal(&prev[(n_prev - 1 - i) % MAX_REPEATED_ACTIONS], &a);

        /* act */
        act_result ar;
        memset(&ar, 0, sizeof ar);
        eous_err aerr;
        eous_err_clear(&aerr);
        eous_rc arc = act_execute(x, obs, &a, &ar, &aerr);
        /* refused before the page was touched (policy, validation, a bad
         * action): nothing can have navigated, no round trip to ask */
        int touched = arc != EOUS_E_INFRA && arc != EOUS_E_INTERRUPTED && arc != EOUS_E_POLICY &&
                      arc != EOUS_E_REJECTED && arc != EOUS_E_INVALID && arc != EOUS_E_PARSE;
        if (a.kind != ACT_STOP && touched) {
            /* any action may navigate (a link, a form, a key press, a page
             * tool that sets location), even one that then failed because
             * its page went away: where it led must be allowed too, else go
             * back and refuse (the refusal is the step's error) */
            char *now = NULL;
            act_policy *pol = o->policy ? o->policy : own_policy;
            eous_err perr2;
            eous_err_clear(&perr2);
            if (pol && wd_get_url(s, &now, NULL) == EOUS_OK && now &&
                act_policy_check_url(pol, now, &perr2) != EOUS_OK) {
                wd_back(s, NULL);
                arc = eous_err_set(&aerr, EOUS_E_POLICY, "the action led to %s, which policy refuses (went back): %s",
                                   now, perr2.msg);
            }
            free(now);
        }
        step++;
        res->steps = step;
        res->act_ms += ar.act_ms;
        res->settle_ms += ar.settle_ms;
        if (ar.path && !strcmp(ar.path, "semantic"))
            res->semantic_actions++;
        else if (ar.path && !strcmp(ar.path, "atomic"))
            res->atomic_actions++;
        if (ar.fallback_reason[0])
            res->fallbacks++;
        char *action_text = act_format(&a);
        cJSON *line = cJSON_CreateObject();
        cJSON_AddNumberToObject(line, "step", step);
        cJSON_AddStringToObject(line, "mode", perc_mode_name(o->mode));
        cJSON_AddStringToObject(line, "url", perc_obs_url(obs));
        cJSON_AddNumberToObject(line, "obs_bytes", (double)perc_obs_text_len(obs));
        cJSON_AddNumberToObject(line, "obs_tokens", (double)obs_tokens);
        cJSON_AddNumberToObject(line, "components", (double)perc_obs_n_components(obs));
        cJSON_AddStringToObject(line, "action", action_text ? action_text : "");
        cJSON_AddStringToObject(line, "path", ar.path ? ar.path : "none");
        if (ar.fallback_reason[0])
            cJSON_AddStringToObject(line, "fallback_reason", ar.fallback_reason);
        cJSON_AddStringToObject(line, arc ? "error" : "result", arc ? aerr.msg : ar.message);
        cJSON_AddNumberToObject(line, "prompt_tokens", (double)usage.prompt_tokens);
        cJSON_AddNumberToObject(line, "completion_tokens", (double)usage.completion_tokens);
        cJSON *tm = cJSON_AddObjectToObject(line, "ms");
        cJSON_AddNumberToObject(tm, "perceive", perceive_ms);
        cJSON_AddNumberToObject(tm, "plan", plan_ms);
        cJSON_AddNumberToObject(tm, "act", ar.act_ms);
        cJSON_AddNumberToObject(tm, "settle", ar.settle_ms);
        if (perc_obs_n_warnings(obs)) {
            cJSON *w = cJSON_AddArrayToObject(line, "warnings");
            for (size_t i = 0; i < perc_obs_n_warnings(obs); i++)
                cJSON_AddItemToArray(w, cJSON_CreateString(perc_obs_warning(obs, i)));
        }
        trace_line(trace, line);

        /* history for the model */
        llm_history_item *hg = realloc(hist, (n_hist + 1) * sizeof *hg);
        char **tg = realloc(hist_text, (n_hist + 1) * 2 * sizeof *tg);
        if (hg)
            hist = hg;
        if (tg)
            hist_text = tg;
        if (hg && tg) {
            hist_text[n_hist * 2] = action_text ? strdup(action_text) : strdup("");
            hist_text[n_hist * 2 + 1] = strdup(arc ? aerr.msg : ar.message);
            hist[n_hist].action = hist_text[n_hist * 2];
            hist[n_hist].result = hist_text[n_hist * 2 + 1];
            n_hist++;
        }
        free(action_text);

        /* a page tool that never answers is the step's failure, not the infrastructure's */
        if (arc == EOUS_E_INFRA || arc == EOUS_E_INTERRUPTED) {
            rc = arc;
            if (err)
                *err = aerr;
            act_result_clear(&ar);
            act_action_clear(&a);
            goto done;
        }
        if (arc) {
            res->errors++;
            snprintf(last_error, sizeof last_error, "%s", aerr.msg);
            if (o->planner == AGENT_PLANNER_SCRIPT) {
                /* a deterministic plan whose step fails stops with the step's error */
                snprintf(res->error, sizeof res->error, "step %d (%s): %s", step, act_kind_name(a.kind), aerr.msg);
                snprintf(res->stop_reason, sizeof res->stop_reason, "script_error");
                act_result_clear(&ar);
                act_action_clear(&a);
                break;
            }
        } else {
            last_error[0] = '\0';
        }
        if (ar.stopped) {
            free(res->answer);
            res->answer = ar.answer ? strdup(ar.answer) : strdup("");
            snprintf(res->stop_reason, sizeof res->stop_reason, "stop");
            act_result_clear(&ar);
            act_action_clear(&a);
            break;
        }
        act_result_clear(&ar);
        act_action_clear(&prev[n_prev % MAX_REPEATED_ACTIONS]);
        prev[n_prev % MAX_REPEATED_ACTIONS] = a; /* moves ownership */
        n_prev++;
        if (same) {
            snprintf(res->stop_reason, sizeof res->stop_reason, "repeated_action");
            break;
        }
    }

    /* score */
    {
        agent_eval_result ev;
        eous_rc erc = agent_evaluate(t->eval, t->intent, res->answer, s, o->llm, &ev, err);
        if (erc) {
            rc = erc;
            goto done;
        }
        res->score = ev.score;
        snprintf(res->eval_detail, sizeof res->eval_detail, "%s", ev.detail);
        /* a verdict nobody gave is neither a pass nor a failure */
        snprintf(res->status, sizeof res->status, "%s",
                 ev.needs_judge ? "needs_judge" : ev.score >= 1.0 ? "passed" : "failed");
    }
done:
    if (rc) {
        snprintf(res->status, sizeof res->status, "%s",
                 rc == EOUS_E_INFRA || rc == EOUS_E_TIMEOUT || rc == EOUS_E_INTERRUPTED ? "infra" : "failed");
        if (!res->error[0] && err)
            snprintf(res->error, sizeof res->error, "%s", err->msg);
        if (!res->stop_reason[0])
            snprintf(res->stop_reason, sizeof res->stop_reason, "%s", res->status[0] == 'i' ? "infra" : "error");
        if (rc != EOUS_E_INFRA && rc != EOUS_E_TIMEOUT && rc != EOUS_E_INTERRUPTED)
            rc = rc == EOUS_E_INVALID ? rc : EOUS_OK; /* the task ran and failed */
    }
    res->wall_ms = eous_now_ms() - t0;
    agent_site_leave();
    perc_obs_free(obs);
    act_exec_free(x);
    act_policy_free(own_policy);
    for (int i = 0; i < MAX_REPEATED_ACTIONS; i++)
        act_action_clear(&prev[i]);
    for (size_t i = 0; i < n_hist * 2; i++)
        free(hist_text[i]);
    free(hist_text);
    free(hist);
    if (trace)
        fclose(trace);
    return rc;
}

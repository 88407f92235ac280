/* actions/wait.c — the wait step: {"wait": {"text" | "target" | "url" |
 * "gone": <string> | "network_idle": true, "timeout_ms": N}}.
 *
 * text, url and network_idle are checked in the page (wait.js) and answered
 * as soon as they hold; a target ("role 'name'", a component's label, or
 * css=SELECTOR) is looked for in a fresh observation after each change of
 * the page.  "gone" waits for a target or, when it is not written as one,
 * for text to leave the page.  The wait is bounded: the step's own
 * timeout_ms, else the step's "timeout_ms", else ACT_DEFAULT_WAIT_MS; when it
 * runs out the step fails with EOUS_E_TIMEOUT naming what did not happen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/rpa_int.h"
#include "actions/wait_js.h"

/* The longest one page script waits before C looks again (a target needs a new observation). */
#define SLICE_MS 1000

static const char *const conds[] = {"text", "target", "url", "gone", "network_idle"};

eous_rc act_wait_parse(const cJSON *val, const char *ctx, act_action *out, eous_err *err)
{
    if (!cJSON_IsObject(val))
        return eous_err_set(err, EOUS_E_INVALID, "%s, got a %s", ctx, eous_json_type_name(val));
    const char *cond = NULL;
    for (const cJSON *it = val->child; it; it = it->next) {
        const char *k = it->string ? it->string : "";
        if (!strcmp(k, "timeout_ms")) {
            if (!cJSON_IsNumber(it) || it->valuedouble < 1 || it->valuedouble > ACT_MAX_WAIT_MS ||
                it->valuedouble != (double)(long long)it->valuedouble)
                return eous_err_set(err, EOUS_E_INVALID, "%s, \"timeout_ms\" must be a whole number of ms from 1 to %d",
                                    ctx, ACT_MAX_WAIT_MS);
            continue;
        }
        size_t i = 0;
        while (i < sizeof conds / sizeof *conds && strcmp(conds[i], k))
            i++;
        if (i == sizeof conds / sizeof *conds)
            return eous_err_set(err, EOUS_E_INVALID, "%s, unknown key \"%.64s\"", ctx, k);
        if (cond)
            return eous_err_set(err, EOUS_E_INVALID, "%s, one condition per wait: found \"%s\" and \"%s\"", ctx, cond,
                                k);
        cond = conds[i];
        if (!strcmp(k, "network_idle") ? !cJSON_IsTrue(it) : !cJSON_IsString(it) || !it->valuestring[0])
            return eous_err_set(err, EOUS_E_INVALID, "%s, \"%s\" must be %s", ctx, k,
                                !strcmp(k, "network_idle") ? "true" : "a non-empty string");
    }
    if (!cond)
        return eous_err_set(err, EOUS_E_INVALID, "%s, no condition (text, target, url, gone or network_idle)", ctx);
    if (!(out->params = cJSON_Duplicate(val, 1)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* 1 when s is written as a target rather than text: "role 'name'" or css=. */
static int looks_like_target(const char *s)
{
    char role[64], name[512];
    int nth;
    return !strncmp(s, "css=", 4) || act_parse_role_name(s, role, sizeof role, name, sizeof name, &nth) == 0;
}

/* 1 when the page shows target now, 0 when not, -1 with err when the page cannot be read. */
static int target_present(act_exec *x, const char *target, eous_err *err)
{
    if (!strncmp(target, "css=", 4)) {
        cJSON *all = NULL;
        eous_rc rc = wd_find_all(x->s, "css selector", target + 4, &all, err);
        int n = rc ? -1 : cJSON_GetArraySize(all);
        cJSON_Delete(all);
        if (rc == EOUS_E_INVALID)
            eous_err_set(err, rc, "wait: '%s' is not a valid CSS selector", target + 4);
        return n < 0 ? -1 : n > 0;
    }
    perc_opts po;
    perc_opts_init(&po);
    po.mode = PERC_MODE_HYBRID;
    perc_obs *obs = NULL;
    eous_rc rc = act_observe(x->s, &po, &obs, err);
    if (rc)
        return -1;
    act_action probe;
    act_action_init(&probe);
    probe.kind = ACT_CLICK;
    probe.from_script = 1;
    probe.target = (char *)target;
    const perc_component *c = NULL;
    int backend = 0, found = 0;
    char role[64], name[512], under[256];
    int nth = 1;
    if (act_target_under(target, under, sizeof under)) {
        /* "role 'name' under 'Heading'": the one resolver every other step uses decides */
        act_target t;
        memset(&t, 0, sizeof t);
        found = act_resolve_target(x, obs, &probe, &t, NULL) == EOUS_OK;
        act_target_free(&t);
        perc_obs_free(obs);
        return found;
    }
    if (act_parse_role_name(target, role, sizeof role, name, sizeof name, &nth) == 0)
        found = perc_obs_find_role_name(obs, role, name, nth, &backend, NULL) == EOUS_OK;
    if (!found) /* a component by key, label or "kind 'label'" */
        found = act_find_component(obs, &probe, &c, NULL) == EOUS_OK && c && !c->agent_hidden;
    perc_obs_free(obs);
    return found;
}

/* One look at the condition: the page script waits up to slice_ms for it (or, for targets, for a change). */
static int check(act_exec *x, const char *cond, const char *value, double slice_ms, eous_err *err)
{
    int is_target = !strcmp(cond, "target") || (!strcmp(cond, "gone") && looks_like_target(value));
    if (is_target) {
        int present = target_present(x, value, err);
        if (present < 0)
            return -1;
        if (present == !strcmp(cond, "target"))
            return 1;
    }
    const char *js_cond = is_target ? "change" : !strcmp(cond, "gone") ? "gone_text" : cond;
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, cJSON_CreateString(js_cond));
    cJSON_AddItemToArray(args, cJSON_CreateString(value ? value : ""));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(slice_ms));
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc rc = wd_execute(x->s, ACT_WAIT_JS, args, &v, &e2);
    cJSON_Delete(args);
    int met = 0;
    if (rc == EOUS_E_PAGE || rc == EOUS_E_STALE) {
        met = 0; /* a navigation replaced the document under the script: look again */
    } else if (rc) {
        if (err)
            *err = e2;
        met = -1;
    } else {
        act_remember_url(x, v);
        met = is_target ? 0 : eous_json_bool(v, "met", 0);
        if (!strcmp(cond, "network_idle") && !eous_json_bool(v, "hooked", 0)) {
            eous_err_set(err, EOUS_E_INVALID, "wait: network_idle needs the request counter installed through "
                                              "CDP; this session has none (it is W3C-only, or the page was opened before)");
            met = -1;
        }
    }
    cJSON_Delete(v);
    return met;
}

eous_rc act_run_wait(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    const cJSON *p = a->params;
    const char *cond = NULL, *value = NULL;
    for (size_t i = 0; i < sizeof conds / sizeof *conds && !cond; i++)
        if (cJSON_GetObjectItemCaseSensitive(p, conds[i])) {
            cond = conds[i];
            value = eous_json_str(p, cond);
        }
    if (!cond)
        return eous_err_set(err, EOUS_E_INVALID, "wait: no condition");
    if (!strcmp(cond, "network_idle") && !wd_session_has_cdp(x->s))
        return eous_err_set(err, EOUS_E_INVALID, "wait: network_idle needs CDP, and the session is W3C-only");
    double timeout = eous_json_num(p, "timeout_ms", a->timeout_ms > 0 ? a->timeout_ms : ACT_DEFAULT_WAIT_MS);
    double t0 = eous_now_ms();
    for (;;) {
        double left = timeout - (eous_now_ms() - t0);
        int met = check(x, cond, value, left > SLICE_MS ? SLICE_MS : left > 0 ? left : 0, err);
        if (met < 0)
            return err && err->rc ? err->rc : EOUS_E_INFRA;
        if (met) {
            if (value)
                act_res_msg(res, "waited %.0f ms: %s '%.300s'", eous_now_ms() - t0, cond, value);
            else
                act_res_msg(res, "waited %.0f ms: the network is idle", eous_now_ms() - t0);
            return EOUS_OK;
        }
        if (eous_now_ms() - t0 >= timeout)
            break;
    }
    static const char *const what[] = {"text", "did not appear", "target", "did not appear", "url",
                                       "was not reached", "gone", "did not go", "network_idle", ""};
    const char *happened = "";
    for (size_t i = 0; i < sizeof what / sizeof *what; i += 2)
        if (!strcmp(what[i], cond))
            happened = what[i + 1];
    if (!strcmp(cond, "network_idle"))
        return eous_err_set(err, EOUS_E_TIMEOUT, "wait: the network was not idle within %.0f ms (page %.300s)",
                            timeout, x->url);
    return eous_err_set(err, EOUS_E_TIMEOUT, "wait: %s '%.300s' %s within %.0f ms (page %.300s)", cond, value,
                        happened, timeout, x->url);
}

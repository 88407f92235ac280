/* actions/expect.c — the expect step, an assertion: {"expect": {"text": T}}
 * (the page shows T), {"url": U} (the URL contains U), {"value": V, "of":
 * <target or component>} (its value is V), {"count": N, "of": <output name
 * or target>} (the output holds N items, or the table there N rows, or the
 * page N such elements).  A failed expectation fails the step with
 * EOUS_E_REJECTED and one line "expect: expected … got …"; the loop keeps the
 * step's view and screenshot as for any failed step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/rpa_int.h"
#include "actions/wait_js.h"

/* the largest count an expect may ask for: a bound before the whole-number check casts it */
#define ACT_MAX_EXPECT_COUNT 1000000000

static const char *const kinds[] = {"text", "url", "value", "count"};

eous_rc act_expect_parse(const cJSON *val, const char *ctx, act_action *out, eous_err *err)
{
    if (!cJSON_IsObject(val))
        return eous_err_set(err, EOUS_E_INVALID, "%s, got a %s", ctx, eous_json_type_name(val));
    const char *kind = NULL;
    for (const cJSON *it = val->child; it; it = it->next) {
        const char *k = it->string ? it->string : "";
        if (!strcmp(k, "of")) {
            if (!cJSON_IsString(it) || !it->valuestring[0])
                return eous_err_set(err, EOUS_E_INVALID, "%s, \"of\" must be a non-empty target or output name", ctx);
            continue;
        }
        size_t i = 0;
        while (i < 4 && strcmp(kinds[i], k))
            i++;
        if (i == 4)
            return eous_err_set(err, EOUS_E_INVALID, "%s, unknown key \"%.64s\"", ctx, k);
        if (kind)
            return eous_err_set(err, EOUS_E_INVALID, "%s, one check per expect: found \"%s\" and \"%s\"", ctx, kind, k);
        kind = kinds[i];
        /* the range before the cast: a double past long long's range is undefined behaviour to convert */
        if (i == 3 ? !cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > ACT_MAX_EXPECT_COUNT ||
                         it->valuedouble != (double)(long long)it->valuedouble
                   : i == 2 ? !(cJSON_IsString(it) || cJSON_IsNumber(it) || cJSON_IsBool(it))
                            : !cJSON_IsString(it) || !it->valuestring[0])
            return eous_err_set(err, EOUS_E_INVALID, "%s, \"%s\" must be %s", ctx, k,
                                i == 3 ? "a whole number from 0 to 1000000000" : i == 2 ? "a string, number or boolean"
                                                                          : "a non-empty string");
    }
    if (!kind)
        return eous_err_set(err, EOUS_E_INVALID, "%s, no check (text, url, value or count)", ctx);
    int needs_of = !strcmp(kind, "value") || !strcmp(kind, "count");
    if (needs_of != (cJSON_GetObjectItemCaseSensitive(val, "of") != NULL))
        return eous_err_set(err, EOUS_E_INVALID, needs_of ? "%s, \"%s\" needs \"of\"" : "%s, \"%s\" takes no \"of\"",
                            ctx, kind);
    if (!(out->params = cJSON_Duplicate(val, 1)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* The page's text holds t (wait.js with no wait): 1, 0, or -1 with err. */
static int page_has_text(act_exec *x, const char *t, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, cJSON_CreateString("text"));
    cJSON_AddItemToArray(args, cJSON_CreateString(t));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(0));
    eous_rc rc = wd_execute(x->s, ACT_WAIT_JS, args, &v, err);
    cJSON_Delete(args);
    if (!rc)
        act_remember_url(x, v);
    int met = rc ? -1 : eous_json_bool(v, "met", 0);
    cJSON_Delete(v);
    return met;
}

/* A JSON scalar as the page would print it ("12.5", "true", "Ada"). */
static void scalar_text(const cJSON *v, char *out, size_t n)
{
    if (cJSON_IsString(v))
        snprintf(out, n, "%s", v->valuestring);
    else if (cJSON_IsNumber(v) && fabs(v->valuedouble) < 1e15 && v->valuedouble == (double)(long long)v->valuedouble)
        snprintf(out, n, "%lld", (long long)v->valuedouble);
    else if (cJSON_IsNumber(v))
        snprintf(out, n, "%.15g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(out, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else {
        char *p = v ? eous_json_print(v) : NULL;
        snprintf(out, n, "%s", p ? p : "nothing");
        free(p);
    }
}

/* How many of "of" there are: an output's items, a table's rows, or matching elements. */
static eous_rc count_of(act_exec *x, const perc_obs *obs, const char *of, const char **unit, long *n, eous_err *err)
{
    const cJSON *o = x->output ? cJSON_GetObjectItemCaseSensitive(x->output, of) : NULL;
    if (o) {
        *unit = "items in the output";
        *n = cJSON_IsArray(o) || cJSON_IsObject(o) ? cJSON_GetArraySize(o) : 1;
        return EOUS_OK;
    }
    act_action probe;
    act_action_init(&probe);
    probe.kind = ACT_READ;
    probe.from_script = 1;
    probe.target = (char *)of;
    if (!strncmp(of, "css=", 4)) {
        cJSON *all = NULL;
        eous_rc rc = wd_find_all(x->s, "css selector", of + 4, &all, err);
        *n = cJSON_GetArraySize(all);
        *unit = "matching elements";
        cJSON_Delete(all);
        return rc;
    }
    cJSON *rows = NULL;
    eous_rc rc = act_read_value(x, obs, &probe, "rows", &rows, err);
    if (rc == EOUS_OK) {
        *unit = "rows";
        *n = cJSON_GetArraySize(rows);
    } else if (rc == EOUS_E_NOT_FOUND) {
        eous_err_prefix(err, "expect: no output named %.64s, and", of);
    }
    cJSON_Delete(rows);
    return rc;
}

eous_rc act_run_expect(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    const cJSON *p = a->params;
    const char *of = eous_json_str(p, "of");
    const char *t;
    if ((t = eous_json_str(p, "text"))) {
        int met = page_has_text(x, t, err);
        if (met < 0)
            return err ? err->rc : EOUS_E_PAGE;
        if (!met)
            return eous_err_set(err, EOUS_E_REJECTED, "expect: expected text '%.300s' on the page, got a page "
                                                      "without it (%.300s)", t, x->url);
        act_res_msg(res, "expect: the page shows '%.300s'", t);
        return EOUS_OK;
    }
    if ((t = eous_json_str(p, "url"))) {
        char *url = NULL;
        eous_rc rc = wd_get_url(x->s, &url, err);
        if (rc)
            return rc;
        int ok = strstr(url, t) != NULL;
        if (!ok)
            eous_err_set(err, EOUS_E_REJECTED, "expect: expected a URL containing '%.300s', got %.600s", t, url);
        else
            act_res_msg(res, "expect: the URL %.600s contains '%.300s'", url, t);
        free(url);
        return ok ? EOUS_OK : EOUS_E_REJECTED;
    }
    if (cJSON_GetObjectItemCaseSensitive(p, "value")) {
        act_action probe;
        act_action_init(&probe);
        probe.kind = ACT_READ;
        probe.from_script = 1;
        probe.target = (char *)of;
        cJSON *v = NULL;
        eous_rc rc = act_read_value(x, obs, &probe, "value", &v, err);
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "expect: expected a value of %.200s, got no such target on "
                                                       "the page", of);
        if (rc)
            return rc;
        char want[512], got[512];
        scalar_text(cJSON_GetObjectItemCaseSensitive(p, "value"), want, sizeof want);
        scalar_text(v, got, sizeof got);
        cJSON_Delete(v);
        if (strcmp(want, got))
            return eous_err_set(err, EOUS_E_REJECTED, "expect: expected %.200s to be '%.300s', got '%.300s'", of, want,
                                got);
        act_res_msg(res, "expect: %.200s is '%.300s'", of, got);
        return EOUS_OK;
    }
    long want = (long)eous_json_num(p, "count", 0), n = 0;
    const char *unit = "";
    eous_rc rc = count_of(x, obs, of, &unit, &n, err);
    if (rc)
        return rc;
    if (n != want)
        return eous_err_set(err, EOUS_E_REJECTED, "expect: expected %ld %s (%.200s), got %ld", want, unit, of, n);
    act_res_msg(res, "expect: %ld %s (%.200s)", n, unit, of);
    return EOUS_OK;
}

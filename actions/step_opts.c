/* actions/step_opts.c — the keys every script step may carry besides its
 * own: "retries" (attempts after the first, with back-off; agent/loop.c
 * runs them), "timeout_ms" (a bound on the step's attempts, and the wait
 * of wait and download steps that name none) and "expect_dialog" (true: an
 * alert the step opens is what it meant to do, not its failure). */
#include <string.h>

#include "actions/rpa_int.h"

/* Bounds a task file may ask for: a cron job must end. */
#define MAX_RETRIES 10

int act_step_common_key(const char *key)
{
    return !strcmp(key, "retries") || !strcmp(key, "timeout_ms") || !strcmp(key, "expect_dialog");
}

/* A whole number in [lo, hi] from a JSON number; -1 when it is not one. */
static int whole(const cJSON *v, int lo, int hi)
{
    /* the range before the cast: a double past long long's range is undefined behaviour to convert */
    if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
        v->valuedouble != (double)(long long)v->valuedouble)
        return -1;
    return (int)v->valuedouble;
}

eous_rc act_step_common_parse(const cJSON *step, const char *ctx, act_action *out, eous_err *err)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(step, "retries");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(step, "timeout_ms");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(step, "expect_dialog");
    if (r && (out->retries = whole(r, 0, MAX_RETRIES)) < 0)
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"retries\" must be a whole number from 0 to %d", ctx,
                            MAX_RETRIES);
    if (t && (out->timeout_ms = whole(t, 1, ACT_MAX_WAIT_MS)) < 0)
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"timeout_ms\" must be a whole number of ms from 1 to %d",
                            ctx, ACT_MAX_WAIT_MS);
    if (d && !cJSON_IsBool(d))
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"expect_dialog\" must be true or false, got a %s", ctx,
                            eous_json_type_name(d));
    out->expect_dialog = cJSON_IsTrue(d);
    return EOUS_OK;
}

/* webarena/verified_task.c — see verified_task.h. */
#define _GNU_SOURCE
#include "webarena/verified_task.h"

#include <stdio.h>
#include <string.h>

#include "webarena/verified.h"
#include "core/text.h"

int wa_verified_is_cfg(const cJSON *cfg)
{
    return cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(cfg, "eval")) ||
           cJSON_GetObjectItemCaseSensitive(cfg, "start_urls") != NULL;
}

eous_rc wa_verified_check_cfg(const cJSON *cfg, const char *file, int index, eous_err *err)
{
    const cJSON *su = cJSON_GetObjectItemCaseSensitive(cfg, "start_urls");
    if (!cJSON_IsArray(su) || !su->child)
        return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: \"start_urls\" must be a non-empty list of URLs", file,
                            index);
    const cJSON *u;
    cJSON_ArrayForEach(u, su) if (!cJSON_IsString(u))
        return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: \"start_urls\" must hold strings, got %s", file, index,
                            eous_json_type_name(u));
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(cfg, "eval");
    if (!cJSON_IsArray(ev) || !ev->child)
        return eous_err_set(err, EOUS_E_INVALID,
                            "%s: config #%d: \"eval\" must be a non-empty list of evaluators (WebArena-Verified)", file,
                            index);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ev) {
        if (!cJSON_IsObject(e) || !eous_json_str(e, "evaluator"))
            return eous_err_set(err, EOUS_E_INVALID, "%s: config #%d: eval[%d] must be an object with an \"evaluator\" name",
                                file, index, i);
        i++;
    }
    return EOUS_OK;
}

const char *wa_verified_start_url(const cJSON *raw)
{
    const cJSON *su = cJSON_GetObjectItemCaseSensitive(raw, "start_urls");
    return su && cJSON_IsString(su->child) ? su->child->valuestring : NULL;
}

const cJSON *wa_verified_more_start_urls(const cJSON *raw)
{
    const cJSON *su = cJSON_GetObjectItemCaseSensitive(raw, "start_urls");
    return su && su->child ? su->child->next : NULL;
}

void wa_verified_check_task(wa_task *t)
{
    const cJSON *u;
    for (u = wa_verified_more_start_urls(t->raw); u; u = u->next)
        if (!eous_is_http_url(u->valuestring)) {
            snprintf(t->problem, sizeof t->problem, "start_urls: '%.100s' is not an http(s) URL", u->valuestring);
            return;
        }
    char why[400];
    if (vf_check_task(t->raw, why, sizeof why))
        snprintf(t->problem, sizeof t->problem, "%s", why);
}

/* perception/native.c — the native provider's components: what
 * perception/native.js inferred from standard HTML form controls and the
 * WAI-ARIA APG widget patterns, read into perc_component triplets
 * (provider "native") like a registry's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"

/* Components from native.js: [{key, kind, label, state, tools, metadata,
 * secret, disabled}].  Their roots carry data-eous-nk=key, which marks.c
 * reads like data-cid, so views fold and locate them as any component. */
eous_rc perc_parse_native(perc_obs *obs, cJSON *answer, eous_err *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(answer, "comps");
    if (!cJSON_IsArray(list)) {
        cJSON_Delete(answer);
        return eous_err_set(err, EOUS_E_PARSE, "native: expected {comps: [...]}");
    }
    perc_own_json(obs, answer);
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(answer, "warnings")) if (cJSON_IsString(w))
        perc_obs_warn(obs, "%s", w->valuestring);
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        const char *key = eous_json_str(e, "key");
        if (!key || strncmp(key, "native-", 7))
            continue;
        perc_component *c = perc_add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, key);
        const char *kind = eous_json_str(e, "kind"), *label = eous_json_str(e, "label");
        c->kind = eous_arena_strdup(obs->arena, kind ? kind : "field");
        c->label = eous_arena_strdup(obs->arena, label ? label : "");
        c->provider_bit = PERC_PROVIDER_NATIVE;
        c->provider = perc_provider_name(c->provider_bit);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "state");
        const cJSON *tools = cJSON_GetObjectItemCaseSensitive(e, "tools");
        const cJSON *md = cJSON_GetObjectItemCaseSensitive(e, "metadata");
        if (!cJSON_IsObject(st)) {
            st = cJSON_CreateObject();
            perc_own_json(obs, (cJSON *)st);
        }
        if (!cJSON_IsArray(tools)) {
            tools = cJSON_CreateArray();
            perc_own_json(obs, (cJSON *)tools);
        }
        if (!cJSON_IsObject(md)) {
            md = cJSON_CreateObject();
            perc_own_json(obs, (cJSON *)md);
        }
        c->state = st;
        c->tools = tools;
        c->metadata = md;
        c->disabled = eous_json_bool(e, "disabled", 0);
        c->visible = 1;
    }
    return EOUS_OK;
}

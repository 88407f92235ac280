/* perception/registry.c — the semantic providers a page may expose, each
 * read into perc_component triplets <S, T, M>: CI4A (window.__ci4a__
 * getStatus()), WebMCP (document.modelContext tools) and the ui-sdk bridge
 * (window.agent.snapshot()); and where a component's label comes from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/percint.h"

static perc_component *add_component(perc_obs *obs)
{
    perc_component *grown = realloc(obs->comps, (obs->n_comps + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    obs->comps = grown;
    perc_component *c = &obs->comps[obs->n_comps++];
    memset(c, 0, sizeof *c);
    return c;
}

static void own_json(perc_obs *obs, cJSON *item)
{
    if (!obs->owned_json)
        obs->owned_json = cJSON_CreateArray();
    cJSON_AddItemToArray(obs->owned_json, item);
}

static const cJSON *empty_obj(perc_obs *obs)
{
    cJSON *o = cJSON_CreateObject();
    own_json(obs, o);
    return o;
}

static const cJSON *empty_arr(perc_obs *obs)
{
    cJSON *o = cJSON_CreateArray();
    own_json(obs, o);
    return o;
}

eous_rc perc_parse_ci4a(perc_obs *obs, cJSON *registry, eous_err *err)
{
    if (!cJSON_IsObject(registry)) {
        cJSON_Delete(registry);
        return eous_err_set(err, EOUS_E_PARSE, "ci4a: getStatus() returned %s, expected an object",
                            eous_json_type_name(registry));
    }
    own_json(obs, registry);
    const cJSON *e;
    cJSON_ArrayForEach(e, registry) {
        if (!cJSON_IsObject(e) || !e->string) {
            perc_obs_warn(obs, "ci4a: entry '%s' is not an object; skipped", e->string ? e->string : "?");
            continue;
        }
        perc_component *c = add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, e->string);
        const char *kind = eous_json_str(e, "kind");
        c->kind = eous_arena_strdup(obs->arena, kind ? kind : "component");
        const char *label = eous_json_str(e, "label");
        c->provider = "ci4a";
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "state");
        c->state = cJSON_IsObject(st) ? st : empty_obj(obs);
        if (!label)
            label = eous_json_str(c->state, "label");
        c->label = eous_arena_strdup(obs->arena, label ? label : "");
        const cJSON *tools = cJSON_GetObjectItemCaseSensitive(e, "tools");
        if (cJSON_IsObject(tools)) {
            /* tools given as {name: meta}: use names, and the metas as M */
            cJSON *names = cJSON_CreateArray();
            const cJSON *t;
            cJSON_ArrayForEach(t, tools) cJSON_AddItemToArray(names, cJSON_CreateString(t->string));
            own_json(obs, names);
            c->tools = names;
            if (!eous_json_obj(e, "metadata"))
                c->metadata = tools;
        } else {
            c->tools = cJSON_IsArray(tools) ? tools : empty_arr(obs);
        }
        if (!c->metadata) {
            const cJSON *md = cJSON_GetObjectItemCaseSensitive(e, "metadata");
            c->metadata = cJSON_IsObject(md) ? md : empty_obj(obs);
        }
        c->disabled = eous_json_bool(e, "disabled", eous_json_bool(c->state, "disabled", 0));
        c->visible = eous_json_bool(e, "visible", 1);
    }
    return EOUS_OK;
}

eous_rc perc_parse_webmcp(perc_obs *obs, cJSON *tools, eous_err *err)
{
    if (!cJSON_IsArray(tools)) {
        cJSON_Delete(tools);
        return eous_err_set(err, EOUS_E_PARSE, "webmcp: getTools() returned %s, expected an array",
                            eous_json_type_name(tools));
    }
    own_json(obs, tools);
    const cJSON *t;
    cJSON_ArrayForEach(t, tools) {
        const char *name = eous_json_str(t, "name");
        if (!name)
            continue;
        perc_component *c = add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, name);
        c->kind = "webmcp";
        c->provider = "webmcp";
        const char *desc = eous_json_str(t, "description");
        /* the label is what a model reads first: the description, kept short */
        if (desc && strlen(desc) > 90)
            c->label = eous_arena_printf(obs->arena, "%.*s…", (int)eous_utf8_cut(desc, 87), desc);
        else
            c->label = eous_arena_strdup(obs->arena, desc ? desc : name);
        c->state = empty_obj(obs);
        cJSON *names = cJSON_CreateArray();
        cJSON_AddItemToArray(names, cJSON_CreateString(name));
        own_json(obs, names);
        c->tools = names;
        /* M for the single tool: its JSON Schema as params */
        cJSON *md = cJSON_CreateObject();
        cJSON *meta = cJSON_AddObjectToObject(md, name);
        if (desc)
            cJSON_AddStringToObject(meta, "description", desc);
        const cJSON *schema = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
        if (cJSON_IsString(schema)) {
            cJSON *parsed = cJSON_Parse(schema->valuestring);
            if (parsed)
                cJSON_AddItemToObject(meta, "inputSchema", parsed);
        } else if (cJSON_IsObject(schema)) {
            cJSON_AddItemToObject(meta, "inputSchema", cJSON_Duplicate(schema, 1));
        }
        own_json(obs, md);
        c->metadata = md;
        c->visible = 1;
    }
    return EOUS_OK;
}

eous_rc perc_parse_bridge(perc_obs *obs, cJSON *snapshot, eous_err *err)
{
    /* ui-sdk style: {entries|elements|components: [{ref, label, role|kind, actions|tools, state|value}]} or an array */
    own_json(obs, snapshot);
    const cJSON *list = cJSON_IsArray(snapshot) ? snapshot : NULL;
    if (!list)
        list = eous_json_arr(snapshot, "entries");
    if (!list)
        list = eous_json_arr(snapshot, "elements");
    if (!list)
        list = eous_json_arr(snapshot, "components");
    if (!list)
        return eous_err_set(err, EOUS_E_PARSE, "bridge: snapshot() has no entries/elements/components list");
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        const char *ref = eous_json_str(e, "ref");
        if (!ref)
            ref = eous_json_str(e, "id");
        if (!ref)
            continue;
        perc_component *c = add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, ref);
        const char *kind = eous_json_str(e, "kind");
        if (!kind)
            kind = eous_json_str(e, "role");
        c->kind = eous_arena_strdup(obs->arena, kind ? kind : "bridge");
        const char *label = eous_json_str(e, "label");
        c->label = eous_arena_strdup(obs->arena, label ? label : "");
        c->provider = "bridge";
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "state");
        if (cJSON_IsObject(st)) {
            c->state = st;
        } else {
            cJSON *o = cJSON_CreateObject();
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
            if (v)
                cJSON_AddItemToObject(o, "value", cJSON_Duplicate(v, 1));
            own_json(obs, o);
            c->state = o;
        }
        const cJSON *acts = eous_json_arr(e, "actions");
        if (!acts)
            acts = eous_json_arr(e, "tools");
        c->tools = acts ? acts : empty_arr(obs);
        const cJSON *md = eous_json_obj(e, "metadata");
        c->metadata = md ? md : empty_obj(obs);
        c->disabled = eous_json_bool(e, "disabled", 0);
        c->visible = 1;
    }
    return EOUS_OK;
}


void perc_label_components(perc_obs *obs)
{
    (void)obs;
}

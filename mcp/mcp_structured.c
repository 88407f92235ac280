/* mcp/mcp_structured.c — the structured form of a view for MCP clients
 * (tools/call structuredContent, and the outputSchema it conforms to): the
 * page's components with their view ids, keys, labels, state and tools with
 * what each tool's metadata M says, so a client can act (browser_call)
 * without parsing the text view.  Owned by the MCP server (mcp/mcp.c);
 * perception owns what it reads. */
#include "mcp/mcp_int.h"

#include <string.h>

/* The JSON Schema browser_snapshot's and browser_call's structuredContent
 * conforms to (2025-06-18 and later).  Open objects: a component's state and
 * a tool's metadata are the page's own. */
const char *mcp_view_output_schema(void)
{
    return "{\"type\":\"object\",\"properties\":{"
           "\"url\":{\"type\":\"string\"},"
           "\"title\":{\"type\":\"string\"},"
           "\"result\":{\"type\":\"string\",\"description\":\"what the action did (browser_call)\"},"
           "\"components\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
           "\"id\":{\"type\":\"string\",\"description\":\"view id (c3), for browser_call's component; absent when "
           "the view does not show it\"},"
           "\"key\":{\"type\":\"string\",\"description\":\"the component's own key, also valid for browser_call\"},"
           "\"kind\":{\"type\":\"string\"},"
           "\"label\":{\"type\":\"string\"},"
           "\"provider\":{\"type\":\"string\",\"enum\":[\"ci4a\",\"webmcp\",\"bridge\",\"native\"]},"
           "\"state\":{\"type\":\"object\"},"
           "\"disabled\":{\"type\":\"boolean\"},"
           "\"visible\":{\"type\":\"boolean\"},"
           "\"confirm\":{\"type\":\"string\",\"description\":\"acting on it needs a person: this sentence\"},"
           "\"tools\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
           "\"name\":{\"type\":\"string\"},"
           "\"description\":{\"type\":\"string\"},"
           "\"params\":{\"type\":\"object\"},"
           "\"inputSchema\":{\"type\":\"object\"},"
           "\"constraints\":{\"type\":\"object\"}},"
           "\"required\":[\"name\"]}}},"
           "\"required\":[\"key\",\"kind\",\"label\",\"provider\",\"state\",\"tools\"]}}},"
           "\"required\":[\"url\",\"components\"]}";
}

/* One tool of c: its name and what M says of it (description, params, inputSchema, constraints). */
static cJSON *tool_json(const perc_component *c, const char *name)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", name);
    const cJSON *meta = eous_json_obj(c->metadata, name);
    const char *desc = eous_json_str(meta, "description");
    if (desc)
        cJSON_AddStringToObject(t, "description", desc);
    /* the schema says each of these is an object: a page sending something else is left out */
    static const char *const objs[] = {"params", "inputSchema", "constraints"};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) {
        const cJSON *v = eous_json_obj(meta, objs[i]);
        if (v)
            cJSON_AddItemToObject(t, objs[i], cJSON_Duplicate(v, 1));
    }
    /* disabledDates beside params (a seed's form) is a constraint too */
    const cJSON *dd = eous_json_arr(meta, "disabledDates");
    if (dd) {
        cJSON *cons = cJSON_GetObjectItemCaseSensitive(t, "constraints");
        if (!cons)
            cons = cJSON_AddObjectToObject(t, "constraints");
        if (!cJSON_GetObjectItemCaseSensitive(cons, "disabledDates"))
            cJSON_AddItemToObject(cons, "disabledDates", cJSON_Duplicate(dd, 1));
    }
    return t;
}

cJSON *mcp_view_structured(const perc_obs *obs, const char *result)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "url", obs ? perc_obs_url(obs) : "");
    const char *title = obs ? perc_obs_title(obs) : NULL;
    if (title)
        cJSON_AddStringToObject(r, "title", title);
    if (result)
        cJSON_AddStringToObject(r, "result", result);
    cJSON *arr = cJSON_AddArrayToObject(r, "components");
    for (size_t i = 0; obs && i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (c->agent_hidden)
            continue; /* never shown, never acted on */
        cJSON *o = cJSON_CreateObject();
        if (c->view_id[0])
            cJSON_AddStringToObject(o, "id", c->view_id);
        cJSON_AddStringToObject(o, "key", c->key);
        cJSON_AddStringToObject(o, "kind", c->kind ? c->kind : "");
        cJSON_AddStringToObject(o, "label", c->label ? c->label : "");
        cJSON_AddStringToObject(o, "provider", c->provider);
        cJSON_AddItemToObject(o, "state",
                              cJSON_IsObject(c->state) ? cJSON_Duplicate(c->state, 1) : cJSON_CreateObject());
        cJSON_AddBoolToObject(o, "disabled", c->disabled);
        cJSON_AddBoolToObject(o, "visible", c->visible);
        if (c->confirm)
            cJSON_AddStringToObject(o, "confirm", c->confirm);
        cJSON *tools = cJSON_AddArrayToObject(o, "tools");
        const cJSON *t;
        cJSON_ArrayForEach(t, c->tools) {
            if (cJSON_IsString(t))
                cJSON_AddItemToArray(tools, tool_json(c, t->valuestring));
        }
        cJSON_AddItemToArray(arr, o);
    }
    return r;
}

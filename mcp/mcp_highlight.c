/* mcp/mcp_highlight.c — browser_highlight {element?, target, style?} and
 * browser_hide_highlight {element?, target?} under --caps devtools (Playwright
 * MCP's names, arguments and capability): a box over an element of the view
 * that stays, following it, until hidden or the page goes (mcp/highlight.js),
 * for a person watching a --headed browser, a screenshot or a video.  An
 * element under data-agent-hidden is refused as any action on it is; a style
 * that could load something (url(), @import, image-set) is refused, so a
 * highlight never sends a request.  See mcp_server_int.h for how a tool file
 * plugs in. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mcp/highlight_js.h"

/* The element of the view args' target names, and its words ("[12] button 'Save'"). */
static eous_rc element_of(mcp_server *m, const char *tool, const cJSON *args, cJSON **el, char *words, size_t n,
                          eous_err *err)
{
    char ref[128];
    int bid = 0;
    eous_rc rc;
    *el = NULL;
    if ((rc = mcp_arg_ref(tool, args, ref, sizeof ref, err)) || (rc = mcp_ensure_browser(m, err)) ||
        (!m->obs && (rc = mcp_observe(m, m->o.mode, err))))
        return rc;
    if ((rc = perc_obs_resolve_id(m->obs, ref, &bid, err))) {
        const perc_component *c = perc_obs_find_component(m->obs, ref);
        if (!c || c->backend_id <= 0 || c->agent_hidden)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: there is no [%.60s] in the current view", tool, ref);
        bid = c->backend_id;
    }
    const perc_node *node = perc_obs_node_by_backend(m->obs, bid);
    snprintf(words, n, "[%s] %s '%.120s'", ref, node && node->role ? node->role : "element",
             node && node->name ? node->name : "");
    if (node && node->hidden)
        return act_policy_hidden(words, err);
    const char *prefix = perc_obs_element_prefix(m->obs);
    if (!prefix)
        return eous_err_set(err, EOUS_E_INVALID, "%s: needs Chromium's DevTools protocol (not with --w3c-only)", tool);
    char id[160];
    snprintf(id, sizeof id, "%s%d", prefix, bid);
    *el = wd_element_ref(id);
    return EOUS_OK;
}

static eous_rc run_script(mcp_server *m, const char *mode, cJSON *el, const char *style, int *answer, eous_err *err)
{
    cJSON *a = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(a, cJSON_CreateString(mode));
    cJSON_AddItemToArray(a, el ? el : cJSON_CreateNull());
    cJSON_AddItemToArray(a, style ? cJSON_CreateString(style) : cJSON_CreateNull());
    eous_rc rc = wd_execute(m->b.session, MCP_HIGHLIGHT_JS, a, &v, err);
    *answer = cJSON_IsNumber(v) ? v->valueint : 0;
    cJSON_Delete(a);
    cJSON_Delete(v);
    return rc;
}

static eous_rc tool_highlight(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *style = eous_json_str(args, "style");
    static const char *const loads[] = {"url(", "@import", "image-set(", "image(", "\\", "expression("};
    for (size_t i = 0; style && i < sizeof loads / sizeof loads[0]; i++)
        if (strcasestr(style, loads[i]))
            return eous_err_set(err, EOUS_E_INVALID, "browser_highlight: style: '%s' is refused (a highlight loads "
                                                     "nothing); colours, outlines and borders are fine", loads[i]);
    cJSON *el = NULL;
    char words[200];
    int answer = 0;
    eous_rc rc = element_of(m, "browser_highlight", args, &el, words, sizeof words, err);
    if (!rc)
        rc = run_script(m, "show", el, style, &answer, err);
    else
        cJSON_Delete(el);
    if (!rc && answer < 0)
        rc = eous_err_set(err, EOUS_E_STALE, "stale: %s left the page since the view; read it again", words);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "Highlighted %s (until browser_hide_highlight or the page changes)\n", words);
    return rc;
}

static eous_rc tool_hide_highlight(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    cJSON *el = NULL;
    char words[200] = "";
    int answer = 0;
    int one = eous_json_str(args, "target") || eous_json_str(args, "ref");
    eous_rc rc = one ? element_of(m, "browser_hide_highlight", args, &el, words, sizeof words, err)
                     : mcp_ensure_browser(m, err);
    if (!rc)
        rc = run_script(m, "hide", el, NULL, &answer, err);
    else
        cJSON_Delete(el);
    if (!rc && one)
        eous_buf_printf(&out->text, NULL, answer ? "Hid highlight for %s\n" : "%s had no highlight\n", words);
    else if (!rc)
        eous_buf_puts(&out->text, answer ? "Hid page highlight\n" : "No highlight on the page\n", NULL);
    return rc;
}

#define STR(name, what) "\"" name "\":{\"type\":\"string\",\"description\":\"" what "\"}"

static const mcp_tool_def highlight_tools[] = {
    {"browser_highlight", "Show a persistent highlight overlay around the element on the page.",
     "{\"type\":\"object\",\"properties\":{" STR("element", "what the element is, in words") ","
     STR("target", "its id from the view") "," STR("style", "Additional inline CSS applied to the highlight "
                                                            "overlay, e.g. \\\"outline: 2px dashed red\\\".")
     "},\"required\":[\"target\"]}",
     1, tool_highlight, 0, "devtools"},
    {"browser_hide_highlight", "Remove a highlight overlay previously added for the element (no target: every one).",
     "{\"type\":\"object\",\"properties\":{" STR("element", "what the element is, in words") ","
     STR("target", "its id from the view; omit to remove every highlight") "}}",
     1, tool_hide_highlight, 0, "devtools"},
};

const mcp_tool_table mcp_highlight_tools = {highlight_tools, sizeof highlight_tools / sizeof highlight_tools[0]};

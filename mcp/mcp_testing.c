/* mcp/mcp_testing.c — --caps testing (Playwright MCP's capability of that
 * name): browser_verify_element_visible {role, accessibleName},
 * browser_verify_text_visible {text}, browser_verify_list_visible {element,
 * target, items}, browser_verify_value {type, element, target, value} and
 * browser_generate_locator {element?, target}.  See mcp_server_int.h for how
 * a tool file plugs in.
 *
 * Each reads the page now and answers from eous's view of it: the
 * accessibility nodes a person can see (not ignored, not under
 * data-agent-hidden, not text a person cannot see) with their roles, names,
 * values and checked state, and the components with their state.  Names
 * match as Playwright's getByRole and getByText do by default: the whole
 * name, else a part of it, case and runs of spaces ignored.  A check that
 * fails is an error result saying what was expected and what the view has.
 * A secret field's value is never compared (a yes or no would tell it).
 * Nothing here changes the page; the answer is one line, not the view. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_MAX 5 /* names of the same role offered when none matched */

/* a and b equal, case and runs of whitespace ignored (whole: the whole of a, else a part of it). */
static int text_matches(const char *have, const char *want, int whole)
{
    if (!have || !want)
        return 0;
    char *h = malloc(strlen(have) + 1), *w = malloc(strlen(want) + 1);
    int ok = 0;
    if (h && w) {
        const char *src[2] = {have, want};
        char *dst[2] = {h, w};
        for (int k = 0; k < 2; k++) { /* lower case, spaces collapsed, trimmed */
            char *o = dst[k];
            int space = 1;
            for (const char *p = src[k]; *p; p++) {
                if (isspace((unsigned char)*p)) {
                    if (!space)
                        *o++ = ' ';
                    space = 1;
                } else {
                    *o++ = (char)tolower((unsigned char)*p);
                    space = 0;
                }
            }
            if (o > dst[k] && o[-1] == ' ')
                o--;
            *o = '\0';
        }
        ok = whole ? !strcmp(h, w) : *w && strstr(h, w) != NULL;
    }
    free(h);
    free(w);
    return ok;
}

/* A node a person sees (and the view may show). */
static int seen(const perc_obs *obs, const perc_node *n)
{
    if (n->ignored || n->hidden)
        return 0;
    const perc_component *c = n->component >= 0 ? perc_obs_component(obs, (size_t)n->component) : NULL;
    return !(c && c->agent_hidden);
}

/* The page read now (the client's last view stays the base of its next delta). */
static eous_rc read_page(mcp_server *m, eous_err *err)
{
    eous_rc rc = mcp_ensure_browser(m, err);
    return rc ? rc : mcp_observe(m, m->o.mode, err);
}

/* "[12] button 'Save'" (the id when the view gives one). */
static void node_words(const mcp_server *m, const perc_node *n, char *out, size_t size)
{
    const char *id = n->backend_id ? perc_obs_view_id_of(m->obs, n->backend_id) : NULL;
    snprintf(out, size, "%s%s%s%s '%.120s'", id ? "[" : "", id ? id : "", id ? "] " : "", n->role ? n->role : "node",
             n->name ? n->name : "");
}

/* The first seen node of role named name (whole name first, then a part); NULL when none. */
static const perc_node *find_role(const perc_obs *obs, const char *role, const char *name)
{
    size_t n = perc_obs_n_nodes(obs);
    for (int whole = 1; whole >= 0; whole--)
        for (size_t i = 0; i < n; i++) {
            const perc_node *x = perc_obs_node(obs, i);
            if (seen(obs, x) && x->role && !strcasecmp(x->role, role) && text_matches(x->name, name, whole))
                return x;
        }
    return NULL;
}

static eous_rc tool_verify_element(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *role = eous_json_str(args, "role"), *name = eous_json_str(args, "accessibleName");
    if (!role || !*role || !name)
        return eous_err_set(err, EOUS_E_INVALID, "browser_verify_element_visible: expected {role, accessibleName} "
                                                 "as the view shows them (e.g. button 'Save')");
    eous_rc rc = read_page(m, err);
    if (rc)
        return rc;
    const perc_node *x = find_role(m->obs, role, name);
    if (x) {
        char words[200];
        node_words(m, x, words, sizeof words);
        eous_buf_printf(&out->text, NULL, "Done: %s is visible\n", words);
        return EOUS_OK;
    }
    eous_buf near;
    eous_buf_init(&near, 0);
    size_t k = 0;
    for (size_t i = 0; i < perc_obs_n_nodes(m->obs) && k < NEAR_MAX; i++) {
        const perc_node *y = perc_obs_node(m->obs, i);
        if (seen(m->obs, y) && y->role && !strcasecmp(y->role, role) && y->name && *y->name)
            eous_buf_printf(&near, NULL, "%s'%.60s'", k++ ? ", " : "", y->name);
    }
    if (k)
        rc = eous_err_set(err, EOUS_E_NOT_FOUND, "Element with role \"%.60s\" and accessible name \"%.200s\" not "
                          "found (the page's %ss: %s)", role, name, role, near.data);
    else
        rc = eous_err_set(err, EOUS_E_NOT_FOUND, "Element with role \"%.60s\" and accessible name \"%.200s\" not "
                          "found (no visible %s on the page)", role, name, role);
    eous_buf_free(&near);
    return rc;
}

static eous_rc tool_verify_text(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *text = eous_json_str(args, "text");
    if (!text || !*text)
        return eous_err_set(err, EOUS_E_INVALID, "browser_verify_text_visible: expected {text}");
    eous_rc rc = read_page(m, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < perc_obs_n_nodes(m->obs); i++) {
        const perc_node *x = perc_obs_node(m->obs, i);
        if (seen(m->obs, x) && !x->secret && (text_matches(x->name, text, 0) || text_matches(x->value, text, 0))) {
            char words[200];
            node_words(m, x, words, sizeof words);
            eous_buf_printf(&out->text, NULL, "Done: \"%.200s\" is visible (%s)\n", text, words);
            return EOUS_OK;
        }
    }
    return eous_err_set(err, EOUS_E_NOT_FOUND, "Text not found: \"%.200s\" is on no visible part of %s", text,
                        perc_obs_url(m->obs));
}

/* The target of args in the view now: a node (*node) or a component (*comp). */
static eous_rc target_of(mcp_server *m, const char *tool, const cJSON *args, const perc_node **node,
                         const perc_component **comp, eous_err *err)
{
    char ref[128];
    int bid = 0;
    *node = NULL;
    *comp = NULL;
    eous_rc rc = mcp_arg_ref(tool, args, ref, sizeof ref, err);
    if (!rc)
        rc = read_page(m, err);
    if (rc)
        return rc;
    if (perc_obs_resolve_id(m->obs, ref, &bid, err) == EOUS_OK)
        *node = perc_obs_node_by_backend(m->obs, bid);
    else if ((*comp = perc_obs_find_component(m->obs, ref)) && (*comp)->agent_hidden)
        *comp = NULL;
    if (*node && !seen(m->obs, *node))
        *node = NULL;
    if (!*node && !*comp)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: there is no [%.60s] a person can see in the current view "
                            "(read the view again for ids)", tool, ref);
    return EOUS_OK;
}

/* Every seen name under node index i, one after another into out. */
static void subtree_text(const perc_obs *obs, int i, eous_buf *out, int depth)
{
    const perc_node *x = perc_obs_node(obs, (size_t)i);
    if (!x || depth > 64 || x->hidden)
        return;
    if (!x->ignored && x->name && *x->name) {
        eous_buf_puts(out, x->name, NULL);
        eous_buf_putc(out, '\n', NULL);
    }
    for (size_t k = 0; k < x->n_children; k++)
        subtree_text(obs, x->children[k], out, depth + 1);
}

static int node_index(const perc_obs *obs, const perc_node *x)
{
    for (size_t i = 0; i < perc_obs_n_nodes(obs); i++)
        if (perc_obs_node(obs, i) == x)
            return (int)i;
    return -1;
}

static eous_rc tool_verify_list(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(args, "items"), *it;
    if (!cJSON_IsArray(items) || !cJSON_GetArraySize(items))
        return eous_err_set(err, EOUS_E_INVALID, "browser_verify_list_visible: expected {target, items: [texts]}");
    cJSON_ArrayForEach(it, items) if (!cJSON_IsString(it))
        return eous_err_set(err, EOUS_E_INVALID, "browser_verify_list_visible: items: expected strings");
    const perc_node *x;
    const perc_component *c;
    eous_rc rc = target_of(m, "browser_verify_list_visible", args, &x, &c, err);
    if (rc)
        return rc;
    if (!x && c)
        x = perc_obs_node_by_backend(m->obs, c->backend_id);
    eous_buf all;
    eous_buf_init(&all, 0);
    if (x)
        subtree_text(m->obs, node_index(m->obs, x), &all, 0);
    char words[200];
    if (x)
        node_words(m, x, words, sizeof words);
    else
        snprintf(words, sizeof words, "[%s] %s '%.100s'", c->view_id, c->kind, c->label ? c->label : "");
    cJSON_ArrayForEach(it, items) if (!text_matches(all.data ? all.data : "", it->valuestring, 0)) {
        rc = eous_err_set(err, EOUS_E_NOT_FOUND, "Item \"%.200s\" not found in %s", it->valuestring, words);
        break;
    }
    eous_buf_free(&all);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "Done: %s shows all %d items\n", words, cJSON_GetArraySize(items));
    return rc;
}

static const char *prop_of(const perc_node *x, const char *name)
{
    for (size_t i = 0; i < x->n_props; i++)
        if (!strcmp(x->props[i].name, name))
            return x->props[i].value;
    return NULL;
}

/* What the view says of the target's value ("true"/"false" for a checkbox or radio) into have. */
static eous_rc value_of(const perc_node *x, const perc_component *c, int checkable, char *have, size_t n,
                        eous_err *err)
{
    if ((x && x->secret) || (c && x == NULL && cJSON_IsTrue(cJSON_GetObjectItem(c->state, "secret"))))
        return eous_err_set(err, EOUS_E_POLICY, "browser_verify_value: a secret field's value is never compared "
                                                "(a yes or no would tell it)");
    if (!x) { /* a component: its state's checked or value */
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(c->state, checkable ? "checked" : "value");
        if (cJSON_IsBool(v))
            snprintf(have, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
        else if (cJSON_IsString(v))
            snprintf(have, n, "%s", v->valuestring);
        else if (cJSON_IsNumber(v))
            snprintf(have, n, "%g", v->valuedouble);
        else
            return eous_err_set(err, EOUS_E_INVALID, "browser_verify_value: [%s] %s has no %s in its state", c->view_id,
                                c->kind, checkable ? "checked" : "value");
        return EOUS_OK;
    }
    if (checkable) {
        const char *ch = prop_of(x, "checked");
        snprintf(have, n, "%s", ch && !strcmp(ch, "true") ? "true" : "false");
    } else {
        snprintf(have, n, "%s", x->value ? x->value : "");
    }
    return EOUS_OK;
}

static eous_rc tool_verify_value(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *type = eous_json_str(args, "type"), *want = eous_json_str(args, "value");
    static const char *const types[] = {"textbox", "checkbox", "radio", "combobox", "slider"};
    int known = 0;
    for (size_t i = 0; type && i < sizeof types / sizeof types[0]; i++)
        known |= !strcmp(type, types[i]);
    if (!known || !want)
        return eous_err_set(err, EOUS_E_INVALID, "browser_verify_value: expected {type: textbox, checkbox, radio, "
                                                 "combobox or slider, target, value (\"true\"/\"false\" for a checkbox)}");
    const perc_node *x;
    const perc_component *c;
    eous_rc rc = target_of(m, "browser_verify_value", args, &x, &c, err);
    char have[1024];
    int checkable = !strcmp(type, "checkbox") || !strcmp(type, "radio");
    if (!rc)
        rc = value_of(x, c, checkable, have, sizeof have, err);
    if (rc)
        return rc;
    char words[200];
    if (x)
        node_words(m, x, words, sizeof words);
    else
        snprintf(words, sizeof words, "[%s] %s '%.100s'", c->view_id, c->kind, c->label ? c->label : "");
    if (strcmp(have, want))
        return eous_err_set(err, EOUS_E_PAGE, "Expected value \"%.200s\", but got \"%.200s\" (%s)", want, have, words);
    eous_buf_printf(&out->text, NULL, "Done: %s has value \"%.200s\"\n", words, have);
    return EOUS_OK;
}

/* s in single quotes as Playwright writes a string ('it\'s'). */
static void quoted(eous_buf *out, const char *s)
{
    eous_buf_putc(out, '\'', NULL);
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '\'' || *p == '\\')
            eous_buf_putc(out, '\\', NULL);
        eous_buf_putc(out, *p, NULL);
    }
    eous_buf_putc(out, '\'', NULL);
}

/* The node a locator names for component c: its root when named, else the first named control in it. */
static const perc_node *component_node(const perc_obs *obs, const perc_component *c)
{
    const perc_node *root = perc_obs_node_by_backend(obs, c->backend_id), *text = NULL;
    if (root && root->role && root->name && *root->name && strcmp(root->role, "generic"))
        return root;
    size_t ci = 0;
    while (ci < perc_obs_n_components(obs) && perc_obs_component(obs, ci) != c)
        ci++;
    for (size_t i = 0; i < perc_obs_n_nodes(obs); i++) {
        const perc_node *x = perc_obs_node(obs, i);
        if (x->component != (int)ci || !seen(obs, x) || !x->role || !x->name || !*x->name)
            continue;
        if (strcmp(x->role, "StaticText") && strcmp(x->role, "generic") && strcmp(x->role, "LabelText"))
            return x;
        if (!text)
            text = x;
    }
    return text ? text : root;
}

static eous_rc tool_generate_locator(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const perc_node *x;
    const perc_component *c;
    eous_rc rc = target_of(m, "browser_generate_locator", args, &x, &c, err);
    if (rc)
        return rc;
    if (!x && c)
        x = component_node(m->obs, c);
    if (!x || !x->role || !x->name || !*x->name)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "browser_generate_locator: the element has no role and name in "
                                                   "the view to make a locator from");
    int text = !strcmp(x->role, "StaticText");
    const char *role = !strcmp(x->role, "image") ? "img" : x->role;
    /* which of the seen nodes with the same role and whole name this is */
    int nth = 0, count = 0;
    for (size_t i = 0; i < perc_obs_n_nodes(m->obs); i++) {
        const perc_node *y = perc_obs_node(m->obs, i);
        if (seen(m->obs, y) && y->role && !strcmp(y->role, x->role) && y->name && !strcmp(y->name, x->name)) {
            if (y == x)
                nth = count;
            count++;
        }
    }
    eous_buf_puts(&out->text, text ? "getByText(" : "getByRole(", NULL);
    if (text) {
        quoted(&out->text, x->name);
        eous_buf_puts(&out->text, ", { exact: true })", NULL);
    } else {
        quoted(&out->text, role);
        eous_buf_puts(&out->text, ", { name: ", NULL);
        quoted(&out->text, x->name);
        eous_buf_puts(&out->text, ", exact: true })", NULL);
    }
    if (count > 1)
        eous_buf_printf(&out->text, NULL, ".nth(%d)", nth);
    eous_buf_putc(&out->text, '\n', NULL);
    return EOUS_OK;
}

#define STR(name, what) "\"" name "\":{\"type\":\"string\",\"description\":\"" what "\"}"
#define TARGET STR("element", "what the element is, in words") "," STR("target", "its id from the view, e.g. 12 or c3")

static const mcp_tool_def testing_tools[] = {
    {"browser_verify_element_visible", "Verify element is visible on the page (by role and accessible name as the "
                                       "view shows them: role 'name').",
     "{\"type\":\"object\",\"properties\":{" STR("role", "ROLE of the element, e.g. button") ","
     STR("accessibleName", "its accessible name") "},\"required\":[\"role\",\"accessibleName\"]}",
     1, tool_verify_element, 0, "testing"},
    {"browser_verify_text_visible", "Verify text is visible on the page. Prefer browser_verify_element_visible if "
                                    "possible.",
     "{\"type\":\"object\",\"properties\":{" STR("text", "TEXT to verify") "},\"required\":[\"text\"]}", 1,
     tool_verify_text, 0, "testing"},
    {"browser_verify_list_visible", "Verify list is visible on the page",
     "{\"type\":\"object\",\"properties\":{" TARGET ",\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
     "\"description\":\"Items to verify\"}},\"required\":[\"target\",\"items\"]}",
     1, tool_verify_list, 0, "testing"},
    {"browser_verify_value", "Verify element value",
     "{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"string\",\"enum\":[\"textbox\",\"checkbox\",\"radio\","
     "\"combobox\",\"slider\"]}," TARGET "," STR("value", "Value to verify. For checkbox, use \\\"true\\\" or "
                                                           "\\\"false\\\".")
     "},\"required\":[\"type\",\"target\",\"value\"]}",
     1, tool_verify_value, 0, "testing"},
    {"browser_generate_locator", "Generate locator for the given element to use in tests",
     "{\"type\":\"object\",\"properties\":{" TARGET "},\"required\":[\"target\"]}", 1, tool_generate_locator, 0,
     "testing"},
};

const mcp_tool_table mcp_testing_tools = {testing_tools, sizeof testing_tools / sizeof testing_tools[0]};

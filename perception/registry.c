/* perception/registry.c — the semantic providers a page may expose, each
 * read into perc_component triplets <S, T, M>: CI4A (window.__ci4a__
 * getStatus()), WebMCP (document.modelContext tools) and the ui-sdk bridge
 * (window.agent.snapshot()); and where a component's label comes from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/meta.h"
#include "perception/perc_int.h"

perc_component *perc_add_component(perc_obs *obs)
{
    perc_component *grown = realloc(obs->comps, (obs->n_comps + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    obs->comps = grown;
    perc_component *c = &obs->comps[obs->n_comps++];
    memset(c, 0, sizeof *c);
    return c;
}

void perc_own_json(perc_obs *obs, cJSON *item)
{
    if (!obs->owned_json)
        obs->owned_json = cJSON_CreateArray();
    cJSON_AddItemToArray(obs->owned_json, item);
}

static const cJSON *empty_obj(perc_obs *obs)
{
    cJSON *o = cJSON_CreateObject();
    perc_own_json(obs, o);
    return o;
}

static const cJSON *empty_arr(perc_obs *obs)
{
    cJSON *o = cJSON_CreateArray();
    perc_own_json(obs, o);
    return o;
}

/* ---- labels ------------------------------------------------------------------------ */

/* An entry's or state's own label-like fields, in this order. */
static const char *LABEL_FIELDS[] = {"label", "field", "title", "name", "ariaLabel"};

static int blank(const char *s)
{
    for (; s && *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
}

static const char *label_field(const cJSON *o)
{
    for (size_t i = 0; i < sizeof LABEL_FIELDS / sizeof *LABEL_FIELDS; i++) {
        const char *l = eous_json_str(o, LABEL_FIELDS[i]);
        if (!blank(l))
            return l;
    }
    return NULL;
}

#define MAX_LABEL 512 /* bytes kept; the view cuts what it prints at 120 characters */

/* One line, spaces collapsed, without a trailing required-marker or colon
 * ("Patient name *:" is "Patient name"), cut on a character boundary. */
static const char *clean_label(perc_obs *obs, const char *raw)
{
    char buf[MAX_LABEL * 4 + 8];
    size_t n = 0;
    int space = 1;
    for (const char *p = raw ? raw : ""; *p && n < sizeof buf - 1; p++) {
        int ws = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
        if (ws && space)
            continue;
        buf[n++] = ws ? ' ' : *p;
        space = ws;
    }
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == ':' || buf[n - 1] == '*'))
        n--;
    buf[n] = '\0';
    if (n > MAX_LABEL)
        buf[eous_utf8_cut(buf, MAX_LABEL)] = '\0';
    return eous_arena_strdup(obs->arena, buf);
}

/* Roles whose accessible name says what a component is for (named controls, and tables). */
static const char *CONTROL_ROLES[] = {"textbox", "searchbox", "combobox", "listbox", "checkbox", "radio",
                                      "switch", "slider", "spinbutton", "radiogroup", "textarea", "table", "grid"};

static int is_control(const perc_node *n)
{
    if (!n->role || n->ignored)
        return 0;
    for (size_t i = 0; i < sizeof CONTROL_ROLES / sizeof *CONTROL_ROLES; i++)
        if (!strcmp(n->role, CONTROL_ROLES[i]))
            return 1;
    return 0;
}

/* The accessible name of the first named control inside component ci's
 * root (its <label for>, aria-label, aria-labelledby), in document order;
 * nested components and portals are not looked into. */
static const char *first_control_name(const perc_obs *obs, int root, int ci)
{
    int *stack = malloc((obs->n_nodes + 1) * sizeof *stack);
    if (!stack)
        return NULL;
    const char *found = NULL;
    size_t sp = 0;
    stack[sp++] = root;
    while (sp && !found) {
        const perc_node *n = &obs->nodes[stack[--sp]];
        if (n->hidden || (n->component != ci && n != &obs->nodes[root]))
            continue;
        if (is_control(n) && !blank(n->name) && !n->secret) {
            found = n->name;
            break;
        }
        for (size_t k = n->n_children; k-- > 0 && sp < obs->n_nodes;)
            stack[sp++] = n->children[k];
    }
    free(stack);
    return found;
}

void perc_set_page_labels(perc_obs *obs, const cJSON *labels)
{
    if (!cJSON_IsObject(labels) || !labels->child)
        return;
    cJSON *copy = cJSON_Duplicate(labels, 1);
    if (!copy)
        return;
    perc_own_json(obs, copy);
    obs->page_labels = copy;
}

void perc_set_page_tabs(perc_obs *obs, const cJSON *tabs)
{
    if (!cJSON_IsObject(tabs) || !tabs->child)
        return;
    cJSON *copy = cJSON_Duplicate(tabs, 1);
    if (!copy)
        return;
    perc_own_json(obs, copy);
    obs->page_tabs = copy;
}

static int component_index(const perc_obs *obs, const char *key)
{
    for (size_t i = 0; i < obs->n_comps; i++)
        if (!strcmp(obs->comps[i].key, key))
            return (int)i;
    return -1;
}

/* The label order (README "What a page must expose"): the entry's or state's
 * label-like fields (set when parsed); the accessible name of the data-cid
 * root; the text its aria-labelledby names; the accessible name of the first
 * named control inside the root; for a portal component (a data-cid root
 * with data-cid-owner), its owner's label. */
void perc_label_components(perc_obs *obs)
{
    for (size_t i = 0; i < obs->n_comps; i++) {
        perc_component *c = &obs->comps[i];
        if ((c->label && *c->label) || c->provider_bit == PERC_PROVIDER_WEBMCP)
            continue;
        const perc_node *root = perc_obs_node_by_backend(obs, c->backend_id);
        const char *l = root && !root->secret && !blank(root->name) ? root->name : NULL;
        if (!l)
            l = eous_json_str(obs->page_labels, c->key);
        if (!l && root)
            l = first_control_name(obs, (int)(root - obs->nodes), (int)i);
        if (!blank(l))
            c->label = clean_label(obs, l);
    }
    for (size_t m = 0; m < obs->n_marks; m++) {
        const perc_mark *mk = &obs->marks[m];
        if (!mk->cid || !mk->cid_owner)
            continue;
        int ci = component_index(obs, mk->cid), oi = component_index(obs, mk->cid_owner);
        if (ci >= 0 && oi >= 0 && ci != oi && (!obs->comps[ci].label || !*obs->comps[ci].label))
            obs->comps[ci].label = obs->comps[oi].label;
    }
}

/* ---- metadata lint: bad metadata is a warning, never a failure ----------------------- */

static const char *KNOWN_TYPES[] = {"string", "number", "integer", "boolean", "array", "object", "null", "date",
                                    "any"};

#define MAX_LINT_WARNINGS 16

static int type_known(const char *t)
{
    for (size_t i = 0; i < sizeof KNOWN_TYPES / sizeof *KNOWN_TYPES; i++)
        if (!strcmp(t, KNOWN_TYPES[i]))
            return 1;
    return 0;
}

/* "number", "string", ... of a JSON value, for the mixed-enum check. */
static int json_kind(const cJSON *v)
{
    return v->type & 0xFF;
}

/* "min 10 above max 1; no value can pass" when lo > hi (numbers, or dated strings). */
static int above(const cJSON *lo, const cJSON *hi, int or_equal)
{
    if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi))
        return or_equal ? lo->valuedouble >= hi->valuedouble : lo->valuedouble > hi->valuedouble;
    if (cJSON_IsString(lo) && cJSON_IsString(hi))
        return or_equal ? strcmp(lo->valuestring, hi->valuestring) >= 0 : strcmp(lo->valuestring, hi->valuestring) > 0;
    return 0;
}

static void warn_pair(perc_obs *obs, const char *where, const char *what_lo, const cJSON *lo, const char *what_hi,
                      const cJSON *hi, int or_equal, int *budget)
{
    if (!above(lo, hi, or_equal) || !(*budget)--)
        return;
    char *a = cJSON_PrintUnformatted(lo), *b = cJSON_PrintUnformatted(hi);
    perc_obs_warn(obs, "%s has %s %.40s %s %s %.40s; no value can pass", where, what_lo, a ? a : "?",
                  or_equal ? "at or above" : "above", what_hi, b ? b : "?");
    free(a);
    free(b);
}

/* One spec as the validator reads it (perception/meta.h): its own type and
 * enum, and its limits with the tool-level ones that concern it folded in. */
static void lint_spec(perc_obs *obs, const perc_component *c, const char *tool, const char *param,
                      const perc_spec *own, const perc_limits *l, int *budget)
{
    if (*budget <= 0 || !own->json)
        return;
    const char *where = eous_arena_printf(obs->arena, "%s: %s.%s%s%s", c->provider, c->key, tool,
                                          param ? " param " : "", param ? param : "");
    if (own->type_name && !type_known(own->type_name) && (*budget)--)
        perc_obs_warn(obs, "%s has unknown type '%.40s'; shown as given, values not type-checked", where,
                      own->type_name);
    warn_pair(obs, where, "min", l->min, "max", l->max, 0, budget);
    warn_pair(obs, where, "exclusiveMinimum", l->xmin, "exclusiveMaximum", l->xmax, 1, budget);
    warn_pair(obs, where, "min", l->min, "exclusiveMaximum", l->xmax, 1, budget);
    warn_pair(obs, where, "exclusiveMinimum", l->xmin, "max", l->max, 1, budget);
    warn_pair(obs, where, "minLength", l->min_len, "maxLength", l->max_len, 0, budget);
    warn_pair(obs, where, "minItems", l->min_items, "maxItems", l->max_items, 0, budget);
    const cJSON *en = own->enumeration;
    if (en && en->child) {
        for (const cJSON *e = en->child->next; e; e = e->next)
            if (json_kind(e) != json_kind(en->child)) {
                if ((*budget)--)
                    perc_obs_warn(obs, "%s has an enum of mixed types; values are matched as given", where);
                break;
            }
    }
}

/* Warnings for metadata no value can satisfy or eous cannot read: unknown
 * types, a lower bound above an upper one (min/max, exclusive bounds,
 * lengths, items; a param's own with the tool's that concern it), enums of
 * mixed types.  The view still shows it. */
static void lint_metadata(perc_obs *obs, const perc_component *c)
{
    int budget = MAX_LINT_WARNINGS;
    const cJSON *tm;
    cJSON_ArrayForEach(tm, c->metadata) {
        if (!tm->string || !cJSON_IsObject(tm))
            continue;
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(tm, "params");
        if (params && !cJSON_IsObject(params) && budget--)
            perc_obs_warn(obs, "%s: %s.%s params is %s, expected an object; shown without params", c->provider,
                          c->key, tm->string, eous_json_type_name(params));
        perc_tool_meta t;
        perc_tool_meta_read(c->metadata, tm->string, &t);
        const cJSON *p;
        cJSON_ArrayForEach(p, t.params) {
            perc_param_meta pm;
            perc_param_meta_read(&t, p, &pm);
            lint_spec(obs, c, tm->string, p->string, &pm.own, &pm.eff.lim, &budget);
        }
        /* flat constraints the only param did not take as its own */
        if (t.flat && t.n_params != 1) {
            perc_spec cons;
            perc_spec_read(t.constraints, &cons);
            lint_spec(obs, c, tm->string, NULL, &cons, &cons.lim, &budget);
        }
    }
}

eous_rc perc_parse_ci4a(perc_obs *obs, cJSON *registry, eous_err *err)
{
    if (!cJSON_IsObject(registry)) {
        cJSON_Delete(registry);
        return eous_err_set(err, EOUS_E_PARSE, "ci4a: getStatus() returned %s, expected an object",
                            eous_json_type_name(registry));
    }
    perc_own_json(obs, registry);
    const cJSON *e;
    cJSON_ArrayForEach(e, registry) {
        if (!cJSON_IsObject(e) || !e->string) {
            perc_obs_warn(obs, "ci4a: entry '%s' is not an object; skipped", e->string ? e->string : "?");
            continue;
        }
        perc_component *c = perc_add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, e->string);
        const char *kind = eous_json_str(e, "kind");
        c->kind = eous_arena_strdup(obs->arena, kind ? kind : "component");
        c->provider_bit = PERC_PROVIDER_CI4A;
        c->provider = perc_provider_name(c->provider_bit);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "state");
        c->state = cJSON_IsObject(st) ? st : empty_obj(obs);
        const char *label = label_field(e);
        if (!label)
            label = label_field(c->state);
        c->label = clean_label(obs, label);
        const cJSON *tools = cJSON_GetObjectItemCaseSensitive(e, "tools");
        if (cJSON_IsObject(tools)) {
            /* tools given as {name: meta}: use names, and the metas as M */
            cJSON *names = cJSON_CreateArray();
            const cJSON *t;
            cJSON_ArrayForEach(t, tools) cJSON_AddItemToArray(names, cJSON_CreateString(t->string));
            perc_own_json(obs, names);
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
        lint_metadata(obs, c);
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
    perc_own_json(obs, tools);
    const cJSON *t;
    cJSON_ArrayForEach(t, tools) {
        const char *name = eous_json_str(t, "name");
        if (!name)
            continue;
        perc_component *c = perc_add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, name);
        c->kind = "webmcp";
        c->provider_bit = PERC_PROVIDER_WEBMCP;
        c->provider = perc_provider_name(c->provider_bit);
        const char *desc = eous_json_str(t, "description");
        /* the label (what targets and candidates lists name) is the
         * description kept short; the view shows it whole from M */
        if (desc && strlen(desc) > 90)
            c->label = eous_arena_printf(obs->arena, "%.*s…", (int)eous_utf8_cut(desc, 87), desc);
        else
            c->label = eous_arena_strdup(obs->arena, desc ? desc : name);
        c->state = empty_obj(obs);
        cJSON *names = cJSON_CreateArray();
        cJSON_AddItemToArray(names, cJSON_CreateString(name));
        perc_own_json(obs, names);
        c->tools = names;
        /* M for the single tool: its JSON Schema as params */
        cJSON *md = cJSON_CreateObject();
        cJSON *meta = cJSON_AddObjectToObject(md, name);
        if (desc)
            cJSON_AddStringToObject(meta, "description", desc);
        /* annotations (readOnlyHint, untrustedContentHint) and a declarative
         * <form toolname>'s autosubmit travel with the tool's M */
        for (const char *const *f = (const char *const[]){"title", "annotations", "form", NULL}; *f; f++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, *f);
            if (v && !cJSON_IsNull(v) && !(cJSON_IsString(v) && !*v->valuestring))
                cJSON_AddItemToObject(meta, *f, cJSON_Duplicate(v, 1));
        }
        const cJSON *schema = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
        if (cJSON_IsString(schema)) {
            cJSON *parsed = cJSON_Parse(schema->valuestring);
            if (parsed)
                cJSON_AddItemToObject(meta, "inputSchema", parsed);
        } else if (cJSON_IsObject(schema)) {
            cJSON_AddItemToObject(meta, "inputSchema", cJSON_Duplicate(schema, 1));
        }
        perc_own_json(obs, md);
        c->metadata = md;
        c->visible = 1;
    }
    return EOUS_OK;
}

eous_rc perc_parse_bridge(perc_obs *obs, cJSON *snapshot, eous_err *err)
{
    /* ui-sdk style: {entries|elements|components: [{ref, label, role|kind, actions|tools, state|value}]} or an array */
    perc_own_json(obs, snapshot);
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
        perc_component *c = perc_add_component(obs);
        if (!c)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        c->key = eous_arena_strdup(obs->arena, ref);
        const char *kind = eous_json_str(e, "kind");
        if (!kind)
            kind = eous_json_str(e, "role");
        c->kind = eous_arena_strdup(obs->arena, kind ? kind : "bridge");
        const char *label = eous_json_str(e, "label");
        c->label = eous_arena_strdup(obs->arena, label ? label : "");
        c->provider_bit = PERC_PROVIDER_BRIDGE;
        c->provider = perc_provider_name(c->provider_bit);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "state");
        if (cJSON_IsObject(st)) {
            c->state = st;
        } else {
            cJSON *o = cJSON_CreateObject();
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
            if (v)
                cJSON_AddItemToObject(o, "value", cJSON_Duplicate(v, 1));
            perc_own_json(obs, o);
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



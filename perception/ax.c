/* perception/ax.c — CDP accessibility tree, DOM snapshot marks and semantic
 * providers parsed into the observation's compact arrays. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/percint.h"

/* ---- small string → index hash (node ids) ------------------------------------ */

typedef struct idx_map {
    const char **keys;
    int *vals;
    size_t cap;
} idx_map;

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ULL;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

static int idx_map_init(idx_map *m, size_t n)
{
    m->cap = 16;
    while (m->cap < n * 2)
        m->cap <<= 1;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    return m->keys && m->vals ? 0 : -1;
}

/* Returns the existing value, or inserts v and returns -1. */
static int idx_map_put(idx_map *m, const char *k, int v)
{
    size_t i = hash_str(k) & (m->cap - 1);
    while (m->keys[i]) {
        if (!strcmp(m->keys[i], k))
            return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = k;
    m->vals[i] = v;
    return -1;
}

static int idx_map_get(const idx_map *m, const char *k)
{
    size_t i = hash_str(k) & (m->cap - 1);
    while (m->keys[i]) {
        if (!strcmp(m->keys[i], k))
            return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

static void idx_map_free(idx_map *m)
{
    free(m->keys);
    free(m->vals);
}

/* ---- AX values -------------------------------------------------------------- */

/* Renders an AXValue's "value" as text the way Python's str() would
 * (WebArena formats properties with an f-string): True/False for booleans. */
static const char *ax_value_text(eous_arena *a, const cJSON *axvalue)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(axvalue, "value");
    if (!v)
        return NULL;
    if (cJSON_IsString(v))
        return eous_arena_strdup(a, v->valuestring);
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? "True" : "False";
    if (cJSON_IsNumber(v)) {
        char b[EOUS_NUMBER_STR_MAX];
        return eous_arena_strdup(a, eous_number_str(v->valuedouble, b));
    }
    if (cJSON_IsNull(v))
        return "None";
    return NULL; /* lists, objects: WebArena's f-string would print a Python repr; skip */
}

eous_rc perc_parse_ax(perc_obs *obs, const cJSON *ax_result, int frame, eous_err *err)
{
    const cJSON *nodes = eous_json_arr(ax_result, "nodes");
    if (!nodes)
        return eous_err_set(err, EOUS_E_PARSE, "accessibility tree: expected {\"nodes\": [...]}");
    size_t n = (size_t)cJSON_GetArraySize(nodes);
    size_t base = obs->n_nodes;
    perc_node *grown = realloc(obs->nodes, (base + n + 1) * sizeof *grown);
    if (!grown)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory for %zu AX nodes", n);
    obs->nodes = grown;
    idx_map ids;
    if (idx_map_init(&ids, n + 1))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_arena *a = obs->arena;
    const cJSON **src = calloc(n + 1, sizeof *src);
    if (!src) {
        idx_map_free(&ids);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }

    /* Pass 1: one compact node per unique nodeId (WebArena drops repeats).
     * InlineTextBox nodes are dropped: the Chromium WebArena recorded with did
     * not expose them, and they only repeat their StaticText parent. */
    size_t count = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, nodes) {
        const char *id = eous_json_str(it, "nodeId");
        if (!id)
            continue;
        const cJSON *role = eous_json_obj(it, "role");
        const char *role_s = role ? eous_json_str(role, "value") : NULL;
        if (role_s && !strcmp(role_s, "InlineTextBox"))
            continue;
        if (idx_map_put(&ids, id, (int)(base + count)) >= 0)
            continue;
        perc_node *pn = &obs->nodes[base + count];
        memset(pn, 0, sizeof *pn);
        pn->ax_id = id; /* points into the parsed tree until re-homed below */
        pn->role = role_s ? eous_arena_strdup(a, role_s) : NULL;
        const cJSON *name = eous_json_obj(it, "name");
        const char *name_s = name ? eous_json_str(name, "value") : NULL;
        pn->name = name_s ? eous_arena_strdup(a, name_s) : NULL;
        const cJSON *value = eous_json_obj(it, "value");
        pn->value = value ? ax_value_text(a, value) : NULL;
        pn->ignored = eous_json_bool(it, "ignored", 0);
        pn->backend_id = eous_json_int(it, "backendDOMNodeId", 0);
        pn->parent = -1;
        pn->frame = frame;
        pn->component = -1;
        const cJSON *props = eous_json_arr(it, "properties");
        size_t np = props ? (size_t)cJSON_GetArraySize(props) : 0;
        if (np) {
            pn->props = eous_arena_alloc(a, np * sizeof *pn->props);
            const cJSON *p;
            cJSON_ArrayForEach(p, props) {
                const char *pname = eous_json_str(p, "name");
                const cJSON *pv = eous_json_obj(p, "value");
                const char *text = pv ? ax_value_text(a, pv) : NULL;
                if (!pname || !text)
                    continue; /* WebArena skips properties without value.value */
                pn->props[pn->n_props].name = eous_arena_strdup(a, pname);
                pn->props[pn->n_props].value = text;
                pn->n_props++;
            }
        }
        src[count] = it;
        count++;
    }
    /* Pass 2: children by id (ids not in the tree are skipped, as WebArena does). */
    for (size_t i = 0; i < count; i++) {
        perc_node *pn = &obs->nodes[base + i];
        pn->ax_id = eous_arena_strdup(a, pn->ax_id);
        const cJSON *kids = eous_json_arr(src[i], "childIds");
        size_t nk = kids ? (size_t)cJSON_GetArraySize(kids) : 0;
        if (!nk)
            continue;
        pn->children = eous_arena_alloc(a, nk * sizeof *pn->children);
        const cJSON *k;
        cJSON_ArrayForEach(k, kids) {
            const char *kid = cJSON_IsString(k) ? k->valuestring : NULL;
            int ki = kid ? idx_map_get(&ids, kid) : -1;
            if (ki < 0 || (size_t)ki == base + i || (size_t)ki == base)
                continue; /* no self loops; the root stays the root */
            if (obs->nodes[ki].parent >= 0)
                continue; /* a node with two parents: keep the first, no cycles */
            obs->nodes[ki].parent = (int)(base + i);
            pn->children[pn->n_children++] = ki;
        }
    }
    obs->n_nodes = base + count;
    free(src);
    idx_map_free(&ids);
    return EOUS_OK;
}

/* ---- DOM snapshot marks -------------------------------------------------------- */

static const char *snap_str(const cJSON *strings, int idx)
{
    if (idx < 0)
        return NULL;
    const cJSON *s = cJSON_GetArrayItem(strings, idx);
    return cJSON_IsString(s) ? s->valuestring : NULL;
}

eous_rc perc_parse_dom_snapshot(perc_obs *obs, const cJSON *snapshot, eous_err *err)
{
    const cJSON *strings = eous_json_arr(snapshot, "strings");
    const cJSON *docs = eous_json_arr(snapshot, "documents");
    if (!strings || !docs)
        return eous_err_set(err, EOUS_E_PARSE, "DOM snapshot: expected {documents, strings}");
    eous_arena *a = obs->arena;
    /* strings are referenced many times: index them once */
    int ns = cJSON_GetArraySize(strings);
    const char **str = calloc((size_t)ns + 1, sizeof *str);
    if (!str)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    {
        int i = 0;
        const cJSON *s;
        cJSON_ArrayForEach(s, strings) str[i++] = cJSON_IsString(s) ? s->valuestring : NULL;
    }
    const cJSON *doc;
    cJSON_ArrayForEach(doc, docs) {
        const cJSON *nodes = eous_json_obj(doc, "nodes");
        const cJSON *parents = eous_json_arr(nodes, "parentIndex");
        const cJSON *backends = eous_json_arr(nodes, "backendNodeId");
        const cJSON *attrs = eous_json_arr(nodes, "attributes");
        const cJSON *names = eous_json_arr(nodes, "nodeName");
        if (!parents || !backends)
            continue;
        int n = cJSON_GetArraySize(backends);
        size_t base = obs->n_marks;
        perc_mark *grown = realloc(obs->marks, (base + (size_t)n + 1) * sizeof *grown);
        if (!grown) {
            free(str);
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
        obs->marks = grown;
        const cJSON *pi = parents->child, *bi = backends->child, *ai = attrs ? attrs->child : NULL,
                    *ni = names ? names->child : NULL;
        for (int i = 0; i < n; i++) {
            perc_mark *m = &obs->marks[base + (size_t)i];
            memset(m, 0, sizeof *m);
            m->backend_id = bi ? bi->valueint : 0;
            int p = pi ? pi->valueint : -1;
            m->parent = p >= 0 && p < i ? (int)base + p : -1;
            const char *tag = ni && ni->valueint >= 0 && ni->valueint < ns ? str[ni->valueint] : NULL;
            int is_input = tag && !strcmp(tag, "INPUT");
            const cJSON *av = ai ? ai->child : NULL;
            while (av && av->next) {
                int ki = av->valueint, vi = av->next->valueint;
                const char *k = ki >= 0 && ki < ns ? str[ki] : NULL;
                const char *v = vi >= 0 && vi < ns ? str[vi] : NULL;
                if (k && k[0] == 'd' && !strncmp(k, "data-", 5)) {
                    if (!strcmp(k, "data-cid") && v && *v)
                        m->cid = eous_arena_strdup(a, v);
                    else if (!strcmp(k, "data-cid-owner") && v && *v)
                        m->cid_owner = eous_arena_strdup(a, v);
                    else if (!strcmp(k, "data-agent-hidden"))
                        m->hidden = 1;
                    else if (!strcmp(k, "data-agent-secret"))
                        m->secret_region = 1;
                    else if (!strcmp(k, "data-eous-id") && v)
                        m->eous_id = eous_arena_strdup(a, v);
                    else if (!strcmp(k, "data-agent-confirm"))
                        m->confirm = eous_arena_strdup(a, v ? v : "");
                } else if (is_input && k && v && !strcmp(k, "type") && !strcmp(v, "password")) {
                    m->secret_field = 1;
                } else if (k && v && !strcmp(k, "autocomplete") &&
                           (!strcmp(v, "one-time-code") || !strncmp(v, "cc-", 3) ||
                            !strcmp(v, "current-password") || !strcmp(v, "new-password"))) {
                    m->secret_field = 1;
                }
                av = av->next->next;
            }
            /* inherited marks: parents come before children in a snapshot */
            if (m->parent >= 0) {
                perc_mark *pm = &obs->marks[m->parent];
                m->in_component = pm->in_component;
                m->in_hidden = pm->in_hidden;
                m->in_secret = pm->in_secret;
                m->in_confirm = pm->in_confirm;
            }
            if (m->cid)
                m->in_component = m->cid;
            else if (m->cid_owner)
                m->in_component = m->cid_owner;
            if (m->hidden)
                m->in_hidden = 1;
            if (m->secret_region || m->secret_field)
                m->in_secret = 1;
            if (m->confirm)
                m->in_confirm = m->confirm;
            pi = pi ? pi->next : NULL;
            bi = bi ? bi->next : NULL;
            ai = ai ? ai->next : NULL;
            ni = ni ? ni->next : NULL;
        }
        obs->n_marks = base + (size_t)n;
    }
    free(str);
    (void)snap_str;
    return EOUS_OK;
}

/* ---- backend index ------------------------------------------------------------- */

void perc_index_backend(perc_obs *obs)
{
    free(obs->bmap);
    obs->bmap_cap = 16;
    while (obs->bmap_cap < (obs->n_nodes + obs->n_marks) * 2 + 2)
        obs->bmap_cap <<= 1;
    obs->bmap = calloc(obs->bmap_cap, sizeof *obs->bmap);
    if (!obs->bmap) {
        obs->bmap_cap = 0;
        return;
    }
    for (size_t i = 0; i < obs->n_nodes; i++) {
        int b = obs->nodes[i].backend_id;
        if (b <= 0)
            continue;
        size_t h = ((size_t)b * 2654435761u) & (obs->bmap_cap - 1);
        while (obs->bmap[h]) {
            if (obs->nodes[obs->bmap[h] - 1].backend_id == b)
                break;
            h = (h + 1) & (obs->bmap_cap - 1);
        }
        if (!obs->bmap[h])
            obs->bmap[h] = (int)i + 1;
    }
}

const perc_node *perc_obs_node_by_backend(const perc_obs *obs, int backend_id)
{
    if (!obs->bmap_cap || backend_id <= 0)
        return NULL;
    size_t h = ((size_t)backend_id * 2654435761u) & (obs->bmap_cap - 1);
    while (obs->bmap[h]) {
        const perc_node *n = &obs->nodes[obs->bmap[h] - 1];
        if (n->backend_id == backend_id)
            return n;
        h = (h + 1) & (obs->bmap_cap - 1);
    }
    return NULL;
}

/* ---- components ------------------------------------------------------------------ */

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

/* ---- marks → nodes --------------------------------------------------------------- */

static int find_component(const perc_obs *obs, const char *key)
{
    for (size_t i = 0; i < obs->n_comps; i++)
        if (!strcmp(obs->comps[i].key, key))
            return (int)i;
    return -1;
}

void perc_apply_marks(perc_obs *obs)
{
    perc_index_backend(obs);
    /* backend id → mark, through a temporary open-addressing table */
    size_t cap = 16;
    while (cap < obs->n_marks * 2 + 2)
        cap <<= 1;
    int *mt = calloc(cap, sizeof *mt);
    if (!mt)
        return;
    for (size_t i = 0; i < obs->n_marks; i++) {
        int b = obs->marks[i].backend_id;
        if (b <= 0)
            continue;
        size_t h = ((size_t)b * 2654435761u) & (cap - 1);
        while (mt[h])
            h = (h + 1) & (cap - 1);
        mt[h] = (int)i + 1;
    }
    for (size_t i = 0; i < obs->n_nodes; i++) {
        perc_node *n = &obs->nodes[i];
        const perc_mark *m = NULL;
        if (n->backend_id > 0) {
            size_t h = ((size_t)n->backend_id * 2654435761u) & (cap - 1);
            while (mt[h]) {
                if (obs->marks[mt[h] - 1].backend_id == n->backend_id) {
                    m = &obs->marks[mt[h] - 1];
                    break;
                }
                h = (h + 1) & (cap - 1);
            }
        }
        if (m) {
            n->hidden = m->in_hidden;
            n->secret = m->in_secret;
            n->component = m->in_component ? find_component(obs, m->in_component) : -1;
            if (m->cid && n->component >= 0 && !obs->comps[n->component].backend_id) {
                obs->comps[n->component].backend_id = n->backend_id;
                obs->comps[n->component].confirm = m->in_confirm;
                n->component_root = 1;
            }
        } else if (n->parent >= 0 && (size_t)n->parent < i) {
            /* text nodes without their own DOM element inherit from the parent */
            const perc_node *p = &obs->nodes[n->parent];
            n->hidden = p->hidden;
            n->secret = p->secret;
            n->component = p->component;
        }
    }
    /* Children listed before parents (AX order is not document order): a second
     * top-down pass from the root fixes inheritance for nodes without marks. */
    for (size_t i = 0; i < obs->n_nodes; i++) {
        perc_node *n = &obs->nodes[i];
        for (size_t k = 0; k < n->n_children; k++) {
            perc_node *c = &obs->nodes[n->children[k]];
            if (c->backend_id <= 0) {
                c->hidden = n->hidden;
                c->secret = n->secret;
                c->component = n->component;
            }
        }
    }
    free(mt);
    /* data-cid roots straight from the DOM marks (roots may be absent from the AX tree) */
    for (size_t i = 0; i < obs->n_marks; i++) {
        const perc_mark *m = &obs->marks[i];
        if (!m->cid)
            continue;
        int ci = find_component(obs, m->cid);
        if (ci < 0)
            continue;
        perc_component *comp = &obs->comps[ci];
        if (!comp->backend_id) {
            comp->backend_id = m->backend_id;
            comp->confirm = m->in_confirm;
        }
        if (m->in_hidden)
            comp->agent_hidden = 1;
    }
    /* Secret values never leave perception. */
    for (size_t i = 0; i < obs->n_nodes; i++) {
        perc_node *n = &obs->nodes[i];
        if (!n->secret)
            continue;
        if (n->value && *n->value)
            n->value = "[redacted]";
        if (n->role && (!strcmp(n->role, "StaticText") || !strcmp(n->role, "textbox")) && n->name && *n->name &&
            !strcmp(n->role, "StaticText"))
            n->name = "[redacted]";
        for (size_t p = 0; p < n->n_props; p++)
            if (!strcmp(n->props[p].name, "valuetext") || !strcmp(n->props[p].name, "value"))
                n->props[p].value = "[redacted]";
    }
}

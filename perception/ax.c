/* perception/ax.c — the CDP accessibility tree (Accessibility.getFullAXTree
 * as cJSON, the in-page tree's shape too) parsed into the observation's
 * compact node array.  axscan.c reads the same from raw JSON text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"

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
    perc_strmap ids;
    if (perc_strmap_init(&ids, n + 1))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_arena *a = obs->arena;
    const cJSON **src = calloc(n + 1, sizeof *src);
    if (!src) {
        perc_strmap_free(&ids);
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
        if (perc_strmap_put(&ids, id, (int)(base + count)) >= 0)
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
            int ki = kid ? perc_strmap_get(&ids, kid) : -1;
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
    perc_strmap_free(&ids);
    return EOUS_OK;
}

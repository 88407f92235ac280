/* perception/obs_data.c — the observation as data: options, allocation, tabs,
 * warnings, the view's ids, and the accessors every other file reads it
 * through.  It calls no other perception file, so the views and providers
 * that read an observation and obs.c that builds one (calling them) form no
 * circle. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tokenize.h"
#include "perception/perc_int.h"

void perc_opts_init(perc_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mode = PERC_MODE_HYBRID;
    o->provider_timeout_ms = EOUS_DEFAULT_PROVIDER_TIMEOUT_MS;
    o->max_provider_bytes = 8u * 1024 * 1024;
    o->providers = 1;
}

perc_obs *perc_obs_alloc(perc_mode mode)
{
    perc_obs *obs = calloc(1, sizeof *obs);
    if (!obs)
        return NULL;
    obs->mode = mode;
    obs->arena = eous_arena_new(0);
    obs->tab_count = 1;
    if (!obs->arena) {
        free(obs);
        return NULL;
    }
    return obs;
}

perc_obs *perc_obs_begin(const perc_opts **o, perc_opts *dflt, perc_obs **out, eous_err *err)
{
    if (!*o) {
        perc_opts_init(dflt);
        *o = dflt;
    }
    *out = NULL;
    perc_obs *obs = perc_obs_alloc((*o)->mode);
    if (!obs)
        eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return obs;
}

eous_rc perc_obs_set_tabs(perc_obs *obs, const perc_opts *o, eous_err *err)
{
    obs->id_base = o->id_base;
    if (o->tab_count <= 1 || !o->tab_titles)
        return EOUS_OK;
    const char **titles = eous_arena_alloc(obs->arena, (size_t)o->tab_count * sizeof *titles);
    if (!titles)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (int i = 0; i < o->tab_count; i++)
        if (!(titles[i] = eous_arena_strdup(obs->arena, o->tab_titles[i] ? o->tab_titles[i] : "")))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    obs->tab_titles = titles;
    obs->tab_count = o->tab_count;
    obs->tab_current = o->tab_current;
    return EOUS_OK;
}

eous_rc perc_put_tab_header(eous_buf *b, const perc_obs *obs, eous_err *err)
{
    if (obs->tab_count <= 1 || !obs->tab_titles)
        return eous_buf_printf(b, err, "Tab 0 (current): %s", obs->title ? obs->title : "");
    eous_rc rc = EOUS_OK;
    for (int i = 0; i < obs->tab_count && !rc; i++)
        rc = eous_buf_printf(b, err, "%sTab %d%s: %s", i ? " | " : "", i, i == obs->tab_current ? " (current)" : "",
                             obs->tab_titles[i]);
    return rc;
}

void perc_obs_free(perc_obs *obs)
{
    if (!obs)
        return;
    free(obs->nodes);
    free(obs->comps);
    cJSON_Delete(obs->owned_json);
    free(obs->text);
    perc_lines_free(obs->lines);
    free(obs->warnings);
    free(obs->ids);
    perc_bindex_free(&obs->nodes_by_backend);
    free(obs->marks);
    eous_arena_free(obs->view_arena);
    eous_arena_free(obs->arena);
    free(obs);
}

void perc_obs_warn(perc_obs *obs, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (obs->n_warnings == obs->cap_warnings) {
        size_t cap = obs->cap_warnings ? obs->cap_warnings * 2 : 4;
        const char **g = realloc(obs->warnings, cap * sizeof *g);
        if (!g)
            return;
        obs->warnings = g;
        obs->cap_warnings = cap;
    }
    obs->warnings[obs->n_warnings++] = eous_arena_strdup(obs->arena, msg);
    EOUS_WARN("perception", "%s", msg);
}

eous_rc perc_view_init(perc_view *v, const perc_obs *obs, eous_err *err)
{
    memset(v, 0, sizeof *v);
    v->arena = eous_arena_new(0);
    v->comp_ids = calloc(obs->n_comps + 1, sizeof *v->comp_ids);
    if (!v->arena || !v->comp_ids) {
        perc_view_free(v);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    return EOUS_OK;
}

eous_rc perc_view_add_id(perc_view *v, const char *id, int backend_id)
{
    if (v->n_ids == v->cap_ids) {
        size_t cap = v->cap_ids ? v->cap_ids * 2 : 64;
        perc_idmap_entry *g = realloc(v->ids, cap * sizeof *g);
        if (!g)
            return EOUS_E_NOMEM;
        v->ids = g;
        v->cap_ids = cap;
    }
    v->ids[v->n_ids].id = id;
    v->ids[v->n_ids].backend_id = backend_id;
    v->n_ids++;
    return EOUS_OK;
}

void perc_view_free(perc_view *v)
{
    free(v->text);
    free(v->ids);
    free(v->comp_ids);
    eous_arena_free(v->arena);
    pv_lines_free(&v->lines);
    memset(v, 0, sizeof *v);
}

perc_mode perc_obs_mode(const perc_obs *obs) { return obs->mode; }
const char *perc_obs_text(const perc_obs *obs) { return obs->text ? obs->text : ""; }
size_t perc_obs_text_len(const perc_obs *obs) { return obs->text_len; }
const char *perc_obs_url(const perc_obs *obs) { return obs->url ? obs->url : ""; }
int perc_obs_tab_count(const perc_obs *obs) { return obs->tab_count; }
const char *perc_obs_title(const perc_obs *obs) { return obs->title ? obs->title : ""; }
const char *perc_obs_element_prefix(const perc_obs *obs) { return obs->elem_prefix; }
const char *perc_obs_version(const perc_obs *obs) { return obs->version; }
const perc_timings *perc_obs_timings(const perc_obs *obs) { return &obs->timings; }
size_t perc_obs_n_warnings(const perc_obs *obs) { return obs->n_warnings; }
const char *perc_obs_warning(const perc_obs *obs, size_t i) { return i < obs->n_warnings ? obs->warnings[i] : NULL; }
size_t perc_obs_n_nodes(const perc_obs *obs) { return obs->n_nodes; }
const perc_node *perc_obs_node(const perc_obs *obs, size_t i) { return i < obs->n_nodes ? &obs->nodes[i] : NULL; }
size_t perc_obs_n_components(const perc_obs *obs) { return obs->n_comps; }
const perc_component *perc_obs_component(const perc_obs *obs, size_t i)
{
    return i < obs->n_comps ? &obs->comps[i] : NULL;
}

const perc_component *perc_obs_find_component(const perc_obs *obs, const char *k)
{
    if (!k)
        return NULL;
    /* accept "[c3]" as well as "c3" */
    char buf[256];
    size_t n = strlen(k);
    if (n >= 2 && k[0] == '[' && k[n - 1] == ']' && n - 2 < sizeof buf) {
        memcpy(buf, k + 1, n - 2);
        buf[n - 2] = '\0';
        k = buf;
    }
    for (size_t i = 0; i < obs->n_comps; i++)
        if (obs->comps[i].view_id[0] && !strcmp(obs->comps[i].view_id, k))
            return &obs->comps[i];
    for (size_t i = 0; i < obs->n_comps; i++)
        if (!strcmp(obs->comps[i].key, k))
            return &obs->comps[i];
    return NULL;
}

eous_rc perc_obs_resolve_id(const perc_obs *obs, const char *view_id, int *backend_id, eous_err *err)
{
    char buf[128];
    const char *id = view_id ? view_id : "";
    size_t n = strlen(id);
    if (n >= 2 && id[0] == '[' && id[n - 1] == ']' && n - 2 < sizeof buf) {
        memcpy(buf, id + 1, n - 2);
        buf[n - 2] = '\0';
        id = buf;
    }
    for (size_t i = 0; i < obs->n_ids; i++) {
        if (!strcmp(obs->ids[i].id, id)) {
            if (obs->ids[i].backend_id <= 0)
                return eous_err_set(err, EOUS_E_NOT_FOUND, "element [%s] has no DOM node to act on", id);
            *backend_id = obs->ids[i].backend_id;
            return EOUS_OK;
        }
    }
    return eous_err_set(err, EOUS_E_NOT_FOUND, "no element with id [%s] in the current observation", id);
}

const char *perc_obs_view_id_of(const perc_obs *obs, int backend_id)
{
    for (size_t i = 0; i < obs->n_ids; i++)
        if (obs->ids[i].backend_id == backend_id && backend_id > 0)
            return obs->ids[i].id;
    return NULL;
}

eous_rc perc_obs_find_role_name(const perc_obs *obs, const char *role, const char *name, int nth, int *backend_id,
                                eous_err *err)
{
    int seen = 0;
    if (nth < 1)
        nth = 1;
    /* document order = depth-first from the root */
    int *stack = malloc((obs->n_nodes + 1) * sizeof *stack);
    unsigned char *visited = calloc(obs->n_nodes + 1, 1);
    if (!stack || !visited) {
        free(stack);
        free(visited);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    int sp = 0;
    if (obs->n_nodes)
        stack[sp++] = 0;
    eous_rc rc = EOUS_E_NOT_FOUND;
    while (sp) {
        int i = stack[--sp];
        if (visited[i])
            continue;
        visited[i] = 1;
        const perc_node *n = &obs->nodes[i];
        if (n->hidden)
            continue;
        if (!n->ignored && n->role && n->name && !strcmp(n->role, role) && !strcmp(n->name, name) &&
            n->backend_id > 0 && ++seen == nth) {
            *backend_id = n->backend_id;
            rc = EOUS_OK;
            break;
        }
        for (size_t k = n->n_children; k-- > 0;)
            if (sp < (int)obs->n_nodes)
                stack[sp++] = n->children[k];
    }
    free(stack);
    free(visited);
    if (rc)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "no %s '%s'%s on the page (found %d)", role, name,
                            nth > 1 ? " with that index" : "", seen);
    return EOUS_OK;
}

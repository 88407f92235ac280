/* perception/obs.c — the observation object: building, accessors, JSON. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tokenize.h"
#include "perception/perc_int.h"

int perc_mode_parse(const char *s, perc_mode *out)
{
    static const char *names[] = {"atomic", "pruned", "hybrid", "html", "vision"};
    for (int i = 0; i < 5; i++)
        if (s && !strcmp(s, names[i])) {
            *out = (perc_mode)i;
            return 0;
        }
    return -1;
}

const char *perc_mode_name(perc_mode m)
{
    static const char *names[] = {"atomic", "pruned", "hybrid", "html", "vision"};
    return (unsigned)m < 5 ? names[m] : "?";
}

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
    memset(v, 0, sizeof *v);
}

/* The observation takes the view's text, ids and component ids. */
static void adopt_view(perc_obs *obs, perc_view *v)
{
    free(obs->text);
    free(obs->ids);
    eous_arena_free(obs->view_arena);
    /* every view goes through the redactor: a credential in a link's query (?key=) or a
     * registered secret shown as a field's value never reaches a planner */
    char *clean = v->text ? eous_redact(v->text) : NULL;
    if (clean) {
        free(v->text);
        v->text = clean;
        v->text_len = strlen(clean);
    }
    obs->text = v->text;
    obs->text_len = v->text_len;
    obs->ids = v->ids;
    obs->n_ids = v->n_ids;
    obs->cap_ids = v->cap_ids;
    obs->view_arena = v->arena;
    for (size_t i = 0; i < obs->n_comps; i++)
        snprintf(obs->comps[i].view_id, sizeof obs->comps[i].view_id, "%s", v->comp_ids[i] ? v->comp_ids[i] : "");
    if (v->depth_capped)
        perc_obs_warn(obs, "page nests deeper than %d levels; deeper content is not shown", PERC_MAX_DEPTH);
    free(v->comp_ids);
    memset(v, 0, sizeof *v);
}

void perc_finish(perc_obs *obs)
{
    /* version: URL + view text + component states */
    eous_buf b;
    eous_buf_init(&b, 0);
    eous_buf_puts(&b, obs->url ? obs->url : "", NULL);
    eous_buf_putc(&b, '\n', NULL);
    if (obs->text)
        eous_buf_append(&b, obs->text, obs->text_len, NULL);
    for (size_t i = 0; i < obs->n_comps; i++) {
        char *s = cJSON_PrintUnformatted(obs->comps[i].state);
        if (s) {
            eous_buf_puts(&b, s, NULL);
            free(s);
        }
    }
    eous_hash_hex(b.data ? b.data : "", b.len, obs->version);
    eous_buf_free(&b);
}

static eous_rc render(perc_obs *obs, const char *html, size_t html_len, eous_err *err)
{
    perc_view v;
    eous_rc rc = perc_view_init(&v, obs, err);
    if (rc)
        return rc;
    switch (obs->mode) {
    case PERC_MODE_ATOMIC: rc = perc_render_atomic(obs, &v, err); break;
    case PERC_MODE_PRUNED: rc = perc_render_pruned(obs, 0, &v, err); break;
    case PERC_MODE_HYBRID:
    case PERC_MODE_VISION: rc = perc_render_pruned(obs, 1, &v, err); break;
    case PERC_MODE_HTML: rc = perc_render_html(obs, html ? html : "", html ? html_len : 0, &v, err); break;
    default: rc = eous_err_set(err, EOUS_E_INVALID, "unknown observation mode");
    }
    if (rc)
        perc_view_free(&v);
    else
        adopt_view(obs, &v);
    return rc;
}

eous_rc perc_build_internal(perc_obs *obs, const char *html, size_t html_len, eous_err *err)
{
    perc_apply_marks(obs);
    /* components marked hidden by the page are never shown nor acted on */
    size_t w = 0;
    for (size_t i = 0; i < obs->n_comps; i++) {
        if (obs->comps[i].agent_hidden)
            continue;
        obs->comps[w++] = obs->comps[i];
    }
    if (w != obs->n_comps) {
        obs->n_comps = w;
        /* indices changed: recompute node → component links */
        for (size_t i = 0; i < obs->n_nodes; i++)
            obs->nodes[i].component = -1;
        perc_apply_marks(obs);
    }
    perc_label_components(obs);
    eous_rc rc = render(obs, html, html_len, err);
    obs->id_base = NULL; /* borrowed for the build only */
    if (!rc)
        perc_finish(obs);
    return rc;
}

eous_rc perc_build(const char *ax_json, size_t ax_len, const char *dom_json, size_t dom_len,
                   const char *registry_json, size_t registry_len, const char *url, const perc_opts *o,
                   perc_obs **out, eous_err *err)
{
    perc_opts dflt;
    if (!o) {
        perc_opts_init(&dflt);
        o = &dflt;
    }
    *out = NULL;
    double t0 = eous_now_ms();
    perc_obs *obs = perc_obs_alloc(o->mode);
    if (!obs)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    obs->url = eous_arena_strdup(obs->arena, url ? url : "");
    eous_rc rc = EOUS_OK;
    rc = perc_parse_ax_text(obs, ax_json, ax_len, 0, err);
    if (rc)
        goto done;
    /* title: the root's name */
    if (obs->n_nodes && obs->nodes[0].name)
        obs->title = obs->nodes[0].name;
    if (dom_json) {
        cJSON *dom = eous_json_parse(dom_json, dom_len, "DOM snapshot", err);
        if (!dom) {
            rc = EOUS_E_PARSE;
            goto done;
        }
        rc = perc_parse_dom_snapshot(obs, dom, err);
        cJSON_Delete(dom);
        if (rc)
            goto done;
    }
    if (registry_json) {
        eous_err perr;
        eous_err_clear(&perr);
        cJSON *reg = eous_json_parse(registry_json, registry_len, "ci4a registry", &perr);
        if (!reg || perc_parse_ci4a(obs, reg, &perr))
            perc_obs_warn(obs, "%s", perr.msg);
    }
    rc = perc_build_internal(obs, NULL, 0, err);
done:
    if (rc) {
        perc_obs_free(obs);
        return rc;
    }
    obs->timings.c_ms = eous_now_ms() - t0;
    obs->timings.total_ms = obs->timings.c_ms;
    *out = obs;
    return EOUS_OK;
}

eous_rc perc_build_html(const char *html, size_t len, const char *url, const perc_opts *o, perc_obs **out,
                        eous_err *err)
{
    (void)o;
    *out = NULL;
    perc_obs *obs = perc_obs_alloc(PERC_MODE_HTML);
    if (!obs)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    obs->url = eous_arena_strdup(obs->arena, url ? url : "");
    eous_rc rc = render(obs, html, len, err);
    if (rc) {
        perc_obs_free(obs);
        return rc;
    }
    perc_finish(obs);
    *out = obs;
    return EOUS_OK;
}

perc_mode perc_obs_mode(const perc_obs *obs) { return obs->mode; }
const char *perc_obs_text(const perc_obs *obs) { return obs->text ? obs->text : ""; }
size_t perc_obs_text_len(const perc_obs *obs) { return obs->text_len; }
const char *perc_obs_url(const perc_obs *obs) { return obs->url ? obs->url : ""; }
int perc_obs_tab_count(const perc_obs *obs) { return obs->tab_count; }
const char *perc_obs_title(const perc_obs *obs) { return obs->title ? obs->title : ""; }
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

char *perc_obs_json(const perc_obs *obs)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "url", perc_obs_url(obs));
    cJSON_AddStringToObject(o, "title", perc_obs_title(obs));
    cJSON_AddStringToObject(o, "mode", perc_mode_name(obs->mode));
    cJSON_AddStringToObject(o, "version", obs->version);
    cJSON *sizes = cJSON_AddObjectToObject(o, "sizes");
    cJSON_AddNumberToObject(sizes, "bytes", (double)obs->text_len);
    /* the exact o200k count; "tokens_est" only when the tokenizer's data is missing and it is an estimate */
    cJSON_AddNumberToObject(sizes, eous_tok_o200k() ? "tokens_o200k" : "tokens_est",
                            (double)eous_tok_count_o200k(obs->text, obs->text_len));
    cJSON_AddNumberToObject(sizes, "ax_nodes", (double)obs->n_nodes);
    cJSON_AddNumberToObject(sizes, "components", (double)obs->n_comps);
    cJSON *t = cJSON_AddObjectToObject(o, "timings");
    cJSON_AddNumberToObject(t, "total_ms", obs->timings.total_ms);
    cJSON_AddNumberToObject(t, "browser_ms", obs->timings.browser_ms);
    cJSON_AddNumberToObject(t, "c_ms", obs->timings.c_ms);
    cJSON_AddNumberToObject(t, "round_trips", obs->timings.round_trips);
    cJSON *comps = cJSON_AddArrayToObject(o, "components");
    for (size_t i = 0; i < obs->n_comps; i++) {
        const perc_component *c = &obs->comps[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "view_id", c->view_id);
        cJSON_AddStringToObject(j, "key", c->key);
        cJSON_AddStringToObject(j, "kind", c->kind);
        cJSON_AddStringToObject(j, "label", c->label ? c->label : "");
        cJSON_AddStringToObject(j, "provider", c->provider);
        cJSON_AddItemToObject(j, "state", cJSON_Duplicate(c->state, 1));
        cJSON_AddItemToObject(j, "tools", cJSON_Duplicate(c->tools, 1));
        cJSON_AddItemToObject(j, "metadata", cJSON_Duplicate(c->metadata, 1));
        cJSON_AddBoolToObject(j, "disabled", c->disabled);
        cJSON_AddNumberToObject(j, "backend_id", c->backend_id);
        cJSON_AddItemToArray(comps, j);
    }
    cJSON *ids = cJSON_AddArrayToObject(o, "nodes");
    for (size_t i = 0; i < obs->n_ids; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "id", obs->ids[i].id);
        cJSON_AddNumberToObject(j, "backend_id", obs->ids[i].backend_id);
        const perc_node *n = perc_obs_node_by_backend(obs, obs->ids[i].backend_id);
        if (n) {
            cJSON_AddStringToObject(j, "role", n->role ? n->role : "");
            cJSON_AddStringToObject(j, "name", n->name ? n->name : "");
        }
        cJSON_AddItemToArray(ids, j);
    }
    cJSON *w = cJSON_AddArrayToObject(o, "warnings");
    for (size_t i = 0; i < obs->n_warnings; i++)
        cJSON_AddItemToArray(w, cJSON_CreateString(obs->warnings[i]));
    cJSON_AddStringToObject(o, "text", perc_obs_text(obs));
    char *s = eous_json_print(o);
    cJSON_Delete(o);
    return s;
}

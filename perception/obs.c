/* perception/obs.c — building an observation (providers' registries, the
 * mode's view, its version) and its JSON; the data and accessors are
 * obs_data.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tokenize.h"
#include "perception/perc_int.h"

/* The observation takes the view's text, ids and component ids; 1 when the
 * redactor changed the text (its lines are then read back from it). */
static int adopt_view(perc_obs *obs, perc_view *v)
{
    free(obs->text);
    free(obs->ids);
    perc_lines_free(obs->lines);
    obs->lines = NULL;
    eous_arena_free(obs->view_arena);
    /* every view goes through the redactor: a credential in a link's query (?key=) or a
     * registered secret shown as a field's value never reaches a planner */
    char *clean = v->text ? eous_redact(v->text) : NULL;
    int changed = clean && strcmp(clean, v->text) != 0;
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
    pv_lines_free(&v->lines);
    memset(v, 0, sizeof *v);
    return changed;
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
    rc = perc_mode_render(obs, html, html_len, &v, err);
    if (rc) {
        perc_view_free(&v);
        return rc;
    }
    /* the writer's lines, their spans in the text the planner gets; a view without them, or
     * one the redactor rewrote, is read back from that text */
    pv_lines list = v.lines;
    int has = v.has_lines;
    memset(&v.lines, 0, sizeof v.lines);
    int changed = adopt_view(obs, &v);
    if (has && !changed)
        rc = perc_lines_from_parts(obs->text, obs->text_len, &list, &obs->lines, err);
    else
        rc = perc_lines_read(obs->text, obs->text_len, &obs->lines, err);
    pv_lines_free(&list);
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
    double t0 = eous_now_ms();
    perc_obs *obs = perc_obs_begin(&o, &dflt, out, err);
    if (!obs)
        return EOUS_E_NOMEM;
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

/* perception/marks.c — what the page marks on its elements, from the DOM
 * snapshot: data-cid component roots and data-cid-owner portals,
 * data-agent-hidden/-secret/-confirm regions, secret fields (the one rule
 * every view applies), and the backend-id index that joins DOM marks to AX
 * nodes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perception/perc_int.h"

/* ---- the secret-field rule --------------------------------------------------------- */

int perc_is_secret_field(const char *tag, const char *type, const char *autocomplete)
{
    if (tag && type && !strcasecmp(tag, "input") && !strcasecmp(type, "password"))
        return 1;
    return autocomplete && (!strcmp(autocomplete, "one-time-code") || !strncmp(autocomplete, "cc-", 3) ||
                            !strcmp(autocomplete, "current-password") || !strcmp(autocomplete, "new-password"));
}

/* ---- backend index --------------------------------------------------------------- */

/* Knuth's multiplicative hash: backend ids are small consecutive integers. */
static size_t slot_of(const perc_bindex *x, int backend_id)
{
    size_t h = ((size_t)backend_id * 2654435761u) & (x->cap - 1);
    while (x->slots[h].backend_id && x->slots[h].backend_id != backend_id)
        h = (h + 1) & (x->cap - 1);
    return h;
}

int perc_bindex_init(perc_bindex *x, size_t n)
{
    x->cap = 16;
    while (x->cap < n * 2 + 2)
        x->cap <<= 1;
    x->slots = calloc(x->cap, sizeof *x->slots);
    if (!x->slots) {
        x->cap = 0;
        return -1;
    }
    return 0;
}

void perc_bindex_put(perc_bindex *x, int backend_id, int index)
{
    if (!x->cap || backend_id <= 0)
        return;
    size_t h = slot_of(x, backend_id);
    if (x->slots[h].backend_id)
        return;
    x->slots[h].backend_id = backend_id;
    x->slots[h].index = index;
}

int perc_bindex_get(const perc_bindex *x, int backend_id)
{
    if (!x->cap || backend_id <= 0)
        return -1;
    size_t h = slot_of(x, backend_id);
    return x->slots[h].backend_id ? x->slots[h].index : -1;
}

void perc_bindex_free(perc_bindex *x)
{
    free(x->slots);
    x->slots = NULL;
    x->cap = 0;
}

void perc_index_backend(perc_obs *obs)
{
    perc_bindex_free(&obs->nodes_by_backend);
    if (perc_bindex_init(&obs->nodes_by_backend, obs->n_nodes))
        return;
    for (size_t i = 0; i < obs->n_nodes; i++)
        perc_bindex_put(&obs->nodes_by_backend, obs->nodes[i].backend_id, (int)i);
}

const perc_node *perc_obs_node_by_backend(const perc_obs *obs, int backend_id)
{
    int i = perc_bindex_get(&obs->nodes_by_backend, backend_id);
    return i >= 0 ? &obs->nodes[i] : NULL;
}

/* The marks m inherits from its parent (already read: parents come first),
 * then its own: one rule for both sources of marks (DOMSnapshot, page_marks.js). */
static void inherit(const perc_obs *obs, perc_mark *m)
{
    if (m->parent >= 0) {
        const perc_mark *pm = &obs->marks[m->parent];
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
}

/* Visually hidden text (perception/vis_hidden.js): 1 the element's whole
 * subtree is hidden as data-agent-hidden is, 2 only its own text. */
static void set_vis_hidden(perc_mark *m, int vh)
{
    if (vh == 1)
        m->hidden = 1;
    else if (vh == 2)
        m->text_hidden = 1;
}

/* ---- DOM snapshot marks -------------------------------------------------------- */

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
            const char *type = NULL, *autocomplete = NULL;
            const cJSON *av = ai ? ai->child : NULL;
            while (av && av->next) {
                int ki = av->valueint, vi = av->next->valueint;
                const char *k = ki >= 0 && ki < ns ? str[ki] : NULL;
                const char *v = vi >= 0 && vi < ns ? str[vi] : NULL;
                if (k && k[0] == 'd' && !strncmp(k, "data-", 5)) {
                    if (!strcmp(k, "data-cid") && v && *v)
                        m->cid = eous_arena_strdup(a, v);
                    else if (!strcmp(k, "data-eous-nk") && v && *v && !m->cid)
                        m->cid = eous_arena_strdup(a, v); /* a native component's root (perception/native.js) */
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
                    else if (!strcmp(k, "data-eous-vh") && v)
                        set_vis_hidden(m, atoi(v));
                } else if (k && v && !strcmp(k, "type")) {
                    type = v;
                } else if (k && v && !strcmp(k, "autocomplete")) {
                    autocomplete = v;
                }
                av = av->next->next;
            }
            m->secret_field = perc_is_secret_field(tag, type, autocomplete);
            inherit(obs, m); /* parents come before children in a snapshot */
            /* a text node of an element whose own text is visually hidden */
            if (tag && !strcmp(tag, "#text") && m->parent >= 0 && obs->marks[m->parent].text_hidden)
                m->in_hidden = 1;
            pi = pi ? pi->next : NULL;
            bi = bi ? bi->next : NULL;
            ai = ai ? ai->next : NULL;
            ni = ni ? ni->next : NULL;
        }
        obs->n_marks = base + (size_t)n;
    }
    free(str);
    return EOUS_OK;
}

/* ---- marks from the page script (page_marks.js) ----------------------------------- */

/* A vh record's texts as one arena string, '\n' between (NULL: none). */
static const char *join_texts(eous_arena *a, const cJSON *texts)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    const cJSON *t;
    cJSON_ArrayForEach(t, texts) {
        if (!cJSON_IsString(t) || !*t->valuestring || strchr(t->valuestring, '\n'))
            continue;
        if ((b.len && eous_buf_putc(&b, '\n', NULL)) || eous_buf_puts(&b, t->valuestring, NULL))
            break;
    }
    const char *s = b.len ? eous_arena_strndup(a, b.data, b.len) : NULL;
    eous_buf_free(&b);
    return s;
}

/* The backend node id at the end of a chromedriver element id ("f.F.d.L.e.42"), or 0. */
static int backend_of_ref(const cJSON *ref)
{
    const char *id = wd_element_id_of(ref);
    const char *e = id ? strstr(id, ".e.") : NULL;
    if (!e)
        return 0;
    char *end = NULL;
    long v = strtol(e + 3, &end, 10);
    return end && !*end && v > 0 && v < 0x7fffffff ? (int)v : 0;
}

eous_rc perc_parse_script_marks(perc_obs *obs, const cJSON *marks, eous_err *err)
{
    const cJSON *recs = eous_json_arr(marks, "records");
    if (!recs)
        return eous_err_set(err, EOUS_E_PARSE, "page marks: expected {records: [...]}");
    int n = cJSON_GetArraySize(recs);
    perc_mark *grown = realloc(obs->marks, ((size_t)n + 1) * sizeof *grown);
    if (!grown)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    obs->marks = grown;
    obs->n_marks = 0;
    eous_arena *a = obs->arena;
    const cJSON *r;
    int i = 0;
    cJSON_ArrayForEach(r, recs) {
        perc_mark *m = &obs->marks[i];
        memset(m, 0, sizeof *m);
        if (!(m->backend_id = backend_of_ref(cJSON_GetObjectItemCaseSensitive(r, "el"))))
            return eous_err_set(err, EOUS_E_PARSE, "page marks: record %d names no element the driver knows", i);
        int p = eous_json_int(r, "p", -1);
        m->parent = p >= 0 && p < i ? p : -1;
        const char *cid = eous_json_str(r, "cid"), *owner = eous_json_str(r, "owner"),
                   *confirm = eous_json_str(r, "confirm");
        if (cid && *cid)
            m->cid = eous_arena_strdup(a, cid);
        if (owner && *owner)
            m->cid_owner = eous_arena_strdup(a, owner);
        if (confirm)
            m->confirm = eous_arena_strdup(a, confirm);
        m->hidden = eous_json_int(r, "hidden", 0) != 0;
        set_vis_hidden(m, eous_json_int(r, "vh", 0));
        if (m->hidden || m->text_hidden)
            m->vis_texts = join_texts(a, eous_json_arr(r, "t"));
        m->secret_region = eous_json_int(r, "secret", 0) != 0;
        m->secret_field = eous_json_int(r, "field", 0) != 0;
        inherit(obs, m); /* parents come first here too */
        obs->n_marks = (size_t)++i;
    }
    obs->marks_sparse = 1;
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

static void redact_secrets(perc_obs *obs);

/* One node from its mark (a component root claims its component), else from
 * its parent node p (NULL: none). */
static void mark_node(perc_obs *obs, perc_node *n, const perc_mark *m, const perc_node *p)
{
    if (m) {
        n->hidden = m->in_hidden;
        n->secret = m->in_secret;
        n->component = m->in_component ? find_component(obs, m->in_component) : -1;
        if (m->cid && n->component >= 0 && !obs->comps[n->component].backend_id) {
            obs->comps[n->component].backend_id = n->backend_id;
            obs->comps[n->component].confirm = m->in_confirm;
            n->component_root = 1;
        }
    } else if (p) {
        n->hidden = p->hidden;
        n->secret = p->secret;
        n->component = p->component;
    }
}

/* Marks only on the elements that carry one (perc_parse_script_marks): every
 * other node inherits from its parent in the tree, top down from each root
 * (document order, so the first node of a component root claims it, as a
 * DOM snapshot's every-node marks have it). */
static void apply_sparse(perc_obs *obs, const perc_bindex *marks_by_backend)
{
    int *stack = malloc((obs->n_nodes + 1) * sizeof *stack);
    if (!stack)
        return;
    for (size_t r = 0; r < obs->n_nodes; r++) {
        if (obs->nodes[r].parent >= 0)
            continue;
        size_t top = 0;
        stack[top++] = (int)r;
        while (top) {
            perc_node *n = &obs->nodes[stack[--top]];
            int mi = perc_bindex_get(marks_by_backend, n->backend_id);
            mark_node(obs, n, mi >= 0 ? &obs->marks[mi] : NULL, n->parent >= 0 ? &obs->nodes[n->parent] : NULL);
            for (size_t k = n->n_children; k-- > 0 && top < obs->n_nodes;)
                stack[top++] = n->children[k];
        }
    }
    free(stack);
}

/* name, its ASCII whitespace runs squashed and ends trimmed (as page_marks.js
 * squashes a text), equals line[0..len), regardless of ASCII case (a
 * text-transform shows in the name); a line of 200 bytes or more may be the
 * start of a longer text (the script cuts texts). */
static int squashed_match(const char *name, const char *line, size_t len)
{
    size_t i = 0;
    const char *p = name;
    while (*p && strchr(" \t\n\r\f", *p))
        p++;
    while (*p) {
        char ch = *p;
        if (strchr(" \t\n\r\f", ch)) {
            while (*p && strchr(" \t\n\r\f", *p))
                p++;
            if (!*p)
                break;
            ch = ' ';
        } else {
            p++;
        }
        if (i == len)
            return len >= 200;
        if (tolower((unsigned char)ch) != tolower((unsigned char)line[i]))
            return 0;
        i++;
    }
    return i == len;
}

static int names_a_hidden_text(const char *name, const char *texts)
{
    for (const char *t = texts; t && *t && name;) {
        const char *nl = strchr(t, '\n');
        size_t len = nl ? (size_t)(nl - t) : strlen(t);
        if (squashed_match(name, t, len))
            return 1;
        t = nl ? nl + 1 : NULL;
    }
    return 0;
}

static void hide_subtree(perc_obs *obs, perc_node *n, int depth)
{
    n->hidden = 1;
    for (size_t k = 0; k < n->n_children && depth < PERC_MAX_DEPTH; k++)
        hide_subtree(obs, &obs->nodes[n->children[k]], depth + 1);
}

/* Page marks: a visually hidden element's text hangs under the nearest
 * element the tree has a node for (an inline element has none; an element
 * hiding only its own text holds visible text too): there, its StaticText
 * children that carry one of the element's hidden texts are hidden. */
static void hide_vis_texts(perc_obs *obs)
{
    for (size_t i = 0; i < obs->n_marks; i++) {
        const perc_mark *m = &obs->marks[i];
        if (!m->vis_texts)
            continue;
        perc_node *at = NULL;
        for (int k = (int)i; k >= 0 && !at; k = obs->marks[k].parent)
            at = (perc_node *)perc_obs_node_by_backend(obs, obs->marks[k].backend_id);
        for (size_t c = 0; at && c < at->n_children; c++) {
            perc_node *ch = &obs->nodes[at->children[c]];
            if (ch->role && !strcmp(ch->role, "StaticText") && names_a_hidden_text(ch->name, m->vis_texts))
                hide_subtree(obs, ch, 0);
        }
    }
}

void perc_apply_marks(perc_obs *obs)
{
    perc_index_backend(obs);
    perc_bindex marks_by_backend;
    if (perc_bindex_init(&marks_by_backend, obs->n_marks))
        return;
    for (size_t i = 0; i < obs->n_marks; i++)
        perc_bindex_put(&marks_by_backend, obs->marks[i].backend_id, (int)i);
    if (obs->marks_sparse) {
        apply_sparse(obs, &marks_by_backend);
        hide_vis_texts(obs);
        goto roots;
    }
    for (size_t i = 0; i < obs->n_nodes; i++) {
        perc_node *n = &obs->nodes[i];
        int mi = perc_bindex_get(&marks_by_backend, n->backend_id);
        /* text nodes without their own DOM element inherit from the parent */
        mark_node(obs, n, mi >= 0 ? &obs->marks[mi] : NULL,
                  n->parent >= 0 && (size_t)n->parent < i ? &obs->nodes[n->parent] : NULL);
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
roots:
    perc_bindex_free(&marks_by_backend);
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
    redact_secrets(obs);
}

/* Secret values never leave perception. */
static void redact_secrets(perc_obs *obs)
{
    for (size_t i = 0; i < obs->n_nodes; i++) {
        perc_node *n = &obs->nodes[i];
        if (!n->secret)
            continue;
        if (n->value && *n->value)
            n->value = "[redacted]";
        if (n->role && !strcmp(n->role, "StaticText") && n->name && *n->name)
            n->name = "[redacted]";
        for (size_t p = 0; p < n->n_props; p++)
            if (!strcmp(n->props[p].name, "valuetext") || !strcmp(n->props[p].name, "value"))
                n->props[p].value = "[redacted]";
    }
}

/* perception/percint.h — perception internals shared by its files only. */
#ifndef EOUS_PERCINT_H
#define EOUS_PERCINT_H

#include "perception/perc.h"

typedef struct perc_idmap_entry {
    const char *id;   /* view id as printed, without brackets */
    int backend_id;
} perc_idmap_entry;

/* DOM marks for one backend node, from DOMSnapshot. */
typedef struct perc_mark {
    int backend_id;
    int parent;            /* index into marks, -1 */
    const char *cid;       /* data-cid on this element */
    const char *cid_owner; /* data-cid-owner on this element */
    const char *confirm;   /* data-agent-confirm */
    const char *eous_id;   /* data-eous-id (html mode ids) */
    unsigned hidden : 1, secret_region : 1, secret_field : 1;
    /* inherited (computed top-down) */
    const char *in_component; /* nearest data-cid / data-cid-owner key */
    unsigned in_hidden : 1, in_secret : 1;
    const char *in_confirm;
} perc_mark;

/* Views stop descending past this depth (hostile pages nest without end);
 * the observation says so in a warning. */
#define PERC_MAX_DEPTH 512
/* Without CDP the tree is built in the page; past this many DOM nodes the
 * rest is left out with a warning (the answer must fit one HTTP response). */
#define PERC_IN_PAGE_MAX_NODES 200000

struct perc_obs {
    perc_mode mode;
    eous_arena *arena;
    perc_node *nodes;
    size_t n_nodes;
    perc_component *comps;
    size_t n_comps;
    cJSON *owned_json;        /* registry trees the components point into */
    char *text;
    size_t text_len;
    const char *url;
    const char *title;
    char version[17];
    perc_timings timings;
    const char **warnings;
    size_t n_warnings, cap_warnings;
    perc_idmap_entry *ids;
    size_t n_ids, cap_ids;
    int *bmap;                /* open-addressing backend id → node index+1 */
    size_t bmap_cap;
    perc_mark *marks;
    size_t n_marks;
    int depth_capped;         /* a view hit PERC_MAX_DEPTH */
    int tab_count;            /* open tabs, for WebArena's tab header */
    const char **tab_titles;
    int tab_current;
};

perc_obs *perc_obs_alloc(perc_mode mode);
/* Copies the caller's open tabs (perc_opts) into the observation. */
eous_rc perc_obs_set_tabs(perc_obs *obs, const perc_opts *o, eous_err *err);
/* "Tab 0 (current): title", or every open tab separated by " | " (no newline). */
eous_rc perc_put_tab_header(eous_buf *b, const perc_obs *obs, eous_err *err);
void perc_obs_warn(perc_obs *obs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
eous_rc perc_obs_add_id(perc_obs *obs, const char *id, int backend_id);

/* Parsing (ax.c). */
eous_rc perc_parse_ax(perc_obs *obs, const cJSON *ax_result, int frame, eous_err *err);
/* The same from JSON text, without building a cJSON tree (axscan.c): accepts
 * {"nodes": [...]} or a WebDriver body {"value": {"nodes": [...]}}. */
eous_rc perc_parse_ax_text(perc_obs *obs, const char *json, size_t len, int frame, eous_err *err);
eous_rc perc_parse_dom_snapshot(perc_obs *obs, const cJSON *snapshot, eous_err *err);
/* Components from a CI4A getStatus() answer ({K: entry}); takes ownership of registry. */
eous_rc perc_parse_ci4a(perc_obs *obs, cJSON *registry, eous_err *err);
eous_rc perc_parse_webmcp(perc_obs *obs, cJSON *tools, eous_err *err);
eous_rc perc_parse_bridge(perc_obs *obs, cJSON *snapshot, eous_err *err);
/* Applies DOM marks to AX nodes (hidden, secret, component) and finds component roots. */
void perc_apply_marks(perc_obs *obs);
void perc_index_backend(perc_obs *obs);

/* Views. */
eous_rc perc_render_atomic(perc_obs *obs, eous_err *err);
eous_rc perc_render_pruned(perc_obs *obs, int hybrid, eous_err *err);
eous_rc perc_render_html(perc_obs *obs, const char *html, size_t len, eous_err *err);
/* Python repr() of a string (WebArena prints names with it). */
eous_rc perc_py_repr(eous_buf *b, const char *s, eous_err *err);
void perc_finish(perc_obs *obs);

#endif

/* perception/perc_int.h — perception internals shared by its files only. */
#ifndef EOUS_PERCINT_H
#define EOUS_PERCINT_H

#include "perception/perc.h"
#include "perception/view_lines_int.h"

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
    unsigned text_hidden : 1; /* data-eous-vh=2: its own text is visually hidden (not inherited) */
    const char *vis_texts;    /* page marks: the texts it hides, whitespace squashed, '\n' between (or NULL) */
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

/* ---- backend DOM node id → index (marks.c): the one table for nodes and marks -- */

typedef struct perc_bindex {
    struct perc_bslot { int backend_id, index; } *slots; /* backend_id 0 = empty */
    size_t cap;
} perc_bindex;

/* Sized for n entries; -1 out of memory (the index then finds nothing). */
int perc_bindex_init(perc_bindex *x, size_t n);
/* Keeps the first index given for a backend id. */
void perc_bindex_put(perc_bindex *x, int backend_id, int index);
int perc_bindex_get(const perc_bindex *x, int backend_id); /* -1 when absent */
void perc_bindex_free(perc_bindex *x);

struct perc_obs {
    perc_mode mode;
    eous_arena *arena;
    perc_node *nodes;
    size_t n_nodes;
    perc_component *comps;
    size_t n_comps;
    cJSON *owned_json;        /* registry trees the components point into */
    const cJSON *page_labels; /* {K: label} from data-cid roots' aria-labelledby/-label (in owned_json) */
    const cJSON *page_tabs;   /* {K: tab name} for components in a hidden tab panel (providers.js cidTabs, in owned_json) */
    char *text;
    size_t text_len;
    perc_lines *lines;        /* text read back into lines (view_lines.c), NULL when none */
    const char *url;
    const struct perc_obs *id_base; /* perc_opts.id_base while the view is built, else NULL */
    const char *title;
    const char *elem_prefix;  /* perc_obs_element_prefix, or NULL */
    char version[17];
    perc_timings timings;
    const char **warnings;
    size_t n_warnings, cap_warnings;
    perc_idmap_entry *ids;
    size_t n_ids, cap_ids;
    perc_bindex nodes_by_backend;
    eous_arena *view_arena;   /* the adopted view's ids */
    perc_mark *marks;
    size_t n_marks;
    int marks_sparse;         /* marks only on marked elements (page_marks.js): the rest inherit in the tree */
    int tab_count;            /* open tabs, for WebArena's tab header */
    const char **tab_titles;
    int tab_current;
};

perc_obs *perc_obs_alloc(perc_mode mode);
/* How perc_observe and perc_build start: *o, when NULL, becomes the defaults
 * (kept in *dflt), *out is cleared, and a new observation in o's mode is
 * returned; NULL out of memory (err says so). */
perc_obs *perc_obs_begin(const perc_opts **o, perc_opts *dflt, perc_obs **out, eous_err *err);
/* Copies the caller's open tabs (perc_opts) into the observation. */
eous_rc perc_obs_set_tabs(perc_obs *obs, const perc_opts *o, eous_err *err);
/* "Tab 0 (current): title", or every open tab separated by " | " (no newline). */
eous_rc perc_put_tab_header(eous_buf *b, const perc_obs *obs, eous_err *err);
void perc_obs_warn(perc_obs *obs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- string → index map (strmap.c): AX node ids, registry keys ------------------ */

/* Open addressing; keys are borrowed and must outlive the map. */
typedef struct perc_strmap {
    const char **keys;
    int *vals;
    size_t cap;
} perc_strmap;

int perc_strmap_init(perc_strmap *m, size_t n);
/* Returns the existing value, or inserts v and returns -1. */
int perc_strmap_put(perc_strmap *m, const char *k, int v);
/* The value of k, or -1. */
int perc_strmap_get(const perc_strmap *m, const char *k);
void perc_strmap_free(perc_strmap *m);

/* ---- parsing ---------------------------------------------------------------------- */

/* The CDP accessibility tree from cJSON (ax.c). */
eous_rc perc_parse_ax(perc_obs *obs, const cJSON *ax_result, int frame, eous_err *err);
/* The same from JSON text, without building a cJSON tree (axscan.c): accepts
 * {"nodes": [...]} or a WebDriver body {"value": {"nodes": [...]}}. */
eous_rc perc_parse_ax_text(perc_obs *obs, const char *json, size_t len, int frame, eous_err *err);

/* DOM snapshot marks (marks.c). */
eous_rc perc_parse_dom_snapshot(perc_obs *obs, const cJSON *snapshot, eous_err *err);
/* The same marks from the page script's records (perception/page_marks.js,
 * marks.c): only marked elements (and those aria-owns or a slot moves) have
 * one; perc_apply_marks then inherits the rest down the accessibility tree. */
eous_rc perc_parse_script_marks(perc_obs *obs, const cJSON *marks, eous_err *err);
/* The one secret-field rule every view applies: an <input type=password>, or
 * an autocomplete of one-time-code, cc-*, current-password, new-password.
 * tag and type compare without case; any argument may be NULL. */
int perc_is_secret_field(const char *tag, const char *type, const char *autocomplete);
/* Applies DOM marks to AX nodes (hidden, secret, component), finds component
 * roots and redacts secret values. */
void perc_apply_marks(perc_obs *obs);
/* (Re)builds the backend id → node index after nodes were added. */
void perc_index_backend(perc_obs *obs);

/* Semantic providers (registry.c).  Each takes ownership of its JSON. */
/* Components from a CI4A getStatus() answer ({K: entry}). */
eous_rc perc_parse_ci4a(perc_obs *obs, cJSON *registry, eous_err *err);
eous_rc perc_parse_webmcp(perc_obs *obs, cJSON *tools, eous_err *err);
eous_rc perc_parse_bridge(perc_obs *obs, cJSON *snapshot, eous_err *err);
/* Components the native provider inferred ({comps: [...]}, perception/native.c). */
eous_rc perc_parse_native(perc_obs *obs, cJSON *answer, eous_err *err);
/* registry.c: one more (zeroed) component; NULL when out of memory. */
perc_component *perc_add_component(perc_obs *obs);
/* registry.c: the observation keeps item (freed with it). */
void perc_own_json(perc_obs *obs, cJSON *item);
/* Keeps a copy of the live page's {K: label} answer for perc_label_components. */
void perc_set_page_labels(perc_obs *obs, const cJSON *labels);
/* Keeps a copy of the live page's {K: tab name} answer (the hybrid view's "in tab 'Members'"). */
void perc_set_page_tabs(perc_obs *obs, const cJSON *tabs);
/* Labels from the AX tree (root's name, first named control inside) for
 * components still without one, then portals from their owner (registry.c). */
void perc_label_components(perc_obs *obs);

/* ---- views ------------------------------------------------------------------------ */

/* What a view returns: its text, the ids it printed and the component view
 * ids ("c3").  The observation adopts it (perc_obs_adopt_view). */
typedef struct perc_view {
    eous_arena *arena;          /* id strings and references made while rendering */
    char *text;
    size_t text_len;
    perc_idmap_entry *ids;
    size_t n_ids, cap_ids;
    const char **comp_ids;      /* per component: "c3", or NULL when not shown */
    int depth_capped;           /* the view hit PERC_MAX_DEPTH */
    pv_lines lines;             /* the lines text was rendered from (view_lines_int.h); has_lines 0: */
    int has_lines;              /* a view without them (html), read back from its text */
} perc_view;

eous_rc perc_view_init(perc_view *v, const perc_obs *obs, eous_err *err);
/* The view's text rendered from lines ls (view_render.c), which the view takes (ls is
 * left empty); marks_ok 0 (marking ran out of memory): the lines are dropped, the text
 * is read back instead. */
eous_rc perc_view_take_lines(perc_view *v, pv_lines *ls, int marks_ok, eous_err *err);
/* A writer's buffer b and marks as lines, then the view's text from them. */
eous_rc perc_view_from_marks(perc_view *v, const eous_buf *b, const pv_marks *ms, eous_err *err);
eous_rc perc_view_add_id(perc_view *v, const char *id, int backend_id);
void perc_view_free(perc_view *v);

/* The mode table's renderer for obs's mode (perception/mode.c); html is the
 * html mode's text as the page wrote it (html_view.js), read only by that mode. */
eous_rc perc_mode_render(const perc_obs *obs, const char *html, size_t html_len, perc_view *out, eous_err *err);
eous_rc perc_render_atomic(const perc_obs *obs, perc_view *out, eous_err *err);
eous_rc perc_render_pruned(const perc_obs *obs, perc_view *out, eous_err *err);
/* The pruned traversal with a line per component (hybrid and vision). */
eous_rc perc_render_hybrid(const perc_obs *obs, perc_view *out, eous_err *err);
/* The tab header, then text (html_view.js's, borrowed), ids from the data-eous-id marks. */
eous_rc perc_render_html(const perc_obs *obs, const char *text, size_t len, perc_view *out, eous_err *err);
/* Python repr() of a string (WebArena prints names with it). */
eous_rc perc_py_repr(eous_buf *b, const char *s, eous_err *err);

/* Renders the observation's mode, adopts the view, stamps the version (obs.c). */
eous_rc perc_build_internal(perc_obs *obs, const char *html, size_t html_len, eous_err *err);
void perc_finish(perc_obs *obs);

#endif

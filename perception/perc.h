/* perception/perc.h — what the planner sees: the accessibility tree, the
 * page's semantic components (CI4A, WebMCP, ui-sdk bridge) and the views
 * built from them (atomic, pruned, hybrid, html).
 *
 * Ownership: perc_observe / perc_build make a perc_obs that owns everything it
 * holds (nodes, components, strings, cJSON state/metadata, view text); free it
 * with perc_obs_free.  Every pointer returned by a perc_obs_* accessor is
 * borrowed and lives as long as the observation. */
#ifndef EOUS_PERC_H
#define EOUS_PERC_H

#include <stddef.h>

#include "core/core.h"
#include "webdriver/wd.h"

typedef enum perc_mode {
    PERC_MODE_ATOMIC = 0, /* WebArena's accessibility-tree text */
    PERC_MODE_PRUNED,     /* AgentOccam-style pruned tree */
    PERC_MODE_HYBRID,     /* pruned tree with one triplet node per component */
    PERC_MODE_HTML,       /* pruned HTML from the page source */
    PERC_MODE_VISION      /* the hybrid text, plus a screenshot with set-of-marks (perception/shot.h) */
} perc_mode;

#define PERC_MODE_COUNT 5

/* The modes are one table (perception/mode.c): name, renderer, what each shows.
 * "atomic" | "pruned" | "hybrid" | "html" | "vision"; returns -1 for anything else. */
int perc_mode_parse(const char *s, perc_mode *out);
const char *perc_mode_name(perc_mode m);
/* 1 for the modes that show components as triplets and call their tools
 * (hybrid, vision): the script planner runs a task's "script" in them, the
 * model gets call(); 0 for the baselines (atomic, pruned) and html. */
int perc_mode_semantic(perc_mode m);
/* 1 for the modes whose observation carries a marked screenshot (vision). */
int perc_mode_screenshot(perc_mode m);

typedef struct perc_prop {
    const char *name;
    const char *value; /* rendered as text */
} perc_prop;

/* One accessibility node (CDP AXNode, compacted). */
typedef struct perc_node {
    const char *ax_id;      /* CDP AXNodeId; WebArena's [id] */
    const char *role;
    const char *name;
    const char *value;      /* NULL when absent; "[redacted]" for secret fields */
    perc_prop *props;
    size_t n_props;
    int *children;          /* indices into the node array */
    size_t n_children;
    int parent;             /* index or -1 */
    int backend_id;         /* backendDOMNodeId, 0 when none */
    int ignored;
    int frame;              /* 0 main frame, >0 child frames in discovery order */
    unsigned hidden : 1;    /* inside data-agent-hidden, or text a person cannot see (vis_hidden.js) */
    unsigned secret : 1;    /* password / card / one-time-code / data-agent-secret */
    int component;          /* index of the component whose data-cid subtree or portal holds it, -1 */
    int component_root;     /* 1 when this node is that component's data-cid root */
} perc_node;

/* One semantic component (from any provider). */
typedef struct perc_component {
    const char *key;        /* CI4A key K, WebMCP tool name, or bridge ref */
    const char *kind;       /* "datepicker", "select", ..., "webmcp", "bridge" */
    const char *label;
    const char *provider;   /* "ci4a" | "webmcp" | "bridge" | "native": its name, for output */
    unsigned provider_bit;  /* the same as one PERC_PROVIDER_* bit: what code compares */
    const cJSON *state;     /* S (object), never NULL */
    const cJSON *tools;     /* T: array of tool names, never NULL */
    const cJSON *metadata;  /* M: {tool: {description, params, constraints}}, never NULL */
    int disabled;
    int visible;
    char view_id[16];       /* "c3" in the hybrid view; "" when not shown */
    int backend_id;         /* data-cid root element, 0 when none (page-level) */
    const char *confirm;    /* data-agent-confirm sentence on its root, or NULL */
    int agent_hidden;       /* its root is inside data-agent-hidden: never shown, never acted on */
} perc_component;

typedef struct perc_timings {
    double total_ms;        /* whole perc_observe */
    double browser_ms;      /* time waiting on WebDriver/CDP round trips */
    double c_ms;            /* parsing and building in C */
    unsigned round_trips;
} perc_timings;

typedef struct perc_opts {
    perc_mode mode;
    double provider_timeout_ms;   /* bound on each page provider call, default 2000 */
    size_t max_provider_bytes;    /* larger registry answers are dropped with a warning, default 8 MiB */
    int providers;                /* read semantic providers even in non-hybrid modes (default 1) */
    /* which providers run (PERC_PROVIDER_* bits); 0 = all.  native runs in hybrid and vision
     * modes only: the atomic and pruned baselines never show inferred components. */
    unsigned provider_set;
    /* the browser's open tabs for the views' tab header (WebArena's "Tab 0 (current): ... | Tab 1: ...");
     * tab_count 0 (default): only this page.  Borrowed for the length of perc_observe. */
    int tab_count;
    const char *const *tab_titles;
    int tab_current;
    /* the previous view of the same page (borrowed for the length of perc_observe; NULL = none): a
     * component it showed keeps its view id (c3 stays c3 when c2 goes away), new ones are numbered
     * after its largest, so deltas (perception/delta.h) and batches keep stable ids.  Only used
     * when both views have the same URL. */
    const struct perc_obs *id_base;
    /* page marks from a DOMSnapshot even where the providers' script can read them (a round trip more;
     * for comparing the two ways) */
    int snapshot_marks;
    /* the answer of the providers' script (perc_providers_request) read moments ago in another script's
     * round trip (an action's settle), borrowed: perc_observe reads the page from it instead of asking
     * again.  NULL (default): it runs the script itself.  Ignored without CDP. */
    const cJSON *answer;
    /* reads a frame's accessibility tree (frame_id NULL: the main frame's) another way than the driver's
     * goog/cdp/execute (eous mcp: its own DevTools connection, no driver hop): *body (caller frees) is
     * Accessibility.getFullAXTree's answer as JSON text ({"nodes": [...]}, or a message holding it as
     * "result"), *len its length.  NULL (default), or a failure: through the driver. */
    eous_rc (*ax_read)(void *ctx, const char *frame_id, char **body, size_t *len, eous_err *err);
    void *ax_ctx;
} perc_opts;

typedef struct perc_obs perc_obs;

/* The semantic providers, for perc_opts.provider_set. */
#define PERC_PROVIDER_CI4A 1u
#define PERC_PROVIDER_WEBMCP 2u
#define PERC_PROVIDER_BRIDGE 4u
#define PERC_PROVIDER_NATIVE 8u /* inferred from HTML and WAI-ARIA patterns (perception/native.c) */
#define PERC_PROVIDER_ALL 15u
/* "ci4a,webmcp,bridge,native" (any non-empty subset, any order) → bits; -1 for anything else. */
int perc_providers_parse(const char *list, unsigned *out);
/* One provider's name ("ci4a" for PERC_PROVIDER_CI4A); "" for anything but one bit. */
const char *perc_provider_name(unsigned bit);

void perc_opts_init(perc_opts *o);

/* Perceives the current page of session s. */
eous_rc perc_observe(wd_session *s, const perc_opts *o, perc_obs **out, eous_err *err);
/* The providers' script perc_observe runs first on a CDP session with options o, and its arguments
 * (*args: caller frees), for a caller that runs it in a round trip of its own and hands perc_observe
 * its answer (perc_opts.answer).  script is static. */
eous_rc perc_providers_request(const perc_opts *o, const char **script, cJSON **args, eous_err *err);

/* Builds an observation from recorded data without a browser (golden tests,
 * benchmarks, fuzzing): ax_json is a getFullAXTree result ({"nodes": [...]}),
 * dom_json a DOMSnapshot.captureSnapshot result or NULL, registry_json a
 * getStatus() result ({K: entry}) or NULL.  url may be NULL. */
eous_rc perc_build(const char *ax_json, size_t ax_len, const char *dom_json, size_t dom_len,
                   const char *registry_json, size_t registry_len, const char *url,
                   const perc_opts *o, perc_obs **out, eous_err *err);

void perc_obs_free(perc_obs *obs);

perc_mode perc_obs_mode(const perc_obs *obs);
/* The view text for the observation's mode (what the planner reads). */
const char *perc_obs_text(const perc_obs *obs);
size_t perc_obs_text_len(const perc_obs *obs);
/* The observation as JSON (nodes, components, sizes, timings, version); caller frees. */
char *perc_obs_json(const perc_obs *obs);
const char *perc_obs_url(const perc_obs *obs);
/* Open tabs when the observation was taken (1 unless perc_opts said more). */
int perc_obs_tab_count(const perc_obs *obs);
const char *perc_obs_title(const perc_obs *obs);
/* 16 hex chars that change when the page (URL, view, component states) changes. */
const char *perc_obs_version(const perc_obs *obs);
const perc_timings *perc_obs_timings(const perc_obs *obs);
/* Provider warnings ("ci4a: getStatus timed out after 2000 ms") for the trace. */
size_t perc_obs_n_warnings(const perc_obs *obs);
const char *perc_obs_warning(const perc_obs *obs, size_t i);

size_t perc_obs_n_nodes(const perc_obs *obs);
const perc_node *perc_obs_node(const perc_obs *obs, size_t i);
size_t perc_obs_n_components(const perc_obs *obs);
const perc_component *perc_obs_component(const perc_obs *obs, size_t i);

/* A component by hybrid view id ("c3") or by key; NULL when absent. */
const perc_component *perc_obs_find_component(const perc_obs *obs, const char *k);
/* A view id ("12", "[12]" or an html-mode id) → backend DOM node id.
 * EOUS_E_NOT_FOUND when the id is not in the current view. */
eous_rc perc_obs_resolve_id(const perc_obs *obs, const char *view_id, int *backend_id, eous_err *err);
/* The view id the current view gave the node with this backend id, or NULL. */
const char *perc_obs_view_id_of(const perc_obs *obs, int backend_id);
/* The nth (1-based) non-ignored, non-hidden node with this role and exact
 * name, in document order → backend id.  EOUS_E_NOT_FOUND otherwise. */
eous_rc perc_obs_find_role_name(const perc_obs *obs, const char *role, const char *name, int nth,
                                int *backend_id, eous_err *err);
/* The node holding this backend id, or NULL. */
const perc_node *perc_obs_node_by_backend(const perc_obs *obs, int backend_id);
/* What the driver's W3C element ids of the perceived main document start
 * with ("f.FRAME.d.LOADER.e.": chromedriver ends them with the backend node
 * id), so an action names a node's element without asking for it; NULL when
 * unknown (no CDP, another driver, an offline build). */
const char *perc_obs_element_prefix(const perc_obs *obs);

/* ---- the view as lines ----------------------------------------------------------
 * The view's lines and their parts as perception writes them (perc_obs_lines), or a
 * view's text read back into them (perc_lines_read: a recorded trace), so no other
 * module parses view text (grounding, the MCP server, repairs read these).
 * The parts are byte spans of the view's text: s points into it (NULL when the
 * line has no such part), off is s's offset, len its length. */
typedef enum perc_line_kind {
    PERC_LINE_TEXT = 0,  /* text, a pager "1 2 3 4 5", a bare "table" */
    PERC_LINE_HEADER,    /* "Tab 0 (current): …", "not on screen:", "page tools:" */
    PERC_LINE_ELEMENT,   /* "[12] role 'name' …" (atomic), "role [12] 'name' …", "heading 'x'" (pruned, hybrid) */
    PERC_LINE_COMPONENT, /* "[c3] kind 'label' key: value … → tool(params) tool()" (hybrid) */
    PERC_LINE_PAGE_TOOL, /* "[c7] tool(params) read-only — description" under "page tools:" */
    PERC_LINE_ROW        /* "| a | b |": a table's header or one of its rows */
} perc_line_kind;

typedef struct perc_span {
    const char *s;
    size_t off, len;
} perc_span;

/* One element a line names: the line's own, or one a table cell shows inline. */
typedef struct perc_line_item {
    perc_span id;   /* "12" (no brackets), s NULL when none */
    perc_span role;
    perc_span name; /* between the quotes; s NULL when no name is printed */
} perc_line_item;

/* A tool's param as the tools line prints it: "name?: type, limits". */
typedef struct perc_line_param {
    perc_span name;
    int optional;    /* printed with the optional mark */
    perc_span type;  /* "true|false", "integer", "[a|b]"; s NULL: a plain string */
    perc_span limits; /* ", 1..8, step 2" after the type, s NULL when none */
    int boolean;     /* the type takes a boolean: "boolean", "true|false" (any case) */
    int cut;         /* its list of values is not whole ("a|b|… +40 more") */
} perc_line_param;

typedef struct perc_line_tool {
    perc_span name;
    perc_span args;   /* between the parentheses, "…" for a component not on screen */
    const perc_line_param *params;
    size_t n_params;
} perc_line_tool;

typedef struct perc_line_state {
    perc_span key, value; /* value without its quotes when quoted */
    int cut;              /* a list value that is not whole ("a | b … +3 more") */
} perc_line_state;

typedef struct perc_line {
    perc_line_kind kind;
    int depth;             /* leading tabs */
    perc_span whole;       /* the line after its tabs, without its newline */
    perc_span id;          /* the line's view id ("c5", "12"), s NULL when none */
    int id_first;          /* the id opens the line ("[12] role", "[c5] kind") */
    perc_span role;        /* an element's role, a component's kind */
    perc_span name;        /* an element's name, a component's label; s NULL when none is printed */
    const perc_line_state *state; /* a component's state, an element's properties ("expanded: true") */
    size_t n_state;
    const perc_line_tool *tools; /* a component's or page tool's tools, in order */
    size_t n_tools;
    perc_span desc;        /* a page tool's description */
    const perc_span *cells; /* a row's cells, trimmed */
    size_t n_cells;
    const perc_line_item *items; /* the elements the line names (its own, or a row's inline ones) */
    size_t n_items;
    char mark;             /* in a delta (perc_lines_delta): '+' added, '-' removed, ' ' context, 0 none; read after it */
    const perc_span *fields; /* a component standing for several text fields (a range picker's two): their
                              * names, as the atomic view names them ("fields 'From date', 'To date'") */
    size_t n_fields;
    perc_span tab;         /* a component not on screen: the tab whose hidden panel holds it ("in tab
                            * 'Members'"), s NULL when none or not known (a page read without script) */
} perc_line;

typedef struct perc_lines perc_lines;

/* Reads view text into lines.  text is borrowed and must outlive the lines;
 * free them with perc_lines_free.  Only EOUS_E_NOMEM fails: any text reads. */
eous_rc perc_lines_read(const char *text, size_t len, perc_lines **out, eous_err *err);
void perc_lines_free(perc_lines *l);
size_t perc_lines_count(const perc_lines *l);
const perc_line *perc_lines_at(const perc_lines *l, size_t i);
/* 1 when the lines are a delta ("(changes since the last observation)", perception/delta.h):
 * its "+ ", "- " and context lines are read after their mark (perc_line.mark), and a removed
 * component's "- [c5]" gets its id. */
int perc_lines_delta(const perc_lines *l);
/* A param's least value and step from its limits (", 1..365, step 5": 1 and 5; *step stays when none
 * is printed): 0, or -1 when its limits open with no range. */
int perc_param_range(const perc_line_param *pm, double *min, double *step);
/* A list state value's items ("email | sms", as view_hybrid.c prints a list) into out, at most max:
 * their count; an empty value holds none. */
size_t perc_span_items(perc_span value, perc_span *out, size_t max);
/* 1 when span sp holds exactly s (n bytes). */
int perc_span_is(perc_span sp, const char *s, size_t n);
/* 1 when role (n bytes) is a list's item in the atomic view: option, menuitem, menuitemcheckbox,
 * menuitemradio, treeitem. */
int perc_role_is_item(const char *role, size_t n);
/* The text the lines were read from with the view ids ("[12]", "[c5]", and the
 * space after one that opens a line) taken out: what the page shows, for value
 * look-ups that must not find "7" in an id "[7]".  Caller frees; NULL out of memory. */
char *perc_lines_without_ids(const perc_lines *l);

/* The observation's view as lines, as its writer built them (read back from the
 * text when the redactor changed it, or in html mode); every span is a span of
 * perc_obs_text.  Borrowed, lives as the observation; NULL with *n 0 when the
 * view has no text. */
const perc_line *perc_obs_lines(const perc_obs *obs, size_t *n);

#endif

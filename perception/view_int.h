/* perception/view_int.h — what the pruned view (view_pruned.c) and the
 * hybrid view built on it (view_hybrid.c) share: the writer state and its
 * small output helpers, which mark each line's parts as they write them
 * (view_write.c, view_lines_int.h).  Internal to those files. */
#ifndef EOUS_VIEW_INT_H
#define EOUS_VIEW_INT_H

#include "perception/perc_int.h"

typedef struct pctx pctx;

/* Where the hybrid view hooks into the pruned traversal (view_hybrid.c's
 * HYBRID_HOOKS); NULL for the pruned view, which so never names the hybrid. */
typedef struct pv_hooks {
    /* A node inside component n->component: prints the component's triplet
     * the first time; 1 when the node is fully handled, 0 when the pruned
     * view should print it (container content). */
    int (*node)(pctx *c, int idx, int depth);
    /* Text equal to some component's label (already printed on its triplet). */
    int (*is_label)(const pctx *c, const char *text);
    /* "not on screen:" and "page tools:" after the tree. */
    void (*page_tools)(pctx *c);
    /* A control inside a table cell's control (antd's column filter button
     * in its columnheader) gets its own id after it: the hybrid view keeps
     * what a model must target, where pruned keeps AgentOccam's one id. */
    int nested_cell_controls;
    /* Leaves out what says nothing new: a bullet (ListMarker '■ '; a
     * numbered one stays), an image whose name its link already says, a
     * heading that repeats its section's name, a link to the same URL
     * under the same name right below another (a badge beside its text
     * link), and a link to a #fragment of this page named as a heading the
     * view prints (a table of contents).  Pruned keeps them, as
     * AgentOccam's rules do. */
    int no_decoration;
} pv_hooks;

/* The pruned/hybrid view being written. */
struct pctx {
    const perc_obs *obs;
    perc_view *view;
    eous_buf *b;               /* where text goes now: the view's buffer, or a scratch one */
    eous_buf *view_b;          /* the view's buffer: the marks of its lines' parts are made in it alone */
    pv_marks marks;            /* each line's kind and parts as written (view_lines_int.h), owned */
    eous_err *err;
    eous_rc rc;
    const pv_hooks *hooks;     /* NULL: the pruned view */
    unsigned char *seen;       /* node visited */
    unsigned char *emitted;    /* component triplet emitted */
    int next_cid;
    int in_table;
    int level;                 /* recursion level, bounded by PERC_MAX_DEPTH */
    int next_id;               /* last document-order id handed out */
    const perc_node *last_link; /* the last link printed, and the view's length after it: no_decoration */
    size_t last_link_end;       /* leaves out the same link again right below it */
    perc_strmap headings;       /* no_decoration: the names of the headings the view prints, made */
    int have_headings;          /* on the first link to a #fragment of this page */
    /* enum lists already printed on the current tools line, so a second tool
     * taking the same values says "as in TOOL" instead of repeating them */
    const cJSON *line_enums[8];
    const char *line_enum_tools[8];
    int n_line_enums;
    const char *cur_tool;
    /* lists (enums, disabled values) printed anywhere in the view so far, so
     * another component's identical list says "as in c6.setValue" */
    const cJSON *view_lists[64];
    const char *view_list_refs[64];
    int n_view_lists;
    const char *cur_comp;      /* view id of the component whose tools are printed */
    /* enums whose options (from the state) carry labels that say more */
    const cJSON *labelled_enums[16];
    const cJSON *labelled_options[16];
    int n_labelled;
    /* end of the last bare text line and its depth, so the next text at the
     * same depth joins it ("300" " users, " "253" → one line) */
    size_t text_line_end;
    int text_line_depth;
    size_t text_line_len;
};

int pv_in_list(const char *s, const char **list, size_t n);
#define IN(s, L) pv_in_list((s), (L), sizeof(L) / sizeof *(L))
/* Empty or only spaces (NBSP too). */
int pv_is_blank(const char *s);

void pv_put(pctx *c, const char *s);
void pv_indent(pctx *c, int depth);
/* Text on one line, cut after max code points ("…"); in_cell: '|' → '/'. */
void pv_put_flat(pctx *c, const char *s, size_t max, int in_cell);
void pv_put_quoted(pctx *c, const char *s, size_t max);
/* A JSON value, cut after max bytes. */
void pv_put_json_short(pctx *c, const cJSON *v, size_t max);

/* The line writer (view_write.c). */

/* A line of this kind starts here (after its tabs); id_first: its id opens it. */
void pv_start_line(pctx *c, perc_line_kind kind, int id_first);
/* Where a part starts (the view's length), and its end: marks what was written since as part. */
size_t pv_begin(const pctx *c);
void pv_end(pctx *c, pv_part part, size_t begin);
/* s as one part. */
void pv_put_part(pctx *c, pv_part part, const char *s);
/* Quoted, the part inside the quotes (pv_put_quoted). */
void pv_put_quoted_part(pctx *c, pv_part part, const char *s, size_t max);

/* The pruned traversal (view_pruned.c): the whole view with hooks (NULL for
 * the pruned view), and one node or a node's children. */
eous_rc pv_render_view(const perc_obs *obs, const pv_hooks *hooks, perc_view *view, eous_err *err);
void pv_render(pctx *c, int idx, int depth, const char *parent_name);
void pv_render_children(pctx *c, const perc_node *n, int depth, const char *name);

#endif

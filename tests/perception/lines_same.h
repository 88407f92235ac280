/* tests/perception/lines_same.h — the view's lines as its writer built them
 * (perc_obs_lines) against the same text read back (perc_lines_read): the two
 * must agree part for part, so the reader of recorded views reads what the
 * writers meant.  Header-only, for the perception tests. */
#ifndef EOUS_TESTS_LINES_SAME_H
#define EOUS_TESTS_LINES_SAME_H

#include <stdio.h>
#include <string.h>

#include "perception/perc.h"

static inline int ls_span_same(perc_span a, perc_span b)
{
    if (!a.s || !b.s)
        return !a.s && !b.s;
    return a.off == b.off && a.len == b.len;
}

#define LS_DIFF(what)                                                                                         \
    do {                                                                                                      \
        snprintf(why, why_len, "line %zu (%.*s): %s differs", i, (int)(w->whole.len > 160 ? 160 : w->whole.len), \
                 w->whole.s ? w->whole.s : "", what);                                                         \
        return 0;                                                                                             \
    } while (0)

/* 1 when line w (written) and r (read) agree; else 0 and why says where. */
static inline int ls_line_same(size_t i, const perc_line *w, const perc_line *r, char *why, size_t why_len)
{
    if (w->kind != r->kind)
        LS_DIFF("kind");
    if (w->depth != r->depth || !ls_span_same(w->whole, r->whole) || w->mark != r->mark)
        LS_DIFF("depth or extent");
    if (!ls_span_same(w->id, r->id) || w->id_first != r->id_first)
        LS_DIFF("id");
    if (!ls_span_same(w->role, r->role))
        LS_DIFF("role");
    if (!ls_span_same(w->name, r->name))
        LS_DIFF("name");
    if (!ls_span_same(w->tab, r->tab))
        LS_DIFF("tab");
    if (!ls_span_same(w->desc, r->desc))
        LS_DIFF("description");
    if (w->n_state != r->n_state)
        LS_DIFF("state count");
    for (size_t k = 0; k < w->n_state; k++)
        if (!ls_span_same(w->state[k].key, r->state[k].key) || !ls_span_same(w->state[k].value, r->state[k].value) ||
            w->state[k].cut != r->state[k].cut)
            LS_DIFF("state");
    if (w->n_fields != r->n_fields)
        LS_DIFF("fields count");
    for (size_t k = 0; k < w->n_fields; k++)
        if (!ls_span_same(w->fields[k], r->fields[k]))
            LS_DIFF("fields");
    if (w->n_tools != r->n_tools)
        LS_DIFF("tool count");
    for (size_t k = 0; k < w->n_tools; k++) {
        const perc_line_tool *a = &w->tools[k], *b = &r->tools[k];
        if (!ls_span_same(a->name, b->name) || !ls_span_same(a->args, b->args) || a->n_params != b->n_params)
            LS_DIFF("tool");
        for (size_t p = 0; p < a->n_params; p++) {
            const perc_line_param *x = &a->params[p], *y = &b->params[p];
            if (!ls_span_same(x->name, y->name) || !ls_span_same(x->type, y->type) ||
                !ls_span_same(x->limits, y->limits) || x->optional != y->optional || x->boolean != y->boolean ||
                x->cut != y->cut)
                LS_DIFF("param");
        }
    }
    if (w->n_cells != r->n_cells)
        LS_DIFF("cell count");
    for (size_t k = 0; k < w->n_cells; k++)
        if (!ls_span_same(w->cells[k], r->cells[k]))
            LS_DIFF("cell");
    if (w->n_items != r->n_items)
        LS_DIFF("item count");
    for (size_t k = 0; k < w->n_items; k++)
        if (!ls_span_same(w->items[k].id, r->items[k].id) || !ls_span_same(w->items[k].role, r->items[k].role) ||
            !ls_span_same(w->items[k].name, r->items[k].name))
            LS_DIFF("item");
    return 1;
}
#undef LS_DIFF

/* 1 when the observation's lines are what perc_lines_read reads from its text; else 0, why says
 * the first difference. */
static inline int ls_obs_lines_same(const perc_obs *obs, char *why, size_t why_len)
{
    size_t n;
    const perc_line *w = perc_obs_lines(obs, &n);
    perc_lines *r = NULL;
    if (perc_lines_read(perc_obs_text(obs), perc_obs_text_len(obs), &r, NULL)) {
        snprintf(why, why_len, "out of memory");
        return 0;
    }
    int same = perc_lines_count(r) == n;
    if (!same)
        snprintf(why, why_len, "%zu lines written, %zu read", n, perc_lines_count(r));
    for (size_t i = 0; same && i < n; i++)
        same = ls_line_same(i, &w[i], perc_lines_at(r, i), why, why_len);
    perc_lines_free(r);
    return same;
}

#endif

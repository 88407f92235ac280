/* perception/view_render.c — the view's line list and its one renderer (see
 * view_lines_int.h): a writer's buffer and marks become lines of parts, and
 * lines become the view's text.  It knows no view's rules, only lines. */
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"

static void push(pv_marks *ms, pv_mark m)
{
    if (ms->failed)
        return;
    if (ms->n == ms->cap) {
        size_t cap = ms->cap ? ms->cap * 2 : 256;
        pv_mark *g = realloc(ms->m, cap * sizeof *g);
        if (!g) {
            ms->failed = 1;
            return;
        }
        ms->m = g;
        ms->cap = cap;
    }
    ms->m[ms->n++] = m;
}

void pv_marks_add(pv_marks *ms, pv_part part, size_t off, size_t len)
{
    push(ms, (pv_mark){.off = off, .len = len, .part = part});
}

void pv_marks_line(pv_marks *ms, size_t off, perc_line_kind kind, int id_first)
{
    push(ms, (pv_mark){.off = off, .part = PV_PART_LINE, .kind = kind, .id_first = id_first});
}

void pv_marks_free(pv_marks *ms)
{
    free(ms->m);
    memset(ms, 0, sizeof *ms);
}

void pv_lines_free(pv_lines *ls)
{
    free(ls->l);
    free(ls->parts);
    free(ls->bytes);
    memset(ls, 0, sizeof *ls);
}

/* Marks in buffer order; a line's mark before the parts at the same offset, and
 * marks made at one offset kept in the order they were made. */
static int by_offset(const void *a, const void *b)
{
    const pv_mark *x = *(const pv_mark *const *)a, *y = *(const pv_mark *const *)b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if ((x->part == PV_PART_LINE) != (y->part == PV_PART_LINE))
        return x->part == PV_PART_LINE ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The line [start, end) of the buffer: its depth, bytes, kind and the parts inside it
 * (marks from *k on), and the parts' count added at *np. */
static void build_line(const char *text, size_t start, size_t end, const pv_mark **sorted, size_t n, size_t *k,
                       pv_lines *out, size_t *np)
{
    pv_line *l = &out->l[out->n];
    memset(l, 0, sizeof *l);
    size_t s = start;
    while (s < end && text[s] == '\t')
        s++;
    l->depth = (int)(s - start);
    l->s = out->bytes + s;
    l->len = end - s;
    l->kind = PERC_LINE_TEXT;
    l->parts = out->parts + *np;
    for (; *k < n && sorted[*k]->off <= end; (*k)++) {
        const pv_mark *m = sorted[*k];
        if (m->part == PV_PART_LINE) {
            if (m->off >= start && m->off <= s) {
                l->kind = m->kind;
                l->id_first = m->id_first;
            }
            continue;
        }
        if (m->off < s || m->off + m->len > end)
            continue; /* in the tabs, or across the newline: no part of this line */
        pv_mark *p = &out->parts[(*np)++];
        *p = *m;
        p->off -= s;
        l->n_parts++;
    }
}

int pv_lines_build(const char *text, size_t len, const pv_marks *ms, pv_lines *out)
{
    memset(out, 0, sizeof *out);
    size_t nl = 1, n = ms ? ms->n : 0, k = 0, np = 0;
    for (size_t i = 0; i < len; i++)
        nl += text[i] == '\n';
    const pv_mark **sorted = malloc((n + 1) * sizeof *sorted);
    out->l = calloc(nl, sizeof *out->l);
    out->parts = malloc((n + 1) * sizeof *out->parts);
    out->bytes = malloc(len + 1);
    if (!sorted || !out->l || !out->parts || !out->bytes) {
        free(sorted);
        pv_lines_free(out);
        return -1;
    }
    memcpy(out->bytes, text, len);
    out->bytes[len] = '\0';
    for (size_t i = 0; i < n; i++)
        sorted[i] = &ms->m[i];
    qsort(sorted, n, sizeof *sorted, by_offset);
    for (size_t start = 0; start < len;) {
        const char *eol = memchr(text + start, '\n', len - start);
        size_t end = eol ? (size_t)(eol - text) : len;
        build_line(text, start, end, sorted, n, &k, out, &np);
        out->l[out->n++].newline = eol != NULL;
        start = end + 1;
    }
    free(sorted);
    return 0;
}

int pv_lines_render(const pv_lines *ls, char **text, size_t *len)
{
    size_t total = 0;
    for (size_t i = 0; i < ls->n; i++)
        total += (size_t)ls->l[i].depth + ls->l[i].len + (size_t)ls->l[i].newline;
    char *t = malloc(total + 1), *p = t;
    if (!t)
        return -1;
    for (size_t i = 0; i < ls->n; i++) {
        const pv_line *l = &ls->l[i];
        memset(p, '\t', (size_t)l->depth);
        p += l->depth;
        memcpy(p, l->s, l->len);
        p += l->len;
        if (l->newline)
            *p++ = '\n';
    }
    *p = '\0';
    *text = t;
    *len = total;
    return 0;
}

eous_rc perc_view_take_lines(perc_view *v, pv_lines *ls, int marks_ok, eous_err *err)
{
    char *text;
    size_t len;
    if (pv_lines_render(ls, &text, &len)) {
        pv_lines_free(ls);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory rendering the view");
    }
    free(v->text);
    v->text = text;
    v->text_len = len;
    pv_lines_free(&v->lines);
    v->has_lines = marks_ok;
    if (marks_ok) {
        v->lines = *ls;
        memset(ls, 0, sizeof *ls);
    } else {
        pv_lines_free(ls);
    }
    return EOUS_OK;
}

eous_rc perc_view_from_marks(perc_view *v, const eous_buf *b, const pv_marks *ms, eous_err *err)
{
    pv_lines ls;
    if (pv_lines_build(b->data ? b->data : "", b->len, ms, &ls))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory building the view's lines");
    return perc_view_take_lines(v, &ls, !ms->failed, err);
}

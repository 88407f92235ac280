/* perception/delta.c — observation deltas (see delta.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/delta.h"
#include "core/tokenize.h"
#include "perception/perc_int.h"

#define DELTA_HEADER "(changes since the last observation)"

struct perc_delta {
    perc_delta_opts o;
    char *prev;      /* the view the planner saw last (owned) */
    char *prev_url;
    char *sent;      /* the last delta text made (owned) */
    int in_a_row;    /* deltas sent since the last full view */
};

void perc_delta_opts_init(perc_delta_opts *o)
{
    o->full_every = PERC_DELTA_FULL_EVERY;
    o->max_share = PERC_DELTA_MAX_SHARE;
}

eous_rc perc_delta_new(const perc_delta_opts *o, perc_delta **out, eous_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (o)
        (*out)->o = *o;
    else
        perc_delta_opts_init(&(*out)->o);
    return EOUS_OK;
}

void perc_delta_free(perc_delta *d)
{
    if (!d)
        return;
    free(d->prev);
    free(d->prev_url);
    free(d->sent);
    free(d);
}

void perc_delta_reset(perc_delta *d)
{
    if (!d)
        return;
    free(d->prev);
    d->prev = NULL;
    d->in_a_row = 0;
}

/* ---- a view as blocks ---------------------------------------------------------- */

typedef struct block {
    char *key;          /* "[id]" or the line's text with its occurrence (owned) */
    const char *text;   /* into the view copy, len bytes, whole lines with their tabs */
    size_t len;
    int depth;          /* tabs before the first line */
    int component;
} block;

typedef struct blocks {
    char *view; /* owned copy of the text read, NULL when the blocks borrow an observation's lines */
    block *b;
    size_t n;
    perc_strmap map; /* key → index */
} blocks;

static void blocks_free(blocks *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->b[i].key);
    free(v->b);
    free(v->view);
    perc_strmap_free(&v->map);
}

/* The key of a block: its id, else its text and how often that text came before. */
static char *block_key(blocks *v, const char *content, size_t clen, int has_id, const char *id, size_t idn)
{
    char *key = NULL;
    if (has_id)
        return asprintf(&key, "[%.*s]", (int)idn, id) < 0 ? NULL : key;
    for (int k = 0;; k++) {
        if (asprintf(&key, "%.*s\x01%d", (int)clen, content, k) < 0)
            return NULL;
        if (perc_strmap_get(&v->map, key) < 0)
            return key;
        free(key);
    }
}

/* An id that keys a block: one that opens its line ("[12] …", "[c3] …"), as perception read it. */
static int keyed(const perc_line *l)
{
    return l->id.s && l->id_first;
}

/* A view's lines as blocks: a component's line with the deeper lines under it that open with no
 * id of their own (its rows), every other line alone.  The blocks point where the lines do. */
static int blocks_of_lines(const perc_line *ls, size_t n, blocks *v)
{
    if (!(v->b = calloc(n + 1, sizeof *v->b)) || perc_strmap_init(&v->map, n * 2 + 8))
        return -1;
    for (size_t i = 0; i < n; i++) {
        const perc_line *l = &ls[i], *last = l;
        block *b = &v->b[v->n];
        b->text = l->whole.s - l->depth;
        b->depth = l->depth;
        b->component = keyed(l) && (l->kind == PERC_LINE_COMPONENT || l->kind == PERC_LINE_PAGE_TOOL);
        /* its table rows: deeper lines without an id (its tools are on its own line) */
        while (b->component && i + 1 < n) {
            const perc_line *q = &ls[i + 1];
            if (q->depth <= l->depth || keyed(q) || (!q->whole.len && !q->depth))
                break;
            last = q;
            i++;
        }
        b->len = (size_t)(last->whole.s + last->whole.len - b->text);
        if (!l->whole.len && !keyed(l))
            continue; /* an empty line is no block */
        if (!(b->key = block_key(v, l->whole.s, l->whole.len, keyed(l), l->id.s, l->id.len)))
            return -1;
        if (perc_strmap_put(&v->map, b->key, (int)v->n) < 0)
            v->n++;
        else
            free(b->key); /* an id given twice: the first block stands for it */
        b->key = v->n && &v->b[v->n - 1] == b ? b->key : NULL;
    }
    return 0;
}

/* A view's text (the previous view, a recorded one) read into lines (perception/view_lines.c), as blocks. */
static int blocks_parse(const char *text, blocks *v)
{
    memset(v, 0, sizeof *v);
    perc_lines *ls = NULL;
    int rc = -1;
    if ((v->view = strdup(text)) && !perc_lines_read(v->view, strlen(v->view), &ls, NULL))
        rc = blocks_of_lines(perc_lines_at(ls, 0), perc_lines_count(ls), v);
    perc_lines_free(ls);
    return rc;
}

static int same_block(const block *a, const block *b)
{
    return a->len == b->len && !memcmp(a->text, b->text, a->len);
}

/* The block's lines without the tabs its first line had, so the model reads it as the view printed it;
 * indent more tabs after the prefix (an added line nested under the one added before it). */
static eous_rc put_block(eous_buf *out, const block *b, const char *prefix, int indent, eous_err *err)
{
    const char *p = b->text, *end = b->text + b->len;
    eous_rc rc = EOUS_OK;
    while (p < end && !rc) {
        for (int d = 0; d < b->depth && *p == '\t'; d++)
            p++;
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        rc = eous_buf_puts(out, prefix, err);
        for (int d = 0; d < indent && !rc; d++)
            rc = eous_buf_putc(out, '\t', err);
        if (!rc && !(rc = eous_buf_append(out, p, (size_t)(e - p), err)))
            rc = eous_buf_putc(out, '\n', err);
        p = e < end ? e + 1 : end;
    }
    return rc;
}

/* The block's first line, without its tabs, after two spaces: context, as a unified diff marks it. */
static eous_rc put_context(eous_buf *out, const block *b, eous_err *err)
{
    const char *p = b->text, *end = b->text + b->len;
    for (int d = 0; d < b->depth && p < end && *p == '\t'; d++)
        p++;
    const char *e = memchr(p, '\n', (size_t)(end - p));
    eous_rc rc = eous_buf_puts(out, "  ", err);
    if (!rc)
        rc = eous_buf_append(out, p, (size_t)((e ? e : end) - p), err);
    return rc ? rc : eous_buf_putc(out, '\n', err);
}

static eous_rc put_section(eous_buf *out, const char *title, int *opened, eous_err *err)
{
    if (*opened)
        return EOUS_OK;
    *opened = 1;
    return eous_buf_printf(out, err, "%s:\n", title);
}

static eous_rc write_delta(eous_buf *out, const blocks *pv, const blocks *nv, eous_err *err)
{
    eous_rc rc = eous_buf_puts(out, DELTA_HEADER "\n", err);
    int changed = 0, added = 0, removed = 0;
    for (size_t i = 0; i < nv->n && !rc; i++) {
        const block *b = &nv->b[i];
        int j = perc_strmap_get(&pv->map, b->key);
        if (j >= 0 && same_block(&pv->b[j], b))
            continue;
        if (b->component && j >= 0) {
            if (!(rc = put_section(out, "changed components", &changed, err)))
                rc = put_block(out, b, "", 0, err);
        }
    }
    int last_added = -2; /* index in nv of the block the added section printed last */
    int run_depth = 0;   /* depth of a run's first added line: the run keeps its nesting below it */
    for (size_t i = 0; i < nv->n && !rc; i++) {
        const block *b = &nv->b[i];
        int j = perc_strmap_get(&pv->map, b->key);
        if ((j >= 0 && same_block(&pv->b[j], b)) || (b->component && j >= 0))
            continue;
        if ((rc = put_section(out, "added", &added, err)))
            break;
        /* where a run of new lines goes: the unchanged line above it, unmarked (a page's 14 new rows
         * were otherwise only "added", and a reader could not tell they went into the table) */
        if ((int)i - 1 != last_added) {
            run_depth = b->depth;
            if (i > 0)
                rc = put_context(out, &nv->b[i - 1], err);
        }
        if (!rc)
            rc = put_block(out, b, "+ ", b->depth > run_depth ? b->depth - run_depth : 0, err);
        last_added = (int)i;
    }
    for (size_t i = 0; i < pv->n && !rc; i++) {
        const block *b = &pv->b[i];
        if (perc_strmap_get(&nv->map, b->key) >= 0)
            continue;
        if ((rc = put_section(out, "removed", &removed, err)))
            break;
        if (b->key[0] == '[')
            rc = eous_buf_printf(out, err, "- %s\n", b->key);
        else
            rc = put_block(out, b, "- ", 0, err);
    }
    if (!rc && !changed && !added && !removed)
        rc = eous_buf_puts(out, "no changes\n", err);
    return rc;
}

/* The delta from the previous view's text to the next view: its text read into lines, or (obs) the
 * lines its writer built, which that text reads back as (tests/perception/lines_same.h). */
static char *delta_of(const char *prev, const char *next, const perc_obs *obs)
{
    blocks pv, nv;
    memset(&pv, 0, sizeof pv);
    memset(&nv, 0, sizeof nv);
    char *text = NULL;
    eous_buf out;
    eous_buf_init(&out, (size_t)64 * 1024 * 1024);
    size_t n = 0;
    const perc_line *ls = obs ? perc_obs_lines(obs, &n) : NULL;
    int next_ok = obs ? !blocks_of_lines(ls, n, &nv) : !blocks_parse(next ? next : "", &nv);
    if (!blocks_parse(prev ? prev : "", &pv) && next_ok && !write_delta(&out, &pv, &nv, NULL))
        text = eous_buf_steal(&out);
    eous_buf_free(&out);
    blocks_free(&pv);
    blocks_free(&nv);
    return text;
}

char *perc_delta_text(const char *prev, const char *next)
{
    return delta_of(prev, next, NULL);
}

eous_rc perc_delta_next(perc_delta *d, const perc_obs *obs, const char **text, int *is_delta, size_t *full_tokens,
                        size_t *sent_tokens, eous_err *err)
{
    const char *full = perc_obs_text(obs), *url = perc_obs_url(obs);
    size_t flen = perc_obs_text_len(obs);
    *full_tokens = eous_tok_count_o200k(full, flen);
    *text = full;
    *is_delta = 0;
    *sent_tokens = *full_tokens;
    free(d->sent);
    d->sent = NULL;
    int line_view = perc_obs_mode(obs) != PERC_MODE_HTML;
    if (line_view && d->prev && d->prev_url && !strcmp(d->prev_url, url) && d->in_a_row < d->o.full_every) {
        if (!(d->sent = delta_of(d->prev, full, obs)))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        size_t dt = eous_tok_count_o200k(d->sent, strlen(d->sent));
        if ((double)dt <= d->o.max_share * (double)*full_tokens) {
            *text = d->sent;
            *is_delta = 1;
            *sent_tokens = dt;
        }
    }
    d->in_a_row = *is_delta ? d->in_a_row + 1 : 0;
    char *p = strdup(full), *u = strdup(url);
    if (!p || !u) {
        free(p);
        free(u);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    free(d->prev);
    free(d->prev_url);
    d->prev = p;
    d->prev_url = u;
    return EOUS_OK;
}

/* perception/view_atomic.c — WebArena's accessibility-tree text, by its rules:
 * "[id] role 'name'" plus "prop: value" pairs minus its ignored properties,
 * tab indentation, its list of generic roles skipped when unnamed (children
 * keep the depth), StaticText dropped when its text is in one of the last 3
 * kept lines, and its "Tab 0 (current): title" header. */
#define _GNU_SOURCE
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"

static const char *IGNORED_PROPS[] = {"focusable", "editable", "readonly", "level", "settable", "multiline", "invalid"};
static const char *SKIP_UNNAMED[] = {"generic", "img", "list", "strong", "paragraph", "banner", "navigation",
                                     "Section", "LabelText", "Legend", "listitem"};

static int in_list(const char *s, const char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}

/* Python's str.strip() emptiness: whitespace incl. NBSP and other Unicode spaces. */
static int blank(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        else if (p[0] == 0xC2 && p[1] == 0xA0)
            p += 2;
        else if (p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF))
            p += 3;
        else if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80)
            p += 3;
        else
            return 0;
    }
    return 1;
}

/* Python repr() of a str: quote choice and escapes as CPython does them. */
eous_rc perc_py_repr(eous_buf *b, const char *s, eous_err *err)
{
    char q = (strchr(s, '\'') && !strchr(s, '"')) ? '"' : '\'';
    eous_rc rc;
    if ((rc = eous_buf_putc(b, q, err)))
        return rc;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned cp;
        int len;
        if (*p < 0x80) {
            cp = *p;
            len = 1;
        } else if ((*p >> 5) == 6 && (p[1] & 0xC0) == 0x80) {
            cp = ((unsigned)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
            len = 2;
        } else if ((*p >> 4) == 14 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80) {
            cp = ((unsigned)(p[0] & 0x0F) << 12) | ((unsigned)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
            len = 3;
        } else if ((*p >> 3) == 30 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80) {
            cp = ((unsigned)(p[0] & 0x07) << 18) | ((unsigned)(p[1] & 0x3F) << 12) | ((unsigned)(p[2] & 0x3F) << 6) |
                 (p[3] & 0x3F);
            len = 4;
        } else {
            cp = 0xFFFD; /* invalid byte: CDP never sends one; keep output valid */
            len = 1;
        }
        char esc[16];
        const char *out = NULL;
        if (cp == '\\')
            out = "\\\\";
        else if (cp == (unsigned)q)
            out = q == '\'' ? "\\'" : "\\\"";
        else if (cp == '\n')
            out = "\\n";
        else if (cp == '\r')
            out = "\\r";
        else if (cp == '\t')
            out = "\\t";
        else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD) {
            snprintf(esc, sizeof esc, "\\x%02x", cp);
            out = esc;
        } else if ((cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
                   (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF || cp == 0x1680 ||
                   (cp >= 0xFFF9 && cp <= 0xFFFB) || (cp >= 0xD800 && cp <= 0xDFFF) ||
                   (cp >= 0xE000 && cp <= 0xF8FF)) {
            snprintf(esc, sizeof esc, "\\u%04x", cp);
            out = esc;
        }
        if (out)
            rc = eous_buf_puts(b, out, err);
        else
            rc = eous_buf_append(b, p, (size_t)len, err);
        if (rc)
            return rc;
        p += len;
    }
    return eous_buf_putc(b, q, err);
}

typedef struct atomic_ctx {
    const perc_obs *obs;
    perc_view *view;
    eous_buf *out;     /* the raw tree string (before StaticText cleaning) */
    eous_err *err;
    eous_rc rc;
    int first_line;
    unsigned char *visiting;
    pv_marks marks;    /* each line's parts, as written (view_lines_int.h) */
} atomic_ctx;

/* "[id] role 'name' prop: value …" (no newline), its parts marked. */
static void put_node_line(atomic_ctx *c, const perc_node *n)
{
    eous_buf *b = c->out;
    size_t at = b->len;
    pv_marks_line(&c->marks, at, PERC_LINE_ELEMENT, 1);
    c->rc = eous_buf_printf(b, c->err, "[%s] %s ", n->ax_id, n->role);
    if (c->rc)
        return;
    pv_marks_add(&c->marks, PV_PART_ID, at + 1, strlen(n->ax_id));
    pv_marks_add(&c->marks, PV_PART_ROLE, at + 3 + strlen(n->ax_id), strlen(n->role));
    at = b->len;
    if ((c->rc = perc_py_repr(b, n->name, c->err)))
        return;
    pv_marks_add(&c->marks, PV_PART_NAME, at + 1, b->len - at - 2); /* inside the repr's quotes */
    for (size_t p = 0; p < n->n_props && !c->rc; p++) {
        if (in_list(n->props[p].name, IGNORED_PROPS, sizeof IGNORED_PROPS / sizeof *IGNORED_PROPS))
            continue;
        at = b->len;
        c->rc = eous_buf_printf(b, c->err, " %s: %s", n->props[p].name, n->props[p].value);
        pv_marks_add(&c->marks, PV_PART_KEY, at + 1, strlen(n->props[p].name));
        pv_marks_add(&c->marks, PV_PART_VALUE, at + 3 + strlen(n->props[p].name), strlen(n->props[p].value));
    }
}

static void dfs(atomic_ctx *c, int idx, int depth, int level)
{
    if (c->rc || c->visiting[idx])
        return;
    if (level > PERC_MAX_DEPTH) {
        c->view->depth_capped = 1;
        return;
    }
    c->visiting[idx] = 1;
    const perc_node *n = &c->obs->nodes[idx];
    int valid = 0;
    if (n->hidden) {
        /* data-agent-hidden: the subtree is not shown at all */
        return;
    }
    if (n->role && n->name) {
        valid = 1;
        int nprops = 0;
        for (size_t p = 0; p < n->n_props; p++)
            if (!in_list(n->props[p].name, IGNORED_PROPS, sizeof IGNORED_PROPS / sizeof *IGNORED_PROPS))
                nprops++;
        if (blank(n->name)) {
            if (!nprops) {
                if (in_list(n->role, SKIP_UNNAMED, sizeof SKIP_UNNAMED / sizeof *SKIP_UNNAMED))
                    valid = 0;
            } else if (!strcmp(n->role, "listitem")) {
                valid = 0;
            }
        }
        if (valid) {
            eous_buf *b = c->out;
            if (!c->first_line)
                c->rc = eous_buf_putc(b, '\n', c->err);
            c->first_line = 0;
            for (int d = 0; d < depth && !c->rc; d++)
                c->rc = eous_buf_putc(b, '\t', c->err);
            if (!c->rc)
                put_node_line(c, n);
            if (!c->rc)
                c->rc = perc_view_add_id(c->view, n->ax_id, n->backend_id);
        }
    }
    for (size_t k = 0; k < n->n_children && !c->rc; k++)
        dfs(c, n->children[k], valid ? depth + 1 : depth, level + 1);
}

/* 1 when a line (its bytes with its tabs) is WebArena's StaticText line whose text is in a
 * kept line: r"\[\d+\] StaticText (.+)", group(1)[1:-1], searched in the last 3 kept. */
static int repeats_static_text(const char *line, size_t len, const char *const *kept, const size_t *kept_len, int nk)
{
    /* case-insensitive "statictext" anywhere in the line, as WebArena tests it */
    int has_st = 0;
    for (size_t i = 0; i + 10 <= len && !has_st; i++)
        has_st = !strncasecmp(line + i, "statictext", 10);
    if (!has_st)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] != '[')
            continue;
        size_t j = i + 1;
        while (j < len && line[j] >= '0' && line[j] <= '9')
            j++;
        if (j == i + 1 || j >= len || line[j] != ']')
            continue;
        if (len - j < 13 || strncmp(line + j, "] StaticText ", 13))
            continue;
        size_t tlen = len - (j + 13);
        if (tlen < 1)
            continue;
        const char *st = line + j + 13 + 1;
        size_t slen = tlen >= 2 ? tlen - 2 : 0;
        if (slen == 0)
            return 1;
        for (int k = 0; k < nk; k++)
            if (kept_len[k] >= slen && memmem(kept[k], kept_len[k], st, slen))
                return 1;
        return 0;
    }
    return 1; /* "statictext" without the pattern: WebArena drops it */
}

/* WebArena's clean_accesibility_tree on the tree's lines (those from offset tree on):
 * a StaticText line whose text one of the 3 previously kept lines holds is dropped; its
 * lines join with newlines, the last without one; an empty line ends the tree, as
 * WebArena's loop over the text stops there. */
static void clean_static_text(pv_lines *ls, size_t tree)
{
    const char *kept[3] = {NULL, NULL, NULL};
    size_t kept_len[3] = {0, 0, 0}, off = 0, n = 0;
    int nk = 0, in_tree = 0, ended = 0;
    for (size_t i = 0; i < ls->n; i++) {
        pv_line *l = &ls->l[i];
        size_t at = off;
        off += (size_t)l->depth + l->len + (size_t)l->newline;
        if (at < tree) {
            ls->l[n++] = *l;
            continue;
        }
        /* the line with its tabs: they precede its bytes in the list's buffer */
        const char *line = l->s - l->depth;
        size_t len = (size_t)l->depth + l->len;
        if (ended || !len) {
            ended = 1;
            continue;
        }
        if (repeats_static_text(line, len, kept, kept_len, nk))
            continue;
        ls->l[n++] = *l;
        in_tree = 1;
        if (nk < 3) {
            kept[nk] = line;
            kept_len[nk++] = len;
        } else {
            kept[0] = kept[1]; kept_len[0] = kept_len[1];
            kept[1] = kept[2]; kept_len[1] = kept_len[2];
            kept[2] = line; kept_len[2] = len;
        }
    }
    ls->n = n;
    if (in_tree)
        ls->l[n - 1].newline = 0;
}

eous_rc perc_render_atomic(const perc_obs *obs, perc_view *view, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    atomic_ctx c = {obs, view, &b, err, EOUS_OK, 1, NULL, {0}};
    /* tab header, as WebArena's TextObservationProcessor writes it, then the tree */
    pv_marks_line(&c.marks, 0, PERC_LINE_HEADER, 0);
    eous_rc rc = perc_put_tab_header(&b, obs, err);
    if (!rc)
        rc = eous_buf_puts(&b, "\n\n", err);
    size_t tree = b.len;
    if (!rc && obs->n_nodes) {
        if (!(c.visiting = calloc(obs->n_nodes, 1))) {
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            goto done;
        }
        dfs(&c, 0, 0, 0);
        free(c.visiting);
        rc = c.rc;
    }
    if (rc)
        goto done;
    pv_lines ls;
    if (pv_lines_build(b.data ? b.data : "", b.len, &c.marks, &ls)) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    clean_static_text(&ls, tree);
    rc = perc_view_take_lines(view, &ls, !c.marks.failed, err);
done:
    pv_marks_free(&c.marks);
    eous_buf_free(&b);
    return rc;
}

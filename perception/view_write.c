/* perception/view_write.c — the pruned and hybrid views' line writer: text
 * into the view being written (pctx), flattened, quoted or cut, indentation
 * and list tests.  It calls no other view file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/view_int.h"

int pv_in_list(const char *s, const char **list, size_t n)
{
    if (!s)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}

int pv_is_blank(const char *s)
{
    if (!s)
        return 1;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && !(p[0] == 0xC2 && p[1] == 0xA0 && p++))
            return 0;
    return 1;
}

void pv_put(pctx *c, const char *s)
{
    if (!c->rc)
        c->rc = eous_buf_puts(c->b, s, c->err);
}

void pv_indent(pctx *c, int depth)
{
    for (int i = 0; i < depth && !c->rc; i++)
        c->rc = eous_buf_putc(c->b, '\t', c->err);
}

/* Text on one line: newlines and tabs become spaces (in a table cell, '|'
 * becomes '/'), cut after max characters (code points: a cut never splits
 * a UTF-8 sequence, which would make the prompt invalid JSON text). */
void pv_put_flat(pctx *c, const char *s, size_t max, int in_cell)
{
    size_t n = 0;
    for (const char *p = s; *p && !c->rc; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80 && n++ >= max) {
            pv_put(c, "…");
            break;
        }
        char ch = *p;
        if (ch == '\n' || ch == '\r' || ch == '\t')
            ch = ' ';
        else if (in_cell && ch == '|')
            ch = '/';
        c->rc = eous_buf_putc(c->b, ch, c->err);
    }
}

/* Text, single-quoted, on one line (the pruned view is for models, not Python). */
void pv_put_quoted(pctx *c, const char *s, size_t max)
{
    pv_put(c, "'");
    pv_put_flat(c, s, max, 0);
    pv_put(c, "'");
}

void pv_start_line(pctx *c, perc_line_kind kind, int id_first)
{
    if (c->b == c->view_b)
        pv_marks_line(&c->marks, c->b->len, kind, id_first);
}

size_t pv_begin(const pctx *c)
{
    return c->b->len;
}

void pv_end(pctx *c, pv_part part, size_t begin)
{
    if (c->b == c->view_b && !c->rc && c->b->len >= begin)
        pv_marks_add(&c->marks, part, begin, c->b->len - begin);
}

void pv_put_part(pctx *c, pv_part part, const char *s)
{
    size_t at = pv_begin(c);
    pv_put(c, s);
    pv_end(c, part, at);
}

void pv_put_quoted_part(pctx *c, pv_part part, const char *s, size_t max)
{
    pv_put(c, "'");
    size_t at = pv_begin(c);
    pv_put_flat(c, s, max, 0);
    pv_end(c, part, at);
    pv_put(c, "'");
}

void pv_put_json_short(pctx *c, const cJSON *v, size_t max)
{
    if (cJSON_IsString(v)) {
        pv_put_quoted(c, v->valuestring, max);
        return;
    }
    char *s = cJSON_PrintUnformatted(v);
    if (!s)
        return;
    if (strlen(s) > max) {
        s[eous_utf8_cut(s, max)] = '\0';
        pv_put(c, s);
        pv_put(c, "…");
    } else {
        pv_put(c, s);
    }
    free(s);
}

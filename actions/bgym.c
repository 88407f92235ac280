/* actions/bgym.c — BrowserGym action strings (see bgym.h). */
#include "actions/bgym.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#define BGYM_MAX_ARGS 3

/* One argument: a string literal (s) or a number (num, s NULL). */
typedef struct bgym_arg {
    char *s;
    double num;
} bgym_arg;

typedef struct bgym_fn {
    const char *name;
    act_kind kind;
    int n_args;        /* exactly this many */
    const char *sig;   /* for messages */
} bgym_fn;

static const bgym_fn FNS[] = {
    {"click", ACT_CLICK, 1, "click('bid')"},
    {"fill", ACT_TYPE, 2, "fill('bid', 'text')"},
    {"select_option", ACT_SELECT, 2, "select_option('bid', 'option')"},
    {"hover", ACT_HOVER, 1, "hover('bid')"},
    {"goto", ACT_GOTO, 1, "goto('url')"},
    {"go_back", ACT_GO_BACK, 0, "go_back()"},
    {"go_forward", ACT_GO_FORWARD, 0, "go_forward()"},
    {"keyboard_press", ACT_PRESS, 1, "keyboard_press('key')"},
    {"scroll", ACT_SCROLL, 2, "scroll(dx, dy)"},
    {"tab_focus", ACT_TAB_FOCUS, 1, "tab_focus(index)"},
    {"tab_close", ACT_CLOSE_TAB, 0, "tab_close()"},
    {"send_msg_to_user", ACT_STOP, 1, "send_msg_to_user('text')"},
    {"report_infeasible", ACT_STOP, 1, "report_infeasible('reason')"},
};

static const bgym_fn *fn_find(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof FNS / sizeof *FNS; i++)
        if (strlen(FNS[i].name) == n && !memcmp(FNS[i].name, s, n))
            return &FNS[i];
    return NULL;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

/* The function name at s and the '(' after it: the row, with *after past the '('. */
static const bgym_fn *fn_at(const char *s, const char **after)
{
    const char *p = skip_ws(s), *w = p;
    while (islower((unsigned char)*w) || *w == '_')
        w++;
    const bgym_fn *f = w > p ? fn_find(p, (size_t)(w - p)) : NULL;
    w = skip_ws(w);
    if (!f || *w != '(')
        return NULL;
    *after = w + 1;
    return f;
}

int act_bgym_looks_like(const char *s)
{
    const char *after;
    return s && fn_at(s, &after) != NULL;
}

static int hexval(char c)
{
    return isdigit((unsigned char)c) ? c - '0' : isxdigit((unsigned char)c) ? (tolower((unsigned char)c) - 'a' + 10) : -1;
}

/* Code point cp as UTF-8 into b; -1 for a surrogate or beyond Unicode. */
static int put_utf8(eous_buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return -1;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else if (cp <= 0x10FFFF) {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    } else {
        return -1;
    }
    return eous_buf_append(b, u, n, NULL) ? -1 : 0;
}

/* One escape after a backslash at *p (advanced past it) into b; -1 when unknown. */
static int take_escape(const char **p, eous_buf *b)
{
    static const char plain[] = "\\'\"ntr0";
    static const char value[] = "\\'\"\n\t\r\0";
    const char *e = strchr(plain, **p);
    if (**p && e) {
        (*p)++;
        return eous_buf_append(b, &value[e - plain], 1, NULL) ? -1 : 0;
    }
    int digits = **p == 'x' ? 2 : **p == 'u' ? 4 : **p == 'U' ? 8 : 0;
    if (!digits)
        return -1;
    unsigned long cp = 0;
    for (int i = 1; i <= digits; i++) {
        int h = hexval((*p)[i]);
        if (h < 0)
            return -1;
        cp = cp * 16 + (unsigned long)h;
    }
    *p += digits + 1;
    return put_utf8(b, cp);
}

/* A Python string literal at *p (its quote) into *out (caller frees); *p past it. */
static eous_rc take_string(const char **p, const char *ctx, char **out, eous_err *err)
{
    char q = **p;
    const char *s = *p + 1;
    eous_buf b;
    eous_buf_init(&b, 1 << 20);
    eous_rc rc = EOUS_OK;
    for (;;) {
        if (!*s || *s == '\n') {
            rc = eous_err_set(err, EOUS_E_PARSE, "%s: a string opened with %c is not closed", ctx, q);
            break;
        }
        if (*s == q) {
            s++;
            break;
        }
        if (*s == '\\') {
            s++;
            if (take_escape(&s, &b)) {
                rc = eous_err_set(err, EOUS_E_PARSE, "%s: unknown escape \\%c in a string", ctx, *s ? *s : ' ');
                break;
            }
            continue;
        }
        if (eous_buf_append(&b, s++, 1, err)) {
            rc = EOUS_E_LIMIT;
            break;
        }
    }
    if (!rc && !(*out = eous_buf_steal(&b)))
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_buf_free(&b);
    *p = s;
    return rc;
}

/* The arguments after '(' up to ')' and nothing after it but blanks. */
static eous_rc take_args(const char *p, const char *ctx, bgym_arg *args, int *n, eous_err *err)
{
    *n = 0;
    p = skip_ws(p);
    while (*p != ')') {
        if (*n == BGYM_MAX_ARGS)
            return eous_err_set(err, EOUS_E_PARSE, "%s: too many arguments", ctx);
        if (*p == '\'' || *p == '"') {
            eous_rc rc = take_string(&p, ctx, &args[*n].s, err);
            if (rc)
                return rc;
        } else {
            char *end;
            args[*n].num = strtod(p, &end);
            if (end == p || !(isdigit((unsigned char)*p) || *p == '-' || *p == '+'))
                return eous_err_set(err, EOUS_E_PARSE, "%s: expected a quoted string or a number at \"%.20s\"", ctx, p);
            p = end;
        }
        (*n)++;
        p = skip_ws(p);
        if (*p == ',')
            p = skip_ws(p + 1);
        else if (*p != ')')
            return eous_err_set(err, EOUS_E_PARSE, "%s: expected , or ) at \"%.20s\"", ctx, p);
    }
    p = skip_ws(p + 1);
    if (*p)
        return eous_err_set(err, EOUS_E_PARSE, "%s: text after the closing parenthesis: \"%.20s\"", ctx, p);
    return EOUS_OK;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The parsed arguments into out, by the function's kind. */
static eous_rc fill_action(const bgym_fn *f, bgym_arg *args, const char *ctx, act_action *out, eous_err *err)
{
    for (int i = 0; i < f->n_args; i++) {
        int want_num = f->kind == ACT_SCROLL || f->kind == ACT_TAB_FOCUS;
        if (want_num != !args[i].s)
            return eous_err_set(err, EOUS_E_PARSE, "%s: argument %d must be %s", ctx, i + 1,
                                want_num ? "a number" : "a quoted string");
    }
    out->kind = f->kind;
    switch (f->kind) {
    case ACT_CLICK:
    case ACT_HOVER: out->target = dup_or_null(args[0].s); break;
    case ACT_TYPE:
    case ACT_SELECT:
        out->target = dup_or_null(args[0].s);
        out->text = dup_or_null(args[1].s);
        break;
    case ACT_GOTO:
    case ACT_PRESS:
        if (!args[0].s[0])
            return eous_err_set(err, EOUS_E_PARSE, "%s: the argument is empty", ctx);
        if (f->kind == ACT_PRESS && !strncmp(args[0].s, "ControlOrMeta", 13))
            memmove(args[0].s + 7, args[0].s + 13, strlen(args[0].s + 13) + 1); /* "Control" + the rest */
        out->text = dup_or_null(args[0].s);
        break;
    case ACT_SCROLL:
        if (args[1].num == 0)
            return eous_err_set(err, EOUS_E_PARSE, "%s: dy must not be 0 (only vertical scrolling)", ctx);
        out->text = strdup(args[1].num > 0 ? "down" : "up");
        break;
    case ACT_TAB_FOCUS:
        if (args[0].num < 0 || args[0].num > 1000 || args[0].num != (int)args[0].num)
            return eous_err_set(err, EOUS_E_PARSE, "%s: expected a tab number from 0", ctx);
        out->index = (int)args[0].num;
        break;
    case ACT_STOP:
        out->text = strdup(!strcmp(f->name, "report_infeasible") ? "N/A" : args[0].s);
        break;
    default: break;
    }
    if ((f->n_args && f->kind != ACT_TAB_FOCUS && f->kind != ACT_CLICK && f->kind != ACT_HOVER && !out->text) ||
        ((f->kind == ACT_CLICK || f->kind == ACT_HOVER || f->kind == ACT_TYPE || f->kind == ACT_SELECT) &&
         !out->target))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (out->target && !out->target[0])
        return eous_err_set(err, EOUS_E_PARSE, "%s: the bid is empty", ctx);
    return EOUS_OK;
}

eous_rc act_parse_bgym(const char *s, act_action *out, eous_err *err)
{
    act_action_clear(out);
    const char *p;
    const bgym_fn *f = s ? fn_at(s, &p) : NULL;
    if (!f)
        return eous_err_set(err, EOUS_E_PARSE,
                            "not a BrowserGym action: expected click('12'), fill('12', 'text'), "
                            "select_option('12', 'option'), goto('url'), send_msg_to_user('answer') or "
                            "report_infeasible('why')");
    char ctx[96];
    snprintf(ctx, sizeof ctx, "%s: expected %s", f->name, f->sig);
    bgym_arg args[BGYM_MAX_ARGS];
    memset(args, 0, sizeof args);
    int n = 0;
    eous_rc rc = take_args(p, ctx, args, &n, err);
    if (!rc && n != f->n_args)
        rc = eous_err_set(err, EOUS_E_PARSE, "%s: %d argument%s given", ctx, n, n == 1 ? "" : "s");
    if (!rc)
        rc = fill_action(f, args, ctx, out, err);
    for (int i = 0; i < BGYM_MAX_ARGS; i++)
        free(args[i].s);
    if (rc)
        act_action_clear(out);
    return rc;
}

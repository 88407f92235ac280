/* perception/view_lines.c — the view's lines (perc.h): ids, roles, names, a
 * component's state and tools with their params, a row's cells.  An
 * observation's lines come from its writer (view_atomic.c, view_pruned.c,
 * view_hybrid.c mark each line's parts as they write them, view_lines_int.h):
 * perc_lines_from_parts.  A view read from disk (a recorded trace), or one the
 * redactor rewrote, is read back from its text by the grammar the writers use
 * (view_grammar_int.h): perc_lines_read; the perception tests hold the two to
 * each other on every fixture view. */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"
#include "perception/view_grammar_int.h"
#include "perception/view_lines_int.h"

/* Bounds per line: a hostile page cannot make one line cost more than these. */
#define MAX_STATE 64
#define MAX_TOOLS 32
#define MAX_PARAMS 256 /* over all tools of a line */
#define MAX_CELLS 64
#define MAX_ITEMS 64
#define MAX_FIELDS 8

static const char ARROW[] = " → ";
static const char DASH[] = " — ";
static const char DELTA_HEADER[] = "(changes since the last observation)"; /* as perception/delta.c writes it */

struct perc_lines {
    eous_arena *arena;
    perc_line *lines;
    size_t n;
    int delta; /* the text is a delta: its lines carry marks */
};

/* The line being read and where its parts go before they are copied out. */
typedef struct lctx {
    const char *text;
    const char *end;        /* end of the line */
    int delta;              /* a delta's line: a mark may open it */
    perc_line *l;
    perc_line_state state[MAX_STATE];
    perc_line_tool tools[MAX_TOOLS];
    perc_line_param params[MAX_PARAMS];
    size_t n_params;
    perc_span cells[MAX_CELLS];
    perc_line_item items[MAX_ITEMS];
    perc_span fields[MAX_FIELDS];
} lctx;

static perc_span span(const lctx *c, const char *s, size_t len)
{
    return (perc_span){.s = s, .off = (size_t)(s - c->text), .len = len};
}

int perc_span_is(perc_span sp, const char *s, size_t n)
{
    return sp.s && sp.len == n && !memcmp(sp.s, s, n);
}

int perc_role_is_item(const char *role, size_t n)
{
    static const char *const items[] = {"option", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem"};
    for (size_t i = 0; role && i < sizeof items / sizeof *items; i++)
        if (strlen(items[i]) == n && !memcmp(role, items[i], n))
            return 1;
    return 0;
}

static int starts(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && !memcmp(p, w, n);
}

static const char *find(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    for (; p && (size_t)(end - p) >= n; p++)
        if (!memcmp(p, w, n))
            return p;
    return NULL;
}

static int ident_byte(unsigned char ch)
{
    return isalnum(ch) || ch == '_' || ch == '-' || ch >= 0x80;
}

/* Length of an identifier ("aria-label", "valueLabel") at p. */
static size_t ident_len(const char *p, const char *end)
{
    size_t n = 0;
    while (p + n < end && ident_byte((unsigned char)p[n]))
        n++;
    return n;
}

/* "[12]" or "[c5]" at p (or an atomic view's "[-1000000024]": Chromium numbers a node it made up
 * below zero): the id inside, and the byte after the ']'; NULL if not. */
static const char *bracket_id(const char *p, const char *end, const char **id, size_t *idn)
{
    if (p >= end || *p != '[')
        return NULL;
    const char *q = p + 1, *d;
    if (q < end && (*q == 'c' || *q == '-'))
        q++;
    d = q;
    while (q < end && isdigit((unsigned char)*q))
        q++;
    if (q == d || q >= end || *q != ']')
        return NULL;
    *id = p + 1;
    *idn = (size_t)(q - p - 1);
    return q + 1;
}

/* 1 when what is at p can follow a name, so a quote before p closes it: the
 * line's end, " key:" (a state key or property), " [12]" or " role [12]" (a
 * cell's next control), the tools' arrow, a description's dash or a flag. */
static int after_name(const char *p, const char *end)
{
    if (p == end)
        return 1;
    if (*p != ' ')
        return 0;
    p++;
    if (starts(p, end, "→") || starts(p, end, "—") || starts(p, end, "[") || starts(p - 1, end, PV_IN_TAB "'") ||
        starts(p - 1, end, PV_FIELDS "'"))
        return 1;
    size_t n = ident_len(p, end);
    if (!n)
        return 0;
    if (p + n < end && p[n] == ':')
        return 1;
    if (p + n + 1 < end && p[n] == ' ' && p[n + 1] == '[')
        return 1;
    int flag = (n == 8 && starts(p, end, "disabled")) || (n == 9 && starts(p, end, "read-only"));
    return flag && (p + n == end || p[n] == ' ');
}

/* A quoted name at p ('…' as the pruned and hybrid views write it, or a Python
 * repr "…" / '…' as the atomic view does): *name gets what is inside; returns
 * the byte after the closing quote, NULL when p opens no name. */
static const char *quoted_name(const lctx *c, const char *p, perc_span *name)
{
    const char *end = c->end;
    if (p >= end || (*p != '\'' && *p != '"'))
        return NULL;
    char q = *p;
    const char *close = NULL;
    /* the first closing quote that something a name is followed by follows
     * (names are not escaped: "'O'Brien'" holds O'Brien) */
    for (const char *e = p + 1; e < end && !close; e++) {
        if (*e == '\\' && q == '"') {
            e++;
            continue;
        }
        if (*e == q && after_name(e + 1, end))
            close = e;
    }
    if (!close)
        return NULL;
    *name = span(c, p + 1, (size_t)(close - p - 1));
    return close + 1;
}

/* 1 when [p, e) holds a list the writers cut ("… +N more", view_hybrid.c's render_scalar_list). */
static int is_cut(const char *p, const char *e)
{
    return find(p, e, "…") != NULL || find(p, e, " more") != NULL;
}

/* ---- a component's state and tools ------------------------------------------ */

/* A state value at p: quoted up to its closing quote, else up to the next
 * " key: ", " → " or " disabled" at the end. */
static const char *state_value(const lctx *c, const char *p, const char *stop, perc_span *v)
{
    perc_span n;
    const char *after = quoted_name(c, p, &n);
    if (after && after <= stop) {
        *v = n;
        return after;
    }
    const char *e = p;
    for (; e < stop; e++) {
        if (*e != ' ')
            continue;
        if (starts(e, stop, ARROW) || starts(e, stop, DASH))
            break;
        size_t k = ident_len(e + 1, stop);
        if ((k && e + 1 + k + 1 < stop && e[1 + k] == ':' && e[2 + k] == ' ') ||
            (k == 8 && e + 9 == stop && starts(e + 1, stop, "disabled")))
            break;
    }
    *v = span(c, p, (size_t)(e - p));
    return e;
}

/* " key: value key: value disabled" from p up to stop, the tools' arrow or a
 * description's dash (a quoted value may hold either); returns where it stopped. */
static const char *read_state(lctx *c, const char *p, const char *stop)
{
    while (p < stop && c->l->n_state < MAX_STATE) {
        if (starts(p, stop, ARROW) || starts(p, stop, DASH))
            break;
        if (*p == ' ')
            p++;
        size_t k = ident_len(p, stop);
        if (!k)
            break;
        perc_line_state *st = &c->state[c->l->n_state];
        st->key = span(c, p, k);
        if (p + k + 1 < stop && p[k] == ':' && p[k + 1] == ' ') {
            p = state_value(c, p + k + 2, stop, &st->value);
            st->cut = st->value.s && is_cut(st->value.s, st->value.s + st->value.len);
        } else {
            st->value = (perc_span){0}; /* a flag: "disabled", "read-only" */
            p += k;
        }
        c->l->n_state++;
    }
    if (c->l->n_state == MAX_STATE) {
        /* past the cap the rest of the state is skipped, the tools still read */
        const char *a = find(p, stop, ARROW), *d = find(p, stop, DASH);
        p = a && (!d || a < d) ? a : d ? d : stop;
    }
    return p;
}

/* One param "name?: type, limits" in [p, e). */
static void read_param(lctx *c, const char *p, const char *e, perc_line_param *pm)
{
    memset(pm, 0, sizeof *pm);
    while (p < e && *p == ' ')
        p++;
    const char *n = p;
    /* a name may hold its own brackets ("Prompt me … (or the default undo summary)") */
    for (int depth = 0; n < e && (depth > 0 || !strchr("?:;)", *n)); n++)
        depth += *n == '(' ? 1 : *n == ')' && depth > 0 ? -1 : 0;
    pm->name = span(c, p, (size_t)(n - p));
    if (starts(n, e, PV_OPTIONAL)) {
        pm->optional = 1;
        n += strlen(PV_OPTIONAL);
    }
    if (!starts(n, e, PV_TYPE))
        return;
    n += strlen(PV_TYPE);
    const char *lim = find(n, e, PV_LIMIT_SEP);
    const char *te = lim ? lim : e;
    pm->type = span(c, n, (size_t)(te - n));
    char low[64];
    size_t tl = pm->type.len < sizeof low - 1 ? pm->type.len : 0;
    for (size_t i = 0; i < tl; i++)
        low[i] = (char)tolower((unsigned char)n[i]);
    low[tl] = '\0';
    pm->boolean = pv_type_is_boolean(low);
    if (lim)
        pm->limits = span(c, lim, (size_t)(e - lim));
    pm->cut = is_cut(n, e);
}

/* Splits a tool's args on "; " outside brackets. */
static void read_params(lctx *c, perc_line_tool *t)
{
    const char *p = t->args.s, *e = p + t->args.len;
    if (!t->args.len || perc_span_is(t->args, "…", strlen("…")))
        return;
    perc_line_param *first = &c->params[c->n_params];
    int depth = 0;
    for (const char *q = p; q <= e && c->n_params < MAX_PARAMS; q++) {
        if (q < e && (*q == '[' || *q == '('))
            depth++;
        else if (q < e && (*q == ']' || *q == ')'))
            depth--;
        if (q == e || (!depth && starts(q, e, PV_PARAM_SEP))) {
            read_param(c, p, q, &c->params[c->n_params++]);
            t->n_params++;
            p = q + (q < e ? strlen(PV_PARAM_SEP) : 0);
        }
    }
    t->params = first;
}

/* The end of the parenthesised args opened at p ('('): the matching ')', or
 * the line's last ')' when a value leaves them unbalanced. */
static const char *args_end(const char *p, const char *end)
{
    int depth = 0;
    for (const char *q = p; q < end; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')' && --depth == 0)
            return q;
    }
    for (const char *q = end; q > p; q--)
        if (q[-1] == ')')
            return q - 1;
    return NULL;
}

/* "tool(args) tool()" from p: the tools, then the byte after the last. */
static const char *read_tools(lctx *c, const char *p)
{
    const char *end = c->end;
    while (p < end && c->l->n_tools < MAX_TOOLS) {
        const char *q = p;
        /* tools are space separated ("·" in some hand-written views) */
        while (q < end && (*q == ' ' || starts(q, end, "·")))
            q += *q == ' ' ? 1 : strlen("·");
        size_t k = ident_len(q, end);
        if (!k || q + k >= end || q[k] != '(')
            break;
        const char *close = args_end(q + k, end);
        if (!close)
            break;
        perc_line_tool *t = &c->tools[c->l->n_tools++];
        memset(t, 0, sizeof *t);
        t->name = span(c, q, k);
        t->args = span(c, q + k + 1, (size_t)(close - q - k - 1));
        read_params(c, t);
        p = close + 1;
    }
    return p;
}

/* A component's "fields 'From date', 'To date'" at p (view_hybrid.c render_fields: no name holds
 * a quote) into the line's fields; returns the byte after it. */
static const char *read_fields(lctx *c, const char *p)
{
    perc_line *l = c->l;
    const char *end = c->end;
    if (!starts(p, end, PV_FIELDS "'"))
        return p;
    p += strlen(PV_FIELDS);
    l->fields = c->fields;
    while (p < end && *p == '\'' && l->n_fields < MAX_FIELDS) {
        const char *close = memchr(p + 1, '\'', (size_t)(end - p - 1));
        if (!close)
            break;
        c->fields[l->n_fields++] = span(c, p + 1, (size_t)(close - p - 1));
        p = close + 1;
        if (!starts(p, end, PV_FIELD_SEP "'"))
            break;
        p += strlen(PV_FIELD_SEP);
    }
    return p;
}

/* "[cN] kind 'label' state → tools" or "[cN] tool(args) — description". */
static void read_component(lctx *c, const char *p)
{
    perc_line *l = c->l;
    const char *end = c->end;
    size_t k = ident_len(p, end);
    if (k && p + k < end && p[k] == '(') {
        l->kind = PERC_LINE_PAGE_TOOL;
        const char *q = read_state(c, read_tools(c, p), end);
        if (starts(q, end, DASH))
            l->desc = span(c, q + strlen(DASH), (size_t)(end - q - strlen(DASH)));
        return;
    }
    l->kind = PERC_LINE_COMPONENT;
    l->role = span(c, p, k);
    p += k;
    if (p < end && *p == ' ') {
        const char *after = quoted_name(c, p + 1, &l->name);
        if (after)
            p = after;
    }
    if (starts(p, end, PV_IN_TAB)) {
        const char *after = quoted_name(c, p + strlen(PV_IN_TAB), &l->tab);
        if (after)
            p = after;
    }
    p = read_state(c, read_fields(c, p), end);
    if (starts(p, end, ARROW))
        read_tools(c, p + strlen(ARROW));
}

/* ---- elements and rows ------------------------------------------------------- */

/* "role [12] 'name'" or "role 'name'" at p (pruned), the id after the role;
 * returns the byte after what it read, NULL when p starts no element. */
static const char *read_element(lctx *c, const char *p, perc_line_item *it, int need_mark)
{
    const char *end = c->end;
    size_t k = 0;
    while (p + k < end && isalpha((unsigned char)p[k]))
        k++;
    if (!k || (p + k < end && p[k] != ' '))
        return NULL;
    memset(it, 0, sizeof *it);
    it->role = span(c, p, k);
    const char *q = p + k, *id, *after;
    size_t idn;
    if (q + 1 < end && (after = bracket_id(q + 1, end, &id, &idn))) {
        it->id = span(c, id, idn);
        q = after;
    }
    if (q + 1 < end && (after = quoted_name(c, q + 1, &it->name)))
        q = after;
    if (need_mark && !it->id.s && !it->name.s)
        return NULL;
    return q;
}

static void read_row(lctx *c, const char *p)
{
    perc_line *l = c->l;
    const char *end = c->end;
    l->kind = PERC_LINE_ROW;
    for (p++; p < end && l->n_cells < MAX_CELLS;) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        if (!bar)
            break;
        const char *a = p, *b = bar;
        while (a < b && *a == ' ')
            a++;
        while (b > a && b[-1] == ' ')
            b--;
        c->cells[l->n_cells++] = span(c, a, (size_t)(b - a));
        /* the controls a cell shows inline: "button [14] 'filter'" */
        for (const char *q = a; q < b && l->n_items < MAX_ITEMS; q++) {
            if ((q > a && q[-1] != ' ') || !isalpha((unsigned char)*q))
                continue;
            const char *save = c->end;
            c->end = b;
            const char *after = read_element(c, q, &c->items[l->n_items], 1);
            c->end = save;
            if (after && c->items[l->n_items].id.s) {
                l->n_items++;
                q = after - 1;
            }
        }
        p = bar + 1;
    }
}

/* 1 when [p, p+n) is a role (WAI-ARIA's, Chromium's lower-case ones) the pruned view prints with a
 * property after it, or (alone) one it prints with nothing after it: a role that passes an unnamed
 * node's children up (view_pruned.c's STRUCTURAL: "none", "group") never stands alone, but a table
 * does, and so does a list beside another (a cascade's "menu").  A line of any other word is text
 * ("keys", "none"). */
static int is_role_word(const char *p, size_t n, int alone)
{
    static const char *const ALONE[] = {
        "button", "checkbox", "columnheader", "combobox", "comment", "directory", "feed", "grid", "gridcell",
        "link", "listbox", "menu", "menuitem", "menuitemcheckbox", "menuitemradio", "meter", "option", "progressbar",
        "radio", "rowheader", "scrollbar", "searchbox", "slider", "spinbutton", "switch", "tab", "table",
        "textarea", "textbox", "tooltip", "tree", "treegrid", "treeitem"};
    for (size_t i = 0; alone && i < sizeof ALONE / sizeof *ALONE; i++)
        if (strlen(ALONE[i]) == n && !memcmp(ALONE[i], p, n))
            return 1;
    if (alone)
        return 0;
    static const char *const ROLES[] = {
        "alert", "alertdialog", "application", "article", "banner", "blockquote", "button", "caption", "cell",
        "checkbox", "code", "columnheader", "combobox", "comment", "complementary", "contentdeletion",
        "contentinfo", "contentinsertion", "definition", "deletion", "dialog", "directory", "document", "emphasis",
        "feed", "figure", "form", "generic", "grid", "gridcell", "group", "heading", "image", "img", "insertion",
        "link", "list", "listbox", "listitem", "log", "main", "mark", "marquee", "math", "menu", "menubar",
        "menuitem", "menuitemcheckbox", "menuitemradio", "meter", "navigation", "none", "note", "option",
        "paragraph", "presentation", "progressbar", "radio", "radiogroup", "region", "row", "rowgroup", "rowheader",
        "scrollbar", "search", "searchbox", "section", "sectionfooter", "sectionheader", "separator", "slider",
        "spinbutton", "status", "strong", "subscript", "superscript", "switch", "tab", "table", "tablist",
        "tabpanel", "term", "textarea", "textbox", "time", "timer", "toolbar", "tooltip", "tree", "treegrid",
        "treeitem"};
    for (size_t i = 0; i < sizeof ROLES / sizeof *ROLES; i++)
        if (strlen(ROLES[i]) == n && !memcmp(ROLES[i], p, n))
            return 1;
    return 0;
}

static int is_header(const char *p, const char *end, int depth, size_t index)
{
    if (depth)
        return 0;
    size_t n = (size_t)(end - p);
    return (index == 0 && starts(p, end, "Tab ") && find(p, end, "(current)")) ||
           (n == strlen("not on screen:") && starts(p, end, "not on screen:")) ||
           (n == strlen("page tools:") && starts(p, end, "page tools:"));
}

static void read_line(lctx *c, const char *p, size_t index)
{
    perc_line *l = c->l;
    const char *end = c->end;
    /* a delta's "+ ", "- " and "  " (context) open the line before its tabs (perception/delta.c) */
    if (c->delta && end - p >= 2 && p[1] == ' ' && (*p == '+' || *p == '-' || *p == ' ')) {
        l->mark = *p;
        p += 2;
    }
    while (p < end && *p == '\t') {
        p++;
        l->depth++;
    }
    l->whole = span(c, p, (size_t)(end - p));
    const char *id, *after;
    size_t idn;
    if (is_header(p, end, l->depth, index)) {
        l->kind = PERC_LINE_HEADER;
    } else if (l->mark == '-' && (after = bracket_id(p, end, &id, &idn)) && after == end) {
        l->id = span(c, id, idn); /* a removed component: its id alone */
    } else if (p < end && *p == '|' && end[-1] == '|') {
        read_row(c, p); /* a row opens and closes with a bar ("| a | b |"); text may open with one */
    } else if ((after = bracket_id(p, end, &id, &idn)) && after < end && *after == ' ') {
        l->id = span(c, id, idn);
        l->id_first = 1;
        if (*id == 'c') {
            read_component(c, after + 1);
        } else {
            /* atomic "[12] role 'name' props" */
            size_t k = ident_len(after + 1, end);
            l->kind = PERC_LINE_ELEMENT;
            l->role = span(c, after + 1, k);
            const char *q = after + 1 + k;
            if (q + 1 < end && (after = quoted_name(c, q + 1, &l->name)))
                q = after;
            read_state(c, q, end);
        }
    } else {
        perc_line_item it;
        const char *q = read_element(c, p, &it, 0);
        /* a word alone is a role only when it is one (pruned roles are ARIA's, lower case) and what
         * follows is an element's (a property "expanded: true" or nothing); "keys" and "Hello world:
         * again" are text */
        size_t pk = q && q < end ? ident_len(q + 1, end) : 0;
        int with_prop = pk && q + 1 + pk < end && q[1 + pk] == ':';
        if (q && (it.id.s || it.name.s || (q == end && is_role_word(p, it.role.len, 1)) ||
                  (with_prop && is_role_word(p, it.role.len, 0)))) {
            l->kind = PERC_LINE_ELEMENT;
            l->id = it.id;
            l->role = it.role;
            l->name = it.name;
            read_state(c, q, end);
        }
    }
    if (l->kind == PERC_LINE_ELEMENT || l->kind == PERC_LINE_COMPONENT) {
        c->items[0] = (perc_line_item){.id = l->id, .role = l->role, .name = l->name};
        l->n_items = 1;
    }
}

/* Copies what the line read out of the scratch arrays into the arena. */
static int keep_parts(eous_arena *a, lctx *c)
{
    perc_line *l = c->l;
#define KEEP(field, src, n)                                                   \
    do {                                                                      \
        if (n) {                                                              \
            void *m = eous_arena_alloc(a, (n) * sizeof *(src));               \
            if (!m)                                                           \
                return -1;                                                    \
            memcpy(m, (src), (n) * sizeof *(src));                            \
            l->field = m;                                                     \
        }                                                                     \
    } while (0)
    perc_line_param *params = NULL;
    if (c->n_params) {
        params = eous_arena_alloc(a, c->n_params * sizeof *params);
        if (!params)
            return -1;
        memcpy(params, c->params, c->n_params * sizeof *params);
        /* the tools point at their params in the copy */
        for (size_t i = 0; i < l->n_tools; i++)
            if (c->tools[i].params)
                c->tools[i].params = params + (c->tools[i].params - c->params);
    }
    KEEP(state, c->state, l->n_state);
    KEEP(tools, c->tools, l->n_tools);
    KEEP(cells, c->cells, l->n_cells);
    KEEP(items, c->items, l->n_items);
    KEEP(fields, c->fields, l->n_fields);
#undef KEEP
    return 0;
}

eous_rc perc_lines_read(const char *text, size_t len, perc_lines **out, eous_err *err)
{
    *out = NULL;
    perc_lines *ls = calloc(1, sizeof *ls);
    lctx *c = malloc(sizeof *c);
    size_t n = 1;
    for (size_t i = 0; text && i < len; i++)
        n += text[i] == '\n';
    if (!ls || !c || !(ls->arena = eous_arena_new(0)) || !(ls->lines = calloc(n, sizeof *ls->lines)))
        goto nomem;
    const char *p = text ? text : "", *end = p + (text ? len : 0);
    ls->delta = starts(p, end, DELTA_HEADER);
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        memset(c, 0, offsetof(lctx, state));
        c->n_params = 0;
        c->text = text;
        c->delta = ls->delta;
        c->end = eol ? eol : end;
        c->l = &ls->lines[ls->n];
        read_line(c, p, ls->n);
        if (keep_parts(ls->arena, c))
            goto nomem;
        ls->n++;
        p = eol ? eol + 1 : end;
    }
    free(c);
    *out = ls;
    return EOUS_OK;
nomem:
    free(c);
    perc_lines_free(ls);
    return eous_err_set(err, EOUS_E_NOMEM, "out of memory reading the view's lines");
}

/* ---- lines from the writers' parts (view_lines_int.h) ----------------------- */

/* One written line's parts into c->l (spans in c->text, the line's bytes at p). */
static void line_from_parts(lctx *c, const pv_line *w, const char *p)
{
    perc_line *l = c->l;
    l->kind = w->kind;
    l->depth = w->depth;
    l->id_first = w->id_first;
    l->whole = span(c, p, w->len);
    perc_line_state *st = NULL;
    perc_line_tool *t = NULL;
    for (size_t i = 0; i < w->n_parts; i++) {
        const pv_mark *m = &w->parts[i];
        perc_span sp = span(c, p + m->off, m->len);
        if (m->part == PV_PART_ID)
            l->id = sp;
        else if (m->part == PV_PART_ROLE)
            l->role = sp;
        else if (m->part == PV_PART_NAME)
            l->name = sp;
        else if (m->part == PV_PART_TAB)
            l->tab = sp;
        else if (m->part == PV_PART_DESC)
            l->desc = sp;
        else if (m->part == PV_PART_FIELDS && l->n_fields < MAX_FIELDS) {
            c->fields[l->n_fields++] = sp;
            l->fields = c->fields;
        } else if (m->part == PV_PART_KEY && l->n_state < MAX_STATE) {
            st = &c->state[l->n_state++];
            *st = (perc_line_state){.key = sp};
        } else if (m->part == PV_PART_VALUE && st) {
            st->value = sp;
            st->cut = is_cut(sp.s, sp.s + sp.len);
        } else if (m->part == PV_PART_TOOL && l->n_tools < MAX_TOOLS) {
            t = (perc_line_tool *)&c->tools[l->n_tools++];
            *t = (perc_line_tool){.name = sp};
        } else if (m->part == PV_PART_ARGS && t) {
            t->args = sp;
            read_params(c, t);
        }
    }
    if (l->kind == PERC_LINE_ROW) {
        c->end = p + w->len;
        read_row(c, p);
    }
    if (l->kind == PERC_LINE_ELEMENT || l->kind == PERC_LINE_COMPONENT) {
        c->items[0] = (perc_line_item){.id = l->id, .role = l->role, .name = l->name};
        l->n_items = 1;
    }
}

eous_rc perc_lines_from_parts(const char *text, size_t len, const pv_lines *ls, perc_lines **out, eous_err *err)
{
    *out = NULL;
    perc_lines *r = calloc(1, sizeof *r);
    lctx *c = malloc(sizeof *c);
    if (!r || !c || !(r->arena = eous_arena_new(0)) || !(r->lines = calloc(ls->n + 1, sizeof *r->lines)))
        goto nomem;
    size_t off = 0;
    for (size_t i = 0; i < ls->n; i++) {
        const pv_line *w = &ls->l[i];
        memset(c, 0, offsetof(lctx, state));
        c->n_params = 0;
        c->text = text;
        c->l = &r->lines[r->n];
        off += (size_t)w->depth;
        if (off + w->len > len)
            break; /* text is not the list's rendering: what fits */
        line_from_parts(c, w, text + off);
        if (keep_parts(r->arena, c))
            goto nomem;
        r->n++;
        off += w->len + (size_t)w->newline;
    }
    free(c);
    *out = r;
    return EOUS_OK;
nomem:
    free(c);
    perc_lines_free(r);
    return eous_err_set(err, EOUS_E_NOMEM, "out of memory building the view's lines");
}

void perc_lines_free(perc_lines *l)
{
    if (!l)
        return;
    eous_arena_free(l->arena);
    free(l->lines);
    free(l);
}

int perc_lines_delta(const perc_lines *l)
{
    return l && l->delta;
}

int perc_param_range(const perc_line_param *pm, double *min, double *step)
{
    char lim[128], *e;
    if (!pm->limits.s || pm->limits.len >= sizeof lim)
        return -1;
    memcpy(lim, pm->limits.s, pm->limits.len);
    lim[pm->limits.len] = '\0';
    const char *st = strstr(lim, PV_LIMIT_SEP "step ");
    if (st)
        *step = strtod(st + strlen(PV_LIMIT_SEP "step "), NULL);
    /* the range opens the limits (view_hybrid.c render_limits): ", 1..365"; cut at its ".." (strtod reads "1.") */
    char *lo = lim + strlen(PV_LIMIT_SEP), *dots = strstr(lo, PV_RANGE);
    if (!dots)
        return -1;
    *dots = '\0';
    double v = strtod(lo, &e);
    if (e == lo || *e)
        return -1;
    *min = v;
    return 0;
}

size_t perc_span_items(perc_span value, perc_span *out, size_t max)
{
    static const char SEP[] = " | "; /* view_hybrid.c's list separator */
    size_t n = 0;
    const char *p = value.s, *end = value.s ? value.s + value.len : NULL;
    while (p && p < end && n < max) {
        const char *e = find(p, end, SEP);
        out[n] = (perc_span){.s = p, .off = value.off + (size_t)(p - value.s), .len = (size_t)((e ? e : end) - p)};
        n++;
        p = e ? e + strlen(SEP) : end;
    }
    return n;
}

size_t perc_lines_count(const perc_lines *l)
{
    return l ? l->n : 0;
}

const perc_line *perc_lines_at(const perc_lines *l, size_t i)
{
    return l && i < l->n ? &l->lines[i] : NULL;
}

/* Appends text[from, to) to the buffer, ids (in ascending order) left out. */
static int put_without(eous_buf *b, const char *from, const char *to, const perc_span **ids, size_t n)
{
    const char *p = from;
    for (size_t i = 0; i < n; i++) {
        const char *open = ids[i]->s - 1, *close = ids[i]->s + ids[i]->len + 1;
        if (open < p)
            continue;
        if (eous_buf_append(b, p, (size_t)(open - p), NULL))
            return -1;
        p = close;
        /* "[12] link": the id and its space go; "link [4] 'x'": the space before it stays */
        if (open == from && p < to && *p == ' ')
            p++;
    }
    return eous_buf_append(b, p, (size_t)(to - p), NULL) ? -1 : 0;
}

char *perc_lines_without_ids(const perc_lines *l)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    for (size_t i = 0; l && i < l->n; i++) {
        const perc_line *ln = &l->lines[i];
        const perc_span *ids[MAX_ITEMS + 1];
        size_t n = 0;
        if (ln->id.s && ln->kind != PERC_LINE_ELEMENT && ln->kind != PERC_LINE_COMPONENT)
            ids[n++] = &ln->id; /* a page tool's id is no item */
        for (size_t k = 0; k < ln->n_items && n <= MAX_ITEMS; k++)
            if (ln->items[k].id.s)
                ids[n++] = &ln->items[k].id;
        for (int t = 0; t < ln->depth; t++)
            eous_buf_putc(&b, '\t', NULL);
        if (put_without(&b, ln->whole.s, ln->whole.s + ln->whole.len, ids, n) ||
            (i + 1 < l->n && eous_buf_putc(&b, '\n', NULL))) {
            eous_buf_free(&b);
            return NULL;
        }
    }
    char *s = eous_buf_steal(&b);
    return s ? s : calloc(1, 1);
}

const perc_line *perc_obs_lines(const perc_obs *obs, size_t *n)
{
    *n = perc_lines_count(obs->lines);
    return obs->lines ? obs->lines->lines : NULL;
}

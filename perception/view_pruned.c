/* perception/view_pruned.c — the AgentOccam-style pruned tree.
 *
 * Rules: ignored and unnamed structural nodes pass their children up; only a
 * few informative properties are kept; a text leaf that repeats its parent's
 * name (or an unnamed image) is hidden; a lone text child becomes the name
 * of its unnamed parent; long option lists are folded; tables become markdown
 * rows; lines read "role [id] 'name'" with ids on interactive roles only.
 * The hybrid view (view_hybrid.c) hooks into this traversal where a node
 * belongs to a component. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "perception/view_int.h"

#define MAX_OPTIONS_SHOWN 25

#define MAX_OPTIONS_SHOWN 25

static const char *INTERACTIVE[] = {
    "button", "link", "textbox", "searchbox", "combobox", "listbox", "option", "checkbox", "radio", "switch",
    "slider", "spinbutton", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem", "columnheader",
    "gridcell", "MenuListOption", "PopUpButton", "ToggleButton", "scrollbar", "textarea", "DisclosureTriangle",
    "menuitemcheckbox", "rowheader"};
static const char *STRUCTURAL[] = {
    "generic", "none", "group", "list", "listitem", "paragraph", "Section", "section", "LabelText", "Legend",
    "strong", "emphasis", "article", "main", "banner", "contentinfo", "navigation", "complementary", "region",
    "form", "document", "Div", "Pre", "Abbr", "time", "mark", "Ruby", "figure", "blockquote", "code",
    "DescriptionList", "term", "definition", "ListMarker", "sectionheader", "sectionfooter", "search",
    "subscript", "superscript", "insertion", "deletion", "Canvas", "LayoutTable", "LayoutTableRow",
    "LayoutTableCell", "RootWebArea", "WebArea", "IframePresentational", "Iframe", "presentation", "rowgroup",
    "tabpanel", "separator", "Caption", "caption", "contentdeletion", "contentinsertion", "application", "note",
    "status", "log", "marquee", "timer", "alert", "dialog", "alertdialog", "toolbar", "menu", "menubar", "tree",
    "tablist", "radiogroup", "grid", "treegrid", "table", "row", "cell", "heading", "img", "image", "math",
    "Unknown", "emphasis", "MenuListPopup", "LineBreak"};
static const char *KEEP_PROPS[] = {"checked", "selected", "expanded", "disabled", "required", "pressed",
                                   "valuetext", "invalid", "multiselectable", "modal"};

/* "*", ":" and the like: required-field markers and separators */
static int is_decoration(const char *s)
{
    size_t n = 0;
    if (!s)
        return 1;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == ' ')
            continue;
        if (isalnum(*p) || *p >= 0x80)
            return 0;
        n++;
    }
    return n <= 2;
}

/* A list bullet: one character ('•', '◦', '■', '-'), not a number or letter ("1. ", "a. ", "一、" stay). */
static int is_bullet(const char *s)
{
    while (s && *s == ' ')
        s++;
    if (!s || !*s || isalnum((unsigned char)*s))
        return 0;
    const unsigned char *p = (const unsigned char *)s + 1;
    while ((*p & 0xC0) == 0x80) /* the rest of one UTF-8 character */
        p++;
    while (*p == ' ')
        p++;
    return !*p;
}

static const char *prop_of(const perc_node *n, const char *name)
{
    for (size_t p = 0; p < n->n_props; p++)
        if (!strcmp(n->props[p].name, name))
            return n->props[p].value;
    return NULL;
}

/* no_decoration: n is a link to the same URL under the same name as the one printed right above it */
static int repeats_last_link(const pctx *c, const perc_node *n)
{
    const perc_node *l = c->last_link;
    if (!l || c->b->len != c->last_link_end || pv_is_blank(n->name) || !l->name || strcmp(l->name, n->name))
        return 0;
    const char *u = prop_of(n, "url"), *lu = prop_of(l, "url");
    return u && lu && !strcmp(u, lu);
}

/* no_decoration: n links to a place on this page (its URL is the page's and a
 * #fragment) named as a heading the view prints: a table of contents, whose
 * headings are all there to read (a link only scrolls to its heading) */
static int links_to_a_printed_heading(pctx *c, const perc_node *n)
{
    const char *u = prop_of(n, "url"), *page = c->obs->url, *hash = u ? strchr(u, '#') : NULL;
    if (!hash || !page || pv_is_blank(n->name))
        return 0;
    size_t plen = strcspn(page, "#");
    if ((size_t)(hash - u) != plen || strncmp(u, page, plen))
        return 0;
    if (!c->have_headings) { /* once per view: a page of many anchors stays linear */
        c->have_headings = 1;
        if (perc_strmap_init(&c->headings, c->obs->n_nodes + 1))
            return 0;
        for (size_t i = 0; i < c->obs->n_nodes; i++) {
            const perc_node *h = &c->obs->nodes[i];
            /* what the view prints: not hidden, not folded into a component's line */
            if (!h->hidden && !h->ignored && h->component < 0 && h->role && !strcmp(h->role, "heading") &&
                !pv_is_blank(h->name))
                perc_strmap_put(&c->headings, h->name, (int)i);
        }
    }
    return c->headings.keys && perc_strmap_get(&c->headings, n->name) >= 0;
}

static int is_text(const perc_node *n)
{
    return n->role && (!strcmp(n->role, "StaticText") || !strcmp(n->role, "text"));
}


#define JOIN_TEXT_MAX 60   /* short pieces join; long ones keep paragraphs apart */
#define JOIN_LINE_MAX 200

/* A text line; a short text right after another text line at the same depth
 * continues it (React splits "{n} users, {m} active" into four text nodes). */
static void put_text_line(pctx *c, int depth, const char *text)
{
    size_t n = strlen(text);
    if (c->b->len && c->b->len == c->text_line_end && c->text_line_depth == depth && n < JOIN_TEXT_MAX &&
        c->text_line_len + n < JOIN_LINE_MAX) {
        c->b->len--; /* drop the newline: same line */
        c->b->data[c->b->len] = '\0';
        char last = c->b->len ? c->b->data[c->b->len - 1] : ' ';
        if (last != ' ' && text[0] != ' ')
            pv_put(c, " ");
        c->text_line_len += n + 1;
    } else {
        pv_indent(c, depth);
        c->text_line_len = n;
    }
    pv_put(c, text);
    pv_put(c, "\n");
    c->text_line_end = c->b->len;
    c->text_line_depth = depth;
}

/* Ids in eous's own views are numbered in document order, so the same page
 * gives the same ids in every browser session (Chromium's node ids do not:
 * they depend on when DevTools first saw each node).  Stable ids keep model
 * prompts, and so cassette keys, reproducible. */
static const char *view_id(pctx *c, const perc_node *n)
{
    const char *id = eous_arena_printf(c->view->arena, "%d", ++c->next_id);
    if (!id) {
        c->rc = EOUS_E_NOMEM;
        return "?";
    }
    if (!c->rc)
        c->rc = perc_view_add_id(c->view, id, n->backend_id);
    return id;
}

/* What collect_text gathers under a node. */
enum { CT_TEXT_AND_CONTROLS = 1, CT_CONTROLS };

/* All text under a node, space-joined (for table cells and lone-text merges). */
static void collect_text(pctx *c, int idx, eous_buf *t, int with_controls, int level)
{
    const perc_node *n = &c->obs->nodes[idx];
    if (n->hidden)
        return;
    if (level > PERC_MAX_DEPTH) {
        c->view->depth_capped = 1;
        return;
    }
    if (is_text(n)) {
        if (with_controls != CT_CONTROLS && n->name && !pv_is_blank(n->name)) {
            if (t->len)
                eous_buf_putc(t, ' ', NULL);
            eous_buf_puts(t, n->name, NULL);
        }
        return;
    }
    if (with_controls && !n->ignored && IN(n->role, INTERACTIVE) && n->backend_id) {
        if (t->len)
            eous_buf_putc(t, ' ', NULL);
        eous_buf_printf(t, NULL, "%s [%s]", n->role, view_id(c, n));
        if (n->name && *n->name)
            eous_buf_printf(t, NULL, " '%s'", n->name);
        /* its text is its name; the controls inside it are other targets */
        if (c->hooks && c->hooks->nested_cell_controls)
            for (size_t k = 0; k < n->n_children; k++)
                collect_text(c, n->children[k], t, CT_CONTROLS, level + 1);
        return;
    }
    for (size_t k = 0; k < n->n_children; k++)
        collect_text(c, n->children[k], t, with_controls, level + 1);
}

static void props(pctx *c, const perc_node *n)
{
    if (n->value && *n->value) {
        pv_put(c, " ");
        pv_put_part(c, PV_PART_KEY, "value");
        pv_put(c, ": ");
        pv_put_quoted_part(c, PV_PART_VALUE, n->value, 200);
    }
    for (size_t p = 0; p < n->n_props; p++) {
        const perc_prop *pp = &n->props[p];
        if (!IN(pp->name, KEEP_PROPS))
            continue;
        if (!strcmp(pp->value, "False") || !strcmp(pp->value, "false")) {
            if (strcmp(pp->name, "expanded") && strcmp(pp->name, "checked"))
                continue;
        }
        if (!strcmp(pp->name, "invalid") && !strcmp(pp->value, "false"))
            continue;
        pv_put(c, " ");
        pv_put_part(c, PV_PART_KEY, pp->name);
        pv_put(c, ": ");
        pv_put_part(c, PV_PART_VALUE,
                    !strcmp(pp->value, "True") ? "true" : !strcmp(pp->value, "False") ? "false" : pp->value);
    }
}

/* ---- pruned traversal --------------------------------------------------------- */

void pv_render(pctx *c, int idx, int depth, const char *parent_name);

void pv_render_children(pctx *c, const perc_node *n, int depth, const char *name)
{
    for (size_t k = 0; k < n->n_children && !c->rc; k++)
        pv_render(c, n->children[k], depth, name);
}

static int push(int **stack, size_t *cap, size_t *sp, int v)
{
    if (*sp == *cap) {
        int *g = realloc(*stack, *cap * 2 * sizeof *g);
        if (!g)
            return 0;
        *stack = g;
        *cap *= 2;
    }
    (*stack)[(*sp)++] = v;
    return 1;
}

static void render_table(pctx *c, const perc_node *table, int depth)
{
    /* rows → "| a | b |"; interactive cells keep their ids inline */
    pv_indent(c, depth);
    pv_start_line(c, PERC_LINE_ELEMENT, 0);
    pv_put_part(c, PV_PART_ROLE, "table");
    if (table->name && *table->name) {
        pv_put(c, " ");
        pv_put_quoted_part(c, PV_PART_NAME, table->name, 120);
    }
    pv_put(c, "\n");
    /* find rows in document order (rows may sit inside rowgroups); the
     * stack grows with the table, not with the page */
    size_t cap = 64, sp = 0;
    int *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return;
    for (size_t k = table->n_children; k-- > 0;)
        if (!push(&stack, &cap, &sp, table->children[k]))
            goto out;
    while (sp && !c->rc) {
        int i = stack[--sp];
        const perc_node *n = &c->obs->nodes[i];
        if (n->hidden || c->seen[i])
            continue;
        c->seen[i] = 1;
        if (n->role && !strcmp(n->role, "row")) {
            pv_indent(c, depth + 1);
            pv_start_line(c, PERC_LINE_ROW, 0);
            pv_put(c, "|");
            for (size_t k = 0; k < n->n_children && !c->rc; k++) {
                const perc_node *cell = &c->obs->nodes[n->children[k]];
                if (cell->hidden)
                    continue;
                eous_buf t;
                eous_buf_init(&t, 1 << 20);
                collect_text(c, n->children[k], &t, CT_TEXT_AND_CONTROLS, 0);
                pv_put(c, " ");
                pv_put(c, t.data ? t.data : "");
                pv_put(c, " |");
                eous_buf_free(&t);
            }
            pv_put(c, "\n");
            continue;
        }
        for (size_t k = n->n_children; k-- > 0;)
            if (!push(&stack, &cap, &sp, n->children[k]))
                goto out;
    }
out:
    free(stack);
}

static void render_inner(pctx *c, int idx, int depth, const char *parent_name);

void pv_render(pctx *c, int idx, int depth, const char *parent_name)
{
    if (c->rc || c->seen[idx])
        return;
    if (c->level > PERC_MAX_DEPTH) {
        c->view->depth_capped = 1;
        return;
    }
    c->level++;
    render_inner(c, idx, depth, parent_name);
    c->level--;
}

/* A text node: blank and decoration text, text that repeats the parent's
 * name and (in hybrid) a field's label already on its triplet are dropped. */
static void render_text(pctx *c, const perc_node *n, int depth, const char *parent_name)
{
    if (pv_is_blank(n->name) || is_decoration(n->name))
        return;
    if (parent_name && n->name && strstr(parent_name, n->name))
        return;
    if (c->hooks && c->hooks->is_label(c, n->name))
        return;
    put_text_line(c, depth, n->name);
}

/* A listbox or menu's children, its options folded after MAX_OPTIONS_SHOWN. */
static void render_options(pctx *c, const perc_node *n, int depth, const char *name)
{
    size_t shown = 0, total = 0;
    for (size_t k = 0; k < n->n_children; k++) {
        const perc_node *ch = &c->obs->nodes[n->children[k]];
        if (ch->role && (!strcmp(ch->role, "option") || !strcmp(ch->role, "menuitem")))
            total++;
    }
    for (size_t k = 0; k < n->n_children && !c->rc; k++) {
        const perc_node *ch = &c->obs->nodes[n->children[k]];
        int is_opt = ch->role && (!strcmp(ch->role, "option") || !strcmp(ch->role, "menuitem"));
        if (is_opt && shown >= MAX_OPTIONS_SHOWN)
            continue;
        if (is_opt)
            shown++;
        pv_render(c, n->children[k], depth + 1, name);
    }
    if (total > shown) {
        pv_indent(c, depth + 1);
        if (!c->rc)
            c->rc = eous_buf_printf(c->b, c->err, "… %zu more options (type to filter)\n", total - shown);
    }
}

/* 1 when n (a menu, listbox or tree) has a sibling list: the columns of a
 * cascade, whose items would read as one list without their lines. */
static int beside_a_list(const pctx *c, const perc_node *n)
{
    static const char *LISTS[] = {"menu", "listbox", "tree"};
    if (!n->role || !IN(n->role, LISTS) || n->parent < 0)
        return 0;
    const perc_node *p = &c->obs->nodes[n->parent];
    for (size_t k = 0; k < p->n_children; k++) {
        const perc_node *s = &c->obs->nodes[p->children[k]];
        if (s != n && !s->hidden && s->role && IN(s->role, LISTS))
            return 1;
    }
    return 0;
}

static void render_inner(pctx *c, int idx, int depth, const char *parent_name)
{
    c->seen[idx] = 1;
    const perc_node *n = &c->obs->nodes[idx];
    if (n->hidden)
        return;
    if (c->hooks && n->component >= 0 && c->hooks->node(c, idx, depth))
        return;
    const char *role = n->role ? n->role : "";
    if (n->ignored || !n->role) {
        pv_render_children(c, n, depth, parent_name);
        return;
    }
    if (is_text(n)) {
        render_text(c, n, depth, parent_name);
        return;
    }
    if (!strcmp(role, "table") || !strcmp(role, "grid") || !strcmp(role, "treegrid")) {
        render_table(c, n, depth);
        return;
    }
    if ((!strcmp(role, "img") || !strcmp(role, "image")) && pv_is_blank(n->name))
        return;
    int tidy = c->hooks && c->hooks->no_decoration;
    if (tidy && ((!strcmp(role, "ListMarker") && is_bullet(n->name)) ||
                 ((!strcmp(role, "img") || !strcmp(role, "image")) && parent_name && strstr(parent_name, n->name)) ||
                 (!strcmp(role, "link") && (repeats_last_link(c, n) || links_to_a_printed_heading(c, n)))))
        return;
    if (tidy && !strcmp(role, "heading") && parent_name && n->name && !strcmp(parent_name, n->name)) {
        pv_render_children(c, n, depth, parent_name); /* navigation 'Page Tools' > heading 'Page Tools' */
        return;
    }
    /* with its bullet left out, a list item's text would join the item above: each starts a line */
    if (tidy && !strcmp(role, "listitem"))
        c->text_line_end = 0;
    int interactive = IN(role, INTERACTIVE);
    const char *name = n->name;
    int merged = 0;
    /* a lone text child becomes the name of an unnamed parent */
    if (pv_is_blank(name) && n->n_children == 1 && is_text(&c->obs->nodes[n->children[0]]) &&
        !c->obs->nodes[n->children[0]].hidden && !pv_is_blank(c->obs->nodes[n->children[0]].name)) {
        name = c->obs->nodes[n->children[0]].name;
        merged = 1;
    }
    int structural = !interactive && IN(role, STRUCTURAL);
    int has_props = 0;
    for (size_t p = 0; p < n->n_props; p++)
        if (IN(n->props[p].name, KEEP_PROPS) && strcmp(n->props[p].value, "False") && strcmp(n->props[p].value, "false"))
            has_props = 1;
    if (structural && (pv_is_blank(name) || !strcmp(role, "generic") || !strcmp(role, "none") ||
                       !strcmp(role, "paragraph") || !strcmp(role, "listitem") || !strcmp(role, "LabelText") ||
                       !strcmp(role, "RootWebArea") || !strcmp(role, "cell") || !strcmp(role, "row"))) {
        if (merged && !has_props) {
            /* unnamed wrapper around one text: print the text */
            if (!(parent_name && strstr(parent_name, name)) && !is_decoration(name) &&
                !(c->hooks && c->hooks->is_label(c, name)))
                put_text_line(c, depth, name);
            c->seen[n->children[0]] = 1;
            return;
        }
        /* no_decoration's view keeps an unnamed list's line beside another list */
        if (!has_props && !(tidy && pv_is_blank(name) && beside_a_list(c, n))) {
            pv_render_children(c, n, depth, parent_name);
            if (tidy && !strcmp(role, "listitem"))
                c->text_line_end = 0; /* nor does the text after the list join its last item */
            return;
        }
    }
    pv_indent(c, depth);
    pv_start_line(c, PERC_LINE_ELEMENT, 0);
    pv_put_part(c, PV_PART_ROLE, role);
    if (interactive && n->backend_id) {
        pv_put(c, " [");
        pv_put_part(c, PV_PART_ID, view_id(c, n));
        pv_put(c, "]");
    }
    if (!pv_is_blank(name)) {
        pv_put(c, " ");
        pv_put_quoted_part(c, PV_PART_NAME, name, 200);
    }
    props(c, n);
    pv_put(c, "\n");
    if (merged) {
        c->seen[n->children[0]] = 1;
        return;
    }
    if (!strcmp(role, "listbox") || !strcmp(role, "menu") || !strcmp(role, "MenuListPopup")) {
        render_options(c, n, depth, name);
        return;
    }
    pv_render_children(c, n, depth + 1, pv_is_blank(name) ? parent_name : name);
    if (tidy && !strcmp(role, "link")) {
        c->last_link = n;
        c->last_link_end = c->b->len;
    }
}

eous_rc pv_render_view(const perc_obs *obs, const pv_hooks *hooks, perc_view *view, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    pctx c;
    memset(&c, 0, sizeof c);
    c.obs = obs;
    c.view = view;
    c.b = &b;
    c.view_b = &b;
    c.err = err;
    c.hooks = hooks;
    c.seen = calloc(obs->n_nodes + 1, 1);
    c.emitted = calloc(obs->n_comps + 1, 1);
    if (!c.seen || !c.emitted) {
        c.rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    pv_start_line(&c, PERC_LINE_HEADER, 0);
    c.rc = perc_put_tab_header(&b, obs, err);
    if (!c.rc)
        c.rc = eous_buf_puts(&b, "\n\n", err);
    if (obs->n_nodes)
        pv_render(&c, 0, 0, NULL);
    if (hooks && !c.rc)
        hooks->page_tools(&c);
done:
    if (c.have_headings)
        perc_strmap_free(&c.headings);
    free(c.seen);
    free(c.emitted);
    if (!c.rc)
        c.rc = perc_view_from_marks(view, &b, &c.marks, err);
    pv_marks_free(&c.marks);
    eous_buf_free(&b);
    return c.rc;
}

eous_rc perc_render_pruned(const perc_obs *obs, perc_view *view, eous_err *err)
{
    return pv_render_view(obs, NULL, view, err);
}

/* perception/view_pruned.c — the AgentOccam-style pruned tree and the hybrid
 * view built on it.
 *
 * Pruned rules: ignored and unnamed structural nodes pass their children up;
 * only a few informative properties are kept; a text leaf that repeats its
 * parent's name (or an unnamed image) is hidden; a lone text child becomes
 * the name of its unnamed parent; long option lists are folded; tables become
 * markdown rows; lines read "role [id] 'name'" with ids on interactive roles
 * only.  Hybrid: each component's data-cid subtree and data-cid-owner portals
 * become ONE triplet node (state line + tools line) in place; containers
 * (table, form, tabs, modal, drawer) keep their pruned content beneath it. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "perception/percint.h"

#define MAX_OPTIONS_SHOWN 25
#define MAX_STATE_VALUE 160

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
static const char *CONSTRAINT_KEYS[] = {"format", "min", "max", "minDate", "maxDate", "disabledDates", "step",
                                        "minuteStep", "disabledValues"};
static const char *CONTAINER_KINDS[] = {"table", "form", "tabs", "modal", "drawer", "card", "collapse", "list",
                                        "layout", "wizard"};

static int in_list(const char *s, const char **list, size_t n)
{
    if (!s)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}
#define IN(s, L) in_list((s), (L), sizeof(L) / sizeof *(L))

static int is_blank(const char *s)
{
    if (!s)
        return 1;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && !(p[0] == 0xC2 && p[1] == 0xA0 && p++))
            return 0;
    return 1;
}

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

static int is_text(const perc_node *n)
{
    return n->role && (!strcmp(n->role, "StaticText") || !strcmp(n->role, "text"));
}

typedef struct pctx {
    perc_obs *obs;
    eous_buf *b;
    eous_err *err;
    eous_rc rc;
    int hybrid;
    unsigned char *seen;       /* node visited */
    unsigned char *emitted;    /* component triplet emitted */
    int next_cid;
    int in_table;
    int level;                 /* recursion level, bounded by PERC_MAX_DEPTH */
    int next_id;               /* last document-order id handed out */
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
} pctx;

static void put(pctx *c, const char *s)
{
    if (!c->rc)
        c->rc = eous_buf_puts(c->b, s, c->err);
}

static void indent(pctx *c, int depth)
{
    for (int i = 0; i < depth && !c->rc; i++)
        c->rc = eous_buf_putc(c->b, '\t', c->err);
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
            put(c, " ");
        c->text_line_len += n + 1;
    } else {
        indent(c, depth);
        c->text_line_len = n;
    }
    put(c, text);
    put(c, "\n");
    c->text_line_end = c->b->len;
    c->text_line_depth = depth;
}

static int is_component_label(pctx *c, const char *text)
{
    if (!text)
        return 0;
    while (*text == ' ')
        text++;
    size_t n = strlen(text);
    while (n && text[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < c->obs->n_comps; i++) {
        const char *l = c->obs->comps[i].label;
        if (l && strlen(l) == n && n && !strncasecmp(l, text, n))
            return 1;
    }
    return 0;
}

/* Text on one line: newlines and tabs become spaces (in a table cell, '|'
 * becomes '/'), cut after max characters (code points: a cut never splits
 * a UTF-8 sequence, which would make the prompt invalid JSON text). */
static void put_flat(pctx *c, const char *s, size_t max, int in_cell)
{
    size_t n = 0;
    for (const char *p = s; *p && !c->rc; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80 && n++ >= max) {
            put(c, "…");
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
static void put_quoted(pctx *c, const char *s, size_t max)
{
    put(c, "'");
    put_flat(c, s, max, 0);
    put(c, "'");
}

/* Ids in eous's own views are numbered in document order, so the same page
 * gives the same ids in every browser session (Chromium's node ids do not:
 * they depend on when DevTools first saw each node).  Stable ids keep model
 * prompts, and so cassette keys, reproducible. */
static const char *view_id(pctx *c, const perc_node *n)
{
    const char *id = eous_arena_printf(c->obs->arena, "%d", ++c->next_id);
    if (!id) {
        c->rc = EOUS_E_NOMEM;
        return "?";
    }
    if (!c->rc)
        c->rc = perc_obs_add_id(c->obs, id, n->backend_id);
    return id;
}

/* All text under a node, space-joined (for table cells and lone-text merges). */
static void collect_text(pctx *c, int idx, eous_buf *t, int with_controls, int level)
{
    const perc_node *n = &c->obs->nodes[idx];
    if (n->hidden)
        return;
    if (level > PERC_MAX_DEPTH) {
        c->obs->depth_capped = 1;
        return;
    }
    if (is_text(n)) {
        if (n->name && !is_blank(n->name)) {
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
        return;
    }
    for (size_t k = 0; k < n->n_children; k++)
        collect_text(c, n->children[k], t, with_controls, level + 1);
}

static void props(pctx *c, const perc_node *n)
{
    if (n->value && *n->value) {
        put(c, " value: ");
        put_quoted(c, n->value, 200);
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
        if (!c->rc)
            c->rc = eous_buf_printf(c->b, c->err, " %s: %s", pp->name,
                                    !strcmp(pp->value, "True") ? "true" : !strcmp(pp->value, "False") ? "false" : pp->value);
    }
}

/* ---- triplet rendering --------------------------------------------------------- */

static void put_json_short(pctx *c, const cJSON *v, size_t max)
{
    if (cJSON_IsString(v)) {
        put_quoted(c, v->valuestring, max);
        return;
    }
    char *s = cJSON_PrintUnformatted(v);
    if (!s)
        return;
    if (strlen(s) > max) {
        s[eous_utf8_cut(s, max)] = '\0';
        put(c, s);
        put(c, "…");
    } else {
        put(c, s);
    }
    free(s);
}

static int is_container(const perc_component *comp);

static int repeats_earlier_key(const cJSON *state, const cJSON *item)
{
    if (!item->child && !cJSON_IsString(item))
        return 0; /* short scalars (numbers, booleans) are cheap and often coincide */
    for (const cJSON *e = state->child; e && e != item; e = e->next)
        if (cJSON_Compare(e, item, 1))
            return 1;
    return 0;
}

/* A table component whose state carries its rows (objects with a "key"):
 * the hybrid view prints those rows, keys first, instead of the table's DOM,
 * so the keys that sort/selectRows/rowAction take are on screen and the
 * table's own checkboxes, pager and header buttons (all covered by its tools)
 * cost nothing.  NULL when the rows are not in the state. */
static const cJSON *state_rows(const perc_component *comp)
{
    if (!comp->kind || strcmp(comp->kind, "table"))
        return NULL;
    const cJSON *rows = eous_json_arr(comp->state, "rows");
    if (!rows)
        return NULL;
    const cJSON *r;
    cJSON_ArrayForEach(r, rows) if (!cJSON_IsObject(r) || !eous_json_str(r, "key")) return NULL;
    return rows;
}

/* Equal as words: case aside, and ' ', '-', '_' alike ("Junior Suite" is
 * "junior-suite"). */
static int same_words(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);
        if (x == '-' || x == '_')
            x = ' ';
        if (y == '-' || y == '_')
            y = ' ';
        if (x != y)
            return 0;
        if (!x)
            return 1;
    }
}

/* Same values as a tool's enum, in order: strings as words, option objects by
 * their value/key exactly.  *labelled: some option's label says more than
 * its value ("booking" is "Travel booking"), so the enum prints value=Label. */
static int same_values(const cJSON *arr, const cJSON *en, int *labelled)
{
    *labelled = 0;
    /* the state may hold the first page of a long option list: a prefix counts */
    int na = cJSON_GetArraySize(arr), ne = cJSON_GetArraySize(en);
    if (!na || na > ne || (na < ne && na < 4)) /* a short prefix may be a coincidence */
        return 0;
    const cJSON *v = en->child;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        if (!cJSON_IsString(v))
            return 0;
        if (cJSON_IsString(e)) {
            if (!same_words(e->valuestring, v->valuestring))
                return 0;
        } else if (cJSON_IsObject(e)) {
            const char *val = eous_json_str(e, "value");
            const char *label = eous_json_str(e, "label");
            if (!val)
                val = eous_json_str(e, "key");
            if (!label)
                label = eous_json_str(e, "title");
            if (!val || strcmp(val, v->valuestring))
                return 0;
            if (label && !same_words(label, val))
                *labelled = 1;
        } else {
            return 0;
        }
        v = v->next;
    }
    return 1;
}

/* arr: the enum of one of the component's tool parameters with the same
 * values, or starting with them (any length: a long enum prints its head, the
 * state list would print the same head again).  count (arr NULL): an enum of that many values,
 * short enough to print in full (render_enum shows 15).  NULL if none. */
static const cJSON *tool_enum_like(const perc_component *comp, const cJSON *arr, int count, int *labelled)
{
    const cJSON *tm;
    *labelled = 0;
    cJSON_ArrayForEach(tm, comp->metadata) {
        const cJSON *params = eous_json_obj(tm, "params");
        if (!params) {
            const cJSON *schema = eous_json_obj(tm, "inputSchema");
            params = schema ? eous_json_obj(schema, "properties") : NULL;
        }
        const cJSON *p;
        cJSON_ArrayForEach(p, params) {
            const cJSON *en = eous_json_arr(p, "enum");
            if (!en) {
                const cJSON *items = eous_json_obj(p, "items");
                en = items ? eous_json_arr(items, "enum") : NULL;
            }
            if (!en)
                continue;
            if (arr ? same_values(arr, en, labelled) : cJSON_GetArraySize(en) == count && count <= 15)
                return en;
        }
    }
    return NULL;
}

/* Does one of the component's tool parameters have this maximum?  (A
 * pager's pageCount is goToPage's upper bound, already on the tools line.) */
static int tool_max_is(const perc_component *comp, double value)
{
    const cJSON *tm;
    cJSON_ArrayForEach(tm, comp->metadata) {
        const cJSON *p;
        cJSON_ArrayForEach(p, eous_json_obj(tm, "params")) {
            const cJSON *mx = cJSON_GetObjectItemCaseSensitive(p, "max");
            if (!mx)
                mx = cJSON_GetObjectItemCaseSensitive(p, "maximum");
            if (cJSON_IsNumber(mx) && mx->valuedouble == value)
                return 1;
        }
    }
    return 0;
}

/* State keys that hold what is chosen now, never dropped as "listed by a tool"
 * (all five boxes checked is a value equal to the enum, and it is news). */
static int is_current_value_key(const char *k)
{
    static const char *PREFIXES[] = {"value", "selected", "checked", "expanded", "active", "open", "current"};
    for (size_t i = 0; i < sizeof PREFIXES / sizeof *PREFIXES; i++)
        if (!strncmp(k, PREFIXES[i], strlen(PREFIXES[i])))
            return 1;
    return 0;
}

static void render_state(pctx *c, const perc_component *comp, int brief)
{
    const cJSON *rows = state_rows(comp);
    const cJSON *it;
    cJSON_ArrayForEach(it, comp->state) {
        const char *k = it->string;
        if (!k || !strcmp(k, "label") || !strcmp(k, "kind") || !strcmp(k, "key") || !strcmp(k, "disabled"))
            continue;
        if (cJSON_IsNull(it) || (cJSON_IsString(it) && !*it->valuestring) ||
            ((cJSON_IsArray(it) || cJSON_IsObject(it)) && !it->child))
            continue;
        if (cJSON_IsBool(it) && !cJSON_IsTrue(it) && strcmp(k, "value") && strcmp(k, "checked") && strcmp(k, "open"))
            continue;
        /* the rows printed beneath the triplet carry the column keys */
        if (rows && rows->child && !strcmp(k, "columns"))
            continue;
        /* constraints are shown once, on the tools line */
        if (IN(k, CONSTRAINT_KEYS))
            continue;
        /* a button's text repeats its label */
        if (cJSON_IsString(it) && comp->label && !strcmp(it->valuestring, comp->label))
            continue;
        /* containers show their rows beneath the triplet: no JSON copy of them */
        if (is_container(comp) && cJSON_IsArray(it) && cJSON_IsObject(it->child) &&
            !eous_json_str(it->child, "label") && !eous_json_str(it->child, "title"))
            continue;
        /* a form's field values are on its fields' own triplets beneath it */
        if (comp->kind && !strcmp(comp->kind, "form") && !strcmp(k, "values") && cJSON_IsObject(it))
            continue;
        /* a list of choices the tools line prints as an enum (options equal
         * to their values, tab keys, row actions), and its count */
        int labelled = 0;
        const cJSON *en = !is_current_value_key(k) && cJSON_IsArray(it) ? tool_enum_like(comp, it, 0, &labelled) : NULL;
        if (en) {
            /* the tools line prints the labels that say more than their values */
            if (labelled && c->n_labelled < 16) {
                c->labelled_enums[c->n_labelled] = en;
                c->labelled_options[c->n_labelled++] = it;
            }
            continue;
        }
        if (!strcmp(k, "optionCount") && cJSON_IsNumber(it) && tool_enum_like(comp, NULL, it->valueint, &labelled))
            continue;
        if (!strcmp(k, "pageCount") && cJSON_IsNumber(it) && tool_max_is(comp, it->valuedouble))
            continue;
        /* off screen: what it holds now, not every choice it offers (the
         * choices show once it is on screen; a wrong value gets them back) */
        if (brief && !is_current_value_key(k) && cJSON_IsArray(it) && cJSON_IsObject(it->child) &&
            (eous_json_str(it->child, "label") || eous_json_str(it->child, "title")))
            continue;
        /* valueLabel equal to value (and the like) says nothing new */
        if (repeats_earlier_key(comp->state, it))
            continue;
        put(c, " ");
        put(c, k);
        put(c, ": ");
        if (cJSON_IsArray(it)) {
            int n = cJSON_GetArraySize(it), shown = 0;
            const cJSON *first = it->child;
            if (cJSON_IsObject(first) && (eous_json_str(first, "label") || eous_json_str(first, "title"))) {
                /* option-like objects: their labels say enough */
                const cJSON *e;
                cJSON_ArrayForEach(e, it) {
                    if (shown == 12) {
                        if (!c->rc)
                            c->rc = eous_buf_printf(c->b, c->err, " … +%d more", n - shown);
                        break;
                    }
                    const char *l = eous_json_str(e, "label");
                    if (!l)
                        l = eous_json_str(e, "title");
                    if (shown++)
                        put(c, " | ");
                    put(c, l ? l : "?");
                }
                continue;
            }
            if (cJSON_IsObject(first) || cJSON_IsArray(first)) {
                put_json_short(c, it, MAX_STATE_VALUE);
                continue;
            }
            const cJSON *e;
            cJSON_ArrayForEach(e, it) {
                if (shown == 12) {
                    if (!c->rc)
                        c->rc = eous_buf_printf(c->b, c->err, " … +%d more", n - shown);
                    break;
                }
                if (shown++)
                    put(c, " | ");
                if (cJSON_IsString(e))
                    put(c, e->valuestring);
                else
                    put_json_short(c, e, 60);
            }
            continue;
        }
        if (cJSON_IsString(it)) {
            put_quoted(c, it->valuestring, MAX_STATE_VALUE);
            continue;
        }
        put_json_short(c, it, MAX_STATE_VALUE);
    }
    if (comp->disabled)
        put(c, " disabled");
}

/* "a|b|… +N more".  options (an enum's option objects from the state, or
 * NULL) add "=Label" where a label says more than its value:
 * "home|booking=Travel booking|…". */
static void render_scalar_list(pctx *c, const cJSON *arr, int max, const char *sep, const cJSON *options)
{
    int n = cJSON_GetArraySize(arr), shown = 0;
    const cJSON *o = options ? options->child : NULL;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        if (shown == max) {
            if (!c->rc)
                c->rc = eous_buf_printf(c->b, c->err, "%s… +%d more", sep, n - shown);
            break;
        }
        if (shown++)
            put(c, sep);
        if (cJSON_IsString(e))
            put(c, e->valuestring);
        else
            put_json_short(c, e, 40);
        const char *label = o ? eous_json_str(o, "label") : NULL;
        if (o && !label)
            label = eous_json_str(o, "title");
        if (label && cJSON_IsString(e) && !same_words(label, e->valuestring)) {
            put(c, "=");
            put(c, label);
        }
        o = o ? o->next : NULL;
    }
}

/* "as in c6.setValue" when another component's tools printed this list
 * already (check-in and check-out share their blackout dates); 0 if not,
 * after remembering it as this tool's. */
static int refer_to_view_list(pctx *c, const cJSON *list)
{
    for (int i = 0; i < c->n_view_lists; i++)
        if (cJSON_Compare(c->view_lists[i], list, 1)) {
            put(c, "as in ");
            put(c, c->view_list_refs[i]);
            return 1;
        }
    if (c->n_view_lists < 64 && c->cur_comp && c->cur_tool) {
        const char *ref = eous_arena_printf(c->obs->arena, "%s.%s", c->cur_comp, c->cur_tool);
        if (ref) {
            c->view_lists[c->n_view_lists] = list;
            c->view_list_refs[c->n_view_lists++] = ref;
        }
    }
    return 0;
}

/* Prints an enum list, or "as in TOOL" when this tools line printed the same
 * list already (select/deselect/setValue of one component share options), or
 * "as in cN.TOOL" when another component's did. */
static void render_enum(pctx *c, const cJSON *en)
{
    if (cJSON_GetArraySize(en) >= 4) {
        for (int i = 0; i < c->n_line_enums; i++)
            if (cJSON_Compare(c->line_enums[i], en, 1)) {
                put(c, "as in ");
                put(c, c->line_enum_tools[i]);
                return;
            }
        if (c->n_line_enums < 8) {
            c->line_enums[c->n_line_enums] = en;
            c->line_enum_tools[c->n_line_enums++] = c->cur_tool;
        }
        if (refer_to_view_list(c, en))
            return;
    }
    const cJSON *options = NULL;
    for (int i = 0; i < c->n_labelled && !options; i++)
        if (c->labelled_enums[i] == en)
            options = c->labelled_options[i];
    render_scalar_list(c, en, 15, "|", options);
}

static void render_param(pctx *c, const char *name, const cJSON *spec, int required)
{
    put(c, name);
    if (!required)
        put(c, "?");
    put(c, ": ");
    const char *fmt = eous_json_str(spec, "format");
    const char *type = eous_json_str(spec, "type");
    const cJSON *en = eous_json_arr(spec, "enum");
    if (en) {
        render_enum(c, en);
    } else if (fmt) {
        put(c, fmt);
    } else if (type && !strcmp(type, "array")) {
        const cJSON *items = eous_json_obj(spec, "items");
        const cJSON *ien = items ? eous_json_arr(items, "enum") : NULL;
        const char *ifmt = items ? eous_json_str(items, "format") : NULL;
        const char *itype = items ? eous_json_str(items, "type") : NULL;
        put(c, "[");
        if (ien)
            render_enum(c, ien);
        else
            put(c, ifmt ? ifmt : itype ? itype : "any");
        put(c, "]");
    } else {
        put(c, type ? type : "any");
    }
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(spec, "min");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(spec, "max");
    if (!mn)
        mn = cJSON_GetObjectItemCaseSensitive(spec, "minimum");
    if (!mx)
        mx = cJSON_GetObjectItemCaseSensitive(spec, "maximum");
    if (mn || mx) {
        put(c, ", ");
        if (mn)
            put(c, cJSON_IsString(mn) ? mn->valuestring : ""), cJSON_IsString(mn) ? (void)0 : put_json_short(c, mn, 30);
        put(c, "..");
        if (mx)
            put(c, cJSON_IsString(mx) ? mx->valuestring : ""), cJSON_IsString(mx) ? (void)0 : put_json_short(c, mx, 30);
    }
    const cJSON *dis = eous_json_arr(spec, "disabled");
    if (dis && cJSON_GetArraySize(dis) > 0) {
        put(c, ", not ");
        if (cJSON_GetArraySize(dis) < 4 || !refer_to_view_list(c, dis))
            render_scalar_list(c, dis, 6, ", ", NULL);
    }
}

/* brief: tool names only, for components not on screen right now (their
 * state line stays; a call with wrong params gets the signature back from
 * the validator), which keeps closed tabs and popups from costing tokens. */
static void render_tool_list(pctx *c, const perc_component *comp, int brief)
{
    c->n_line_enums = 0;
    c->cur_comp = comp->view_id;
    int first = 1;
    const cJSON *t;
    cJSON_ArrayForEach(t, comp->tools) {
        const char *name = cJSON_IsString(t) ? t->valuestring : eous_json_str(t, "name");
        if (!name)
            continue;
        if (!first)
            put(c, " · ");
        first = 0;
        put(c, name);
        if (brief) {
            const cJSON *bm = eous_json_obj(comp->metadata, name);
            const cJSON *bp = bm ? eous_json_obj(bm, "params") : NULL;
            put(c, bp && bp->child ? "(…)" : "()");
            continue;
        }
        c->cur_tool = name;
        put(c, "(");
        const cJSON *meta = eous_json_obj(comp->metadata, name);
        const cJSON *params = meta ? eous_json_obj(meta, "params") : NULL;
        const cJSON *schema = meta ? eous_json_obj(meta, "inputSchema") : NULL;
        const cJSON *req = NULL;
        if (!params && schema) {
            params = eous_json_obj(schema, "properties");
            req = eous_json_arr(schema, "required");
        }
        int pfirst = 1;
        const cJSON *p;
        cJSON_ArrayForEach(p, params) {
            if (!pfirst)
                put(c, "; ");
            pfirst = 0;
            int required = eous_json_bool(p, "required", 0);
            if (req) {
                const cJSON *r;
                cJSON_ArrayForEach(r, req) if (cJSON_IsString(r) && !strcmp(r->valuestring, p->string)) required = 1;
            }
            render_param(c, p->string, p, required);
        }
        put(c, ")");
    }
}

static void render_tools(pctx *c, const perc_component *comp, int depth, int brief)
{
    indent(c, depth);
    put(c, "tools: ");
    render_tool_list(c, comp, brief);
    put(c, "\n");
}

static int is_container(const perc_component *comp)
{
    return IN(comp->kind, CONTAINER_KINDS);
}

/* Gives component ci its view id (c1, c2, … in document order) and starts its
 * line: "[cN] ". */
static perc_component *start_component(pctx *c, int ci, int depth)
{
    perc_component *comp = &c->obs->comps[ci];
    c->emitted[ci] = 1;
    snprintf(comp->view_id, sizeof comp->view_id, "c%d", ++c->next_cid);
    indent(c, depth);
    if (!c->rc)
        c->rc = eous_buf_printf(c->b, c->err, "[%s] ", comp->view_id);
    return comp;
}

static void emit_triplet(pctx *c, int ci, int depth, int brief)
{
    perc_component *comp = start_component(c, ci, depth);
    put(c, comp->kind);
    put(c, " ");
    put_quoted(c, comp->label ? comp->label : "", 120);
    render_state(c, comp, brief);
    put(c, "\n");
    render_tools(c, comp, depth + 1, brief);
}

/* A page-level tool (WebMCP, bridge action): no element, no state, one tool:
 * "[c7] open_order(id: string) — Open the detail page of one order." */
static int is_page_tool(const perc_component *comp)
{
    return !comp->backend_id && strcmp(comp->provider, "ci4a") && cJSON_GetArraySize(comp->tools) == 1 &&
           (!comp->state || !comp->state->child);
}

static void emit_page_tool(pctx *c, int ci, int depth)
{
    perc_component *comp = start_component(c, ci, depth);
    render_tool_list(c, comp, 0);
    if (comp->label && *comp->label) {
        put(c, " — ");
        /* a page's description cannot start a line of its own */
        put_flat(c, comp->label, 200, 0);
    }
    put(c, "\n");
}

/* ---- pruned traversal --------------------------------------------------------- */

static void render(pctx *c, int idx, int depth, const char *parent_name);

static void render_children(pctx *c, const perc_node *n, int depth, const char *name)
{
    for (size_t k = 0; k < n->n_children && !c->rc; k++)
        render(c, n->children[k], depth, name);
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
    indent(c, depth);
    put(c, "table");
    if (table->name && *table->name) {
        put(c, " ");
        put_quoted(c, table->name, 120);
    }
    put(c, "\n");
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
            indent(c, depth + 1);
            put(c, "|");
            for (size_t k = 0; k < n->n_children && !c->rc; k++) {
                const perc_node *cell = &c->obs->nodes[n->children[k]];
                if (cell->hidden)
                    continue;
                eous_buf t;
                eous_buf_init(&t, 1 << 20);
                collect_text(c, n->children[k], &t, 1, 0);
                put(c, " ");
                put(c, t.data ? t.data : "");
                put(c, " |");
                eous_buf_free(&t);
            }
            put(c, "\n");
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

#define MAX_ROW_COLUMNS 24
#define MAX_SKIPPED_COLUMNS 64
#define MAX_CELL 80
#define MAX_STATE_ROWS 200 /* a page's rows; a hostile registry may claim a million */

/* A column whose value is the row key in every shown row (orders: id = key) says nothing new. */
static int column_repeats_key(const cJSON *rows, const char *col)
{
    int n = 0;
    for (const cJSON *r = rows->child; r && n < MAX_STATE_ROWS; r = r->next, n++) {
        const char *v = eous_json_str(r, col);
        if (!v || strcmp(v, eous_json_str(r, "key")))
            return 0;
    }
    return 1;
}

static int in_names(const char **names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return 1;
    return 0;
}

static void put_cell(pctx *c, const cJSON *v)
{
    if (cJSON_IsNull(v) || !v)
        return;
    if (!cJSON_IsString(v)) {
        put_json_short(c, v, 60);
        return;
    }
    /* cell text cannot break the row: no newlines, no column bars */
    put_flat(c, v->valuestring, MAX_CELL, 1);
}

/* "| key | col ... |" then one line per row, from the component's state. */
static void render_state_rows(pctx *c, const cJSON *rows, int depth)
{
    if (!rows->child) {
        indent(c, depth);
        put(c, "(no rows)\n");
        return;
    }
    /* columns in first-seen order; each name is judged once (kept or
     * skipped), and the scan stops when no column can be added */
    const char *cols[MAX_ROW_COLUMNS], *skipped[MAX_SKIPPED_COLUMNS];
    int ncols = 0, nskipped = 0, nrows = 0;
    cols[ncols++] = "key";
    const cJSON *r;
    for (r = rows->child; r && nrows < MAX_STATE_ROWS && ncols < MAX_ROW_COLUMNS; r = r->next, nrows++) {
        const cJSON *f;
        cJSON_ArrayForEach(f, r) {
            if (ncols == MAX_ROW_COLUMNS)
                break;
            if (in_names(cols, ncols, f->string) || in_names(skipped, nskipped, f->string))
                continue;
            if (!column_repeats_key(rows, f->string))
                cols[ncols++] = f->string;
            else if (nskipped < MAX_SKIPPED_COLUMNS)
                skipped[nskipped++] = f->string;
        }
    }
    indent(c, depth);
    put(c, "|");
    for (int i = 0; i < ncols; i++) {
        put(c, " ");
        put(c, cols[i]);
        put(c, " |");
    }
    put(c, "\n");
    nrows = 0;
    for (r = rows->child; r && nrows < MAX_STATE_ROWS && !c->rc; r = r->next, nrows++) {
        indent(c, depth);
        put(c, "|");
        for (int i = 0; i < ncols && !c->rc; i++) {
            put(c, " ");
            put_cell(c, cJSON_GetObjectItemCaseSensitive(r, cols[i]));
            put(c, " |");
        }
        put(c, "\n");
    }
    int total = cJSON_GetArraySize(rows);
    if (total > nrows && !c->rc) {
        indent(c, depth);
        c->rc = eous_buf_printf(c->b, c->err, "… %d more rows\n", total - nrows);
    }
}

/* Walks a component's subtree printing only the components nested in it
 * (the subtree itself is replaced by the triplet and its state rows). */
static void render_nested(pctx *c, int idx, int depth, int ci)
{
    const perc_node *n = &c->obs->nodes[idx];
    for (size_t k = 0; k < n->n_children && !c->rc; k++) {
        int ch = n->children[k];
        if (c->seen[ch] || c->obs->nodes[ch].hidden)
            continue;
        if (c->obs->nodes[ch].component >= 0 && c->obs->nodes[ch].component != ci) {
            render(c, ch, depth, NULL);
            continue;
        }
        c->seen[ch] = 1;
        if (c->level > PERC_MAX_DEPTH) {
            c->obs->depth_capped = 1;
            return;
        }
        c->level++;
        render_nested(c, ch, depth, ci);
        c->level--;
    }
}

static void render(pctx *c, int idx, int depth, const char *parent_name)
{
    if (c->rc || c->seen[idx])
        return;
    if (c->level > PERC_MAX_DEPTH) {
        c->obs->depth_capped = 1;
        return;
    }
    c->level++;
    render_inner(c, idx, depth, parent_name);
    c->level--;
}

static void render_inner(pctx *c, int idx, int depth, const char *parent_name)
{
    c->seen[idx] = 1;
    perc_node *n = &c->obs->nodes[idx];
    if (n->hidden)
        return;
    if (c->hybrid && n->component >= 0) {
        int ci = n->component;
        perc_component *comp = &c->obs->comps[ci];
        const cJSON *rows = state_rows(comp);
        if (!c->emitted[ci]) {
            emit_triplet(c, ci, depth, 0);
            if (rows) {
                render_state_rows(c, rows, depth + 1);
                render_nested(c, idx, depth + 1, ci);
            } else if (is_container(comp)) {
                /* container: its pruned content stays beneath the triplet */
                render_children(c, n, depth + 1, comp->label);
            }
            return;
        }
        /* the component's other nodes (portals, siblings): only containers show them */
        if (rows) {
            render_nested(c, idx, depth, ci);
            return;
        }
        if (!is_container(comp))
            return;
        /* a tabs component's own tab headers repeat its state and setTab tool */
        if (comp->kind && !strcmp(comp->kind, "tabs") && n->role && !strcmp(n->role, "tab"))
            return;
    }
    const char *role = n->role ? n->role : "";
    if (n->ignored || !n->role) {
        render_children(c, n, depth, parent_name);
        return;
    }
    if (is_text(n)) {
        if (is_blank(n->name) || is_decoration(n->name))
            return;
        /* hide text that repeats the parent's name */
        if (parent_name && n->name && strstr(parent_name, n->name))
            return;
        /* in hybrid, a field's label text is already the triplet's label */
        if (c->hybrid && is_component_label(c, n->name))
            return;
        put_text_line(c, depth, n->name);
        return;
    }
    if (!strcmp(role, "table") || !strcmp(role, "grid") || !strcmp(role, "treegrid")) {
        render_table(c, n, depth);
        return;
    }
    if ((!strcmp(role, "img") || !strcmp(role, "image")) && is_blank(n->name))
        return;
    int interactive = IN(role, INTERACTIVE);
    const char *name = n->name;
    int merged = 0;
    /* a lone text child becomes the name of an unnamed parent */
    if (is_blank(name) && n->n_children == 1 && is_text(&c->obs->nodes[n->children[0]]) &&
        !c->obs->nodes[n->children[0]].hidden && !is_blank(c->obs->nodes[n->children[0]].name)) {
        name = c->obs->nodes[n->children[0]].name;
        merged = 1;
    }
    int structural = !interactive && IN(role, STRUCTURAL);
    int has_props = 0;
    for (size_t p = 0; p < n->n_props; p++)
        if (IN(n->props[p].name, KEEP_PROPS) && strcmp(n->props[p].value, "False") && strcmp(n->props[p].value, "false"))
            has_props = 1;
    if (structural && (is_blank(name) || !strcmp(role, "generic") || !strcmp(role, "none") ||
                       !strcmp(role, "paragraph") || !strcmp(role, "listitem") || !strcmp(role, "LabelText") ||
                       !strcmp(role, "RootWebArea") || !strcmp(role, "cell") || !strcmp(role, "row"))) {
        if (merged && !has_props) {
            /* unnamed wrapper around one text: print the text */
            if (!(parent_name && strstr(parent_name, name)) && !is_decoration(name) &&
                !(c->hybrid && is_component_label(c, name)))
                put_text_line(c, depth, name);
            c->seen[n->children[0]] = 1;
            return;
        }
        if (!has_props) {
            render_children(c, n, depth, parent_name);
            return;
        }
    }
    indent(c, depth);
    put(c, role);
    if (interactive && n->backend_id) {
        put(c, " [");
        put(c, view_id(c, n));
        put(c, "]");
    }
    if (!is_blank(name)) {
        put(c, " ");
        put_quoted(c, name, 200);
    }
    props(c, n);
    put(c, "\n");
    if (merged) {
        c->seen[n->children[0]] = 1;
        return;
    }
    /* fold long option lists */
    if (!strcmp(role, "listbox") || !strcmp(role, "menu") || !strcmp(role, "MenuListPopup")) {
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
            render(c, n->children[k], depth + 1, name);
        }
        if (total > shown) {
            indent(c, depth + 1);
            if (!c->rc)
                c->rc = eous_buf_printf(c->b, c->err, "… %zu more options (type to filter)\n", total - shown);
        }
        return;
    }
    render_children(c, n, depth + 1, is_blank(name) ? parent_name : name);
}

eous_rc perc_render_pruned(perc_obs *obs, int hybrid, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    pctx c;
    memset(&c, 0, sizeof c);
    c.obs = obs;
    c.b = &b;
    c.err = err;
    c.hybrid = hybrid;
    c.seen = calloc(obs->n_nodes + 1, 1);
    c.emitted = calloc(obs->n_comps + 1, 1);
    if (!c.seen || !c.emitted) {
        c.rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    c.rc = perc_put_tab_header(&b, obs, err);
    if (!c.rc)
        c.rc = eous_buf_puts(&b, "\n\n", err);
    if (obs->n_nodes)
        render(&c, 0, 0, NULL);
    if (hybrid && !c.rc) {
        /* components with no element on the page (WebMCP tools, closed popups) */
        int header = 0;
        for (size_t i = 0; i < obs->n_comps && !c.rc; i++) {
            perc_component *comp = &obs->comps[i];
            if (c.emitted[i] || !comp->visible || comp->agent_hidden)
                continue;
            if (comp->backend_id && perc_obs_node_by_backend(obs, comp->backend_id)) {
                const perc_node *root = perc_obs_node_by_backend(obs, comp->backend_id);
                if (root->hidden)
                    continue;
            }
            if (!header) {
                put(&c, "page tools:\n");
                header = 1;
            }
            /* a UI component whose element is not rendered (inactive tab,
             * closed popup): names of its tools only; page-level tools
             * (WebMCP, bridge) have no state line and keep their signatures */
            if (is_page_tool(comp))
                emit_page_tool(&c, (int)i, 1);
            else
                emit_triplet(&c, (int)i, 1, comp->backend_id != 0 || !strcmp(comp->provider, "ci4a"));
        }
    }
done:
    free(c.seen);
    free(c.emitted);
    if (c.rc) {
        eous_buf_free(&b);
        return c.rc;
    }
    obs->text_len = b.len;
    obs->text = eous_buf_steal(&b);
    return EOUS_OK;
}

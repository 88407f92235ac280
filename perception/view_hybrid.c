/* perception/view_hybrid.c — the hybrid view: the pruned tree with each
 * component's data-cid subtree and data-cid-owner portals folded into ONE
 * triplet node, in place:
 *
 *     [c3] datepicker 'Check-in' value: '2025-06-01' → setValue(date: YYYY-MM-DD, 2025-01-01..2026-12-31) clear()
 *     (state, then after " → " its tools, space-separated, with their params and limits)
 *
 * Containers (table, form, tabs, modal, drawer) keep their pruned content
 * beneath the triplet; a table whose state carries its rows prints them as
 * "| key | ... |" lines; components whose element is not rendered (inactive
 * tab, closed popup) are listed under "not on screen:", page-level tools
 * (WebMCP, bridge actions) under "page tools:".  A parameter with no type
 * shown is a string. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "perception/meta.h"
#include "perception/view_int.h"
#include "perception/view_grammar_int.h"

#define MAX_STATE_VALUE 160

static const char *CONSTRAINT_KEYS[] = {"format", "min", "max", "minDate", "maxDate", "disabledDates", "step",
                                        "minuteStep", "disabledValues"};
static const char *CONTAINER_KINDS[] = {"table", "form", "tabs", "modal", "drawer", "card", "collapse", "list",
                                        "layout", "wizard", "dialog", "sortable"};

/* ---- triplet rendering --------------------------------------------------------- */



static int is_container(const perc_component *comp)
{
    /* a native textarea's lines print beneath its triplet, as the pruned view prints them */
    return IN(comp->kind, CONTAINER_KINDS) ||
           (comp->provider_bit == PERC_PROVIDER_NATIVE && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(comp->state, "multiline")));
}

static int same_words(const char *a, const char *b);

static int repeats_earlier_key(const cJSON *state, const cJSON *item)
{
    if (!item->child && !cJSON_IsString(item))
        return 0; /* short scalars (numbers, booleans) are cheap and often coincide */
    for (const cJSON *e = state->child; e && e != item; e = e->next) {
        if (cJSON_Compare(e, item, 1))
            return 1;
        /* valueLabel 'Platform' beside value 'platform' */
        if (cJSON_IsString(e) && cJSON_IsString(item) && same_words(e->valuestring, item->valuestring))
            return 1;
    }
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
 * state list would print the same head again).  count (arr NULL): an enum of
 * that many values (printed whole, or its head and "… +N more").  NULL if none. */
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
            if (arr ? same_values(arr, en, labelled) : cJSON_GetArraySize(en) == count)
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
            perc_spec s;
            perc_spec_read(p, &s);
            if (cJSON_IsNumber(s.lim.max) && s.lim.max->valuedouble == value)
                return 1;
        }
    }
    return 0;
}

/* 1 when a tool's param has this length limit (min: minLength, else maxLength): the tools line says it. */
static int tool_length_is(const perc_component *comp, int min, double value)
{
    const cJSON *tm;
    cJSON_ArrayForEach(tm, comp->metadata) {
        const cJSON *p;
        cJSON_ArrayForEach(p, eous_json_obj(tm, "params")) {
            perc_spec s;
            perc_spec_read(p, &s);
            const cJSON *v = min ? s.lim.min_len : s.lim.max_len;
            if (v && v->valuedouble == value)
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

#define MAX_OPTIONS_IN_STATE 12
#define MAX_OPTION_DEPTH 6 /* nested children past this are counted, not shown */

static const char *option_label(const cJSON *o)
{
    const char *l = eous_json_str(o, "label");
    if (!l)
        l = eous_json_str(o, "title");
    if (!l)
        l = eous_json_str(o, "value");
    return l;
}

/* Nested options, when they hold any (a cut cycle leaves a string behind). */
static const cJSON *option_children(const cJSON *o)
{
    const cJSON *kids = eous_json_arr(o, "children"), *k;
    cJSON_ArrayForEach(k, kids) if (cJSON_IsObject(k)) return kids;
    return NULL;
}

/* Leaves of an option tree ({label, children: [...]}): what a cascader offers. */
static int count_option_leaves(const cJSON *arr, int depth)
{
    int n = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, arr) {
        if (!cJSON_IsObject(o))
            continue;
        const cJSON *kids = option_children(o);
        n += kids && depth < MAX_OPTION_DEPTH ? count_option_leaves(kids, depth + 1) : 1;
    }
    return n;
}

/* "A | B | C", or for nested options the leaf paths "Zhejiang/Hangzhou | Jiangsu/Nanjing". */
static void render_option_labels(pctx *c, const cJSON *arr, const char *prefix, int depth, int *shown)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, arr) {
        if (*shown >= MAX_OPTIONS_IN_STATE || c->rc)
            return;
        if (!cJSON_IsObject(o))
            continue;
        const char *l = option_label(o);
        const cJSON *kids = option_children(o);
        if (kids && depth < MAX_OPTION_DEPTH) {
            const char *p = eous_arena_printf(c->view->arena, "%s%s/", prefix, l ? l : "?");
            if (p)
                render_option_labels(c, kids, p, depth + 1, shown);
            continue;
        }
        if ((*shown)++)
            pv_put(c, " | ");
        pv_put(c, prefix);
        pv_put(c, l ? l : "?");
    }
}

/* 1 when the line says how many options there are without optionCount: a
 * tool's enum of that many values ("… +43 more" counts the rest) or an
 * option list in the state with that many leaves. */
static int options_counted(const perc_component *comp, int count)
{
    int labelled;
    if (tool_enum_like(comp, NULL, count, &labelled))
        return 1;
    const cJSON *it;
    cJSON_ArrayForEach(it, comp->state) {
        if (!cJSON_IsArray(it) || !it->child || is_current_value_key(it->string ? it->string : ""))
            continue;
        if (cJSON_IsObject(it->child) ? option_label(it->child) && count_option_leaves(it, 0) == count
                                      : cJSON_IsString(it->child) && cJSON_GetArraySize(it) == count)
            return 1;
    }
    return 0;
}

static void remember_view_list(pctx *c, const cJSON *list, const char *comp, const char *name);

/* 1 when the state key it says nothing the line does not already say (the
 * tools line's constraints, enums and counts, a container's rows, a label
 * repeated, a false flag...); enums whose options carry labels are noted for
 * the tools line. */
static int state_key_hidden(pctx *c, const perc_component *comp, const cJSON *it, const cJSON *rows, int brief)
{
    const char *k = it->string;
    if (!k || !strcmp(k, "label") || !strcmp(k, "kind") || !strcmp(k, "key") || !strcmp(k, "disabled"))
        return 1;
    if (cJSON_IsNull(it) || (cJSON_IsString(it) && !*it->valuestring) ||
        ((cJSON_IsArray(it) || cJSON_IsObject(it)) && !it->child))
        return 1;
    if (cJSON_IsBool(it) && !cJSON_IsTrue(it) && strcmp(k, "value") && strcmp(k, "checked") && strcmp(k, "open"))
        return 1;
    /* the rows printed beneath the triplet carry the column keys */
    if (rows && rows->child && !strcmp(k, "columns"))
        return 1;
    /* constraints are shown once, on the tools line */
    if (IN(k, CONSTRAINT_KEYS))
        return 1;
    /* a button's text repeats its label */
    if (cJSON_IsString(it) && comp->label && !strcmp(it->valuestring, comp->label))
        return 1;
    /* containers show their rows beneath the triplet: no JSON copy of them */
    if (is_container(comp) && cJSON_IsArray(it) && cJSON_IsObject(it->child) &&
        !eous_json_str(it->child, "label") && !eous_json_str(it->child, "title"))
        return 1;
    /* a form's field values are on its fields' own triplets beneath it */
    if (comp->kind && !strcmp(comp->kind, "form") && !strcmp(k, "values") && cJSON_IsObject(it))
        return 1;
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
        return 1;
    }
    if (!strcmp(k, "optionCount") && cJSON_IsNumber(it) && !brief && options_counted(comp, it->valueint))
        return 1;
    if (!strcmp(k, "pageCount") && cJSON_IsNumber(it) && tool_max_is(comp, it->valuedouble))
        return 1;
    /* a length limit a tool's params carry is printed there ("≤40 chars") */
    if ((!strcmp(k, "maxLength") || !strcmp(k, "minLength")) && cJSON_IsNumber(it) &&
        tool_length_is(comp, !strcmp(k, "minLength"), it->valuedouble))
        return 1;
    /* off screen: what it holds now, not every choice it offers (the
     * choices show once it is on screen; a wrong value gets them back) */
    if (brief && !is_current_value_key(k) && cJSON_IsArray(it) && cJSON_IsObject(it->child) &&
        (eous_json_str(it->child, "label") || eous_json_str(it->child, "title")))
        return 1;
    /* valueLabel equal to value (and the like) says nothing new */
    if (repeats_earlier_key(comp->state, it))
        return 1;
    return 0;
}

/* A state value after "key: ": option labels, a short list, a quoted string
 * or short JSON. */
static void render_state_value(pctx *c, const perc_component *comp, const char *k, const cJSON *it)
{
    if (cJSON_IsArray(it)) {
        int n = cJSON_GetArraySize(it), shown = 0;
        const cJSON *first = it->child;
        if (cJSON_IsObject(first) && (eous_json_str(first, "label") || eous_json_str(first, "title"))) {
            /* option-like objects: their labels say enough */
            int total = count_option_leaves(it, 0);
            render_option_labels(c, it, "", 0, &shown);
            if (total > shown && !c->rc)
                c->rc = eous_buf_printf(c->b, c->err, " … +%d more", total - shown);
            return;
        }
        if (cJSON_IsObject(first) || cJSON_IsArray(first)) {
            pv_put_json_short(c, it, MAX_STATE_VALUE);
            return;
        }
        /* a list shown whole can be referred to: "country: as in c4.options" */
        if (n <= 12 && n >= 4 && !is_current_value_key(k))
            remember_view_list(c, it, c->view->comp_ids[comp - c->obs->comps], k);
        const cJSON *e;
        cJSON_ArrayForEach(e, it) {
            if (shown == 12) {
                if (!c->rc)
                    c->rc = eous_buf_printf(c->b, c->err, " … +%d more", n - shown);
                break;
            }
            if (shown++)
                pv_put(c, " | ");
            if (cJSON_IsString(e))
                pv_put(c, e->valuestring);
            else
                pv_put_json_short(c, e, 60);
        }
        return;
    }
    if (cJSON_IsString(it)) {
        pv_put_quoted(c, it->valuestring, MAX_STATE_VALUE);
        return;
    }
    pv_put_json_short(c, it, MAX_STATE_VALUE);
}

/* ---- the state on the triplet line --------------------------------------- */
static void render_state(pctx *c, const perc_component *comp, int brief)
{
    const cJSON *rows = state_rows(comp);
    const cJSON *it;
    cJSON_ArrayForEach(it, comp->state) {
        if (state_key_hidden(c, comp, it, rows, brief))
            continue;
        pv_put(c, " ");
        pv_put_part(c, PV_PART_KEY, it->string);
        pv_put(c, ": ");
        if (cJSON_IsString(it)) {
            pv_put_quoted_part(c, PV_PART_VALUE, it->valuestring, MAX_STATE_VALUE); /* as render_state_value */
        } else {
            size_t at = pv_begin(c);
            render_state_value(c, comp, it->string, it);
            pv_end(c, PV_PART_VALUE, at);
        }
    }
    if (comp->disabled) {
        pv_put(c, " ");
        pv_put_part(c, PV_PART_KEY, "disabled");
    }
}

/* ---- the tools line: params, types, limits, enums ------------------------ */
/* A cascader path: an array of strings or numbers. */
static int is_scalar_path(const cJSON *e)
{
    if (!cJSON_IsArray(e) || !e->child)
        return 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, e) if (!cJSON_IsString(x) && !cJSON_IsNumber(x)) return 0;
    return 1;
}

/* ["zhejiang", "hangzhou"] → zhejiang/hangzhou */
static void put_path(pctx *c, const cJSON *e)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, e) {
        if (x != e->child)
            pv_put(c, "/");
        if (cJSON_IsString(x))
            pv_put_flat(c, x->valuestring, 40, 0);
        else
            pv_put_json_short(c, x, 20);
    }
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
            pv_put(c, sep);
        if (cJSON_IsString(e))
            pv_put(c, e->valuestring);
        else if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "from")) &&
                 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "to"))) {
            /* a run of disabled days, {from, to} as the validator takes it */
            pv_put(c, eous_json_str(e, "from"));
            pv_put(c, "..");
            pv_put(c, eous_json_str(e, "to"));
        } else if (is_scalar_path(e))
            put_path(c, e);
        else
            pv_put_json_short(c, e, 40);
        const char *label = o ? eous_json_str(o, "label") : NULL;
        if (o && !label)
            label = eous_json_str(o, "title");
        if (label && cJSON_IsString(e) && !same_words(label, e->valuestring)) {
            pv_put(c, "=");
            pv_put(c, label);
        }
        o = o ? o->next : NULL;
    }
}

/* Notes that list was printed as comp.name, for a later "as in comp.name". */
static void remember_view_list(pctx *c, const cJSON *list, const char *comp, const char *name)
{
    if (c->n_view_lists < 64 && comp && name) {
        const char *ref = eous_arena_printf(c->view->arena, "%s.%s", comp, name);
        if (ref) {
            c->view_lists[c->n_view_lists] = list;
            c->view_list_refs[c->n_view_lists++] = ref;
        }
    }
}

/* "as in c6.setValue" when another component's tools printed this list
 * already (check-in and check-out share their blackout dates); 0 if not,
 * after remembering it as this tool's. */
static int refer_to_view_list(pctx *c, const cJSON *list)
{
    for (int i = 0; i < c->n_view_lists; i++)
        if (cJSON_Compare(c->view_lists[i], list, 1)) {
            pv_put(c, "as in ");
            pv_put(c, c->view_list_refs[i]);
            return 1;
        }
    remember_view_list(c, list, c->cur_comp, c->cur_tool);
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
                pv_put(c, "as in ");
                pv_put(c, c->line_enum_tools[i]);
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
    render_scalar_list(c, en, 15, PV_ENUM_SEP, options);
}

static void put_bound(pctx *c, const cJSON *v)
{
    if (cJSON_IsString(v))
        pv_put(c, v->valuestring);
    else if (v)
        pv_put_json_short(c, v, 30);
}

#define MAX_DISABLED_SHOWN 6

/* ", not a, b … +N more (M in all)", or "as in c1.setValue" for a list printed already. */
static void render_disabled(pctx *c, const cJSON *dis)
{
    int n = cJSON_GetArraySize(dis);
    pv_put(c, ", not ");
    if (n < 4 || !refer_to_view_list(c, dis))
        render_scalar_list(c, dis, MAX_DISABLED_SHOWN, ", ", NULL);
    /* hundreds of blackout dates: the count says how many the call may hit */
    if (n > MAX_DISABLED_SHOWN && !c->rc)
        c->rc = eous_buf_printf(c->b, c->err, " (%d in all)", n);
}

/* Every limit the validator enforces (perception/meta.h), as the tools line
 * prints it: ", 1..10", ", >0", ", 2..40 chars", ", /^[A-Z]+$/", ", step 5",
 * ", 2 items", ", no repeats", ", not a, b … +N more (M in all)".
 * tests/perception/test_meta.c holds the two to each other. */
static void render_limits(pctx *c, const perc_limits *l)
{
    if (l->min || l->max) {
        pv_put(c, ", ");
        put_bound(c, l->min);
        pv_put(c, "..");
        put_bound(c, l->max);
    }
    if (l->xmin) {
        pv_put(c, ", >");
        put_bound(c, l->xmin);
    }
    if (l->xmax) {
        pv_put(c, ", <");
        put_bound(c, l->xmax);
    }
    const cJSON *mnl = l->min_len, *mxl = l->max_len;
    if ((mnl || mxl) && !c->rc) {
        if (mnl && mxl)
            c->rc = eous_buf_printf(c->b, c->err, ", %g..%g chars", mnl->valuedouble, mxl->valuedouble);
        else if (mxl)
            c->rc = eous_buf_printf(c->b, c->err, ", ≤%g chars", mxl->valuedouble);
        else
            c->rc = eous_buf_printf(c->b, c->err, ", ≥%g chars", mnl->valuedouble);
    }
    if (l->pattern) {
        pv_put(c, ", /");
        pv_put_flat(c, l->pattern, 60, 0);
        pv_put(c, "/");
    }
    if (l->step && !c->rc)
        c->rc = eous_buf_printf(c->b, c->err, ", step %g", l->step->valuedouble);
    const cJSON *mni = l->min_items, *mxi = l->max_items;
    if ((mni || mxi) && !c->rc) {
        if (mni && mxi && mni->valuedouble == mxi->valuedouble)
            c->rc = eous_buf_printf(c->b, c->err, ", %g items", mni->valuedouble);
        else if (mni && mxi)
            c->rc = eous_buf_printf(c->b, c->err, ", %g..%g items", mni->valuedouble, mxi->valuedouble);
        else if (mxi)
            c->rc = eous_buf_printf(c->b, c->err, ", ≤%g items", mxi->valuedouble);
        else
            c->rc = eous_buf_printf(c->b, c->err, ", ≥%g items", mni->valuedouble);
    }
    if (l->unique_items)
        pv_put(c, ", no repeats");
    if (cJSON_GetArraySize(l->disabled) > 0)
        render_disabled(c, l->disabled);
}

/* An object whose every member is a list ({"France": ["Paris", ...], ...}: a
 * cascader's children by parent), as opposed to one param's limits. */
static int is_option_map(const cJSON *o)
{
    const cJSON *m;
    if (!cJSON_IsObject(o) || !o->child)
        return 0;
    cJSON_ArrayForEach(m, o) if (!cJSON_IsArray(m)) return 0;
    return 1;
}

/* "options=France: Paris|Lyon; … +11 more (44 values in all)": the first
 * entry shows the shape, the counts what the rest hold (search finds them). */
static void render_option_map(pctx *c, const cJSON *map)
{
    int keys = 0, values = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, map) {
        keys++;
        values += cJSON_GetArraySize(m);
    }
    pv_put_flat(c, map->child->string, 40, 0);
    pv_put(c, ": ");
    render_scalar_list(c, map->child, MAX_DISABLED_SHOWN, "|", NULL);
    if (keys > 1 && !c->rc)
        c->rc = eous_buf_printf(c->b, c->err, "; … +%d more (%d values in all)", keys - 1, values);
}

/* A tool's constraints that are not limits (disabledRule, minuteStep, options): name=value. */
static void render_other_limits(pctx *c, const cJSON *cons)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cons) {
        /* an object is one param's limits (shown with that param), unless it maps options to their children */
        if (!k->string || perc_meta_is_limit_key(k->string) || (cJSON_IsObject(k) && !is_option_map(k)))
            continue;
        pv_put(c, ", ");
        pv_put(c, k->string);
        pv_put(c, "=");
        if (cJSON_IsObject(k))
            render_option_map(c, k);
        else if (cJSON_IsArray(k))
            render_scalar_list(c, k, MAX_DISABLED_SHOWN, "|", NULL);
        else
            put_bound(c, k);
    }
}

static void render_type(pctx *c, const perc_spec *s)
{
    const char *fmt = s->declared_format;
    const char *type = s->type_name;
    if (s->enumeration) {
        render_enum(c, s->enumeration);
    } else if (s->constant) {
        /* one value allowed: the value itself */
        if (cJSON_IsString(s->constant))
            pv_put(c, s->constant->valuestring);
        else
            pv_put_json_short(c, s->constant, 40);
    } else if (fmt) {
        pv_put(c, fmt);
    } else if (type && !strcmp(type, "array")) {
        perc_spec items;
        perc_spec_read(s->items, &items);
        pv_put(c, "[");
        if (items.enumeration)
            render_enum(c, items.enumeration);
        else
            pv_put(c, items.declared_format ? items.declared_format : items.type_name ? items.type_name : "any");
        if (items.json)
            render_limits(c, &items.lim);
        pv_put(c, "]");
    } else {
        pv_put(c, type ? type : "any");
    }
}

static void render_param(pctx *c, const perc_param_meta *pm)
{
    pv_put(c, pm->name);
    if (!pm->required)
        pv_put(c, PV_OPTIONAL);
    if (!pm->own.json) {
        pv_put(c, ": any");
        return;
    }
    /* a string is what a param with no type shown takes (the prompt says so) */
    const perc_spec *s = &pm->own;
    int plain_string = s->type_name && !strcmp(s->type_name, "string") && !s->enumeration && !s->declared_format &&
                       !s->constant;
    if (!plain_string) {
        pv_put(c, PV_TYPE);
        render_type(c, s);
    }
    /* its own limits and the tool-level ones that are its alone */
    render_limits(c, &pm->shown);
    if (pm->tool_inline)
        render_other_limits(c, pm->tool_spec);
}

static int same_json(const cJSON *a, const cJSON *b)
{
    return a && b && cJSON_Compare(a, b, 1);
}

/* Tool-level constraints no param took as its own (several params, flat
 * constraints; disabledDates beside them): " | min=1, max=5" after the
 * params, never dropped.  When every param's line printed the range (a range
 * picker's start and end each carry it), what they all printed alike is not
 * repeated. */
static void render_tool_constraints(pctx *c, const perc_tool_meta *tm)
{
    const cJSON *dd = tm->disabled_dates;
    if (tm->n_params == 1 || (!tm->flat && !(dd && dd->child)))
        return;
    perc_limits l = {0}, said;
    if (tm->flat) {
        perc_spec cons;
        perc_spec_read(tm->constraints, &cons);
        l = cons.lim;
    }
    /* what every param's line printed alike */
    int first = 1;
    const cJSON *p;
    cJSON_ArrayForEach(p, tm->params) {
        perc_param_meta pm;
        perc_param_meta_read(tm, p, &pm);
        if (first) {
            said = pm.shown;
            first = 0;
            continue;
        }
        const cJSON **a[] = {&said.min, &said.max, &said.xmin, &said.xmax, &said.step, &said.min_len,
                             &said.max_len, &said.disabled, &said.min_items, &said.max_items};
        const cJSON *b[] = {pm.shown.min, pm.shown.max, pm.shown.xmin, pm.shown.xmax, pm.shown.step,
                            pm.shown.min_len, pm.shown.max_len, pm.shown.disabled, pm.shown.min_items,
                            pm.shown.max_items};
        for (size_t i = 0; i < sizeof a / sizeof *a; i++)
            if (!same_json(*a[i], b[i]))
                *a[i] = NULL;
        if (!said.pattern || !pm.shown.pattern || strcmp(said.pattern, pm.shown.pattern))
            said.pattern = NULL;
        said.unique_items = said.unique_items && pm.shown.unique_items;
    }
    if (first)
        memset(&said, 0, sizeof said);
    /* the range every param carries: then the rest every param's line said alike is not repeated either */
    if ((l.min || l.max) && (!l.min || same_json(l.min, said.min)) && (!l.max || same_json(l.max, said.max))) {
        l.min = l.max = NULL;
        if (same_json(l.xmin, said.xmin)) l.xmin = NULL;
        if (same_json(l.xmax, said.xmax)) l.xmax = NULL;
        if (same_json(l.step, said.step)) l.step = NULL;
        if (same_json(l.min_len, said.min_len)) l.min_len = NULL;
        if (same_json(l.max_len, said.max_len)) l.max_len = NULL;
        if (l.pattern && said.pattern && !strcmp(l.pattern, said.pattern)) l.pattern = NULL;
        if (same_json(l.disabled, said.disabled)) l.disabled = NULL;
        if (same_json(l.min_items, said.min_items)) l.min_items = NULL;
        if (same_json(l.max_items, said.max_items)) l.max_items = NULL;
        if (said.unique_items) l.unique_items = 0;
    }
    /* rendered aside: the limits start with ", ", here they follow " | " */
    eous_buf tmp, *out = c->b;
    eous_buf_init(&tmp, 0);
    c->b = &tmp;
    if (tm->flat) {
        render_limits(c, &l);
        render_other_limits(c, tm->constraints);
    }
    if (dd && dd->child && !c->rc)
        render_disabled(c, dd);
    c->b = out;
    if (tmp.len > 2) {
        pv_put(c, " | ");
        pv_put(c, tmp.data + 2);
    }
    eous_buf_free(&tmp);
}

/* brief: tool names only, for components not on screen right now (their
 * state line stays; a call with wrong params gets the signature back from
 * the validator), which keeps closed tabs and popups from costing tokens. */
static void render_tool_list(pctx *c, const perc_component *comp, int brief)
{
    c->n_line_enums = 0;
    c->cur_comp = c->view->comp_ids[comp - c->obs->comps];
    int first = 1;
    const cJSON *t;
    cJSON_ArrayForEach(t, comp->tools) {
        const char *name = cJSON_IsString(t) ? t->valuestring : eous_json_str(t, "name");
        if (!name)
            continue;
        if (!first)
            pv_put(c, " ");
        first = 0;
        pv_put_part(c, PV_PART_TOOL, name);
        perc_tool_meta tm;
        perc_tool_meta_read(comp->metadata, name, &tm);
        pv_put(c, "(");
        size_t args = pv_begin(c);
        if (brief) {
            pv_put(c, tm.n_params ? "…" : "");
            pv_end(c, PV_PART_ARGS, args);
            pv_put(c, ")");
            continue;
        }
        c->cur_tool = name;
        int pfirst = 1;
        const cJSON *p;
        if (eous_json_str(tm.json, "sameAs")) {
            /* a native form's submit(fields): fill()'s params, just printed (each marked optional
             * there), referred to as any list printed already is ("as in setValue") */
            pv_put(c, "as in ");
            pv_put(c, eous_json_str(tm.json, "sameAs"));
            pv_end(c, PV_PART_ARGS, args);
            pv_put(c, ")");
            continue;
        }
        cJSON_ArrayForEach(p, tm.params) {
            if (!pfirst)
                pv_put(c, "; ");
            pfirst = 0;
            perc_param_meta pm;
            perc_param_meta_read(&tm, p, &pm);
            render_param(c, &pm);
        }
        if (tm.json)
            render_tool_constraints(c, &tm);
        pv_end(c, PV_PART_ARGS, args);
        pv_put(c, ")");
    }
}

/* " → tool(params) tool()" after the state, on the component's own line. */
static void render_tools(pctx *c, const perc_component *comp, int brief)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, comp->tools) {
        if (cJSON_IsString(t) || eous_json_str(t, "name")) {
            pv_put(c, " → ");
            render_tool_list(c, comp, brief);
            return;
        }
    }
}


/* ---- view ids and the triplet line --------------------------------------- */
/* The view id the previous view of this page gave the component (0 when none),
 * and past which number new ones start. */
static int base_cid(const perc_obs *obs, const perc_component *comp, int *max)
{
    const perc_obs *b = obs->id_base;
    *max = 0;
    if (!b || !b->url || !obs->url || strcmp(b->url, obs->url))
        return 0;
    int found = 0;
    for (size_t i = 0; i < b->n_comps; i++) {
        const perc_component *bc = &b->comps[i];
        int n = bc->view_id[0] == 'c' ? atoi(bc->view_id + 1) : 0;
        if (n > *max)
            *max = n;
        if (n && !strcmp(bc->key, comp->key) && bc->provider_bit == comp->provider_bit)
            found = n;
    }
    return found;
}

/* Gives component ci its view id (c1, c2, … in document order, or the one the
 * previous view of the page gave it) and starts its line: "[cN] ". */
static const perc_component *start_component(pctx *c, int ci, int depth, perc_line_kind kind)
{
    const perc_component *comp = &c->obs->comps[ci];
    c->emitted[ci] = 1;
    int max = 0, keep = base_cid(c->obs, comp, &max);
    if (max > c->next_cid)
        c->next_cid = max;
    const char *id = keep ? eous_arena_printf(c->view->arena, "c%d", keep)
                          : eous_arena_printf(c->view->arena, "c%d", ++c->next_cid);
    if (!id) {
        c->rc = EOUS_E_NOMEM;
        return comp;
    }
    c->view->comp_ids[ci] = id;
    pv_indent(c, depth);
    pv_start_line(c, kind, 1);
    pv_put(c, "[");
    pv_put_part(c, PV_PART_ID, id);
    pv_put(c, "] ");
    return comp;
}

/* ---- native forms: one line for the form and its fields ---------------------------
 * A native form's line (perception/native.js) stands for its fields the way a
 * CI4A component's line stands for its subtree: what they hold in "values:",
 * their limits on fill()'s params.  Their own lines are folded away, and so is
 * the submit button submit() presses; a textarea whose lines print beneath it
 * keeps its line, as the header of those lines. */

static int is_native_form(const perc_component *comp)
{
    return comp->provider_bit == PERC_PROVIDER_NATIVE && comp->kind && !strcmp(comp->kind, "form");
}

/* The native form whose fill() names comp's key, or -1. */
static int owning_form(const pctx *c, const perc_component *comp)
{
    if (comp->provider_bit != PERC_PROVIDER_NATIVE || !comp->key)
        return -1;
    for (size_t i = 0; i < c->obs->n_comps; i++) {
        const perc_component *f = &c->obs->comps[i];
        if (f == comp || !is_native_form(f))
            continue;
        const cJSON *fill = eous_json_obj(f->metadata, "fill");
        const cJSON *fields = fill ? eous_json_obj(fill, "fields") : NULL, *k;
        cJSON_ArrayForEach(k, fields)
            if (cJSON_IsString(k) && !strcmp(k->valuestring, comp->key))
                return (int)i;
    }
    return -1;
}

/* " values: Name='Ada', Subscribe=true" */
static void render_form_values(pctx *c, const perc_component *comp)
{
    const cJSON *vals = eous_json_obj(comp->state, "values"), *v;
    int first = 1;
    size_t at = 0;
    cJSON_ArrayForEach(v, vals) {
        if (first) {
            pv_put(c, " ");
            pv_put_part(c, PV_PART_KEY, "values");
            pv_put(c, ": ");
            at = pv_begin(c);
        } else {
            pv_put(c, ", ");
        }
        first = 0;
        pv_put_flat(c, v->string, 60, 0);
        pv_put(c, "=");
        if (cJSON_IsArray(v) || cJSON_IsObject(v) || cJSON_IsBool(v) || cJSON_IsNumber(v))
            pv_put_json_short(c, v, MAX_STATE_VALUE);
        else if (cJSON_IsString(v))
            pv_put_quoted(c, v->valuestring, MAX_STATE_VALUE);
    }
    if (!first)
        pv_end(c, PV_PART_VALUE, at);
}

/* Marks seen, under a native form's node, the button submit() presses and a
 * legend that repeats the form's label (both are on the form's line). */
static void fold_form_chrome(pctx *c, int idx, const perc_component *form, int *button_done, int level)
{
    const perc_node *n = &c->obs->nodes[idx];
    const char *submit = eous_json_str(form->state, "submit");
    for (size_t k = 0; k < n->n_children && level < PERC_MAX_DEPTH; k++) {
        int ch = n->children[k];
        const perc_node *m = &c->obs->nodes[ch];
        if (c->seen[ch] || m->hidden)
            continue;
        if (m->role && m->name && !*button_done && submit && !strcmp(m->role, "button") && !strcmp(m->name, submit)) {
            c->seen[ch] = 1;
            *button_done = 1;
            continue;
        }
        if (m->role && form->label && !strcmp(m->role, "Legend")) {
            /* its text: its name, or the one text node it holds */
            const char *t = m->name;
            if (pv_is_blank(t) && m->n_children == 1)
                t = c->obs->nodes[m->children[0]].name;
            if (t && !strcmp(t, form->label)) {
                c->seen[ch] = 1;
                continue;
            }
        }
        fold_form_chrome(c, ch, form, button_done, level + 1);
    }
}

/* ---- what a line says after the label: its tab, its fields ------------------ */
#define MAX_FIELDS 4

/* A field's name the lines' reader reads back whole (view_lines.c read_fields): no quote in it. */
static int field_name_ok(const char *s)
{
    return !pv_is_blank(s) && strlen(s) <= 60 && !strpbrk(s, "'\n\t\r");
}

/* The named textboxes in component ci's own subtree (not a nested component's) into names;
 * -1 when more than max, or one has a name the line cannot carry. */
static int collect_fields(const pctx *c, int idx, int ci, const char **names, int n, int max, int level)
{
    const perc_node *nd = &c->obs->nodes[idx];
    if (nd->component != ci || nd->hidden || level > PERC_MAX_DEPTH)
        return n;
    if (!nd->ignored && nd->role && !strcmp(nd->role, "textbox")) {
        if (n == max || !field_name_ok(nd->name))
            return -1;
        names[n++] = nd->name;
    }
    for (size_t k = 0; k < nd->n_children && n >= 0; k++)
        n = collect_fields(c, nd->children[k], ci, names, n, max, level + 1);
    return n;
}

/* " fields 'From date', 'To date'": a component that stands for two or more text fields, named
 * apart (a range picker's start and end, named by their placeholders), names them as the
 * atomic view does, so a person's steps (a distilled job) can target each. */
static void render_fields(pctx *c, int ci)
{
    const perc_component *comp = &c->obs->comps[ci];
    const perc_node *root = comp->backend_id ? perc_obs_node_by_backend(c->obs, comp->backend_id) : NULL;
    if (!root || comp->provider_bit == PERC_PROVIDER_NATIVE || is_container(comp))
        return;
    const char *names[MAX_FIELDS];
    int n = collect_fields(c, (int)(root - c->obs->nodes), ci, names, 0, MAX_FIELDS, 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(names[i], names[j]))
                return; /* two named alike tell a person nothing apart */
    if (n < 2)
        return;
    pv_put(c, PV_FIELDS);
    for (int i = 0; i < n; i++) {
        pv_put(c, i ? PV_FIELD_SEP : "");
        pv_put_quoted_part(c, PV_PART_FIELDS, names[i], 60);
    }
}

/* " in tab 'Members'": a component not on screen whose hidden tab panel the page script found
 * (providers.js cidTabs), so a person's steps know which tab to open first. */
static void render_tab(pctx *c, const perc_component *comp)
{
    const char *tab = comp->key ? eous_json_str(c->obs->page_tabs, comp->key) : NULL;
    if (!tab || pv_is_blank(tab))
        return;
    pv_put(c, PV_IN_TAB);
    pv_put_quoted_part(c, PV_PART_TAB, tab, 60);
}

static void emit_triplet(pctx *c, int ci, int depth, int brief)
{
    const perc_component *comp = start_component(c, ci, depth, PERC_LINE_COMPONENT);
    pv_put_part(c, PV_PART_ROLE, comp->kind);
    pv_put(c, " ");
    pv_put_quoted_part(c, PV_PART_NAME, comp->label ? comp->label : "", 120);
    render_tab(c, comp);
    render_fields(c, ci);
    render_state(c, comp, brief);
    if (is_native_form(comp))
        render_form_values(c, comp);
    render_tools(c, comp, brief);
    pv_put(c, "\n");
}

/* ---- page tools ---------------------------------------------------------- */
/* A page-level tool (WebMCP, bridge action): no element, no state, one tool:
 * "[c7] open_order(id: string) — Open the detail page of one order." */
static int is_page_tool(const perc_component *comp)
{
    return !comp->backend_id && comp->provider_bit != PERC_PROVIDER_CI4A && cJSON_GetArraySize(comp->tools) == 1 &&
           (!comp->state || !comp->state->child);
}

/* Characters of a page tool's description shown in the view: a description
 * states the tool's rules ("closed on Sundays"), so it is shown whole up to
 * this cap, and past it the line says how much is left and how to read it. */
#define PAGE_TOOL_DESC_CAP 600

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void emit_page_tool(pctx *c, int ci, int depth)
{
    const perc_component *comp = start_component(c, ci, depth, PERC_LINE_PAGE_TOOL);
    render_tool_list(c, comp, 0);
    const char *tool = comp->tools && cJSON_IsString(comp->tools->child) ? comp->tools->child->valuestring : "";
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(comp->metadata, tool);
    const cJSON *ann = cJSON_GetObjectItemCaseSensitive(meta, "annotations");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ann, "readOnlyHint"))) {
        pv_put(c, " ");
        pv_put_part(c, PV_PART_KEY, "read-only");
    }
    const char *desc = eous_json_str(meta, "description");
    if (!desc || !*desc)
        desc = comp->label;
    if (desc && *desc) {
        pv_put(c, " — ");
        /* a page's description cannot start a line of its own */
        size_t chars = utf8_chars(desc), at = pv_begin(c);
        pv_put_flat(c, desc, PAGE_TOOL_DESC_CAP, 0);
        if (chars > PAGE_TOOL_DESC_CAP && !c->rc)
            c->rc = eous_buf_printf(c->b, c->err, " (%zu more characters: call tool describe on %s)",
                                    chars - PAGE_TOOL_DESC_CAP, c->view->comp_ids[ci]);
        pv_end(c, PV_PART_DESC, at);
    }
    pv_put(c, "\n");
}

#define MAX_ROW_COLUMNS 24
#define MAX_SKIPPED_COLUMNS 64
#define MAX_CELL 80
#define MAX_STATE_ROWS 200 /* a page's rows; a hostile registry may claim a million */

/* ---- table rows from the state ------------------------------------------- */
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
        pv_put_json_short(c, v, 60);
        return;
    }
    /* cell text cannot break the row: no newlines, no column bars */
    pv_put_flat(c, v->valuestring, MAX_CELL, 1);
}

/* "| key | col ... |" then one line per row, from the component's state. */
static void render_state_rows(pctx *c, const cJSON *rows, int depth)
{
    if (!rows->child) {
        pv_indent(c, depth);
        pv_put(c, "(no rows)\n");
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
    pv_indent(c, depth);
    pv_start_line(c, PERC_LINE_ROW, 0);
    pv_put(c, "|");
    for (int i = 0; i < ncols; i++) {
        pv_put(c, " ");
        pv_put(c, cols[i]);
        pv_put(c, " |");
    }
    pv_put(c, "\n");
    nrows = 0;
    for (r = rows->child; r && nrows < MAX_STATE_ROWS && !c->rc; r = r->next, nrows++) {
        pv_indent(c, depth);
        pv_start_line(c, PERC_LINE_ROW, 0);
        pv_put(c, "|");
        for (int i = 0; i < ncols && !c->rc; i++) {
            pv_put(c, " ");
            put_cell(c, cJSON_GetObjectItemCaseSensitive(r, cols[i]));
            pv_put(c, " |");
        }
        pv_put(c, "\n");
    }
    int total = cJSON_GetArraySize(rows);
    if (total > nrows && !c->rc) {
        pv_indent(c, depth);
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
            pv_render(c, ch, depth, NULL);
            continue;
        }
        c->seen[ch] = 1;
        if (c->level > PERC_MAX_DEPTH) {
            c->view->depth_capped = 1;
            return;
        }
        c->level++;
        render_nested(c, ch, depth, ci);
        c->level--;
    }
}

/* ---- the hooks into the pruned traversal --------------------------------- */
static int is_component_label(const pctx *c, const char *text)
{
    if (!text)
        return 0;
    while (*text == ' ')
        text++;
    size_t n = strlen(text);
    /* "Patient name:" and "Patient name *" print the label "Patient name" */
    while (n && (text[n - 1] == ' ' || text[n - 1] == ':' || text[n - 1] == '*'))
        n--;
    for (size_t i = 0; i < c->obs->n_comps; i++) {
        const char *l = c->obs->comps[i].label;
        if (l && strlen(l) == n && n && !strncasecmp(l, text, n))
            return 1;
    }
    return 0;
}

static int hybrid_node(pctx *c, int idx, int depth)
{
    const perc_node *n = &c->obs->nodes[idx];
    int ci = n->component;
    const perc_component *comp = &c->obs->comps[ci];
    const cJSON *rows = state_rows(comp);
    /* a component in a hidden tab panel (providers.js cidTabs): what the tree holds of it are the
     * browser's ignored remains of a panel not rendered (a radio group's inputs); it is listed under
     * "not on screen:", in its tab, as the panel's other components are */
    if (!c->emitted[ci] && comp->key && eous_json_str(c->obs->page_tabs, comp->key))
        return 1;
    if (!c->emitted[ci]) {
        /* a field of a native form printed above: on the form's line (a
         * textarea keeps its line over the lines it holds) */
        int form = owning_form(c, comp);
        if (form >= 0 && c->emitted[form] && !is_container(comp)) {
            c->emitted[ci] = 1;
            return 1;
        }
        emit_triplet(c, ci, depth, 0);
        if (is_native_form(comp)) {
            int button_done = 0;
            fold_form_chrome(c, idx, comp, &button_done, 0);
        }
        if (rows) {
            render_state_rows(c, rows, depth + 1);
            render_nested(c, idx, depth + 1, ci);
        } else if (comp->kind && (!strcmp(comp->kind, "sortable") ||
                                  (comp->provider_bit == PERC_PROVIDER_NATIVE && !strcmp(comp->kind, "table")))) {
            /* a native sortable or filterable table: the table itself beneath, rows as the pruned view prints them */
            c->seen[idx] = 0;
            pv_render(c, idx, depth + 1, NULL);
        } else if (is_container(comp)) {
            /* container: its pruned content stays beneath the triplet */
            pv_render_children(c, n, depth + 1, comp->label);
        }
        return 1;
    }
    /* the component's other nodes (portals, siblings): only containers show them */
    if (rows) {
        render_nested(c, idx, depth, ci);
        return 1;
    }
    if (!is_container(comp))
        return 1;
    /* a native form's fieldset named as the form (DokuWiki's login): its line repeats the form's,
     * what it holds is the form's content */
    if (is_native_form(comp) && n->role && !strcmp(n->role, "group") && n->name && comp->label &&
        !strcmp(n->name, comp->label)) {
        pv_render_children(c, n, depth, n->name);
        return 1;
    }
    /* a tabs component's own tab headers repeat its state and setTab tool */
    if (comp->kind && !strcmp(comp->kind, "tabs") && n->role && !strcmp(n->role, "tab"))
        return 1;
    return 0;
}

/* Components the tree walk did not print (no rendered element), of one
 * sort: UI components (page_tools 0) or page-level tools (1), under one header. */
static void emit_unplaced(pctx *c, int page_tools)
{
    int header = 0;
    for (size_t i = 0; i < c->obs->n_comps && !c->rc; i++) {
        const perc_component *comp = &c->obs->comps[i];
        if (c->emitted[i] || !comp->visible || comp->agent_hidden || is_page_tool(comp) != page_tools)
            continue;
        const perc_node *root = comp->backend_id ? perc_obs_node_by_backend(c->obs, comp->backend_id) : NULL;
        if (root && root->hidden)
            continue;
        if (!header) {
            pv_start_line(c, PERC_LINE_HEADER, 0);
            pv_put(c, page_tools ? "page tools:\n" : "not on screen:\n");
            header = 1;
        }
        /* a UI component whose element is not rendered (inactive tab,
         * closed popup): names of its tools only; page-level tools
         * (WebMCP, bridge) have no state line and keep their signatures */
        if (page_tools)
            emit_page_tool(c, (int)i, 1);
        else
            emit_triplet(c, (int)i, 1, comp->backend_id != 0 || comp->provider_bit == PERC_PROVIDER_CI4A);
    }
}

static void unplaced_and_page_tools(pctx *c)
{
    emit_unplaced(c, 0);
    emit_unplaced(c, 1);
}

static const pv_hooks HYBRID_HOOKS = {hybrid_node, is_component_label, unplaced_and_page_tools, 1, 1};

eous_rc perc_render_hybrid(const perc_obs *obs, perc_view *out, eous_err *err)
{
    return pv_render_view(obs, &HYBRID_HOOKS, out, err);
}

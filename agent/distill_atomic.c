/* agent/distill_atomic.c — a hybrid recording's calls as the atomic steps a person takes (see
 * distill.h): what atomic mode, whose view prints no component, replays.  Each hybrid view the trace
 * holds is read for what it tells of its components (options' labels, the states of groups, switches
 * and sliders, a table's rows, a modal's buttons); a call becomes the clicks, keys and typing that do it
 * on what the atomic view prints, or stays a call (strict grounding refuses it, naming it). */
#define _GNU_SOURCE
#include "agent/distill_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"

#define DV_MAX_KEYS 400 /* a slider's keys pressed at most (each is a replay step) */

/* ---- a call as atomic steps (what atomic mode, whose view prints no component, replays) ---- */

/* A quoted script target "kind 'text'" into out ('"' when text holds a quote). */
static void quoted(char *out, size_t n, const char *kind, const char *text)
{
    snprintf(out, n, "%s %c%s%c", kind, strchr(text, '\'') ? '"' : '\'', text, strchr(text, '\'') ? '"' : '\'');
}

static cJSON *atomic_type(const char *target, const cJSON *value, int enter)
{
    cJSON *s = cJSON_CreateObject();
    char num[64];
    if (cJSON_IsNumber(value))
        snprintf(num, sizeof num, "%g", value->valuedouble);
    cJSON_AddStringToObject(s, "type", target);
    cJSON_AddStringToObject(s, "text", cJSON_IsNumber(value) ? num : value->valuestring);
    cJSON_AddBoolToObject(s, "enter", enter);
    return s;
}

static cJSON *atomic_one(const char *verb, const char *target)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, verb, target);
    return s;
}

/* The name a person picks an option value by, into out: its label where the view printed key=Label,
 * else the key with its '-' and '_' as blanks ("frontend-engineer": "frontend engineer", which the
 * resolver and grounding match case aside); a parameter as it is. */
static const char *option_name(const cJSON *names, const char *value, char *out, size_t n)
{
    const char *label = eous_json_str(names, value);
    if (strstr(value, "{{"))
        return value;
    snprintf(out, n, "%s", label ? label : value);
    for (char *c = out; !label && *c; c++)
        if (*c == '-' || *c == '_')
            *c = ' ';
    return out;
}

/* The steps a person takes for a widget's call that sets no text (a step of a wizard, a radio
 * group's option, a tab, a tree select's item, a column's sort, a field cleared, a multiple
 * select's option) appended to out: the values as the options' names, which the resolver takes
 * loosely ("public" for radio 'Public'); 0, or -1 when none are known. */
static int atomic_of_widget(const char *kind, const char *field, const char *tool, const cJSON *params,
                            const cJSON *names, cJSON *out)
{
    char t[600], shown[256];
    const char *value = eous_json_str(params, "value"), *key = eous_json_str(params, "key");
    if (!strcmp(kind, "steps") && (!strcmp(tool, "next") || !strcmp(tool, "prev"))) {
        cJSON_AddItemToArray(out, atomic_one("click", !strcmp(tool, "next") ? "button 'Next'" : "button 'Previous'"));
        return 0;
    }
    if (!strcmp(tool, "clear") && (!strcmp(kind, "input") || !strcmp(kind, "textarea"))) {
        cJSON *empty = cJSON_CreateString("");
        cJSON_AddItemToArray(out, atomic_type(field, empty, 0));
        cJSON_Delete(empty);
        return 0;
    }
    const char *role = !strcmp(kind, "radiogroup") && value && !strcmp(tool, "setValue") ? "radio"
                       : !strcmp(kind, "tabs") && key && !strcmp(tool, "setTab")     ? "tab"
                       : !strcmp(kind, "treeselect") && value && !strcmp(tool, "setValue") ? "treeitem"
                                                                                            : NULL;
    if (role) { /* a tree select opens on its field first */
        if (!strcmp(role, "treeitem"))
            cJSON_AddItemToArray(out, atomic_one("click", field));
        quoted(t, sizeof t, role, value ? option_name(names, value, shown, sizeof shown) : key);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(params, "path"), *level;
    int levels = cJSON_IsArray(path) && cJSON_GetArraySize(path) > 0;
    cJSON_ArrayForEach(level, path) levels &= cJSON_IsString(level);
    if (!strcmp(kind, "cascader") && !strcmp(tool, "setValue") && levels) {
        quoted(t, sizeof t, "combobox", field); /* its label alone names a column's header too */
        cJSON_AddItemToArray(out, atomic_one("click", t));
        cJSON_ArrayForEach(level, path) /* a level with levels under it names its icon */
        {
            char item[300];
            snprintf(item, sizeof item, "%s%s", option_name(names, level->valuestring, shown, sizeof shown),
                     level->next ? " right" : "");
            quoted(t, sizeof t, "menuitemcheckbox", item);
            cJSON_AddItemToArray(out, atomic_one("click", t));
        }
        return 0;
    }
    const cJSON *query = cJSON_GetObjectItemCaseSensitive(params, "query");
    if (!strcmp(kind, "cascader") && !strcmp(tool, "search") && cJSON_IsString(query)) {
        /* its field takes no text: a person opens it and the first level's item the query names, whose
         * levels under it then show (a query that is no such item fails there, naming it) */
        char item[300];
        quoted(t, sizeof t, "combobox", field);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        snprintf(item, sizeof item, "%s right", query->valuestring);
        quoted(t, sizeof t, "menuitemcheckbox", item);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    const char *column = eous_json_str(params, "column"), *order = eous_json_str(params, "order");
    if (!strcmp(kind, "table") && !strcmp(tool, "sort") && column && order &&
        (!strcmp(order, "ascend") || !strcmp(order, "descend"))) {
        quoted(t, sizeof t, "columnheader", column); /* a header's clicks go ascending, then descending */
        for (int i = !strcmp(order, "ascend") ? 1 : 2; i > 0; i--)
            cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    if (!strcmp(kind, "select") && !strcmp(tool, "select") && value) { /* a multiple select stays open */
        cJSON *sel = atomic_one("select", field);
        cJSON_AddStringToObject(sel, "option", value);
        cJSON_AddItemToArray(out, sel);
        cJSON_AddItemToArray(out, atomic_one("press", "Escape"));
        return 0;
    }
    return -1;
}

/* The atomic steps doing call step s on a component kind 'label' (the field by its label, a
 * form's fields then its button, a link of a group) appended to out; 0, or -1 when no atomic
 * steps are known for it (the call is kept: atomic mode names it ungrounded; a cascader's search
 * is one). */
static int atomic_of_call(const cJSON *s, const dv_params *ps, cJSON *out)
{
    const cJSON *names = ps->names;
    char shown[256];
    char kind[64], label[512], t[600];
    int nth = 1;
    const char *tool = eous_json_str(s, "tool") ? eous_json_str(s, "tool") : "";
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(s, "params"), *only = params ? params->child : NULL;
    if (act_parse_role_name(eous_json_str(s, "call"), kind, sizeof kind, label, sizeof label, &nth) || nth > 1)
        return -1; /* a page tool (no kind: nothing on the page to do it by hand) or one of several */
    const char *field = !strncmp(label, "* ", 2) ? label + 2 : label;
    int one_value = only && !only->next && (cJSON_IsString(only) || cJSON_IsNumber(only));
    if (!strcmp(tool, "click") || !strcmp(tool, "check") || !strcmp(tool, "uncheck") ||
        (!strcmp(tool, "toggle") && (!strcmp(kind, "switch") || !strcmp(kind, "checkbox")))) {
        int own = !strcmp(kind, "button") || !strcmp(kind, "link") || !strcmp(kind, "checkbox") ||
                  !strcmp(kind, "switch"); /* its label alone names its text too */
        if (own)
            quoted(t, sizeof t, kind, label);
        cJSON_AddItemToArray(out, atomic_one("click", own ? t : field));
        return 0;
    }
    if (!strcmp(tool, "open") && one_value && cJSON_IsString(only) && !strcmp(only->string, "link")) {
        quoted(t, sizeof t, "link", only->valuestring);
        cJSON_AddItemToArray(out, atomic_one("click", t));
        return 0;
    }
    if (!atomic_of_widget(kind, field, tool, params, names, out))
        return 0;
    if (!strcmp(tool, "setValue") && one_value) {
        const char *k = only->string;
        if (!strcmp(kind, "select") && cJSON_IsString(only)) {
            const char *v = only->valuestring;
            if (!strstr(v, "{{") && !(ps->intent && strcasestr(ps->intent, option_name(names, v, shown, sizeof shown))))
                cJSON_AddItemToArray(out, atomic_one("click", field)); /* opened: its options, which no intent names, show */
            cJSON *sel = atomic_one("select", field);
            cJSON_AddStringToObject(sel, "option", option_name(names, only->valuestring, shown, sizeof shown));
            cJSON_AddItemToArray(out, sel);
        } else { /* a date or time is taken on Enter, as a person types it */
            cJSON_AddItemToArray(out, atomic_type(field, only, !strcmp(k, "date") || !strcmp(k, "time")));
        }
        return 0;
    }
    if ((!strcmp(tool, "fill") || !strcmp(tool, "submit")) && !strcmp(kind, "form")) {
        const cJSON *f;
        cJSON_ArrayForEach(f, params)
        {
            /* a field without a label is keyed by its name attribute (perception/native.js): lower case, no
             * blank; the atomic view prints it without a name, so css= finds it */
            char by_name[300];
            const char *k = f->string;
            int attr = strcspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ \"'") == strlen(k) && strlen(k) < 200;
            if (attr)
                snprintf(by_name, sizeof by_name, "css=[name=\"%s\"]", k);
            else if (k[0] == '[') /* a name such as "[F]" (an access key) alone reads as a view id */
                quoted(by_name, sizeof by_name, "textbox", k);
            attr |= k[0] == '[';
            if (cJSON_IsString(f) || cJSON_IsNumber(f))
                cJSON_AddItemToArray(out, atomic_type(attr ? by_name : k, f, 0));
            else if (cJSON_IsTrue(f))
                cJSON_AddItemToArray(out, atomic_one("click", attr ? by_name : k));
        }
        if (!strcmp(tool, "submit")) { /* a form is labelled by its submit button (perception/native.js) */
            quoted(t, sizeof t, "button", label);
            cJSON_AddItemToArray(out, atomic_one("click", t));
        }
        return 0;
    }
    return -1;
}

/* A step's "from" (how the replay grounds a value it computed), NULL when it states none. */
static const cJSON *step_from(const cJSON *s)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(s, "from");
    return cJSON_IsString(f) ? f : NULL;
}

/* steps with each call as atomic steps where they are known; NULL when steps hold no call. */
cJSON *dv_atomic_steps(const cJSON *steps, const dv_params *ps)
{
    cJSON *out = cJSON_CreateArray();
    int calls = 0, i = 0;
    const cJSON *s, *t, *over = ps->over;
    const char *opened = ""; /* the tab the steps before opened */
    cJSON_ArrayForEach(s, steps)
    {
        int call = cJSON_GetObjectItemCaseSensitive(s, "call") != NULL;
        calls += call;
        char key[16], tk[24], tq[300];
        snprintf(tk, sizeof tk, "ti:%d", i);
        const char *tab = eous_json_str(ps->boxes, tk); /* the hidden tab holding its component, opened first */
        const char *shown = eous_json_str(ps->boxes, "activetab"), *back = NULL;
        char name[256];
        if (!tab && *opened && call && shown) /* a call on what the hybrid view showed: its tab again */
            back = option_name(ps->names, shown, name, sizeof name);
        if ((tab && strcmp(tab, opened)) || back) {
            quoted(tq, sizeof tq, "tab", tab ? tab : back);
            cJSON_AddItemToArray(out, atomic_one("click", tq));
        }
        opened = tab ? tab : "";
        snprintf(key, sizeof key, "%d", i++);
        const cJSON *told = cJSON_GetObjectItemCaseSensitive(over, key), *from = step_from(s);
        cJSON_ArrayForEach(t, told) /* what the view told of the step (a checkbox group's clicks) */
            cJSON_AddItemToArray(out, cJSON_Duplicate(t, 1));
        int at = cJSON_GetArraySize(out);
        if (!told && (!call || atomic_of_call(s, ps, out)))
            cJSON_AddItemToArray(out, cJSON_Duplicate(s, 1));
        for (cJSON *typed = told || !from ? NULL : cJSON_GetArrayItem(out, at); typed; typed = typed->next)
            if (cJSON_GetObjectItemCaseSensitive(typed, "type") && !cJSON_GetObjectItemCaseSensitive(typed, "from"))
                cJSON_AddStringToObject(typed, "from", from->valuestring); /* the call's value, typed */
    }
    if (!calls && !cJSON_GetArraySize(over)) { /* over: a stop answer's own steps (dv_tell_stop) */
        cJSON_Delete(out);
        return NULL;
    }
    return out;
}

/* ---- what a hybrid view tells of its components ---------------------------------- */

/* The line's component kind and label as perception read them: 1 when it is a component of kind kind
 * whose label is printed. */
static int component_is(const perc_line *l, const char *kind)
{
    return l->kind == PERC_LINE_COMPONENT && l->id.s && l->name.s && perc_span_is(l->role, kind, strlen(kind));
}

/* A span's bytes into out (cut at n - 1). */
static const char *span_str(perc_span sp, char *out, size_t n)
{
    snprintf(out, n, "%.*s", sp.s ? (int)sp.len : 0, sp.s ? sp.s : "");
    return out;
}

/* The value of the line's state key, s NULL when it prints none. */
static perc_span state_of(const perc_line *l, const char *key)
{
    for (size_t i = 0; i < l->n_state; i++)
        if (perc_span_is(l->state[i].key, key, strlen(key)))
            return l->state[i].value;
    return (perc_span){0};
}

/* A list state value's items (perception reads "email | sms") as an array of strings. */
static cJSON *items_of(perc_span value)
{
    perc_span items[256];
    size_t n = perc_span_items(value, items, 256);
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        char *v = strndup(items[i].s, items[i].len);
        if (v)
            cJSON_AddItemToArray(a, cJSON_CreateString(v));
        free(v);
    }
    return a;
}

/* 1 when [s, s + n) is a key a tool's list names ("onsite" in "onsite=On-site"). */
static int option_key(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
            return 0;
    return n > 0;
}

/* Each "key=Label" a hybrid view's tool lists print (setValue(value: onsite=On-site|hybrid)) into names:
 * the option a person picks by its label for a value a call took by its key. */
static void collect_names(cJSON *names, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        for (size_t t = 0; l->kind == PERC_LINE_COMPONENT && t < l->n_tools; t++)
            for (size_t k = 0; k < l->tools[t].n_params; k++) {
                perc_span ty = l->tools[t].params[k].type;
                /* the type's values, '|' apart: "onsite=On-site" names a key's label */
                for (size_t v = 0, e; ty.s && v < ty.len; v = e + 1) {
                    for (e = v; e < ty.len && ty.s[e] != '|'; e++)
                        ;
                    const char *eq = memchr(ty.s + v, '=', e - v);
                    size_t kn = eq ? (size_t)(eq - ty.s) - v : 0, ln = eq ? e - v - kn - 1 : 0;
                    char key[128], label[256];
                    if (!eq || !option_key(ty.s + v, kn) || !ln || eq[1] == '=' || eq[1] == ' ' || kn >= sizeof key ||
                        ln >= sizeof label)
                        continue;
                    snprintf(key, sizeof key, "%.*s", (int)kn, ty.s + v);
                    snprintf(label, sizeof label, "%.*s", (int)ln, eq + 1);
                    if (!cJSON_GetObjectItemCaseSensitive(names, key))
                        cJSON_AddStringToObject(names, key, label);
                }
            }
    }
}

/* What each checkbox group line holds ("[c8] checkboxgroup 'Notifications' value: email | sms →")
 * into boxes, by view id: its values, an array. */
static void collect_boxes(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if (!component_is(l, "checkboxgroup") || !l->n_tools || l->id.len >= 16)
            continue;
        char key[16];
        span_str(l->id, key, sizeof key);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddItemToObject(boxes, key, items_of(state_of(l, "value")));
    }
}

/* What each slider line holds ("[c7] slider 'Retention (days)' value: 30 → setValue(value:
 * integer, 1..365, step 5)") into boxes, by "s:" and view id: "30 1 5 1 Retention (days)", its value ("-"
 * when it has none), least value, step, the sliders the view holds and its label. */
static void collect_sliders(cJSON *boxes, const perc_lines *ls)
{
    int sliders = 0;
    for (size_t i = 0; i < perc_lines_count(ls); i++)
        sliders += component_is(perc_lines_at(ls, i), "slider");
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if (!component_is(l, "slider") || l->id.len >= 16 || !l->n_tools ||
            !perc_span_is(l->tools[0].name, "setValue", 8) || !l->tools[0].n_params ||
            !perc_span_is(l->tools[0].params[0].name, "value", 5))
            continue;
        char key[24], held[512], value[32] = "-", name[400];
        double min = 0, step = 1;
        if (perc_param_range(&l->tools[0].params[0], &min, &step))
            continue; /* a slider without a least value: its keys' count is not known */
        perc_span v = state_of(l, "value");
        if (v.s && v.len)
            span_str(v, value, sizeof value);
        snprintf(key, sizeof key, "s:%.*s", (int)l->id.len, l->id.s);
        snprintf(held, sizeof held, "%s %g %g %d %s", value, min, step, sliders, span_str(l->name, name, sizeof name));
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, held);
    }
}

/* The cells of a hybrid table's row line ("\t| u001 | Annie Boyd | ... |") into cells (at most max,
 * each up to 255 bytes); their count. */
static int row_cells(const perc_line *l, char cells[][256], int max)
{
    int n = 0;
    for (size_t i = 0; l && l->kind == PERC_LINE_ROW && !l->mark && i < l->n_cells && n < max; i++)
        span_str(l->cells[i], cells[n++], 256);
    return n;
}

/* Each row a hybrid table line prints ("[c5] table 'Users' ... →" then "| key | name | ..." and a line per
 * row) into boxes by "r:" and its key: "3 Joan Knuth", its place among the rows printed (the page's row
 * a person sees) and its name (the cell under "name", else the one after the key). */
static void collect_rows(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        char cells[16][256];
        if (!component_is(l, "table"))
            continue;
        int cols = row_cells(perc_lines_at(ls, i + 1), cells, 16), name = 1, place = 0;
        if (cols < 2 || strcmp(cells[0], "key"))
            continue;
        if (l->id.len < 16 && l->n_tools) { /* the rows it holds selected, by "sel:" and id: their keys */
            char key[24];
            snprintf(key, sizeof key, "sel:%.*s", (int)l->id.len, l->id.s);
            cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
            cJSON_AddItemToObject(boxes, key, items_of(state_of(l, "selectedRowKeys")));
        }
        for (int c = 1; c < cols; c++)
            if (!strcmp(cells[c], "name"))
                name = c;
        for (size_t r = i + 2; row_cells(perc_lines_at(ls, r), cells, 16) > name; r++) {
            char key[300], held[300];
            snprintf(key, sizeof key, "r:%s", cells[0]);
            snprintf(held, sizeof held, "%d %s", ++place, cells[name]);
            cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
            cJSON_AddStringToObject(boxes, key, held);
        }
    }
}

/* A checkbox whose line follows a line of text alone at its depth ("\tExtras" above "\t[c10] checkbox
 * 'Breakfast included'"): the atomic view names it with that label in front ("Extras Breakfast included",
 * a form item's label and the box's text), into boxes by "x:" and its view id. */
static void collect_labelled_boxes(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 1; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i), *prev = perc_lines_at(ls, i - 1);
        perc_span pt = prev->whole;
        if (!component_is(l, "checkbox") || !l->id_first || l->mark || l->id.len >= 16 || prev->mark ||
            prev->depth != l->depth || !pt.len || pt.len > 80 || prev->kind != PERC_LINE_TEXT ||
            memchr(pt.s, '\'', pt.len) || memchr(pt.s, ':', pt.len))
            continue; /* not a label alone: a component, a named line, a note */
        char key[24], label[400];
        snprintf(key, sizeof key, "x:%.*s", (int)l->id.len, l->id.s);
        snprintf(label, sizeof label, "%.*s %.*s", (int)pt.len, pt.s, (int)l->name.len, l->name.s);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, label);
    }
}

/* Each switch or checkbox line's state ("[c15] switch 'Active' checked: true →") into boxes by "k:" and view
 * id: "true switch Active", its state, kind and name. */
static void collect_toggles(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if ((!component_is(l, "switch") && !component_is(l, "checkbox")) || l->id.len >= 16 || !l->n_state ||
            !perc_span_is(l->state[0].key, "checked", 7) || !l->state[0].value.len)
            continue;
        char key[24], held[600];
        snprintf(key, sizeof key, "k:%.*s", (int)l->id.len, l->id.s);
        snprintf(held, sizeof held, "%s %.*s %.*s", perc_span_is(l->state[0].value, "true", 4) ? "true" : "false",
                 (int)l->role.len, l->role.s, (int)l->name.len, l->name.s);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, held);
    }
}

/* The name of the last button in the block of a modal or drawer line at i: in a full view the lines
 * indented under it; in a delta's added lines the "+" lines after it, where its components print at its
 * own depth (a delta keeps no component's indentation), until a line that is no "+".  Into last. */
static void block_last_button(const perc_lines *ls, size_t i, char *last, size_t n)
{
    const perc_line *l = perc_lines_at(ls, i), *b;
    int added = l->mark == '+';
    for (size_t k = i + 1; (b = perc_lines_at(ls, k)); k++) {
        if (added ? b->mark != '+' : b->mark || l->mark || b->depth <= l->depth)
            break;
        if (b->kind == PERC_LINE_ELEMENT && perc_span_is(b->role, "button", 6) && b->name.s &&
            (b->id_first || !b->id.s || b->role.s == b->whole.s))
            span_str(b->name, last, n);
        else if (added && component_is(b, "button"))
            span_str(b->name, last, n);
    }
}

/* The last button a modal's or drawer's block prints ("[c9] modal 'Edit user' ..." then, indented under
 * it, "button [3] 'Save'"; a drawer's "[c10] button 'Create user'"): the one that submits it, as antd's
 * footer puts OK last; into boxes by "m:" and view id. */
static void collect_modal_buttons(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if ((!component_is(l, "modal") && !component_is(l, "drawer")) || l->id.len >= 16 ||
            i + 1 >= perc_lines_count(ls) || (l->mark && l->mark != '+'))
            continue;
        char last[300] = "", key[24];
        block_last_button(ls, i, last, sizeof last);
        snprintf(key, sizeof key, "m:%.*s", (int)l->id.len, l->id.s);
        if (!*last && component_is(l, "drawer"))
            continue; /* a closed drawer's block holds no button: what it held is still known */
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        if (*last)
            cJSON_AddStringToObject(boxes, key, last);
    }
}

/* 1 when the line's state key's value is word, quoted or not ("mode: 'multiple'"). */
static int state_says(const perc_line *l, const char *key, const char *word)
{
    perc_span v = state_of(l, key);
    size_t n = strlen(word);
    if (v.s && v.len == n + 2 && v.s[0] == '\'' && v.s[v.len - 1] == '\'')
        v.s++, v.len -= 2;
    return v.s && perc_span_is(v, word, n);
}

/* What each multiple select line holds ("[c11] select 'Members' mode: 'multiple' value: Annie Boyd |
 * Niklaus Turing", a tags select's too) into boxes by "ms:" and view id: {"name", "values"}, its label
 * and the options it holds selected. */
static void collect_multi_selects(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if (!component_is(l, "select") || l->id.len >= 16 || l->mark == '-' ||
            (!state_says(l, "mode", "multiple") && !state_says(l, "mode", "tags")))
            continue;
        char key[24], name[400];
        snprintf(key, sizeof key, "ms:%.*s", (int)l->id.len, l->id.s);
        cJSON *held = cJSON_CreateObject();
        cJSON_AddStringToObject(held, "name", span_str(l->name, name, sizeof name));
        cJSON_AddItemToObject(held, "values", items_of(state_of(l, "value")));
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddItemToObject(boxes, key, held);
    }
}

/* The tab whose hidden panel holds each component not on screen ("[c11] select 'Members' in tab 'Members'")
 * into boxes by "tab:" and view id (a later line that names none leaves it: the panel still holds it). */
static void collect_tabs(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if (l->kind != PERC_LINE_COMPONENT || !l->id.s || l->id.len >= 16 || !l->tab.s || !l->tab.len ||
            l->mark == '-')
            continue;
        char key[24], tab[300];
        snprintf(key, sizeof key, "tab:%.*s", (int)l->id.len, l->id.s);
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddStringToObject(boxes, key, span_str(l->tab, tab, sizeof tab));
    }
}

/* The key of the tab a tabs line shows ("[c3] tabs 'Settings sections' activeKey: 'general'"), the panel
 * whose components a hybrid call reaches on screen, into boxes by "activetab". */
static void collect_active_tab(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        perc_span v = state_of(l, "activeKey");
        if (!component_is(l, "tabs") || l->mark == '-' || !v.s || v.len < 1 || v.len > 200)
            continue;
        if (v.len > 2 && v.s[0] == '\'' && v.s[v.len - 1] == '\'')
            v.s++, v.len -= 2;
        char key[256];
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, "activetab");
        cJSON_AddStringToObject(boxes, "activetab", span_str(v, key, sizeof key));
    }
}

/* The two text fields a range picker line names ("[c2] rangepicker 'Order dates' fields: From date | To
 * date", as the atomic view names its textboxes) into boxes by "rf:" and view id, an array. */
static void collect_range_fields(cJSON *boxes, const perc_lines *ls)
{
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        if (!component_is(l, "rangepicker") || l->id.len >= 16 || l->n_fields != 2 || l->mark == '-')
            continue;
        char key[24], name[300];
        snprintf(key, sizeof key, "rf:%.*s", (int)l->id.len, l->id.s);
        cJSON *fields = cJSON_CreateArray();
        for (size_t f = 0; f < 2; f++)
            cJSON_AddItemToArray(fields, cJSON_CreateString(span_str(l->fields[f], name, sizeof name)));
        cJSON_DeleteItemFromObjectCaseSensitive(boxes, key);
        cJSON_AddItemToObject(boxes, key, fields);
    }
}

/* A range picker's setValue(start, end) on view id id as a person types it: each date into its field by the
 * name the view printed (textbox 'From date'), taken on Enter; into ps->over at index.  Nothing when its
 * fields are not known (the call is kept). */
static void range_steps(dv_params *ps, const char *id, const cJSON *params, int index)
{
    char key[24], t[400];
    snprintf(key, sizeof key, "rf:%s", id);
    const cJSON *fields = cJSON_GetObjectItemCaseSensitive(ps->boxes, key);
    const char *dates[2] = {eous_json_str(params, "start"), eous_json_str(params, "end")};
    if (cJSON_GetArraySize(fields) != 2 || !dates[0] || !dates[1])
        return;
    cJSON *steps = cJSON_CreateArray();
    for (int f = 0; f < 2; f++) {
        char *ph = dv_with_placeholders(ps, dates[f]);
        cJSON *v = cJSON_CreateString(ph ? ph : dates[f]);
        quoted(t, sizeof t, "textbox", cJSON_GetArrayItem(fields, f)->valuestring);
        cJSON_AddItemToArray(steps, atomic_type(t, v, 1));
        cJSON_Delete(v);
        free(ph);
    }
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A call at index on a component a hidden tab holds: the tab, which a person opens first, into boxes by "ti:"
 * and the index (dv_atomic_steps clicks it). */
static void tab_first(dv_params *ps, const char *id, int index)
{
    char key[24];
    snprintf(key, sizeof key, "tab:%s", id);
    const char *tab = eous_json_str(ps->boxes, key);
    if (!tab)
        return;
    snprintf(key, sizeof key, "ti:%d", index);
    cJSON_DeleteItemFromObjectCaseSensitive(ps->boxes, key);
    cJSON_AddStringToObject(ps->boxes, key, tab);
}

/* A slider's setValue on view id id as a person does it by keys, into ps->over at index: the
 * slider clicked, then ArrowRight or ArrowLeft once a step from the value it held (Home first
 * when it held none); antd's slider takes keys, not text.  The atomic view prints a slider without
 * a name (its label's for= names a div), so it is the page's one slider by role, or the call is kept. */
static void slider_keys(dv_params *ps, const char *id, const cJSON *params, int index)
{
    char key[24], value[32], label[512];
    double min, step;
    int sliders = 0;
    snprintf(key, sizeof key, "s:%s", id);
    const char *held = eous_json_str(ps->boxes, key);
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "value");
    if (!held || !cJSON_IsNumber(want) ||
        sscanf(held, "%31s %lf %lf %d %511[^\n]", value, &min, &step, &sliders, label) != 5 || step <= 0 ||
        sliders != 1)
        return;
    int none = !strcmp(value, "-");
    double from = none ? min : atof(value);
    double d = (want->valuedouble - from) / step;
    long n = (long)(d < 0 ? d - 0.5 : d + 0.5);
    if (labs(n) > DV_MAX_KEYS)
        return; /* too far to walk by keys: the call is kept */
    cJSON *steps = cJSON_CreateArray();
    cJSON_AddItemToArray(steps, atomic_one("click", "css=[role=\"slider\"]"));
    if (none)
        cJSON_AddItemToArray(steps, atomic_one("press", "Home"));
    for (long i = 0; i < labs(n); i++)
        cJSON_AddItemToArray(steps, atomic_one("press", n > 0 ? "ArrowRight" : "ArrowLeft"));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* 1 when value is one of held's values (an array, collect_boxes). */
static int box_held(const cJSON *held, const char *value)
{
    const cJSON *h;
    cJSON_ArrayForEach(h, held) if (cJSON_IsString(h) && !strcmp(h->valuestring, value)) return 1;
    return 0;
}

/* A checkbox group's setValue on view id id as the boxes a person clicks (each one whose state
 * changes, named loosely as the atomic view prints it: "c" for checkbox 'C'), into ps->over at index. */
static void boxes_to_click(dv_params *ps, const char *id, const cJSON *params, int index)
{
    const cJSON *held = cJSON_GetObjectItemCaseSensitive(ps->boxes, id), *h;
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "values"), *w;
    if (!cJSON_IsArray(held) || !cJSON_IsArray(want))
        return;
    cJSON *steps = cJSON_CreateArray();
    char t[300], shown[256], key[16];
    cJSON_ArrayForEach(w, want)
    if (cJSON_IsString(w) && !box_held(held, w->valuestring)) {
        quoted(t, sizeof t, "checkbox", option_name(ps->names, w->valuestring, shown, sizeof shown));
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    cJSON_ArrayForEach(h, held) /* what it held and the call leaves out: unchecked */
    {
        char v[200];
        snprintf(v, sizeof v, "%s", cJSON_IsString(h) ? h->valuestring : "");
        int kept = 0;
        cJSON_ArrayForEach(w, want) kept |= cJSON_IsString(w) && !strcmp(w->valuestring, v);
        if (!kept && *v) {
            quoted(t, sizeof t, "checkbox", option_name(ps->names, v, shown, sizeof shown));
            cJSON_AddItemToArray(steps, atomic_one("click", t));
        }
    }
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A checkbox group's check(value) or uncheck(value) on view id id as a click on that box when its state
 * changes (none when it already is as asked), into ps->over at index. */
static void box_toggle(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    const cJSON *held = cJSON_GetObjectItemCaseSensitive(ps->boxes, id);
    const char *value = eous_json_str(params, "value");
    if (!cJSON_IsArray(held) || !value)
        return;
    cJSON *steps = cJSON_CreateArray();
    char t[300], shown[256], key[16];
    if (box_held(held, value) == !strcmp(tool, "uncheck")) {
        quoted(t, sizeof t, "checkbox", option_name(ps->names, value, shown, sizeof shown));
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A select on a multiple select named field (the atomic view's combobox, by its label) of one option,
 * which toggles it and leaves the list open; appended to steps (a parameter's value as its placeholder). */
static void option_toggle(const dv_params *ps, const char *field, const char *value, cJSON *steps)
{
    char shown[256];
    const char *name = option_name(ps->names, value, shown, sizeof shown);
    char *ph = dv_with_placeholders(ps, name);
    cJSON *sel = atomic_one("select", field);
    cJSON_AddStringToObject(sel, "option", ph ? ph : name);
    free(ph);
    cJSON_AddItemToArray(steps, sel);
}

/* A multiple select's setValue(values), select(value), deselect(value) or clear() on view id id as a
 * person does it: each option whose state changes selected (selecting a selected option unselects it),
 * then Escape to close its list; into ps->over at index.  Nothing when the select's options are not known (the call is kept). */
static void multi_select_steps(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    char key[24];
    snprintf(key, sizeof key, "ms:%s", id);
    const cJSON *sel = cJSON_GetObjectItemCaseSensitive(ps->boxes, key), *h, *w;
    const cJSON *held = cJSON_GetObjectItemCaseSensitive(sel, "values");
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "values");
    const char *field = eous_json_str(sel, "name"), *value = eous_json_str(params, "value");
    int set = !strcmp(tool, "setValue") && cJSON_IsArray(want), clear = !strcmp(tool, "clear");
    int one = (!strcmp(tool, "select") || !strcmp(tool, "deselect")) && value;
    if (!field || !cJSON_IsArray(held) || (!set && !clear && !one))
        return;
    cJSON *steps = cJSON_CreateArray(), *toggles = cJSON_CreateArray(), *t;
    if (one && box_held(held, value) == !strcmp(tool, "deselect"))
        option_toggle(ps, field, value, toggles);
    const cJSON *adds = set ? want : NULL, *drops = set || clear ? held : NULL;
    cJSON_ArrayForEach(w, adds) if (cJSON_IsString(w) && !box_held(held, w->valuestring))
        option_toggle(ps, field, w->valuestring, toggles);
    cJSON_ArrayForEach(h, drops) if (cJSON_IsString(h) && (clear || !box_held(want, h->valuestring)))
        option_toggle(ps, field, h->valuestring, toggles);
    while ((t = cJSON_DetachItemFromArray(toggles, 0)))
        cJSON_AddItemToArray(steps, t);
    if (cJSON_GetArraySize(steps))
        cJSON_AddItemToArray(steps, atomic_one("press", "Escape"));
    cJSON_Delete(toggles);
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A checkbox the atomic view names with its form item's label in front (collect_labelled_boxes) checked,
 * unchecked or toggled on view id id: a click on it by that name, into ps->over at index. */
static void labelled_box(dv_params *ps, const char *id, const char *tool, int index)
{
    char key[24], t[500];
    snprintf(key, sizeof key, "x:%s", id);
    const char *name = eous_json_str(ps->boxes, key);
    if (!name || (strcmp(tool, "check") && strcmp(tool, "uncheck") && strcmp(tool, "toggle")))
        return;
    cJSON *steps = cJSON_CreateArray();
    quoted(t, sizeof t, "checkbox", name);
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* The menu item a person picks in a column's filter for value: its label where a hybrid line printed
 * key=Label, a boolean as the column's title and its negation ("true" on column Active: 'Active', "false":
 * 'Inactive', how a yes/no column's filter is worded), else the key with blanks (loosely matched). */
static const char *filter_item(const dv_params *ps, const char *title, const char *value, char *out, size_t n)
{
    if (!strcmp(value, "true") || !strcmp(value, "false")) {
        snprintf(out, n, "%s%s", !strcmp(value, "true") ? "" : "In", title);
        if (!strcmp(value, "false") && out[2])
            out[2] = (char)tolower((unsigned char)out[2]);
        return out;
    }
    return option_name(ps->names, value, out, n);
}

/* A table's filter(column, values) as a person sets it: the filter button in the column's header
 * (the atomic view prints `button 'filter'` once per filtered column, its header 'Role filter' tells
 * it apart), each value's menu item, then OK; into steps. -1 when it cannot (no value: a removal). */
static int filter_steps(const dv_params *ps, const cJSON *params, cJSON *steps)
{
    const char *column = eous_json_str(params, "column");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(params, "values"), *v;
    if (!column || !*column || !cJSON_IsArray(values) || !cJSON_GetArraySize(values) || strlen(column) > 120 ||
        strchr(column, '\''))
        return -1;
    char title[128], t[600], shown[256];
    snprintf(title, sizeof title, "%s", column); /* a column's key as its header's title: 'role', 'Role' */
    title[0] = (char)toupper((unsigned char)title[0]);
    snprintf(t, sizeof t, "button 'filter' under '%s filter'", title);
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    cJSON_ArrayForEach(v, values)
    {
        if (!cJSON_IsString(v))
            return -1;
        quoted(t, sizeof t, "menuitem", filter_item(ps, title, v->valuestring, shown, sizeof shown));
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    cJSON_AddItemToArray(steps, atomic_one("click", "button 'OK'"));
    return 0;
}

/* A table's rowAction(key, action) as a person does it on the row the view printed: "view" (or "open")
 * by the row's link, named by its key ('ORD-1002'); another action by its button, named by the action
 * and the row's name ('Edit Ivan Sammet'); into steps. -1 when the row was not printed. */
static int row_action_steps(const dv_params *ps, const cJSON *params, cJSON *steps)
{
    const char *key = eous_json_str(params, "key"), *action = eous_json_str(params, "action"), *held;
    char k[300], t[700], name[500];
    int place;
    if (!key || !action || !*action || strlen(key) > 200 || strlen(action) > 60)
        return -1;
    snprintf(k, sizeof k, "r:%s", key);
    if (!(held = eous_json_str(ps->boxes, k)) || sscanf(held, "%d %499[^\n]", &place, name) != 2)
        return -1;
    if (!strcmp(action, "view") || !strcmp(action, "open")) {
        quoted(t, sizeof t, "link", key);
    } else {
        char label[600];
        snprintf(label, sizeof label, "%c%s %s", toupper((unsigned char)action[0]), action + 1, name);
        quoted(t, sizeof t, "button", label);
    }
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    return 0;
}

/* A table's selectRows(keys, mode) on view id id as the row boxes a person clicks ('Select row 3': the
 * row's place among the rows printed), each whose state changes; into steps.  -1 for mode set over rows
 * already selected (unselecting rows off the page is not known) or a row not printed. */
static int select_rows_steps(const dv_params *ps, const char *id, const cJSON *params, cJSON *steps)
{
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(params, "keys"), *k;
    const char *mode = eous_json_str(params, "mode") ? eous_json_str(params, "mode") : "set";
    char sk[24];
    snprintf(sk, sizeof sk, "sel:%s", id);
    const cJSON *selected = cJSON_GetObjectItemCaseSensitive(ps->boxes, sk); /* NULL: none known */
    if (!cJSON_IsArray(keys) || !cJSON_GetArraySize(keys) || (!strcmp(mode, "set") && cJSON_GetArraySize(selected)))
        return -1;
    cJSON_ArrayForEach(k, keys)
    {
        char key[300], t[64];
        const char *held;
        int place;
        if (!cJSON_IsString(k) || strlen(k->valuestring) > 200)
            return -1;
        snprintf(key, sizeof key, "r:%s", k->valuestring);
        if (!(held = eous_json_str(ps->boxes, key)) || sscanf(held, "%d", &place) != 1)
            return -1;
        if (box_held(selected, k->valuestring) != !strcmp(mode, "remove"))
            continue; /* already as asked */
        snprintf(t, sizeof t, "checkbox 'Select row %d'", place);
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    }
    return 0;
}

/* A switch's or checkbox's setValue(checked) on view id id as a click on it when its state changes (none
 * when it already is as asked), by the name the atomic view prints (a form item's label in front where
 * collect_labelled_boxes found one); a modal's submit as a click on its last button; into ps->over. */
static void toggle_or_submit(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    char key[24], t[700] = "", held[8], kind[16], name[600];
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "checked");
    const char *h = NULL;
    snprintf(key, sizeof key, "%s:%s", !strcmp(tool, "submit") ? "m" : "k", id);
    if (!(h = eous_json_str(ps->boxes, key)))
        return;
    if (!strcmp(tool, "submit")) {
        quoted(t, sizeof t, "button", h);
    } else if (cJSON_IsBool(want) && sscanf(h, "%7s %15s %599[^\n]", held, kind, name) == 3) {
        snprintf(key, sizeof key, "x:%s", id);
        if (strcmp(held, cJSON_IsTrue(want) ? "true" : "false")) /* none when it already is as asked */
            quoted(t, sizeof t, kind, eous_json_str(ps->boxes, key) ? eous_json_str(ps->boxes, key) : name);
    } else {
        return;
    }
    cJSON *steps = cJSON_CreateArray();
    if (t[0])
        cJSON_AddItemToArray(steps, atomic_one("click", t));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, steps);
}

/* A menu's navigateTo(key) as a click on its item by the label the hybrid view printed for the key
 * ("booking=Travel booking"), else the key (loosely: 'users' for 'Users'); the run's key, before it
 * became a parameter, into ps->over at index. */
static void menu_item(dv_params *ps, const cJSON *params, int index)
{
    const char *key = eous_json_str(params, "key");
    char t[600], shown[256], k[16];
    if (!key || strlen(key) > 200)
        return;
    cJSON *steps = cJSON_CreateArray();
    quoted(t, sizeof t, "menuitem", option_name(ps->names, key, shown, sizeof shown));
    cJSON_AddItemToArray(steps, atomic_one("click", t));
    snprintf(k, sizeof k, "%d", index);
    cJSON_AddItemToObject(ps->over, k, steps);
}

/* A table's filter, row action or row selection as a person's steps (above), into ps->over at index;
 * nothing when they are not known (the call is kept). */
static void table_steps(dv_params *ps, const char *id, const char *tool, const cJSON *params, int index)
{
    cJSON *steps = cJSON_CreateArray();
    int rc = !strcmp(tool, "filter")       ? filter_steps(ps, params, steps)
             : !strcmp(tool, "rowAction")  ? row_action_steps(ps, params, steps)
             : !strcmp(tool, "selectRows") ? select_rows_steps(ps, id, params, steps)
                                           : -1;
    char key[16];
    snprintf(key, sizeof key, "%d", index);
    if (rc)
        cJSON_Delete(steps);
    else
        cJSON_AddItemToObject(ps->over, key, steps);
}

void dv_collect_view(dv_params *ps, const perc_lines *lines)
{
    collect_names(ps->names, lines);
    collect_boxes(ps->boxes, lines);
    collect_sliders(ps->boxes, lines);
    collect_rows(ps->boxes, lines);
    collect_labelled_boxes(ps->boxes, lines);
    collect_toggles(ps->boxes, lines);
    collect_modal_buttons(ps->boxes, lines);
    collect_multi_selects(ps->boxes, lines);
    collect_tabs(ps->boxes, lines);
    collect_range_fields(ps->boxes, lines);
    collect_active_tab(ps->boxes, lines);
}

void dv_tell_call(dv_params *ps, const char *cid, const char *tool, const cJSON *params, int index)
{
    char ms[24];
    snprintf(ms, sizeof ms, "ms:%s", cid);
    tab_first(ps, cid, index);
    if (cJSON_GetObjectItemCaseSensitive(ps->boxes, ms))
        multi_select_steps(ps, cid, tool, params, index);
    else if (!strcmp(tool, "setValue")) {
        boxes_to_click(ps, cid, params, index);
        slider_keys(ps, cid, params, index);
        range_steps(ps, cid, params, index);
        toggle_or_submit(ps, cid, tool, params, index);
    } else if (!strcmp(tool, "submit"))
        toggle_or_submit(ps, cid, tool, params, index);
    else if (!strcmp(tool, "check") || !strcmp(tool, "uncheck")) {
        box_toggle(ps, cid, tool, params, index);
        labelled_box(ps, cid, tool, index);
    } else if (!strcmp(tool, "toggle"))
        labelled_box(ps, cid, tool, index);
    else if (!strcmp(tool, "filter") || !strcmp(tool, "rowAction") || !strcmp(tool, "selectRows"))
        table_steps(ps, cid, tool, params, index);
    else if (!strcmp(tool, "navigateTo"))
        menu_item(ps, params, index);
}

/* A page tool's call (its target a tool's name, no kind) at index that took the page from url `from` to
 * `to`, the URL the next step was on (open_order: /orders/ORD-1055): a person gets there by the URL, so
 * atomic mode goes to it (parameter values in it as placeholders), into ps->over; nothing when the page
 * stayed. */
void dv_page_tool_went(dv_params *ps, const cJSON *steps, int index, const char *from, const char *to)
{
    char role[64], name[512], key[16];
    int nth;
    const char *call = eous_json_str(cJSON_GetArrayItem(steps, index), "call");
    if (!call || !act_parse_role_name(call, role, sizeof role, name, sizeof name, &nth) || !from || !to ||
        !strcmp(from, to) || strncmp(to, "http", 4))
        return;
    char *url = dv_with_placeholders(ps, to);
    cJSON *go = cJSON_CreateArray();
    if (url)
        cJSON_AddItemToArray(go, atomic_one("goto", url));
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, go);
    free(url);
}

/* The count of the "matches" list in an action's result text ("cascader-destination.search: ok; result
 * {"matches": [...]}; state {...}"), or -1. */
int dv_result_matches(const char *result)
{
    const char *r = result ? strstr(result, "; result {") : NULL;
    cJSON *j = r ? cJSON_ParseWithOpts(r + 9, NULL, 0) : NULL;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "matches");
    int n = cJSON_IsArray(m) ? cJSON_GetArraySize(m) : -1;
    cJSON_Delete(j);
    return n;
}

/* The slider whose value the hybrid view printed as answer (collect_sliders), the page's one slider: 1. */
static int slider_shows(const dv_params *ps, const char *answer)
{
    const cJSON *b;
    cJSON_ArrayForEach(b, ps->boxes)
    {
        char value[32];
        double min, step;
        int sliders = 0;
        if (b->string && !strncmp(b->string, "s:", 2) && cJSON_IsString(b) &&
            sscanf(b->valuestring, "%31s %lf %lf %d", value, &min, &step, &sliders) == 4 && sliders == 1 &&
            !strcmp(value, answer))
            return 1;
    }
    return 0;
}

void dv_tell_stop(dv_params *ps, const cJSON *steps, cJSON *s, int index)
{
    const char *answer = eous_json_str(s, "stop");
    char *end, kind[64], label[512], t[700], key[16];
    long n = answer ? strtol(answer, &end, 10) : -1;
    int nth = 1;
    if (!answer || !*answer || *end || n < 0)
        return; /* no count */
    const cJSON *prev = cJSON_GetArrayItem(steps, index - 1);
    const char *query = eous_json_str(cJSON_GetObjectItemCaseSensitive(prev, "params"), "query");
    cJSON *over = NULL;
    if (ps->matches >= 0 && ps->matches == n) {
        cJSON_AddStringToObject(s, "from", "count of matches in the last result");
        if (query && !strcmp(eous_json_str(prev, "tool") ? eous_json_str(prev, "tool") : "", "search") &&
            !act_parse_role_name(eous_json_str(prev, "call"), kind, sizeof kind, label, sizeof label, &nth) &&
            !strcmp(kind, "cascader") && !strchr(query, '\'')) { /* atomic: the level the search opened, listed */
            over = cJSON_CreateArray();
            cJSON *stop = atomic_one("stop", answer);
            snprintf(t, sizeof t, "count of options listed for '%s right'", query);
            cJSON_AddStringToObject(stop, "from", t);
            cJSON_AddItemToArray(over, stop);
        }
    } else if (slider_shows(ps, answer)) { /* the atomic view prints a slider's value on its handle's tooltip */
        over = cJSON_CreateArray();
        cJSON_AddItemToArray(over, atomic_one("click", "css=[role=\"slider\"]"));
        cJSON_AddItemToArray(over, atomic_one("stop", answer));
    }
    if (!over)
        return;
    snprintf(key, sizeof key, "%d", index);
    cJSON_AddItemToObject(ps->over, key, over);
}

/* agent/distill.c — a model's passed run as a plain job (see distill.h).
 *
 * The trace holds, for each step, the action as the model wrote it (view ids)
 * and the view it acted on (trace/<task>-<mode>/step-NN.txt, a full view or a
 * delta against the one before).  The views are rebuilt line by line into a
 * table of id -> role and name, and each action's ids are written as what that
 * table says, which the script resolver (actions/target.c, call.c) finds again. */
#define _GNU_SOURCE
#include "agent/distill.h"
#include "agent/distill_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"

#define DV_MAX_FILE (64u << 20)

/* ---- the view as the model saw it ----------------------------------------------- */

typedef struct dv_entry {
    char id[32];
    char role[64];  /* AX role, component kind, or "" for a page tool */
    char *name;     /* accessible name, component label, or the page tool's name */
} dv_entry;

typedef struct dv_view {
    dv_entry *e;
    size_t n, cap;
    int exact; /* 1: entries are in the page's order (a full view, no delta added lines since) */
} dv_view;

static void view_clear(dv_view *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->e[i].name);
    v->n = 0;
}

static dv_entry *view_find(dv_view *v, const char *id)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->e[i].id, id))
            return &v->e[i];
    return NULL;
}

/* A Python repr() string body from s (after its opening quote q), as the atomic view writes
 * names (perception/view_atomic.c perc_py_repr), decoded into a new string; NULL when it does
 * not close. */
static char *repr_decode(const char *s, char q)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (const char *p = s; out && *p && *p != '\n'; p++) {
        if (*p == q) {
            *o = '\0';
            return out;
        }
        if (*p != '\\' || !p[1]) {
            *o++ = *p;
            continue;
        }
        unsigned cp = 0;
        int hex = 0;
        switch (*++p) {
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'x': hex = 2; break;
        case 'u': hex = 4; break;
        default: *o++ = *p; break;
        }
        for (int i = 0; i < hex; i++) {
            if (!isxdigit((unsigned char)p[1]))
                break;
            char d = (char)tolower((unsigned char)*++p);
            cp = cp * 16 + (unsigned)(isdigit((unsigned char)d) ? d - '0' : d - 'a' + 10);
        }
        if (!hex)
            continue;
        if (cp < 0x80) { /* the code point as UTF-8 (the escapes stop below U+10000) */
            *o++ = (char)cp;
        } else if (cp < 0x800) {
            *o++ = (char)(0xC0 | (cp >> 6));
            *o++ = (char)(0x80 | (cp & 0x3F));
        } else {
            *o++ = (char)(0xE0 | (cp >> 12));
            *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
            *o++ = (char)(0x80 | (cp & 0x3F));
        }
    }
    free(out);
    return NULL;
}

/* One line perception read ("[id] role 'name' ...", the hybrid's "role [id] 'name' ...", "[cN] kind 'label'"
 * or "[cN] tool_name(...)") into out (name allocated): 0, or -1 when the line names no id and name.
 * repr: names are Python reprs (the atomic and pruned views); else as the hybrid view writes them. */
static int entry_of(const perc_line *l, int repr, dv_entry *out)
{
    memset(out, 0, sizeof *out);
    int tool = l->kind == PERC_LINE_PAGE_TOOL && l->n_tools; /* a page tool: its name is its label */
    int named = (l->kind == PERC_LINE_ELEMENT || l->kind == PERC_LINE_COMPONENT) && l->name.s && l->role.len;
    if (!l->id.s || !l->id.len || l->id.len >= sizeof out->id || l->role.len >= sizeof out->role || (!tool && !named))
        return -1;
    memcpy(out->id, l->id.s, l->id.len);
    if (tool) {
        out->name = strndup(l->tools[0].name.s, l->tools[0].name.len);
        return out->name ? 0 : -1;
    }
    memcpy(out->role, l->role.s, l->role.len);
    out->name = repr ? repr_decode(l->name.s, l->name.s[-1]) : strndup(l->name.s, l->name.len);
    return out->name ? 0 : -1;
}

/* e into v: in place of the entry with its id, else at index at (-1: at the end, its place among
 * the others not known). */
static eous_rc view_put(dv_view *v, dv_entry *e, long at, eous_err *err)
{
    dv_entry *old = view_find(v, e->id);
    if (old) {
        free(old->name);
        *old = *e;
        return EOUS_OK;
    }
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 256;
        dv_entry *ne = realloc(v->e, cap * sizeof *ne);
        if (!ne) {
            free(e->name);
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
        v->e = ne;
        v->cap = cap;
    }
    if (at < 0 || (size_t)at > v->n) {
        v->e[v->n++] = *e;
        v->exact = 0; /* a line a delta added below no line of the view: its place is not known */
        return EOUS_OK;
    }
    memmove(&v->e[at + 1], &v->e[at], (v->n - (size_t)at) * sizeof *v->e);
    v->e[at] = *e;
    v->n++;
    return EOUS_OK;
}

/* The entry with id removed, the others kept in their order. */
static void view_remove(dv_view *v, const char *id)
{
    dv_entry *e = view_find(v, id);
    if (!e)
        return;
    free(e->name);
    size_t i = (size_t)(e - v->e);
    memmove(&v->e[i], &v->e[i + 1], (v->n - i - 1) * sizeof *v->e);
    v->n--;
}

/* 1 when the line is the delta's section title (perception/delta.c: "added:", "removed:", ...). */
static int section_is(const perc_line *l, const char *title)
{
    return !l->mark && !l->depth && perc_span_is(l->whole, title, strlen(title));
}

/* The view after the model read the lines of a view (a full view, or a delta against the view before). */
static eous_rc view_update(dv_view *v, const perc_lines *ls, int repr, eous_err *err)
{
    int delta = perc_lines_delta(ls), removed = 0, added = 0;
    long at = -1; /* in the added section: where the next "+ " line goes (after the context line above it) */
    if (!delta) {
        view_clear(v);
        v->exact = 1;
    }
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        int title_added = delta && section_is(l, "added:");
        if (delta && section_is(l, "removed:"))
            removed = 1, added = 0;
        else if (title_added)
            removed = 0, added = 1, at = -1;
        else if (delta && section_is(l, "changed components:"))
            removed = 0, added = 0;
        dv_entry e;
        if (removed && l->mark == '-') { /* "- [c5]", the hybrid's "- role [id] 'name'" */
            char id[32];
            if (l->id.s && l->id.len < sizeof id) {
                snprintf(id, sizeof id, "%.*s", (int)l->id.len, l->id.s);
                view_remove(v, id);
            }
            continue;
        }
        int plus = l->mark == '+';
        if (added && !plus && !title_added) { /* a context line: the added lines go below it */
            dv_entry *anchor = NULL;
            if (entry_of(l, repr, &e) == 0) {
                anchor = view_find(v, e.id);
                free(e.name);
            }
            at = anchor ? (long)(anchor - v->e) + 1 : -1;
            continue;
        }
        if (!removed && entry_of(l, repr, &e) == 0) {
            long where = !delta ? (long)v->n : added && plus ? at : -1;
            int known = view_find(v, e.id) != NULL;
            eous_rc rc = view_put(v, &e, where, err);
            if (rc)
                return rc;
            if (added && plus && at >= 0 && !known)
                at++;
        }
    }
    return EOUS_OK;
}

/* ---- naming a target ---------------------------------------------------------- */

/* The heading entry e stands under in v (the last heading above it), or "" when none. */
static const char *heading_of(const dv_view *v, const dv_entry *e)
{
    for (const dv_entry *p = e; p-- > v->e;)
        if (!strcmp(p->role, "heading"))
            return p->name;
    return "";
}

/* 1 when e's heading is its own among the entries of its role and name (it tells e apart). */
static int heading_tells_apart(const dv_view *v, const dv_entry *e)
{
    const char *h = heading_of(v, e);
    if (!*h || strchr(h, '\'') || strchr(h, '"'))
        return 0;
    for (size_t i = 0; i < v->n; i++)
        if (&v->e[i] != e && !strcmp(v->e[i].role, e->role) && !strcmp(v->e[i].name, e->name) &&
            !strcmp(heading_of(v, &v->e[i]), h))
            return 0;
    return 1;
}

/* The script target for view id id ("12", "c3") into out: "role 'name'", "kind 'label'", a page
 * tool's name; when several share it, " under 'Heading'" where the heading above it tells it apart
 * (under: not for a call, whose target names a component) or " #N".  EOUS_E_INVALID naming the step
 * otherwise. */
static eous_rc name_target(dv_view *v, const char *id, int under, int step, const char *action, char *out,
                           size_t n, eous_err *err)
{
    const dv_entry *e = view_find(v, id);
    if (!e)
        return eous_err_set(err, EOUS_E_INVALID, "step %d (%s): [%s] is not in the view it acted on", step, action,
                            id);
    if (!e->role[0]) { /* a page tool: its name is unique among the page's tools */
        snprintf(out, n, "%s", e->name);
        return EOUS_OK;
    }
    int same = 0, nth = 0;
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->e[i].role, e->role) && !strcmp(v->e[i].name, e->name)) {
            same++;
            if (&v->e[i] == e)
                nth = same;
        }
    if (same > 1 && !v->exact)
        return eous_err_set(err, EOUS_E_INVALID,
                            "step %d (%s): %s '%s' names %d things in its view and their order is not known "
                            "(a delta added some)",
                            step, action, e->role, e->name, same);
    char q = strchr(e->name, '\'') ? '"' : '\'';
    if (q == '"' && strchr(e->name, '"'))
        return eous_err_set(err, EOUS_E_INVALID, "step %d (%s): the name of [%s] holds both quotes", step, action,
                            id);
    if (same > 1 && under && heading_tells_apart(v, e))
        snprintf(out, n, "%s %c%s%c under '%s'", e->role, q, e->name, q, heading_of(v, e));
    else if (same > 1)
        snprintf(out, n, "%s %c%s%c #%d", e->role, q, e->name, q, nth);
    else
        snprintf(out, n, "%s %c%s%c", e->role, q, e->name, q);
    return EOUS_OK;
}

/* ---- one action as a script step ------------------------------------------------ */

/* The target of a as the step's view names it into t (placeholders for parameter values). */
static eous_rc step_target(dv_view *v, dv_params *ps, const act_action *a, int step, const char *text, char *t,
                           size_t n, eous_err *err)
{
    char id[32];
    snprintf(id, sizeof id, "%s", a->target[0] == '[' ? a->target + 1 : a->target);
    id[strcspn(id, "]")] = '\0';
    eous_rc rc = name_target(v, id, a->kind != ACT_CALL, step, text, t, n, err);
    if (rc)
        return rc;
    char *p = dv_with_placeholders(ps, t);
    if (!p)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    snprintf(t, n, "%s", p);
    free(p);
    return EOUS_OK;
}

/* The label a typed value is named after: the target's name without the view's "* " mark. */
static const char *label_of(const char *target)
{
    const char *q = strpbrk(target, "'\"");
    if (!q)
        return target;
    q++;
    return !strncmp(q, "* ", 2) ? q + 2 : q;
}

/* A typed value as the step writes it into out: a parameter's placeholder where the intent holds it or (from
 * not NULL) the model computed it (then its rule into from, else from is ""), else as it is. */
static void step_value(dv_params *ps, const char *value, const char *target, int step, char *out, size_t n,
                       char *from, size_t fn)
{
    char label[128];
    snprintf(label, sizeof label, "%s", label_of(target));
    label[strcspn(label, "'\"")] = '\0';
    if (from)
        from[0] = '\0';
    if (!dv_param_for(ps, value, label, step, out, n) &&
        (!from || !dv_param_computed(ps, value, label, step, out, n, from, fn)))
        snprintf(out, n, "%s", value);
}

/* A setValue's one typed value (text, a date, a time) the model computed, in p (a call's params, copied)
 * as its parameter, its rule into from (else ""). */
static void call_value(dv_params *ps, cJSON *p, const char *tool, const char *label, int step, char *from, size_t fn)
{
    cJSON *only = p ? p->child : NULL;
    char ph[96];
    from[0] = '\0';
    if (!tool || strcmp(tool, "setValue") || !only || only->next || !cJSON_IsString(only) ||
        (strcmp(only->string, "text") && strcmp(only->string, "date") && strcmp(only->string, "time")))
        return;
    if (dv_param_computed(ps, only->valuestring, label, step, ph, sizeof ph, from, fn))
        cJSON_SetValuestring(only, ph);
}

/* The script step doing what a did, into *out (NULL: a step with nothing to replay). */
static eous_rc step_of(dv_view *v, dv_params *ps, const act_action *a, int step, const char *text, cJSON **out,
                       eous_err *err)
{
    char t[1024] = "", val[2048], from[320] = "";
    cJSON *s = cJSON_CreateObject();
    eous_rc rc = s ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!rc && (act_kind_has_target(a->kind) || a->kind == ACT_READ)) /* a read names what it reads too */
        rc = step_target(v, ps, a, step, text, t, sizeof t, err);
    if (rc)
        goto done;
    switch (a->kind) {
    case ACT_CALL: {
        cJSON *p = a->params ? cJSON_Duplicate(a->params, 1) : cJSON_CreateObject();
        char label[128];
        snprintf(label, sizeof label, "%s", label_of(t));
        label[strcspn(label, "'\"")] = '\0';
        if (p)
            dv_params_in_json(ps, p, label, a->tool && (!strcmp(a->tool, "fill") || !strcmp(a->tool, "submit")), step);
        call_value(ps, p, a->tool, label, step, from, sizeof from);
        cJSON_AddStringToObject(s, "call", t);
        cJSON_AddStringToObject(s, "tool", a->tool);
        cJSON_AddItemToObject(s, "params", p);
        break;
    }
    case ACT_CLICK: cJSON_AddStringToObject(s, "click", t); break;
    case ACT_HOVER: cJSON_AddStringToObject(s, "hover", t); break;
    case ACT_TYPE:
        step_value(ps, a->text ? a->text : "", t, step, val, sizeof val, from, sizeof from);
        cJSON_AddStringToObject(s, "type", t);
        cJSON_AddStringToObject(s, "text", val);
        cJSON_AddBoolToObject(s, "enter", a->enter);
        if (!a->clear)
            cJSON_AddBoolToObject(s, "clear", 0);
        break;
    case ACT_SELECT:
        step_value(ps, a->text ? a->text : "", t, step, val, sizeof val, NULL, 0); /* an option: read, not made */
        cJSON_AddStringToObject(s, "select", t);
        cJSON_AddStringToObject(s, "option", val);
        break;
    case ACT_READ:
        cJSON_AddStringToObject(s, "read", t);
        cJSON_AddStringToObject(s, "as", eous_json_str(a->params, "as") ? eous_json_str(a->params, "as") : "value");
        cJSON_AddStringToObject(s, "what",
                                eous_json_str(a->params, "what") ? eous_json_str(a->params, "what") : "text");
        break;
    case ACT_PRESS: cJSON_AddStringToObject(s, "press", a->text); break;
    case ACT_SCROLL: cJSON_AddStringToObject(s, "scroll", a->text); break;
    case ACT_GOTO: cJSON_AddStringToObject(s, "goto", a->text); break;
    case ACT_GO_BACK: cJSON_AddTrueToObject(s, "go_back"); break;
    case ACT_GO_FORWARD: cJSON_AddTrueToObject(s, "go_forward"); break;
    case ACT_CLOSE_TAB: cJSON_AddTrueToObject(s, "close_tab"); break;
    case ACT_TAB_FOCUS: cJSON_AddNumberToObject(s, "tab_focus", a->index); break;
    case ACT_STOP: cJSON_AddStringToObject(s, "stop", a->text ? a->text : ""); break;
    default: rc = eous_err_set(err, EOUS_E_INVALID, "step %d (%s): no script step does this", step, text); break;
    }
    if (from[0])
        cJSON_AddStringToObject(s, "from", from);
done:
    if (rc)
        cJSON_Delete(s);
    else
        *out = s;
    return rc;
}

/* ---- the run ---------------------------------------------------------------------- */

/* The results line of the one task × mode of run_dir matching task and mode (NULL: any) into *out. */
/* A model's passed run, or an agent's MCP session `eous mcp --record` kept (no verdict: its keeper vouches). */
static int distillable(eous_status st)
{
    return st == EOUS_ST_PASSED || st == EOUS_ST_RECORDED;
}

static eous_rc find_result(const char *run_dir, const char *task, const char *mode, cJSON **out, eous_err *err)
{
    char path[4096], *text = NULL;
    snprintf(path, sizeof path, "%s/results.jsonl", run_dir);
    size_t len = 0;
    if (eous_read_file(path, DV_MAX_FILE, &text, &len, NULL))
        return eous_err_set(err, EOUS_E_INVALID, "%s: no results.jsonl (expected the folder of an `eous run` or "
                                                 "`eous bench` with --planner llm)", run_dir);
    cJSON *found = NULL;
    int matches = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *r = cJSON_Parse(line);
        const char *id = eous_json_str(r, "task_id"), *m = eous_json_str(r, "mode");
        if (!id || !m || (task && strcmp(id, task)) || (mode && strcmp(m, mode))) {
            cJSON_Delete(r);
            continue;
        }
        /* a resumed run's later line of the same task × mode replaces the earlier one */
        if (!found || strcmp(eous_json_str(found, "task_id"), id) || strcmp(eous_json_str(found, "mode"), m))
            matches++;
        cJSON_Delete(found);
        found = r;
    }
    free(text);
    eous_rc rc = EOUS_OK;
    if (!found)
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: no task %s in mode %s in results.jsonl", run_dir,
                          task ? task : "(any)", mode ? mode : "(any)");
    else if (matches > 1) { /* a caller names its own way to pick one (the CLI's flags) by the code */
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %d task × mode results match; name one by its task id and mode",
                          run_dir, matches);
        eous_err_set_code(err, "ambiguous");
    }
    else if (!distillable(eous_status_parse(eous_json_str(found, "status"))))
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: task %s %s did not pass (%s): only a passed run distils", run_dir,
                          eous_json_str(found, "task_id"), eous_json_str(found, "mode"),
                          eous_json_str(found, "status") ? eous_json_str(found, "status") : "no status");
    if (rc)
        cJSON_Delete(found);
    else
        *out = found;
    return rc;
}

/* The view's lines without their ids appended to what the run read (ps->seen). */
static eous_rc seen_add(dv_params *ps, const perc_lines *ls, eous_err *err)
{
    char *text = perc_lines_without_ids(ls);
    size_t have = ps->seen ? strlen(ps->seen) : 0, n = text ? strlen(text) : 0;
    char *grown = text ? realloc(ps->seen, have + n + 2) : NULL;
    if (!grown) {
        free(text);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    memcpy(grown + have, text, n);
    memcpy(grown + have + n, "\n", 2);
    ps->seen = grown;
    free(text);
    return EOUS_OK;
}

/* 1 when the delta ls changed nothing but view id id: its added and removed lines and changed
 * components all name id (context lines and titles aside); a full view tells nothing (0). */
static int only_touches(const perc_lines *ls, const char *id)
{
    if (!*id || !perc_lines_delta(ls))
        return 0;
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        int changed = l->mark == '+' || l->mark == '-' || (!l->mark && l->id.s);
        if (changed && (!l->id.s || !perc_span_is(l->id, id, strlen(id))))
            return 0;
    }
    return 1;
}

/* The field whose text step s sets (a type, a setValue's text, a clear()), NULL when none; *replaces: 1
 * when it replaces what the field held (a type not after the text, a setValue, a clear). */
static const char *text_field(const cJSON *s, int *replaces)
{
    const char *tool = eous_json_str(s, "tool");
    *replaces = 1;
    if (eous_json_str(s, "type")) {
        *replaces = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s, "clear"));
        return eous_json_str(s, "type");
    }
    if (tool && (!strcmp(tool, "clear") ||
                 (!strcmp(tool, "setValue") && eous_json_str(cJSON_GetObjectItemCaseSensitive(s, "params"), "text"))))
        return eous_json_str(s, "call");
    return NULL;
}

/* 1 when action a replaces the text of the field it acts on (a type not after its text, a setValue's
 * text, a clear()). */
static int replaces_text(const act_action *a)
{
    if (a->kind == ACT_TYPE)
        return a->clear;
    return a->kind == ACT_CALL && a->tool &&
           (!strcmp(a->tool, "clear") ||
            (!strcmp(a->tool, "setValue") && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(a->params, "text"))));
}

/* How many times s holds sub. */
static int count_of(const char *s, const char *sub)
{
    int n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub))
        n++;
    return n;
}

/* What the last step of steps (the dropped one) alone used taken out: its parameters, its notes. */
static void forget_step(dv_params *ps, const cJSON *steps, const cJSON *dropped)
{
    char *kept = cJSON_PrintUnformatted(steps), *gone = cJSON_PrintUnformatted(dropped), ph[96], head[32];
    for (cJSON *it = ps->decl->child, *next; kept && gone && it; it = next) {
        next = it->next;
        snprintf(ph, sizeof ph, "{{param:%s}}", it->string);
        if (count_of(gone, ph) && count_of(gone, ph) == count_of(kept, ph))
            cJSON_DeleteItemFromObjectCaseSensitive(ps->decl, it->string); /* in the dropped step only */
    }
    snprintf(head, sizeof head, "step %d:", ps->last_step);
    for (int i = cJSON_GetArraySize(ps->notes) - 1; i >= 0; i--) /* what was said of it */
        if (!strncmp(cJSON_GetArrayItem(ps->notes, i)->valuestring, head, strlen(head)))
            cJSON_DeleteItemFromArray(ps->notes, i);
    free(kept);
    free(gone);
}

/* The last step of steps dropped when action a, the next, sets the same field's text anew and the view
 * between them changed nothing but that field: nothing read or submitted what it typed (issue 52: a step
 * the model took and undid, dropped only when the run shows it had no effect), which a note says. */
static void drop_undone(dv_params *ps, cJSON *steps, const act_action *a, int step)
{
    int n = cJSON_GetArraySize(steps), before;
    const cJSON *last = cJSON_GetArrayItem(steps, n - 1);
    const char *id = a->target ? a->target + (a->target[0] == '[') : "", *was = last ? text_field(last, &before) : NULL;
    if (!was || !replaces_text(a) || !ps->quiet || strncmp(id, ps->last_id, strlen(ps->last_id)) ||
        (id[strlen(ps->last_id)] != ']' && id[strlen(ps->last_id)]))
        return; /* another field, or the page showed what it typed (a live search's rows) */
    char note[700], key[16];
    forget_step(ps, steps, last);
    snprintf(note, sizeof note, "step %d dropped: %.300s was set again at step %d before anything read or submitted it",
             ps->last_step, was, step);
    cJSON_AddItemToArray(ps->notes, cJSON_CreateString(note));
    snprintf(key, sizeof key, "%d", n - 1);
    cJSON_DeleteItemFromObjectCaseSensitive(ps->over, key);
    snprintf(key, sizeof key, "ti:%d", n - 1);
    cJSON_DeleteItemFromObjectCaseSensitive(ps->boxes, key);
    cJSON_DeleteItemFromArray(steps, n - 1);
}

/* A stop answer (s) that counts the items of the list the last click opened (an atomic recording: 'Japan
 * right' clicked, its cities listed): "from": "count of options listed for 'Japan right'" when the first
 * list after what was clicked holds exactly that many items in the view (its order known), else nothing. */
static void list_counted(const dv_view *v, const dv_params *ps, cJSON *s)
{
    const char *answer = eous_json_str(s, "stop");
    char *end, from[600];
    long want = answer && *answer ? strtol(answer, &end, 10) : -1;
    const dv_entry *e = v->exact && ps->last_id[0] ? view_find((dv_view *)v, ps->last_id) : NULL;
    if (want < 0 || *end || !e || cJSON_GetObjectItemCaseSensitive(s, "from") || strchr(e->name, '\''))
        return;
    size_t i = (size_t)(e - v->e) + 1, n = 0;
    while (i < v->n && strcmp(v->e[i].role, "menu") && strcmp(v->e[i].role, "listbox") && strcmp(v->e[i].role, "tree"))
        i++;
    for (i++; i < v->n && perc_role_is_item(v->e[i].role, strlen(v->e[i].role)); i++)
        n++;
    if (!n || (long)n != want)
        return;
    snprintf(from, sizeof from, "count of options listed for '%s'", e->name);
    cJSON_AddStringToObject(s, "from", from);
}

/* One trace line: the view it acted on into v, its action as a step appended to steps. */
static eous_rc distill_line(const char *run_dir, const cJSON *line, int step, dv_view *v, dv_params *ps,
                            cJSON *steps, eous_err *err)
{
    const char *obs = eous_json_str(line, "observation"), *action = eous_json_str(line, "action");
    eous_rc rc = EOUS_OK;
    if (obs) {
        char path[4096], *text = NULL;
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", run_dir, obs);
        if (strstr(obs, "..") || eous_read_file(path, DV_MAX_FILE, &text, &len, NULL))
            return eous_err_set(err, EOUS_E_INVALID, "%s: step %d's view %s cannot be read", run_dir, step, obs);
        /* the hybrid view writes names as they are; the others as Python reprs */
        perc_mode mode;
        int hybrid = !perc_mode_parse(eous_json_str(line, "mode"), &mode) && mode == PERC_MODE_HYBRID;
        perc_lines *ls = NULL; /* the view read once, by perception, for both readers below */
        rc = perc_lines_read(text, len, &ls, err);
        if (!rc)
            rc = seen_add(ps, ls, err);
        ps->quiet = !rc && only_touches(ls, ps->last_id);
        if (!rc)
            rc = view_update(v, ls, !hybrid, err);
        if (!rc && hybrid)
            dv_collect_view(ps, ls);
        perc_lines_free(ls);
        free(text);
        if (rc)
            return rc;
    }
    /* an action that failed did nothing to replay; a line without one is a note */
    if (!action || eous_json_str(line, "error"))
        return EOUS_OK;
    act_action a;
    act_action_init(&a);
    /* an action whose text holds a line break (typed below a page's last line) parses in a fence */
    char *fenced = NULL;
    int bad = act_parse_text(action, &a, NULL) != EOUS_OK;
    if (bad && asprintf(&fenced, "```\n%s\n```", action) < 0)
        fenced = NULL;
    if (bad && (!fenced || act_parse_text(fenced, &a, NULL))) {
        free(fenced);
        return eous_err_set(err, EOUS_E_INVALID, "%s: step %d's action '%.80s' does not parse", run_dir, step,
                            action);
    }
    free(fenced);
    if (a.kind == ACT_TYPE && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(line, "clear")))
        a.clear = 0; /* typed after what the field held: the action's text form does not say it */
    cJSON *s = NULL;
    const char *cid = a.kind == ACT_CALL && a.tool ? (a.target[0] == '[' ? a.target + 1 : a.target) : NULL;
    drop_undone(ps, steps, &a, step);
    rc = step_of(v, ps, &a, step, action, &s, err);
    int index = cJSON_GetArraySize(steps);
    if (!rc && s && a.kind == ACT_STOP) {
        dv_tell_stop(ps, steps, s, index);
        list_counted(v, ps, s);
    }
    if (!rc && s) {
        cJSON_AddItemToArray(steps, s);
        ps->last_step = step;
        const char *id = a.target ? a.target + (a.target[0] == '[') : "";
        snprintf(ps->last_id, sizeof ps->last_id, "%.*s", (int)strcspn(id, "]"), id);
    }
    if (!rc && s && cid) /* after the step: its values' parameters are declared */
        dv_tell_call(ps, cid, a.tool, a.params, index);
    ps->matches = dv_result_matches(eous_json_str(line, "result"));
    act_action_clear(&a);
    return rc;
}


/* The steps of trace/<task>-<mode>.jsonl into job. */
static eous_rc distill_trace(const char *run_dir, const char *trace, dv_params *ps, cJSON *job, eous_err *err)
{
    char *text = NULL;
    size_t len = 0;
    if (eous_read_file(trace, DV_MAX_FILE, &text, &len, NULL))
        return eous_err_set(err, EOUS_E_INVALID, "%s: no %s (a run without traces cannot distil)", run_dir, trace);
    dv_view v = {.e = NULL, .n = 0, .cap = 0, .exact = 1};
    cJSON *steps = cJSON_CreateArray();
    eous_rc rc = steps ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    int step = 0, tool_at = -1; /* the step of the last action, its page's URL in tool_url */
    char tool_url[2048] = "";
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
        cJSON *line = cJSON_Parse(l);
        if (!line) {
            rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s holds a line that is not JSON", run_dir, trace);
            break;
        }
        step = eous_json_int(line, "step", step + 1);
        const char *url = eous_json_str(line, "url");
        if (url && !cJSON_GetObjectItemCaseSensitive(job, "start_url"))
            cJSON_AddStringToObject(job, "start_url", url);
        if (tool_at >= 0 && url) /* the step after a page tool's call: where it took the page */
            dv_page_tool_went(ps, steps, tool_at, tool_url, url);
        if (url)
            tool_at = -1;
        int before = cJSON_GetArraySize(steps);
        rc = distill_line(run_dir, line, step, &v, ps, steps, err);
        if (!rc && url && cJSON_GetArraySize(steps) > before) {
            tool_at = before;
            snprintf(tool_url, sizeof tool_url, "%s", url);
        }
        cJSON_Delete(line);
    }
    if (!rc && !cJSON_GetArraySize(steps))
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s holds no action", run_dir, trace);
    cJSON *atomic = rc ? NULL : dv_atomic_steps(steps, ps);
    if (!rc)
        cJSON_AddItemToObject(job, "steps", steps);
    else
        cJSON_Delete(steps);
    if (atomic)
        cJSON_AddItemToObject(job, "atomic_steps", atomic);
    view_clear(&v);
    free(v.e);
    free(text);
    return rc;
}

/* A first step that goes to the job's start_url (an MCP session's browser_navigate, recorded before
 * any page was seen) taken out of list: the job opens start_url itself, so a replay loaded it twice. */
static void drop_leading_goto(cJSON *job, const char *list)
{
    cJSON *steps = cJSON_GetObjectItemCaseSensitive(job, list);
    const char *go = eous_json_str(cJSON_GetArrayItem(steps, 0), "goto");
    if (go && cJSON_GetArraySize(steps) > 1 && !strcmp(go, eous_json_str(job, "start_url")))
        cJSON_DeleteItemFromArray(steps, 0);
}

/* Each parameter no step nor the intent of job uses (a dropped step's) taken out of decl. */
static void unused_params_out(cJSON *decl, const cJSON *job)
{
    char *text = cJSON_PrintUnformatted(job), ph[96];
    for (cJSON *it = decl ? decl->child : NULL, *next; text && it; it = next) {
        next = it->next;
        snprintf(ph, sizeof ph, "{{param:%s}}", it->string);
        if (!strstr(text, ph))
            cJSON_DeleteItemFromObjectCaseSensitive(decl, it->string);
    }
    free(text);
}

eous_rc agent_distill(const char *run_dir, const char *task, const char *mode, cJSON **out, eous_err *err)
{
    cJSON *result = NULL, *job = NULL;
    dv_params ps = {.intent = NULL, .decl = NULL, .names = NULL, .boxes = NULL, .over = NULL, .notes = NULL,
                    .said = NULL, .seen = NULL, .last_step = 0, .last_id = "", .quiet = 0, .matches = -1};
    eous_rc rc = find_result(run_dir, task, mode, &result, err);
    if (rc)
        return rc;
    const char *id = eous_json_str(result, "task_id"), *m = eous_json_str(result, "mode");
    char trace[4096], name[160];
    snprintf(trace, sizeof trace, "%s/trace/%s-%s.jsonl", run_dir, id, m);
    /* a job's name is a task id: letters, digits, '.', '_' and '-' */
    snprintf(name, sizeof name, "%s-%s-distilled", id, m);
    ps.intent = eous_json_str(result, "intent");
    job = cJSON_CreateObject();
    ps.decl = cJSON_CreateObject();
    ps.names = cJSON_CreateObject();
    ps.boxes = cJSON_CreateObject();
    ps.over = cJSON_CreateObject();
    ps.notes = cJSON_CreateArray();
    ps.said = cJSON_CreateArray();
    if (!job || !ps.decl || !ps.names || !ps.boxes || !ps.over || !ps.notes || !ps.said) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto cleanup;
    }
    cJSON_AddStringToObject(job, "name", name);
    if ((rc = distill_trace(run_dir, trace, &ps, job, err)))
        goto cleanup;
    if (!cJSON_GetObjectItemCaseSensitive(job, "start_url")) {
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s names no start URL", run_dir, trace);
        goto cleanup;
    }
    drop_leading_goto(job, "steps");
    drop_leading_goto(job, "atomic_steps");
    char *intent = dv_with_placeholders(&ps, ps.intent);
    const cJSON *said;
    cJSON_ArrayForEach(said, ps.said) /* a value the model counted: the job's intent states it */
    {
        char *more = NULL;
        if (intent && asprintf(&more, "%s %s.", intent, said->valuestring) < 0)
            more = NULL;
        free(intent);
        intent = more;
    }
    cJSON_AddStringToObject(job, "intent", intent ? intent : "");
    free(intent);
    unused_params_out(ps.decl, job);
    if (cJSON_GetArraySize(ps.decl)) {
        cJSON_AddItemToObject(job, "params", ps.decl);
        ps.decl = NULL;
    }
    if (cJSON_GetArraySize(ps.notes)) { /* what distill changed of the run's steps, and why */
        cJSON_AddItemToObject(job, "notes", ps.notes);
        ps.notes = NULL;
    }
    *out = job;
    job = NULL;
cleanup:
    cJSON_Delete(ps.names);
    cJSON_Delete(ps.boxes);
    cJSON_Delete(ps.over);
    cJSON_Delete(ps.decl);
    cJSON_Delete(ps.notes);
    cJSON_Delete(ps.said);
    free(ps.seen);
    cJSON_Delete(job);
    cJSON_Delete(result);
    return rc;
}

/* mcp/mcp_history.c — browser_history and browser_undo (issue 53), as ui-sdk's
 * createHistory and undoSource define them.  See mcp_server_int.h for how a tool
 * file plugs in.
 *
 * The record is the runtime's (actions/history.h: the page's hook, who made
 * each change, the merged entries), shared with `eous run`'s trace: each tool
 * call that may change the page is a window (mcp_history_call_begin/end) and a
 * change inside one is the agent's; outside, a person's when a trusted event
 * came first, else the page's.  Entries are pulled from the page when a client
 * asks (a page that navigates keeps its earlier pages' entries in
 * sessionStorage until then); undo marks them "reverted" or "left" here. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "actions/history.h"
#include "mcp/mcp_server_int.h"

#define HIST_MAX_LISTED 200 /* browser_history's answer: the latest this many */

struct mcp_history {
    act_history *rec; /* owned */
    cJSON *entries;   /* rec's (borrowed): each with "source" and, once undone, "reverted" or "left" */
};

static struct mcp_history *hist_of(mcp_server *m)
{
    if (!m->history && (m->history = calloc(1, sizeof *m->history))) {
        m->history->rec = act_history_new(0);
        m->history->entries = act_history_entries(m->history->rec);
    }
    return m->history && m->history->rec ? m->history : NULL;
}

void mcp_history_free(mcp_server *m)
{
    if (!m->history)
        return;
    act_history_free(m->history->rec, NULL);
    free(m->history);
    m->history = NULL;
}

void mcp_history_install(mcp_server *m)
{
    struct mcp_history *h = hist_of(m);
    if (h)
        act_history_install(h->rec, m->b.session);
}

void mcp_history_call_begin(mcp_server *m, const char *tool, int read_only)
{
    struct mcp_history *h = hist_of(m);
    if (h && !read_only)
        act_history_begin(h->rec, tool && !strcmp(tool, "browser_undo"));
}

void mcp_history_call_end(mcp_server *m)
{
    if (m->history)
        act_history_end(m->history->rec);
}

static int same_json(const cJSON *a, const cJSON *b)
{
    return a && b ? cJSON_Compare(a, b, 1) : a == b;
}

static int same_str(const cJSON *a, const cJSON *b, const char *key)
{
    const char *x = eous_json_str(a, key), *y = eous_json_str(b, key);
    return x && y && !strcmp(x, y);
}

static int same_control(const cJSON *a, const cJSON *b)
{
    return same_str(a, b, "provider") && same_str(a, b, "component") && same_str(a, b, "key");
}

/* 1 once an undo put the entry back or reported it left */
static int undo_settled(const cJSON *e)
{
    return eous_json_bool(e, "reverted", 0) || eous_json_bool(e, "left", 0);
}

/* Reads the page's record into h (NULL on failure: err says why); the answer (owned) holds current and sent. */
static cJSON *pull(mcp_server *m, struct mcp_history *h, eous_err *err)
{
    return act_history_pull(h->rec, m->b.session, err);
}

#define HIST_SHOWN 200   /* bytes of a value shown whole */
#define HIST_AROUND 40   /* bytes of unchanged text shown on each side of a change */

/* 1 when byte i of s starts a character (a cut there splits none) */
static int utf8_start(const char *s, size_t i)
{
    return ((unsigned char)s[i] & 0xC0) != 0x80;
}

/* The bytes of s (length l) to show around its changed part [pre, l - suf): HIST_AROUND bytes each side,
 * at most HIST_SHOWN in all, cut between characters. */
static void window_of(const char *s, size_t l, size_t pre, size_t suf, size_t *from, size_t *to)
{
    *from = pre > HIST_AROUND ? pre - HIST_AROUND : 0;
    while (*from > 0 && !utf8_start(s, *from))
        (*from)--;
    *to = l - suf + HIST_AROUND < l ? l - suf + HIST_AROUND : l;
    if (*to - *from > HIST_SHOWN)
        *to = *from + HIST_SHOWN;
    while (*to < l && !utf8_start(s, *to))
        (*to)--;
}

/* A long text changed in a few places (an editor's page): the head of both is the same, so the part that
 * differs is shown instead, with a little of what stands around it.  w[0..1] bound the part of value to
 * show, w[2..3] the part of previous; 0 when both fit as they are. */
static int changed_windows(const char *value, const char *previous, size_t w[4])
{
    size_t lv = strlen(value), lp = strlen(previous);
    if (lv <= HIST_SHOWN && lp <= HIST_SHOWN)
        return 0;
    size_t pre = 0, suf = 0; /* the bytes both share at the start and, after that, at the end */
    while (pre < lv && pre < lp && value[pre] == previous[pre])
        pre++;
    while (suf < lv - pre && suf < lp - pre && value[lv - 1 - suf] == previous[lp - 1 - suf])
        suf++;
    window_of(value, lv, pre, suf, &w[0], &w[1]);
    window_of(previous, lp, pre, suf, &w[2], &w[3]);
    return 1;
}

/* value's bytes [from, to) quoted on one line (a line break as \n: an entry is one line), "…" where it was cut */
static void show_window(const char *value, size_t from, size_t to, eous_buf *out)
{
    eous_buf_puts(out, from ? "'…" : "'", NULL);
    for (size_t i = from; i < to; i++) {
        if (value[i] == '\n')
            eous_buf_puts(out, "\\n", NULL);
        else if ((unsigned char)value[i] < 0x20)
            eous_buf_puts(out, " ", NULL);
        else
            eous_buf_append(out, value + i, 1, NULL);
    }
    eous_buf_puts(out, value[to] ? "…'" : "'", NULL);
}

/* a value as the answer shows it: 'text', 4, true, (empty) */
static void show_value(const cJSON *v, int secret, eous_buf *out)
{
    if (secret) {
        eous_buf_puts(out, "[redacted]", NULL);
    } else if (!v || cJSON_IsNull(v) || (cJSON_IsString(v) && !*v->valuestring)) {
        eous_buf_puts(out, "(empty)", NULL);
    } else if (cJSON_IsString(v)) {
        size_t to = strlen(v->valuestring) > HIST_SHOWN ? HIST_SHOWN : strlen(v->valuestring);
        while (v->valuestring[to] && !utf8_start(v->valuestring, to))
            to--;
        show_window(v->valuestring, 0, to, out);
    } else {
        char *t = eous_json_print(v);
        eous_buf_printf(out, NULL, "%.200s", t ? t : "?");
        free(t);
    }
}

/* " to 'X' (was 'Y')" for a changed entry, its changed part when the text is long */
static void show_change(const cJSON *e, eous_buf *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value"), *p = cJSON_GetObjectItemCaseSensitive(e, "previous");
    size_t w[4];
    if (cJSON_IsString(v) && cJSON_IsString(p) && *v->valuestring && *p->valuestring &&
        changed_windows(v->valuestring, p->valuestring, w)) {
        eous_buf_puts(out, " to ", NULL);
        show_window(v->valuestring, w[0], w[1], out);
        eous_buf_puts(out, " (was ", NULL);
        show_window(p->valuestring, w[2], w[3], out);
        eous_buf_puts(out, ")", NULL);
        return;
    }
    eous_buf_puts(out, " to ", NULL);
    show_value(v, 0, out);
    eous_buf_puts(out, " (was ", NULL);
    show_value(p, 0, out);
    eous_buf_puts(out, ")", NULL);
}

static const perc_component *setter_of(const mcp_server *m, const cJSON *e, const char *nk, const char **field);
static const cJSON *current_of(const cJSON *cur, const cJSON *first);

/* Where the answer says an entry's control is: the view id of its component
 * (the CI4A component, the native form holding the field) and its key. */
static void show_where(const mcp_server *m, const cJSON *e, const cJSON *cur, eous_buf *out)
{
    const char *field = NULL;
    const perc_component *c = setter_of(m, e, eous_json_str(current_of(cur, e), "nk"), &field);
    const char *comp = eous_json_str(e, "component"), *tab = strchr(comp, '\t');
    if (c && c->view_id[0])
        eous_buf_printf(out, NULL, "%s ", c->view_id);
    if (tab) /* a native control: "form\tlabel" */
        eous_buf_printf(out, NULL, "form '%.*s' field '%s' %s", (int)(tab - comp), comp, tab + 1,
                        eous_json_str(e, "key"));
    else
        eous_buf_printf(out, NULL, "%s %s", comp, eous_json_str(e, "key"));
}

/* "agent set Guests to 4 (was 2)" */
static void describe(const cJSON *e, eous_buf *out)
{
    const char *label = eous_json_str(e, "label");
    int secret = eous_json_bool(e, "secret", 0);
    if (!label || !*label)
        label = eous_json_str(e, "component");
    if (secret)
        eous_buf_printf(out, NULL, "%s changed %s (a secret field: its value is not shown)", eous_json_str(e, "source"),
                        label);
    else {
        eous_buf_printf(out, NULL, "%s set %s", eous_json_str(e, "source"), label);
        show_change(e, out);
    }
}

static void list_entry(const mcp_server *m, const cJSON *e, const cJSON *cur, eous_buf *out)
{
    time_t t = (time_t)(eous_json_num(e, "t", 0) / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    eous_buf_puts(out, "- ", NULL);
    describe(e, out);
    eous_buf_puts(out, " [", NULL);
    show_where(m, e, cur, out);
    eous_buf_printf(out, NULL, ", %02d:%02d:%02d]%s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
                    eous_json_bool(e, "reverted", 0) ? " (undone)"
                    : eous_json_bool(e, "left", 0)   ? " (left by undo)"
                                                     : "");
}

static int known_source(const char *s)
{
    return !strcmp(s, "agent") || !strcmp(s, "page") || !strcmp(s, "person");
}

static eous_rc tool_history(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *src = eous_json_str(args, "source");
    if (src && !known_source(src))
        return eous_err_set(err, EOUS_E_INVALID, "browser_history: source '%.40s': expected agent, page or person",
                            src);
    struct mcp_history *h = hist_of(m);
    if (!h)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON *v = NULL;
    if (m->browser_open) {
        eous_err perr;
        if (!(v = pull(m, h, &perr)))
            eous_buf_printf(&out->text, NULL, "(this page's record could not be read: %s)\n", perr.msg);
    }
    int n = 0, total = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, h->entries) total += !src || !strcmp(eous_json_str(e, "source"), src);
    if (total > HIST_MAX_LISTED) /* a long session: its latest changes, not a huge answer */
        eous_buf_printf(&out->text, NULL, "(%d earlier changes not shown)\n", total - HIST_MAX_LISTED);
    cJSON_ArrayForEach(e, h->entries) {
        if (src && strcmp(eous_json_str(e, "source"), src))
            continue;
        if (n++ >= total - HIST_MAX_LISTED)
            list_entry(m, e, eous_json_obj(v, "current"), &out->text);
    }
    cJSON_Delete(v);
    if (!n)
        eous_buf_printf(&out->text, NULL, "no value changes%s%s recorded in this session\n", src ? " by " : "",
                        src ? src : "");
    return EOUS_OK;
}

/* ---- browser_undo ----------------------------------------------------------- */

/* The component in the view whose setter puts a control back, and the field name for a form's fill. */
static const perc_component *setter_of(const mcp_server *m, const cJSON *e, const char *nk, const char **field)
{
    const char *comp = eous_json_str(e, "component");
    /* the history entry names its provider (JSON from the page hook): the name read into a bit here */
    unsigned entry_bit = 0;
    const char *prov = eous_json_str(e, "provider");
    if (prov && perc_providers_parse(prov, &entry_bit))
        entry_bit = 0;
    *field = NULL;
    for (size_t i = 0; m->obs && i < perc_obs_n_components(m->obs); i++) {
        const perc_component *c = perc_obs_component(m->obs, i);
        if (c->agent_hidden)
            continue;
        if (entry_bit == PERC_PROVIDER_CI4A) {
            if (c->provider_bit == PERC_PROVIDER_CI4A && !strcmp(c->key, comp))
                return c;
            continue;
        }
        if (!nk || !*nk || c->provider_bit != PERC_PROVIDER_NATIVE)
            continue;
        if (!strcmp(c->key, nk))
            return c;
        const cJSON *f;
        cJSON_ArrayForEach(f, eous_json_obj(eous_json_obj(c->metadata, "fill"), "fields")) {
            if (cJSON_IsString(f) && !strcmp(f->valuestring, nk)) {
                *field = f->string;
                return c;
            }
        }
    }
    return NULL;
}

static int tool_of(const perc_component *c, const char *tool)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, c->tools) if (cJSON_IsString(t) && !strcmp(t->valuestring, tool)) return 1;
    return 0;
}

static int empty_value(const cJSON *v)
{
    return !v || cJSON_IsNull(v) || (cJSON_IsString(v) && !*v->valuestring);
}

/* The call that sets c's key back to value, through the component's own setter. */
static eous_rc restore_action(const perc_component *c, const char *field, const char *key, const cJSON *value,
                              act_action *a, eous_err *err)
{
    const char *tool = field                                                           ? "fill"
                       : !strcmp(key, "checked") && tool_of(c, "check") && tool_of(c, "uncheck")
                           ? (cJSON_IsTrue(value) ? "check" : "uncheck")
                       : empty_value(value) && tool_of(c, "clear")                     ? "clear"
                       : tool_of(c, "setValue")                                        ? "setValue"
                       : tool_of(c, "select")                                          ? "select"
                                                                                       : NULL;
    if (!tool)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "%s '%s' has no setter", c->kind, c->label);
    const cJSON *params = eous_json_obj(eous_json_obj(c->metadata, tool), "params");
    const char *pname = field ? field : params && params->child ? params->child->string : "value";
    a->kind = ACT_CALL;
    a->target = strdup(c->view_id[0] ? c->view_id : c->key);
    a->tool = strdup(tool);
    a->params = cJSON_CreateObject();
    if (!a->target || !a->tool || !a->params)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (strcmp(tool, "check") && strcmp(tool, "uncheck") && strcmp(tool, "clear"))
        cJSON_AddItemToObject(a->params, pname, cJSON_Duplicate(value, 1));
    return EOUS_OK;
}

/* What one control goes back to: the latest value another source gave it, else
 * its value before src's first change; *later: that other change came after src's last. */
static const cJSON *restore_target(const struct mcp_history *h, const cJSON *first, const char *src,
                                   const cJSON **other, int *later)
{
    const cJSON *e, *target = cJSON_GetObjectItemCaseSensitive(first, "previous");
    int seen_src = 0;
    *other = NULL;
    *later = 0;
    cJSON_ArrayForEach(e, h->entries) {
        if (!same_control(e, first))
            continue;
        if (!strcmp(eous_json_str(e, "source"), src)) {
            if (!undo_settled(e))
                seen_src = 1, *later = 0;
            continue;
        }
        *other = e;
        *later = seen_src;
        target = cJSON_GetObjectItemCaseSensitive(e, "value");
    }
    return target;
}

/* src's entries of first's control as undo left them: "reverted" (put back) or "left" (reported, still applied) */
static void mark_done(struct mcp_history *h, const cJSON *first, const char *src, const char *how)
{
    cJSON *e;
    cJSON_ArrayForEach(e, h->entries) if (same_control(e, first) && !strcmp(eous_json_str(e, "source"), src) &&
                                          !undo_settled(e))
        cJSON_AddBoolToObject(e, how, 1);
}

static const char *control_label(const cJSON *e)
{
    const char *l = eous_json_str(e, "label");
    return l && *l ? l : eous_json_str(e, "component");
}

/* The current state of first's control ("provider\tcomponent\tkey" in current). */
static const cJSON *current_of(const cJSON *cur, const cJSON *first)
{
    char id[1024];
    snprintf(id, sizeof id, "%s\t%s\t%s", eous_json_str(first, "provider"), eous_json_str(first, "component"),
             eous_json_str(first, "key"));
    return cJSON_GetObjectItemCaseSensitive(cur, id);
}

typedef struct undo_tally {
    int put_back, left;
    eous_buf done, kept;
} undo_tally;

/* Why first's control cannot be put back, into t->kept; 1 when it cannot. */
static int undo_blocked(const cJSON *page, const cJSON *first, const cJSON *now, const cJSON *target, undo_tally *t)
{
    const char *label = control_label(first);
    const char *why = NULL;
    if (strcmp(eous_json_str(first, "doc"), eous_json_str(page, "doc")))
        why = "changed on an earlier page: what that page sent stays sent";
    else if (!now || eous_json_bool(now, "gone", 0))
        why = "the control has left the page";
    else if (eous_json_bool(first, "secret", 0) || eous_json_bool(now, "secret", 0))
        why = "a secret field: its earlier value was never recorded, so it is left as it is";
    else if (cJSON_IsString(target) && strstr(target->valuestring, "{{"))
        why = "its earlier value holds '{{', which eous would read as a placeholder";
    if (!why)
        return 0;
    eous_buf_printf(&t->kept, NULL, "- %s: %s", label, why);
    if (!strcmp(why, "changed on an earlier page: what that page sent stays sent"))
        eous_buf_printf(&t->kept, NULL, " (%.300s)", eous_json_str(first, "url"));
    eous_buf_puts(&t->kept, "\n", NULL);
    t->left++;
    return 1;
}

/* Puts first's control back to target through its component's setter (policy, secrets and confirmation as any call). */
static eous_rc undo_one(mcp_server *m, const cJSON *first, const cJSON *now, const cJSON *target, int *put,
                        undo_tally *t, eous_err *err)
{
    const char *field;
    const perc_component *c = setter_of(m, first, eous_json_str(now, "nk"), &field);
    act_action a;
    act_action_init(&a);
    eous_rc rc = c ? restore_action(c, field, eous_json_str(first, "key"), target, &a, err)
                   : eous_err_set(err, EOUS_E_NOT_FOUND, "no component in the view sets it");
    eous_buf scratch;
    eous_buf_init(&scratch, 0);
    if (!rc)
        rc = mcp_run_action_as(m, &a, &scratch, 0, err);
    eous_buf_free(&scratch);
    act_action_clear(&a);
    if (rc == EOUS_E_INFRA || rc == EOUS_E_INTERRUPTED)
        return rc;
    eous_buf *out = rc ? &t->kept : &t->done;
    eous_buf_printf(out, NULL, "- %s%s%s: ", control_label(first), c && c->view_id[0] ? " " : "",
                    c ? c->view_id : "");
    if (rc) {
        eous_buf_printf(out, NULL, "refused: %s\n", err->msg);
        t->left++;
        *put = 0;
        return EOUS_OK;
    }
    eous_buf_puts(out, "back to ", NULL);
    show_value(target, 0, out);
    eous_buf_puts(out, "\n", NULL);
    t->put_back++;
    return EOUS_OK;
}

/* Each control src changed, once: put back, left with the reason, or already as it should be. */
static eous_rc undo_controls(mcp_server *m, struct mcp_history *h, const cJSON *page, const char *src, undo_tally *t,
                             eous_err *err)
{
    const cJSON *cur = eous_json_obj(page, "current");
    cJSON *e;
    cJSON_ArrayForEach(e, h->entries) {
        if (strcmp(eous_json_str(e, "source"), src) || undo_settled(e))
            continue;
        const cJSON *other, *now = current_of(cur, e);
        int later;
        const cJSON *target = restore_target(h, e, src, &other, &later);
        if (later) { /* another source changed it after src: that change stays (ui-sdk's rule) */
            eous_buf_printf(&t->kept, NULL, "- %s: left as it is: ", control_label(e));
            eous_buf_printf(&t->kept, NULL, "%s set it to ", eous_json_str(other, "source"));
            show_value(target, eous_json_bool(other, "secret", 0), &t->kept);
            eous_buf_printf(&t->kept, NULL, " after the %s's change\n", src);
            t->left++;
            mark_done(h, e, src, "left");
            continue;
        }
        if (undo_blocked(page, e, now, target, t)) {
            mark_done(h, e, src, "left"); /* reported once */
            continue;
        }
        int put = 1;
        if (!same_json(cJSON_GetObjectItemCaseSensitive(now, "value"), target)) {
            eous_rc rc = undo_one(m, e, now, target, &put, t, err);
            if (rc)
                return rc;
        }
        mark_done(h, e, src, put ? "reverted" : "left");
    }
    return EOUS_OK;
}

static eous_rc tool_undo(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *src = eous_json_str(args, "source");
    if (!src || !known_source(src))
        return eous_err_set(err, EOUS_E_INVALID, "browser_undo: expected {source: \"agent\"} (or page, person)");
    struct mcp_history *h = hist_of(m);
    eous_rc rc;
    if (!h)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if ((rc = mcp_ensure_browser(m, err)) || (rc = mcp_observe(m, m->o.mode, err)))
        return rc; /* the view first: it stamps the native fields a setter is found by */
    cJSON *page = pull(m, h, err);
    if (!page)
        return err->rc;
    undo_tally t = {0};
    eous_buf_init(&t.done, 0);
    eous_buf_init(&t.kept, 0);
    rc = undo_controls(m, h, page, src, &t, err);
    if (!rc) {
        eous_buf_printf(&out->text, NULL, "undo %s: %d put back, %d left\n", src, t.put_back, t.left);
        if (t.done.len)
            eous_buf_printf(&out->text, NULL, "put back:\n%s", t.done.data);
        if (t.kept.len)
            eous_buf_printf(&out->text, NULL, "not put back:\n%s", t.kept.data);
        if (!t.put_back && !t.left)
            eous_buf_printf(&out->text, NULL, "nothing to undo: no change by %s is in effect\n", src);
        eous_buf_puts(&out->text, "Requests the page already sent are not reversed", NULL);
        const cJSON *s;
        int n = 0;
        cJSON_ArrayForEach(s, eous_json_arr(page, "sent")) if (cJSON_IsString(s))
            eous_buf_printf(&out->text, NULL, "%s%.300s", n++ ? ", " : " (this page sent: ", s->valuestring);
        eous_buf_puts(&out->text, n ? ")\n" : ".\n", NULL);
    }
    eous_buf_free(&t.done);
    eous_buf_free(&t.kept);
    cJSON_Delete(page);
    if (!rc && !(rc = mcp_observe(m, m->o.mode, err)))
        mcp_append_view(m, &out->text);
    return rc;
}

static const mcp_tool_def history_defs[] = {
    {"browser_history",
     "Every value change of a component or form field this session, oldest first: who made it (agent, page or "
     "person), the field, its value and what it was. source: only that one's changes.",
     "{\"type\":\"object\",\"properties\":{\"source\":{\"type\":\"string\",\"enum\":[\"agent\",\"page\","
     "\"person\"]}}}",
     1, tool_history, 0, NULL},
    {"browser_undo",
     "Put back what one source changed (usually the agent): each field to its latest value from another source, "
     "else to its value before; through each component's own setter. Says what it could not put back; requests the "
     "page already sent are not reversed.",
     "{\"type\":\"object\",\"properties\":{\"source\":{\"type\":\"string\",\"enum\":[\"agent\",\"page\","
     "\"person\"]}},\"required\":[\"source\"]}",
     0, tool_undo, 0, NULL},
};

const mcp_tool_table mcp_history_tools = {history_defs, sizeof history_defs / sizeof history_defs[0]};

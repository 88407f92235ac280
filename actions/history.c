/* actions/history.c — the value history's record and who made each change
 * (actions/history.h): the page's entries pulled, attributed by the agent's
 * action windows, merged and kept. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "actions/history.h"
#include "actions/history_hook_js.h"
#include "actions/history_read_js.h"

#define HIST_MAX_ENTRIES 2000
#define HIST_MAX_WINDOWS 4096
#define HIST_SLACK_MS 5 /* the page's clock and ours are the same clock, read a little apart */

typedef struct hist_window {
    double start, end;
    int undo; /* browser_undo's own restoring: never recorded */
} hist_window;

struct act_history {
    hist_window win[HIST_MAX_WINDOWS]; /* the oldest dropped first */
    size_t n_win;
    double open_start; /* the action in progress, 0 when none */
    int open_undo;
    double since;      /* changes before this are an earlier task's */
    double seq;        /* the last entry's seq */
    double taken;      /* the seq act_history_take reached: entries up to it are not merged into */
    char hook_id[64];  /* Page.addScriptToEvaluateOnNewDocument's identifier, "" none */
    cJSON *entries;    /* merged, oldest first, each with "source" and "seq" */
    cJSON *seen;       /* document id -> the last of its entries merged */
};

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

act_history *act_history_new(int from_now)
{
    act_history *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->since = from_now ? wall_ms() - HIST_SLACK_MS : 0;
    h->entries = cJSON_CreateArray();
    h->seen = cJSON_CreateObject();
    if (!h->entries || !h->seen) {
        act_history_free(h, NULL);
        return NULL;
    }
    return h;
}

void act_history_free(act_history *h, wd_session *s)
{
    if (!h)
        return;
    if (s && h->hook_id[0] && wd_session_has_cdp(s)) { /* a bench's next task installs its own */
        cJSON *p = cJSON_CreateObject(), *r = NULL;
        cJSON_AddStringToObject(p, "identifier", h->hook_id);
        wd_cdp(s, "Page.removeScriptToEvaluateOnNewDocument", p, &r, NULL);
        cJSON_Delete(r);
        cJSON_Delete(p);
    }
    cJSON_Delete(h->entries);
    cJSON_Delete(h->seen);
    free(h);
}

void act_history_install(act_history *h, wd_session *s)
{
    if (!h || !wd_session_has_cdp(s))
        return; /* history_read.js installs it on the first read instead */
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(p, "source", ACT_HISTORY_HOOK_JS);
    if (!wd_cdp(s, "Page.addScriptToEvaluateOnNewDocument", p, &r, NULL)) {
        const char *id = eous_json_str(r, "identifier");
        snprintf(h->hook_id, sizeof h->hook_id, "%s", id ? id : "");
    }
    cJSON_Delete(r);
    cJSON_Delete(p);
}

void act_history_begin(act_history *h, int undo)
{
    if (!h)
        return;
    h->open_start = wall_ms();
    h->open_undo = undo;
}

void act_history_end(act_history *h)
{
    if (!h || !h->open_start)
        return;
    if (h->n_win == HIST_MAX_WINDOWS) {
        memmove(h->win, h->win + 1, (HIST_MAX_WINDOWS - 1) * sizeof h->win[0]);
        h->n_win--;
    }
    h->win[h->n_win++] = (hist_window){h->open_start, wall_ms(), h->open_undo};
    h->open_start = 0;
}

cJSON *act_history_entries(act_history *h)
{
    return h ? h->entries : NULL;
}

/* "agent", "undo" (browser_undo's own), "person" or "page" for a change at t */
static const char *source_at(const act_history *h, double t, int trusted)
{
    if (h->open_start && t >= h->open_start - HIST_SLACK_MS)
        return h->open_undo ? "undo" : "agent";
    for (size_t i = h->n_win; i-- > 0;)
        if (t >= h->win[i].start - HIST_SLACK_MS && t <= h->win[i].end + HIST_SLACK_MS)
            return h->win[i].undo ? "undo" : "agent";
    return trusted ? "person" : "page";
}

static int same_str(const cJSON *a, const cJSON *b, const char *key)
{
    const char *x = eous_json_str(a, key), *y = eous_json_str(b, key);
    return x && y && !strcmp(x, y);
}

/* 1 once the page's entry id ("doc-seq", each document's in order) was merged; notes it */
static int seen_entry(act_history *h, const char *id)
{
    const char *dash = strrchr(id, '-');
    if (!dash || dash == id || dash - id > 40)
        return 1;
    char doc[48];
    snprintf(doc, sizeof doc, "%.*s", (int)(dash - id), id);
    double seq = strtod(dash + 1, NULL);
    cJSON *last = cJSON_GetObjectItemCaseSensitive(h->seen, doc);
    if (last && last->valuedouble >= seq)
        return 1;
    if (last)
        cJSON_SetNumberValue(last, seq);
    else
        cJSON_AddNumberToObject(h->seen, doc, seq);
    return 0;
}

/* 1 when pe continues h's last entry: the same control on the same page by the
 * same source, not yet taken for a trace nor settled by an undo */
static int continues(const act_history *h, const cJSON *last, const cJSON *pe, const char *src)
{
    return last && same_str(last, pe, "provider") && same_str(last, pe, "component") && same_str(last, pe, "key") &&
           same_str(last, pe, "doc") && !eous_json_bool(last, "reverted", 0) && !eous_json_bool(last, "left", 0) &&
           eous_json_num(last, "seq", 0) > h->taken && !strcmp(eous_json_str(last, "source"), src);
}

/* One entry from the page, its source decided; consecutive changes of one
 * control by one source on one page are one entry (a typed word, not its letters). */
static void merge_entry(act_history *h, const cJSON *pe)
{
    const char *id = eous_json_str(pe, "id");
    if (!id || !eous_json_str(pe, "component") || !eous_json_str(pe, "key") || seen_entry(h, id))
        return;
    double t = eous_json_num(pe, "t", 0);
    if (t < h->since)
        return; /* an earlier task's, from the tab's sessionStorage */
    const char *src = source_at(h, t, eous_json_bool(pe, "trusted", 0));
    if (!strcmp(src, "undo"))
        return; /* the history does not record its own restoring */
    int n = cJSON_GetArraySize(h->entries);
    cJSON *last = n ? cJSON_GetArrayItem(h->entries, n - 1) : NULL;
    if (continues(h, last, pe, src)) {
        cJSON_ReplaceItemInObjectCaseSensitive(last, "value",
                                               cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(pe, "value"), 1));
        return;
    }
    if (n >= HIST_MAX_ENTRIES)
        cJSON_DeleteItemFromArray(h->entries, 0);
    cJSON *e = cJSON_Duplicate(pe, 1);
    if (!e)
        return;
    cJSON_AddStringToObject(e, "source", src);
    cJSON_AddNumberToObject(e, "seq", ++h->seq);
    cJSON_AddItemToArray(h->entries, e);
}

cJSON *act_history_pull(act_history *h, wd_session *s, eous_err *err)
{
    cJSON *v = NULL;
    if (!h) {
        eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        return NULL;
    }
    if (wd_execute(s, ACT_HISTORY_READ_JS, NULL, &v, err))
        return NULL;
    if (!cJSON_IsObject(v)) {
        cJSON_Delete(v);
        eous_err_set(err, EOUS_E_PAGE, "the page sent no history record");
        return NULL;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, eous_json_arr(v, "entries")) merge_entry(h, e);
    return v;
}

/* a secret control's value as the trace shows it: filled or not, never what */
static cJSON *shown_value(const cJSON *e, const char *key, int secret)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    if (!secret)
        return v ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
    int empty = !v || cJSON_IsNull(v) || (cJSON_IsString(v) && !*v->valuestring);
    return cJSON_CreateString(empty ? "" : "[redacted]");
}

/* One entry as a trace line holds it. */
static cJSON *trace_entry(const cJSON *e)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int secret = eous_json_bool(e, "secret", 0);
    const char *fields[] = {"provider", "component", "label", "key"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const char *v = eous_json_str(e, fields[i]);
        cJSON_AddStringToObject(o, fields[i], v ? v : "");
    }
    cJSON_AddItemToObject(o, "value", shown_value(e, "value", secret));
    cJSON_AddItemToObject(o, "previous", shown_value(e, "previous", secret));
    cJSON_AddStringToObject(o, "source", eous_json_str(e, "source"));
    double t = eous_json_num(e, "t", 0);
    time_t sec = (time_t)(t / 1000);
    struct tm tm;
    char when[40] = "";
    if (gmtime_r(&sec, &tm))
        snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)((long long)t % 1000));
    cJSON_AddStringToObject(o, "time", when);
    if (secret)
        cJSON_AddTrueToObject(o, "secret");
    return o;
}

cJSON *act_history_take(act_history *h)
{
    cJSON *out = cJSON_CreateArray();
    if (!h || !out)
        return out;
    const cJSON *e;
    cJSON_ArrayForEach(e, h->entries) {
        if (eous_json_num(e, "seq", 0) <= h->taken)
            continue;
        cJSON *o = trace_entry(e);
        if (o)
            cJSON_AddItemToArray(out, o);
    }
    h->taken = h->seq;
    return out;
}

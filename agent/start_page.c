/* agent/start_page.c — a job's start: its origins' storage cleared, its
 * Playwright storage_state and geolocation applied, its start page (and its
 * further start URLs, one tab each) opened.  The loop (loop.c) and a harness
 * (MCP's task tools, a bench's checks) call it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/run.h"
#include "agent/storage_clear_js.h" /* generated from storage_clear.js: AGENT_STORAGE_CLEAR_JS */
#include "agent/storage_set_js.h"   /* generated from storage_set.js: AGENT_STORAGE_SET_JS */

/* 1 when every entry of the current tab's history is about:blank: no page
 * of any origin has run in it, so its sessionStorage is empty. */
static int tab_never_navigated(wd_session *s)
{
    cJSON *r = NULL;
    if (wd_cdp(s, "Page.getNavigationHistory", NULL, &r, NULL)) {
        cJSON_Delete(r);
        return 0;
    }
    const cJSON *e, *entries = eous_json_arr(r, "entries");
    int blank = entries != NULL;
    cJSON_ArrayForEach(e, entries) {
        const char *u = eous_json_str(e, "url");
        blank = blank && u && !strcmp(u, "about:blank");
    }
    cJSON_Delete(r);
    return blank;
}

/* With CDP, the start origin's cookies, localStorage and sessionStorage are
 * cleared before its page loads, so the page loads once: clearing them from
 * a loaded page and loading it again made two loads of every start page (a
 * second of the Playground's start, a tenth of a DokuWiki task).  0 when it
 * could not (no CDP, a URL with no http origin, a command refused). */
int agent_clear_origin_first(wd_session *s, const char *url)
{
    const char *p = strstr(url, "://");
    if (!wd_session_has_cdp(s) || !p || strncmp(url, "http", 4))
        return 0;
    int n = (int)(p + 3 - url) + (int)strcspn(p + 3, "/?#");
    char origin[512];
    if (n >= (int)sizeof origin)
        return 0;
    snprintf(origin, sizeof origin, "%.*s", n, url);
    cJSON *a = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(a, "origin", origin);
    cJSON_AddStringToObject(a, "storageTypes", "cookies,local_storage");
    eous_rc rc = wd_cdp(s, "Storage.clearDataForOrigin", a, &r, NULL);
    cJSON_Delete(a);
    cJSON_Delete(r);
    r = NULL;
    if (rc)
        return 0;
    /* sessionStorage belongs to the tab: a tab that never left about:blank
     * (agent_fresh_tab's, every bench task's) has none to clear, and
     * DOMStorage.clear refuses an origin the tab has no frame of */
    if (tab_never_navigated(s))
        return 1;
    cJSON *b = cJSON_CreateObject(), *id = cJSON_AddObjectToObject(b, "storageId");
    cJSON_AddStringToObject(id, "securityOrigin", origin);
    cJSON_AddFalseToObject(id, "isLocalStorage");
    rc = wd_cdp(s, "DOMStorage.clear", b, &r, NULL);
    cJSON_Delete(b);
    cJSON_Delete(r);
    return rc == EOUS_OK;
}

/* Closes tab w without making it current: chromedriver's window handle is the
 * tab's CDP target id.  0 without CDP or when refused (then it is switched
 * to and closed: two more requests, and the driver waits for the close). */
static int close_tab_cdp(wd_session *s, const char *w)
{
    if (!wd_session_has_cdp(s))
        return 0;
    cJSON *a = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(a, "targetId", w);
    eous_rc rc = wd_cdp(s, "Target.closeTarget", a, &r, NULL);
    cJSON_Delete(a);
    cJSON_Delete(r);
    return rc == EOUS_OK;
}

/* Every tab but the current one (the first when the current one is gone)
 * closed; a tab that is gone already (one closing since the last call) is
 * not an error. */
static eous_rc close_other_tabs(wd_session *s, eous_err *err)
{
    cJSON *h = NULL;
    char *cur = NULL;
    int switched = 0;
    eous_rc rc = wd_window_handles(s, &h, err);
    if (rc || cJSON_GetArraySize(h) <= 1)
        goto done;
    if (wd_window_handle(s, &cur, NULL) || !cur) {
        free(cur);
        cur = eous_strdup(cJSON_IsString(h->child) ? h->child->valuestring : "");
        switched = 1;
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, h) {
        if (!cJSON_IsString(w) || !strcmp(w->valuestring, cur) || close_tab_cdp(s, w->valuestring))
            continue;
        switched = 1;
        if ((rc = wd_switch_window(s, w->valuestring, err)) == EOUS_OK)
            rc = wd_close_window(s, err);
        if (rc == EOUS_E_NOT_FOUND) /* closed meanwhile */
            rc = EOUS_OK;
        if (rc)
            goto done;
    }
    if (switched)
        rc = wd_switch_window(s, cur, err);
done:
    cJSON_Delete(h);
    free(cur);
    return rc;
}

eous_rc agent_fresh_tab(wd_session *s, eous_err *err)
{
    char *tab = NULL;
    eous_rc rc = wd_new_window(s, "tab", &tab, err);
    if (!rc && !tab)
        rc = eous_err_set(err, EOUS_E_INFRA, "a fresh tab: the driver opened a tab without a handle");
    if (!rc && !(rc = wd_switch_window(s, tab, err)))
        rc = close_other_tabs(s, err);
    if (!rc && wd_session_has_cdp(s)) { /* in front, so its page has focus as a first tab's has */
        cJSON *r = NULL;
        wd_cdp(s, "Page.bringToFront", NULL, &r, NULL);
        cJSON_Delete(r);
    }
    free(tab);
    return rc;
}

/* geolocation: {"latitude", "longitude", "accuracy"?} as Playwright takes it */
static void set_geolocation(wd_session *s, const agent_job *j)
{
    const cJSON *geo = j->geolocation;
    if (geo && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(geo, "latitude")) &&
        cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(geo, "longitude")) && wd_session_has_cdp(s)) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "latitude", eous_json_num(geo, "latitude", 0));
        cJSON_AddNumberToObject(p, "longitude", eous_json_num(geo, "longitude", 0));
        cJSON_AddNumberToObject(p, "accuracy", eous_json_num(geo, "accuracy", 10));
        cJSON *r = NULL;
        wd_cdp(s, "Emulation.setGeolocationOverride", p, &r, NULL);
        cJSON_Delete(r);
        cJSON_Delete(p);
    }
}

/* Opens the task's start_urls after the first (already loaded in the current
 * tab) one new tab each, each origin cleared first, then goes back to the
 * first tab and brings it to the front.  A page that cannot be loaded is
 * wd_navigate_start's error (infra). */
static eous_rc open_more_start_urls(wd_session *s, const agent_job *j, eous_err *err)
{
    const cJSON *u = j->more_start_urls;
    if (!u)
        return EOUS_OK;
    char *first = NULL, *tab = NULL;
    eous_rc rc = wd_window_handle(s, &first, err);
    for (; u && !rc; u = u->next) {
        free(tab);
        tab = NULL;
        if ((rc = wd_new_window(s, "tab", &tab, err)))
            break;
        if (!tab) {
            rc = eous_err_set(err, EOUS_E_INFRA, "start_urls: the driver opened a tab without a handle");
            break;
        }
        if (!(rc = wd_switch_window(s, tab, err))) {
            agent_clear_origin_first(s, u->valuestring); /* a clean slate on each start origin */
            rc = wd_navigate_start(s, u->valuestring, err);
        }
    }
    /* the first start page is the one the agent is on, in front as WebArena brings it */
    eous_err e2;
    eous_rc back = first ? wd_switch_window(s, first, &e2) : EOUS_OK;
    if (back && !rc) {
        rc = back;
        if (err)
            *err = e2;
    }
    if (!rc && wd_session_has_cdp(s)) {
        cJSON *r = NULL;
        wd_cdp(s, "Page.bringToFront", NULL, &r, NULL);
        cJSON_Delete(r);
    }
    free(first);
    free(tab);
    return rc;
}

eous_rc agent_prepare_page(wd_session *s, const agent_job *t, eous_err *err)
{
    eous_rc rc;
    /* a clean slate on the start origin: cookies, localStorage, sessionStorage;
     * a start page that cannot be loaded is the site's failure (infra).
     * storage_state's cookies can only be added from a page of their site */
    /* a tab a task before this one opened is not this task's */
    if ((rc = close_other_tabs(s, err)))
        return rc;
    if (!t->storage_state && agent_clear_origin_first(s, t->start_url)) {
        set_geolocation(s, t);
        if (t->ops && t->ops->begin) /* a harness's network log starts with the start page */
            t->ops->begin(t, s);
        if (!(rc = wd_navigate_start(s, t->start_url, err)))
            rc = open_more_start_urls(s, t, err);
        return rc;
    }
    if ((rc = wd_navigate_start(s, t->start_url, err)))
        return rc;
    wd_command(s, "DELETE", "/cookie", NULL, NULL, NULL);
    cJSON *v = NULL;
    wd_execute(s, AGENT_STORAGE_CLEAR_JS, NULL, &v, NULL);
    cJSON_Delete(v);
    if (t->storage_state) {
        /* Playwright storage_state: {cookies: [...], origins: [{origin, localStorage: [{name, value}]}]} */
        cJSON *st = eous_json_parse_file(t->storage_state, 0, err);
        if (!st) {
            eous_err_prefix(err, "job %s: storage_state", t->id);
            return eous_err_remap(err, EOUS_E_INVALID);
        }
        const cJSON *c;
        cJSON_ArrayForEach(c, eous_json_arr(st, "cookies")) {
            cJSON *body = cJSON_CreateObject();
            cJSON *ck = cJSON_AddObjectToObject(body, "cookie");
            const char *keys[] = {"name", "value", "path", "domain"};
            for (int i = 0; i < 4; i++)
                if (eous_json_str(c, keys[i]))
                    cJSON_AddStringToObject(ck, keys[i], eous_json_str(c, keys[i]));
            cJSON_AddBoolToObject(ck, "secure", eous_json_bool(c, "secure", 0));
            cJSON_AddBoolToObject(ck, "httpOnly", eous_json_bool(c, "httpOnly", 0));
            wd_command(s, "POST", "/cookie", body, NULL, NULL);
            cJSON_Delete(body);
        }
        const cJSON *o;
        cJSON_ArrayForEach(o, eous_json_arr(st, "origins")) {
            const cJSON *ls = eous_json_arr(o, "localStorage");
            if (!ls)
                continue;
            cJSON *args = cJSON_CreateArray();
            cJSON_AddItemToArray(args, cJSON_Duplicate(ls, 1));
            wd_execute(s, AGENT_STORAGE_SET_JS, args, &v, NULL);
            cJSON_Delete(v);
            cJSON_Delete(args);
        }
        cJSON_Delete(st);
    }
    set_geolocation(s, t);
    if (t->ops && t->ops->begin) /* a harness's network log starts with the start page */
        t->ops->begin(t, s);
    if (!(rc = wd_navigate(s, t->start_url, err)))
        rc = open_more_start_urls(s, t, err);
    return rc;
}

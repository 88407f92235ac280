/* actions/nav.c — navigation (goto with the policy's origin rules before
 * and after redirects, back, forward) and tabs (tab_focus, close_tab, and
 * reading the open tabs for the view's tab header). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"

static eous_rc check_nav(act_exec *x, const char *url, const char *from, eous_err *err)
{
    if (x->policy)
        return act_policy_check_url(x->policy, url, err);
    /* no policy: stay within the origin being left */
    act_policy *p = NULL;
    eous_rc rc = act_policy_new(&p, err);
    if (!rc && from && *from && act_policy_allow_origin(p, from, NULL) != EOUS_OK)
        rc = EOUS_OK; /* about:blank and the like: only about:blank stays reachable */
    if (!rc)
        rc = act_policy_check_url(p, url, err);
    act_policy_free(p);
    return rc;
}

/* The browser showed its error page for url (refused, no such host, ...):
 * EOUS_E_PAGE naming url and Chromium's net::ERR_ code, the tab left for
 * about:blank. */
static eous_rc unreachable(act_exec *x, const char *url, const char *neterr, eous_err *err)
{
    cJSON *v = NULL;
    eous_err e2;
    eous_err_clear(&e2);
    if (!neterr)
        wd_execute(x->s, "const c = document.querySelector('.error-code'); return c ? c.textContent : '';", NULL, &v,
                   &e2);
    char code[64];
    snprintf(code, sizeof code, "%.*s", neterr ? (int)strcspn(neterr, " \t\r\n,;)") : 63,
             neterr                                    ? neterr
             : cJSON_IsString(v) && v->valuestring[0] ? v->valuestring
                                                      : "the browser's error page");
    eous_rc rc = eous_err_set(err, EOUS_E_PAGE, "goto %s: could not reach %s (%s); left it for about:blank", url, url, code);
    cJSON_Delete(v);
    wd_navigate(x->s, "about:blank", NULL);
    snprintf(x->url, sizeof x->url, "about:blank");
    return rc;
}
/* A goto that only changes the fragment keeps the document (no load to count from). */
static int same_document(const char *from, const char *to)
{
    const char *hash = strchr(to, '#');
    size_t n = hash ? (size_t)(hash - to) : 0;
    return hash && strlen(from) >= n && !strncmp(from, to, n) && (from[n] == '\0' || from[n] == '#');
}

eous_rc act_run_goto(act_exec *x, const act_action *a, act_result *res, double *settle_ms, eous_err *err)
{
    const char *raw = a->text ? a->text : "";
    char from[2048];
    snprintf(from, sizeof from, "%s", x->url);
    if (!from[0]) {
        char *u = NULL;
        if (wd_get_url(x->s, &u, NULL) == EOUS_OK && u)
            snprintf(from, sizeof from, "%s", u);
        free(u);
    }
    char *url = NULL;
    eous_rc rc = act_secrets_expand(x->secrets, raw, raw, &url, err);
    if (rc)
        return rc;
    /* "/orders" goes to the current origin */
    if (url[0] == '/' && url[1] != '/' && url[1] != '\\') {
        act_url cur;
        if (act_url_parse(from, &cur) == 0 && cur.has_authority) {
            char origin[400];
            act_url_origin(&cur, origin, sizeof origin);
            size_t n = strlen(origin) + strlen(url) + 1;
            char *abs = malloc(n);
            if (!abs) {
                act_secret_free(url);
                return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            }
            snprintf(abs, n, "%s%s", origin, url);
            act_secret_free(url);
            url = abs;
        }
    }
    if ((rc = check_nav(x, url, from, err)))
        goto done;
    res->path = ACT_PATH_ATOMIC;
    if ((rc = wd_navigate(x->s, url, err))) {
        const char *neterr = err ? strstr(err->msg, "net::ERR_") : NULL;
        if (neterr && !eous_rc_is_infra(rc)) /* the driver's words for an unreachable page */
            rc = unreachable(x, act_secrets_has_placeholder(raw) ? raw : url, neterr + 5, err);
        else
            eous_err_prefix(err, "goto %s", raw);
        goto done;
    }
    if ((rc = act_settle_after(x, !same_document(from, url), settle_ms, err)))
        goto done;
    /* redirects count too: where we ended must be allowed as well */
    if (x->url[0] && strcmp(x->url, url)) {
        eous_err e2;
        eous_err_clear(&e2);
        if (!strncmp(x->url, "chrome-error:", 13)) { /* the browser's error page: say what could not be reached */
            rc = unreachable(x, act_secrets_has_placeholder(raw) ? raw : url, NULL, err);
            goto done;
        }
        if (check_nav(x, x->url, from, &e2) != EOUS_OK) {
            char landed[2048];
            snprintf(landed, sizeof landed, "%s", x->url);
            wd_navigate(x->s, "about:blank", NULL);
            snprintf(x->url, sizeof x->url, "about:blank");
            rc = eous_err_set(err, EOUS_E_POLICY, "goto %s: the page redirected to %s, which is refused; left it "
                                                  "for about:blank",
                              raw, landed);
            goto done;
        }
    }
    act_res_msg(res, "went to %s", raw);
done:
    act_secret_free(url);
    return rc;
}

eous_rc act_run_history(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    res->path = ACT_PATH_ATOMIC;
    eous_rc rc = a->kind == ACT_GO_BACK ? wd_back(x->s, err) : wd_forward(x->s, err);
    if (!rc)
        act_res_msg(res, "went %s", a->kind == ACT_GO_BACK ? "back" : "forward");
    return rc;
}

eous_rc act_run_tabs(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    cJSON *h = NULL;
    eous_rc rc = wd_window_handles(x->s, &h, err);
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(h);
    res->path = ACT_PATH_ATOMIC;
    if (a->kind == ACT_TAB_FOCUS) {
        if (a->index < 0 || a->index >= n) {
            rc = eous_err_set(err, EOUS_E_NOT_FOUND, "tab_focus: no tab %d (tabs 0..%d are open)", a->index, n - 1);
        } else if (!(rc = wd_switch_window(x->s, cJSON_GetArrayItem(h, a->index)->valuestring, err))) {
            act_res_msg(res, "switched to tab %d", a->index);
        }
    } else {
        if (n <= 1) {
            rc = eous_err_set(err, EOUS_E_INVALID, "close_tab: this is the only tab; it stays open");
        } else if (!(rc = wd_close_window(x->s, err))) {
            cJSON_Delete(h);
            h = NULL;
            if (!(rc = wd_window_handles(x->s, &h, err)) && cJSON_GetArraySize(h) > 0) {
                int last = cJSON_GetArraySize(h) - 1;
                if (!(rc = wd_switch_window(x->s, cJSON_GetArrayItem(h, last)->valuestring, err)))
                    act_res_msg(res, "closed the tab; now on tab %d", last);
            }
        }
    }
    cJSON_Delete(h);
    return rc;
}


void act_tabs_clear(act_tabs *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->count; i++) {
        if (t->titles)
            free(t->titles[i]);
        if (t->urls)
            free(t->urls[i]);
    }
    free(t->titles);
    free(t->urls);
    memset(t, 0, sizeof *t);
}

/* The title of every handle in h, from the current tab `cur` (index *current). */
static eous_rc read_titles(wd_session *s, const cJSON *h, const char *cur, act_tabs *t, eous_err *err)
{
    eous_rc rc = EOUS_OK;
    const char *on = cur; /* the tab the session is on now */
    for (int i = 0; i < t->count && !rc; i++) {
        const char *handle = cJSON_GetArrayItem(h, i)->valuestring;
        if (!strcmp(handle, cur))
            t->current = i;
        if (strcmp(handle, on) && !(rc = wd_switch_window(s, handle, err)))
            on = handle;
        if (!rc)
            rc = wd_get_title(s, &t->titles[i], err);
        if (!rc && t->urls)
            rc = wd_get_url(s, &t->urls[i], err);
    }
    if (strcmp(on, cur)) {
        eous_err e2;
        eous_rc back = wd_switch_window(s, cur, &e2);
        if (back && !rc) {
            rc = back;
            if (err)
                *err = e2;
        }
    }
    return rc;
}

static eous_rc tabs_read(wd_session *s, act_tabs *t, int with_urls, eous_err *err)
{
    memset(t, 0, sizeof *t);
    cJSON *h = NULL;
    char *cur = NULL;
    eous_rc rc = wd_window_handles(s, &h, err);
    if (rc)
        goto done;
    t->count = cJSON_GetArraySize(h);
    if (t->count < 1 || (t->count == 1 && !with_urls))
        goto done;
    for (int i = 0; i < t->count; i++)
        if (!cJSON_IsString(cJSON_GetArrayItem(h, i))) {
            rc = eous_err_set(err, EOUS_E_INFRA, "window handles: the driver sent a handle that is not a string");
            goto done;
        }
    if ((rc = wd_window_handle(s, &cur, err)))
        goto done;
    if (!(t->titles = calloc((size_t)t->count, sizeof *t->titles)) ||
        (with_urls && !(t->urls = calloc((size_t)t->count, sizeof *t->urls)))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    rc = read_titles(s, h, cur, t, err);
done:
    if (rc)
        act_tabs_clear(t);
    cJSON_Delete(h);
    free(cur);
    return rc;
}

eous_rc act_tabs_read(wd_session *s, act_tabs *t, eous_err *err)
{
    return tabs_read(s, t, 0, err);
}

eous_rc act_tabs_read_urls(wd_session *s, act_tabs *t, eous_err *err)
{
    return tabs_read(s, t, 1, err);
}

eous_rc act_observe(wd_session *s, const perc_opts *o, perc_obs **out, eous_err *err)
{
    perc_opts po;
    if (o)
        po = *o;
    else
        perc_opts_init(&po);
    act_tabs tabs;
    eous_rc rc = act_tabs_read(s, &tabs, err);
    if (rc)
        return eous_err_prefix(err, "reading the open tabs");
    po.tab_count = tabs.count;
    po.tab_titles = (const char *const *)tabs.titles;
    po.tab_current = tabs.current;
    rc = perc_observe(s, &po, out, err);
    act_tabs_clear(&tabs);
    return rc;
}

eous_rc act_exec_observe(act_exec *x, const perc_opts *o, perc_obs **out, eous_err *err)
{
    int n = 0;
    eous_err e2;
    eous_err_clear(&e2);
    if (!x->tabs || !wd_session_has_cdp(x->s) || x->tabs(x->tabs_ctx, &n, &e2) || n != 1) {
        if (e2.msg[0])
            EOUS_DEBUG("actions", "the open tabs through the driver: %s", e2.msg);
        return act_observe(x->s, o, out, err);
    }
    /* one tab: what act_tabs_read answers for it (no titles: the view's own is the tab's) */
    perc_opts po;
    if (o)
        po = *o;
    else
        perc_opts_init(&po);
    po.tab_count = 1;
    po.tab_titles = NULL;
    po.tab_current = 0;
    return perc_observe(x->s, &po, out, err);
}

/* Goes back when policy refuses the page `now` an action led to. */
static eous_rc refuse_landing(wd_session *s, const act_policy *pol, const char *now, eous_err *err)
{
    eous_err perr;
    eous_err_clear(&perr);
    if (!now || act_policy_check_url(pol, now, &perr) == EOUS_OK)
        return EOUS_OK;
    wd_back(s, NULL);
    return eous_err_set(err, EOUS_E_POLICY, "the action led to %s, which policy refuses (went back): %s", now,
                        perr.msg);
}

eous_rc act_check_landing(wd_session *s, const act_policy *pol, eous_err *err)
{
    char *now = NULL;
    eous_rc rc = wd_get_url(s, &now, NULL) == EOUS_OK ? refuse_landing(s, pol, now, err) : EOUS_OK;
    free(now);
    return rc;
}

eous_rc act_exec_check_landing(act_exec *x, const act_policy *pol, eous_err *err)
{
    /* an http(s) page the settle read; an error page's location is chrome-error:,
     * where the driver names the URL that failed */
    if (x->settled_url && eous_is_http_url(x->url))
        return refuse_landing(x->s, pol, x->url, err);
    return act_check_landing(x->s, pol, err);
}

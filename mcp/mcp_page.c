/* mcp/mcp_page.c — what a page logged and fetched (browser_console_messages,
 * browser_network_requests, through mcp/page_hook.js) and the lines of a view
 * that match (browser_find).  See mcp_int.h. */
#define _GNU_SOURCE /* strcasestr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mcp/mcp_int.h"
#include "mcp/page_hook_js.h"
#include "mcp/page_log_js.h"

#define FIND_MAX_LINES 60

void mcp_page_hooks_install(wd_session *s)
{
    if (!wd_session_has_cdp(s))
        return; /* page_log.js installs it on the first read instead */
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(p, "source", MCP_PAGE_HOOK_JS);
    wd_cdp(s, "Page.addScriptToEvaluateOnNewDocument", p, &r, NULL);
    cJSON_Delete(r);
    cJSON_Delete(p);
}

static cJSON *page_log(wd_session *s, const char *what, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, cJSON_CreateString(what));
    eous_rc rc = wd_execute(s, MCP_PAGE_LOG_JS, args, &v, err);
    cJSON_Delete(args);
    if (!rc && !cJSON_IsObject(v))
        eous_err_set(err, EOUS_E_PAGE, "the page sent no %s record", what);
    if (rc || !cJSON_IsObject(v)) {
        cJSON_Delete(v);
        return NULL;
    }
    return v;
}

static void log_footer(const cJSON *v, const char *what, eous_buf *out)
{
    int dropped = (int)eous_json_num(v, "dropped", 0);
    if (dropped)
        eous_buf_printf(out, NULL, "(%d more %s not kept: a document keeps its first 500)\n", dropped, what);
    if (!eous_json_bool(v, "installed", 1))
        eous_buf_printf(out, NULL, "(without CDP %s are kept from this call on)\n", what);
}

static int level_rank(const char *level)
{
    static const char *const ranks[] = {"debug", "info", "warning", "error"};
    for (int i = 0; level && i < 4; i++)
        if (!strcmp(level, ranks[i]))
            return i;
    return -1;
}

eous_rc mcp_page_console(wd_session *s, const char *level, eous_buf *out, eous_err *err)
{
    int min = level_rank(level ? level : "info");
    if (min < 0)
        return eous_err_set(err, EOUS_E_INVALID, "browser_console_messages: level '%.40s': expected error, warning, "
                                                 "info or debug", level);
    cJSON *v = page_log(s, "console", err);
    if (!v)
        return err->rc;
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, eous_json_arr(v, "list")) {
        const char *lv = eous_json_str(e, "level"), *text = eous_json_str(e, "text");
        if (level_rank(lv) < min || !text)
            continue;
        eous_buf_printf(out, NULL, "[%s] %s\n", lv, text); /* redacted with the whole answer (write_message) */
        n++;
    }
    if (!n)
        eous_buf_printf(out, NULL, "no console messages at %s or above since this page loaded\n", level ? level : "info");
    log_footer(v, "messages", out);
    cJSON_Delete(v);
    return EOUS_OK;
}

/* Scripts, styles, images, fonts and media: what Playwright MCP leaves out unless asked. */
static int is_static(const char *type)
{
    static const char *const kinds[] = {"script", "link", "css", "img", "image", "font", "audio", "video", "track",
                                        "icon", "input", "other"};
    for (size_t i = 0; type && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(type, kinds[i]))
            return 1;
    return 0;
}

eous_rc mcp_page_network(wd_session *s, int include_static, eous_buf *out, eous_err *err)
{
    cJSON *v = page_log(s, "network", err);
    if (!v)
        return err->rc;
    int n = 0, skipped = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, eous_json_arr(v, "list")) {
        const char *type = eous_json_str(e, "type"), *url = eous_json_str(e, "url");
        if (!url)
            continue;
        if (!include_static && is_static(type)) {
            skipped++;
            continue;
        }
        int status = (int)eous_json_num(e, "status", 0);
        char st[32];
        snprintf(st, sizeof st, status > 0 ? "%d" : status < 0 ? "failed" : "pending", status);
        char *safe = eous_redact(url); /* credentials in a query (token=, key=) and known secrets */
        eous_buf_printf(out, NULL, "%s %.500s → %s (%s)\n", eous_json_str(e, "method") ? eous_json_str(e, "method") : "GET",
                        safe ? safe : "", st, type ? type : "other");
        free(safe);
        n++;
    }
    if (!n)
        eous_buf_puts(out, "no requests since this page loaded\n", NULL);
    if (skipped)
        eous_buf_printf(out, NULL, "(%d static resources left out: includeStatic: true lists them)\n", skipped);
    log_footer(v, "requests", out);
    cJSON_Delete(v);
    return EOUS_OK;
}

/* ---- browser_find ---------------------------------------------------------- */

/* The span's text, cut to n bytes. */
static void span_copy(perc_span sp, char *out, size_t n)
{
    snprintf(out, n, "%.*s", sp.s ? (int)sp.len : 0, sp.s ? sp.s : "");
}

eous_rc mcp_view_find(const char *view, const char *text, const char *role, const char *name, eous_buf *out,
                      eous_err *err)
{
    if ((!text || !*text) && (!role || !*role) && (!name || !*name))
        return eous_err_set(err, EOUS_E_INVALID, "browser_find: expected {text} or {role, name?}");
    /* the view's lines as perception reads them: a line's role (a component's kind) and name */
    perc_lines *ls;
    eous_rc rc = perc_lines_read(view, strlen(view), &ls, err);
    if (rc)
        return rc;
    char heading[300] = "", shown[300] = "\x01";
    int n = 0, more = 0;
    for (size_t i = 0; i < perc_lines_count(ls); i++) {
        const perc_line *l = perc_lines_at(ls, i);
        char r[64], nm[256], *copy = strndup(l->whole.s, l->whole.len);
        span_copy(l->role, r, sizeof r);
        span_copy(l->name, nm, sizeof nm);
        /* the text asked for is looked for in the line as shown: content, not the view's marks */
        int hit = copy && (!text || !*text || strcasestr(copy, text)) && (!role || !*role || !strcasecmp(r, role)) &&
                  (!name || !*name || strcasestr(nm, name));
        if (hit && n < FIND_MAX_LINES) {
            if (strcmp(heading, shown)) {
                eous_buf_printf(out, NULL, "%s\n", heading[0] ? heading : "(before any heading)");
                snprintf(shown, sizeof shown, "%s", heading);
            }
            eous_buf_printf(out, NULL, "  %.400s\n", copy);
            n++;
        } else if (hit) {
            more++;
        }
        if (copy && !strcmp(r, "heading"))
            snprintf(heading, sizeof heading, "under heading '%.250s':", nm);
        free(copy);
    }
    perc_lines_free(ls);
    if (!n)
        eous_buf_printf(out, NULL, "no line of the view matches%s%s%s%s%s%s\n", text ? " text '" : "", text ? text : "",
                        text ? "'" : "", role ? " role " : "", role ? role : "", name ? " and that name" : "");
    if (more)
        eous_buf_printf(out, NULL, "(%d more lines match: narrow the search)\n", more);
    return EOUS_OK;
}

/* mcp/mcp_ax.c — eous mcp's own DevTools connection to the tab the driver is on (mcp_devtools_int.h),
 * beside chromedriver's, for what costs most through the driver: the accessibility tree of every
 * answer's view (chromedriver's goog/cdp/execute parses the 150-200 kB answer and writes it again:
 * about half the tree's time on the Playground) and an atomic action's clicks and keys (each of the
 * driver's requests 5-20 ms, here ~1 ms an event; act_exec_set_input).  The connection opens at the
 * first use, attaches to the tab the driver is on (again when that tab changes) and goes with the
 * browser (mcp_ax_free).  A browser whose DevTools address is not on this machine's loopback, or any
 * failure, leaves the tree and the input to the driver (perc_opts.ax_read's and the executor's
 * fallback); after a failure to connect it is not tried again in that browser. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_devtools_int.h"

struct mcp_ax {
    mcp_devtools dt;
    int off;             /* the connection could not be made: the driver reads the tree */
    char target[128];    /* the tab attached, "" none */
    char session[128];   /* its DevTools session */
    int page_on;         /* Page.enable sent in that session: a dialog opening under the input is seen */
};

void mcp_ax_free(mcp_server *m)
{
    if (!m || !m->ax)
        return;
    mcp_devtools_close(&m->ax->dt);
    free(m->ax);
    m->ax = NULL;
}

/* Attaches a's connection to the tab target (chromedriver's window handles are target ids). */
static eous_rc attach(struct mcp_ax *a, const char *target, eous_err *err)
{
    a->target[0] = a->session[0] = '\0';
    a->page_on = 0;
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(p, "targetId", target);
    cJSON_AddBoolToObject(p, "flatten", 1);
    eous_rc rc = mcp_devtools_call(&a->dt, "Target.attachToTarget", p, &r, NULL, NULL, err);
    cJSON_Delete(p);
    const char *session = eous_json_str(r, "sessionId");
    if (!rc && (!session || strlen(session) >= sizeof a->session || strlen(target) >= sizeof a->target))
        rc = eous_err_set(err, EOUS_E_INFRA, "the browser gave no session for tab %s", target);
    if (!rc) {
        snprintf(a->session, sizeof a->session, "%s", session);
        snprintf(a->target, sizeof a->target, "%s", target);
    }
    cJSON_Delete(r);
    return rc;
}

/* m's connection attached to the tab the driver is on (opened first when needed); what: the caller's
 * name in errors. */
static eous_rc tab(mcp_server *m, const char *what, eous_err *err)
{
    if (!m->ax) {
        if (!(m->ax = calloc(1, sizeof *m->ax)))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        m->ax->dt.fd = -1;
    }
    struct mcp_ax *a = m->ax;
    if (a->off)
        return eous_err_set(err, EOUS_E_INVALID, "no DevTools connection of eous's own to this browser");
    char *h = NULL;
    eous_rc rc = wd_window_handle(m->b.session, &h, err);
    const char *target = h ? h + (strncmp(h, "CDwindow-", 9) ? 0 : 9) : "";
    if (!rc && a->dt.fd < 0) {
        a->target[0] = '\0';
        if ((rc = mcp_devtools_open(m->b.session, what, &a->dt, err)))
            a->off = 1;
    }
    if (!rc && strcmp(a->target, target))
        rc = attach(a, target, err);
    free(h);
    return rc;
}

/* After a failure on the connection (a tab closed, a connection lost): connect again next time. */
static void lost(mcp_server *m)
{
    if (m->ax && !m->ax->off) {
        mcp_devtools_close(&m->ax->dt);
        m->ax->target[0] = '\0';
    }
}

/* perc_opts.ax_read: ctx is the server. */
static eous_rc ax_read(void *ctx, const char *frame_id, char **body, size_t *len, eous_err *err)
{
    mcp_server *m = ctx;
    eous_rc rc = tab(m, "the accessibility tree", err);
    struct mcp_ax *a = m->ax;
    if (!rc) {
        cJSON *p = NULL;
        if (frame_id) {
            p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "frameId", frame_id);
        }
        rc = mcp_devtools_call_raw(&a->dt, "Accessibility.getFullAXTree", p, a->session, body, len, err);
        cJSON_Delete(p);
        if (!rc)
            EOUS_DEBUG("mcp", "AX tree of tab %s%s%s on eous's own DevTools connection, %zu bytes", a->target,
                       frame_id ? ", frame " : "", frame_id ? frame_id : "", *len);
    }
    if (rc)
        lost(m);
    return rc;
}

/* The answer to command id of a's session; *dialog set (and EOUS_OK) when a JavaScript dialog opened
 * first: the page waits on it and the answer comes after it closes (later reads skip it by its id). */
static eous_rc answer(struct mcp_ax *a, long id, const char *method, int *dialog, eous_err *err)
{
    eous_rc rc;
    cJSON *v = NULL;
    while (!(rc = mcp_devtools_recv(&a->dt, &v, err))) {
        const char *ev = eous_json_str(v, "method"), *sid = eous_json_str(v, "sessionId");
        if (ev && !strcmp(ev, "Page.javascriptDialogOpening") && sid && !strcmp(sid, a->session)) {
            *dialog = 1;
            break;
        }
        if (!ev && eous_json_num(v, "id", -1) == (double)id) {
            const cJSON *e = eous_json_obj(v, "error");
            if (e)
                rc = eous_err_set(err, EOUS_E_INFRA, "%s: %s", method, eous_json_str(e, "message"));
            break;
        }
        cJSON_Delete(v);
        v = NULL;
    }
    cJSON_Delete(v);
    return rc;
}

/* act_exec_set_input's hook: ctx is the server; each command answered before the next. */
static eous_rc input(void *ctx, const cJSON *cmds, int *sent, eous_err *err)
{
    mcp_server *m = ctx;
    *sent = 0;
    eous_rc rc = tab(m, "the input", err);
    struct mcp_ax *a = m->ax;
    if (!rc && !a->page_on) { /* dialogs are Page events: without them an alert under a click is a 30 s wait */
        char *t = NULL;
        size_t n = 0;
        if (!(rc = mcp_devtools_call_raw(&a->dt, "Page.enable", NULL, a->session, &t, &n, err)))
            a->page_on = 1;
        free(t);
    }
    int dialog = 0, total = cJSON_GetArraySize(cmds);
    const cJSON *c;
    cJSON_ArrayForEach(c, cmds) {
        const char *method = eous_json_str(c, "method");
        long id = 0;
        if (rc || dialog || !method ||
            (rc = mcp_devtools_send(&a->dt, method, eous_json_obj(c, "params"), a->session, &id, err)))
            break;
        ++*sent;
        rc = answer(a, id, method, &dialog, err);
    }
    if (!rc)
        EOUS_DEBUG("mcp", "input: %d of %d events on eous's own DevTools connection, tab %s%s", *sent, total,
                   a->target, dialog ? "; a dialog opened, the rest not sent" : "");
    else
        lost(m);
    return rc;
}

void mcp_input_use(mcp_server *m)
{
    act_exec_set_input(m->x, input, m);
}

void mcp_ax_use(mcp_server *m, perc_opts *po)
{
    po->ax_read = ax_read;
    po->ax_ctx = m;
}

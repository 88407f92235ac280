/* mcp/mcp_ax.c — the accessibility tree of every answer's view read on eous mcp's own DevTools
 * connection (mcp_devtools_int.h) instead of through chromedriver's goog/cdp/execute, which parses
 * the 150-200 kB answer and writes it again (about half the tree's time on the Playground).  The
 * connection opens at the first view, attaches to the tab the driver is on (again when that tab
 * changes) and goes with the browser (mcp_ax_free).  A browser whose DevTools address is not on this
 * machine's loopback, or any failure, leaves the tree to the driver (perc_opts.ax_read's fallback);
 * after a failure to connect it is not tried again in that browser. */
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

/* perc_opts.ax_read: ctx is the server. */
static eous_rc ax_read(void *ctx, const char *frame_id, char **body, size_t *len, eous_err *err)
{
    mcp_server *m = ctx;
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
        if ((rc = mcp_devtools_open(m->b.session, "the accessibility tree", &a->dt, err)))
            a->off = 1;
    }
    if (!rc && strcmp(a->target, target))
        rc = attach(a, target, err);
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
    if (rc && !a->off) { /* a tab closed, a connection lost: connect again next time */
        mcp_devtools_close(&a->dt);
        a->target[0] = '\0';
    }
    free(h);
    return rc;
}

void mcp_ax_use(mcp_server *m, perc_opts *po)
{
    po->ax_read = ax_read;
    po->ax_ctx = m;
}

/* agent/browser.c — see browser.h. */
#include "agent/browser.h"
#include "agent/run.h"

#include <string.h>

eous_rc agent_browser_open(agent_browser *b, const char *remote_url, int w3c_only, eous_err *err)
{
    return agent_browser_open_net(b, remote_url, NULL, w3c_only, 0, err);
}

eous_rc agent_browser_open_net(agent_browser *b, const char *remote_url, const char *debugger_address, int w3c_only,
                               int network_log, eous_err *err)
{
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.w3c_only = w3c_only;
    o.network_log = network_log && !w3c_only;
    o.debugger_address = debugger_address && *debugger_address ? debugger_address : NULL;
    return agent_browser_open_with(b, remote_url, &o, err);
}

eous_rc agent_browser_open_with(agent_browser *b, const char *remote_url, const wd_session_opts *opts, eous_err *err)
{
    memset(b, 0, sizeof *b);
    wd_session_opts o = *opts;
    const char *url = remote_url;
    eous_rc rc;
    if (!url) {
        if ((rc = wd_driver_spawn(NULL, &b->driver, err)))
            return rc;
        url = wd_driver_url(b->driver);
    } else {
        o.remote = 1;
    }
    if ((rc = wd_session_new(url, &o, &b->session, err))) {
        wd_driver_free(b->driver);
        b->driver = NULL;
        return rc;
    }
    /* an attached browser holds what ran before: eous works in a fresh tab of its own, as in one it
     * launched (the other tabs closed, as before each task) */
    b->attached = o.debugger_address != NULL;
    if (b->attached && (rc = agent_fresh_tab(b->session, err))) {
        eous_err_prefix(err, "the browser at %s", o.debugger_address);
        agent_browser_close(b);
        return rc;
    }
    return EOUS_OK;
}

void agent_browser_close(agent_browser *b)
{
    if (!b)
        return;
    /* an attached browser keeps running: its tab is left on a blank page, not on one whose scripts, timers
     * or open dialog (a renderer's main thread, which a same-site page in the next tab may share) go on */
    if (b->attached && b->session)
        wd_navigate(b->session, "about:blank", NULL);
    b->attached = 0;
    wd_session_free(b->session);
    b->session = NULL;
    wd_driver_free(b->driver);
    b->driver = NULL;
}

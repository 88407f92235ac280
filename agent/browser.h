/* agent/browser.h — a browser for one CLI run or one bench worker: a local
 * chromedriver we spawn (launching Chromium, or attached to a running one's
 * DevTools port), or a remote WebDriver URL (Selenium Grid).
 * agent_browser_open fills b; agent_browser_close frees what it holds. */
#ifndef EOUS_AGENT_BROWSER_H
#define EOUS_AGENT_BROWSER_H

#include "webdriver/wd.h"

typedef struct agent_browser {
    wd_driver *driver;    /* NULL when remote */
    wd_session *session;
    int attached;         /* a running browser's (debugger_address): it outlives b */
} agent_browser;

/* remote_url NULL = spawn chromedriver locally.  w3c_only: never use CDP
 * (perception and actions through W3C scripts, as on endpoints without it). */
eous_rc agent_browser_open(agent_browser *b, const char *remote_url, int w3c_only, eous_err *err);
/* The same, attached to the running Chromium at debugger_address ("HOST:PORT",
 * NULL = launch one: agent_browser_open_with), with chromedriver keeping CDP
 * Network events for HAR files (WebArena-Verified tasks; ignored with w3c_only). */
eous_rc agent_browser_open_net(agent_browser *b, const char *remote_url, const char *debugger_address, int w3c_only,
                               int network_log, eous_err *err);
/* The same with session options (headed, window size ...); o->remote is set
 * from remote_url.  o->debugger_address attaches to that running Chromium
 * instead of launching one: the session starts in a fresh tab, the browser's
 * other tabs closed, and closing b leaves the browser running. */
eous_rc agent_browser_open_with(agent_browser *b, const char *remote_url, const wd_session_opts *o, eous_err *err);
void agent_browser_close(agent_browser *b);

#endif

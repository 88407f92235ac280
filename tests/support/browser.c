/* tests/support/browser.c — see browser.h. */
#include "support/browser.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int ts_browser_start(ts_browser *b, const char *root)
{
    memset(b, 0, sizeof *b);
    b->server = ts_server_start(root ? root : EOUS_SOURCE_DIR "/tests/fixtures/pages");
    if (!b->server)
        return -1;
    eous_err err;
    eous_err_clear(&err);
    if (wd_driver_spawn(NULL, &b->driver, &err) != EOUS_OK) {
        fprintf(stderr, "ts_browser: %s\n", err.msg);
        ts_browser_stop(b);
        return -1;
    }
    if (wd_session_new(wd_driver_url(b->driver), NULL, &b->session, &err) != EOUS_OK) {
        fprintf(stderr, "ts_browser: %s\n", err.msg);
        ts_browser_stop(b);
        return -1;
    }
    return 0;
}

void ts_browser_stop(ts_browser *b)
{
    wd_session_free(b->session);
    b->session = NULL;
    wd_driver_free(b->driver);
    b->driver = NULL;
    ts_server_stop(b->server);
    b->server = NULL;
}

const char *ts_browser_url(ts_browser *b, const char *path)
{
    snprintf(b->url_buf, sizeof b->url_buf, "%s%s", ts_server_url(b->server), path ? path : "/");
    return b->url_buf;
}

const char *ts_site_root(void)
{
    static const char *root = EOUS_SOURCE_DIR "/benchmarks/site/dist";
    struct stat st;
    char index[1024];
    snprintf(index, sizeof index, "%s/index.html", root);
    return stat(index, &st) == 0 ? root : NULL;
}

/* tests/perception/test_perc_ax_read.c — perc_opts.ax_read (perception/live.c): the accessibility
 * tree read another way than the driver's goog/cdp/execute (eous mcp reads it on its own DevTools
 * connection, mcp/mcp_ax.c) gives the view byte for byte, frames too; its answer may be the whole
 * CDP message ({"id", "result"}, perception/axscan.c); a failure falls back to the driver.  Real
 * headless Chromium on tests/fixtures/pages. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc.h"
#include "support/browser.h"

static ts_browser B;

static void setup(void)
{
    cr_assert_eq(ts_browser_start(&B, NULL), 0, "browser start failed");
}

static void teardown(void)
{
    ts_browser_stop(&B);
}

TestSuite(perc_ax_read, .init = setup, .fini = teardown, .timeout = 180);

/* What the reader was asked for, and whether it fails. */
typedef struct reader {
    int calls, frames, fail;
} reader;

/* Reads the tree through the driver and hands it on as a DevTools connection does: the whole message. */
static eous_rc read_as_message(void *ctx, const char *frame_id, char **body, size_t *len, eous_err *err)
{
    reader *r = ctx;
    r->calls++;
    r->frames += frame_id != NULL;
    if (r->fail)
        return eous_err_set(err, EOUS_E_INFRA, "no connection");
    cJSON *p = NULL;
    if (frame_id) {
        p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "frameId", frame_id);
    }
    cJSON *tree = NULL;
    eous_rc rc = wd_cdp(B.session, "Accessibility.getFullAXTree", p, &tree, err);
    cJSON_Delete(p);
    if (rc)
        return rc;
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddNumberToObject(msg, "id", 7);
    cJSON_AddItemToObject(msg, "result", tree);
    cJSON_AddStringToObject(msg, "sessionId", "S");
    *body = cJSON_PrintUnformatted(msg);
    *len = *body ? strlen(*body) : 0;
    cJSON_Delete(msg);
    return *body ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
}

static void open_page(const char *path)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, path), &err), EOUS_OK, "%s", err.msg);
}

/* The view of the page as it is, in mode, read with r (NULL: the driver alone); caller frees. */
static char *view_of(perc_mode mode, reader *r)
{
    eous_err err;
    eous_err_clear(&err);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    if (r) {
        o.ax_read = read_as_message;
        o.ax_ctx = r;
    }
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    char *t = strdup(perc_obs_text(obs));
    perc_obs_free(obs);
    return t;
}

/* The same document read both ways (another load would number its nodes anew). */
static void same_view(const char *path, perc_mode mode)
{
    reader r = {0};
    open_page(path);
    char *driver = view_of(mode, NULL), *read = view_of(mode, &r);
    cr_assert_gt(r.calls, 0, "the reader was never asked (%s)", path);
    cr_assert_str_eq(read, driver, "%s %s: the view differs", path, perc_mode_name(mode));
    if (!strcmp(path, "/frames.html"))
        cr_assert_gt(r.frames, 0, "a child frame's tree was not read by the reader");
    free(driver);
    free(read);
}

Test(perc_ax_read, the_tree_read_as_a_devtools_message_gives_the_view_byte_for_byte)
{
    same_view("/form.html", PERC_MODE_ATOMIC);
    same_view("/ci4a.html", PERC_MODE_HYBRID);
    same_view("/frames.html", PERC_MODE_ATOMIC);
}

Test(perc_ax_read, a_reader_that_fails_leaves_the_tree_to_the_driver)
{
    reader r = {.fail = 1};
    open_page("/form.html");
    char *driver = view_of(PERC_MODE_ATOMIC, NULL), *read = view_of(PERC_MODE_ATOMIC, &r);
    cr_assert_gt(r.calls, 0);
    cr_assert_str_eq(read, driver);
    free(driver);
    free(read);
}

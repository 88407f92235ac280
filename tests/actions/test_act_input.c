/* tests/actions/test_act_input.c — an atomic action's clicks and keys on act_exec_set_input's hook
 * (actions/input.c; eous mcp sets it to its own DevTools connection) are the events the driver's W3C
 * actions give the page: tests/fixtures/pages/input_log.html logs every mouse, pointer, key and edit
 * event (trusted or not, coordinates, buttons, key, code, key code, modifiers, the edit) and the
 * same steps log the same with the hook and without it.  The hook here sends each command through
 * the driver's goog/cdp/execute, so what is compared is the events input.c makes; a hook that cannot
 * send leaves the input to the driver.  Real chromedriver + headless Chromium. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "support/browser.h"
#include "support/page_js.h"

TS_EXEC_SUITE(act_input, EOUS_SOURCE_DIR "/tests/fixtures/pages", 0, 240);

typedef struct hook {
    int calls; /* times the executor used the hook */
    int sent;  /* commands it sent */
    int fail;  /* 1: it cannot send (no connection): sends nothing */
} hook;

/* act_input_fn: each command through the driver's CDP endpoint, in order. */
static eous_rc through_driver(void *ctx, const cJSON *cmds, int *sent, eous_err *err)
{
    hook *h = ctx;
    h->calls++;
    *sent = 0;
    if (h->fail)
        return eous_err_set(err, EOUS_E_INFRA, "no DevTools connection (the test's)");
    const cJSON *c;
    cJSON_ArrayForEach(c, cmds) {
        eous_rc rc = wd_cdp(B.session, eous_json_str(c, "method"), eous_json_obj(c, "params"), NULL, err);
        if (rc)
            return rc;
        ++*sent;
        h->sent++;
    }
    return EOUS_OK;
}

/* One script step (JSON text) against a fresh observation: perceive, act, settle. */
static void step(const char *json)
{
    act_result r;
    memset(&r, 0, sizeof r);
    eous_err err;
    cr_assert_eq(ts_exec_step(&B, X, json, &r, &err), EOUS_OK, "%s: %s", json, err.msg);
    act_result_clear(&r);
}

/* The page's event log after the same steps, with hook h (NULL: none): a text of 4+ characters as
 * one edit carried by its last key (click, Control+A, then the key's down, the edit, its up), a short
 * one key by key after Control+A and Backspace, capitals, digits, punctuation and Enter key by key,
 * a pointer click on a button (caller frees). */
static char *events_with(hook *h)
{
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/input_log.html"), &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_settle(X, NULL, &err), EOUS_OK, "%s", err.msg);
    act_exec_set_input(X, h ? through_driver : NULL, h);
    step("{\"type\": \"textbox 'Field'\", \"text\": \"abcdef\"}");
    step("{\"type\": \"textbox 'Field'\", \"text\": \"xy\"}");
    step("{\"type\": \"textbox 'Field'\", \"text\": \"Ab 1,.-;Z\", \"enter\": true}");
    step("{\"click\": \"button 'Press'\"}");
    act_exec_set_input(X, NULL, NULL);
    char *value = ts_page_json(B.session, "document.getElementById('f').value");
    cr_assert_str_eq(value, "\"Ab 1,.-;Z\"", "the field holds %s", value);
    free(value);
    return ts_page_json(B.session, "window.__log.join('; ')");
}

Test(act_input, the_hooks_events_are_the_ones_the_driver_gives_the_page)
{
    char *driver = events_with(NULL);
    hook h = {0};
    char *hooked = events_with(&h);
    /* every click and key went on the hook: 4 sequences of the types and the click (the long text's
     * key and edit a fifth), none through the driver's actions */
    cr_assert_eq(h.calls, 5, "the hook was used %d times, not 5", h.calls);
    cr_assert_gt(h.sent, 40, "%d commands on the hook", h.sent);
    cr_assert_null(strstr(hooked, "untrusted"), "an event the page did not trust: %s", hooked);
    cr_assert(strstr(hooked, "keydown a/KeyA/65 C; keyup a/KeyA/65 C"), "no Control+A: %s", hooked);
    cr_assert_str_eq(hooked, driver, "\nthe hook's events:  %s\nthe driver's events: %s", hooked, driver);
    free(driver);
    free(hooked);
}

Test(act_input, a_hook_that_cannot_send_leaves_the_input_to_the_driver)
{
    char *driver = events_with(NULL);
    hook h = {.fail = 1};
    char *fallback = events_with(&h);
    cr_assert_eq(h.calls, 5, "the hook was asked %d times, not 5", h.calls);
    cr_assert_eq(h.sent, 0);
    cr_assert_str_eq(fallback, driver, "\nafter the hook failed: %s\nthe driver's events:  %s", fallback, driver);
    free(driver);
    free(fallback);
}

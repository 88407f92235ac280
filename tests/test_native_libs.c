/* tests/test_native_libs.c — the native provider on widget libraries the
 * project did not write (issue 49 item 6), each driven as a model would in
 * hybrid mode: jQuery UI 1.13 from Debian's libjs-jquery-ui (scripts/setup
 * installs it with DokuWiki), served beside tests/fixtures/native/jqueryui.html
 * from a directory the suite makes of links. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions/exec.h"
#include "support/browser.h"
#include "support/page_js.h"
#include "support/workdir.h"

#define FIXTURES EOUS_SOURCE_DIR "/tests/fixtures/native"
#define JS "/usr/share/javascript"

static char dir[256];
static ts_browser B;
static act_exec *X;
static act_policy *P;

/* dir/NAME -> target */
static void link_in(const char *name, const char *target)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_assert_eq(access(target, R_OK), 0, "%s is missing: scripts/setup installs it (libjs-jquery-ui)", target);
    cr_assert_eq(symlink(target, path), 0, "symlink %s -> %s failed", path, target);
}

static void setup(void)
{
    ts_workdir_make(dir, sizeof dir, "native-libs", NULL, NULL, 0);
    link_in("jquery.js", JS "/jquery/jquery.js");
    link_in("jquery-ui.js", JS "/jquery-ui/jquery-ui.js");
    link_in("jquery-ui.css", JS "/jquery-ui/themes/base/jquery-ui.css");
    link_in("jqueryui.html", FIXTURES "/jqueryui.html");
    link_in("done.html", FIXTURES "/done.html");
    cr_assert_eq(ts_browser_start(&B, dir), 0, "browser start failed");
    cr_assert_eq(ts_exec_start(&B, 5000, &X, &P), 0);
}

static void teardown(void)
{
    ts_exec_stop(&X, &P);
    ts_browser_stop(&B);
    ts_workdir_remove(dir);
}

TestSuite(native_libs, .init = setup, .fini = teardown, .timeout = 300);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(B.session, expr, want)

static void open_page(const char *path)
{
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, path), &err), EOUS_OK, "%s", err.msg);
}

static perc_obs *observe(void)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_HYBRID;
    perc_obs *obs = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

static const perc_component *comp(const perc_obs *obs, const char *kind, const char *label)
{
    for (size_t i = 0; i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (!strcmp(c->provider, "native") && !strcmp(c->kind, kind) && c->label && !strcmp(c->label, label))
            return c;
    }
    return NULL;
}

/* "call [id] [tool] [params]" on a fresh hybrid view; r is the caller's to clear */
static eous_rc call(const char *kind, const char *label, const char *tool, const char *params, act_result *r,
                    eous_err *err)
{
    perc_obs *obs = observe();
    const perc_component *c = comp(obs, kind, label);
    cr_assert(c, "no native %s '%s' in:\n%s", kind, label, perc_obs_text(obs));
    char text[2048];
    snprintf(text, sizeof text, "call [%s] [%s] [%s]", c->view_id[0] ? c->view_id : c->key, tool, params);
    act_action a;
    act_action_init(&a);
    eous_err perr;
    cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s: %s", text, perr.msg);
    eous_err_clear(err);
    memset(r, 0, sizeof *r);
    eous_rc rc = act_execute(X, obs, &a, r, err);
    act_action_clear(&a);
    perc_obs_free(obs);
    return rc;
}

#define CALL_OK(kind, label, tool, params)                                                                     \
    do {                                                                                                       \
        act_result r_;                                                                                         \
        eous_err e_;                                                                                           \
        cr_assert_eq(call(kind, label, tool, params, &r_, &e_), EOUS_OK, "%s '%s'.%s %s: %s", kind, label,    \
                     tool, params, e_.msg);                                                                    \
        act_result_clear(&r_);                                                                                 \
    } while (0)

/* The selectmenu is named by the label jQuery UI points at its button; select() picks an option
 * and reads it back from the button's text; expand() opens it with a click, and the value stays
 * (ArrowDown on the closed button is "next option" to jQuery UI: Fast, a change event). */
Test(native_libs, jquery_ui_selectmenu_is_named_picked_and_opened_without_a_change)
{
    open_page("/jqueryui.html");
    perc_obs *obs = observe();
    cr_assert(strstr(perc_obs_text(obs), "combobox 'Speed' value: 'Medium'"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    CALL_OK("combobox", "Speed", "expand", "{}");
    EXPECT_JS("$('#speed').val()", "\"Medium\"");
    EXPECT_JS("window.changes", "0");
    CALL_OK("combobox", "Speed", "select", "{\"option\": \"Faster\"}");
    EXPECT_JS("$('#speed').val()", "\"Faster\"");
    EXPECT_JS("window.changes", "1");
    obs = observe();
    cr_assert(strstr(perc_obs_text(obs), "combobox 'Speed' value: 'Faster'"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
}

/* The form's fill: jQuery UI's autocomplete (its class says so; a menu it closes on blur) gets its
 * last key and keeps the focus, and shows its suggestions (after its 300 ms delay, which the call
 * settles on); checkboxradio's checkbox is checked.  Set in one edit and left, it showed none. */
Test(native_libs, jquery_ui_autocomplete_and_checkboxradio_take_a_fill)
{
    open_page("/jqueryui.html");
    CALL_OK("form", "Order", "fill", "{\"Gift wrap\": true, \"Language\": \"Java\"}");
    EXPECT_JS("$('#gift').prop('checked')", "true");
    EXPECT_JS("$('#gift').next().length + $('label[for=gift]').hasClass('ui-checkboxradio-checked')", "1");
    EXPECT_JS("$('#lang').val()", "\"Java\"");
    EXPECT_JS("$('.ui-autocomplete:visible li').map((i, e) => e.textContent).get()", "[\"Java\",\"JavaScript\"]");
}

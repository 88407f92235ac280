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

static perc_obs *observe_mode(perc_mode mode)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    perc_obs *obs = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

static perc_obs *observe(void)
{
    return observe_mode(PERC_MODE_HYBRID);
}

/* "VERB [id]REST" in atomic mode, the id that of the node of this role and name in the view, as a
 * model reads it there; r is the caller's to clear */
static eous_rc atomic(const char *verb, const char *role, const char *name, const char *rest, act_result *r,
                      eous_err *err)
{
    perc_obs *obs = observe_mode(PERC_MODE_ATOMIC);
    int bid = 0;
    cr_assert_eq(perc_obs_find_role_name(obs, role, name, 1, &bid, NULL), EOUS_OK, "no %s '%s' in\n%s", role, name,
                 perc_obs_text(obs));
    const char *vid = perc_obs_view_id_of(obs, bid);
    cr_assert(vid, "%s '%s' has no id in\n%s", role, name, perc_obs_text(obs));
    char text[512];
    snprintf(text, sizeof text, "%s [%s]%s", verb, vid, rest);
    act_action a;
    act_action_init(&a);
    eous_err perr;
    cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s: %s", text, perr.msg);
    memset(r, 0, sizeof *r);
    eous_err_clear(err);
    eous_rc rc = act_execute(X, obs, &a, r, err);
    act_action_clear(&a);
    perc_obs_free(obs);
    return rc;
}

#define ATOMIC_OK(verb, role, name, rest)                                                                      \
    do {                                                                                                       \
        act_result r_;                                                                                         \
        eous_err e_;                                                                                           \
        cr_assert_eq(atomic(verb, role, name, rest, &r_, &e_), EOUS_OK, "%s %s '%s'%s: %s", verb, role, name,  \
                     rest, e_.msg);                                                                            \
        act_result_clear(&r_);                                                                                 \
    } while (0)

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

/* Atomic mode, the same assertions: the selectmenu opened by a click keeps Medium, its option
 * clicked is taken; the autocomplete typed into shows Java and JavaScript; the checkbox clicked. */
Test(native_libs, jquery_ui_in_atomic_mode_takes_the_same_steps)
{
    open_page("/jqueryui.html");
    /* the accessibility tree names it not (a <label for> on a span): the combobox after "Speed" */
    ATOMIC_OK("click", "combobox", "", "");
    ts_page_wait(B.session, "$('#speed-menu').is(':visible')");
    EXPECT_JS("$('#speed').val()", "\"Medium\"");
    EXPECT_JS("window.changes", "0");
    /* its options show as their text in the accessibility tree */
    ATOMIC_OK("click", "StaticText", "Faster", "");
    EXPECT_JS("$('#speed').val()", "\"Faster\"");
    EXPECT_JS("window.changes", "1");
    /* checkboxradio hides the box (clipped to a pixel, under its label): a click on the checkbox
     * itself is intercepted and leaves it unchecked in atomic mode, so the label's text is clicked */
    ATOMIC_OK("click", "StaticText", "Gift wrap", "");
    EXPECT_JS("$('#gift').prop('checked')", "true");
    ATOMIC_OK("type", "textbox", "Language", " [Java] [0]");
    EXPECT_JS("$('#lang').val()", "\"Java\"");
    EXPECT_JS("$('.ui-autocomplete:visible li').map((i, e) => e.textContent).get()", "[\"Java\",\"JavaScript\"]");
}

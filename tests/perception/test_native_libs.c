/* tests/perception/test_native_libs.c — the native provider on widget libraries the
 * project did not write (issue 49 item 6), each driven as a model would in
 * hybrid mode: jQuery UI 1.13 from Debian's libjs-jquery-ui (scripts/setup
 * installs it with DokuWiki), served beside tests/fixtures/native/jqueryui.html
 * from a directory the suite makes of links.  Bootstrap 5 and OOUI, from npm:
 * test_native_bootstrap.c and test_native_ooui.c, on the same harness
 * (tests/support/native_harness.h). */
#include "support/native_harness.h"

#define JS "/usr/share/javascript"
#define WHY "scripts/setup installs it (libjs-jquery-ui)"

static ts_native N;

static void setup(void)
{
    ts_native_workdir(&N, "native-libs");
    ts_native_link(&N, "jquery.js", JS "/jquery/jquery.js", WHY);
    ts_native_link(&N, "jquery-ui.js", JS "/jquery-ui/jquery-ui.js", WHY);
    ts_native_link(&N, "jquery-ui.css", JS "/jquery-ui/themes/base/jquery-ui.css", WHY);
    ts_native_link(&N, "jqueryui.html", TS_NATIVE_FIXTURES "/jqueryui.html", "a fixture");
    ts_native_link(&N, "done.html", TS_NATIVE_FIXTURES "/done.html", "a fixture");
    ts_native_start(&N, NULL);
}

static void teardown(void)
{
    ts_native_stop(&N);
}

TestSuite(native_libs, .init = setup, .fini = teardown, .timeout = 300);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(N.b.session, expr, want)
#define CALL_OK(kind, label, tool, params) TS_NATIVE_CALL_OK(&N, kind, label, tool, params)
#define ATOMIC_OK(verb, role, name, rest) TS_NATIVE_ACT_OK(&N, PERC_MODE_ATOMIC, verb, role, name, rest)

/* The selectmenu is named by the label jQuery UI points at its button; select() picks an option
 * and reads it back from the button's text; expand() opens it with a click, and the value stays
 * (ArrowDown on the closed button is "next option" to jQuery UI: Fast, a change event). */
Test(native_libs, jquery_ui_selectmenu_is_named_picked_and_opened_without_a_change)
{
    ts_native_open(&N, "/jqueryui.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    cr_assert(strstr(perc_obs_text(obs), "combobox 'Speed' value: 'Medium'"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    CALL_OK("combobox", "Speed", "expand", "{}");
    EXPECT_JS("$('#speed').val()", "\"Medium\"");
    EXPECT_JS("window.changes", "0");
    CALL_OK("combobox", "Speed", "select", "{\"option\": \"Faster\"}");
    EXPECT_JS("$('#speed').val()", "\"Faster\"");
    EXPECT_JS("window.changes", "1");
    obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    cr_assert(strstr(perc_obs_text(obs), "combobox 'Speed' value: 'Faster'"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
}

/* The form's fill: jQuery UI's autocomplete (its class says so; a menu it closes on blur) gets its
 * last key and keeps the focus, and shows its suggestions (after its 300 ms delay, which the call
 * settles on); checkboxradio's checkbox is checked.  Set in one edit and left, it showed none. */
Test(native_libs, jquery_ui_autocomplete_and_checkboxradio_take_a_fill)
{
    ts_native_open(&N, "/jqueryui.html");
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
    ts_native_open(&N, "/jqueryui.html");
    /* the accessibility tree names it not (a <label for> on a span): the combobox after "Speed" */
    ATOMIC_OK("click", "combobox", "", "");
    ts_page_wait(N.b.session, "$('#speed-menu').is(':visible')");
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

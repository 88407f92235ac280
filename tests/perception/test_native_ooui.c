/* tests/perception/test_native_ooui.c — the native provider on OOUI (issue 49 item 6:
 * widget libraries the project did not write), MediaWiki's widget library as
 * published on npm with OOjs and jQuery (tests/fixtures/ooui, scripts/setup
 * runs npm ci there), its files served beside tests/fixtures/native/ooui.html.
 * Every pattern is driven in hybrid mode and in atomic mode with the same
 * assertions: a DropdownWidget opened without a change and its pick read
 * back, a DropdownInputWidget's pick in the select it keeps, a
 * ComboBoxInputWidget typed into and a suggestion taken, a checkbox checked
 * and the FormLayout submitted with every field. */
#include "support/native_harness.h"

static ts_native N;

static void setup(void)
{
    ts_native_workdir(&N, "native-ooui");
    ts_native_link_npm(&N, "jquery.js", "ooui", "jquery/dist/jquery.js");
    ts_native_link_npm(&N, "oojs.js", "ooui", "oojs/dist/oojs.js");
    ts_native_link_npm(&N, "oojs-ui.js", "ooui", "oojs-ui/dist/oojs-ui.js");
    ts_native_link_npm(&N, "oojs-ui-wikimediaui.js", "ooui", "oojs-ui/dist/oojs-ui-wikimediaui.js");
    ts_native_link_npm(&N, "oojs-ui-wikimediaui.css", "ooui", "oojs-ui/dist/oojs-ui-wikimediaui.css");
    ts_native_link(&N, "ooui.html", TS_NATIVE_FIXTURES "/ooui.html", "a fixture");
    ts_native_link(&N, "done.html", TS_NATIVE_FIXTURES "/done.html", "a fixture");
    ts_native_start(&N, NULL);
}

static void teardown(void)
{
    ts_native_stop(&N);
}

TestSuite(native_ooui, .init = setup, .fini = teardown, .timeout = 300);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(N.b.session, expr, want)
#define H PERC_MODE_HYBRID
#define A PERC_MODE_ATOMIC

/* The DropdownWidget: opened (its menu shown) with its value kept, then MonoBook picked and read back. */
static void dropdown_pick(perc_mode mode)
{
    ts_native_open(&N, "/ooui.html");
    if (mode == H)
        TS_NATIVE_CALL_OK(&N, "combobox", "Skin", "expand", "{}");
    else
        TS_NATIVE_ACT_OK(&N, A, "click", "combobox", "Skin Vector", "");
    ts_page_wait(N.b.session, "skin.getMenu().isVisible()");
    EXPECT_JS("[window.changes, skin.getMenu().findSelectedItem().getData()]", "[0,\"vector\"]");
    if (mode == H)
        TS_NATIVE_CALL_OK(&N, "combobox", "Skin", "select", "{\"option\": \"MonoBook\"}");
    else
        TS_NATIVE_ACT_OK(&N, A, "click", "option", "MonoBook", "");
    EXPECT_JS("[window.changes, skin.getMenu().findSelectedItem().getData()]", "[1,\"monobook\"]");
    ts_native_expect_view(&N, mode, mode == H ? "combobox 'Skin' value: 'MonoBook'" : "combobox 'Skin MonoBook'");
}

Test(native_ooui, hybrid_dropdown_opens_without_a_change_and_its_pick_is_read_back)
{
    dropdown_pick(H);
}

Test(native_ooui, atomic_dropdown_opens_without_a_change_and_its_pick_is_read_back)
{
    dropdown_pick(A);
}

/* The DropdownInputWidget: Deutsch picked, then Français, in the select the form sends.  In hybrid
 * mode the second is a setValue, which a select-only combobox (no text of its own) takes as the
 * pick of that option: it answered "ok" and changed nothing. */
static void dropdown_input_pick(perc_mode mode)
{
    ts_native_open(&N, "/ooui.html");
    if (mode == H) {
        TS_NATIVE_CALL_OK(&N, "combobox", "Language", "select", "{\"option\": \"Deutsch\"}");
    } else {
        TS_NATIVE_ACT_OK(&N, A, "click", "combobox", "Language English", "");
        TS_NATIVE_ACT_OK(&N, A, "click", "option", "Deutsch", "");
    }
    EXPECT_JS("[lang.getValue(), document.querySelector('select[name=lang]').value]", "[\"de\",\"de\"]");
    ts_native_expect_view(&N, mode, mode == H ? "combobox 'Language' value: 'Deutsch'" : "combobox 'Language Deutsch'");
    if (mode == H) {
        TS_NATIVE_CALL_OK(&N, "combobox", "Language", "setValue", "{\"value\": \"Français\"}");
    } else {
        TS_NATIVE_ACT_OK(&N, A, "click", "combobox", "Language Deutsch", "");
        TS_NATIVE_ACT_OK(&N, A, "click", "option", "Français", "");
    }
    EXPECT_JS("[lang.getValue(), window.changes]", "[\"fr\",2]");
}

Test(native_ooui, hybrid_dropdown_input_pick_is_in_its_select)
{
    dropdown_input_pick(H);
}

Test(native_ooui, atomic_dropdown_input_pick_is_in_its_select)
{
    dropdown_input_pick(A);
}

/* The ComboBoxInputWidget: "Bo" typed, its menu suggests Boston alone (filterFromInput hides the
 * rest), which the view says (it listed all seven), and Boston is taken from the menu (hybrid's
 * select failed: OOUI marks the option the typed text matches and unmarks it on closing, which
 * read as a choice toggled off). */
static void combobox_suggestion(perc_mode mode)
{
    ts_native_open(&N, "/ooui.html");
    if (mode == H)
        TS_NATIVE_CALL_OK(&N, "combobox", "City", "setValue", "{\"value\": \"Bo\"}");
    else
        TS_NATIVE_ACT_OK(&N, A, "type", "combobox", "City", " [Bo] [0]");
    ts_page_wait(N.b.session, "city.getMenu().isVisible()");
    perc_obs *obs = ts_native_observe(&N, mode);
    const char *v = perc_obs_text(obs);
    cr_assert(strstr(v, mode == H ? "options: Boston →" : "option 'Boston'"), "%s", v);
    cr_assert_null(strstr(v, "Amsterdam"), "%s", v);
    perc_obs_free(obs);
    if (mode == H)
        TS_NATIVE_CALL_OK(&N, "combobox", "City", "select", "{\"option\": \"Boston\"}");
    else
        TS_NATIVE_ACT_OK(&N, A, "click", "option", "Boston", "");
    EXPECT_JS("city.getValue()", "\"Boston\"");
}

Test(native_ooui, hybrid_combobox_suggestion_is_taken)
{
    combobox_suggestion(H);
}

Test(native_ooui, atomic_combobox_suggestion_is_taken)
{
    combobox_suggestion(A);
}

/* The FormLayout: the required username and the checkbox filled, submitted by its Save button with
 * every field (the language and city picked before). */
static void form_submit(perc_mode mode)
{
    ts_native_open(&N, "/ooui.html");
    if (mode == H) {
        TS_NATIVE_CALL_OK(&N, "combobox", "Language", "select", "{\"option\": \"Français\"}");
        TS_NATIVE_CALL_OK(&N, "combobox", "City", "setValue", "{\"value\": \"Bern\"}");
        TS_NATIVE_CALL_OK(&N, "form", "Preferences", "submit", "{\"Username\": \"Ada\", \"Email me updates\": true}");
    } else {
        TS_NATIVE_ACT_OK(&N, A, "click", "combobox", "Language English", "");
        TS_NATIVE_ACT_OK(&N, A, "click", "option", "Français", "");
        TS_NATIVE_ACT_OK(&N, A, "type", "combobox", "City", " [Bern] [0]");
        TS_NATIVE_ACT_OK(&N, A, "type", "textbox", "Username", " [Ada] [0]");
        TS_NATIVE_ACT_OK(&N, A, "click", "checkbox", "Email me updates", "");
        TS_NATIVE_ACT_OK(&N, A, "click", "button", "Save", "");
    }
    ts_native_expect_url(&N, "/done.html", "?lang=fr&city=Bern&user=Ada&agree=yes&skin=vector", NULL);
}

Test(native_ooui, hybrid_form_is_submitted_with_every_field)
{
    form_submit(H);
}

Test(native_ooui, atomic_form_is_submitted_with_every_field)
{
    form_submit(A);
}

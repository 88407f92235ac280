/* tests/perception/test_native_bootstrap.c — the native provider on Bootstrap 5 (issue 49
 * item 6: widget libraries the project did not write), as published on npm
 * (tests/fixtures/bootstrap, scripts/setup runs npm ci there), its files
 * served beside tests/fixtures/native/bootstrap.html.  Every pattern is
 * driven in hybrid mode and in atomic mode with the same assertions: the
 * dropdown's pick read back, the checkbox and switch checked, the datalist
 * field's suggestion taken, the validated form submitted (and refused while
 * a required field is empty). */
#include "support/native_harness.h"

static ts_native N;

static void setup(void)
{
    ts_native_workdir(&N, "native-bootstrap");
    ts_native_link_npm(&N, "bootstrap.bundle.js", "bootstrap", "bootstrap/dist/js/bootstrap.bundle.js");
    ts_native_link_npm(&N, "bootstrap.css", "bootstrap", "bootstrap/dist/css/bootstrap.css");
    ts_native_link(&N, "bootstrap.html", TS_NATIVE_FIXTURES "/bootstrap.html", "a fixture");
    ts_native_link(&N, "done.html", TS_NATIVE_FIXTURES "/done.html", "a fixture");
    ts_native_start(&N, NULL);
}

static void teardown(void)
{
    ts_native_stop(&N);
}

TestSuite(native_bootstrap, .init = setup, .fini = teardown, .timeout = 300);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(N.b.session, expr, want)
#define H PERC_MODE_HYBRID
#define A PERC_MODE_ATOMIC

/* The dropdown: its button opened by a click shows its items, one clicked is the pick, shown on the
 * button and kept in the form's hidden field. */
static void dropdown_pick(perc_mode mode)
{
    ts_native_open(&N, "/bootstrap.html");
    TS_NATIVE_ACT_OK(&N, mode, "click", "button", "Sort by", "");
    ts_page_wait(N.b.session, "document.querySelector('.dropdown-menu.show')");
    EXPECT_JS("window.changes", "0");
    TS_NATIVE_ACT_OK(&N, mode, "click", "button", "Oldest", "");
    EXPECT_JS("document.getElementById('sort').value", "\"Oldest\"");
    EXPECT_JS("window.changes", "1");
    ts_native_expect_view(&N, mode, "button");
    ts_native_expect_view(&N, mode, "'Sort by: Oldest'");
}

Test(native_bootstrap, hybrid_dropdown_pick_is_read_back)
{
    dropdown_pick(H);
}

Test(native_bootstrap, atomic_dropdown_pick_is_read_back)
{
    dropdown_pick(A);
}

/* The checkbox and the switch (role=switch on a checkbox input) checked, the form-select's option
 * picked and read back. */
static void checks_and_select(perc_mode mode)
{
    ts_native_open(&N, "/bootstrap.html");
    if (mode == H) {
        TS_NATIVE_CALL_OK(&N, "form", "Sign up", "fill",
                          "{\"Agree to terms and conditions\": true, \"Email me news\": true, \"Size\": \"Medium\"}");
    } else {
        TS_NATIVE_ACT_OK(&N, A, "click", "checkbox", "Agree to terms and conditions", "");
        TS_NATIVE_ACT_OK(&N, A, "click", "switch", "Email me news", "");
        TS_NATIVE_ACT_OK(&N, A, "select", "combobox", "Size", " [Medium]");
    }
    EXPECT_JS("[terms.checked, news.checked, size.value]", "[true,true,\"Medium\"]");
    ts_native_expect_view(&N, mode, mode == H ? "Size='Medium'" : "option 'Medium' selected: True");
}

Test(native_bootstrap, hybrid_checkbox_switch_and_select_are_taken)
{
    checks_and_select(H);
}

Test(native_bootstrap, atomic_checkbox_switch_and_select_are_taken)
{
    checks_and_select(A);
}

/* The datalist field ("Type to search..."): Chromium's popup of its suggestions is no page element, so
 * no click or key reaches one and the accessibility tree lists none; atomic mode types the suggestion
 * whole.  The hybrid view lists them on the form's line (it listed none), and fill() takes one. */
static void datalist_suggestion(perc_mode mode)
{
    ts_native_open(&N, "/bootstrap.html");
    if (mode == H) {
        ts_native_expect_view(&N, H, "suggests: 'City: San Francisco | New York | Seattle | Los Angeles | Chicago'");
        TS_NATIVE_CALL_OK(&N, "form", "Sign up", "fill", "{\"City\": \"Seattle\"}");
    } else {
        TS_NATIVE_ACT_OK(&N, A, "type", "combobox", "City", " [Seattle] [0]");
    }
    EXPECT_JS("city.value", "\"Seattle\"");
    ts_native_expect_view(&N, mode, mode == H ? "City='Seattle'" : "StaticText 'Seattle'");
}

Test(native_bootstrap, hybrid_datalist_suggestions_are_listed_and_one_is_taken)
{
    datalist_suggestion(H);
}

Test(native_bootstrap, atomic_datalist_suggestion_is_typed_whole)
{
    datalist_suggestion(A);
}

/* Bootstrap's validation: a submit while a required field is empty is refused by the page (it stays,
 * marked was-validated); filled, the form sends every field, the dropdown's hidden one too. */
static void validated_submit(perc_mode mode)
{
    ts_native_open(&N, "/bootstrap.html");
    if (mode == H) {
        /* a fresh form is no invalid one: the unchecked box is required, not invalid (its value is "on") */
        perc_obs *obs = ts_native_observe(&N, H);
        cr_assert_null(strstr(perc_obs_text(obs), "invalid"), "%s", perc_obs_text(obs));
        perc_obs_free(obs);
        /* novalidate: the page checks, so the call names what it will refuse, never "validation passed" */
        act_result r;
        eous_err e;
        cr_assert_eq(ts_native_call(&N, "form", "Sign up", "submit", "{\"Name\": \"Ada\"}", &r, &e), EOUS_OK, "%s",
                     e.msg);
        cr_assert(strstr(r.message, "leaves validation to the page and field 'Size' is invalid"), "%s", r.message);
        cr_assert_null(strstr(r.message, "validation passed"), "%s", r.message);
        act_result_clear(&r);
    } else {
        TS_NATIVE_ACT_OK(&N, A, "type", "textbox", "Name", " [Ada] [0]");
        TS_NATIVE_ACT_OK(&N, A, "click", "button", "Submit form", "");
    }
    EXPECT_JS("[location.pathname, window.refused, signup.classList.contains('was-validated')]",
              "[\"/bootstrap.html\",1,true]");
    TS_NATIVE_ACT_OK(&N, mode, "click", "button", "Sort by", "");
    TS_NATIVE_ACT_OK(&N, mode, "click", "button", "Most popular", "");
    if (mode == H) {
        TS_NATIVE_CALL_OK(&N, "form", "Sign up", "submit",
                          "{\"Size\": \"Large\", \"City\": \"Seattle\", \"Agree to terms and conditions\": true}");
    } else {
        TS_NATIVE_ACT_OK(&N, A, "select", "combobox", "Size", " [Large]");
        TS_NATIVE_ACT_OK(&N, A, "type", "combobox", "City", " [Seattle] [0]");
        TS_NATIVE_ACT_OK(&N, A, "click", "checkbox", "Agree to terms and conditions", "");
        TS_NATIVE_ACT_OK(&N, A, "click", "button", "Submit form", "");
    }
    ts_native_expect_url(&N, "/done.html", "?name=Ada&size=Large&city=Seattle&sort=Most+popular&terms=on", "news=");
}

Test(native_bootstrap, hybrid_validated_form_is_refused_then_submitted)
{
    validated_submit(H);
}

Test(native_bootstrap, atomic_validated_form_is_refused_then_submitted)
{
    validated_submit(A);
}

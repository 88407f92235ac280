/* tests/perception/test_native.c — the native provider on real Chromium: components
 * inferred from HTML form controls and WAI-ARIA APG widgets
 * (perception/native.js), shown in the hybrid view, validated in C and
 * executed (actions/native_call.js).  Every inferred tool is called and the
 * page's value read back.  Fixtures: tests/fixtures/native/, written from the
 * HTML standard's control types and the APG examples; no registry on them. */
#include <sys/stat.h>

#include "support/cli.h"
#include "support/native_harness.h"

static ts_native N;

static void setup(void)
{
    ts_native_start(&N, TS_NATIVE_FIXTURES);
}

static void teardown(void)
{
    ts_native_stop(&N);
}

TestSuite(native, .init = setup, .fini = teardown, .timeout = 300);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(N.b.session, expr, want)

/* call [cN] [tool] [params] on a fresh observation, as a model would (view ids): ts_native_call, and a
 * form has a view id of its own (a field folded into its form's line has none: a script still
 * reaches its tools by the component's key) */
static eous_rc call(const char *kind, const char *label, const char *tool, const char *params, act_result *r,
                    eous_err *err)
{
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const perc_component *c = ts_native_comp(obs, kind, label);
    cr_assert(c, "no native %s '%s' in:\n%s", kind, label, perc_obs_text(obs));
    cr_assert(c->view_id[0] || strcmp(kind, "form"), "%s '%s' has no view id:\n%s", kind, label, perc_obs_text(obs));
    char text[2048];
    snprintf(text, sizeof text, "call [%s] [%s] [%s]", c->view_id[0] ? c->view_id : c->key, tool, params);
    eous_rc rc = ts_native_exec(&N, obs, text, r, err);
    perc_obs_free(obs);
    return rc;
}

#define CALL_OK(kind, label, tool, params)                                                                     \
    do {                                                                                                       \
        act_result r_;                                                                                         \
        eous_err e_;                                                                                           \
        cr_assert_eq(call(kind, label, tool, params, &r_, &e_), EOUS_OK, "%s '%s'.%s %s: %s", kind, label,    \
                     tool, params, e_.msg);                                                                    \
        cr_assert_eq(r_.path, ACT_PATH_SEMANTIC, "%s", r_.message);                                               \
        act_result_clear(&r_);                                                                                 \
    } while (0)

/* parses TEXT (the model's text form) and runs it on OBS through x; it must end with WANT, and when WANT
 * is an error its message must hold WANT_MSG; R is the caller's to read and clear */
static void exec_text(act_exec *x, const perc_obs *obs, const char *text, eous_rc want, const char *want_msg,
                      act_result *r)
{
    eous_err err;
    eous_err_clear(&err);
    act_action a;
    act_action_init(&a);
    cr_assert_eq(act_parse_text(text, &a, &err), EOUS_OK, "%s", err.msg);
    memset(r, 0, sizeof *r);
    cr_assert_eq(act_execute(x, obs, &a, r, &err), want, "%s: %s", text, err.msg);
    if (want_msg)
        cr_assert(strstr(err.msg, want_msg), "%s: %s", text, err.msg);
    act_action_clear(&a);
}

static const char *line_of(const char *view, const char *needle, char *out, size_t n)
{
    const char *p = strstr(view, needle);
    if (!p)
        return NULL;
    while (p > view && p[-1] != '\n')
        p--;
    const char *e = strchr(p, '\n');
    snprintf(out, n, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
    return out;
}

Test(native, the_view_shows_controls_with_their_constraints)
{
    ts_native_open(&N, "/forms.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const char *v = perc_obs_text(obs);
    char line[4096];
    /* a form is ONE line: its fields with their limits on fill(), what they
     * hold in values:, the button submit() presses named; the fields' and
     * the button's own lines are folded into it */
    cr_assert(line_of(v, "form 'Visit'", line, sizeof line), "%s", v);
    /* fill() may set any of the fields; what the browser requires to submit is said once */
    cr_assert(strstr(line, "form 'Visit' required: Full name | Email submit: 'Book' values: Volume='6', Room='Choose…' → "
                           "fill(Full name?, 2..40 chars; Email?: email; Homepage?: url; Phone?, /^([0-9]{3}-[0-9]{4})$/;"),
              "%s", line);
    cr_assert(strstr(line, "; Day?: YYYY-MM-DD, 2027-01-01..2027-12-31; Time?: HH:mm, 09:00..18:00; "
                           "Appointment?: YYYY-MM-DDTHH:mm;"), "%s", line);
    cr_assert(strstr(line, "; Week?: YYYY-Www"), "%s", line);
    cr_assert(strstr(line, "; Guests?: integer, 1..8; Volume?: number, 0..10, step 2;"), "%s", line);
    /* a disabled option is not offered */
    cr_assert(strstr(line, "; Room?: Choose…|Single|Double; Extras?: [Breakfast|Parking|Late checkout];"), "%s", line);
    /* radios by name, labelled by their fieldset's legend */
    cr_assert(strstr(line, "; Meal?: Vegetarian|Fish|Meat; Send news?: true|false; Notes?, ≤200 chars; PIN?)"), "%s", line);
    cr_assert(strstr(line, " submit(as in fill)"), "%s", line);
    cr_assert_null(strstr(v, "textbox 'Full name'"), "%s", v);
    cr_assert_null(strstr(v, "checkbox 'Send news'"), "%s", v);
    cr_assert_null(strstr(v, "radiogroup 'Meal'"), "%s", v);
    cr_assert_null(strstr(v, "'Book'\n"), "%s", v);
    /* a textarea keeps its line, over the lines it holds; a file input is no fill() field */
    cr_assert(strstr(v, "textbox 'Notes' multiline: true → setValue(value, ≤200 chars) clear()"), "%s", v);
    cr_assert(strstr(v, "file 'Document' accept: '.pdf,image/*' multiple: true"), "%s", v);
    /* fields in no form keep their own lines */
    cr_assert(strstr(v, "checkbox 'Remember this device' checked: false → check() uncheck()"), "%s", v);
    /* the components are all there for scripts and the validator */
    cr_assert(ts_native_comp(obs, "textbox", "Full name") && ts_native_comp(obs, "radiogroup", "Meal") && ts_native_comp(obs, "date", "Day"), "%s", v);
    /* fields hidden by CSS, inside data-agent-hidden, or hidden inputs: never offered */
    cr_assert_null(strstr(v, "Hidden by CSS"), "%s", v);
    cr_assert_null(ts_native_comp(obs, "textbox", "Invisible"), "%s", v);
    cr_assert_null(strstr(v, "Internal"), "%s", v);
    cr_assert_null(strstr(v, "token"), "%s", v);
    /* a registry's element is left to the registry */
    cr_assert_null(ts_native_comp(obs, "textbox", "Registry field"), "%s", v);
    /* a WebMCP declarative form is WebMCP's: neither it nor its fields are inferred */
    cr_assert_null(ts_native_comp(obs, "form", "Tea order"), "%s", v);
    cr_assert_null(ts_native_comp(obs, "textbox", "Tea"), "%s", v);
    /* secret fields: in fill() by name, no value */
    cr_assert(ts_native_comp(obs, "textbox", "Password") && ts_native_comp(obs, "textbox", "PIN"), "%s", v);
    cr_assert(strstr(line, "; Password?; Day?"), "%s", line);
    /* an invalid pattern: a warning line, the field still usable */
    int warned = 0;
    for (size_t i = 0; i < perc_obs_n_warnings(obs); i++)
        warned |= strstr(perc_obs_warning(obs, i), "'Bad pattern' has a pattern that is not a valid regular expression") != NULL;
    cr_assert(warned, "no warning for the bad pattern");
    cr_assert(strstr(v, "textbox 'Bad pattern' → setValue(value) clear()"), "%s", v);
    perc_obs_free(obs);
}

Test(native, every_field_tool_sets_the_value_the_page_reads_back)
{
    ts_native_open(&N, "/forms.html");
    static const struct {
        const char *kind, *label, *params, *id, *want;
    } SET[] = {
        {"textbox", "Full name", "{\"value\": \"Ada Lovelace\"}", "name", "\"Ada Lovelace\""},
        {"textbox", "Email", "{\"value\": \"ada@example.org\"}", "email", "\"ada@example.org\""},
        {"textbox", "Homepage", "{\"value\": \"https://example.org/\"}", "web", "\"https://example.org/\""},
        {"textbox", "Phone", "{\"value\": \"555-1234\"}", "tel", "\"555-1234\""},
        {"textbox", "Code", "{\"value\": \"AB12\"}", "code", "\"AB12\""},
        {"textbox", "Password", "{\"value\": \"hunter2\"}", "pw", "\"hunter2\""},
        {"date", "Day", "{\"value\": \"2027-03-01\"}", "day", "\"2027-03-01\""},
        {"time", "Time", "{\"value\": \"10:30\"}", "at", "\"10:30\""},
        {"datetime", "Appointment", "{\"value\": \"2027-03-01T10:30\"}", "when", "\"2027-03-01T10:30\""},
        {"month", "Month", "{\"value\": \"2027-03\"}", "mon", "\"2027-03\""},
        {"week", "Week", "{\"value\": \"2027-W09\"}", "wk", "\"2027-W09\""},
        {"number", "Guests", "{\"value\": 3}", "guests", "\"3\""},
        {"slider", "Volume", "{\"value\": 8}", "vol", "\"8\""},
        {"textbox", "Notes", "{\"value\": \"two\\nlines\"}", "notes", "\"two\\nlines\""},
        {"searchbox", "Search", "{\"value\": \"rooms\"}", "q", "\"rooms\""},
        {"select", "Room", "{\"option\": \"Double\"}", "room", "\"d\""},
    };
    for (size_t i = 0; i < sizeof SET / sizeof *SET; i++) {
        CALL_OK(SET[i].kind, SET[i].label, strcmp(SET[i].kind, "select") ? "setValue" : "select", SET[i].params);
        char expr[128];
        snprintf(expr, sizeof expr, "document.getElementById('%s').value", SET[i].id);
        EXPECT_JS(expr, SET[i].want);
    }
    /* the page heard it as it listens: input events reached its model */
    EXPECT_JS("window.model.name", "\"Ada Lovelace\"");
    EXPECT_JS("window.model.changed_day", "true");
    CALL_OK("textbox", "Full name", "clear", "{}");
    EXPECT_JS("document.getElementById('name').value", "\"\"");
    CALL_OK("select", "Extras", "select", "{\"options\": [\"Breakfast\", \"Late checkout\"]}");
    EXPECT_JS("Array.from(document.getElementById('extras').selectedOptions).map(o => o.text)",
              "[\"Breakfast\",\"Late checkout\"]");
    CALL_OK("select", "Extras", "clear", "{}");
    EXPECT_JS("document.getElementById('extras').selectedOptions.length", "0");
    CALL_OK("radiogroup", "Meal", "select", "{\"option\": \"Fish\"}");
    EXPECT_JS("document.querySelector('input[name=meal]:checked').value", "\"fish\"");
    CALL_OK("checkbox", "Send news", "check", "{}");
    EXPECT_JS("document.getElementById('news').checked", "true");
    CALL_OK("checkbox", "Send news", "uncheck", "{}");
    EXPECT_JS("document.getElementById('news').checked", "false");
}

Test(native, setValue_is_checked_in_c_against_the_constraints_shown)
{
    ts_native_open(&N, "/forms.html");
    static const struct {
        const char *kind, *label, *params, *says;
    } BAD[] = {
        {"date", "Day", "{\"value\": \"2026-12-31\"}", "2027-01-01..2027-12-31"},
        {"date", "Day", "{\"value\": \"03/01/2027\"}", "YYYY-MM-DD"},
        {"number", "Guests", "{\"value\": 9}", "1..8"},
        {"textbox", "Phone", "{\"value\": \"5551234\"}", "[0-9]{3}-[0-9]{4}"},
        {"textbox", "Full name", "{\"value\": \"A\"}", "2..40"},
        {"select", "Room", "{\"option\": \"Suite\"}", "Single"},
        {"radiogroup", "Meal", "{\"option\": \"Vegan\"}", "Vegetarian"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        act_result r;
        eous_err err;
        const char *tool = !strcmp(BAD[i].kind, "select") || !strcmp(BAD[i].kind, "radiogroup") ? "select" : "setValue";
        cr_assert_eq(call(BAD[i].kind, BAD[i].label, tool, BAD[i].params, &r, &err), EOUS_E_REJECTED, "%s %s: %s",
                     BAD[i].label, BAD[i].params, err.msg);
        cr_assert(strstr(err.msg, BAD[i].says), "%s: %s", BAD[i].label, err.msg);
        act_result_clear(&r);
    }
    /* nothing reached the page */
    EXPECT_JS("[document.getElementById('day').value, document.getElementById('guests').value, window.model.tel]",
              "[\"\",\"\",null]");
}

Test(native, a_form_is_one_call_and_submit_names_what_the_browser_blocks)
{
    ts_native_open(&N, "/forms.html");
    act_result r;
    eous_err err;
    /* fill() may set some fields and leave required ones for later */
    CALL_OK("form", "Visit", "fill", "{\"Homepage\": \"https://example.org/\"}");
    EXPECT_JS("document.getElementById('web').value", "\"https://example.org/\"");
    /* submit with a required field empty: the browser's own message, nothing sent */
    cr_assert_eq(call("form", "Visit", "submit", "{}", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "the browser's validation blocks the form: field 'Full name': "), "%s", err.msg);
    act_result_clear(&r);
    EXPECT_JS("location.pathname", "\"/forms.html\"");
    /* fill names fields as the view does; constraints of each field apply */
    cr_assert_eq(call("form", "Visit", "fill", "{\"Full name\": \"Ada\", \"Guests\": 12}", &r, &err), EOUS_E_REJECTED,
                 "%s", err.msg);
    cr_assert(strstr(err.msg, "1..8"), "%s", err.msg);
    act_result_clear(&r);
    CALL_OK("form", "Visit", "fill",
            "{\"Full name\": \"Ada Lovelace\", \"Email\": \"ada@example.org\", \"Day\": \"2027-03-01\", "
            "\"Meal\": \"Meat\", \"Send news\": true, \"Room\": \"Single\", \"Extras\": [\"Parking\"]}");
    EXPECT_JS("[document.getElementById('name').value, document.getElementById('email').value, "
              "document.getElementById('day').value, document.querySelector('input[name=meal]:checked').value, "
              "document.getElementById('news').checked, document.getElementById('room').value, "
              "Array.from(document.getElementById('extras').selectedOptions).map(o => o.text)]",
              "[\"Ada Lovelace\",\"ada@example.org\",\"2027-03-01\",\"meat\",true,\"s\",[\"Parking\"]]");
    /* what the fields hold is on the form's line now */
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    char line[4096];
    cr_assert(line_of(perc_obs_text(obs), "form 'Visit'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "values: Full name='Ada Lovelace', Email='ada@example.org', Homepage='https://example.org/', Day='2027-03-01', "
                           "Volume='6', Room='Single', Extras=[\"Parking\"], Meal='Meat', Send news=true →"), "%s", line);
    perc_obs_free(obs);
    CALL_OK("form", "Visit", "submit", "{}");
    EXPECT_JS("location.pathname", "\"/done.html\"");
    char *q = ts_page_json(N.b.session, "location.search");
    cr_assert(strstr(q, "name=Ada+Lovelace") && strstr(q, "day=2027-03-01") && strstr(q, "meal=meat"), "%s", q);
    free(q);
}

/* submit(fields): fill()'s fields, then the submit, in one call; the page reads them back */
Test(native, submit_with_fields_fills_then_submits_in_one_call)
{
    ts_native_open(&N, "/forms.html");
    act_result r;
    eous_err err;
    /* the fields' constraints apply to submit's params too, checked before the page */
    cr_assert_eq(call("form", "Visit", "submit", "{\"Full name\": \"Ada\", \"Email\": \"ada@example.org\", \"Guests\": 12}",
                      &r, &err), EOUS_E_REJECTED, "%s", err.msg);
    cr_assert(strstr(err.msg, "1..8"), "%s", err.msg);
    act_result_clear(&r);
    EXPECT_JS("[location.pathname, document.getElementById('name').value]", "[\"/forms.html\",\"\"]");
    cr_assert_eq(call("form", "Visit", "submit",
                      "{\"Full name\": \"Grace Hopper\", \"Email\": \"grace@example.org\", \"Meal\": \"Fish\", "
                      "\"Day\": \"2027-05-02\"}", &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r.message, "4 fields filled, then submitted"), "%s", r.message);
    act_result_clear(&r);
    EXPECT_JS("location.pathname", "\"/done.html\"");
    char *q = ts_page_json(N.b.session, "location.search");
    cr_assert(strstr(q, "name=Grace+Hopper") && strstr(q, "email=grace%40example.org") && strstr(q, "meal=fish") &&
                  strstr(q, "day=2027-05-02"), "%s", q);
    free(q);
}

Test(native, a_value_that_does_not_take_is_an_error_naming_what_the_field_holds)
{
    ts_native_open(&N, "/forms.html");
    /* the page rewrites the field on input, as masks and formatters do */
    free(ts_page_js(N.b.session, "document.getElementById('code').addEventListener('input', e => "
                               "{ e.target.value = e.target.value.slice(0, 2); }); return true;"));
    act_result r;
    eous_err err;
    cr_assert_eq(call("textbox", "Code", "setValue", "{\"value\": \"AB12\"}", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "\"AB12\" did not take: the field holds \"AB\""), "%s", err.msg);
    act_result_clear(&r);
    /* a checkbox the page unchecks again */
    free(ts_page_js(N.b.session, "document.getElementById('news').addEventListener('click', e => "
                               "{ setTimeout(() => { e.target.checked = false; }, 0); }); return true;"));
    cr_assert_eq(call("checkbox", "Send news", "check", "{}", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "not checked"), "%s", err.msg);
    act_result_clear(&r);
    /* a secret field's value is never named */
    free(ts_page_js(N.b.session, "document.getElementById('pw').addEventListener('input', e => "
                               "{ e.target.value = 'x'; }); return true;"));
    cr_assert_eq(call("textbox", "Password", "setValue", "{\"value\": \"hunter2\"}", &r, &err), EOUS_E_PAGE, "%s",
                 err.msg);
    cr_assert(strstr(err.msg, "did not take"), "%s", err.msg);
    cr_assert_null(strstr(err.msg, "hunter2"), "%s", err.msg);
    cr_assert_null(strstr(err.msg, "\"x\""), "%s", err.msg);
    act_result_clear(&r);
}

Test(native, confirm_marks_apply_to_inferred_components)
{
    ts_native_open(&N, "/forms.html");
    act_result r;
    eous_err err;
    eous_rc rc = call("form", "Delete account", "submit", "{}", &r, &err);
    cr_assert_neq(rc, EOUS_OK);
    cr_assert(strstr(err.msg, "Deleting an account cannot be undone"), "%s", err.msg);
    act_result_clear(&r);
    EXPECT_JS("location.pathname", "\"/forms.html\"");
}

Test(native, providers_choose_and_baselines_never_show_inferred_components)
{
    ts_native_open(&N, "/forms.html");
    perc_mode modes[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED};
    for (int m = 0; m < 2; m++) {
        perc_obs *obs = ts_native_observe_with(&N, modes[m], 0);
        cr_assert_null(ts_native_comp(obs, "form", "Visit"), "%s", perc_obs_text(obs));
        cr_assert_null(strstr(perc_obs_text(obs), "setValue("), "%s", perc_obs_text(obs));
        perc_obs_free(obs);
    }
    perc_obs *obs = ts_native_observe_with(&N, PERC_MODE_HYBRID, PERC_PROVIDER_CI4A | PERC_PROVIDER_WEBMCP | PERC_PROVIDER_BRIDGE);
    cr_assert_null(ts_native_comp(obs, "form", "Visit"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    obs = ts_native_observe_with(&N, PERC_MODE_HYBRID, PERC_PROVIDER_NATIVE);
    cr_assert(ts_native_comp(obs, "form", "Visit"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    unsigned set = 0;
    cr_assert_eq(perc_providers_parse("ci4a,webmcp,bridge,native", &set), 0);
    cr_assert_eq(set, PERC_PROVIDER_ALL);
    cr_assert_eq(perc_providers_parse("native", &set), 0);
    cr_assert_eq(set, PERC_PROVIDER_NATIVE);
    cr_assert_eq(perc_providers_parse("ci4a,dom", &set), -1);
    cr_assert_eq(perc_providers_parse("", &set), -1);
    cr_assert_eq(perc_providers_parse("ci4a,", &set), -1);
}

Test(native, a_form_of_5000_fields_is_capped_with_a_count)
{
    ts_native_open(&N, "/big.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const char *v = perc_obs_text(obs);
    cr_assert(ts_native_comp(obs, "form", "Huge"), "%s", v);
    int capped = 0, fill_capped = 0;
    for (size_t i = 0; i < perc_obs_n_warnings(obs); i++) {
        capped |= strstr(perc_obs_warning(obs, i), "native: the page has 5000 form fields") != NULL ||
                  strstr(perc_obs_warning(obs, i), "more form fields than the") != NULL;
        fill_capped |= strstr(perc_obs_warning(obs, i), "form 'Huge' has ") != NULL;
    }
    cr_assert(capped && fill_capped, "no cap warnings");
    cr_assert(strstr(v, "shownInFill: 60"), "%s", v);
    perc_obs_free(obs);
}

Test(native, apg_widgets_are_called_and_read_back)
{
    ts_native_open(&N, "/apg.html");
    CALL_OK("tabs", "Danish Composers", "select", "{\"tab\": \"Carl Andersen\"}");
    EXPECT_JS("[document.getElementById('tab-2').getAttribute('aria-selected'), document.getElementById('tabpanel-2').hidden]",
              "[\"true\",false]");
    CALL_OK("combobox", "State", "select", "{\"option\": \"Arizona\"}");
    EXPECT_JS("[document.getElementById('cb1-input').value, window.picked]", "[\"Arizona\",\"Arizona\"]");
    CALL_OK("combobox", "State", "setValue", "{\"value\": \"Ala\"}");
    EXPECT_JS("document.getElementById('cb1-input').value", "\"Ala\"");
    CALL_OK("listbox", "Choose your favorite transuranic element (actinide or transactinide).", "select",
            "{\"option\": \"Curium\"}");
    EXPECT_JS("document.getElementById('ss_elem_Cm').getAttribute('aria-selected')", "\"true\"");
    CALL_OK("disclosure", "What do you mean by \"shipping\"?", "expand", "{}");
    EXPECT_JS("document.getElementById('faq1').hidden", "false");
    CALL_OK("disclosure", "What do you mean by \"shipping\"?", "collapse", "{}");
    EXPECT_JS("document.getElementById('faq1').hidden", "true");
    act_result r;
    eous_err err;
    cr_assert_eq(call("tabs", "Danish Composers", "select", "{\"tab\": \"Nobody\"}", &r, &err), EOUS_E_REJECTED, "%s",
                 err.msg);
    act_result_clear(&r);
    CALL_OK("sortable", "Students currently enrolled in WAI-ARIA 101", "sort",
            "{\"column\": \"Last Name\", \"direction\": \"descending\"}");
    EXPECT_JS("[document.querySelectorAll('#students th')[1].getAttribute('aria-sort'), "
              "document.querySelector('#students tbody tr td:nth-child(2)').textContent]",
              "[\"descending\",\"Jefferson\"]");
    CALL_OK("tree", "File Viewer", "expand", "{\"item\": \"Projects\"}");
    EXPECT_JS("[document.getElementById('ti-projects').getAttribute('aria-expanded'), "
              "document.querySelector('#ti-projects [role=group]').hidden]", "[\"true\",false]");
    CALL_OK("tree", "File Viewer", "select", "{\"item\": \"project-2.docx\"}");
    EXPECT_JS("document.getElementById('ti-p2').getAttribute('aria-selected')", "\"true\"");
    CALL_OK("tree", "File Viewer", "collapse", "{\"item\": \"Projects\"}");
    EXPECT_JS("document.getElementById('ti-projects').getAttribute('aria-expanded')", "\"false\"");
    CALL_OK("pagination", "Pagination", "goToPage", "{\"page\": 3}");
    EXPECT_JS("[location.search, document.querySelector('[aria-current=page]').textContent]", "[\"?page=3\",\"3\"]");
    cr_assert_eq(call("pagination", "Pagination", "goToPage", "{\"page\": 9}", &r, &err), EOUS_E_REJECTED, "%s",
                 err.msg);
    act_result_clear(&r);
    ts_native_open(&N, "/apg.html?dialog");
    CALL_OK("dialog", "Add Delivery Address", "close", "{}");
    EXPECT_JS("[document.getElementById('dialog1').hidden, window.closedBy]", "[true,\"cancel\"]");
}

/* A date picker's month calendar (tests/fixtures/native/calendar.html): one line whose select(date)
 * takes the days it shows, the disabled ones between them printed as its "not" (runs as ranges) and
 * refused in C; a day is clicked and read back from the page, by a data-date (the APG dialog) or an
 * aria-label ("Choose Thursday, July 1st, 2027") */
Test(native, a_calendar_is_one_line_and_select_takes_a_day_it_shows)
{
    ts_native_open(&N, "/calendar.html");
    free(ts_page_js(N.b.session, "document.getElementById('choose').click(); return 1;"));
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const char *v = perc_obs_text(obs);
    char line[2048];
    cr_assert(line_of(v, "calendar 'March 2027'", line, sizeof line), "%s", v);
    cr_assert(strstr(line, "→ select(date: YYYY-MM-DD, 2027-03-01..2027-03-31, not 2027-03-06..2027-03-07, "
                           "2027-03-13..2027-03-14, 2027-03-17, 2027-03-20..2027-03-21, 2027-03-27..2027-03-28)"),
              "%s", line);
    cr_assert(line_of(v, "calendar 'July 2027'", line, sizeof line), "%s", v);
    cr_assert(strstr(line, "select(date: YYYY-MM-DD, 2027-07-12..2027-07-31)"), "%s", line);
    /* the grid's days are folded into the line: no row of day numbers is printed */
    cr_assert_null(strstr(v, "| 28 | 1 | 2 |"), "%s", v);
    perc_obs_free(obs);
    act_result r;
    eous_err err;
    cr_assert_eq(call("calendar", "March 2027", "select", "{\"date\": \"2027-03-17\"}", &r, &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "disabled"), "%s", err.msg);
    cr_assert_eq(call("calendar", "March 2027", "select", "{\"date\": \"2027-04-01\"}", &r, &err), EOUS_E_REJECTED);
    EXPECT_JS("document.getElementById('due').value", "\"\"");
    CALL_OK("calendar", "March 2027", "select", "{\"date\": \"2027-03-18\"}");
    EXPECT_JS("[document.getElementById('due').value, document.getElementById('dialog').hidden]", "[\"03/18/2027\",true]");
    CALL_OK("calendar", "July 2027", "select", "{\"date\": \"2027-07-12\"}");
    EXPECT_JS("document.getElementById('arrival').textContent", "\"2027-07-12\"");
    cr_assert_eq(call("calendar", "July 2027", "select", "{\"date\": \"2027-07-11\"}", &r, &err), EOUS_E_REJECTED);
    EXPECT_JS("document.getElementById('arrival').textContent", "\"2027-07-12\"");
}

/* Groups of links (a navigation, icon links named by their title, a footer's badges) are one
 * open(link) each, listing the names the accessibility tree gives them; a table of contents, links
 * with text beside them, two links, and two of one name stay lines.  open() follows the link. */
/* two unnamed lists side by side (a cascade's columns): hybrid prints each list's line with its
 * items beneath, so the cities do not read as more countries; a list alone and the pruned view
 * (AgentOccam's) print none */
Test(native, a_list_beside_another_list_keeps_its_line_in_hybrid)
{
    ts_native_open(&N, "/menus.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const char *v = perc_obs_text(obs);
    cr_assert(strstr(v, "menu\n\tmenuitem [1] 'France'\n\tmenuitem [2] 'Japan' expanded: true\nmenu\n\tmenuitem [3] 'Tokyo'\n"),
              "%s", v);
    cr_assert(strstr(v, "\tmenuitem [5] 'Osaka'\nmenuitem [6] 'Cut'\n"), "the list alone has no line: %s", v);
    perc_obs_free(obs);
    obs = ts_native_observe_with(&N, PERC_MODE_PRUNED, 0);
    cr_assert_null(strstr(perc_obs_text(obs), "menu\n"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
}

Test(native, a_group_of_links_is_one_open_and_follows_the_link)
{
    ts_native_open(&N, "/links.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const char *t = perc_obs_text(obs);
    char line[512];
    cr_assert(line_of(t, "links 'Site'", line, sizeof line), "%s", t);
    cr_expect(strstr(line, "open(link: Home|Documentation|Blog|Contact)"), "%s", line);
    cr_expect(line_of(t, "open(link: Edit this page [e]|Old revisions [o]|Backlinks)", line, sizeof line), "%s", t);
    /* the badge that repeats the license link above it is left out of its group */
    cr_expect(line_of(t, "open(link: Donate|Powered by PHP)", line, sizeof line), "%s", t);
    cr_expect(!strstr(t, "] 'Documentation'") && !strstr(t, "heading 'Site'"), "folded into the group's line\n%s", t);
    cr_expect(strstr(t, "] 'Aurora'") && strstr(t, " — lake ice monitoring") && strstr(t, "] 'Log In'") &&
                  strstr(t, "] 'Register'") && strstr(t, "] 'Other'") && strstr(t, "] 'CC BY-SA 4.0'"),
              "content links, two links, and a group with two of one name stay lines\n%s", t);
    perc_obs_free(obs);
    for (int m = 0; m < 2; m++) {
        perc_obs *base = ts_native_observe_with(&N, m ? PERC_MODE_ATOMIC : PERC_MODE_PRUNED, 0);
        cr_expect(!strstr(perc_obs_text(base), "open(") && strstr(perc_obs_text(base), "'Documentation'"),
                  "the baselines show the links\n%s", perc_obs_text(base));
        perc_obs_free(base);
    }
    CALL_OK("links", "Site", "open", "{\"link\": \"Documentation\"}");
    EXPECT_JS("location.search", "\"?to=docs\"");
    ts_native_open(&N, "/links.html");
    CALL_OK("links", "", "open", "{\"link\": \"Old revisions [o]\"}");
    EXPECT_JS("location.search", "\"?to=revs\"");
    ts_native_open(&N, "/links.html");
    act_result r;
    eous_err err;
    cr_assert_eq(call("links", "Site", "open", "{\"link\": \"Pricing\"}", &r, &err), EOUS_E_REJECTED, "%s", err.msg);
    cr_expect(strstr(err.msg, "Documentation"), "the error lists the links: %s", err.msg);
    act_result_clear(&r);
}

/* APG's select-only combobox over a virtual listbox (only the active option
 * and its neighbours are role=option, hidden): select(option) walks the
 * active descendant with ArrowDown and picks with Enter; the page reads it */
Test(native, a_virtual_listbox_combobox_is_picked_by_the_keys_the_pattern_binds)
{
    ts_native_open(&N, "/combobox_virtual.html");
    CALL_OK("combobox", "Favourite fruit", "select", "{\"option\": \"Mango\"}");
    EXPECT_JS("[window.picked, document.getElementById('fruit').textContent, "
              "document.getElementById('fruit').getAttribute('aria-expanded')]",
              "[\"Mango\",\"Mango\",\"false\"]");
    /* what it shows now is on its line */
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    char line[1024];
    cr_assert(line_of(perc_obs_text(obs), "combobox 'Favourite fruit'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "value: 'Mango'"), "%s", line);
    perc_obs_free(obs);
    /* an option the list does not have: an error naming what it offers, the value kept */
    act_result r;
    eous_err err;
    cr_assert_eq(call("combobox", "Favourite fruit", "select", "{\"option\": \"Durian\"}", &r, &err), EOUS_E_PAGE, "%s",
                 err.msg);
    /* every option was active once: all twenty named, from the one active when it opened */
    cr_assert(strstr(err.msg, "the popup offers no option \"Durian\" (it offers: Mango | Melon | "), "%s", err.msg);
    cr_assert(strstr(err.msg, "| Pear | Apple | Apricot | ") && strstr(err.msg, "| Lime)"), "%s", err.msg);
    act_result_clear(&r);
    EXPECT_JS("[window.picked, document.getElementById('fruit').getAttribute('aria-expanded')]", "[\"Mango\",\"false\"]");
    /* several choices: a pick is read back from the option's aria-selected (a select-only one lists
     * what is chosen in the list's order); select() of a chosen one leaves it chosen (a pick would
     * toggle it off), deselect() takes it off */
    CALL_OK("combobox", "Toppings", "select", "{\"option\": \"Olives\"}");
    EXPECT_JS("window.toppings", "[\"Olives\"]");
    CALL_OK("combobox", "Toppings", "select", "{\"option\": \"Cheese\"}");
    CALL_OK("combobox", "Toppings", "select", "{\"option\": \"Olives\"}");
    EXPECT_JS("window.toppings", "[\"Olives\",\"Cheese\"]");
    obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    cr_assert(line_of(perc_obs_text(obs), "combobox 'Toppings'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "selected: Cheese | Olives → select(option) deselect(option)"), "%s", line);
    perc_obs_free(obs);
    CALL_OK("combobox", "Toppings", "deselect", "{\"option\": \"Olives\"}");
    EXPECT_JS("window.toppings", "[\"Cheese\"]");
    /* one not chosen: an error naming what is */
    cr_assert_eq(call("combobox", "Toppings", "deselect", "{\"option\": \"Olives\"}", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "option \"Olives\" is not chosen (chosen: Cheese)"), "%s", err.msg);
    act_result_clear(&r);
    EXPECT_JS("window.toppings", "[\"Cheese\"]");
    /* a combobox of one choice has no deselect */
    cr_assert_eq(call("combobox", "Favourite fruit", "deselect", "{\"option\": \"Mango\"}", &r, &err), EOUS_E_NOT_FOUND,
                 "%s", err.msg);
    cr_assert(strstr(err.msg, "no tool \"deselect\" (tools: select, setValue, expand)"), "%s", err.msg);
    act_result_clear(&r);
}

/* --providers: a bad list is one line naming it, exit 2, for every command that takes it */
Test(native_cli, a_bad_providers_list_is_one_line_and_exit_2)
{
    char dir[] = "/tmp/eous-native-cli-XXXXXX";
    cr_assert(mkdtemp(dir));
    char out[64], errp[64];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(errp, sizeof errp, "%s/err", dir);
    const char *const cases[][6] = {
        {"observe", "http://127.0.0.1:9/", "--providers", "ci4a,dom", NULL},
        {"run", "x.json", "--providers", "", NULL},
        {"bench", "x.json", "--providers", "native,", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_assert_eq(ts_cli_run(cases[i], out, errp, 60), 2, "%s %s", cases[i][0], cases[i][3]);
        char *e = ts_slurp(errp);
        char want[64];
        snprintf(want, sizeof want, "--providers '%s': expected a comma list of ci4a, webmcp, bridge, native",
                 cases[i][3]);
        cr_assert(strstr(e, want), "%s", e);
        cr_assert_eq(ts_count_lines(e), 1, "one line: %s", e);
        free(e);
    }
    eous_rmtree(dir);
}

/* ---- atomic actions say what happened (actions/atomic.c, atomic_check.js) ---- */

/* An atomic action from its text form on a fresh pruned observation; view
 * ids in `text` are written as {label} and replaced by the id of the line
 * "role [N] 'label'" (or the first id under a line naming 'label'). */
static eous_rc atomic(const char *text, act_result *r, eous_err *err)
{
    perc_obs *obs = ts_native_observe_with(&N, PERC_MODE_PRUNED, 0);
    const char *v = perc_obs_text(obs);
    char buf[1024], out[1024];
    snprintf(buf, sizeof buf, "%s", text);
    char *open = strchr(buf, '{'), *close = open ? strchr(open, '}') : NULL;
    if (open && close) {
        *close = '\0';
        char needle[300];
        snprintf(needle, sizeof needle, "'%s'", open + 1);
        const char *p = strstr(v, needle);
        cr_assert(p, "no '%s' in\n%s", open + 1, v);
        const char *id = strchr(p, '[');
        const char *ls = p;
        while (ls > v && ls[-1] != '\n')
            ls--;
        const char *on_line = ls;
        while (on_line < p && *on_line != '[')
            on_line++;
        if (on_line < p)
            id = on_line;
        cr_assert(id, "no id near '%s'", open + 1);
        *open = '\0';
        snprintf(out, sizeof out, "%s[%.*s]%s", buf, (int)strcspn(id + 1, "]"), id + 1, close + 1);
    } else {
        snprintf(out, sizeof out, "%s", buf);
    }
    act_action a;
    act_action_init(&a);
    eous_err perr;
    cr_assert_eq(act_parse_text(out, &a, &perr), EOUS_OK, "%s: %s", out, perr.msg);
    memset(r, 0, sizeof *r);
    eous_err_clear(err);
    eous_rc rc = act_execute(N.x, obs, &a, r, err);
    act_action_clear(&a);
    perc_obs_free(obs);
    return rc;
}

Test(native, typing_into_a_date_or_number_sets_what_the_control_understands)
{
    ts_native_open(&N, "/forms.html");
    act_result r;
    eous_err err;
    /* the pruned view gives the date's parts ids, not the date: typing into a part sets the field */
    cr_assert_eq(atomic("type {Month Month} [2027-03-01] [0]", &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r.message, "to '2027-03-01'"), "%s", r.message);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('day').value", "\"2027-03-01\"");
    /* a value the control cannot hold: an error naming what it holds and the format */
    cr_assert_eq(atomic("type {Month Month} [03/01/2027] [0]", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "'03/01/2027' did not take: the field holds 'nothing' (a date field takes YYYY-MM-DD)"),
              "%s", err.msg);
    act_result_clear(&r);
    cr_assert_eq(atomic("type {Guests} [12abc] [0]", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "'12abc' did not take: the field holds '12'"), "%s", err.msg);
    act_result_clear(&r);
}

Test(native, a_click_says_the_state_after_settle_and_a_blocked_submit_is_an_error)
{
    ts_native_open(&N, "/forms.html");
    act_result r;
    eous_err err;
    cr_assert_eq(atomic("click {Send news}", &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r.message, "it is checked now"), "%s", r.message);
    act_result_clear(&r);
    /* the page unchecks it again after the click */
    free(ts_page_js(N.b.session, "document.getElementById('news').addEventListener('click', e => "
                               "{ setTimeout(() => { e.target.checked = false; }, 30); }); return true;"));
    cr_assert_eq(atomic("click {Send news}", &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r.message, "it is not checked now"), "%s", r.message);
    act_result_clear(&r);
    cr_assert_eq(atomic("click {Book}", &r, &err), EOUS_E_PAGE, "%s", err.msg);
    cr_assert(strstr(err.msg, "the browser's validation blocks the form: field 'Full name': "), "%s", err.msg);
    act_result_clear(&r);
    EXPECT_JS("location.pathname", "\"/forms.html\"");
}

/* ---- the Playground with CI4A off (?ci4a=off): antd widgets as native components ---- */

static ts_browser S;
static act_exec *SX;
static act_policy *SP;

static void site_setup(void)
{
    if (!ts_site_root())
        return;
    cr_assert_eq(ts_browser_start(&S, ts_site_root()), 0, "browser start failed");
    cr_assert_eq(ts_exec_start(&S, 0, &SX, &SP), 0);
}

static void site_teardown(void)
{
    ts_exec_stop(&SX, &SP);
    if (ts_site_root())
        ts_browser_stop(&S);
}

TestSuite(native_site, .init = site_setup, .fini = site_teardown, .timeout = 300);

Test(native_site, playground_settings_without_ci4a_are_native_components)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    eous_err err;
    cr_assert_eq(wd_navigate(S.session, ts_browser_url(&S, "/settings?ci4a=off"), &err), EOUS_OK, "%s", err.msg);
    TS_EXPECT_PAGE_JSON(S.session, "[typeof window.__ci4a__, document.querySelectorAll('[data-cid]').length]",
                        "[\"undefined\",0]");
    static const struct {
        const char *kind, *label, *tool, *params, *expr, *want;
    } CALLS[] = {
        {"textbox", "Project name", "setValue", "{\"value\": \"Borealis\"}",
         "document.querySelector('input[id$=projectName]').value", "\"Borealis\""},
        {"checkbox", "SMS", "check", "{}",
         "Array.from(document.querySelectorAll('input[type=checkbox]')).find(c => c.closest('label').textContent.trim() === 'SMS').checked",
         "true"},
        /* labelled by the Form.Item's <label for> its group's id, not by the radios' name */
        {"radiogroup", "Visibility", "select", "{\"option\": \"Public\"}",
         "document.querySelector('input[type=radio]:checked').closest('label').textContent.trim()", "\"Public\""},
        /* antd's Slider: an APG slider (role=slider, aria-value*), moved by its keys, read back from the page */
        {"slider", "Retention (days)", "setValue", "{\"value\": 180}",
         "document.querySelector('[role=slider]').getAttribute('aria-valuenow')", "\"180\""},
    };
    for (size_t i = 0; i < sizeof CALLS / sizeof *CALLS; i++) {
        perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
        const perc_component *c = ts_native_comp(obs, CALLS[i].kind, CALLS[i].label);
        cr_assert(c, "no native %s '%s' in:\n%s", CALLS[i].kind, CALLS[i].label, perc_obs_text(obs));
        char text[512];
        /* a field folded into its form's line is called by its key */
        snprintf(text, sizeof text, "call [%s] [%s] [%s]", c->view_id[0] ? c->view_id : c->key, CALLS[i].tool,
                 CALLS[i].params);
        act_result r;
        exec_text(SX, obs, text, EOUS_OK, NULL, &r);
        act_result_clear(&r);
        perc_obs_free(obs);
        TS_EXPECT_PAGE_JSON(S.session, CALLS[i].expr, CALLS[i].want);
    }
}

/* calls the tool of the native component KIND 'LABEL' in a fresh view of the Playground page (a field
 * folded into its form's line by its key); it must end with WANT, and an error's message hold WANT_MSG */
static void site_call_rc(const char *kind, const char *label, const char *tool, const char *params, eous_rc want,
                         const char *want_msg)
{
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    const perc_component *c = ts_native_comp(obs, kind, label);
    cr_assert(c, "no native %s '%s' in:\n%s", kind, label, perc_obs_text(obs));
    char text[1024];
    snprintf(text, sizeof text, "call [%s] [%s] [%s]", c->view_id[0] ? c->view_id : c->key, tool, params);
    act_result r;
    exec_text(SX, obs, text, want, want_msg, &r);
    act_result_clear(&r);
    perc_obs_free(obs);
}

static void site_call(const char *kind, const char *label, const char *tool, const char *params)
{
    site_call_rc(kind, label, tool, params, EOUS_OK, NULL);
}

static void site_open(const char *path)
{
    eous_err err;
    cr_assert_eq(wd_navigate(S.session, ts_browser_url(&S, path), &err), EOUS_OK, "%s", err.msg);
    ts_page_wait(S.session, "document.querySelector('h1, h2, h3, h4')");
}

/* antd's DatePicker and TimePicker (text inputs that commit on leaving or
 * Enter), its Checkbox and InputNumber set by one fill() of the booking
 * form, its Select (a virtual listbox in a portal) by select(option): the
 * form's own model reads them back (the estimated total needs them all) */
Test(native_site, playground_booking_fill_and_antd_select_reach_the_form_model)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/booking?ci4a=off");
    site_call("form", "form", "fill",
              "{\"Check-in\": \"2025-06-21\", \"Check-out\": \"2025-06-24\", \"Guests\": 3, "
              "\"Arrival time\": \"18:30\", \"Extras Breakfast included\": true}");
    site_call("combobox", "Room type", "select", "{\"option\": \"Deluxe\"}");
    TS_EXPECT_PAGE_JSON(S.session,
                        "['checkin', 'checkout', 'guests', 'arrival'].map(i => document.getElementById(i).value)"
                        ".concat([document.getElementById('breakfast').checked])",
                        "[\"2025-06-21\",\"2025-06-24\",\"3\",\"18:30\",true]");
    /* task 011's answer: the form's model holds every value (the inputs alone would not make a total) */
    ts_page_wait(S.session, "/Estimated total: 732\\b/.test(document.body.innerText)");
    /* the select shows its value beside its read-only input; the view prints it */
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    char line[4096];
    cr_assert(line_of(perc_obs_text(obs), "combobox 'Room type'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "value: 'Deluxe'"), "%s", line);
    cr_assert(line_of(perc_obs_text(obs), "form 'form'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "Extras Breakfast included=true"), "%s", line);
    cr_assert(strstr(line, "Extras Breakfast included?: true|false"), "%s", line);
    /* antd's InputNumber is an ARIA spinbutton: its aria-valuemin/max are the limits printed and enforced */
    cr_assert(strstr(line, "; Guests?: integer, 1..8;"), "%s", line);
    perc_obs_free(obs);
    site_call_rc("form", "form", "fill", "{\"Guests\": 9}", EOUS_E_REJECTED,
                 "Guests must be an integer within 1..8 (got 9)");
    TS_EXPECT_PAGE_JSON(S.session, "document.getElementById('guests').value", "\"3\"");
}

/* antd's DatePicker (CI4A off): the form's click(field) opens its calendar, a portal of a table whose
 * cells say their date in title and disabled by class alone; its line says the stay's limits (14
 * nights, a blackout day) that only the calendar shows, and select(date) fills the field */
Test(native_site, playground_date_picker_opens_by_the_forms_click_and_its_calendar_takes_a_day)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/booking?ci4a=off");
    site_call("form", "form", "fill", "{\"Check-in\": \"2025-07-01\"}");
    site_call_rc("form", "form", "click", "{\"field\": \"Departure\"}", EOUS_E_PAGE, "the form has no field \"Departure\"");
    site_call("form", "form", "click", "{\"field\": \"Check-out\"}");
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    char line[2048];
    cr_assert(line_of(perc_obs_text(obs), "calendar 'July 2025'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "→ select(date: YYYY-MM-DD, 2025-07-02..2025-07-15, not 2025-07-04)"), "%s", line);
    perc_obs_free(obs);
    site_call_rc("calendar", "July 2025", "select", "{\"date\": \"2025-07-16\"}", EOUS_E_REJECTED, "2025-07-16");
    site_call("calendar", "July 2025", "select", "{\"date\": \"2025-07-15\"}");
    TS_EXPECT_PAGE_JSON(S.session, "document.getElementById('checkout').value", "\"2025-07-15\"");
}

/* antd's TimePicker after its form was reset by a booking: the typed time shows one frame after
 * leaving the field and is gone in the next, unless confirmed with Enter; fill() must see that (task 7) */
Test(native_site, playground_time_picker_keeps_its_time_after_the_form_was_reset)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/booking?ci4a=off");
    for (int i = 0; i < 2; i++) {
        site_call("form", "form", "fill", "{\"Guest name\": \"Ada Lovelace\", \"Check-in\": \"2025-06-20\", "
                                          "\"Check-out\": \"2025-06-23\"}");
        site_call("combobox", "Destination", "select", "{\"option\": \"France / Paris\"}");
        site_call("combobox", "Room type", "select", "{\"option\": \"Deluxe\"}");
        if (i == 1)
            site_call("form", "form", "fill", "{\"Arrival time\": \"09:15\"}");
        site_call("form", "form", "submit", "{}");
        char want[64];
        snprintf(want, sizeof want, "%d", i + 1);
        ts_page_wait(S.session, "window.__playground__.state().bookings.length >= 1");
        TS_EXPECT_PAGE_JSON(S.session, "window.__playground__.state().bookings.length", want);
    }
    TS_EXPECT_PAGE_JSON(S.session, "window.__playground__.state().bookings.map(b => b.arrival)", "[null,\"09:15\"]");
}

/* antd's Select on the orders filter (expand() lists its options; an option
 * named '50 / page' is no cascade), its Cascader on the booking, its TreeSelect (a tree popup) on
 * the settings, and its Pagination (a list of page items, no nav landmark) */
Test(native_site, playground_antd_select_treeselect_and_pagination_are_native_tools)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/orders?ci4a=off");
    site_call("pagination", "pagination", "goToPage", "{\"page\": 3}");
    ts_page_wait(S.session, "document.querySelector('.ant-pagination-item-active').title === '3'");
    site_call("pagination", "pagination", "next", "{}");
    ts_page_wait(S.session, "document.querySelector('.ant-pagination-item-active').title === '4'");
    /* closed, its options are not in the page: the line offers expand(), which opens it, and then
     * lists them (and offers expand() no more) */
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    char line[4096];
    cr_assert(line_of(perc_obs_text(obs), "combobox 'Page Size'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, " expand()") && !strstr(line, "options:"), "%s", line);
    perc_obs_free(obs);
    site_call("combobox", "Page Size", "expand", "{}");
    obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    cr_assert(line_of(perc_obs_text(obs), "combobox 'Page Size'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "expanded: true options: 10 / page | 20 / page | 50 / page | 100 / page"), "%s", line);
    cr_assert_null(strstr(line, "expand()"), "%s", line);
    perc_obs_free(obs);
    site_call("combobox", "Page Size", "select", "{\"option\": \"50 / page\"}");
    ts_page_wait(S.session, "document.querySelectorAll('tr.ant-table-row').length === 50");
    site_call("combobox", "Status", "select", "{\"option\": \"Cancelled\"}");
    ts_page_wait(S.session, "document.querySelectorAll('tr.ant-table-row').length > 1 && "
                            "Array.from(document.querySelectorAll('tr.ant-table-row')).every(tr => /cancelled/i.test(tr.textContent))");
    site_open("/booking?ci4a=off");
    /* antd's Cascader: a menu per level; 'Country / City' walks them and reads the value back */
    site_call("combobox", "Destination", "select", "{\"option\": \"Japan / Kyoto\"}");
    TS_EXPECT_PAGE_JSON(S.session, "document.getElementById('destination').closest('.ant-select').textContent.trim()",
                        "\"Japan / Kyoto\"");
    site_call_rc("combobox", "Destination", "select", "{\"option\": \"France / Kyoto\"}", EOUS_E_PAGE,
                 "the popup offers no option \"Kyoto\" under \"France\"");
    site_open("/settings?ci4a=off");
    site_call("combobox", "Department", "select", "{\"option\": \"Frontend\"}");
    TS_EXPECT_PAGE_JSON(S.session, "document.getElementById('department').closest('.ant-select').textContent.trim()",
                        "\"Frontend\"");
}

/* antd's Table with filter menus in its column headers: filter(column, values) opens the column's
 * menu, ticks exactly those values, confirms; the rows the table then shows are the filtered ones */
Test(native_site, playground_table_filters_are_one_call_a_column)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/users?ci4a=off");
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    char line[4096];
    cr_assert(line_of(perc_obs_text(obs), "table '' → filter(", line, sizeof line), "%s", perc_obs_text(obs));
    cr_expect(strstr(line, "filter(column: Role|Department|Active; values: [string])"), "%s", line);
    /* the table itself beneath its line, its rows as the pruned view prints them */
    const char *below = strstr(perc_obs_text(obs), line) + strlen(line);
    static const char beneath[] = "\n\ttable\n\t\t| columnheader [";
    cr_expect(!strncmp(below, beneath, sizeof beneath - 1) && strstr(below, " | Admin | "),
              "the table beneath:\n%.600s", below);
    perc_obs_free(obs);
#define ROWS_ARE(col, re)                                                                                          \
    ts_page_wait(S.session, "(() => { const rows = Array.from(document.querySelectorAll('tr.ant-table-row'));"      \
                            " return rows.length > 0 && rows.every(tr => " re ".test(tr.children[" col "].textContent)); })()")
    site_call("table", "", "filter", "{\"column\": \"Role\", \"values\": [\"Admin\"]}");
    ROWS_ARE("3", "/^Admin$/");
    site_call("table", "", "filter", "{\"column\": \"Department\", \"values\": [\"EMEA\", \"APAC\"]}");
    ROWS_ARE("4", "/^(EMEA|APAC)$/");
    ROWS_ARE("3", "/^Admin$/");
    /* exactly the values asked: Admin is unticked when Editor alone is asked */
    site_call("table", "", "filter", "{\"column\": \"Role\", \"values\": [\"Editor\"]}");
    ROWS_ARE("3", "/^Editor$/");
#undef ROWS_ARE
    site_call_rc("table", "", "filter", "{\"column\": \"Role\", \"values\": [\"Wizard\"]}", EOUS_E_PAGE,
                 "offers no \"Wizard\" (it offers: Admin | Editor");
    site_call_rc("table", "", "filter", "{\"column\": \"Email\", \"values\": [\"x\"]}", EOUS_E_REJECTED,
                 "column must be one of");
}

/* antd's several-choice Select (Members, Tags): every pick into its open
 * list takes (rc-select takes one Enter until that key is released), one
 * already chosen is turned off, which is an error, and the chosen tags are
 * read back from the page and from the view */
Test(native_site, playground_several_choice_select_takes_every_pick)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/settings?ci4a=off");
    site_call("tabs", "tabs", "select", "{\"tab\": \"Members\"}");
    site_call("combobox", "Members", "select", "{\"option\": \"Ivan Sammet\"}");
    site_call("combobox", "Members", "select", "{\"option\": \"Joan Knuth\"}");
    site_call("combobox", "Tags", "select", "{\"option\": \"security\"}");
    site_call("combobox", "Tags", "select", "{\"option\": \"ml\"}");
    /* a tag already chosen, selected again: left chosen (a pick would toggle it off) */
    site_call("combobox", "Tags", "select", "{\"option\": \"web\"}");
#define CHOSEN(id) "Array.from(document.getElementById('" id "').closest('.ant-select')" \
                   ".querySelectorAll('.ant-select-selection-item')).map(e => e.title || e.textContent.trim())"
    TS_EXPECT_PAGE_JSON(S.session, CHOSEN("tags"), "[\"web\",\"beta\",\"security\",\"ml\"]");
    /* deselect() takes one off, as removing a member by its tag does */
    site_call("combobox", "Tags", "deselect", "{\"option\": \"web\"}");
    site_call("combobox", "Members", "deselect", "{\"option\": \"Niklaus Turing\"}");
    TS_EXPECT_PAGE_JSON(S.session, CHOSEN("members"),
                        "[\"Annie Boyd\",\"Katherine Hopper\",\"Ivan Sammet\",\"Joan Knuth\"]");
    TS_EXPECT_PAGE_JSON(S.session, CHOSEN("tags"), "[\"beta\",\"security\",\"ml\"]");
#undef CHOSEN
    /* the chosen tags are the line's list, their text not printed again above it */
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    char line[4096];
    cr_assert(line_of(perc_obs_text(obs), "combobox 'Members'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert(strstr(line, "selected: Annie Boyd | Katherine Hopper | Ivan Sammet | Joan Knuth → select(option) deselect(option)"),
              "%s", line);
    cr_assert_null(strstr(perc_obs_text(obs), "\tbeta security ml\n"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
}

/* antd's Slider by its keys: End to its maximum, an arrow held down and
 * released to a value between; the handle says each value */
Test(native_site, playground_slider_takes_its_edge_and_a_value_between)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/settings?ci4a=off");
    site_call("slider", "Retention (days)", "setValue", "{\"value\": 365}");
    TS_EXPECT_PAGE_JSON(S.session, "document.querySelector('[role=slider]').getAttribute('aria-valuenow')", "\"365\"");
    site_call("slider", "Retention (days)", "setValue", "{\"value\": 180}");
    TS_EXPECT_PAGE_JSON(S.session, "document.querySelector('[role=slider]').getAttribute('aria-valuenow')", "\"180\"");
}

/* antd's column filter trigger (span role=button 'filter' inside its
 * columnheader): the hybrid view gives it an id after its header, where
 * pruned (AgentOccam's one id per cell control) keeps only the header; a
 * click on that id opens that column's filter menu */
Test(native_site, a_control_inside_a_table_header_control_is_a_hybrid_target)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    site_open("/users?ci4a=off");
    ts_page_wait(S.session, "document.querySelectorAll('th .ant-table-filter-trigger').length === 3");
    perc_obs *obs = ts_native_observe_on(S.session, PERC_MODE_PRUNED, 0);
    char line[8192];
    cr_assert(line_of(perc_obs_text(obs), "'Department filter'", line, sizeof line), "%s", perc_obs_text(obs));
    cr_assert_null(strstr(line, "button ["), "pruned stays AgentOccam's: %s", line);
    perc_obs_free(obs);
    obs = ts_native_observe_on(S.session, PERC_MODE_HYBRID, 0);
    cr_assert(line_of(perc_obs_text(obs), "'Department filter'", line, sizeof line), "%s", perc_obs_text(obs));
    const char *b = strstr(line, "columnheader ["), *f = strstr(line, "'Department filter' button [");
    cr_assert(b && f, "%s", line);
    cr_assert(strstr(line, "'Role filter' button [") && strstr(line, "'Active filter' button ["), "%s", line);
    char text[64];
    int id = atoi(f + strlen("'Department filter' button ["));
    snprintf(text, sizeof text, "click [%d]", id);
    act_result r;
    exec_text(SX, obs, text, EOUS_OK, NULL, &r);
    act_result_clear(&r);
    perc_obs_free(obs);
    /* the Department column's menu (its departments, not the roles) is open */
    ts_page_wait(S.session, "Array.from(document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) "
                            ".ant-dropdown-menu-item')).some(e => e.textContent.trim() === 'EMEA')");
    TS_EXPECT_PAGE_JSON(S.session, "Array.from(document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) "
                                   ".ant-dropdown-menu-item')).some(e => e.textContent.trim() === 'Admin')",
                        "false");
}

/* the hybrid view folds a field's own line into its triplet: an atomic action may name the triplet */
Test(native, atomic_actions_take_a_native_triplets_id)
{
    ts_native_open(&N, "/forms.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    /* fields in no form: a form's fields are on its line and have no id of their own */
    const perc_component *name = ts_native_comp(obs, "textbox", "Bad pattern"), *news = ts_native_comp(obs, "checkbox", "Remember this device");
    cr_assert(name->view_id[0] && news->view_id[0], "%s", perc_obs_text(obs));
    cr_assert(name && news, "%s", perc_obs_text(obs));
    char text[128];
    act_result r;
    snprintf(text, sizeof text, "type [%s] [Grace Hopper] [0]", name->view_id);
    exec_text(N.x, obs, text, EOUS_OK, NULL, &r);
    cr_assert_eq(r.path, ACT_PATH_ATOMIC);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('bad').value", "\"Grace Hopper\"");
    snprintf(text, sizeof text, "click [%s]", news->view_id);
    exec_text(N.x, obs, text, EOUS_OK, NULL, &r);
    cr_assert(strstr(r.message, "it is checked now"), "%s", r.message);
    act_result_clear(&r);
    perc_obs_free(obs);
}

/* upload(files) on a native file input: the files only from --files DIR (act_files_resolve), the page reads them */
Test(native, upload_takes_files_only_from_the_files_dir_and_the_page_reads_them)
{
    char dir[] = "/tmp/eous-native-upload-XXXXXX";
    cr_assert(mkdtemp(dir), "mkdtemp");
    char files[300], path[400];
    snprintf(files, sizeof files, "%s/files", dir);
    cr_assert_eq(mkdir(files, 0755), 0);
    static const char *const NAMES[] = {"a.pdf", "b.png"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", files, NAMES[i]);
        FILE *f = fopen(path, "w");
        cr_assert(f);
        fprintf(f, "content of %s\n", NAMES[i]);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/outside.pdf", dir);
    FILE *o = fopen(path, "w");
    cr_assert(o);
    fputs("not for the page\n", o);
    fclose(o);
    ts_native_open(&N, "/forms.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    cr_assert(strstr(perc_obs_text(obs), "file 'Document' accept: '.pdf,image/*' multiple: true files: 0 → upload(files: ["),
              "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    act_result r;
    eous_err err;
    /* no --files DIR: refused, nothing reaches the page */
    cr_assert_neq(call("file", "Document", "upload", "{\"files\": [\"a.pdf\"]}", &r, &err), EOUS_OK);
    cr_assert(strstr(err.msg, "no files folder given"), "%s", err.msg);
    act_result_clear(&r);
    /* an executor with --files DIR */
    act_exec_opts eo;
    act_exec_opts_init(&eo);
    eo.files_dir = files;
    act_exec *saved = N.x, *fx = NULL;
    cr_assert_eq(act_exec_new(N.b.session, &eo, &fx, &err), EOUS_OK, "%s", err.msg);
    act_exec_set_policy(fx, N.p);
    N.x = fx;
    eous_rc rc = call("file", "Document", "upload", "{\"files\": [\"../outside.pdf\"]}", &r, &err);
    cr_assert_neq(rc, EOUS_OK);
    cr_assert(strstr(err.msg, "outside the files folder"), "%s", err.msg);
    act_result_clear(&r);
    rc = call("file", "Document", "upload", "{\"files\": [\"a.pdf\", \"b.png\"]}", &r, &err);
    N.x = saved;
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    cr_assert_eq(r.path, ACT_PATH_SEMANTIC, "%s", r.message);
    cr_assert(strstr(r.message, "uploaded 2 files"), "%s", r.message);
    act_result_clear(&r);
    act_exec_free(fx);
    ts_page_wait(N.b.session, "window.uploaded");
    EXPECT_JS("window.uploaded", "[\"a.pdf:content of a.pdf\",\"b.png:content of b.png\"]");
    EXPECT_JS("window.model.changed_doc", "true");
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", files, NAMES[i]);
        unlink(path);
    }
    rmdir(files);
    snprintf(path, sizeof path, "%s/outside.pdf", dir);
    unlink(path);
    rmdir(dir);
}

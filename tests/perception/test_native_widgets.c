/* tests/perception/test_native_widgets.c — the native provider on a real application's
 * own widget library (issue 49: hybrid never worse than atomic), each on real
 * Chromium against a fixture written after what the application serves:
 * tests/fixtures/native/search.html (MediaWiki's search form, whose focus
 * loads a script that replaces the no-JavaScript button; a field that shows
 * suggestions on keyup only) and dropdown.html (an OOUI-style dropdown that
 * shows its choice only as text in a span and takes ArrowDown as "next
 * option"; an optional checkbox).  Each test fails with its fix removed. */
#include "agent/grounding.h"
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

TestSuite(native_widgets, .init = setup, .fini = teardown, .timeout = 300);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(N.b.session, expr, want)

/* "call [id] [tool] [params]" on a fresh hybrid view, as a model writes it; r is the caller's to clear */
#define CALL_OK(kind, label, tool, params, r)                                                                  \
    do {                                                                                                       \
        eous_err e_;                                                                                           \
        cr_assert_eq(ts_native_call(&N, kind, label, tool, params, r, &e_), EOUS_OK, "%s '%s'.%s %s: %s", kind, \
                     label, tool, params, e_.msg);                                                             \
    } while (0)

/* MediaWiki's search: focusing the field loads the suggestion module (fetched 400 ms), which
 * replaces the no-JavaScript "Search pages" button (fulltext=1) with "Go" (go=Go).  submit(fields)
 * finds its button once the fill has settled: go=Go.  Before, it stamped "Search pages" at once
 * and clicked it before the page replaced it (fulltext=1), or after (stale). */
Test(native_widgets, submit_finds_its_button_after_the_fill_has_settled)
{
    ts_native_open(&N, "/search.html");
    act_result r;
    CALL_OK("form", "Search the wiki", "submit", "{\"Search\": \"apple\"}", &r);
    cr_assert(strstr(r.message, "submitted with its submit button"), "%s", r.message);
    act_result_clear(&r);
    ts_native_expect_url(&N, "/done.html", "go=Go", "fulltext");
}

/* A button drawn anew right after submit() marked it (a framework hydrating the server's markup):
 * the click finds no marked button; the form's submit control is found again once and clicked
 * (how=new).  Without that, the submit fails "no element matches". */
Test(native_widgets, a_submit_button_replaced_before_the_click_is_found_again_once)
{
    ts_native_open(&N, "/search.html");
    act_result r;
    CALL_OK("form", "Find a page", "submit", "{\"Page\": \"Main\"}", &r);
    act_result_clear(&r);
    ts_native_expect_url(&N, "/done.html", "how=new", "how=old");
}

/* A field with aria-autocomplete whose page searches on keyup only: fill() sends the last
 * character as key events and the call settles on the search (200 ms debounce, 200 ms server),
 * so the suggestions are there when it returns.  Set in one edit, the page heard no key. */
Test(native_widgets, fill_gives_a_suggesting_field_its_keys_and_waits_for_the_suggestions)
{
    ts_native_open(&N, "/search.html");
    act_result r;
    CALL_OK("form", "Trip", "fill", "{\"City\": \"Amst\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('city').value", "\"Amst\"");
    char *keyups = ts_page_json(N.b.session, "window.keyups");
    cr_assert_str_neq(keyups, "0", "no keyup reached the page");
    free(keyups);
    /* no wait here: the call's settle waited for the debounce and the server */
    EXPECT_JS("Array.from(document.querySelectorAll('#sugg [role=option]')).map(o => o.textContent)",
              "[\"Amsterdam\"]");
}

/* OOUI's dropdown shows its choice only in a span the handle holds (and names by aria-labelledby):
 * the view prints it and select() reads the pick back from it.  Before, it read "" and failed. */
Test(native_widgets, select_reads_back_a_choice_shown_only_as_text_in_a_span)
{
    ts_native_open(&N, "/dropdown.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const perc_component *c = ts_native_comp(obs, "combobox", "Language");
    cr_assert(c, "%s", perc_obs_text(obs));
    /* its label is the field's, without the choice its name also holds: the same after a pick */
    cr_assert(strstr(perc_obs_text(obs), "combobox 'Language' value: 'English'"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    act_result r;
    CALL_OK("combobox", "Language", "select", "{\"option\": \"Deutsch\"}", &r);
    cr_assert_null(strstr(r.message, "could not read back"), "%s", r.message);
    act_result_clear(&r);
    EXPECT_JS("document.querySelector('input[name=lang]').value", "\"de\"");
    EXPECT_JS("document.getElementById('save').disabled", "false");
    obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    cr_assert(strstr(perc_obs_text(obs), "combobox 'Language' value: 'Deutsch'"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
}

/* A dropdown that shows its choice as a colour swatch: nothing reads back, so select() says it
 * could not read back (a warning on a success), not that the pick failed. */
Test(native_widgets, a_pick_nothing_shows_is_could_not_read_back_not_a_failure)
{
    ts_native_open(&N, "/dropdown.html");
    act_result r;
    CALL_OK("combobox", "Colour", "select", "{\"option\": \"Blue\"}", &r);
    cr_assert(strstr(r.message, "could not read back"), "%s", r.message);
    act_result_clear(&r);
    EXPECT_JS("document.querySelector('input[name=colour]').value", "\"blue\"");
}

/* expand() opens with a click: the value stays English and the form stays clean.  It pressed
 * ArrowDown first, which OOUI's closed dropdown takes as "next option" (Deutsch, Save enabled). */
Test(native_widgets, expand_opens_without_changing_the_value)
{
    ts_native_open(&N, "/dropdown.html");
    act_result r;
    CALL_OK("combobox", "Language", "expand", "{}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('lang-handle').getAttribute('aria-expanded')", "\"true\"");
    EXPECT_JS("document.getElementById('lang-value').textContent", "\"English\"");
    EXPECT_JS("window.dirty", "false");
    /* picking afterwards opens nothing again and changes only what was asked */
    CALL_OK("combobox", "Language", "select", "{\"option\": \"Français\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.querySelector('input[name=lang]').value", "\"fr\"");
}

/* The view prints an optional checkbox of a form as "Email me?: true|false": grounding takes
 * {"Email me": true} and false as the view's values (it took only "boolean" and a state). */
Test(native_widgets, grounding_takes_a_boolean_the_view_prints_as_true_or_false)
{
    ts_native_open(&N, "/dropdown.html");
    perc_obs *obs = ts_native_observe(&N, PERC_MODE_HYBRID);
    const char *v = perc_obs_text(obs);
    cr_assert(strstr(v, "Email me?: true|false"), "%s", v);
    const perc_component *f = ts_native_comp(obs, "form", "Preferences");
    cr_assert(f && f->view_id[0], "%s", v);
    static const char *const PARAMS[] = {"{\"Email me\": true}", "{\"Email me\": false}"};
    for (size_t i = 0; i < 2; i++) {
        char text[256];
        snprintf(text, sizeof text, "call [%s] [fill] [%s]", f->view_id, PARAMS[i]);
        act_action a;
        act_action_init(&a);
        eous_err perr;
        cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s: %s", text, perr.msg);
        agent_ground_result g;
        agent_ground_step(obs, "Turn on email", NULL, NULL, &a, &g);
        cr_assert_eq(g.verdict, AGENT_GROUND_GROUNDED, "%s: %s (%s)", text, agent_ground_verdict_name(g.verdict),
                     g.missing);
        act_action_clear(&a);
    }
    /* a boolean the line does not print for that name stays ungrounded */
    char text[256];
    snprintf(text, sizeof text, "call [%s] [fill] [{\"Newsletter\": true}]", f->view_id);
    act_action a;
    act_action_init(&a);
    eous_err perr;
    cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s", perr.msg);
    agent_ground_result g;
    agent_ground_step(obs, "Turn on email", NULL, NULL, &a, &g);
    cr_assert_eq(g.verdict, AGENT_GROUND_UNGROUNDED, "%s", agent_ground_verdict_name(g.verdict));
    act_action_clear(&a);
    perc_obs_free(obs);
}

/* Every form the hybrid view writes a boolean param in (perception/view_grammar_int.h's marks:
 * typed boolean or an enum of true and false, required or optional, in a tool of several
 * params) grounds true and false; a param typed otherwise, or not printed, does not. */
Test(native_grammar, grounding_takes_every_form_the_view_writes_for_a_boolean)
{
    static const char VIEW[] = "[c1] form 'F' → fill(A: boolean; B?: boolean; C: true|false; D?: true|false; "
                               "E?: false|true; Send news?: true|false, required; F?: Yes|No; G?, 2..40 chars) "
                               "submit(as in fill)\n";
    static const struct {
        const char *param;
        agent_ground_verdict want;
    } CASES[] = {{"A", AGENT_GROUND_GROUNDED},         {"B", AGENT_GROUND_GROUNDED},
                 {"C", AGENT_GROUND_GROUNDED},         {"D", AGENT_GROUND_GROUNDED},
                 {"E", AGENT_GROUND_GROUNDED},         {"Send news", AGENT_GROUND_GROUNDED},
                 {"F", AGENT_GROUND_UNGROUNDED},       {"G", AGENT_GROUND_UNGROUNDED},
                 {"Missing", AGENT_GROUND_UNGROUNDED}};
    agent_ground_input in = {.view = VIEW, .call_view_id = "c1", .call_key = "native-1", .call_kind = "form",
                             .call_label = "F"};
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
        for (int b = 0; b < 2; b++) {
            char text[256];
            snprintf(text, sizeof text, "call [c1] [fill] [{\"%s\": %s}]", CASES[i].param, b ? "true" : "false");
            act_action a;
            act_action_init(&a);
            eous_err perr;
            cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s: %s", text, perr.msg);
            agent_ground_result g;
            agent_ground_check(&in, &a, &g);
            cr_assert_eq(g.verdict, CASES[i].want, "%s: %s (%s)", text, agent_ground_verdict_name(g.verdict), g.missing);
            act_action_clear(&a);
        }
}

/* tests/actions/test_act_settle.c — the settle after an action (actions/exec.h,
 * page_helpers.js settle, quiet_hook.js) against real chromedriver + headless
 * Chromium on tests/fixtures/settle: a debounced member search like
 * Redmine's must be waited for, and a page that never stops changing (clock,
 * stopwatch, spinners, a long poll) settles by the rule or by the cap and
 * never holds a step.  Conditions only: no figure of time is asserted. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "actions/history.h"
#include "support/browser.h"
#include "support/page_js.h"

TS_EXEC_SUITE(act_settle, EOUS_SOURCE_DIR "/tests/fixtures/settle", 0, 180);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(B.session, expr, want)

static void open_page(const char *path)
{
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, path), &err), EOUS_OK, "%s", err.msg);
    double ms;
    cr_assert_eq(act_settle(X, &ms, &err), EOUS_OK, "%s", err.msg);
}

/* One script step (JSON text) against a fresh observation, as the agent
 * loop runs it: perceive, act, settle. */
static void step(const char *json, act_result *r)
{
    eous_err err;
    cr_assert_eq(ts_exec_step(&B, X, json, r, &err), EOUS_OK, "%s: %s", json, err.msg);
}

/* Redmine's "New member": type into the live search, tick the principal
 * that appears, add.  The search answers 300 ms after the last key plus the
 * server's 50 ms and replaces the list unchecked; a settle that does not
 * wait for it ticks a box that is then thrown away (with --settle quiet:150
 * this test fails: "Principal cannot be blank", as on Debian's Redmine). */
static void search_tick_and_add_alice(void)
{
    act_result r;
    step("{\"type\": \"textbox 'Search for user or group'\", \"text\": \"Alice\"}", &r);
    cr_assert(!r.settle_capped, "the search settled by the cap (%s)", r.settle_waited);
    act_result_clear(&r);
    /* the list shows the search's answer: only Alice Arnold */
    EXPECT_JS("[...document.querySelectorAll('#principals input')].map(c => c.value).join('|')", "\"Alice Arnold\"");
    step("{\"click\": \"checkbox 'Alice Arnold'\"}", &r);
    act_result_clear(&r);
    step("{\"click\": \"button 'Add'\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('flash').textContent", "\"Added: Alice Arnold\"");
}

Test(act_settle, waits_for_a_debounced_search)
{
    open_page("/members.html");
    search_tick_and_add_alice();
}

/* The search's timer was armed by a click first, when its check found the
 * text unchanged and did nothing: once keys re-arm it, it is a debounce of
 * typing and is waited for all the same (a rule that took the check for
 * inert after the click would tick a box the search then throws away). */
Test(act_settle, waits_for_a_debounce_of_typing_whose_callback_did_nothing_before)
{
    open_page("/members.html");
    act_result r;
    step("{\"click\": \"textbox 'Search for user or group'\"}", &r);
    act_result_clear(&r);
    search_tick_and_add_alice();
}

/* A timer every click arms whose callback changes nothing a step can see
 * (antd's listener on <html>) holds the first click only: once it ran
 * without effect, the next click's settle does not wait for it.  A timer
 * whose callback changes the page is waited for every time. */
Test(act_settle, a_timer_whose_callback_did_nothing_does_not_hold_the_next_step)
{
    open_page("/inert.html");
    act_result r;
    step("{\"click\": \"button 'Mark'\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('status').textContent", "\"marked 1\"");
    step("{\"click\": \"button 'Mark'\"}", &r);
    cr_assert(strcmp(r.settle_waited, "timer"), "the second click waited for the inert timer again");
    cr_assert(!r.settle_capped, "settled by the cap, waiting on '%s'", r.settle_waited);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('status').textContent", "\"marked 2\"");
    for (int i = 1; i <= 3; i++) {
        step("{\"click\": \"button 'Count later'\"}", &r);
        cr_assert(!r.settle_capped, "settled by the cap, waiting on '%s'", r.settle_waited);
        act_result_clear(&r);
        char want[8];
        snprintf(want, sizeof want, "\"%d\"", i);
        EXPECT_JS("document.getElementById('count').textContent", want);
    }
}

/* The settle counts from the action's first input event as the page saw
 * it, not from when its script began (a driver slow to start the script on
 * a loaded machine): a click made outside the executor, then a settle on its
 * own, still waits for the timer the click armed. */
Test(act_settle, counts_from_the_actions_first_input_event)
{
    open_page("/inert.html");
    eous_err err;
    cJSON *v = NULL;
    cr_assert_eq(wd_execute(B.session,
                            "const r = document.getElementById('later').getBoundingClientRect();"
                            "return [r.left + r.width / 2, r.top + r.height / 2];",
                            NULL, &v, &err),
                 EOUS_OK, "%s", err.msg);
    cr_assert(cJSON_GetArraySize(v) == 2, "no position for the button");
    double x = cJSON_GetArrayItem(v, 0)->valuedouble, y = cJSON_GetArrayItem(v, 1)->valuedouble;
    cJSON_Delete(v);
    cr_assert_eq(wd_click_at(B.session, x, y, &err), EOUS_OK, "%s", err.msg);
    double ms;
    cr_assert_eq(act_settle(X, &ms, &err), EOUS_OK, "%s", err.msg);
    EXPECT_JS("document.getElementById('count').textContent", "\"1\"");
}

/* A clock, a stopwatch and a spinner changing every frame, an endless CSS
 * animation and a long poll begun before the step: none of them holds it. */
Test(act_settle, a_page_that_never_goes_quiet_settles_by_the_rule)
{
    open_page("/busy.html");
    act_result r;
    step("{\"click\": \"button 'Mark'\"}", &r);
    cr_assert(!r.settle_capped, "settled by the cap, waiting on '%s'", r.settle_waited);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('status').textContent", "\"marked\"");
    /* the page kept changing meanwhile: the stopwatch moved on */
    EXPECT_JS("Number(document.getElementById('watch').textContent) > 0", "true");
}

/* On page, one step (JSON text) that settles by its rule, not the cap; then expr gives want. */
static void step_settles(const char *page, const char *json, const char *expr, const char *want)
{
    open_page(page);
    act_result r;
    step(json, &r);
    cr_assert(!r.settle_capped, "settled by the cap, waiting on '%s'", r.settle_waited);
    act_result_clear(&r);
    EXPECT_JS(expr, want);
}

/* A transition the action started is waited for to its end. */
Test(act_settle, waits_for_a_transition_the_action_started)
{
    step_settles("/busy.html", "{\"click\": \"button 'Fade in'\"}",
                 "getComputedStyle(document.getElementById('panel')).opacity", "\"1\"");
}

/* A timer that only sets the focused checkbox's checked property (no DOM
 * mutation) did something: each click reports the state it leaves. */
Test(act_settle, a_timer_that_unchecks_the_focused_box_is_waited_for_every_time)
{
    open_page("/inert.html");
    for (int i = 0; i < 3; i++) {
        act_result r;
        step("{\"click\": \"checkbox 'Agree'\"}", &r);
        cr_assert(strstr(r.message, "it is not checked now"), "click %d: %s", i + 1, r.message);
        act_result_clear(&r);
        EXPECT_JS("document.getElementById('agree').checked", "false");
    }
}

/* A transition of a shadow and an outline (antd's click wave) only paints:
 * the step does not wait for it, as it waits for a fade. */
Test(act_settle, a_transition_that_only_paints_does_not_hold_a_step)
{
    open_page("/inert.html");
    act_result r;
    step("{\"click\": \"button 'Glow'\"}", &r);
    cr_assert(strcmp(r.settle_waited, "animation"), "the step waited for the glow");
    cr_assert(!r.settle_capped, "settled by the cap, waiting on '%s'", r.settle_waited);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('status').textContent", "\"glowing\"");
}

/* A request the action began that outlasts the cap: the step ends at the
 * cap, says so, and the page is still usable. */
Test(act_settle, a_request_past_the_cap_ends_at_the_cap)
{
    open_page("/busy.html");
    act_result r;
    step("{\"click\": \"button 'Ask the server'\"}", &r);
    cr_assert(r.settle_capped, "the settle did not wait for the request (waited '%s')", r.settle_waited);
    cr_assert_str_eq(r.settle_waited, "request");
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('status').textContent", "\"asking\"");
    step("{\"click\": \"button 'Mark'\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('status').textContent", "\"marked\"");
}

/* Back to a page the back/forward cache kept: the navigation that left it
 * was recorded on it and is over; the settle must not wait for it. */
Test(act_settle, back_to_a_cached_page_settles_by_the_rule)
{
    open_page("/members.html?bfcache");
    act_result r;
    step("{\"click\": \"link 'Start page'\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("document.title", "\"Start\"");
    step("{\"go_back\": true}", &r);
    cr_assert(!r.settle_capped, "settled by the cap, waiting on '%s'", r.settle_waited);
    act_result_clear(&r);
    EXPECT_JS("document.title", "\"New member\"");
    /* it came back from the cache (else this test shows nothing) */
    EXPECT_JS("performance.getEntriesByType('navigation')[0].type", "\"navigate\"");
}

/* A link whose navigation comes to nothing (204 No Content; a download is the same): the page recorded a
 * navigation begun that no new document ends; the driver, which sees it end, lets the settle go (it held
 * the settle to its cap before) */
Test(act_settle, a_navigation_that_comes_to_nothing_does_not_hold_the_step)
{
    step_settles("/no_content.html", "{\"click\": \"link 'Nothing to see'\"}", "document.title", "\"Stays\"");
}

/* After a click whose render is done within its own events, the settle is quick: one frame and the
 * page's posted messages' turn with nothing changed or asked for (the rule's two frames and 30 ms are
 * not waited).  A render the click chains frames on, a change each frame (after a posted message, by
 * animation frames, by a resize observer that grows the box again each frame, after a message that
 * posts another), is in the page when the settle ends. */
Test(act_settle, a_click_rendered_in_its_own_events_settles_quick_and_a_chained_render_is_waited_for)
{
    open_page("/after_click.html");
    const char *hows[] = {"now", "message", "frame", "resize", "slices"};
    const char *buttons[] = {"Now", "By message", "By frame", "By resize", "By slices"};
    for (size_t i = 0; i < sizeof hows / sizeof *hows; i++) {
        char json[96], expr[96], want[64];
        snprintf(json, sizeof json, "{\"click\": \"button '%s'\"}", buttons[i]);
        act_result r;
        step(json, &r);
        cr_assert(!r.settle_capped, "%s: settled by the cap (%s)", hows[i], r.settle_waited);
        if (i == 0)
            cr_assert_str_eq(r.settle_waited, "quick", "%s: the settle was not quick", hows[i]);
        act_result_clear(&r);
        snprintf(expr, sizeof expr, "document.getElementById('out-%s').textContent", hows[i]);
        snprintf(want, sizeof want, "\"rendered by %s\"", hows[i]);
        EXPECT_JS(expr, want);
    }
}

/* The value history's read that a change asks for (history_hook.js: one read each 50 ms at most) is
 * taken when the action has settled, not left to its timer: the typed value is in the page's record,
 * stamped inside the action, when the step ends (no settle waits for that timer: it is eous's own) */
Test(act_settle, the_value_historys_read_is_taken_when_the_action_settles)
{
    act_history *h = act_history_new(0);
    cr_assert_not_null(h);
    act_history_install(h, B.session);
    open_page("/after_click.html");
    const char *words[] = {"first", "second", "third", "fourth"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        char json[96], want[64];
        snprintf(json, sizeof json, "{\"type\": \"textbox 'Note'\", \"text\": \"%s\"}", words[i]);
        act_result r;
        step(json, &r);
        act_result_clear(&r);
        snprintf(want, sizeof want, "[0,\"%s\"]", words[i]);
        EXPECT_JS("(H => [H.pending, H.entries.length ? H.entries[H.entries.length - 1].value : null])"
                  "(window.__eous_history__)", want);
    }
    act_history_free(h, B.session);
}

/* A member picker as live applications write it (picker.html): each keyup
 * clears and re-arms one named search function after 250-400 ms, whose
 * request the server answers after 300-800 ms with a list that replaces the
 * old one.  Typed, then clicked at once: the box ticked is the one in the
 * answer's list, and the submit is accepted (a settle that ends before the
 * answer ticks a box that is thrown away: "Member cannot be blank"). */
static void type_tick_and_add(const char *page)
{
    open_page(page);
    act_result r;
    step("{\"type\": \"textbox 'Find a member'\", \"text\": \"Alice\"}", &r);
    cr_assert(!r.settle_capped, "the search settled by the cap (%s)", r.settle_waited);
    act_result_clear(&r);
    step("{\"click\": \"checkbox 'Alice Arnold'\"}", &r);
    act_result_clear(&r);
    EXPECT_JS("[...document.querySelectorAll('#members input')].map(c => c.value + (c.checked ? '+' : '')).join('|')",
              "\"Alice Arnold+\"");
    step("{\"click\": \"button 'Add'\"}", &r);
    cr_assert(!r.dialog, "the page refused the submit: %s", r.message);
    act_result_clear(&r);
    EXPECT_JS("document.getElementById('flash').textContent", "\"Added: Alice Arnold\"");
}

Test(act_settle, waits_for_a_live_search_armed_by_a_key_and_its_slow_answer)
{
    for (int i = 0; i < 3; i++)
        type_tick_and_add("/picker.html");
}

/* The same search polled with setInterval, reset on every keyup (Redmine's
 * observeSearchfield): the interval the key re-armed is waited for too. */
Test(act_settle, waits_for_a_live_search_polled_by_an_interval_a_key_reset)
{
    for (int i = 0; i < 3; i++)
        type_tick_and_add("/picker.html?interval");
}

/* The server sends its headers at once and the answer's body after the
 * delay: the fetch resolves early, and the settle waits for the body the
 * page reads (r.text()) and the list it renders from it. */
Test(act_settle, waits_for_the_body_of_a_live_searchs_answer)
{
    for (int i = 0; i < 3; i++)
        type_tick_and_add("/picker.html?head");
}

/* ---- a target the page replaced between the view and the act ---------------- */

/* picker.html's list, or its whole form (a re-render: new elements, no marks), replaced after the view. */
static void replace_after_view(int whole_form)
{
    eous_err err;
    const char *js = whole_form
                         ? "const f = document.getElementById('add-members'), c = f.cloneNode(true);"
                           "for (const e of [c, ...c.querySelectorAll('*')]) for (const a of [...e.attributes])"
                           "  if (a.name.startsWith('data-eous')) e.removeAttribute(a.name);"
                           "f.replaceWith(c); return 1;"
                         : "render(people); return 1;";
    cr_assert_eq(wd_execute(B.session, js, NULL, NULL, &err), EOUS_OK, "%s", err.msg);
}

static perc_obs *observe_as(perc_mode mode)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    perc_obs *obs = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

/* acts on a view taken before the page replaced the target */
static void act_on(perc_obs *obs, act_action *a, act_result *r)
{
    eous_err err;
    eous_rc rc = act_execute(X, obs, a, r, &err);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r->message, "found again"), "%s", r->message);
    act_action_clear(a);
    perc_obs_free(obs);
}

#define ALICE_CHECKED "document.querySelector('input[value=\"Alice Arnold\"]').checked"

/* A script's "checkbox 'Alice Arnold'": the box in the view is gone, the new one is ticked. */
Test(act_settle, a_script_target_replaced_after_the_view_is_found_again)
{
    open_page("/picker.html");
    perc_obs *obs = observe_as(PERC_MODE_ATOMIC);
    replace_after_view(0);
    act_action a;
    act_action_init(&a);
    eous_err err;
    cJSON *j = cJSON_Parse("{\"click\": \"checkbox 'Alice Arnold'\"}");
    cr_assert_eq(act_parse_script_step(j, &a, &err), EOUS_OK, "%s", err.msg);
    cJSON_Delete(j);
    act_result r;
    act_on(obs, &a, &r);
    cr_assert(strstr(r.message, "it is checked now"), "%s", r.message);
    act_result_clear(&r);
    EXPECT_JS(ALICE_CHECKED, "true");
}

/* A model's view id for the box: the same role and name in a fresh view. */
Test(act_settle, a_models_view_id_replaced_after_the_view_is_found_again)
{
    open_page("/picker.html");
    perc_obs *obs = observe_as(PERC_MODE_PRUNED);
    int bid = 0;
    eous_err err;
    cr_assert_eq(perc_obs_find_role_name(obs, "checkbox", "Alice Arnold", 1, &bid, &err), EOUS_OK, "%s", err.msg);
    char text[64];
    snprintf(text, sizeof text, "click [%s]", perc_obs_view_id_of(obs, bid));
    replace_after_view(0);
    act_action a;
    act_action_init(&a);
    cr_assert_eq(act_parse_text(text, &a, &err), EOUS_OK, "%s", err.msg);
    act_result r;
    act_on(obs, &a, &r);
    act_result_clear(&r);
    EXPECT_JS(ALICE_CHECKED, "true");
}

/* A hybrid component's tool on a form the page rendered again: the form of the same kind and label. */
Test(act_settle, a_component_replaced_after_the_view_is_found_again)
{
    open_page("/picker.html");
    perc_obs *obs = observe_as(PERC_MODE_HYBRID);
    replace_after_view(1);
    act_action a;
    act_action_init(&a);
    eous_err err;
    cr_assert_eq(act_parse_text("call [c1] [fill] [{\"Alice Arnold\": true}]", &a, &err), EOUS_OK, "%s", err.msg);
    act_result r;
    act_on(obs, &a, &r);
    act_result_clear(&r);
    EXPECT_JS(ALICE_CHECKED, "true");
}

/* ---- a CI4A call whose registry answers through a promise (call.js: trust) ---- */

/* call [cid] [setValue] with params on registry.html, its result (the message holds its state after the settle) in r. */
static void call_registry(const char *cid, const char *params, act_result *r)
{
    perc_obs *obs = observe_as(PERC_MODE_HYBRID);
    char text[256];
    snprintf(text, sizeof text, "call [%s] [setValue] [%s]", cid, params);
    act_action a;
    act_action_init(&a);
    eous_err err;
    cr_assert_eq(act_parse_text(text, &a, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_execute(X, obs, &a, r, &err), EOUS_OK, "%s: %s", text, err.msg);
    act_action_clear(&a);
    perc_obs_free(obs);
}

/* A registry that renders, then waits for its page before it answers (here 30 ms; the Playground's a frame):
 * its settle is trusted, no frames and no quiet waited for after it (the rule would wait for both). */
Test(act_settle, a_call_whose_registry_awaited_its_page_is_settled_at_once)
{
    open_page("/registry.html");
    act_result r;
    call_registry("c1", "{\"value\": \"Ada\"}", &r);
    cr_assert(strstr(r.message, "\"out\":\"awaited Ada\""), "%s", r.message);
    cr_assert_str_eq(r.settle_waited, "trusted", "the call's settle was not trusted: %s", r.message);
    act_result_clear(&r);
}

/* A registry that answers before its render, whichever way the render comes after (a posted
 * message, as React's scheduler; an animation frame; a 0 ms timer; a message that posts another):
 * the call's settle still sees it rendered (trusted or not: a render done before the check is fine). */
Test(act_settle, a_call_whose_registry_answers_before_its_render_is_seen_rendered)
{
    open_page("/registry.html");
    const char *hows[] = {"message", "frame", "timer", "slices"};
    for (size_t i = 0; i < sizeof hows / sizeof *hows; i++) {
        char params[96], want[96];
        snprintf(params, sizeof params, "{\"value\": \"v%zu\", \"how\": \"%s\"}", i, hows[i]);
        snprintf(want, sizeof want, "\"out\":\"rendered v%zu by %s\"", i, hows[i]);
        act_result r;
        call_registry("c2", params, &r);
        cr_assert(strstr(r.message, want), "%s: %s (settle: %s)", hows[i], r.message, r.settle_waited);
        act_result_clear(&r);
    }
}

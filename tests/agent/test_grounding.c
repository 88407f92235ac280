/* tests/agent/test_grounding.c — the grounding check of scripted plans: the pure
 * check on view texts (call targets as the view prints them, never internal
 * keys; strings, numbers, booleans and page numbers; each rule of the "from"
 * vocabulary right and wrong; unknown rules and misplaced placeholders), then
 * whole plans on the real Playground in Chromium where an unseen row key, an
 * unseen enum value and an answer the page never showed each fail under
 * strict grounding (and run under report). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/task_job.h"
#include "actions/action.h"
#include "agent/grounding.h"
#include "agent/run.h"
#include "webarena/task.h"
#include "support/browser.h"

static const char *VIEW =
    "Tab 0 (current): Users - Playground\n"
    "[c5] table 'Users' total: 300 rowCount: 300 page: 1 pageSize: 10 → "
    "filter(column: role|department; values: [Admin|Editor|emea|… +4 more]) · rowAction(key: string; "
    "action: edit)\n"
    "\t| key | name | role | logins |\n"
    "\t| u001 | Annie Boyd | Editor | 12 |\n"
    "\t| u002 | Niklaus Turing | Admin | 30 |\n"
    "[c6] select 'Room type' mode: 'single' → setValue(value: standard|superior|deluxe|family|suite|studio) clear()\n"
    "[c7] select 'Country' → setValue(value: Argentina|Chile|… +40 more)\n"
    "[c8] switch 'Active' checked: true → setValue(checked: boolean) toggle()\n"
    "[c9] inputnumber 'Guests' value: 2 → setValue(value: integer, 1..8)\n"
    "[c10] pagination 'Users pages' page: 1 → goToPage(page: integer, 1..30)\n"
    "[c11] input 'Guest name' → setValue(text) clear()\n"
    "[211] checkbox 'Slack \\xa0'\n"
    "[212] button 'Edit Annie Boyd'\n"
    "[213] combobox '* Role' expanded: True\n"
    "[214] listbox ''\n"
    "\t[215] option 'Admin'\n"
    "\t[216] option 'Editor'\n"
    "\t[217] option 'Viewer'\n"
    "link [4] 'Log in'\n" /* the pruned view puts the id between role and name */
    "textbox [10] value: 'x'\n"  /* and leaves an empty name out */
    "1 2 3 4 5\n"                 /* and prints antd's pager as its page numbers */
    "page tools:\n"
    "\t[c12] open_order(id) — Open the detail page of one order by id.\n";

/* A component the call's target resolves to, as agent_ground_step fills it. */
typedef struct comp {
    const char *view_id, *key, *kind, *label;
    int page_tool;
} comp;

static const comp USERS = {"c5", "table-users", "table", "Users", 0};
static const comp ROOM = {"c6", "select-room-type", "select", "Room type", 0};
static const comp COUNTRY = {"c7", "select-country", "select", "Country", 0};
static const comp ACTIVE = {"c8", "switch-edit-active", "switch", "Active", 0};
static const comp GUESTS = {"c9", "inputnumber-guests", "inputnumber", "Guests", 0};
static const comp PAGER = {"c10", "pagination-users", "pagination", "Users pages", 0};
static const comp NAME = {"c11", "input-guest-name", "input", "Guest name", 0};
static const comp OPEN_ORDER = {"c12", "open_order", "webmcp", "Open the detail page of one order by id.", 1};

static act_action parse_step(const char *json)
{
    cJSON *j = cJSON_Parse(json);
    cr_assert(j, "%s", json);
    act_action a;
    act_action_init(&a);
    eous_err err;
    cr_assert_eq(act_parse_script_step(j, &a, &err), EOUS_OK, "%s: %s", json, err.msg);
    cJSON_Delete(j);
    return a;
}

/* Checks step_json (its "from" is the rule) against VIEW, with the component
 * its call target resolves to (NULL: none) and one earlier text seen0. */
static agent_ground_result check_on(const char *view, const char *step_json, const char *intent, const comp *c,
                                    const char *seen0)
{
    act_action a = parse_step(step_json);
    cJSON *j = cJSON_Parse(step_json);
    agent_ground_input in;
    memset(&in, 0, sizeof in);
    in.view = view;
    in.intent = intent;
    if (c) {
        in.call_view_id = c->view_id;
        in.call_key = c->key;
        in.call_kind = c->kind;
        in.call_label = c->label;
        in.call_page_tool = c->page_tool;
    }
    in.rule = eous_json_str(j, "from");
    agent_ground_log seen = {0};
    cr_assert_eq(agent_ground_log_add(&seen, seen0), 0);
    in.seen = &seen;
    agent_ground_result r;
    agent_ground_check(&in, &a, &r);
    act_action_clear(&a);
    cJSON_Delete(j);
    agent_ground_log_free(&seen);
    return r;
}

static agent_ground_result check_with(const char *step_json, const char *intent, const comp *c, const char *seen0)
{
    return check_on(VIEW, step_json, intent, c, seen0);
}

static agent_ground_result check(const char *step_json, const char *intent, const char *seen0)
{
    return check_with(step_json, intent, NULL, seen0);
}

#define GROUNDED(r) cr_assert_eq((r).verdict, AGENT_GROUND_GROUNDED, "%s", (r).missing)
#define COMPUTED(r) cr_assert_eq((r).verdict, AGENT_GROUND_COMPUTED, "%s", (r).missing)
#define REFUSED(r, text)                                                                       \
    do {                                                                                       \
        agent_ground_result r_ = (r);                                                          \
        cr_assert_eq(r_.verdict, AGENT_GROUND_UNGROUNDED, "expected ungrounded: %s", r_.missing); \
        cr_assert(strstr(r_.missing, text), "'%s' in: %s", text, r_.missing);                  \
    } while (0)

Test(grounding, call_target_is_what_the_view_prints_never_an_internal_key)
{
    const char *intent = "Edit Niklaus";
    /* the key resolves, but the view never prints it */
    REFUSED(check_with("{\"call\": \"table-users\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u002\", "
                       "\"action\": \"edit\"}}", intent, &USERS, NULL),
            "is a component key the view does not print; it shows [c5] table 'Users'");
    /* its id, its label as the line prints it, kind 'label' */
    const char *forms[] = {"c5", "[c5]", "Users", "users", "table 'Users'", "table \\\"Users\\\""};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        char step[256];
        snprintf(step, sizeof step,
                 "{\"call\": \"%s\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u002\", \"action\": \"edit\"}}",
                 forms[i]);
        GROUNDED(check_with(step, intent, &USERS, NULL));
    }
    /* part of a label, or the wrong kind, is not how the view prints it */
    REFUSED(check_with("{\"call\": \"User\", \"tool\": \"rowAction\", \"params\": {}}", "", &USERS, NULL),
            "is not how the view prints [c5] table 'Users'");
    REFUSED(check_with("{\"call\": \"select 'Users'\", \"tool\": \"rowAction\", \"params\": {}}", "", &USERS, NULL),
            "is not how the view prints");
    /* a page tool by the name printed under "page tools:" */
    GROUNDED(check_with("{\"call\": \"open_order\", \"tool\": \"open_order\", \"params\": {\"id\": \"ORD-1042\"}}",
                        "Who placed order ORD-1042?", &OPEN_ORDER, NULL));
    /* nothing resolved: the view shows no such component */
    REFUSED(check_with("{\"call\": \"Orders\", \"tool\": \"rowAction\", \"params\": {}}", "", NULL, NULL),
            "names no component the view shows");
    /* the tool must be on the component's own line (setValue is on other lines) */
    REFUSED(check_with("{\"call\": \"Users\", \"tool\": \"setValue\", \"params\": {}}", "", &USERS, NULL),
            "tool 'setValue' of 'Users' is not in the view");
}

/* DokuWiki's page source is an unnamed textarea: "textbox ''" names it while no other component
 * line of the view is an unnamed textbox */
Test(grounding, an_unnamed_component_is_its_kind_and_empty_quotes_when_no_other_is)
{
    static const comp SOURCE = {"c4", "native-4", "textbox", "", 0};
    const char *one = "[c3] form 'Save' → fill(wikitext?) submit(as in fill)\n"
                      "\t[c4] textbox '' multiline: true → setValue(value) clear() replace(find, ≥1 chars; with)\n"
                      "\t\t| Status | paused |\n";
    const char *step = "{\"call\": \"textbox ''\", \"tool\": \"replace\", \"params\": {\"find\": \"paused\", "
                       "\"with\": \"active\"}}";
    GROUNDED(check_on(one, step, "Change the status to active.", &SOURCE, NULL));
    char two[512];
    snprintf(two, sizeof two, "%s[c5] textbox '' → setValue(value) clear() replace(find, ≥1 chars; with)\n", one);
    REFUSED(check_on(two, step, "Change the status to active.", &SOURCE, NULL), "is not how the view prints [c4] textbox ''");
    REFUSED(check_on(one, "{\"call\": \"searchbox ''\", \"tool\": \"replace\", \"params\": {}}", "", &SOURCE, NULL),
            "is not how the view prints");
}

Test(grounding, unseen_row_key_is_ungrounded_on_word_boundaries)
{
    /* u011 is not on the page; "u01" must not be found inside "u011" either way round */
    REFUSED(check_with("{\"call\": \"c5\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u011\", "
                       "\"action\": \"edit\"}}",
                       "Deactivate the user Ivan Sammet.", &USERS, NULL),
            "u011");
    REFUSED(check_with("{\"call\": \"c5\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u00\"}}", "", &USERS, NULL),
            "u00");
}

Test(grounding, enum_value_must_be_in_the_view_or_the_intent)
{
    const char *step = "{\"call\": \"Users\", \"tool\": \"filter\", \"params\": {\"column\": \"department\", "
                       "\"values\": [\"legal\"]}}";
    REFUSED(check_with(step, "How many users work in HR?", &USERS, NULL), "legal");
    GROUNDED(check_with(step, "How many users work in Legal?", &USERS, NULL));
}

Test(grounding, numbers_booleans_and_page_numbers_are_checked)
{
    /* a number in the intent, and one found nowhere */
    GROUNDED(check_with("{\"call\": \"Guests\", \"tool\": \"setValue\", \"params\": {\"value\": 7}}", "for 7 guests",
                        &GUESTS, NULL));
    REFUSED(check_with("{\"call\": \"Guests\", \"tool\": \"setValue\", \"params\": {\"value\": 7}}", "for two guests",
                       &GUESTS, NULL),
            "param value '7' is not in the view or the intent");
    /* nested in arrays and objects too */
    REFUSED(check_with("{\"call\": \"Users\", \"tool\": \"filter\", \"params\": {\"column\": \"role\", \"values\": "
                       "[\"Admin\", {\"min\": 77}]}}", "", &USERS, NULL),
            "'77'");
    /* an element id is not shown data: the views' ids are taken out of value look-ups */
    REFUSED(check_with("{\"call\": \"Guests\", \"tool\": \"setValue\", \"params\": {\"value\": 212}}", "", &GUESTS,
                       NULL),
            "'212'");
    REFUSED(check("{\"stop\": \"212\"}", "", NULL), "'212'");
    /* a page number must be a page item the view shows: the pager line, not any "12" on the page */
    GROUNDED(check_with("{\"call\": \"Users pages\", \"tool\": \"goToPage\", \"params\": {\"page\": 3}}", "",
                        &PAGER, NULL));
    REFUSED(check_with("{\"call\": \"Users pages\", \"tool\": \"goToPage\", \"params\": {\"page\": 12}}", "",
                       &PAGER, NULL),
            "param page '12' is not a page the view shows");
    /* a boolean where the component's own line shows that param as a boolean */
    GROUNDED(check_with("{\"call\": \"Active\", \"tool\": \"setValue\", \"params\": {\"checked\": false}}",
                        "Deactivate Annie Boyd", &ACTIVE, NULL));
    REFUSED(check_with("{\"call\": \"Guests\", \"tool\": \"setValue\", \"params\": {\"checked\": true}}", "", &GUESTS,
                       NULL),
            "the view shows no boolean checked for 'Guests'");
    REFUSED(check_with("{\"call\": \"Active\", \"tool\": \"setValue\", \"params\": {\"notify\": true}}", "", &ACTIVE,
                       NULL),
            "no boolean notify");
}

Test(grounding, atomic_targets_and_text)
{
    GROUNDED(check("{\"click\": \"button 'Edit Annie Boyd'\"}", "", NULL));
    GROUNDED(check("{\"click\": \"checkbox 'Slack \xc2\xa0'\"}", "", NULL)); /* the view's \xa0 is a no-break space */
    REFUSED(check("{\"click\": \"button 'Edit Ivan Sammet'\"}", "", NULL), "is not in the view");
    REFUSED(check("{\"click\": \"button 'Edit'\"}", "", NULL), "is not in the view"); /* a name is matched whole */
    REFUSED(check("{\"click\": \"link 'Log out'\"}", "", NULL), "is not in the view");
    GROUNDED(check("{\"click\": \"212\"}", "", NULL));
    GROUNDED(check("{\"click\": \"button \\\"Edit Annie Boyd\\\" #1\"}", "", NULL));
    GROUNDED(check("{\"click\": \"link 'Log in'\"}", "", NULL));   /* pruned view */
    GROUNDED(check("{\"click\": \"textbox ''\"}", "", NULL));      /* pruned view, no name */
    /* a label alone (actions/target.c): a name the view prints, with or without its required mark */
    GROUNDED(check("{\"click\": \"Edit Annie Boyd\"}", "", NULL));
    GROUNDED(check("{\"click\": \"Role\"}", "", NULL)); /* combobox '* Role' */
    REFUSED(check("{\"click\": \"Edit\"}", "", NULL), "is not in the view"); /* matched whole */
    REFUSED(check("{\"click\": \"Roles\"}", "", NULL), "is not in the view");
    REFUSED(check("{\"click\": \"button ''\"}", "", NULL), "is not in the view");
    cr_assert_eq(check("{\"click\": \"css=.ant-pagination-item-3\"}", "", NULL).verdict, AGENT_GROUND_ADDRESSING);
    REFUSED(check("{\"type\": \"css=#q\", \"text\": \"Grace\"}", "", NULL), "Grace"); /* text from nowhere */
    GROUNDED(check("{\"type\": \"212\", \"text\": \"{{secret:PW}}\"}", "", NULL));
    /* a textarea's text shows one line per node: typed text is checked line by line */
    GROUNDED(check("{\"type\": \"212\", \"text\": \"Annie Boyd\\nNiklaus Turing\\n\"}", "", NULL));
    REFUSED(check("{\"type\": \"212\", \"text\": \"Annie Boyd\\nIvan Sammet\"}", "", NULL), "'Ivan Sammet'");
    /* so is a call's param of several lines (a form's textarea filled whole); one unseen line refuses it */
    GROUNDED(check_with("{\"call\": \"c11\", \"tool\": \"setValue\", \"params\": {\"text\": \"Annie Boyd\\n\\nNiklaus "
                        "Turing\"}}", "", &NAME, NULL));
    REFUSED(check_with("{\"call\": \"c11\", \"tool\": \"setValue\", \"params\": {\"text\": \"Annie Boyd\\nIvan Sammet\"}}",
                       "", &NAME, NULL), "Ivan Sammet");
}

/* A name the page prints with a live count ("Deactivate selected (2)") grounds the job's bare name, as
 * the resolver takes it (act_name_counted); another count, a part of the name, or a step that gives a
 * count the page does not show do not. */
Test(grounding, a_bare_name_grounds_in_a_name_with_a_count)
{
    const char *view = "[3] heading 'Users'\n[5] button 'Deactivate selected (2)'\n[6] button 'Save (1)'\n";
    GROUNDED(check_on(view, "{\"click\": \"button 'Deactivate selected'\"}", "", NULL, NULL));
    GROUNDED(check_on(view, "{\"click\": \"button 'Deactivate selected (2)'\"}", "", NULL, NULL));
    GROUNDED(check_on(view, "{\"click\": \"button 'Save'\"}", "", NULL, NULL));
    REFUSED(check_on(view, "{\"click\": \"button 'Deactivate selected (3)'\"}", "", NULL, NULL), "is not in the view");
    REFUSED(check_on(view, "{\"click\": \"button 'Deactivate'\"}", "", NULL, NULL), "is not in the view");
    REFUSED(check_on(view, "{\"click\": \"link 'Deactivate selected'\"}", "", NULL, NULL), "is not in the view");
    REFUSED(check_on(view, "{\"click\": \"button 'Users'\"}", "", NULL, NULL), "is not in the view");
}

Test(grounding, stop_answer_must_have_been_shown_or_given_by_a_rule)
{
    GROUNDED(check("{\"stop\": \"Niklaus Turing\"}", "", NULL));
    REFUSED(check("{\"stop\": \"555-0100\"}", "What is the phone number of Ada Lovelace?", NULL), "555-0100");
    GROUNDED(check("{\"stop\": \"Ivan Sammet\"}", "", "| u011 | Ivan Sammet |")); /* seen earlier in the run */
    GROUNDED(check("{\"stop\": \"\"}", "", NULL));
}

Test(grounding, rule_count_of_rows_shown)
{
    /* the view shows 2 data rows ("2" is also shown, so the answer stays grounded) */
    GROUNDED(check("{\"stop\": \"2\", \"from\": \"count of rows shown after the filter\"}", "", NULL));
    REFUSED(check("{\"stop\": \"17\", \"from\": \"count of rows shown\"}", "", NULL),
            "is not the 2 that 'count of rows shown' gives");
    REFUSED(check("{\"stop\": \"2\", \"from\": \"count of rows shownx\"}", "", NULL), "is not one of");
}

Test(grounding, rule_count_of_options_listed)
{
    /* hybrid: the select's line lists six options whole */
    COMPUTED(check("{\"stop\": \"6\", \"from\": \"count of options listed for 'Room type'\"}", "", NULL));
    REFUSED(check("{\"stop\": \"4\", \"from\": \"count of options listed for 'Room type'\"}", "", NULL),
            "is not the 6");
    /* a list cut short ("… +40 more") counts nothing */
    REFUSED(check("{\"stop\": \"42\", \"from\": \"count of options listed for 'Country'\"}", "", NULL),
            "does not list its options whole");
    /* atomic: the items of the listbox after the element so named */
    GROUNDED(check("{\"stop\": \"3\", \"from\": \"count of options listed for '* Role'\"}", "", NULL));
    REFUSED(check("{\"stop\": \"2\", \"from\": \"count of options listed for '* Role'\"}", "", NULL),
            "is not the 3");
    REFUSED(check("{\"stop\": \"3\", \"from\": \"count of options listed for 'Department'\"}", "", NULL),
            "shows nothing named 'Department'");
}

Test(grounding, rule_sum_min_max_of_a_column)
{
    COMPUTED(check("{\"stop\": \"42\", \"from\": \"sum of column 'logins'\"}", "", NULL));
    REFUSED(check("{\"stop\": \"41\", \"from\": \"sum of column 'logins'\"}", "", NULL), "is not the 42.00");
    GROUNDED(check("{\"stop\": \"12\", \"from\": \"min of column 'Logins'\"}", "", NULL));
    REFUSED(check("{\"stop\": \"12\", \"from\": \"max of column 'logins'\"}", "", NULL), "is not the 30.00");
    REFUSED(check("{\"stop\": \"3\", \"from\": \"sum of column 'visits'\"}", "", NULL), "no column 'visits'");
    REFUSED(check("{\"stop\": \"3\", \"from\": \"sum of column 'name'\"}", "", NULL), "not a number");
}

Test(grounding, rule_date_arithmetic)
{
    const char *intent = "Book 14 nights from 2025-07-01.";
    COMPUTED(check("{\"type\": \"212\", \"text\": \"2025-07-15\", \"from\": \"date '2025-07-01' plus 14 days\"}",
                   intent, NULL));
    REFUSED(check("{\"type\": \"212\", \"text\": \"2025-07-16\", \"from\": \"date '2025-07-01' plus 14 days\"}", intent,
                  NULL),
            "is not the 2025-07-15");
    COMPUTED(check("{\"stop\": \"2025-02-28\", \"from\": \"date '2025-03-01' minus 1 day\"}", "", "from 2025-03-01"));
    /* the date and N must have been read */
    REFUSED(check("{\"type\": \"212\", \"text\": \"2025-07-15\", \"from\": \"date '2025-07-01' plus 14 days\"}",
                  "Book the longest stay from 2025-07-01.", NULL),
            "14 is in no observation");
    REFUSED(check("{\"type\": \"212\", \"text\": \"2025-07-15\", \"from\": \"date '2025-7-1' plus 14 days\"}", intent,
                  NULL),
            "expected date 'YYYY-MM-DD'");
}

Test(grounding, rule_count_of_matches_in_the_last_result)
{
    const char *res = "Destination.search: ok; result {\"matches\":[[\"Japan\",\"Tokyo\"],[\"Japan\",\"Kyoto\"]]}";
    COMPUTED(check("{\"stop\": \"22\", \"from\": \"count of matches in the last result\"}", "",
                   "x.search: ok; result {\"matches\":[[\"a\"],[\"b\"],[\"c\"],[\"d\"],[\"e\"],[\"f\"],[\"g\"],"
                   "[\"h\"],[\"i\"],[\"j\"],[\"k\"],[\"l\"],[\"m\"],[\"n\"],[\"o\"],[\"p\"],[\"q\"],[\"r\"],[\"s\"],"
                   "[\"t\"],[\"u\"],[\"v\"]]}"));
    REFUSED(check("{\"stop\": \"3\", \"from\": \"count of matches in the last result\"}", "", res), "is not the 2");
    REFUSED(check("{\"stop\": \"2\", \"from\": \"count of matches in the last result\"}", "", NULL),
            "no result of this run lists matches");
}

Test(grounding, unknown_rules_and_placeholders_are_refused)
{
    /* a rule outside the vocabulary is ungrounded whatever it says */
    REFUSED(check("{\"stop\": \"1470\", \"from\": \"7 nights x 210 EUR\"}", "", NULL), "is not one of");
    REFUSED(check("{\"type\": \"212\", \"text\": \"Annie Boyd\", \"from\": \"the name shown\"}", "", NULL),
            "is not one of");
    /* a stated rule must hold even where the value was shown anyway */
    REFUSED(check("{\"type\": \"212\", \"text\": \"Annie Boyd\", \"from\": \"sum of column 'visits'\"}", "", NULL),
            "rule 'sum of column 'visits'': the view shows no column 'visits'");
    /* placeholder: typed text and a setValue text param only */
    COMPUTED(check("{\"type\": \"212\", \"text\": \"X Y\", \"from\": \"placeholder\"}", "", NULL));
    COMPUTED(check_with("{\"call\": \"Guest name\", \"tool\": \"setValue\", \"params\": {\"text\": \"X Y\"}, "
                        "\"from\": \"placeholder\"}", "", &NAME, NULL));
    REFUSED(check("{\"stop\": \"N/A\", \"from\": \"placeholder\"}", "", NULL), "not a stop answer");
    REFUSED(check("{\"select\": \"213\", \"option\": \"Zed\", \"from\": \"placeholder\"}", "", NULL), "not an option");
    REFUSED(check_with("{\"call\": \"Room type\", \"tool\": \"setValue\", \"params\": {\"value\": \"penthouse\"}, "
                       "\"from\": \"placeholder\"}", "", &ROOM, NULL),
            "placeholder is only for typed text");
    REFUSED(check_with("{\"call\": \"Guests\", \"tool\": \"setValue\", \"params\": {\"value\": 5}, "
                       "\"from\": \"placeholder\"}", "", &GUESTS, NULL),
            "placeholder is only for typed text");
    (void)COUNTRY;
}

Test(grounding, modes_parse)
{
    agent_ground_mode m;
    cr_assert_eq(agent_ground_mode_parse("strict", &m), 0);
    cr_assert_eq(m, AGENT_GROUND_STRICT);
    cr_assert_eq(agent_ground_mode_parse("report", &m), 0);
    cr_assert_eq(m, AGENT_GROUND_REPORT);
    cr_assert_eq(agent_ground_mode_parse("off", &m), 0);
    cr_assert_eq(m, AGENT_GROUND_OFF);
    cr_assert_neq(agent_ground_mode_parse("loose", &m), 0);
}

/* ---- whole plans on the Playground --------------------------------------- */

static ts_browser B;
static int site_ok;

static void site_setup(void)
{
    const char *site = ts_site_root();
    cr_assert(site, "the Playground is built (scripts/build-site)");
    cr_assert_eq(ts_browser_start(&B, site), 0);
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(B.server), 1);
    site_ok = 1;
}

static void site_teardown(void)
{
    if (site_ok)
        ts_browser_stop(&B);
    site_ok = 0;
}

TestSuite(grounding_site, .init = site_setup, .fini = site_teardown, .timeout = 300);

/* Runs one task (JSON text) in mode with grounding g, its trace at
 * trace_path when given; fills res. */
static void run_plan_traced(const char *json, perc_mode mode, agent_ground_mode g, const char *trace_path,
                            agent_result *res);

static void run_plan(const char *json, perc_mode mode, agent_ground_mode g, agent_result *res)
{
    run_plan_traced(json, mode, g, NULL, res);
}

static void run_plan_traced(const char *json, perc_mode mode, agent_ground_mode g, const char *trace_path,
                            agent_result *res)
{
    wa_task_list l;
    eous_err err;
    cr_assert_eq(wa_tasks_load_text(json, strlen(json), "plan.json", &l, &err), EOUS_OK, "%s", err.msg);
    agent_run_opts o;
    agent_run_opts_init(&o);
    o.mode = mode;
    o.grounding = g;
    o.trace_path = trace_path;
    agent_job job;
    bench_task_job(&l.tasks[0], &job);
    eous_rc rc = agent_run_task(B.session, &job, &o, res, &err);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    wa_tasks_free(&l);
}

#define TASK_HEAD                                                                                          \
    "{\"sites\": [\"playground\"], \"task_id\": \"g\", \"require_login\": false, \"storage_state\": null, " \
    "\"geolocation\": null, \"require_reset\": false, "

/* u011 (Ivan Sammet) is on page 2 of the users table: the component would act
 * on it, but nothing the planner saw names it */
static const char *UNSEEN_KEY =
    TASK_HEAD "\"start_url\": \"__PLAYGROUND__/users\", \"intent\": \"Deactivate the user Ivan Sammet.\", "
              "\"eval\": {\"eval_types\": [\"program_html\"], \"reference_answers\": null, \"reference_url\": \"\", "
              "\"program_html\": [{\"url\": \"last\", \"locator\": \"document.defaultView.__playground__.state()."
              "users.find(u => u.id === 'u011').active\", \"required_contents\": {\"exact_match\": \"false\"}}]}, "
              "\"script\": [{\"call\": \"Users\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u011\", "
              "\"action\": \"edit\"}}, {\"call\": \"Active\", \"tool\": \"setValue\", \"params\": "
              "{\"checked\": false}}, {\"call\": \"modal 'Edit user'\", \"tool\": \"submit\", \"params\": {}}, "
              "{\"stop\": \"\"}]}";

Test(grounding_site, unseen_row_key_fails_strict_and_runs_under_report)
{
    agent_result res;
    run_plan(UNSEEN_KEY, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(agent_stop_name(res.stop_reason), "ungrounded");
    cr_assert_str_eq(eous_status_name(res.status), "failed");
    cr_assert_eq(res.score, 0.0);
    cr_assert(strstr(res.error, "u011"), "the error names the missing key: %s", res.error);
    cr_assert_eq(res.ground.ungrounded, 1);
    agent_result_clear(&res);
    /* the refused step is the failing step: its screenshot is kept as evidence */
    char dir[] = "/tmp/eous-ground-ev-XXXXXX", trace[200], png[300];
    cr_assert(mkdtemp(dir));
    snprintf(trace, sizeof trace, "%s/g-hybrid.jsonl", dir);
    snprintf(png, sizeof png, "%s/g-hybrid/step-01-failed.png", dir);
    run_plan_traced(UNSEEN_KEY, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, trace, &res);
    cr_assert_str_eq(agent_stop_name(res.stop_reason), "ungrounded");
    cr_assert_eq(access(png, R_OK), 0, "%s kept", png);
    agent_result_clear(&res);
    eous_rmtree(dir);
    /* the same plan does reach the goal: only the check stands in its way */
    run_plan(UNSEEN_KEY, PERC_MODE_HYBRID, AGENT_GROUND_REPORT, &res);
    cr_assert_str_eq(eous_status_name(res.status), "passed", "%s %s", res.error, res.eval_detail);
    cr_assert_geq(res.ground.ungrounded, 1);
    agent_result_clear(&res);
}

/* a department value the filter menu does not list in the view ("… +4 more")
 * and the intent does not name */
#define UNSEEN_ENUM \
    TASK_HEAD "\"start_url\": \"__PLAYGROUND__/users\", \"intent\": \"How many users are in the first department " \
              "after Legal in the filter list?\", \"eval\": {\"eval_types\": [\"string_match\"], " \
              "\"reference_answers\": {\"exact_match\": \"x\"}, \"reference_url\": \"\", \"program_html\": []}, " \
              "\"script\": [{\"call\": \"Users\", \"tool\": \"filter\", \"params\": {\"column\": " \
              "\"department\", \"values\": [\"%s\"]}}, {\"stop\": \"\"}]}"

Test(grounding_site, unseen_enum_value_fails_strict)
{
    char json[2048];
    snprintf(json, sizeof json, UNSEEN_ENUM, "research");
    agent_result res;
    run_plan(json, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(agent_stop_name(res.stop_reason), "ungrounded", "%s", res.error);
    cr_assert(strstr(res.error, "research"), "%s", res.error);
    agent_result_clear(&res);
    /* a value the view lists is fine */
    snprintf(json, sizeof json, UNSEEN_ENUM, "finance");
    run_plan(json, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(agent_stop_name(res.stop_reason), "stop", "%s", res.error);
    cr_assert_eq(res.ground.ungrounded, 0);
    agent_result_clear(&res);
}

/* Ada Lovelace's phone number is nowhere on the site */
#define UNSHOWN_ANSWER \
    TASK_HEAD "\"start_url\": \"__PLAYGROUND__/users\", \"intent\": \"What is the email address of Annie Boyd?\", " \
              "\"eval\": {\"eval_types\": [\"string_match\"], \"reference_answers\": {\"exact_match\": \"%s\"}, " \
              "\"reference_url\": \"\", \"program_html\": []}, " \
              "\"atomic_script\": [{\"stop\": \"%s\"}], \"script\": [{\"stop\": \"%s\"}]}"

Test(grounding_site, answer_never_shown_fails_strict_in_both_modes)
{
    char json[2048];
    const char *never = "annie.boyd@example.org";
    snprintf(json, sizeof json, UNSHOWN_ANSWER, never, never, never);
    for (int m = 0; m < 2; m++) {
        agent_result res;
        run_plan(json, m ? PERC_MODE_ATOMIC : PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
        cr_assert_str_eq(agent_stop_name(res.stop_reason), "ungrounded", "%s", res.error);
        cr_assert_eq(res.score, 0.0, "not scored though the reference agrees");
        agent_result_clear(&res);
    }
    /* the address the table shows is grounded */
    const char *shown = "annie.boyd1@example.com";
    snprintf(json, sizeof json, UNSHOWN_ANSWER, shown, shown, shown);
    agent_result res;
    run_plan(json, PERC_MODE_ATOMIC, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(eous_status_name(res.status), "passed", "%s", res.error);
    cr_assert_eq(res.ground.grounded, 1);
    agent_result_clear(&res);
}

/* step_json (its "from", if any, the rule) against a view of its own (nothing seen before). */
static agent_ground_result check_in_view(const char *view, const char *step_json)
{
    act_action a = parse_step(step_json);
    cJSON *j = cJSON_Parse(step_json);
    agent_ground_input in;
    memset(&in, 0, sizeof in);
    in.view = view;
    in.intent = "";
    in.rule = eous_json_str(j, "from");
    agent_ground_log seen = {0};
    in.seen = &seen;
    agent_ground_result r;
    agent_ground_check(&in, &a, &r);
    act_action_clear(&a);
    cJSON_Delete(j);
    agent_ground_log_free(&seen);
    return r;
}

Test(grounding, a_field_or_button_folded_into_a_native_form_line_is_in_the_view)
{
    /* the hybrid view folds a form's fields and submit button into its line */
    const char *view = "Tab 0 (current): Login\n\nheading 'Sign in'\n"
                       "[c1] form 'Sign in' → fill(Username?; Age: number, 0..120?; Full  name?) submit(as in fill)\n"
                       "[c2] form 'Search' submit: 'Go' → fill(Query?) submit(as in fill)\n";
    GROUNDED(check_in_view(view, "{\"type\": \"textbox 'Username'\", \"text\": \"{{secret:U}}\"}"));
    GROUNDED(check_in_view(view, "{\"type\": \"spinbutton 'age'\", \"text\": \"{{secret:A}}\"}"));
    GROUNDED(check_in_view(view, "{\"type\": \"textbox 'Full name'\", \"text\": \"{{secret:N}}\"}"));
    GROUNDED(check_in_view(view, "{\"click\": \"button 'Sign in'\"}"));  /* the form's name: no submit state printed */
    GROUNDED(check_in_view(view, "{\"click\": \"button 'Go'\"}"));       /* the printed submit state */
    REFUSED(check_in_view(view, "{\"click\": \"button 'Search'\"}"), "is not in the view");
    REFUSED(check_in_view(view, "{\"type\": \"textbox 'Email'\", \"text\": \"{{secret:E}}\"}"), "is not in the view");
    REFUSED(check_in_view(view, "{\"type\": \"textbox 'User'\", \"text\": \"{{secret:U}}\"}"), "is not in the view");
}

Test(grounding, a_link_a_group_of_links_lists_is_in_the_view)
{
    /* the hybrid view folds a navigation or list of links into one line */
    const char *view = "Tab 0 (current): Start\n\n"
                       "[c2] links 'Page Tools' → open(link: Show pagesource [v]|Old revisions [o]|Backlinks)\n"
                       "heading 'Old news'\n";
    GROUNDED(check_in_view(view, "{\"click\": \"link 'Old revisions [o]'\"}"));
    GROUNDED(check_in_view(view, "{\"click\": \"link 'backlinks'\"}"));
    GROUNDED(check_in_view(view, "{\"click\": \"link 'Show pagesource [v]'\"}"));
    REFUSED(check_in_view(view, "{\"click\": \"link 'Old revisions'\"}"), "is not in the view");
    REFUSED(check_in_view(view, "{\"click\": \"button 'Backlinks'\"}"), "is not in the view");
    REFUSED(check_in_view(view, "{\"click\": \"link 'Old news'\"}"), "is not in the view");
}

/* a table (a native table component's, as pruned prints it) with antd's empty placeholder: no rows */
Test(grounding, an_empty_tables_placeholder_row_is_no_row)
{
    const char *empty = "[c2] table '' → filter(column: Role; values: [string])\n\ttable\n"
                        "\t\t| columnheader [9] 'Name' | columnheader [13] 'Role filter' button [14] 'filter' |\n"
                        "\t\t| No data |\n";
    COMPUTED(check_in_view(empty, "{\"stop\": \"0\", \"from\": \"count of rows shown after the filter\"}"));
    REFUSED(check_in_view(empty, "{\"stop\": \"1\", \"from\": \"count of rows shown\"}"), "is not the 0");
}

/* Grounding reads the view's lines as perception reads them (perception/view_lines.c), not its text:
 * a label holding the view's own marks (" → ", " options: ", "tool(", "key: true") is a label, so it
 * neither lists options, nor offers a tool, nor shows a boolean. */
Test(grounding, a_label_holding_the_views_marks_is_only_a_label)
{
    static const comp SORT = {"c1", "select-sort", "select", "Sort → options: a | b", 0};
    static const comp NOTE = {"c2", "input-note", "input", "Use setValue(x) or Notify: true", 0};
    const char *view = "Tab 0 (current): Marks\n\n"
                       "[c1] select 'Sort → options: a | b' → setValue(value: x|y|z)\n"
                       "[c2] input 'Use setValue(x) or Notify: true' → clear()\n";
    COMPUTED(check_on(view, "{\"stop\": \"3\", \"from\": \"count of options listed for 'Sort → options: a | b'\"}",
                      "", NULL, NULL));
    REFUSED(check_on(view, "{\"stop\": \"2\", \"from\": \"count of options listed for 'Sort → options: a | b'\"}",
                     "", NULL, NULL),
            "is not the 3");
    GROUNDED(check_on(view, "{\"call\": \"c1\", \"tool\": \"setValue\", \"params\": {\"value\": \"y\"}}", "", &SORT,
                      NULL));
    REFUSED(check_on(view, "{\"call\": \"c2\", \"tool\": \"setValue\", \"params\": {}}", "", &NOTE, NULL),
            "tool 'setValue' of 'c2' is not in the view");
    REFUSED(check_on(view, "{\"call\": \"c2\", \"tool\": \"clear\", \"params\": {\"notify\": true}}", "", &NOTE, NULL),
            "the view shows no boolean notify");
}

/* tests/test_grounding.c — the grounding check of scripted plans: the pure
 * check on view texts, then whole plans on the real Playground in Chromium
 * where an unseen row key, an unseen enum value and an answer the page never
 * showed each fail under strict grounding (and run under report). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"
#include "agent/grounding.h"
#include "agent/run.h"
#include "agent/task.h"
#include "support/browser.h"

static const char *VIEW =
    "Tab 0 (current): Users - Playground\n"
    "[c5] table 'Users' total: 300 rowCount: 300 page: 1 pageSize: 10 → "
    "filter(column: role|department; values: [Admin|Editor|emea|… +4 more]) · rowAction(key: string; "
    "action: edit)\n"
    "\t| key | name | role |\n"
    "\t| u001 | Annie Boyd | Editor |\n"
    "\t| u002 | Niklaus Turing | Admin |\n"
    "[211] checkbox 'Slack \\xa0'\n"
    "[212] button 'Edit Annie Boyd'\n"
    "link [4] 'Log in'\n" /* the pruned view puts the id between role and name */
    "textbox [10] value: 'x'\n";  /* and leaves an empty name out */

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

static agent_ground_result check(const char *step_json, const char *intent, const char *call_view_id,
                                 const char *rule, const char *seen0)
{
    act_action a = parse_step(step_json);
    agent_ground_input in;
    memset(&in, 0, sizeof in);
    in.view = VIEW;
    in.intent = intent;
    in.call_view_id = call_view_id;
    in.rule = rule;
    agent_ground_log seen = {0};
    cr_assert_eq(agent_ground_log_add(&seen, seen0), 0);
    in.seen = &seen;
    agent_ground_result r;
    agent_ground_check(&in, &a, &r);
    act_action_clear(&a);
    agent_ground_log_free(&seen);
    return r;
}

Test(grounding, call_key_resolving_to_a_shown_component_and_a_visible_row_is_grounded)
{
    agent_ground_result r =
        check("{\"call\": \"table-users\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u002\", \"action\": \"edit\"}}",
              "Edit Niklaus", "c5", NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "%s", r.missing);
    /* without the resolved id the key names nothing the view shows */
    r = check("{\"call\": \"table-users\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u002\"}}", "", NULL, NULL,
              NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    cr_assert(strstr(r.missing, "table-users"), "%s", r.missing);
}

Test(grounding, unseen_row_key_is_ungrounded_on_word_boundaries)
{
    /* u011 is not on the page; "u01" must not be found inside "u011" either way round */
    agent_ground_result r = check(
        "{\"call\": \"c5\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u011\", \"action\": \"edit\"}}",
        "Deactivate the user Ivan Sammet.", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    cr_assert(strstr(r.missing, "u011"), "%s", r.missing);
    r = check("{\"call\": \"c5\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u00\"}}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED, "u00 is a prefix of shown keys, not a shown key");
}

Test(grounding, enum_value_must_be_in_the_view_or_the_intent)
{
    const char *step = "{\"call\": \"c5\", \"tool\": \"filter\", \"params\": {\"column\": \"department\", "
                       "\"values\": [\"legal\"]}}";
    agent_ground_result r = check(step, "How many users work in HR?", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    cr_assert(strstr(r.missing, "legal"), "%s", r.missing);
    r = check(step, "How many users work in Legal?", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "named by the intent (any case): %s", r.missing);
    r = check("{\"call\": \"c5\", \"tool\": \"sortBy\", \"params\": {}}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED, "a tool the view does not offer");
}

Test(grounding, atomic_targets_and_text)
{
    agent_ground_result r = check("{\"click\": \"button 'Edit Annie Boyd'\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "%s", r.missing);
    r = check("{\"click\": \"checkbox 'Slack \xc2\xa0'\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "the view's \\xa0 escape is a no-break space: %s", r.missing);
    r = check("{\"click\": \"button 'Edit Ivan Sammet'\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    r = check("{\"click\": \"button 'Edit'\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED, "a name is matched whole");
    r = check("{\"click\": \"link 'Log out'\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    r = check("{\"click\": \"212\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED);
    r = check("{\"click\": \"button \\\"Edit Annie Boyd\\\" #1\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "double quotes and #N, as the executor reads them: %s", r.missing);
    r = check("{\"click\": \"link 'Log in'\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "pruned view: %s", r.missing);
    r = check("{\"click\": \"textbox ''\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "pruned view, no name: %s", r.missing);
    r = check("{\"click\": \"button ''\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED, "no unnamed button shown");
    r = check("{\"click\": \"css=.ant-pagination-item-3\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_ADDRESSING);
    r = check("{\"type\": \"css=#q\", \"text\": \"Grace\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED, "text from nowhere outweighs the css address");
    r = check("{\"type\": \"212\", \"text\": \"2025-07-15\", \"from\": \"check-in plus 14 nights\"}", "", NULL,
              "check-in plus 14 nights", NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_COMPUTED, "a value the step says how it computed: %s", r.missing);
    r = check("{\"type\": \"212\", \"text\": \"{{secret:PW}}\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "a secret comes from the secrets file");
}

Test(grounding, stop_answer_must_have_been_shown_or_computed_by_a_stated_rule)
{
    agent_ground_result r = check("{\"stop\": \"Niklaus Turing\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "%s", r.missing);
    r = check("{\"stop\": \"555-0100\"}", "What is the phone number of Ada Lovelace?", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    cr_assert(strstr(r.missing, "555-0100"), "%s", r.missing);
    r = check("{\"stop\": \"Ivan Sammet\"}", "", NULL, NULL, "| u011 | Ivan Sammet |");
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED, "seen on an earlier page of the run: %s", r.missing);
    r = check("{\"stop\": \"\"}", "", NULL, NULL, NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_GROUNDED);
    r = check("{\"stop\": \"1470\", \"from\": \"7 nights x 210 EUR\"}", "", NULL, "7 nights x 210 EUR", NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_COMPUTED);
    /* a rule the check can verify: the view shows 2 data rows */
    r = check("{\"stop\": \"2\", \"from\": \"count of rows shown\"}", "", NULL, "count of rows shown", NULL);
    cr_assert_neq(r.verdict, AGENT_GROUND_UNGROUNDED, "%s", r.missing);
    r = check("{\"stop\": \"17\", \"from\": \"count of rows shown\"}", "", NULL, "count of rows shown", NULL);
    cr_assert_eq(r.verdict, AGENT_GROUND_UNGROUNDED);
    cr_assert(strstr(r.missing, "the 2 rows"), "%s", r.missing);
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
    agent_task_list l;
    eous_err err;
    cr_assert_eq(agent_tasks_load_text(json, strlen(json), "plan.json", &l, &err), EOUS_OK, "%s", err.msg);
    agent_run_opts o;
    agent_run_opts_init(&o);
    o.mode = mode;
    o.grounding = g;
    o.trace_path = trace_path;
    eous_rc rc = agent_run_task(B.session, &l.tasks[0], &o, res, &err);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    agent_tasks_free(&l);
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
              "\"script\": [{\"call\": \"table-users\", \"tool\": \"rowAction\", \"params\": {\"key\": \"u011\", "
              "\"action\": \"edit\"}}, {\"call\": \"switch-edit-active\", \"tool\": \"setValue\", \"params\": "
              "{\"checked\": false}}, {\"call\": \"modal-edit-user\", \"tool\": \"submit\", \"params\": {}}, "
              "{\"stop\": \"\"}]}";

Test(grounding_site, unseen_row_key_fails_strict_and_runs_under_report)
{
    agent_result res;
    run_plan(UNSEEN_KEY, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(res.stop_reason, "ungrounded");
    cr_assert_str_eq(res.status, "failed");
    cr_assert_eq(res.score, 0.0);
    cr_assert(strstr(res.error, "u011"), "the error names the missing key: %s", res.error);
    cr_assert_eq(res.steps_ungrounded, 1);
    agent_result_clear(&res);
    /* the refused step is the failing step: its screenshot is kept as evidence */
    char dir[] = "/tmp/eous-ground-ev-XXXXXX", trace[200], png[300];
    cr_assert(mkdtemp(dir));
    snprintf(trace, sizeof trace, "%s/g-hybrid.jsonl", dir);
    snprintf(png, sizeof png, "%s/g-hybrid/step-01-failed.png", dir);
    run_plan_traced(UNSEEN_KEY, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, trace, &res);
    cr_assert_str_eq(res.stop_reason, "ungrounded");
    cr_assert_eq(access(png, R_OK), 0, "%s kept", png);
    agent_result_clear(&res);
    eous_rmtree(dir);
    /* the same plan does reach the goal: only the check stands in its way */
    run_plan(UNSEEN_KEY, PERC_MODE_HYBRID, AGENT_GROUND_REPORT, &res);
    cr_assert_str_eq(res.status, "passed", "%s %s", res.error, res.eval_detail);
    cr_assert_geq(res.steps_ungrounded, 1);
    agent_result_clear(&res);
}

/* a department value the filter menu does not list in the view ("… +4 more")
 * and the intent does not name */
#define UNSEEN_ENUM \
    TASK_HEAD "\"start_url\": \"__PLAYGROUND__/users\", \"intent\": \"How many users are in the first department " \
              "after Legal in the filter list?\", \"eval\": {\"eval_types\": [\"string_match\"], " \
              "\"reference_answers\": {\"exact_match\": \"x\"}, \"reference_url\": \"\", \"program_html\": []}, " \
              "\"script\": [{\"call\": \"table-users\", \"tool\": \"filter\", \"params\": {\"column\": " \
              "\"department\", \"values\": [\"%s\"]}}, {\"stop\": \"\"}]}"

Test(grounding_site, unseen_enum_value_fails_strict)
{
    char json[2048];
    snprintf(json, sizeof json, UNSEEN_ENUM, "research");
    agent_result res;
    run_plan(json, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(res.stop_reason, "ungrounded", "%s", res.error);
    cr_assert(strstr(res.error, "research"), "%s", res.error);
    agent_result_clear(&res);
    /* a value the view lists is fine */
    snprintf(json, sizeof json, UNSEEN_ENUM, "finance");
    run_plan(json, PERC_MODE_HYBRID, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(res.stop_reason, "stop", "%s", res.error);
    cr_assert_eq(res.steps_ungrounded, 0);
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
        cr_assert_str_eq(res.stop_reason, "ungrounded", "%s", res.error);
        cr_assert_eq(res.score, 0.0, "not scored though the reference agrees");
        agent_result_clear(&res);
    }
    /* the address the table shows is grounded */
    const char *shown = "annie.boyd1@example.com";
    snprintf(json, sizeof json, UNSHOWN_ANSWER, shown, shown, shown);
    agent_result res;
    run_plan(json, PERC_MODE_ATOMIC, AGENT_GROUND_STRICT, &res);
    cr_assert_str_eq(res.status, "passed", "%s", res.error);
    cr_assert_eq(res.steps_grounded, 1);
    agent_result_clear(&res);
}

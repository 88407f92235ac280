/* tests/actions/test_act_parse.c — the action model and its three parsers. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "actions/action.h"

/* ---- helpers -------------------------------------------------------------- */

static act_action A;
static eous_err E;

static void setup(void)
{
    act_action_init(&A);
    eous_err_clear(&E);
}

static void teardown(void)
{
    act_action_clear(&A);
}

TestSuite(act_parse, .init = setup, .fini = teardown);

static void expect_format(const act_action *a, const char *want)
{
    char *got = act_format(a);
    cr_assert_not_null(got);
    cr_expect_str_eq(got, want);
    free(got);
}

static void tool_ok(const char *name, const char *args, const char *want)
{
    act_action_clear(&A);
    eous_rc rc = act_parse_tool_call(name, args, &A, &E);
    cr_assert_eq(rc, EOUS_OK, "%s %s: %s", name, args, E.msg);
    cr_expect_eq(A.from_script, 0);
    expect_format(&A, want);
}

static void tool_bad(const char *name, const char *args, const char *needle)
{
    act_action_clear(&A);
    eous_err_clear(&E);
    eous_rc rc = act_parse_tool_call(name, args, &A, &E);
    cr_assert_eq(rc, EOUS_E_PARSE, "%s %s should fail", name, args);
    cr_expect_eq(A.kind, ACT_NONE, "failed parse leaves the action cleared");
    cr_expect_null(A.target);
    cr_expect(strstr(E.msg, needle) != NULL, "message '%s' lacks '%s'", E.msg, needle);
}

static void text_ok(const char *text, const char *want)
{
    act_action_clear(&A);
    eous_rc rc = act_parse_text(text, &A, &E);
    cr_assert_eq(rc, EOUS_OK, "'%s': %s", text, E.msg);
    expect_format(&A, want);
}

static void text_bad(const char *text, const char *needle)
{
    act_action_clear(&A);
    eous_err_clear(&E);
    eous_rc rc = act_parse_text(text, &A, &E);
    cr_assert_eq(rc, EOUS_E_PARSE, "'%s' should fail", text);
    cr_expect_eq(A.kind, ACT_NONE);
    cr_expect(strstr(E.msg, needle) != NULL, "message '%s' lacks '%s'", E.msg, needle);
}

static void step_ok(const char *json, const char *want)
{
    act_action_clear(&A);
    cJSON *j = cJSON_Parse(json);
    cr_assert_not_null(j, "test JSON %s", json);
    eous_rc rc = act_parse_script_step(j, &A, &E);
    cJSON_Delete(j);
    cr_assert_eq(rc, EOUS_OK, "%s: %s", json, E.msg);
    cr_expect_eq(A.from_script, 1);
    expect_format(&A, want);
}

static void step_bad(const char *json, const char *needle)
{
    act_action_clear(&A);
    eous_err_clear(&E);
    cJSON *j = cJSON_Parse(json);
    cr_assert_not_null(j, "test JSON %s", json);
    eous_rc rc = act_parse_script_step(j, &A, &E);
    cJSON_Delete(j);
    cr_assert_eq(rc, EOUS_E_INVALID, "%s should fail", json);
    cr_expect_eq(A.kind, ACT_NONE);
    cr_expect(strstr(E.msg, needle) != NULL, "message '%s' lacks '%s'", E.msg, needle);
}

/* ---- the model ------------------------------------------------------------ */

Test(act_parse, kind_names_round_trip_through_tool_names)
{
    for (int k = ACT_CALL; k <= ACT_STOP; k++) {
        const char *n = act_kind_name((act_kind)k);
        act_action_clear(&A);
        /* every kind name is a tool name the parser knows */
        act_parse_tool_call(n, "{}", &A, &E);
        cr_expect(A.kind == (act_kind)k || strstr(E.msg, n) == E.msg, "%s: %s", n, E.msg);
    }
    cr_expect_str_eq(act_kind_name(ACT_NONE), "none");
}

/* The vocabulary table is the one source for parsers, schemas and prose: each
 * kind has exactly one row, and a row's schema properties are its argument
 * names, in order (the schemas' "required" lists are built from those names). */
Test(act_parse, vocabulary_rows_agree_with_themselves)
{
    size_t n;
    const act_verb *v = act_verbs(&n);
    cr_assert_eq(n, (size_t)ACT_KIND_LAST, "one row per kind");
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(act_verb_find(v[i].name, strlen(v[i].name)), &v[i], "%s", v[i].name);
        cr_expect_str_eq(act_kind_name(v[i].kind), v[i].name);
        cr_expect(v[i].tool_sig && v[i].tool_description && v[i].text_sig && v[i].text_help && v[i].script_sig,
                  "%s: a signature or help is missing", v[i].name);
        cJSON *props = cJSON_Parse(v[i].tool_props);
        cr_assert(cJSON_IsObject(props), "%s: tool_props is not a JSON object", v[i].name);
        /* the required arguments first, in order, then the optional ones */
        size_t k = 0, opt = 0;
        for (const cJSON *p = props->child; p; p = p->next, k++) {
            if (k < 4 && v[i].tool_keys[k]) {
                cr_expect_str_eq(p->string, v[i].tool_keys[k], "%s: property %s is not argument %zu", v[i].name,
                                 p->string, k);
                continue;
            }
            cr_expect(opt < 2 && v[i].tool_optional[opt] && !strcmp(p->string, v[i].tool_optional[opt]),
                      "%s: property %s is neither an argument nor an optional one", v[i].name, p->string);
            opt++;
        }
        cr_expect(opt == 2 || !v[i].tool_optional[opt], "%s: optional %s has no schema", v[i].name,
                  opt < 2 && v[i].tool_optional[opt] ? v[i].tool_optional[opt] : "");
        cJSON_Delete(props);
    }
    cr_expect_str_eq(act_verb_names(), "call, click, type, hover, press, scroll, select, goto, go_back, go_forward, "
                                       "tab_focus, close_tab, stop, wait, read, expect, upload, download");
}

Test(act_parse, copy_is_deep_and_equal)
{
    cr_assert_eq(act_parse_text("call [c3] [setValue] [{\"date\":\"2025-12-31\"}]", &A, &E), EOUS_OK);
    act_action b;
    cr_assert_eq(act_action_copy(&b, &A, &E), EOUS_OK);
    cr_expect(act_equal(&A, &b));
    cr_expect_neq(A.params, b.params);
    cJSON_ReplaceItemInObject(b.params, "date", cJSON_CreateString("2026-01-01"));
    cr_expect_not(act_equal(&A, &b));
    act_action_clear(&b);
    act_action_clear(&b); /* clearing twice is safe */
    cr_expect_eq(b.kind, ACT_NONE);
}

Test(act_parse, equal_distinguishes_fields)
{
    act_action b;
    act_action_init(&b);
    cr_assert_eq(act_parse_text("type [12] [Ada] [1]", &A, &E), EOUS_OK);
    cr_assert_eq(act_parse_tool_call("type", "{\"id\":12,\"text\":\"Ada\",\"enter\":true}", &b, &E), EOUS_OK);
    cr_expect(act_equal(&A, &b), "the same action from two syntaxes");
    b.enter = 0;
    cr_expect_not(act_equal(&A, &b));
    act_action_clear(&b);
    cr_assert_eq(act_parse_text("type [13] [Ada] [1]", &b, &E), EOUS_OK);
    cr_expect_not(act_equal(&A, &b));
    act_action_clear(&b);
    cr_assert_eq(act_parse_text("call [c3] [clear]", &A, &E), EOUS_OK);
    cr_assert_eq(act_parse_tool_call("call", "{\"k\":\"c3\",\"tool\":\"clear\"}", &b, &E), EOUS_OK);
    cr_expect(act_equal(&A, &b));
    act_action_clear(&b);
}

Test(act_parse, format_of_every_kind)
{
    A.kind = ACT_GO_BACK;
    expect_format(&A, "go_back");
    A.kind = ACT_TAB_FOCUS;
    A.index = 2;
    expect_format(&A, "tab_focus [2]");
    A.kind = ACT_STOP;
    A.text = strdup("");
    expect_format(&A, "stop []");
    A.kind = ACT_CALL;
    A.target = strdup("c3");
    A.tool = strdup("clear");
    expect_format(&A, "call [c3] [clear] [{}]");
}

/* ---- tool calls ----------------------------------------------------------- */

Test(act_parse, tool_calls_of_every_kind)
{
    tool_ok("call", "{\"k\":\"c3\",\"tool\":\"setValue\",\"params\":{\"date\":\"2025-12-31\"}}",
            "call [c3] [setValue] [{\"date\":\"2025-12-31\"}]");
    tool_ok("click", "{\"id\":12}", "click [12]");
    tool_ok("type", "{\"id\":\"7\",\"text\":\"Ada Lovelace\",\"enter\":false}", "type [7] [Ada Lovelace] [0]");
    tool_ok("hover", "{\"id\":\"[44]\"}", "hover [44]");
    tool_ok("press", "{\"keys\":\"Control+a\"}", "press [Control+a]");
    tool_ok("scroll", "{\"direction\":\"down\"}", "scroll [down]");
    tool_ok("select", "{\"id\":9,\"option\":\"France\"}", "select [9] [France]");
    tool_ok("goto", "{\"url\":\"http://localhost:7770/orders\"}", "goto [http://localhost:7770/orders]");
    tool_ok("go_back", "{}", "go_back");
    tool_ok("go_forward", "", "go_forward");
    tool_ok("tab_focus", "{\"index\":1}", "tab_focus [1]");
    tool_ok("close_tab", NULL, "close_tab");
    tool_ok("stop", "{\"answer\":\"3 orders [pending]\"}", "stop [3 orders [pending]]");
}

Test(act_parse, tool_call_ids_in_all_forms)
{
    tool_ok("click", "{\"id\":12}", "click [12]");
    tool_ok("click", "{\"id\":\"12\"}", "click [12]");
    tool_ok("click", "{\"id\":\"[12]\"}", "click [12]");
    tool_ok("click", "{\"id\":\" c3 \"}", "click [c3]");
    tool_ok("call", "{\"k\":\"[c3]\",\"tool\":\"open\"}", "call [c3] [open] [{}]");
    /* a component key that is not an id token is kept as written */
    tool_ok("call", "{\"k\":\"Check-in date\",\"tool\":\"open\",\"params\":null}",
            "call [Check-in date] [open] [{}]");
}

Test(act_parse, tool_call_params_as_string_or_object)
{
    tool_ok("call", "{\"k\":\"c3\",\"tool\":\"setValue\",\"params\":\"{\\\"date\\\":\\\"2025-12-31\\\"}\"}",
            "call [c3] [setValue] [{\"date\":\"2025-12-31\"}]");
    cr_expect(cJSON_IsObject(A.params));
    tool_ok("call", "{\"k\":\"c3\",\"tool\":\"setValue\",\"params\":\"\"}", "call [c3] [setValue] [{}]");
    tool_bad("call", "{\"k\":\"c3\",\"tool\":\"setValue\",\"params\":\"[1,2]\"}", "params must be a JSON object");
    tool_bad("call", "{\"k\":\"c3\",\"tool\":\"setValue\",\"params\":\"{\\\"date\\\":\"}", "params");
    tool_bad("call", "{\"k\":\"c3\",\"tool\":\"setValue\",\"params\":5}", "got a number");
    /* a name given twice has no single meaning (the fuzzer's find: copies compared unequal) */
    tool_bad("call", "{\"k\":\"c3\",\"tool\":\"t\",\"params\":{\"a\":1,\"a\":2}}",
             "params has the key \"a\" more than once");
    tool_bad("call", "{\"k\":\"c3\",\"tool\":\"t\",\"params\":\"{\\\"o\\\":{\\\"b\\\":1,\\\"b\\\":1}}\"}",
             "the key \"b\" more than once");
}

Test(act_parse, tool_call_value_coercions)
{
    tool_ok("type", "{\"id\":3,\"text\":10115,\"enter\":1}", "type [3] [10115] [1]");
    tool_ok("type", "{\"id\":3,\"text\":\"x\"}", "type [3] [x] [0]");
    tool_ok("type", "{\"id\":3,\"text\":\"x\",\"enter\":\"true\"}", "type [3] [x] [1]");
    tool_ok("scroll", "{\"direction\":\"UP\"}", "scroll [up]");
    tool_ok("scroll", "{\"direction\":\"direction=down\"}", "scroll [down]");
    tool_ok("tab_focus", "{\"index\":\"0\"}", "tab_focus [0]");
    tool_ok("stop", "{\"answer\":42}", "stop [42]");
    tool_ok("stop", "{\"answer\":\"\"}", "stop []");
    tool_ok("click", "{\"id\":12.0}", "click [12]");
}

Test(act_parse, tool_call_errors_say_what_was_expected)
{
    tool_bad("type", "{\"id\":3}",
             "type: expected {\"id\": <element id>, \"text\": <string>, \"enter\": <bool>, \"clear\"?: <bool>}, "
             "missing \"text\"");
    tool_bad("type", "{\"id\":3,\"text\":\"a\",\"enter\":\"maybe\"}", "\"enter\" must be true or false");
    tool_bad("type", "{\"id\":3,\"text\":[\"a\"]}", "\"text\" must be a string, got a array");
    tool_bad("click", "{}", "missing \"id\"");
    tool_bad("click", "{\"id\":\"the button\"}", "must be an element id like 12");
    tool_bad("click", "{\"id\":-1}", "element id");
    tool_bad("click", "{\"id\":1.5}", "element id");
    tool_bad("click", "{\"id\":true}", "got a boolean");
    tool_bad("click", "{\"id\":12,\"reason\":\"x\"}", "unknown key \"reason\"");
    tool_bad("go_back", "{\"steps\":2}", "unknown key \"steps\"");
    tool_bad("click", "[12]", "arguments must be a JSON object, got a array");
    tool_bad("click", "{\"id\": 12", "invalid JSON at line 1");
    tool_bad("scroll", "{\"direction\":\"left\"}", "\"left\"");
    tool_bad("tab_focus", "{\"index\":-2}", "tab number");
    tool_bad("goto", "{\"url\":\"\"}", "\"url\" must be a non-empty string");
    tool_bad("press", "{}", "missing \"keys\"");
    tool_bad("select", "{\"id\":1}", "missing \"option\"");
    tool_bad("stop", "{}", "missing \"answer\"");
    tool_bad("call", "{\"tool\":\"x\"}", "missing \"k\"");
    tool_bad("call", "{\"k\":\"c1\"}", "missing \"tool\"");
    tool_bad("call", "{\"k\":\"c1\",\"tool\":\"\"}", "\"tool\" must be a tool name");
    tool_bad("fly", "{}", "unknown tool \"fly\"; expected one of call, click");
    tool_bad(NULL, "{}", "unknown tool \"\"");
}

Test(act_parse, truncated_arguments_are_a_parse_error)
{
    /* what a model sends when it ran out of tokens mid-call */
    tool_bad("type", "{\"id\": 5, \"text\": \"Hello wor", "invalid JSON at line 1");
}

/* ---- WebArena text -------------------------------------------------------- */

Test(act_parse, text_every_kind)
{
    text_ok("click [1234]", "click [1234]");
    text_ok("type [12] [Ada Lovelace] [0]", "type [12] [Ada Lovelace] [0]");
    text_ok("hover [5]", "hover [5]");
    text_ok("press [Control+a]", "press [Control+a]");
    text_ok("scroll [down]", "scroll [down]");
    text_ok("scroll [direction=up]", "scroll [up]");
    text_ok("select [9] [France]", "select [9] [France]");
    text_ok("goto [http://localhost:7770/a?b=[1]]", "goto [http://localhost:7770/a?b=[1]]");
    text_ok("go_back", "go_back");
    text_ok("go_forward", "go_forward");
    text_ok("tab_focus [1]", "tab_focus [1]");
    text_ok("close_tab", "close_tab");
    text_ok("stop [Ada]", "stop [Ada]");
    text_ok("call [c3] [setValue] [{\"date\":\"2025-12-31\"}]", "call [c3] [setValue] [{\"date\":\"2025-12-31\"}]");
}

Test(act_parse, text_type_enter_flag)
{
    text_ok("type [12] [Ada]", "type [12] [Ada] [1]"); /* WebArena default */
    text_ok("type [12] [Ada] [1]", "type [12] [Ada] [1]");
    text_ok("type [12] [Ada]   [0]", "type [12] [Ada] [0]");
    text_ok("type [12] [1]", "type [12] [1] [1]"); /* the only group is the text */
    text_ok("type [12] [] [0]", "type [12] [] [0]");
    text_ok("type [12] [a [b] c] [0]", "type [12] [a [b] c] [0]");
    cr_expect_str_eq(A.text, "a [b] c");
    text_ok("type [12] [Ada] [press_enter_after=0]", "type [12] [Ada] [0]");
    text_ok("type [12] [Ada] [ 1 ]", "type [12] [Ada] [1]");
    text_ok("type [12] [x] [1] [0]", "type [12] [x] [1] [0]");
    cr_expect_str_eq(A.text, "x] [1");
}

Test(act_parse, text_stop_answers)
{
    text_ok("stop []", "stop []");
    cr_expect_str_eq(A.text, "");
    text_ok("stop [The answer is [42] items]", "stop [The answer is [42] items]");
    cr_expect_str_eq(A.text, "The answer is [42] items");
    text_bad("stop", "stop: expected stop [answer], missing [answer]");
}

Test(act_parse, text_call_params_forms)
{
    text_ok("call [c3] [clear]", "call [c3] [clear] [{}]");
    text_ok("call [c3] [clear] []", "call [c3] [clear] [{}]");
    text_ok("call [c1] [filter] [{\"tags\":[\"a\",\"b\"]}]", "call [c1] [filter] [{\"tags\":[\"a\",\"b\"]}]");
    text_ok("call [c3] [setValue] [\"{\\\"date\\\":\\\"2025-12-31\\\"}\"]",
            "call [c3] [setValue] [{\"date\":\"2025-12-31\"}]");
    text_bad("call [c3] [setValue] [{\"date\":]", "call: expected call [k] [tool]");
    text_bad("call [c3] [setValue] [[1]]", "params must be a JSON object, got a array");
    text_bad("call [c3]", "missing [tool]");
    text_bad("call [c3] [t] [[{\"x\":1},{\"k\":1,\"k\":2}]]", "params must be a JSON object");
    text_bad("call [c3] [t] [{\"l\":[{\"k\":1,\"k\":2}]}]", "params has the key \"k\" more than once");
}

Test(act_parse, text_takes_the_last_fence)
{
    text_ok("Let's think step-by-step. The search box is [12]. I typed ```type [3] [x]``` before.\n"
            "In summary, the next action I will perform is ```click [1234]```",
            "click [1234]");
    text_ok("In summary, the next action I will perform is ```\nstop [N/A]\n```", "stop [N/A]");
    text_ok("```text\nscroll [down]\n```", "scroll [down]");
    /* an answer cut off by max_tokens still has its action */
    text_ok("I will now ```click [7]", "click [7]");
}

Test(act_parse, text_without_fence_first_action_line)
{
    text_ok("I should look further down.\nscroll [down]\nthen click [3]", "scroll [down]");
    text_ok("In summary, the next action I will perform is click [88].", "click [88]");
    text_ok("I need to stop here.\ngo_back", "go_back");
    text_ok("CLICK [5]", "click [5]");
}

Test(act_parse, text_errors)
{
    text_bad("", "empty answer");
    text_bad("   \n  ", "empty answer");
    text_bad("I am not sure what to do.", "no action found");
    text_bad("``` ```", "fence is empty");
    text_bad("```fly [3]```", "unknown action \"fly\"");
    text_bad("```click [the button]```", "is not an element id");
    text_bad("```click```", "click: expected click [id], missing [id]");
    text_bad("```click(12)```", "click: expected click [id], got \"click(12)\"");
    text_bad("```scroll [left]```", "scroll: expected scroll [up|down], got [left]");
    text_bad("```tab_focus [x]```", "tab index must be a number");
    text_bad("```press []```", "key combination is empty");
    text_bad("```goto```", "missing [url]");
    text_bad("```select [3]```", "missing [option]");
    text_bad("type [12]", "type: expected type [id] [text] [0|1], missing [text]");
    text_bad(NULL, "empty answer");
}

/* ---- script steps --------------------------------------------------------- */

Test(act_parse, script_every_kind)
{
    step_ok("{\"call\": \"Check-in\", \"tool\": \"setValue\", \"params\": {\"date\": \"2025-12-31\"}}",
            "call [Check-in] [setValue] [{\"date\":\"2025-12-31\"}]");
    step_ok("{\"click\": \"button 'Search'\"}", "click [button 'Search']");
    step_ok("{\"type\": \"textbox 'Full name'\", \"text\": \"Ada Lovelace\", \"enter\": false}",
            "type [textbox 'Full name'] [Ada Lovelace] [0]");
    cr_expect_eq(A.clear, 1);
    step_ok("{\"type\": \"css=#q\", \"text\": \"{{secret:PW}}\", \"enter\": true, \"clear\": false}",
            "type [css=#q] [{{secret:PW}}] [1]");
    cr_expect_eq(A.clear, 0);
    step_ok("{\"select\": \"combobox 'Country'\", \"option\": \"France\"}", "select [combobox 'Country'] [France]");
    step_ok("{\"hover\": \"link 'Menu' #2\"}", "hover [link 'Menu' #2]");
    step_ok("{\"press\": \"Enter\"}", "press [Enter]");
    step_ok("{\"scroll\": \"down\"}", "scroll [down]");
    step_ok("{\"goto\": \"__PLAYGROUND__/orders\"}", "goto [__PLAYGROUND__/orders]");
    step_ok("{\"go_back\": true}", "go_back");
    step_ok("{\"go_forward\": true}", "go_forward");
    step_ok("{\"tab_focus\": 1}", "tab_focus [1]");
    step_ok("{\"close_tab\": true}", "close_tab");
    step_ok("{\"stop\": \"3 orders\"}", "stop [3 orders]");
    step_ok("{\"stop\": \"\"}", "stop []");
    step_ok("{\"call\": \"Rooms\", \"tool\": \"clear\"}", "call [Rooms] [clear] [{}]");
    step_ok("{\"call\": \"c\", \"tool\": \"t\", \"params\": \"{\\\"a\\\":1}\"}", "call [c] [t] [{\"a\":1}]");
}

Test(act_parse, script_errors_name_the_problem)
{
    step_bad("{\"click\": \"x\", \"colour\": \"red\"}",
             "click step: expected {\"click\": <target>}, unknown key \"colour\"");
    step_bad("{\"click\": \"x\", \"type\": \"y\"}", "exactly one action key, found \"click\" and \"type\"");
    step_bad("{\"tap\": \"x\"}", "found only \"tap\"");
    step_bad("{}", "the object is empty");
    step_bad("[1]", "got a array");
    step_bad("{\"type\": \"x\"}", "missing \"text\"");
    step_bad("{\"type\": \"x\", \"text\": \"a\", \"enter\": \"yes\"}", "\"enter\" must be true or false");
    step_bad("{\"click\": 12}", "the target must be a non-empty string, got a number");
    step_bad("{\"click\": \"\"}", "got a empty string");
    step_bad("{\"call\": \"x\"}", "missing \"tool\"");
    step_bad("{\"call\": \"x\", \"tool\": \"t\", \"params\": [1]}", "params must be a JSON object");
    step_bad("{\"call\": \"x\", \"tool\": \"t\", \"params\": {\"d\": 1, \"d\": 1}}", "the key \"d\" more than once");
    step_bad("{\"call\": \"x\", \"tool\": \"t\", \"params\": \"{bad\"}", "invalid JSON");
    step_bad("{\"scroll\": \"sideways\"}", "\"sideways\"");
    step_bad("{\"go_back\": false}", "got false");
    step_bad("{\"tab_focus\": \"first\"}", "tab number");
    step_bad("{\"press\": \"\"}", "empty string");
    step_bad("{\"select\": \"x\"}", "missing \"option\"");
    step_bad("{\"stop\": [\"a\"]}", "got a array");
    /* fuzz_act_parse: two "of" in an expect parsed, and its copy compared unequal to it */
    step_bad("{\"expect\": {\"value\": 23, \"of\": \"a\", \"of\": \"b\"}}", "the key \"of\" more than once");
    step_bad("{\"wait\": {\"text\": \"a\", \"text\": \"b\"}}", "the key \"text\" more than once");
}

Test(act_parse, reuse_without_leaks)
{
    /* parsers clear what the action held before (ASan would see a leak otherwise) */
    cr_assert_eq(act_parse_text("call [c3] [setValue] [{\"a\":1}]", &A, &E), EOUS_OK);
    cr_assert_eq(act_parse_text("stop [x]", &A, &E), EOUS_OK);
    cr_expect_null(A.params);
    cr_expect_null(A.target);
    cr_assert_neq(act_parse_text("click [bad id]", &A, &E), EOUS_OK);
    cr_expect_null(A.text);
}

/* type's optional clear: false types after what the field holds (a line added to a page's text) */
Test(act_parse, tool_type_takes_an_optional_clear)
{
    act_action a;
    act_action_init(&a);
    eous_err err;
    cr_assert_eq(act_parse_tool_call("type", "{\"id\":\"5\",\"text\":\"x\",\"enter\":false,\"clear\":false}", &a, &err),
                 EOUS_OK, "%s", err.msg);
    cr_expect_eq(a.clear, 0);
    act_action_clear(&a);
    cr_assert_eq(act_parse_tool_call("type", "{\"id\":\"5\",\"text\":\"x\",\"enter\":false}", &a, &err), EOUS_OK);
    cr_expect_eq(a.clear, 1, "cleared unless told otherwise");
    act_action_clear(&a);
    cr_expect_eq(act_parse_tool_call("type", "{\"id\":\"5\",\"text\":\"x\",\"enter\":false,\"clear\":\"no\"}", &a, &err),
                 EOUS_E_PARSE);
    cr_expect(strstr(err.msg, "clear"), "%s", err.msg);
    cr_expect_eq(act_parse_tool_call("click", "{\"id\":\"5\",\"clear\":false}", &a, &err), EOUS_E_PARSE,
                 "clear is type's alone");
    act_action_clear(&a);
}

/* ---- RPA steps: wait, read, expect, upload, download; retries and timeout_ms ---- */

Test(act_parse, script_rpa_steps)
{
    step_ok("{\"wait\": {\"text\": \"Saved\", \"timeout_ms\": 5000}}", "wait [{\"text\":\"Saved\",\"timeout_ms\":5000}]");
    step_ok("{\"wait\": {\"target\": \"button 'Export'\"}}", "wait [{\"target\":\"button 'Export'\"}]");
    step_ok("{\"wait\": {\"url\": \"/done\"}}", "wait [{\"url\":\"/done\"}]");
    step_ok("{\"wait\": {\"gone\": \"Loading\"}}", "wait [{\"gone\":\"Loading\"}]");
    step_ok("{\"wait\": {\"network_idle\": true}}", "wait [{\"network_idle\":true}]");
    step_ok("{\"read\": \"table 'Orders'\", \"as\": \"orders\", \"what\": \"rows\"}",
            "read [table 'Orders'] [{\"as\":\"orders\",\"what\":\"rows\"}]");
    step_ok("{\"read\": \"css=#total\", \"as\": \"total\"}", "read [css=#total] [{\"as\":\"total\",\"what\":\"text\"}]");
    step_ok("{\"read\": \"Check-in\", \"as\": \"d\", \"what\": \"state\"}", "read [Check-in] [{\"as\":\"d\",\"what\":\"state\"}]");
    step_ok("{\"expect\": {\"text\": \"Saved\"}}", "expect [{\"text\":\"Saved\"}]");
    step_ok("{\"expect\": {\"url\": \"/orders\"}}", "expect [{\"url\":\"/orders\"}]");
    step_ok("{\"expect\": {\"value\": 4, \"of\": \"spinbutton 'Guests'\"}}",
            "expect [{\"value\":4,\"of\":\"spinbutton 'Guests'\"}]");
    step_ok("{\"expect\": {\"count\": 23, \"of\": \"orders\"}}", "expect [{\"count\":23,\"of\":\"orders\"}]");
    step_ok("{\"upload\": \"button 'Attachment'\", \"files\": [\"a.csv\", \"sub/b.png\"]}",
            "upload [button 'Attachment'] [{\"files\":[\"a.csv\",\"sub/b.png\"]}]");
    step_ok("{\"download\": \"link 'Export'\"}", "download [link 'Export'] [{}]");
    /* retries and timeout_ms go on any step; they do not show in the action's text */
    step_ok("{\"click\": \"button 'Save'\", \"retries\": 3, \"timeout_ms\": 2000}", "click [button 'Save']");
    cr_expect_eq(A.retries, 3);
    cr_expect_eq(A.timeout_ms, 2000);
    step_ok("{\"download\": \"link 'Export'\", \"timeout_ms\": 30000}", "download [link 'Export'] [{}]");
    cr_expect_eq(A.timeout_ms, 30000);
}

Test(act_parse, script_rpa_errors_name_the_problem)
{
    step_bad("{\"wait\": \"Saved\"}", "wait step: expected {\"wait\": {\"text\"");
    step_bad("{\"wait\": {}}", "no condition");
    step_bad("{\"wait\": {\"text\": \"a\", \"url\": \"b\"}}", "one condition per wait");
    step_bad("{\"wait\": {\"text\": \"a\", \"timeout_ms\": -1}}", "\"timeout_ms\" must be a whole number");
    step_bad("{\"wait\": {\"text\": \"a\", \"timeout_ms\": 9999999}}", "from 1 to 600000");
    step_bad("{\"wait\": {\"network_idle\": 1}}", "\"network_idle\" must be true");
    step_bad("{\"wait\": {\"colour\": \"red\"}}", "unknown key \"colour\"");
    step_bad("{\"read\": \"table 'T'\"}", "missing \"as\"");
    step_bad("{\"read\": \"table 'T'\", \"as\": \"a b\"}", "\"as\" must be letters");
    step_bad("{\"read\": \"table 'T'\", \"as\": \"t\", \"what\": \"cells\"}", "\"what\" must be rows, value, text or state");
    step_bad("{\"read\": \"\", \"as\": \"t\"}", "non-empty string");
    step_bad("{\"expect\": {\"count\": 3}}", "\"count\" needs \"of\"");
    step_bad("{\"expect\": {\"text\": \"a\", \"of\": \"x\"}}", "\"text\" takes no \"of\"");
    step_bad("{\"expect\": {\"count\": 1.5, \"of\": \"x\"}}", "a whole number from 0");
    step_bad("{\"expect\": {\"text\": \"a\", \"url\": \"b\"}}", "one check per expect");
    step_bad("{\"expect\": {}}", "no check");
    step_bad("{\"upload\": \"x\"}", "\"files\" must be a list of 1 to 16 file names");
    step_bad("{\"upload\": \"x\", \"files\": []}", "\"files\" must be a list");
    step_bad("{\"upload\": \"x\", \"files\": [\"../etc/passwd\"]}", "'../etc/passwd' is outside the files folder");
    step_bad("{\"upload\": \"x\", \"files\": [\"/etc/passwd\"]}", "'/etc/passwd' is outside the files folder");
    step_bad("{\"upload\": \"x\", \"files\": [\"a/../../b\"]}", "is outside the files folder");
    step_bad("{\"download\": 3}", "the target must be a non-empty string");
    step_bad("{\"click\": \"x\", \"retries\": 11}", "\"retries\" must be a whole number from 0 to 10");
    step_bad("{\"click\": \"x\", \"retries\": \"2\"}", "\"retries\" must be a whole number");
    step_bad("{\"click\": \"x\", \"timeout_ms\": 0}", "\"timeout_ms\" must be a whole number");
}

/* read is a model tool too (tool call and WebArena text); the other RPA steps are script steps only */
Test(act_parse, model_reads_but_does_not_wait)
{
    tool_ok("read", "{\"id\": \"c3\", \"as\": \"rows\", \"what\": \"rows\"}", "read [c3] [{\"as\":\"rows\",\"what\":\"rows\"}]");
    tool_ok("read", "{\"id\": 12, \"as\": \"total\", \"what\": \"text\"}", "read [12] [{\"as\":\"total\",\"what\":\"text\"}]");
    tool_bad("read", "{\"id\": \"12\", \"as\": \"t\", \"what\": \"html\"}", "\"what\" must be rows, value, text or state");
    tool_bad("read", "{\"id\": \"12\", \"what\": \"text\"}", "\"as\"");
    tool_bad("wait", "{}", "unknown tool \"wait\"");
    tool_bad("upload", "{}", "unknown tool \"upload\"");
    act_action_clear(&A);
    cr_assert_eq(act_parse_text("read [12] [total] [text]", &A, &E), EOUS_OK, "%s", E.msg);
    expect_format(&A, "read [12] [{\"as\":\"total\",\"what\":\"text\"}]");
    act_action_clear(&A);
    cr_expect_neq(act_parse_text("read [12] [total]", &A, &E), EOUS_OK);
    cr_expect_neq(act_parse_text("expect [x]", &A, &E), EOUS_OK, "expect is not a model action");
    /* copies keep the step's options */
    act_action_clear(&A);
    cJSON *j = cJSON_Parse("{\"expect\": {\"count\": 2, \"of\": \"x\"}, \"retries\": 2}");
    cr_assert_eq(act_parse_script_step(j, &A, &E), EOUS_OK, "%s", E.msg);
    cJSON_Delete(j);
    act_action c;
    cr_assert_eq(act_action_copy(&c, &A, &E), EOUS_OK);
    cr_expect(act_equal(&c, &A));
    c.retries = 0;
    cr_expect(!act_equal(&c, &A), "retries count in equality");
    act_action_clear(&c);
}

/* tests/llm/test_llm_api.c — both providers' request formats and every response
 * shape, against the HTTPS mock (tests/mock/llm_mock.mjs). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"
#include "mock/llm_mock.h"

#define OPENAI_KEY "sk-test-openai-KEY-0123456789"
#define ANTHROPIC_KEY "sk-ant-test-KEY-9876543210"

static llm_mock M;
static llm_client *C;
static act_action A;
static llm_usage U;
static eous_err E;

static void setup(void)
{
    cr_assert_eq(mock_setup(&M), 0);
    setenv("OPENAI_API_KEY", OPENAI_KEY, 1);
    setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY, 1);
    unsetenv("OPENAI_BASE_URL");
    unsetenv("EOUS_LLM_CA");
    act_action_init(&A);
    memset(&U, 0, sizeof U);
    eous_err_clear(&E);
    C = NULL;
}

static void teardown(void)
{
    act_action_clear(&A);
    llm_client_free(C);
    mock_teardown(&M);
}

TestSuite(llm_api, .init = setup, .fini = teardown);

/* Starts the mock with these responses and a client for provider:model. */
static void start(const char *responses, const char *provider, const char *model, int use_tools)
{
    char scen[16384];
    snprintf(scen, sizeof scen, "{\"responses\": %s}", responses);
    cr_assert_eq(mock_start(&M, scen, 0), 0);
    llm_opts o;
    llm_opts_init(&o);
    o.provider = provider;
    o.model = model;
    o.base_url = M.base;
    o.ca_file = M.ca;
    o.use_tools = use_tools;
    o.max_retries = 0;
    cr_assert_eq(llm_client_new(&o, &C, &E), EOUS_OK, "%s", E.msg);
}

static llm_step_input step(const char *name)
{
    static llm_history_item h[] = {{"click [3]", "ok"}};
    perc_mode mode;
    cr_assert_eq(perc_mode_parse(name, &mode), 0, "%s", name);
    llm_step_input in = {.objective = "Find the cheapest room",
                         .url = "http://127.0.0.1:7770/",
                         .observation = "[1] RootWebArea 'Rooms'\n\t[12] button 'Search'\n\t[c3] datepicker 'Check-in'",
                         .mode = mode,
                         .history = h,
                         .n_history = 1};
    return in;
}

static eous_rc next(const char *mode)
{
    llm_step_input in = step(mode);
    return llm_next_action(C, &in, &A, &U, &E);
}

static char *formatted(void)
{
    static char buf[512];
    char *s = act_format(&A);
    snprintf(buf, sizeof buf, "%s", s ? s : "(null)");
    free(s);
    return buf;
}

/* The only request the mock saw, parsed body in *body (caller deletes). */
static cJSON *only_request(cJSON **body)
{
    cJSON *reqs = mock_requests(&M);
    cr_assert_eq(cJSON_GetArraySize(reqs), 1, "exactly one request");
    cJSON *r = cJSON_DetachItemFromArray(reqs, 0);
    cJSON_Delete(reqs);
    *body = cJSON_Parse(eous_json_str(r, "body"));
    cr_assert_not_null(*body, "request body is JSON");
    return r;
}

static int has_tool(const cJSON *tools, const char *name, int openai)
{
    for (const cJSON *t = tools ? tools->child : NULL; t; t = t->next) {
        const char *n = openai ? eous_json_str(eous_json_obj(t, "function"), "name") : eous_json_str(t, "name");
        if (n && !strcmp(n, name))
            return 1;
    }
    return 0;
}

/* ---- OpenAI ------------------------------------------------------------------- */

Test(llm_api, openai_request_and_tool_call)
{
    start("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"call\",\"args\":{\"k\":\"c3\",\"tool\":\"setValue\","
          "\"params\":{\"date\":\"2025-12-31\"}}}],\"usage\":{\"in\":1000,\"out\":50,\"cached\":400}}]",
          "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "call [c3] [setValue] [{\"date\":\"2025-12-31\"}]");
    cr_expect_eq(U.prompt_tokens, 1000);
    cr_expect_eq(U.completion_tokens, 50);
    cr_expect_eq(U.cached_tokens, 400);
    cr_expect_float_eq(U.cost_usd, (600 * 2.50 + 400 * 1.25 + 50 * 10.0) / 1e6, 1e-12);
    cr_expect_eq(U.retries, 0);
    cr_expect_eq(U.calls, 1);
    cr_expect_gt(U.latency_ms, 0);

    cJSON *body;
    cJSON *r = only_request(&body);
    cr_expect_str_eq(eous_json_str(r, "method"), "POST");
    cr_expect_str_eq(eous_json_str(r, "path"), "/chat/completions");
    const cJSON *h = eous_json_obj(r, "headers");
    cr_expect_str_eq(eous_json_str(h, "authorization"), "Bearer " OPENAI_KEY);
    cr_expect_str_eq(eous_json_str(h, "content-type"), "application/json");
    cr_expect_null(eous_json_str(h, "x-api-key"));
    cr_expect_str_eq(eous_json_str(body, "model"), "gpt-4o");
    cr_expect_str_eq(eous_json_str(body, "tool_choice"), "required");
    cr_expect_eq(eous_json_bool(body, "parallel_tool_calls", 1), 0);
    cr_expect_eq(eous_json_bool(body, "stream", 1), 0);
    cr_expect_eq(eous_json_int(body, "max_tokens", 0), 1024);
    cr_expect_float_eq(eous_json_num(body, "temperature", -1), 0.0, 1e-12);
    const cJSON *msgs = eous_json_arr(body, "messages");
    cr_assert_eq(cJSON_GetArraySize(msgs), 2);
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(msgs, 0), "role"), "system");
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(msgs, 1), "role"), "user");
    const char *user = eous_json_str(cJSON_GetArrayItem(msgs, 1), "content");
    cr_expect(strstr(user, "OBJECTIVE: Find the cheapest room") != NULL);
    cr_expect(strstr(user, "<observation>\n[1] RootWebArea 'Rooms'") != NULL);
    const cJSON *tools = eous_json_arr(body, "tools");
    cr_expect_eq(cJSON_GetArraySize(tools), 14, "call + 11 atomic + read + stop");
    const cJSON *t0 = cJSON_GetArrayItem(tools, 0);
    cr_expect_str_eq(eous_json_str(t0, "type"), "function");
    const cJSON *params = eous_json_obj(eous_json_obj(t0, "function"), "parameters");
    cr_expect_str_eq(eous_json_str(params, "type"), "object");
    cr_expect_not_null(eous_json_obj(eous_json_obj(params, "properties"), "tool"));
    cr_expect(has_tool(tools, "call", 1) && has_tool(tools, "click", 1) && has_tool(tools, "stop", 1));
    cJSON_Delete(body);
    cJSON_Delete(r);
}

Test(llm_api, openai_atomic_mode_offers_no_call)
{
    start("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":\"{\\\"id\\\": 12}\"}]}]", "openai",
          "gpt-4o", 1);
    cr_assert_eq(next("atomic"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "click [12]");
    cJSON *body;
    cJSON *r = only_request(&body);
    const cJSON *tools = eous_json_arr(body, "tools");
    cr_expect_eq(cJSON_GetArraySize(tools), 13, "11 atomic + read + stop");
    cr_expect_not(has_tool(tools, "call", 1));
    cJSON_Delete(body);
    cJSON_Delete(r);
}

Test(llm_api, openai_text_mode_webarena_answer)
{
    start("[{\"kind\":\"text\",\"text\":\"Let's think step-by-step. The search button is [12]. In summary, the "
          "next action I will perform is ```click [12]```\"}]",
          "openai", "gpt-4o", 0);
    cr_assert_eq(next("atomic"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "click [12]");
    cJSON *body;
    cJSON *r = only_request(&body);
    cr_expect_null(cJSON_GetObjectItem(body, "tools"), "no tools in the text variant");
    cr_expect_null(cJSON_GetObjectItem(body, "tool_choice"));
    const char *sys = eous_json_str(cJSON_GetArrayItem(eous_json_arr(body, "messages"), 0), "content");
    cr_expect(strstr(sys, "In summary, the next action I will perform is") != NULL);
    cJSON_Delete(body);
    cJSON_Delete(r);
}

Test(llm_api, openai_reasoning_model_parameters)
{
    start("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"go_back\",\"args\":\"{}\"}]}]", "openai", "o4-mini", 1);
    cr_assert_eq(next("pruned"), EOUS_OK, "%s", E.msg);
    cJSON *body;
    cJSON *r = only_request(&body);
    cr_expect_eq(eous_json_int(body, "max_completion_tokens", 0), 1024);
    cr_expect_null(cJSON_GetObjectItem(body, "max_tokens"));
    cr_expect_null(cJSON_GetObjectItem(body, "temperature"));
    cJSON_Delete(body);
    cJSON_Delete(r);
}

Test(llm_api, openai_refusal)
{
    start("[{\"kind\":\"refusal\",\"text\":\"I can't help with that.\"}]", "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_E_PARSE);
    cr_expect_str_eq(E.code, "refusal");
    cr_expect(strstr(E.msg, "the model refused: I can't help with that.") != NULL, "%s", E.msg);
    cr_expect_eq(A.kind, ACT_NONE);
    cr_expect_eq(U.prompt_tokens, 100, "usage is filled even when the answer is unusable");
}

Test(llm_api, openai_empty_answer)
{
    start("[{\"kind\":\"text\",\"text\":\"  \"}]", "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_E_PARSE);
    cr_expect_str_eq(E.code, "empty");
    cr_expect(strstr(E.msg, "empty answer; expected one action (call exactly one of the tools)") != NULL, "%s",
              E.msg);
}

Test(llm_api, openai_truncated_arguments)
{
    start("[{\"kind\":\"tool\",\"finish\":\"length\",\"calls\":[{\"name\":\"type\",\"args\":\"{\\\"id\\\": "
          "\\\"7\\\", \\\"text\\\": \\\"Ada Lov\"}]}]",
          "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_E_PARSE);
    cr_expect_str_eq(E.code, "truncated");
    cr_expect(strstr(E.msg, "cut off at max_tokens (1024) inside the arguments of type") != NULL, "%s", E.msg);
}

Test(llm_api, openai_several_tool_calls_take_the_first)
{
    start("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":{\"id\":\"5\"}},{\"name\":\"stop\","
          "\"args\":{\"answer\":\"x\"}},{\"name\":\"scroll\",\"args\":{\"direction\":\"down\"}}]}]",
          "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "click [5]");
    cr_expect_eq(U.extra_tool_calls, 2);
}

Test(llm_api, openai_bad_tool_arguments_are_fed_back)
{
    start("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"type\",\"args\":{\"id\":\"7\"}}]}]", "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_E_PARSE);
    cr_expect_str_eq(E.code, "syntax");
    cr_expect(strstr(E.msg, "type: expected {\"id\": <element id>, \"text\": <string>, \"enter\": <bool>, "
                            "\"clear\"?: <bool>}, missing \"text\"") != NULL,
              "%s", E.msg);
}

Test(llm_api, openai_text_instead_of_tool_call)
{
    start("[{\"kind\":\"text\",\"text\":\"I'll scroll. ```scroll [down]```\"},"
          "{\"kind\":\"text\",\"text\":\"I am not sure.\"}]",
          "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "scroll [down]");
    cr_assert_eq(next("hybrid"), EOUS_E_PARSE);
    cr_expect(strstr(E.msg, "no tool call in the answer; call exactly one of the tools") != NULL, "%s", E.msg);
}

Test(llm_api, openai_401_is_reported_not_retried)
{
    char resp[512];
    snprintf(resp, sizeof resp,
             "[{\"kind\":\"error\",\"status\":401,\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\","
             "\"message\":\"Incorrect API key provided: %s.\"},{\"kind\":\"text\",\"text\":\"stop [x]\"}]",
             OPENAI_KEY);
    char scen[1024];
    snprintf(scen, sizeof scen, "{\"responses\": %s}", resp);
    cr_assert_eq(mock_start(&M, scen, 0), 0);
    llm_opts o;
    llm_opts_init(&o);
    o.model = "gpt-4o";
    o.base_url = M.base;
    o.ca_file = M.ca;
    o.max_retries = 3;
    cr_assert_eq(llm_client_new(&o, &C, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(next("hybrid"), EOUS_E_INFRA);
    cr_expect_eq(eous_rc_exit_code(E.rc), 3);
    cr_expect_eq(E.http_status, 401);
    cr_expect_str_eq(E.code, "invalid_request_error");
    cr_expect(strstr(E.msg, "openai: HTTP 401 invalid_request_error: Incorrect API key provided") != NULL, "%s",
              E.msg);
    cr_expect(strstr(E.msg, "check OPENAI_API_KEY") != NULL);
    cr_expect_null(strstr(E.msg, OPENAI_KEY), "the key never appears in a message: %s", E.msg);
    cJSON *reqs = mock_requests(&M);
    cr_expect_eq(cJSON_GetArraySize(reqs), 1, "401 is not retried");
    cJSON_Delete(reqs);
}

/* ---- Anthropic ---------------------------------------------------------------- */

Test(llm_api, anthropic_request_and_tool_use)
{
    start("[{\"kind\":\"tool\",\"text\":\"I will search.\",\"calls\":[{\"name\":\"type\",\"args\":{\"id\":\"12\","
          "\"text\":\"Ada\",\"enter\":true}}],\"usage\":{\"in\":900,\"out\":40,\"cached\":300}}]",
          "anthropic", "claude-sonnet-4-20250514", 1);
    cr_assert_eq(next("hybrid"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "type [12] [Ada] [1]");
    cr_expect_eq(U.prompt_tokens, 900, "input + cache reads");
    cr_expect_eq(U.cached_tokens, 300);
    cr_expect_eq(U.completion_tokens, 40);
    cr_expect_float_eq(U.cost_usd, (600 * 3.0 + 300 * 0.30 + 40 * 15.0) / 1e6, 1e-12);

    cJSON *body;
    cJSON *r = only_request(&body);
    cr_expect_str_eq(eous_json_str(r, "path"), "/v1/messages");
    const cJSON *h = eous_json_obj(r, "headers");
    cr_expect_str_eq(eous_json_str(h, "x-api-key"), ANTHROPIC_KEY);
    cr_expect_str_eq(eous_json_str(h, "anthropic-version"), "2023-06-01");
    cr_expect_null(eous_json_str(h, "authorization"));
    cr_expect_str_eq(eous_json_str(body, "model"), "claude-sonnet-4-20250514");
    cr_expect_eq(eous_json_int(body, "max_tokens", 0), 1024);
    /* the system prompt is a text block marked for Anthropic's prompt cache (it and the tools are
     * the same on every request) */
    const cJSON *sys0 = cJSON_GetArrayItem(eous_json_arr(body, "system"), 0);
    const char *sys = eous_json_str(sys0, "text");
    cr_assert_not_null(sys, "system is top-level, as text blocks");
    cr_expect(strstr(sys, "[cN] line is a component") != NULL);
    cr_expect_str_eq(eous_json_str(eous_json_obj(sys0, "cache_control"), "type"), "ephemeral");
    const cJSON *msgs = eous_json_arr(body, "messages");
    cr_expect_eq(cJSON_GetArraySize(msgs), 1);
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(msgs, 0), "role"), "user");
    const cJSON *tc = eous_json_obj(body, "tool_choice");
    cr_expect_str_eq(eous_json_str(tc, "type"), "any");
    cr_expect_eq(eous_json_bool(tc, "disable_parallel_tool_use", 0), 1);
    const cJSON *tools = eous_json_arr(body, "tools");
    cr_expect_eq(cJSON_GetArraySize(tools), 14, "call + 11 atomic + read + stop");
    const cJSON *t0 = cJSON_GetArrayItem(tools, 0);
    cr_expect_str_eq(eous_json_str(eous_json_obj(t0, "input_schema"), "type"), "object");
    cr_expect(has_tool(tools, "call", 0) && has_tool(tools, "tab_focus", 0));
    cJSON_Delete(body);
    cJSON_Delete(r);
}

Test(llm_api, anthropic_text_mode_and_shapes)
{
    start("[{\"kind\":\"text\",\"text\":\"Done. In summary, the next action I will perform is ```stop [$25 "
          "[incl. tax]]```\"},"
          "{\"kind\":\"refusal\"},"
          "{\"kind\":\"text\",\"text\":\"\",\"finish\":\"length\"},"
          "{\"kind\":\"tool\",\"calls\":[{\"name\":\"hover\",\"args\":{\"id\":4}},{\"name\":\"click\",\"args\":{\"id\":4}}]}]",
          "anthropic", "claude-3-5-haiku-20241022", 0);
    cr_assert_eq(next("atomic"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "stop [$25 [incl. tax]]");
    cr_assert_eq(next("atomic"), EOUS_E_PARSE);
    cr_expect_str_eq(E.code, "refusal");
    cr_assert_eq(next("atomic"), EOUS_E_PARSE);
    cr_expect_str_eq(E.code, "truncated");
    cr_expect(strstr(E.msg, "cut off at max_tokens before any action") != NULL, "%s", E.msg);
    cr_assert_eq(next("atomic"), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(formatted(), "hover [4]");
    cr_expect_eq(U.extra_tool_calls, 1);
    cJSON *reqs = mock_requests(&M);
    cJSON *body = cJSON_Parse(eous_json_str(cJSON_GetArrayItem(reqs, 0), "body"));
    cr_expect_null(cJSON_GetObjectItem(body, "tools"));
    cJSON_Delete(body);
    cJSON_Delete(reqs);
}

Test(llm_api, anthropic_error_body)
{
    start("[{\"kind\":\"error\",\"status\":404,\"type\":\"not_found_error\",\"message\":\"model: claude-nope\"}]",
          "anthropic", "claude-nope", 1);
    cr_assert_eq(next("hybrid"), EOUS_E_INFRA);
    cr_expect_eq(E.http_status, 404);
    cr_expect_str_eq(E.code, "not_found_error");
    cr_expect(strstr(E.msg, "anthropic: HTTP 404 not_found_error: model: claude-nope; check the model name") != NULL,
              "%s", E.msg);
}

Test(llm_api, malformed_response_is_infra)
{
    start("[{\"kind\":\"raw\",\"status\":200,\"body\":\"{\\\"choices\\\": [\"},"
          "{\"kind\":\"raw\",\"status\":200,\"body\":\"{\\\"object\\\": \\\"list\\\"}\"},"
          "{\"kind\":\"raw\",\"status\":200,\"body\":\"{\\\"error\\\": {\\\"message\\\": \\\"upstream failed\\\", "
          "\\\"type\\\": \\\"server_error\\\"}}\"}]",
          "openai", "gpt-4o", 1);
    cr_assert_eq(next("hybrid"), EOUS_E_INFRA);
    cr_expect_str_eq(E.code, "bad_response");
    cr_expect(strstr(E.msg, "not a JSON object") != NULL, "%s", E.msg);
    cr_assert_eq(next("hybrid"), EOUS_E_INFRA);
    cr_expect(strstr(E.msg, "no choices[0].message") != NULL, "%s", E.msg);
    cr_assert_eq(next("hybrid"), EOUS_E_INFRA);
    cr_expect_str_eq(E.code, "server_error");
    cr_expect(strstr(E.msg, "openai: error in a 200 response: upstream failed") != NULL, "%s", E.msg);
}

/* ---- judge -------------------------------------------------------------------- */

Test(llm_api, judge_verdicts)
{
    start("[{\"kind\":\"text\",\"text\":\"Same meaning.\\ncorrect\"},"
          "{\"kind\":\"text\",\"text\":\"The student gives 3, reference 4.\\nincorrect\"},"
          "{\"kind\":\"text\",\"text\":\"Only half.\\nPartially correct\"},"
          "{\"kind\":\"text\",\"text\":\"This is not correct.\"},"
          "{\"kind\":\"text\",\"text\":\"I don't know.\"}]",
          "openai", "gpt-4o", 1);
    int ok = -1;
    cr_assert_eq(llm_judge(C, LLM_JUDGE_FUZZY, "How many orders?", "4", "four", &ok, &U, &E), EOUS_OK, "%s", E.msg);
    cr_expect_eq(ok, 1);
    cr_assert_eq(llm_judge(C, LLM_JUDGE_FUZZY, "How many orders?", "4", "3", &ok, &U, &E), EOUS_OK);
    cr_expect_eq(ok, 0);
    cr_assert_eq(llm_judge(C, LLM_JUDGE_FUZZY, "q", "a and b", "a", &ok, &U, &E), EOUS_OK);
    cr_expect_eq(ok, 0);
    /* WebArena reads only "incorrect"/"partially correct": "not correct" counts as correct */
    cr_assert_eq(llm_judge(C, LLM_JUDGE_FUZZY, "q", "r", "s", &ok, &U, &E), EOUS_OK);
    cr_expect_eq(ok, 1);
    cr_expect_eq(llm_judge(C, LLM_JUDGE_FUZZY, "q", "r", "s", &ok, &U, &E), EOUS_E_PARSE);
    cr_expect(strstr(E.msg, "no verdict") != NULL);
    cJSON *reqs = mock_requests(&M);
    cJSON *body = cJSON_Parse(eous_json_str(cJSON_GetArrayItem(reqs, 0), "body"));
    const char *user = eous_json_str(cJSON_GetArrayItem(eous_json_arr(body, "messages"), 1), "content");
    cr_expect(strstr(user, "reference answer: 4\nall the string 'N/A' that you see is a special sequence that "
                           "means 'not achievable'\nstudent answer: four\nConclude the judgement by "
                           "correct/incorrect/partially correct.") != NULL, "%s", user);
    const char *sys = eous_json_str(cJSON_GetArrayItem(eous_json_arr(body, "messages"), 0), "content");
    cr_expect_str_eq(sys, "You are a helpful assistant");
    cr_expect_null(cJSON_GetObjectItem(body, "tools"));
    cJSON_Delete(body);
    cJSON_Delete(reqs);
}

/* Bytes that are not UTF-8 (a page's, or a cut inside a character) never
 * reach the API: the request stays valid JSON text, which the real APIs (and
 * the mock) refuse with 400 otherwise. */
Test(llm_api, invalid_utf8_in_the_observation_is_scrubbed)
{
    start("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":{\"id\":\"12\"}}]}]", "openai", "gpt-4o", 1);
    llm_step_input in = step("hybrid");
    in.observation = "[1] RootWebArea 'caf\xC3'\n\t[12] button 'Go \xFF\xFE' \xED\xA0\x80 \xC3\xA9";
    cr_assert_eq(llm_next_action(C, &in, &A, &U, &E), EOUS_OK, "%s", E.msg);
    cJSON *body = NULL;
    cJSON *r = only_request(&body);
    char *p = cJSON_PrintUnformatted(body);
    cr_expect(strstr(p, "caf?"), "a cut character became '?': %s", p);
    cr_expect(strstr(p, "Go ??"), "%s", p);
    cr_expect(strstr(p, "???"), "a UTF-16 surrogate encoded in UTF-8 is not UTF-8: %s", p);
    cr_expect(strstr(p, "\xC3\xA9"), "valid characters stay: %s", p);
    free(p);
    cJSON_Delete(body);
    cJSON_Delete(r);
}

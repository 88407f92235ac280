/* tests/llm/test_llm_cassette.c — record against the HTTPS mock, replay with no
 * server and no key; secrets and keys never reach requests or cassettes. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"
#include "mock/llm_mock.h"

#define KEY "sk-test-cassette-KEY-abcdef123456"
#define SECRET "correct-horse-battery-staple"

static llm_mock M;
static eous_err E;
static char CAS[400];

static void setup(void)
{
    cr_assert_eq(mock_setup(&M), 0);
    snprintf(CAS, sizeof CAS, "%s/run.cassette.jsonl", M.dir);
    setenv("OPENAI_API_KEY", KEY, 1);
    setenv("ANTHROPIC_API_KEY", KEY, 1);
    unsetenv("OPENAI_BASE_URL");
    eous_err_clear(&E);
}

static void teardown(void)
{
    eous_redact_clear();
    mock_teardown(&M);
}

TestSuite(llm_cassette, .init = setup, .fini = teardown);

static llm_history_item H[] = {{"type [4] [" SECRET "] [0]", "ok"}};

static llm_step_input step(int i, const char *objective)
{
    static char obs[2][256];
    snprintf(obs[i], sizeof obs[i], "[1] RootWebArea 'Login'\n\t[4] textbox 'Password' value: %s\n\t[%d] button 'Go'",
             SECRET, 10 + i);
    llm_step_input in = {.objective = objective, .url = "http://127.0.0.1:7770/login", .observation = obs[i],
                         .mode = PERC_MODE_HYBRID, .history = H, .n_history = (size_t)i};
    return in;
}

static llm_client *client(const char *provider, int mode)
{
    llm_opts o;
    llm_opts_init(&o);
    o.provider = provider;
    o.model = !strcmp(provider, "openai") ? "gpt-4o" : "claude-sonnet-4-20250514";
    o.base_url = mode == LLM_CASSETTE_REPLAY ? "https://127.0.0.1:9" : M.base; /* replay: nothing listens */
    o.ca_file = mode == LLM_CASSETTE_REPLAY ? NULL : M.ca;
    o.cassette_path = CAS;
    o.cassette_mode = mode;
    o.max_retries = 0;
    llm_client *c = NULL;
    cr_assert_eq(llm_client_new(&o, &c, &E), EOUS_OK, "%s", E.msg);
    return c;
}

/* The model echoes the secret in its answer: the cassette must not keep it. */
#define RESPONSES                                                                                   \
    "{\"responses\": [{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":{\"id\":\"10\"}}],"    \
    "\"usage\":{\"in\":500,\"out\":10,\"cached\":100}},"                                                \
    "{\"kind\":\"tool\",\"calls\":[{\"name\":\"stop\",\"args\":{\"answer\":\"logged in with " SECRET     \
    "\"}}]}]}"

static void record_then_replay(const char *provider)
{
    cr_assert_eq(eous_redact_add(SECRET), 0);
    cr_assert_eq(mock_start(&M, RESPONSES, 0), 0);
    llm_client *c = client(provider, LLM_CASSETTE_RECORD);
    act_action a1, a2;
    act_action_init(&a1);
    act_action_init(&a2);
    llm_usage u1, u2;
    llm_step_input s0 = step(0, "Log in"), s1 = step(1, "Log in");
    cr_assert_eq(llm_next_action(c, &s0, &a1, &u1, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(llm_next_action(c, &s1, &a2, &u2, &E), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(a2.text, "logged in with " SECRET, "the live answer is not altered");
    llm_client_free(c);
    mock_stop(&M);

    /* what went over the wire: no secret in any body; the key only in its header */
    cJSON *reqs = mock_requests(&M);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2);
    for (const cJSON *r = reqs->child; r; r = r->next) {
        const char *body = eous_json_str(r, "body");
        cr_expect_null(strstr(body, SECRET), "secret in a request body");
        cr_expect_null(strstr(body, KEY), "key in a request body");
        cr_expect(strstr(body, "[redacted]") != NULL);
    }
    cJSON_Delete(reqs);

    char *cas = mock_slurp(CAS);
    cr_expect_null(strstr(cas, SECRET), "secret in the cassette");
    cr_expect_null(strstr(cas, KEY), "key in the cassette");
    size_t lines = 0;
    for (const char *p = cas; *p; p++)
        lines += *p == '\n';
    cr_expect_eq(lines, 2, "one line per call");
    cJSON *first = cJSON_ParseWithLength(cas, (size_t)(strchr(cas, '\n') - cas));
    cr_assert_not_null(first);
    cr_expect_eq(strlen(eous_json_str(first, "key")), 16);
    cr_expect_str_eq(eous_json_str(first, "provider"), provider);
    cr_expect_not_null(eous_json_obj(first, "response"));
    cr_expect_eq(eous_json_int(eous_json_obj(first, "usage"), "prompt_tokens", 0), 500);
    cJSON_Delete(first);
    free(cas);

    /* replay: no key, no server */
    unsetenv("OPENAI_API_KEY");
    unsetenv("ANTHROPIC_API_KEY");
    c = client(provider, LLM_CASSETTE_REPLAY);
    act_action b1, b2;
    act_action_init(&b1);
    act_action_init(&b2);
    llm_usage v1;
    cr_assert_eq(llm_next_action(c, &s0, &b1, &v1, &E), EOUS_OK, "%s", E.msg);
    cr_expect(act_equal(&a1, &b1));
    cr_expect_eq(v1.prompt_tokens, u1.prompt_tokens);
    cr_expect_eq(v1.cached_tokens, 100);
    cr_expect_float_eq(v1.cost_usd, u1.cost_usd, 1e-12);
    cr_assert_eq(llm_next_action(c, &s1, &b2, NULL, &E), EOUS_OK, "%s", E.msg);
    cr_expect_eq(b2.kind, ACT_STOP);
    cr_expect_str_eq(b2.text, "logged in with [redacted]");

    /* a request the cassette never saw */
    llm_step_input other = step(0, "Log out");
    act_action b3;
    act_action_init(&b3);
    cr_assert_eq(llm_next_action(c, &other, &b3, NULL, &E), EOUS_E_INVALID);
    char want[600];
    snprintf(want, sizeof want,
             "cassette %s has no response for this request (step 3); re-record it with the llm planner", CAS);
    cr_expect_str_eq(E.msg, want);
    llm_client_free(c);
    act_action_clear(&a1);
    act_action_clear(&a2);
    act_action_clear(&b1);
    act_action_clear(&b2);
}

Test(llm_cassette, openai_record_then_replay)
{
    record_then_replay("openai");
}

Test(llm_cassette, anthropic_record_then_replay)
{
    record_then_replay("anthropic");
}

Test(llm_cassette, repeated_request_replays_in_order)
{
    cr_assert_eq(mock_start(&M,
                            "{\"responses\": [{\"kind\":\"tool\",\"calls\":[{\"name\":\"scroll\",\"args\":{"
                            "\"direction\":\"down\"}}]},{\"kind\":\"tool\",\"calls\":[{\"name\":\"go_back\"}]}]}",
                            0),
                 0);
    llm_client *c = client("openai", LLM_CASSETTE_RECORD);
    act_action a;
    act_action_init(&a);
    llm_step_input s = step(0, "Scroll");
    cr_assert_eq(llm_next_action(c, &s, &a, NULL, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(llm_next_action(c, &s, &a, NULL, &E), EOUS_OK, "%s", E.msg);
    llm_client_free(c);
    mock_stop(&M);
    c = client("openai", LLM_CASSETTE_REPLAY);
    cr_assert_eq(llm_next_action(c, &s, &a, NULL, &E), EOUS_OK, "%s", E.msg);
    cr_expect_eq(a.kind, ACT_SCROLL);
    cr_assert_eq(llm_next_action(c, &s, &a, NULL, &E), EOUS_OK, "%s", E.msg);
    cr_expect_eq(a.kind, ACT_GO_BACK);
    cr_expect_eq(llm_client_calls(c), 2);
    llm_client_free(c);

    /* replay without --llm: provider and model come from the cassette */
    llm_opts o;
    llm_opts_init(&o);
    o.cassette_path = CAS;
    o.cassette_mode = LLM_CASSETTE_REPLAY;
    unsetenv("OPENAI_API_KEY");
    cr_assert_eq(llm_client_new(&o, &c, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(llm_next_action(c, &s, &a, NULL, &E), EOUS_OK, "%s", E.msg);
    cr_expect_eq(a.kind, ACT_SCROLL);
    llm_client_free(c);
    act_action_clear(&a);
}

Test(llm_cassette, broken_cassette_names_the_line)
{
    FILE *f = fopen(CAS, "w");
    cr_assert_not_null(f);
    fputs("{\"key\":\"0123456789abcdef\",\"response\":{}}\n\n{\"key\": \"short\"}\n", f);
    fclose(f);
    llm_opts o;
    llm_opts_init(&o);
    o.model = "gpt-4o";
    o.cassette_path = CAS;
    o.cassette_mode = LLM_CASSETTE_REPLAY;
    llm_client *c = NULL;
    cr_assert_eq(llm_client_new(&o, &c, &E), EOUS_E_INVALID);
    cr_expect(strstr(E.msg, "line 3: expected {\"key\": <16 hex digits>") != NULL, "%s", E.msg);
    f = fopen(CAS, "w");
    fputs("{\"key\": ", f);
    fclose(f);
    cr_assert_eq(llm_client_new(&o, &c, &E), EOUS_E_INVALID);
    cr_expect(strstr(E.msg, "line 1: invalid JSON") != NULL, "%s", E.msg);
    o.cassette_path = "/nonexistent/cassette.jsonl";
    cr_assert_eq(llm_client_new(&o, &c, &E), EOUS_E_INVALID);
    cr_expect(strstr(E.msg, "/nonexistent/cassette.jsonl") != NULL, "%s", E.msg);
    o.cassette_path = NULL;
    cr_assert_eq(llm_client_new(&o, &c, &E), EOUS_E_INVALID);
    cr_expect(strstr(E.msg, "a file is needed to replay") != NULL, "%s", E.msg);
}

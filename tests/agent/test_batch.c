/* tests/agent/test_batch.c — batched actions and observation deltas end to end:
 * `eous run` on real Chromium over the batch fixture page (its own CI4A
 * registry: two fields, a button another button removes, a button that
 * navigates), the model played by the HTTPS mock answering with several tool
 * calls in one reply.  Checks that a batch stops at a navigation and at a
 * stale target, reports the rest as not run (trace, audit, and to the model
 * as tool results in the provider's format), that the second observation is
 * a delta carrying exactly the component that changed, that a recorded
 * batched delta run replays exactly, and how the script planner groups steps.
 * Unit checks of the delta text and of several WebArena action lines too. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "llm/llm_int.h"
#include "mock/llm_mock.h"
#include "perception/delta.h"
#include "support/cli.h"
#include "support/testsrv.h"

#define FAKE_OPENAI_KEY "sk-batch-FAKE-openai-key-1a2b3c4d5e6f"
#define FAKE_ANTHROPIC_KEY "sk-ant-batch-FAKE-key-6f5e4d3c2b1a"
#define TASK_BATCH EOUS_SOURCE_DIR "/tests/fixtures/tasks/batch.json"

static mock_suite S; /* scratch dir, model mock, fixture server (tests/mock/llm_mock.h) */

static void setup(void)
{
    cr_assert_eq(mock_suite_setup(&S, "eous-batch", FAKE_OPENAI_KEY, FAKE_ANTHROPIC_KEY), 0);
}

static void teardown(void)
{
    mock_suite_teardown(&S);
}

TestSuite(batch, .init = setup, .fini = teardown, .timeout = 600);

/* ---- helpers ------------------------------------------------------------------- */

#define CALL(k, tool, params) "{\"name\":\"call\",\"args\":{\"k\":\"" k "\",\"tool\":\"" tool "\",\"params\":" params "}}"
#define REPLY(calls) "{\"kind\":\"tool\",\"calls\":[" calls "],\"usage\":{\"in\":900,\"out\":40}}"
#define STOP "{\"kind\":\"tool\",\"calls\":[{\"name\":\"stop\",\"args\":{\"answer\":\"done\"}}],\"usage\":{\"in\":800,\"out\":9}}"

static void start_mock(const char *responses)
{
    cr_assert_eq(mock_start_responses(&S.mock, responses), 0);
}

/* eous run TASK_BATCH with the model at the mock; extra args after. */
static int run_llm(const char *provider_model, const char *outdir, const char *const *extra)
{
    char base[200];
    snprintf(base, sizeof base, strncmp(provider_model, "openai", 6) ? "%s" : "%s/v1", S.mock.base);
    const char *args[32] = {"run", TASK_BATCH, "--planner", "llm", "--llm", provider_model, "--llm-base-url", base,
                            "--llm-ca", S.mock.ca, "--mode", "hybrid", "--out", outdir};
    int n = 14;
    for (int i = 0; extra && extra[i] && n < 31; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    int rc = ts_cli_run(args, S.out_path, S.err_path, 240);
    if (rc > 1) {
        char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
        cr_log_error("exit %d\nstdout: %s\nstderr: %s", rc, o, e);
        free(o);
        free(e);
    }
    return rc;
}

static cJSON *result_of(const char *outdir)
{
    int n = 0;
    cJSON *j = ts_result_line(outdir, &n);
    cr_assert_eq(n, 1, "one results line");
    cr_assert_not_null(j);
    return j;
}

static char *file_in(const char *outdir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    return ts_slurp(path);
}

/* Request i's body (caller deletes). */
static cJSON *request_body(int i)
{
    cJSON *reqs = mock_requests(&S.mock);
    const char *b = eous_json_str(cJSON_GetArrayItem(reqs, i), "body");
    cr_assert_not_null(b, "request %d was made", i);
    cJSON *j = cJSON_Parse(b);
    cJSON_Delete(reqs);
    cr_assert_not_null(j);
    return j;
}

static int n_requests(void)
{
    cJSON *reqs = mock_requests(&S.mock);
    int n = cJSON_GetArraySize(reqs);
    cJSON_Delete(reqs);
    return n;
}

/* The observation of a request: between <observation> and </observation> of its last user text. */
/* 1 when a message of body before its last carries text (string content or a text part). */
static int earlier_message_holds(const cJSON *body, const char *text)
{
    const cJSON *msgs = eous_json_arr(body, "messages");
    int n = cJSON_GetArraySize(msgs);
    for (int i = 0; i < n - 1; i++) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(msgs, i), "content");
        if (cJSON_IsString(c) && strstr(c->valuestring, text))
            return 1;
        const cJSON *part;
        if (!cJSON_IsArray(c))
            continue;
        cJSON_ArrayForEach(part, c) {
            const char *t = eous_json_str(part, "text");
            if (t && strstr(t, text))
                return 1;
        }
    }
    return 0;
}

static char *observation_of(const cJSON *body)
{
    const cJSON *msgs = eous_json_arr(body, "messages");
    const cJSON *last = cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(last, "content");
    const char *text = cJSON_IsString(c) ? c->valuestring : NULL;
    if (cJSON_IsArray(c))
        text = eous_json_str(cJSON_GetArrayItem(c, cJSON_GetArraySize(c) - 1), "text");
    cr_assert_not_null(text, "the last message has text");
    const char *b = strstr(text, "<observation>\n"), *e = strstr(text, "\n</observation>");
    cr_assert(b && e && e > b, "an observation block: %s", text);
    b += strlen("<observation>\n");
    return strndup(b, (size_t)(e - b));
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* ---- a batch that navigates stops there; the rest is reported not run ---------- */

Test(batch, navigation_stops_the_batch_and_the_rest_is_not_run_openai)
{
    start_mock("[" REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}") "," CALL("nav", "press", "{}") ","
                         CALL("last", "setValue", "{\"value\":\"Lovelace\"}")) "," STOP "]");
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/nav", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", outdir, NULL), 0);
    cJSON *r = result_of(outdir);
    cr_expect_eq(eous_json_int(r, "steps", -1), 3, "first, nav, then stop ran");
    cr_expect_eq(eous_json_int(r, "plan_calls", -1), 2, "two model round trips");
    cr_expect_eq(eous_json_int(r, "actions_not_run", -1), 1);
    cJSON_Delete(r);

    char *tr = file_in(outdir, "trace/batch-1-hybrid.jsonl");
    cr_expect_eq(ts_count_lines(tr), 4, "a trace line per action, run or not: %s", tr);
    cr_expect(strstr(tr, "\"action\":\"call [last] [setValue] [{\\\"value\\\":\\\"Lovelace\\\"}]\",\"not_run\":"
                         "\"the page moved to "),
              "the third action is not run because the page moved: %s", tr);
    free(tr);
    char *audit = file_in(outdir, "audit.jsonl");
    cr_expect_eq(count_of(audit, "\"result\":\"not_run\""), 1, "the audit log says so too: %s", audit);
    free(audit);

    /* the model: parallel calls asked for, then one tool message per tool_call_id */
    cr_assert_eq(n_requests(), 2);
    cJSON *b0 = request_body(0), *b1 = request_body(1);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b0, "parallel_tool_calls")));
    const cJSON *msgs = eous_json_arr(b1, "messages");
    int tools = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, msgs) {
        if (strcmp(eous_json_str(m, "role") ? eous_json_str(m, "role") : "", "tool"))
            continue;
        char want[16];
        snprintf(want, sizeof want, "call_%d", tools);
        cr_expect_str_eq(eous_json_str(m, "tool_call_id"), want);
        const char *content = eous_json_str(m, "content");
        cr_expect(eous_starts_with(content, tools < 2 ? "ok: " : "not run: the page moved"), "%s", content);
        tools++;
    }
    cr_expect_eq(tools, 3, "one tool message per tool call");
    const cJSON *assistant = cJSON_GetArrayItem(msgs, 2);
    cr_expect_str_eq(eous_json_str(assistant, "role"), "assistant");
    cr_expect_eq(cJSON_GetArraySize(eous_json_arr(assistant, "tool_calls")), 3, "the reply goes back as it came");
    char *obs = observation_of(b1);
    cr_expect_null(strstr(obs, "(changes since"), "after navigation the full view is sent: %s", obs);
    free(obs);
    cJSON_Delete(b0);
    cJSON_Delete(b1);
}

/* ---- the same with Anthropic: tool_result blocks per tool_use_id ----------------- */

Test(batch, navigation_stops_the_batch_anthropic_tool_results)
{
    start_mock("[" REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}") "," CALL("nav", "press", "{}") ","
                         CALL("last", "setValue", "{\"value\":\"Lovelace\"}")) "," STOP "]");
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/anthropic", S.tmpdir);
    cr_assert_eq(run_llm("anthropic:claude-test", outdir, NULL), 0);
    cr_assert_eq(n_requests(), 2);
    cJSON *b0 = request_body(0), *b1 = request_body(1);
    cr_expect_null(cJSON_GetObjectItemCaseSensitive(eous_json_obj(b0, "tool_choice"), "disable_parallel_tool_use"),
                   "parallel tool use allowed");
    const cJSON *msgs = eous_json_arr(b1, "messages");
    cr_assert_eq(cJSON_GetArraySize(msgs), 3, "user, assistant (the reply), user (results + observation)");
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(msgs, 1), "role"), "assistant");
    const cJSON *content = eous_json_arr(cJSON_GetArrayItem(msgs, 2), "content");
    for (int i = 0; i < 3; i++) {
        const cJSON *blk = cJSON_GetArrayItem(content, i);
        char want[16];
        snprintf(want, sizeof want, "toolu_%d", i);
        cr_expect_str_eq(eous_json_str(blk, "type"), "tool_result");
        cr_expect_str_eq(eous_json_str(blk, "tool_use_id"), want);
        cr_expect_eq(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(blk, "is_error")), i == 2,
                     "only the action not run is an error");
    }
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(content, 3), "type"), "text");
    cJSON_Delete(b0);
    cJSON_Delete(b1);
}

/* ---- a stale target stops the batch ------------------------------------------------ */

Test(batch, stale_target_stops_the_batch)
{
    start_mock("[" REPLY(CALL("remover", "press", "{}") "," CALL("target", "press", "{}") ","
                         CALL("first", "setValue", "{\"value\":\"Ada\"}")) "," STOP "]");
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/stale", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", outdir, NULL), 0);
    cJSON *r = result_of(outdir);
    cr_expect_eq(eous_json_int(r, "steps", -1), 2, "remover, then stop");
    cr_expect_eq(eous_json_int(r, "actions_not_run", -1), 2, "target (stale) and first (after it)");
    cJSON_Delete(r);
    char *tr = file_in(outdir, "trace/batch-1-hybrid.jsonl");
    cr_expect(strstr(tr, "\"not_run\":\"stale target of action 2: component target (button 'Target') is gone\""),
              "%s", tr);
    cr_expect_eq(count_of(tr, "\"not_run\":\"stale target of action 2"), 2, "both later actions say why: %s", tr);
    cr_expect_null(strstr(tr, "target pressed"), "the stale action never ran");
    free(tr);
    cJSON *b1 = request_body(1);
    char *obs = observation_of(b1);
    cr_expect(strstr(obs, "(changes since the last observation)"), "same page: a delta: %s", obs);
    cr_expect(strstr(obs, "removed:"), "the target's lines are removed: %s", obs);
    free(obs);
    cJSON_Delete(b1);
}

/* ---- a delta after a state change carries exactly that component ----------------- */

Test(batch, delta_after_a_state_change_carries_exactly_that_component)
{
    start_mock("[" REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}")) "," STOP "]");
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/delta", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", outdir, NULL), 0);
    cJSON *b0 = request_body(0), *b1 = request_body(1);
    char *full = observation_of(b0), *delta = observation_of(b1);
    cr_expect(strstr(full, "input 'First name'"), "%s", full);
    cr_expect_null(strstr(full, "(changes since"), "the first view is whole");
    /* exactly: the header, the section title, the component line with its new value, its tools line */
    const char *nl = strchr(full, '\n');
    (void)nl;
    char want_id[16] = "";
    const char *hit = strstr(full, "] input 'First name'");
    cr_assert_not_null(hit);
    const char *lb = hit;
    while (lb > full && *lb != '[')
        lb--;
    snprintf(want_id, sizeof want_id, "%.*s", (int)(hit - lb + 1), lb);
    char expect[512];
    snprintf(expect, sizeof expect,
             "(changes since the last observation)\nchanged components:\n%s input 'First name' value: 'Ada' → "
             "setValue(value)",
             want_id);
    cr_expect_str_eq(delta, expect, "the delta is exactly the changed component:\n%s\n(view:\n%s)", delta, full);
    /* the delta's base is in the same request: the conversation still holds the whole first view,
     * and the first request is the second's prefix, message for message */
    cr_expect(earlier_message_holds(b1, full), "the view the delta refers to is in the request");
    const cJSON *m0 = eous_json_arr(b0, "messages"), *m1 = eous_json_arr(b1, "messages");
    cr_assert_gt(cJSON_GetArraySize(m1), cJSON_GetArraySize(m0));
    for (int i = 0; i < cJSON_GetArraySize(m0); i++)
        cr_expect(cJSON_Compare(cJSON_GetArrayItem(m0, i), cJSON_GetArrayItem(m1, i), 1),
                  "message %d of the first request opens the second", i);
    cJSON *r = result_of(outdir);
    const cJSON *bill = eous_json_obj(r, "request_tokens");
    cr_expect_gt(eous_json_num(bill, "prefix", 0), eous_json_num(bill, "fixed", 0) / 2,
                 "the second request shares more than its fixed part with the first");
    cr_expect_gt(eous_json_num(bill, "total", 0), eous_json_num(bill, "prefix", 0));
    cr_expect_str_eq(eous_json_str(r, "history"), "full");
    cr_expect_lt(eous_json_num(r, "obs_tokens_sent", 0), eous_json_num(r, "obs_tokens", 0),
                 "the trace and results record both sizes");
    cJSON_Delete(r);
    char *tr = file_in(outdir, "trace/batch-1-hybrid.jsonl");
    cr_expect(strstr(tr, "\"obs_delta\":true"), "%s", tr);
    free(tr);
    free(full);
    free(delta);
    cJSON_Delete(b0);
    cJSON_Delete(b1);

    /* --deltas off: the whole view every time */
    mock_stop(&S.mock);
    start_mock("[" REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}")) "," STOP "]");
    snprintf(outdir, sizeof outdir, "%s/nodelta", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", outdir, (const char *[]){"--deltas", "off", NULL}), 0);
    b1 = request_body(1);
    delta = observation_of(b1);
    cr_expect(strstr(delta, "input 'First name' value: 'Ada'") && strstr(delta, "input 'Last name'"), "%s", delta);
    free(delta);
    cJSON_Delete(b1);

    /* --history stateless: WebArena's shape, one user message with the whole view and every action */
    mock_stop(&S.mock);
    start_mock("[" REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}")) "," STOP "]");
    snprintf(outdir, sizeof outdir, "%s/stateless", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", outdir, (const char *[]){"--history", "stateless", NULL}), 0);
    b1 = request_body(1);
    cr_expect_eq(cJSON_GetArraySize(eous_json_arr(b1, "messages")), 2, "system and one user message");
    delta = observation_of(b1);
    cr_expect(strstr(delta, "input 'First name' value: 'Ada'") && strstr(delta, "input 'Last name'"), "whole: %s",
              delta);
    free(delta);
    char *text = cJSON_PrintUnformatted(b1);
    cr_expect(strstr(text, "PREVIOUS ACTIONS:\\n1. call [") && strstr(text, "-> ok: "),
              "the action and its result as text: %s", text);
    free(text);
    cJSON_Delete(b1);
}

Test(batch, deltas_need_a_conversation)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/refused", S.tmpdir);
    const char *args[] = {"run", TASK_BATCH, "--planner", "llm", "--llm", "openai:test-model", "--mode", "hybrid",
                          "--out", outdir, "--history", "stateless", "--deltas", "on", NULL};
    cr_expect_eq(ts_cli_run(args, S.out_path, S.err_path, 60), 2, "bad input");
    char *e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--deltas on with --history stateless") && !strchr(strchr(e, '\n') + 1, '\n'),
              "one line: %s", e);
    free(e);
    cr_expect_neq(access(outdir, F_OK), 0, "nothing written");
    args[11] = "some";
    args[12] = NULL;
    cr_expect_eq(ts_cli_run(args, S.out_path, S.err_path, 60), 2);
    e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--history 'some': expected stateless or full"), "%s", e);
    free(e);
}

/* ---- a recorded batched delta run replays exactly ------------------------------- */

Test(batch, recorded_batched_delta_run_replays_exactly)
{
    start_mock("[" REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}") "," CALL("last", "setValue",
                         "{\"value\":\"Lovelace\"}")) ","
               REPLY(CALL("remover", "press", "{}") "," CALL("target", "press", "{}")) ","
               REPLY(CALL("nav", "press", "{}") "," CALL("first", "setValue", "{\"value\":\"x\"}")) "," STOP "]");
    char rec[300], rep[300], cassette[300];
    snprintf(rec, sizeof rec, "%s/rec", S.tmpdir);
    snprintf(rep, sizeof rep, "%s/rep", S.tmpdir);
    snprintf(cassette, sizeof cassette, "%s/batch.cassette.jsonl", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", rec, (const char *[]){"--cassette", cassette, NULL}), 0);
    mock_stop(&S.mock);
    unsetenv("OPENAI_API_KEY");
    int rc = ts_cli_run((const char *[]){"run", TASK_BATCH, "--planner", "replay", "--cassette", cassette, "--mode",
                                         "hybrid", "--out", rep, NULL},
                        S.out_path, S.err_path, 240);
    char *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "replay: %s", e);
    free(e);
    cJSON *a = result_of(rec), *b = result_of(rep);
    const char *same[] = {"steps", "plan_calls", "actions_not_run", "obs_tokens", "obs_tokens_sent",
                          "prompt_tokens", "semantic_actions"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        cr_expect_eq(eous_json_num(a, same[i], -1), eous_json_num(b, same[i], -2), "%s", same[i]);
    cr_expect_eq(eous_json_int(a, "plan_calls", -1), 4);
    cr_expect_eq(eous_json_int(a, "actions_not_run", -1), 2, "target (stale) and first (after navigation)");
    cJSON_Delete(a);
    cJSON_Delete(b);
    /* the same actions, results and not-run reasons, line by line */
    char *ta = file_in(rec, "trace/batch-1-hybrid.jsonl"), *tb = file_in(rep, "trace/batch-1-hybrid.jsonl");
    cr_expect_eq(ts_count_lines(ta), ts_count_lines(tb));
    char *sa = NULL, *sb = NULL;
    char *la = strtok_r(ta, "\n", &sa), *lb = strtok_r(tb, "\n", &sb);
    for (; la && lb; la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
        cJSON *ja = cJSON_Parse(la), *jb = cJSON_Parse(lb);
        const char *keys[] = {"action", "result", "error", "not_run"};
        for (size_t k = 0; k < 4; k++) {
            const char *x = eous_json_str(ja, keys[k]), *y = eous_json_str(jb, keys[k]);
            cr_expect(x == y || (x && y && !strcmp(x, y)), "%s: %s vs %s", keys[k], x ? x : "-", y ? y : "-");
        }
        cr_expect_eq(eous_json_num(ja, "obs_tokens_sent", -1), eous_json_num(jb, "obs_tokens_sent", -1), "%s\n%s", la,
                     lb);
        cJSON_Delete(ja);
        cJSON_Delete(jb);
    }
    free(ta);
    free(tb);
    setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY, 1);
}

/* ---- the script planner groups what one view shows ------------------------------ */

Test(batch, script_steps_are_grouped_by_view_and_max_batch_1_is_one_per_step)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/script8", S.tmpdir);
    int rc = ts_cli_run((const char *[]){"run", TASK_BATCH, "--out", outdir, NULL}, S.out_path, S.err_path, 240);
    cr_assert_eq(rc, 0);
    cJSON *r = result_of(outdir);
    cr_expect_eq(eous_json_int(r, "steps", -1), 4);
    cr_expect_eq(eous_json_int(r, "plan_calls", -1), 2, "first+last+nav in one view, then stop");
    cJSON_Delete(r);
    snprintf(outdir, sizeof outdir, "%s/script1", S.tmpdir);
    rc = ts_cli_run((const char *[]){"run", TASK_BATCH, "--out", outdir, "--max-batch", "1", NULL}, S.out_path,
                    S.err_path, 240);
    cr_assert_eq(rc, 0);
    r = result_of(outdir);
    cr_expect_eq(eous_json_int(r, "steps", -1), 4);
    cr_expect_eq(eous_json_int(r, "plan_calls", -1), 4, "one action per step");
    cJSON_Delete(r);
    rc = ts_cli_run((const char *[]){"run", TASK_BATCH, "--out", outdir, "--max-batch", "0", NULL}, S.out_path,
                    S.err_path, 60);
    cr_expect_eq(rc, 2, "a bad --max-batch is bad input");
    char *e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--max-batch '0': expected"), "%s", e);
    free(e);
}

/* ---- units: delta text, several WebArena action lines --------------------------- */

Test(batch, delta_text_lists_changed_components_added_and_removed_lines)
{
    const char *prev = "Tab 0 (current): T\n\n[1] heading 'H'\n[c1] input 'A' value: x → setValue(value)\n"
                       "[c2] input 'B' → setValue(value)\n[7] button 'Go'\n[8] StaticText 'old'\n";
    const char *next = "Tab 0 (current): T\n\n[1] heading 'H'\n[c1] input 'A' value: y → setValue(value)\n"
                       "[c2] input 'B' → setValue(value)\n[7] button 'Go'\n[9] StaticText 'new'\n";
    char *d = perc_delta_text(prev, next);
    cr_assert_not_null(d);
    cr_expect_str_eq(d, "(changes since the last observation)\nchanged components:\n[c1] input 'A' value: y → "
                        "setValue(value)\nadded:\n  [7] button 'Go'\n+ [9] StaticText 'new'\nremoved:\n- [8]\n");
    free(d);
    d = perc_delta_text(next, next);
    cr_expect_str_eq(d, "(changes since the last observation)\nno changes\n");
    free(d);
    /* new rows: the last unchanged line above them says where they go; a run is anchored once */
    const char *t1 = "[1] table ''\n\t[2] row ''\n\t\t[3] cell 'a'\n[9] button 'Next'\n";
    const char *t2 = "[1] table ''\n\t[2] row ''\n\t\t[3] cell 'a'\n\t[4] row ''\n\t\t[5] cell 'b'\n"
                     "[9] button 'Next'\n[10] StaticText 'x'\n";
    d = perc_delta_text(t1, t2);
    cr_expect_str_eq(d, "(changes since the last observation)\nadded:\n  [3] cell 'a'\n+ [4] row ''\n"
                        "+ \t[5] cell 'b'\n  [9] button 'Next'\n+ [10] StaticText 'x'\n");
    free(d);
}

/* An added block keeps its nesting: each added line is indented below the run's first by the tabs it
 * had in the view (a new menu's items under the menu, a new row's cells under the row), after the mark. */
Test(batch, delta_keeps_the_indentation_inside_added_lines)
{
    const char *prev = "Tab 0 (current): T\n\nheading 'Inbox'\n\tbutton [3] 'More'\nbutton [9] 'Next'\n";
    const char *next = "Tab 0 (current): T\n\nheading 'Inbox'\n\tbutton [3] 'More'\n\tmenu [4] 'Actions'\n"
                       "\t\tmenuitem [5] 'Archive'\n\t\t\tStaticText 'moves it'\n\t\tmenuitem [6] 'Delete'\n"
                       "button [9] 'Next'\n";
    char *d = perc_delta_text(prev, next);
    cr_assert_not_null(d);
    cr_expect_str_eq(d, "(changes since the last observation)\nadded:\n  button [3] 'More'\n"
                        "+ menu [4] 'Actions'\n+ \tmenuitem [5] 'Archive'\n+ \t\tStaticText 'moves it'\n"
                        "+ \tmenuitem [6] 'Delete'\n");
    free(d);
}

Test(batch, several_webarena_action_lines_are_one_batch)
{
    act_action out[4];
    size_t n = 0, dropped = 0;
    eous_err e;
    eous_err_clear(&e);
    const char *text = "I fill both fields. In summary, the next action I will perform is ```\ntype [12] [Ada] [0]\n"
                       "type [13] [Lovelace] [0]\nclick [14]\n```";
    cr_assert_eq(llm_parse_text_actions(text, out, 4, &n, &dropped, &e), EOUS_OK, "%s", e.msg);
    cr_expect_eq(n, 3);
    cr_expect_eq(out[1].kind, ACT_TYPE);
    cr_expect_str_eq(out[1].text, "Lovelace");
    cr_expect_eq(out[2].kind, ACT_CLICK);
    for (size_t i = 0; i < n; i++)
        act_action_clear(&out[i]);
    cr_assert_eq(llm_parse_text_actions(text, out, 2, &n, &dropped, &e), EOUS_OK);
    cr_expect_eq(n, 2);
    cr_expect_eq(dropped, 1, "lines beyond the cap are counted, not run");
    for (size_t i = 0; i < n; i++)
        act_action_clear(&out[i]);
    cr_assert_eq(llm_parse_text_actions("```click [3]```", out, 4, &n, &dropped, &e), EOUS_OK);
    cr_expect_eq(n, 1);
    act_action_clear(&out[0]);
}

/* ---- a model stuck on one action ------------------------------------------------- */

/* The same action on an unchanged view for the third time ends the task (repeated_action); the first
 * repetition changed the view (the field took the value), so it took four answers to be stuck. */
Test(batch, the_same_action_on_an_unchanged_view_three_times_stops)
{
    const char *one = REPLY(CALL("first", "setValue", "{\"value\":\"Ada\"}"));
    char responses[2048];
    snprintf(responses, sizeof responses, "[%s,%s,%s,%s,%s," STOP "]", one, one, one, one, one);
    start_mock(responses);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/stuck", S.tmpdir);
    cr_assert_eq(run_llm("openai:test-model", outdir, (const char *[]){"--max-batch", "1", NULL}), 1);
    cJSON *r = result_of(outdir);
    cr_expect_str_eq(eous_json_str(r, "stop_reason"), "repeated_action");
    cr_expect_eq(eous_json_int(r, "steps", -1), 4, "V0, then three times on the view with Ada");
    cJSON_Delete(r);
}

/* tests/agent/test_e2e_llm.c — `eous run --planner llm` end to end: real Chromium on
 * the fixture pages (testsrv), the model played by the HTTPS mock
 * (tests/mock/llm_mock.mjs, throwaway CA), answers scripted as real tool
 * calls.  Checks exit codes, results.jsonl tokens, one trace line per step,
 * what the model was sent (observation, tools per mode), cassette record and
 * offline replay, that the API key never reaches an output, that a secret a GET
 * form sends back form-encoded in the URL reaches no prompt and no file, and WebArena's
 * "3 unparseable answers stop the task" rule. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runs/rundir.h"
#include "core/core.h"
#include "support/cli.h"
#include "mock/llm_mock.h"
#include "support/testsrv.h"

#define FAKE_OPENAI_KEY "sk-e2e-FAKE-openai-key-5f1e2d3c4b5a"
#define FAKE_ANTHROPIC_KEY "sk-ant-e2e-FAKE-key-0a9b8c7d6e5f"
#define TASK_FX3 EOUS_SOURCE_DIR "/tests/fixtures/tasks/suite/fx-3.json"

static mock_suite S; /* scratch dir, model mock, fixture server (tests/mock/llm_mock.h) */

/* ---- running the CLI ------------------------------------------------------- */

static int run_cli(const char *const *args)
{
    return ts_cli_run(args, S.out_path, S.err_path, 240);
}

/* First line of OUT/results.jsonl as JSON (caller deletes). */
static cJSON *result_line(const char *outdir, int expect_lines)
{
    int n = 0;
    cJSON *j = ts_result_line(outdir, &n);
    cr_assert_eq(n, expect_lines, "results.jsonl lines");
    cr_assert_not_null(j, "the first results line is JSON");
    return j;
}

/* ---- suite ----------------------------------------------------------------- */

static void setup(void)
{
    cr_assert_eq(mock_suite_setup(&S, "eous-e2e-llm", FAKE_OPENAI_KEY, FAKE_ANTHROPIC_KEY), 0);
}

static void teardown(void)
{
    mock_suite_teardown(&S);
}

TestSuite(e2e_llm, .init = setup, .fini = teardown, .timeout = 600);

static void start_mock(const char *responses)
{
    cr_assert_eq(mock_start_responses(&S.mock, responses), 0);
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

/* Request i's body (caller deletes) */
static cJSON *request_body(const cJSON *reqs, int i)
{
    const char *b = eous_json_str(cJSON_GetArrayItem(reqs, i), "body");
    cr_assert_not_null(b, "request %d has a body", i);
    cJSON *j = cJSON_Parse(b);
    cr_assert_not_null(j, "request %d body is JSON", i);
    return j;
}

/* All message text of an OpenAI or Anthropic request body, concatenated. */
static char *prompt_text(const cJSON *body)
{
    eous_buf b;
    eous_buf_init(&b, 4096);
    const char *sys = eous_json_str(body, "system");
    if (sys)
        eous_buf_puts(&b, sys, NULL);
    const cJSON *m;
    cJSON_ArrayForEach(m, eous_json_arr(body, "messages")) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "content");
        if (cJSON_IsString(c)) {
            eous_buf_puts(&b, "\n", NULL);
            eous_buf_puts(&b, c->valuestring, NULL);
        } else if (cJSON_IsArray(c)) {
            const cJSON *part;
            cJSON_ArrayForEach(part, c) {
                const char *t = eous_json_str(part, "text");
                if (t) {
                    eous_buf_puts(&b, "\n", NULL);
                    eous_buf_puts(&b, t, NULL);
                }
            }
        }
    }
    char *s = strdup(b.data ? b.data : "");
    eous_buf_free(&b);
    return s;
}

/* No file under dir, nor stdout or stderr, holds key (an API key, a secret in one of its spellings). */
static void assert_no_key_anywhere(const char *dir, const char *key)
{
    const char *f = ts_file_with(dir, key);
    cr_assert_null(f, "'%s' leaked into %s", key, f ? f : "");
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_null(strstr(o, key), "'%s' leaked into stdout: %s", key, o);
    cr_assert_null(strstr(e, key), "'%s' leaked into stderr: %s", key, e);
    free(o);
    free(e);
}

#define CALL_SETVALUE(usage)                                                                                   \
    "{\"kind\":\"tool\",\"calls\":[{\"name\":\"call\",\"args\":{\"k\":\"datepicker-checkin\",\"tool\":\"setValue\"," \
    "\"params\":{\"date\":\"2025-12-31\"}}}],\"usage\":" usage "}"
#define STOP_ANSWER(usage)                                                                                     \
    "{\"kind\":\"tool\",\"calls\":[{\"name\":\"stop\",\"args\":{\"answer\":\"2025-12-31\"}}],\"usage\":" usage "}"

/* The user message of the first recorded request in a cassette (caller frees). */
static char *recorded_observation(const char *cassette)
{
    char *cas = ts_slurp(cassette);
    char *nl = strchr(cas, '\n');
    if (nl)
        *nl = '\0';
    cJSON *row = cJSON_Parse(cas);
    free(cas);
    cJSON *req = row ? cJSON_GetObjectItemCaseSensitive(row, "request") : NULL;
    char *s = req ? prompt_text(req) : strdup("(unreadable cassette)");
    cJSON_Delete(row);
    return s;
}

/* ---- 1. OpenAI, hybrid: tool calls, tokens, trace, cassette, replay -------- */

Test(e2e_llm, openai_hybrid_record_then_replay_offline)
{
    start_mock("[" CALL_SETVALUE("{\"in\":1200,\"out\":30,\"cached\":0}") ","
               STOP_ANSWER("{\"in\":1300,\"out\":10,\"cached\":0}") "]");
    char base[200], outdir[300], cassette[300], replay_out[300];
    snprintf(base, sizeof base, "%s/v1", S.mock.base);
    snprintf(outdir, sizeof outdir, "%s/run", S.tmpdir);
    snprintf(replay_out, sizeof replay_out, "%s/replay", S.tmpdir);
    snprintf(cassette, sizeof cassette, "%s/fx3.cassette.jsonl", S.tmpdir);

    int rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "openai:test-model",
                                      "--llm-base-url", base, "--llm-ca", S.mock.ca,
                                      "--mode", "hybrid", "--out", outdir,
                                      "--cassette", cassette, NULL});
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    cr_expect(strstr(o, "task fx-3: passed"), "%s", o);
    cr_expect(strstr(o, "planner llm"), "%s", o);
    free(o);
    free(e);

    /* results.jsonl: passed, tokens from the mock's usage blocks */
    cJSON *r = result_line(outdir, 1);
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect_str_eq(eous_json_str(r, "planner"), "llm");
    cr_expect_str_eq(eous_json_str(r, "mode"), "hybrid");
    cr_expect_str_eq(eous_json_str(r, "stop_reason"), "stop");
    cr_expect_str_eq(eous_json_str(r, "answer"), "2025-12-31");
    cr_expect_eq(eous_json_int(r, "steps", -1), 2);
    cr_expect_eq(eous_json_int(r, "semantic_actions", -1), 1);
    cr_expect_gt(eous_json_num(r, "prompt_tokens", 0), 0);
    cr_expect_gt(eous_json_num(r, "completion_tokens", 0), 0);
    cr_expect_eq(eous_json_num(r, "prompt_tokens", 0), 2500, "1200 + 1300 from the mock");
    cr_expect_eq(eous_json_num(r, "completion_tokens", 0), 40, "30 + 10 from the mock");
    cJSON_Delete(r);

    /* trace: one line per step */
    char path[512];
    snprintf(path, sizeof path, "%s/trace/fx-3-hybrid.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_assert_eq(ts_count_lines(tr), 2, "one trace line per step: %s", tr);
    cr_expect(strstr(tr, "\"path\":\"semantic\""), "%s", tr);
    cr_expect(strstr(tr, "\"action\":\"call [datepicker-checkin] [setValue]"), "%s", tr);
    cr_expect(strstr(tr, "\"prompt_tokens\":1200"), "per-step tokens: %s", tr);
    cr_expect(strstr(tr, "\"action\":\"stop [2025-12-31]\""), "%s", tr);
    free(tr);

    /* what the model was sent */
    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2, "one model call per step");
    for (int i = 0; i < 2; i++) {
        const cJSON *q = cJSON_GetArrayItem(reqs, i);
        cr_expect_str_eq(eous_json_str(q, "path"), "/v1/chat/completions");
        cr_expect_str_eq(eous_json_str(eous_json_obj(q, "headers"), "authorization"), "Bearer " FAKE_OPENAI_KEY);
        cJSON *body = request_body(reqs, i);
        cr_expect_str_eq(eous_json_str(body, "model"), "test-model");
        cr_expect(has_tool(eous_json_arr(body, "tools"), "call", 1), "hybrid mode offers the call tool");
        cr_expect(has_tool(eous_json_arr(body, "tools"), "click", 1));
        char *p = prompt_text(body);
        cr_expect(strstr(p, "Set the check-in date to 2025-12-31"), "objective in the prompt");
        cr_expect(strstr(p, "datepicker 'Check-in'"), "the hybrid observation (triplet node) is in the prompt: %s", p);
        cr_expect(strstr(p, "setValue(date: YYYY-MM-DD"), "the tool metadata is in the prompt: %s", p);
        cr_expect(strstr(p, "button"), "atomic part of the observation in the prompt");
        cr_expect_null(strstr(p, "hunter2secret"), "a password field's value never reaches a prompt");
        cr_expect_null(strstr(p, "SecretTokenValue123"), "data-agent-secret text never reaches a prompt");
        cr_expect_null(strstr(p, "HiddenTextLeak"), "data-agent-hidden text never reaches a prompt");
        if (i == 1) {
            cr_expect(strstr(p, "2025-12-31"), "the second observation shows the new state: %s", p);
            cr_expect(strstr(p, "setValue"), "history names the previous action");
        }
        free(p);
        cJSON_Delete(body);
    }
    cJSON_Delete(reqs);

    /* cassette recorded, key nowhere */
    char *cas = ts_slurp(cassette);
    cr_assert_eq(ts_count_lines(cas), 2, "one cassette line per model call: %s", cas);
    free(cas);
    assert_no_key_anywhere(outdir, FAKE_OPENAI_KEY);
    assert_no_key_anywhere(S.tmpdir, FAKE_OPENAI_KEY);

    /* replay: no mock, no key, no network to the model */
    mock_stop(&S.mock);
    unsetenv("OPENAI_API_KEY");
    rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "replay", "--cassette", cassette, "--mode", "hybrid",
                                  "--out", replay_out, NULL});
    o = ts_slurp(S.out_path);
    e = ts_slurp(S.err_path);
    if (rc != 0) {
        /* Diagnose: is the observation of a fresh run byte-identical to the recorded one?
         * The cassette key is a hash of the request body, so any difference (view ids taken
         * from Chromium's backend node ids) makes the replay miss. */
        char *recorded = recorded_observation(cassette);
        start_mock("[" CALL_SETVALUE("{\"in\":1,\"out\":1}") "]");
        snprintf(base, sizeof base, "%s/v1", S.mock.base);
        setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY, 1);
        char again[300];
        snprintf(again, sizeof again, "%s/again", S.tmpdir);
        run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "openai:test-model", "--llm-base-url",
                                 base, "--llm-ca", S.mock.ca,
                                 "--mode", "hybrid", "--out", again, "--max-steps", "1", NULL});
        cJSON *rq = mock_requests(&S.mock);
        char *fresh = cJSON_GetArraySize(rq) ? prompt_text(request_body(rq, 0)) : strdup("(no request)");
        cr_assert_eq(rc, 0,
                     "replay exit %d\nstdout: %s\nstderr: %s\n--- recorded prompt:\n%s\n--- a fresh run's prompt:\n%s",
                     rc, o, e, recorded, fresh);
    }
    cr_expect(strstr(o, "passed"), "%s", o);
    free(o);
    free(e);
    r = result_line(replay_out, 1);
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect_str_eq(eous_json_str(r, "planner"), "replay");
    cr_expect_eq(eous_json_int(r, "steps", -1), 2);
    cr_expect_eq(eous_json_num(r, "prompt_tokens", 0), 2500, "replayed usage");
    cJSON_Delete(r);
    reqs = mock_requests(&S.mock);
    cr_expect_eq(cJSON_GetArraySize(reqs), 2, "the replay sent nothing to the model server");
    cJSON_Delete(reqs);
    snprintf(path, sizeof path, "%s/trace/fx-3-hybrid.jsonl", replay_out);
    tr = ts_slurp(path);
    cr_expect_eq(ts_count_lines(tr), 2, "%s", tr);
    free(tr);
    assert_no_key_anywhere(S.tmpdir, FAKE_OPENAI_KEY);
}

/* ---- 2. three unparseable answers stop the task; atomic mode has no call --- */

/* The id the observation text gives a line holding what ("[7] textbox 'X'" or
 * "textbox [7] 'X'"), or -1. */
static int id_of(const char *obs, const char *what)
{
    const char *hit = strstr(obs, what);
    if (!hit)
        return -1;
    const char *line = hit;
    while (line > obs && line[-1] != '\n')
        line--;
    const char *end = strchr(hit, '\n');
    for (const char *p = line; p && (!end || p < end); p++) {
        if (*p == '[' && p[1] >= '0' && p[1] <= '9')
            return atoi(p + 1);
    }
    return -1;
}

Test(e2e_llm, three_unparseable_answers_stop_the_task_atomic_has_no_call_tool)
{
    start_mock("[{\"kind\":\"text\",\"text\":\"I am not sure what to do.\",\"usage\":{\"in\":500,\"out\":7}},"
               "{\"kind\":\"tool\",\"calls\":[{\"name\":\"type\",\"args\":{\"id\":\"1\"}}],\"usage\":{\"in\":510,\"out\":8}},"
               "{\"kind\":\"refusal\",\"text\":\"No.\",\"usage\":{\"in\":520,\"out\":2}},"
               STOP_ANSWER("{\"in\":1,\"out\":1}") "]");
    char base[200], outdir[300];
    snprintf(base, sizeof base, "%s/v1", S.mock.base);
    snprintf(outdir, sizeof outdir, "%s/parse", S.tmpdir);
    int rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "openai:test-model",
                                      "--llm-base-url", base, "--llm-ca", S.mock.ca,
                                      "--mode", "atomic", "--out", outdir,
                                      NULL});
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 1, "a failed task exits 1 (got %d)\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    cJSON *r = result_line(outdir, 1);
    cr_expect_str_eq(eous_json_str(r, "status"), "failed");
    cr_expect_str_eq(eous_json_str(r, "stop_reason"), "parse_failures");
    cr_expect_eq(eous_json_int(r, "steps", -1), 3);
    cr_expect_eq(eous_json_num(r, "prompt_tokens", 0), 1530, "usage counted even for unusable answers");
    cJSON_Delete(r);
    char path[512];
    snprintf(path, sizeof path, "%s/trace/fx-3-atomic.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_expect_eq(ts_count_lines(tr), 3, "one trace line per (failed) step: %s", tr);
    int n_parse = 0;
    for (const char *p = tr; (p = strstr(p, "\"parse_error\"")); p++)
        n_parse++;
    cr_expect_eq(n_parse, 3, "%s", tr);
    free(tr);

    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 3, "the 4th answer is never asked for");
    int input_id = -1;
    for (int i = 0; i < 3; i++) {
        cJSON *body = request_body(reqs, i);
        cr_expect_not(has_tool(eous_json_arr(body, "tools"), "call", 1), "atomic mode offers no call tool");
        cr_expect(has_tool(eous_json_arr(body, "tools"), "type", 1));
        char *p = prompt_text(body);
        cr_expect(strstr(p, "textbox 'Check-in date'"), "the atomic observation is in the prompt: %s", p);
        cr_expect_null(strstr(p, "[c1]"), "no triplet nodes in atomic mode");
        if (i > 0)
            cr_expect(strstr(p, "could not be parsed"), "the parse error is fed back: %s", p);
        if (i == 0)
            input_id = id_of(p, "textbox 'Check-in date'");
        free(p);
        cJSON_Delete(body);
    }
    cJSON_Delete(reqs);
    assert_no_key_anywhere(S.tmpdir, FAKE_OPENAI_KEY);

    /* An atomic run acting on the id the model saw.  Chromium's node ids are
     * not promised to be identical across browser sessions, so when a run
     * shows the element under another id, the next attempt answers with that. */
    cr_assert_gt(input_id, 0, "found the textbox id in the observation");
    mock_stop(&S.mock);
    int attempt_id = input_id, rc_ok = 0;
    for (int attempt = 0; attempt < 3 && !rc_ok; attempt++) {
        char resp[2048];
        snprintf(resp, sizeof resp,
                 "[{\"kind\":\"tool\",\"calls\":[{\"name\":\"type\",\"args\":{\"id\":\"%d\",\"text\":\"2025-12-31\","
                 "\"enter\":false}}],\"usage\":{\"in\":800,\"out\":20}}," STOP_ANSWER("{\"in\":850,\"out\":9}") "]",
                 attempt_id);
        start_mock(resp);
        snprintf(base, sizeof base, "%s/v1", S.mock.base);
        snprintf(outdir, sizeof outdir, "%s/atomic%d", S.tmpdir, attempt);
        rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "openai:test-model",
                                      "--llm-base-url", base, "--llm-ca", S.mock.ca,
                                      "--mode", "atomic", "--out", outdir,
                                      NULL});
        reqs = mock_requests(&S.mock);
        cJSON *first_body = cJSON_GetArraySize(reqs) ? request_body(reqs, 0) : NULL;
        char *seen = first_body ? prompt_text(first_body) : strdup("");
        cJSON_Delete(first_body);
        cJSON_Delete(reqs);
        int seen_id = id_of(seen, "textbox 'Check-in date'");
        free(seen);
        rc_ok = rc == 0 && seen_id == attempt_id;
        if (!rc_ok) {
            cr_assert_neq(seen_id, attempt_id, "a run that acted on the id it saw must pass (exit %d)", rc);
            attempt_id = seen_id;
            mock_stop(&S.mock);
        }
    }
    cr_assert(rc_ok, "the atomic run passed with the id the model saw");
    r = result_line(outdir, 1);
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect_eq(eous_json_int(r, "atomic_actions", -1), 1);
    cr_expect_eq(eous_json_int(r, "semantic_actions", -1), 0);
    cr_expect_eq(eous_json_num(r, "prompt_tokens", 0), 1650);
    cJSON_Delete(r);
    assert_no_key_anywhere(S.tmpdir, FAKE_OPENAI_KEY);
}

/* ---- 3. Anthropic Messages --------------------------------------------------- */

Test(e2e_llm, anthropic_hybrid_run)
{
    start_mock("[" CALL_SETVALUE("{\"in\":1000,\"out\":25,\"cached\":200}") ","
               STOP_ANSWER("{\"in\":1100,\"out\":12,\"cached\":0}") "]");
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/anthropic", S.tmpdir);
    int rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "anthropic:claude-test",
                                      "--llm-base-url", S.mock.base, "--llm-ca", S.mock.ca,
                                      "--mode", "hybrid", "--out", outdir,
                                      NULL});
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    cJSON *r = result_line(outdir, 1);
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect_eq(eous_json_num(r, "prompt_tokens", 0), 2100, "input + cache reads, both calls");
    cr_expect_eq(eous_json_num(r, "completion_tokens", 0), 37);
    cr_expect_eq(eous_json_num(r, "cached_tokens", 0), 200);
    cJSON_Delete(r);
    char path[512];
    snprintf(path, sizeof path, "%s/trace/fx-3-hybrid.jsonl", outdir);
    char *tr = ts_slurp(path);
    cr_expect_eq(ts_count_lines(tr), 2, "%s", tr);
    free(tr);
    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2);
    const cJSON *q = cJSON_GetArrayItem(reqs, 0);
    cr_expect_str_eq(eous_json_str(q, "path"), "/v1/messages");
    cr_expect_str_eq(eous_json_str(eous_json_obj(q, "headers"), "x-api-key"), FAKE_ANTHROPIC_KEY);
    cJSON *body = request_body(reqs, 0);
    cr_expect(has_tool(eous_json_arr(body, "tools"), "call", 0));
    char *p = prompt_text(body);
    cr_expect(strstr(p, "datepicker 'Check-in'"), "%s", p);
    free(p);
    cJSON_Delete(body);
    cJSON_Delete(reqs);
    assert_no_key_anywhere(S.tmpdir, FAKE_ANTHROPIC_KEY);
}

/* --max-obs-tokens N: the model is sent the first N o200k tokens of the observation (WebArena's
 * max_obs_length), and the local count is labelled an o200k estimate for a Claude model, whose
 * own usage figures are reported as prompt_tokens. */
Test(e2e_llm, max_obs_tokens_cuts_and_anthropic_counts_are_labelled)
{
    start_mock("[" CALL_SETVALUE("{\"in\":1000,\"out\":25,\"cached\":0}") ","
               STOP_ANSWER("{\"in\":1100,\"out\":12,\"cached\":0}") "]");
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/maxobs", S.tmpdir);
    int rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "anthropic:claude-test",
                                      "--llm-base-url", S.mock.base, "--llm-ca", S.mock.ca,
                                      "--mode", "hybrid", "--out", outdir,
                                      "--max-obs-tokens", "30", NULL});
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    cJSON *r = result_line(outdir, 1);
    cr_expect_str_eq(eous_json_str(r, "obs_tokens_by"), "o200k_base estimate");
    cr_expect_eq(eous_json_num(r, "prompt_tokens", 0), 2100, "the provider's usage");
    cr_expect_gt(eous_json_num(r, "obs_tokens", 0), 60, "the whole observations are counted in the trace");
    cJSON_Delete(r);
    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2);
    cJSON *body = request_body(reqs, 0);
    char *p = prompt_text(body);
    cr_expect(strstr(p, "[observation truncated: about 30 of"), "the observation was cut to 30 tokens: %s", p);
    free(p);
    cJSON_Delete(body);
    cJSON_Delete(reqs);
    char path[512];
    snprintf(path, sizeof path, "%s/summary.md", outdir);
    char *md = ts_slurp(path);
    if (*md)
        cr_expect(strstr(md, "an estimate for others such as Anthropic's"), "%s", md);
    free(md);
}

/* A model endpoint that keeps failing: the bench retries the job on the SAME
 * browser (nothing is wrong with it), and after 3 failed model calls in a row
 * stops asking: the jobs left are recorded as infra without a request, so a
 * dead endpoint costs one job's retries, not every job's. */
Test(e2e_llm, dead_model_endpoint_opens_the_bench_breaker)
{
    char scen[512];
    snprintf(scen, sizeof scen, "{\"repeat\": true, \"responses\": [{\"kind\":\"error\",\"status\":503,"
                                "\"type\":\"server_error\",\"message\":\"upstream down\"}]}");
    cr_assert_eq(mock_start(&S.mock, scen, 0), 0);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/breaker", S.tmpdir);
    setenv("EOUS_LOG", "info", 1);
    int rc = run_cli((const char *[]){"bench", EOUS_SOURCE_DIR "/tests/fixtures/tasks/suite", "--planner", "llm",
                                      "--llm", "openai:test-model", "--llm-base-url", S.mock.base,
                                      "--llm-ca", S.mock.ca,
                                      "--modes", "hybrid,atomic", "--out", outdir, NULL});
    unsetenv("EOUS_LOG");
    char *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 3, "infra exit code; stderr: %s", e);
    cr_expect(strstr(e, "retry 1 on the same session"), "the browser is kept: %s", e);
    cr_expect_null(strstr(e, "fresh session"), "no browser restart for a model failure: %s", e);
    cr_expect(strstr(e, "the model endpoint failed 3 times in a row"), "%s", e);
    free(e);
    char path[512];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *res = ts_slurp(path);
    /* every job has its line; the first job's three tries are three attempts, each kept */
    cr_assert_eq(ts_count_lines(res), 8, "6 jobs, the first with 3 attempts: %s", res);
    runs_dir rd;
    eous_err err;
    cr_assert_eq(runs_dir_load(outdir, 1, &rd, &err), EOUS_OK, "%s", err.msg);
    int last = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, rd.rows) last += runs_dir_is_last(r);
    cr_expect_eq(last, 6, "each task × mode once by its last attempt");
    cr_expect_eq(eous_json_int(cJSON_GetArrayItem(rd.rows, 2), "attempt", 0), 3, "%s", res);
    runs_dir_free(&rd);
    int infra = 0, not_run = 0;
    for (const char *p = res; (p = strstr(p, "\"status\":\"infra\"")); p++)
        infra++;
    for (const char *p = res; (p = strstr(p, "not run: the model endpoint failed")); p++)
        not_run++;
    cr_expect_eq(infra, 8, "%s", res);
    cr_expect_eq(not_run, 5, "the first job spent the 3 calls: %s", res);
    cr_expect(strstr(res, "\"stop_reason\":\"model_unavailable\""), "%s", res);
    free(res);
    /* 3 model calls, each 1 try + the client's 4 retries; none after the breaker opened */
    cJSON *reqs = mock_requests(&S.mock);
    cr_expect_eq(cJSON_GetArraySize(reqs), 15);
    cJSON_Delete(reqs);
    assert_no_key_anywhere(S.tmpdir, FAKE_OPENAI_KEY);
}

/* ---- 6. a secret typed into a GET form comes back form-encoded in the URL --- */

#define GET_SECRET "pa ss!@<&\"w0rd"
#define GET_SECRET_FORM "pa+ss%21%40%3C%26%22w0rd" /* as Chromium puts it in the next URL */

Test(e2e_llm, secret_submitted_by_a_get_form_reaches_no_prompt_and_no_file)
{
    setenv("EOUS_SECRET_QUERY", GET_SECRET, 1);
    start_mock("[{\"kind\":\"tool\",\"calls\":[{\"name\":\"call\",\"args\":{\"k\":\"c1\",\"tool\":\"submit\","
               "\"params\":{\"Query\":\"{{secret:QUERY}}\"}}}],\"usage\":{\"in\":100,\"out\":10}},"
               "{\"kind\":\"tool\",\"calls\":[{\"name\":\"stop\",\"args\":{\"answer\":\"searched\"}}],"
               "\"usage\":{\"in\":100,\"out\":10}}]");
    char base[200], outdir[300];
    snprintf(base, sizeof base, "%s/v1", S.mock.base);
    snprintf(outdir, sizeof outdir, "%s/run", S.tmpdir);
    int rc = run_cli((const char *[]){"run", EOUS_SOURCE_DIR "/tests/fixtures/e2e/tasks/search_secret.json",
                                      "--planner", "llm", "--llm", "openai:test-model", "--llm-base-url", base,
                                      "--llm-ca", S.mock.ca, "--mode", "hybrid", "--out", outdir, NULL});
    unsetenv("EOUS_SECRET_QUERY");
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "the value must reach the URL (program_html); exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o);
    free(e);
    /* the model saw the page after the submit, with the URL's value redacted */
    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2);
    char *all = cJSON_PrintUnformatted(reqs);
    cr_expect_null(strstr(all, GET_SECRET_FORM), "the form-encoded secret reached the model");
    cr_expect_null(strstr(all, "pa ss!@"), "the secret reached the model");
    cJSON *second = request_body(reqs, 1);
    char *prompt = prompt_text(second);
    cr_expect(strstr(prompt, "q=[redacted]"), "the second request shows the URL, redacted: %s", prompt);
    free(prompt);
    cJSON_Delete(second);
    free(all);
    cJSON_Delete(reqs);
    /* nor any file of the run, stdout or stderr */
    assert_no_key_anywhere(outdir, GET_SECRET_FORM);
    assert_no_key_anywhere(outdir, "pa ss!@");
    assert_no_key_anywhere(outdir, "pa%20ss%21");
}

/* --prices FILE bills a model the built-in table lacks (the stand-in, a local model): results' cost_usd
 * and report.html's cost per task come from it; without it the same run bills 0. */
Test(e2e_llm, prices_file_bills_a_model_the_table_lacks)
{
    char base[200], prices[300];
    snprintf(prices, sizeof prices, "%s/prices.json", S.tmpdir);
    const char *table = "{\"test-model\": {\"input\": 2.0, \"output\": 8.0, \"cached_input\": 0.5}}\n";
    cr_assert_eq(eous_write_file_atomic(prices, table, strlen(table), NULL), EOUS_OK);
    for (int priced = 0; priced < 2; priced++) {
        start_mock("[" CALL_SETVALUE("{\"in\":1200,\"out\":30,\"cached\":0}") ","
                   STOP_ANSWER("{\"in\":1300,\"out\":10,\"cached\":0}") "]");
        snprintf(base, sizeof base, "%s/v1", S.mock.base);
        char outdir[300];
        snprintf(outdir, sizeof outdir, "%s/run-%d", S.tmpdir, priced);
        const char *args[16] = {"run", TASK_FX3, "--planner", "llm", "--llm", "openai:test-model", "--llm-base-url",
                                base, "--llm-ca", S.mock.ca, "--out", outdir, priced ? "--prices" : NULL, prices,
                                NULL};
        int rc = run_cli(args);
        char *e = ts_slurp(S.err_path);
        cr_assert_eq(rc, 0, "%s", e);
        free(e);
        cJSON *r = result_line(outdir, 1);
        /* 2500 input at $2 and 40 completion at $8 per 1M tokens */
        cr_expect(fabs(eous_json_num(r, "cost_usd", -1) - (priced ? 0.00532 : 0)) < 1e-9, "%s: cost_usd %g",
                  priced ? "--prices" : "no price", eous_json_num(r, "cost_usd", -1));
        cJSON_Delete(r);
        mock_stop(&S.mock);
    }
}

/* tests/agent/test_planner_exec.c — --planner exec: the user's own agent program
 * over JSON lines (agent/planner_exec.h), driven through the real CLI on the
 * fixture pages with real Chromium; BrowserGym's action strings
 * (actions/bgym.h) and the command's split without a shell.  The reference
 * agents on the Playground and a WebArena-Verified task are suite-level runs:
 * tests/harness/test_planner_exec_suite.c. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/bgym.h"
#include "agent/planner_exec.h"
#include "core/core.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define AGENTS EOUS_SOURCE_DIR "/tests/fixtures/agents"
#define FORM_TASK EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json"

static char out_path[256], err_path[256], tmpdir[256];
static ts_server *srv;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "pexec", out_path, err_path, sizeof out_path);
}

static void setup_site(void)
{
    setup();
    srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages");
    setenv("EOUS_SITE_FIXTURE", ts_server_url(srv), 1);
}

static void teardown(void)
{
    if (srv)
        ts_server_stop(srv);
    srv = NULL;
    ts_workdir_remove(tmpdir);
}

/* eous run form_hello.json in atomic mode with --agent agent (and extra options); the last
 * results.jsonl line (caller deletes) and the exit code in *rc. */
static cJSON *run_agent(const char *agent, const char *extra1, const char *extra2, int *rc)
{
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    const char *args[] = {"run", FORM_TASK, "--mode", "atomic", "--planner", "exec", "--agent", agent,
                          "--out", outdir, extra1, extra2, NULL};
    *rc = ts_cli_run(args, out_path, err_path, 240);
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *all = ts_slurp(path);
    char *last = all;
    for (char *p = all; *p; p++)
        if (*p == '\n' && p[1])
            last = p + 1;
    cJSON *line = cJSON_Parse(last);
    free(all);
    return line;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* ---- BrowserGym's strings and the protocol's reply, no browser ---------------------------- */

/* one timeout for every suite: suites with different ones leak a Criterion allocation under --jobs (LeakSanitizer) */
TestSuite(planner_exec_parse, .init = setup, .fini = teardown, .timeout = 1500);

Test(planner_exec_parse, browsergym_strings_become_eous_actions)
{
    struct {
        const char *s;
        act_kind kind;
        const char *target, *text;
    } ok[] = {
        {"click('12')", ACT_CLICK, "12", NULL},
        {"  click(\"a51\")", ACT_CLICK, "a51", NULL},
        {"fill('12', 'Ada Lovelace')", ACT_TYPE, "12", "Ada Lovelace"},
        /* Python's repr: the other quote inside, backslash escapes, \x \u \U */
        {"fill('7', \"it's \\\"quoted\\\"\\n\\\\ done\")", ACT_TYPE, "7", "it's \"quoted\"\n\\ done"},
        {"fill('7', 'it\\'s')", ACT_TYPE, "7", "it's"},
        {"fill('7', 'caf\\xe9 \\u263a \\U0001f600')", ACT_TYPE, "7", "caf\xc3\xa9 \xe2\x98\xba \xf0\x9f\x98\x80"},
        {"select_option('12', 'France')", ACT_SELECT, "12", "France"},
        {"goto('http://127.0.0.1:8080/a?b=1')", ACT_GOTO, NULL, "http://127.0.0.1:8080/a?b=1"},
        {"send_msg_to_user('19 items')", ACT_STOP, NULL, "19 items"},
        {"report_infeasible('no such page')", ACT_STOP, NULL, "N/A"},
        {"keyboard_press('ControlOrMeta+a')", ACT_PRESS, NULL, "Control+a"},
        {"scroll(0, -200)", ACT_SCROLL, NULL, "up"},
        {"hover('3')", ACT_HOVER, "3", NULL},
        {"go_back()", ACT_GO_BACK, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        act_action a;
        act_action_init(&a);
        eous_err e;
        eous_err_clear(&e);
        cr_assert(act_bgym_looks_like(ok[i].s), "%s", ok[i].s);
        cr_assert_eq(act_parse_bgym(ok[i].s, &a, &e), EOUS_OK, "%s: %s", ok[i].s, e.msg);
        cr_expect_eq(a.kind, ok[i].kind, "%s", ok[i].s);
        if (ok[i].target)
            cr_expect_str_eq(a.target, ok[i].target, "%s", ok[i].s);
        if (ok[i].text)
            cr_expect_str_eq(a.text, ok[i].text, "%s", ok[i].s);
        if (ok[i].kind == ACT_TYPE)
            cr_expect(a.enter == 0 && a.clear == 1, "fill replaces and presses nothing: %s", ok[i].s);
        act_action_clear(&a);
    }
    const char *bad[] = {"click(12)", "fill('12')", "click('12') and more", "fill('12', 'open)",
                         "fill('12', 'bad \\q escape')", "click('')", "select_option('1', ['a', 'b'])"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        act_action a;
        act_action_init(&a);
        eous_err e;
        eous_err_clear(&e);
        cr_expect_eq(act_parse_bgym(bad[i], &a, &e), EOUS_E_PARSE, "%s", bad[i]);
        cr_expect(e.msg[0], "a message for %s", bad[i]);
        cr_expect_eq(a.kind, ACT_NONE);
    }
    cr_expect(!act_bgym_looks_like("click [12]"), "eous's own syntax is not BrowserGym's");
}

Test(planner_exec_parse, a_reply_takes_every_syntax_and_counts_what_is_past_max_batch)
{
    act_action a[3];
    size_t n, dropped;
    agent_exec_usage u;
    eous_err e;
    eous_err_clear(&e);
    const char *line = "{\"actions\": [\"type [4] [Ada] [0]\", {\"name\": \"click\", \"arguments\": {\"id\": \"5\"}}, "
                       "\"select_option('6', 'France')\", \"click('7')\"], "
                       "\"usage\": {\"input_tokens\": 10, \"output_tokens\": 2, \"cost_usd\": 0.5}}";
    cr_assert_eq(agent_exec_parse_reply(line, a, 3, &n, &dropped, &u, &e), EOUS_OK, "%s", e.msg);
    cr_expect_eq(n, 3);
    cr_expect_eq(dropped, 1, "the fourth is past --max-batch 3");
    cr_expect(a[0].kind == ACT_TYPE && a[1].kind == ACT_CLICK && a[2].kind == ACT_SELECT);
    cr_expect_str_eq(a[1].target, "5");
    cr_expect(u.input_tokens == 10 && u.output_tokens == 2 && u.cost_usd == 0.5);
    for (size_t i = 0; i < n; i++)
        act_action_clear(&a[i]);
    cr_assert_eq(agent_exec_parse_reply("{\"stop\": {\"task_type\": \"RETRIEVE\", \"status\": \"SUCCESS\"}}", a, 3,
                                        &n, &dropped, &u, &e),
                 EOUS_OK, "%s", e.msg);
    cr_expect(n == 1 && a[0].kind == ACT_STOP && strstr(a[0].text, "\"task_type\":\"RETRIEVE\""),
              "an AgentResponse object is the stop's answer as JSON: %s", a[0].text);
    act_action_clear(&a[0]);
    const char *bad[] = {"click [4]", "{\"actions\": []}", "{\"actions\": [\"frobnicate [1]\"]}",
                         "{\"actions\": [\"click [1]\"], \"stop\": \"x\"}", "{\"actions\": [12]}", "{\"stop\": 3}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        eous_err_clear(&e);
        cr_expect_eq(agent_exec_parse_reply(bad[i], a, 3, &n, &dropped, &u, &e), EOUS_E_PARSE, "%s", bad[i]);
        cr_expect_eq(n, 0);
    }
}

Test(planner_exec_parse, the_command_is_split_by_eous_not_a_shell)
{
    char **argv = NULL;
    eous_err e;
    cr_assert_eq(agent_exec_split("python3  a.py 'x y' \"a\\\"b\" c;d $(touch F) `id` >out", &argv, &e), EOUS_OK,
                 "%s", e.msg);
    const char *want[] = {"python3", "a.py", "x y", "a\"b", "c;d", "$(touch", "F)", "`id`", ">out"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_str_eq(argv[i], want[i]);
    cr_expect_null(argv[sizeof want / sizeof *want]);
    agent_exec_argv_free(argv);
    cr_expect_eq(agent_exec_split("python3 'open", &argv, &e), EOUS_E_INVALID);
    cr_expect(strstr(e.msg, "unclosed quote"), "%s", e.msg);
    cr_expect_eq(agent_exec_split("   ", &argv, &e), EOUS_E_INVALID);
}

/* A program that cannot be run is bad input: one line, exit 2, before a browser, nothing written. */
Test(planner_exec_parse, a_program_that_cannot_run_is_bad_input)
{
    eous_err e;
    cr_expect_eq(agent_exec_check("python3 -c pass", &e), EOUS_OK, "%s", e.msg);
    cr_expect_eq(agent_exec_check("/nonexistent/agent --x", &e), EOUS_E_INVALID);
    cr_expect(strstr(e.msg, "agent command '/nonexistent/agent --x': /nonexistent/agent is not an executable file"),
              "%s", e.msg);
    cr_expect(!strstr(e.msg, "--agent"), "an embedder has no flags: %s", e.msg);
    cr_expect_eq(agent_exec_check("nosuchprog-eous-xyz a", &e), EOUS_E_INVALID);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    const char *args[] = {"run", FORM_TASK, "--planner", "exec", "--agent", "/nonexistent/agent", "--out", outdir,
                          NULL};
    cr_expect_eq(ts_cli_run(args, out_path, err_path, 60), 2);
    char *err = ts_slurp(err_path);
    /* the library names the agent command, the CLI its flag */
    cr_expect(strstr(err, "--agent: agent command '/nonexistent/agent': /nonexistent/agent is not an executable file"),
              "%s", err);
    cr_expect_eq(ts_count_lines(err), 1, "%s", err);
    free(err);
    cr_expect_neq(access(outdir, F_OK), 0, "nothing written");
    const char *alone[] = {"run", FORM_TASK, "--agent", "python3 x.py", "--out", outdir, NULL};
    cr_expect_eq(ts_cli_run(alone, out_path, err_path, 60), 2, "--agent without --planner exec");
    const char *none[] = {"run", FORM_TASK, "--planner", "exec", "--out", outdir, NULL};
    cr_expect_eq(ts_cli_run(none, out_path, err_path, 60), 2, "--planner exec without --agent");
}

/* ---- the CLI with a fixture agent ---------------------------------------------------------- */

TestSuite(planner_exec, .init = setup_site, .fini = teardown, .timeout = 1500);

/* The fixture agent passes the task writing its actions in eous's text syntax, as tool call
 * objects and as BrowserGym strings; its usage lands in the result, its stderr beside the trace. */
Test(planner_exec, an_agent_passes_in_each_action_syntax)
{
    const char *styles[] = {"text", "json", "bgym"};
    for (size_t i = 0; i < 3; i++) {
        char agent[600], log[300];
        snprintf(log, sizeof log, "%s/%s.log", tmpdir, styles[i]);
        snprintf(agent, sizeof agent, "python3 %s/pass.py %s %s", AGENTS, log, styles[i]);
        int rc;
        cJSON *r = run_agent(agent, NULL, NULL, &rc);
        char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
        cr_assert_eq(rc, 0, "%s: stdout %s stderr %s", styles[i], o, e);
        cr_expect_str_eq(str(r, "status"), "passed");
        cr_expect_str_eq(str(r, "planner"), "exec");
        cr_expect_str_eq(str(r, "answer"), "Hello Ada Lovelace");
        cr_expect_eq(cJSON_GetObjectItem(r, "prompt_tokens")->valueint, 200, "the agent's usage, twice");
        cr_expect_eq(cJSON_GetObjectItem(r, "plan_calls")->valueint, 2, "two round trips: a batch, then stop");
        free(o);
        free(e);
        cJSON_Delete(r);
        char *got = ts_slurp(log);
        cr_expect(strstr(got, "{\"type\":\"task\",\"protocol\":1,\"task_id\":\"fx-1\""), "%s", got);
        cr_expect(strstr(got, "\"type\":\"observation\",\"step\":1,"), "%s", got);
        cr_expect(strstr(got, "\"delta\":true,\"base\":1,"), "the second view is a delta on the first: %s", got);
        cr_expect(strstr(got, "\"last\":[\"ok: typed 12 characters into"), "%s", got);
        cr_expect(strstr(got, "{\"type\":\"done\",\"status\":\"passed\",\"score\":1"), "%s", got);
        free(got);
    }
    char path[400];
    snprintf(path, sizeof path, "%s/run/trace/fx-1-atomic.agent.stderr", tmpdir);
    cr_expect_eq(access(path, F_OK), 0, "the agent's stderr is kept beside the trace");
}

/* --max-batch applies to an agent's actions as to a model's: the click past one action is not run,
 * and the agent is told so in its next observation's "last". */
Test(planner_exec, max_batch_applies_to_the_agent)
{
    char agent[600], log[300];
    snprintf(log, sizeof log, "%s/batch.log", tmpdir);
    snprintf(agent, sizeof agent, "python3 %s/pass.py %s text", AGENTS, log);
    int rc;
    cJSON *r = run_agent(agent, "--max-batch", "1", &rc);
    cr_expect_neq(str(r, "status")[0], 'p', "the click never runs: %s", str(r, "status"));
    cr_expect_geq(cJSON_GetObjectItem(r, "actions_not_run")->valueint, 1);
    cJSON_Delete(r);
    char *got = ts_slurp(log);
    cr_expect(strstr(got, "\"not run: more actions than the batch limit allows in one answer\""), "%s", got);
    free(got);
}

Test(planner_exec, an_agent_that_exits_at_step_2_fails_the_task_not_the_infra)
{
    char agent[400];
    snprintf(agent, sizeof agent, "python3 %s/exit_at_2.py", AGENTS);
    int rc;
    cJSON *r = run_agent(agent, NULL, NULL, &rc);
    cr_expect_eq(rc, 1, "a failed task: exit 1");
    cr_expect_str_eq(str(r, "status"), "failed");
    cr_expect_str_eq(str(r, "stop_reason"), "agent_exited");
    cr_expect(strstr(str(r, "error"), "the agent exited with status 3"), "%s", str(r, "error"));
    cJSON_Delete(r);
}

/* A hung agent fails the task at --agent-timeout; its group (a child it started too) is killed. */
Test(planner_exec, an_agent_that_hangs_fails_at_its_bound_and_its_group_is_killed)
{
    char agent[600], pids[300];
    snprintf(pids, sizeof pids, "%s/hang.pids", tmpdir);
    snprintf(agent, sizeof agent, "python3 %s/hang.py %s", AGENTS, pids);
    int rc;
    double t0 = eous_now_ms();
    cJSON *r = run_agent(agent, "--agent-timeout", "3", &rc);
    double took = (eous_now_ms() - t0) / 1000;
    cr_expect_eq(rc, 1);
    cr_expect_str_eq(str(r, "status"), "failed");
    cr_expect_str_eq(str(r, "stop_reason"), "agent_timeout");
    cr_expect(strstr(str(r, "error"), "did not answer observation 1 within 3.0 s"), "%s", str(r, "error"));
    cr_expect_lt(took, 60, "bounded: %.1f s", took);
    cJSON_Delete(r);
    char *p = ts_slurp(pids);
    int leader = 0, child = 0;
    cr_assert_eq(sscanf(p, "%d %d", &leader, &child), 2, "%s", p);
    free(p);
    cr_expect(kill(leader, 0) != 0 && kill(child, 0) != 0, "agent %d and its child %d are gone", leader, child);
}

Test(planner_exec, an_agent_that_writes_garbage_fails_with_the_line_quoted)
{
    char agent[400];
    snprintf(agent, sizeof agent, "python3 %s/garbage.py", AGENTS);
    int rc;
    cJSON *r = run_agent(agent, NULL, NULL, &rc);
    cr_expect_eq(rc, 1);
    cr_expect_str_eq(str(r, "status"), "failed");
    cr_expect_str_eq(str(r, "stop_reason"), "agent_bad_line");
    cr_expect(strstr(str(r, "error"), "\"I think I will click the button now\""), "%s", str(r, "error"));
    cJSON_Delete(r);
}

/* Nothing an agent writes, nor its command line, reaches a shell. */
Test(planner_exec, shell_metacharacters_reach_no_shell)
{
    char agent[900], f1[300], f2[300], f3[300], f4[300];
    snprintf(f1, sizeof f1, "%s/f1", tmpdir);
    snprintf(f2, sizeof f2, "%s/f2", tmpdir);
    snprintf(f3, sizeof f3, "%s/f3", tmpdir);
    snprintf(f4, sizeof f4, "%s/f4", tmpdir);
    snprintf(agent, sizeof agent, "python3 %s/shell_meta.py %s %s", AGENTS, f1, f2);
    int rc;
    cJSON *r = run_agent(agent, NULL, NULL, &rc);
    cr_expect_str_eq(str(r, "stop_reason"), "agent_bad_line", "\"$(touch F)\" is not an action");
    cJSON_Delete(r);
    /* the command line: words for execvp, ; and $( ) plain characters */
    snprintf(agent, sizeof agent, "python3 %s/pass.py %s/log text; touch %s $(touch %s)", AGENTS, tmpdir, f3, f4);
    r = run_agent(agent, NULL, NULL, &rc);
    cJSON_Delete(r);
    char path[400];
    snprintf(path, sizeof path, "%s/run/trace/fx-1-atomic.jsonl", tmpdir);
    char *tr = ts_slurp(path);
    cr_expect(access(f1, F_OK) && access(f2, F_OK) && access(f3, F_OK) && access(f4, F_OK),
              "no file made by a shell; trace: %s", tr);
    free(tr);
}

/* The task message names the secrets, never their values; a value the page shows back (typed into a
 * field, then in the page's URL after a goto) is redacted in every observation the agent reads. */
Test(planner_exec, the_agent_gets_secret_names_never_values)
{
    setenv("EOUS_SECRET_EXECPW", "zq-exec-Value-771", 1);
    char agent[600], log[300];
    snprintf(log, sizeof log, "%s/secret.log", tmpdir);
    snprintf(agent, sizeof agent, "python3 %s/secret.py %s", AGENTS, log);
    int rc;
    cJSON *r = run_agent(agent, NULL, NULL, &rc);
    unsetenv("EOUS_SECRET_EXECPW");
    cJSON_Delete(r);
    char *got = ts_slurp(log);
    cr_expect(strstr(got, "\"secrets\":[\"EXECPW\"]"), "%s", got);
    cr_expect(strstr(got, "\"type\":\"observation\",\"step\":3"), "the agent saw the page after the goto: %s", got);
    cr_expect_null(strstr(got, "zq-exec-Value-771"), "%s", got);
    free(got);
}

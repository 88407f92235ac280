/* tests/harness/test_planner_exec_suite.c — --planner exec on the bundled grounds, a suite-level run (the
 * release build, as test_bench_site and test_model_path: it runs whole tasks many times over the same
 * library code tests/agent/test_planner_exec.c holds under ASan): the Python and Node reference agents
 * against the --planner llm path through the stand-in model on a Playground slice, and an agent's
 * AgentResponse object scored on a WebArena-Verified DokuWiki task. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/service.h"
#include "support/testsrv.h"
#include "support/workdir.h"
#include "support/grounds.h"
#include "support/site.h"

#define AGENTS EOUS_SOURCE_DIR "/tests/fixtures/agents"

static char out_path[256], err_path[256], tmpdir[256];
static ts_server *srv;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "pexec", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    if (srv)
        ts_server_stop(srv);
    srv = NULL;
    ts_workdir_remove(tmpdir);
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}


/* ---- the reference agents on the Playground, the model played by the stand-in -------------- */

static pid_t standin = -1;
static char standin_url[64];

static void setup_playground(void)
{
    setup();
    srv = ts_server_start(TS_PLAYGROUND_DIST);
    cr_assert_not_null(srv, "the Playground is built (scripts/build-site)");
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(srv), 1);
    cr_assert_eq(ts_standin_start(NULL, &standin, standin_url, sizeof standin_url), 0, "the stand-in starts");
    /* what the reference agents read */
    setenv("OPENAI_BASE_URL", standin_url, 1);
    setenv("OPENAI_MODEL", "standin", 1);
}

static void teardown_playground(void)
{
    ts_service_stop(standin);
    standin = -1;
    unsetenv("OPENAI_BASE_URL");
    teardown();
}

/* The passed lines of OUTDIR/results.jsonl; out gets "task/mode:plan_calls " for every line, sorted
 * (the workers finish in any order), failed ones marked. */
static int passed_round_trips(const char *outdir, char *out, size_t n)
{
    char path[400];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *all = ts_slurp(path);
    char items[64][48];
    int k = 0, passed = 0;
    for (char *line = strtok(all, "\n"); line && k < 64; line = strtok(NULL, "\n")) {
        cJSON *r = cJSON_Parse(line);
        passed += !strcmp(str(r, "status"), "passed");
        const cJSON *pc = cJSON_GetObjectItem(r, "plan_calls");
        snprintf(items[k++], sizeof items[0], "%s%s/%s:%d ", strcmp(str(r, "status"), "passed") ? "FAILED " : "",
                 str(r, "task_id"), str(r, "mode"), pc ? pc->valueint : -1);
        cJSON_Delete(r);
    }
    free(all);
    qsort(items, (size_t)k, sizeof items[0], (int (*)(const void *, const void *))strcmp);
    out[0] = '\0';
    for (int i = 0; i < k; i++)
        strncat(out, items[i], n - strlen(out) - 1);
    return passed;
}

TestSuite(planner_exec_reference, .init = setup_playground, .fini = teardown_playground, .timeout = 1500);

/* examples/agents/agent.py and agent.mjs pass a Playground slice in hybrid and atomic on two workers
 * with the same passes and the same round trips per task as --planner llm with the same model. */
Test(planner_exec_reference, python_and_node_agents_match_the_llm_planner)
{
    /* one task per screen and kind (a form, a question, a page tool, switches): a second booking and a
     * users modal added 12 task runs a CI and no path the four do not take */
    const char *tasks[] = {"000", "020", "060", "080"};
    char slice[300];
    snprintf(slice, sizeof slice, "%s/slice", tmpdir);
    cr_assert_eq(mkdir(slice, 0755), 0);
    for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++) {
        char from[400], to[400];
        snprintf(from, sizeof from, "%s/playground/%s.json", TS_TASKS, tasks[i]);
        snprintf(to, sizeof to, "%s/%s.json", slice, tasks[i]);
        cr_assert_eq(symlink(from, to), 0);
    }
    const char *agents[] = {"python3 " EOUS_SOURCE_DIR "/examples/agents/agent.py",
                            "node " EOUS_SOURCE_DIR "/examples/agents/agent.mjs", NULL};
    char want[2048], got[2048], outdir[300];
    snprintf(outdir, sizeof outdir, "%s/llm", tmpdir);
    const char *llm[] = {"bench", slice, "--modes", "hybrid,atomic", "--planner", "llm", "--llm", "openai:standin",
                         "--llm-base-url", standin_url, "--workers", "2", "--out", outdir, NULL};
    cr_assert_eq(ts_cli_run(llm, out_path, err_path, 600), 0, "the llm planner passes the slice");
    cr_assert_eq(passed_round_trips(outdir, want, sizeof want), 8, "%s", want);
    for (int a = 0; agents[a]; a++) {
        snprintf(outdir, sizeof outdir, "%s/exec%d", tmpdir, a);
        const char *args[] = {"bench", slice, "--modes", "hybrid,atomic", "--planner", "exec", "--agent", agents[a],
                              "--workers", "2", "--out", outdir, NULL};
        int rc = ts_cli_run(args, out_path, err_path, 600);
        int passed = passed_round_trips(outdir, got, sizeof got);
        char *e = ts_slurp(err_path);
        cr_expect_eq(rc, 0, "%s: %s %s", agents[a], got, e);
        free(e);
        cr_expect_eq(passed, 8, "%s: %s", agents[a], got);
        cr_expect_str_eq(got, want, "%s: the same round trips per task as the llm planner", agents[a]);
    }
}

/* ---- a WebArena-Verified task answered with an AgentResponse object (DokuWiki, scripts/wiki) ---- */

static char wikidir[300], wiki_secrets[300];

static void setup_wiki(void)
{
    setup();
    snprintf(wikidir, sizeof wikidir, "%s/wiki", tmpdir);
    snprintf(wiki_secrets, sizeof wiki_secrets, "%s/secrets.env", tmpdir);
    cr_assert_eq(ts_site_start(EOUS_SOURCE_DIR "/scripts/wiki", "DOKUWIKI", wikidir, wiki_secrets), 0,
                 "scripts/wiki started (its stderr says why not)");
}

static void teardown_wiki(void)
{
    ts_site_stop(EOUS_SOURCE_DIR "/scripts/wiki", wikidir);
    teardown();
}

TestSuite(planner_exec_verified, .init = setup_wiki, .fini = teardown_wiki, .timeout = 1500);

/* The agent is told the answer format (answer_schema), stops with {"stop": {AgentResponse}}, both
 * evaluators score it, and the done message gives each evaluator's verdict. */
Test(planner_exec_verified, an_agent_response_object_is_scored_by_both_evaluators)
{
    char agent[600], log[300], outdir[300];
    snprintf(log, sizeof log, "%s/verified.log", tmpdir);
    snprintf(agent, sizeof agent, "python3 %s/verified.py %s", AGENTS, log);
    snprintf(outdir, sizeof outdir, "%s/run", tmpdir);
    const char *args[] = {"run", TS_TASKS "/verified/9001.json", "--mode", "atomic",
                          "--planner", "exec", "--agent", agent, "--secrets", wiki_secrets, "--out", outdir, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 240);
    char *o = ts_slurp(out_path), *e = ts_slurp(err_path);
    cr_expect_eq(rc, 0, "stdout %s stderr %s", o, e);
    cr_expect(strstr(o, "AgentResponseEvaluator success · NetworkEventEvaluator success"), "%s", o);
    free(o);
    free(e);
    char *got = ts_slurp(log);
    cr_expect(strstr(got, "\"answer_schema\":{\"type\":\"object\""), "%s", got);
    cr_expect(strstr(got, "{\"type\":\"done\",\"status\":\"passed\",\"score\":1,"), "%s", got);
    cr_expect(strstr(got, "\"evaluators\":[{\"evaluator\":\"AgentResponseEvaluator\",\"status\":\"success\""), "%s",
              got);
    free(got);
}

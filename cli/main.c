/* cli/main.c — the eous CLI: parses options and calls libeous's public API.
 * Exit codes: 0 ok/passed · 1 a task failed · 2 bad input · 3 infrastructure ·
 * 130/143 interrupted by SIGINT/SIGTERM (core/err.c's eous_rc_exit_code). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"

static void usage(FILE *f)
{
    fputs("usage: eous COMMAND [ARGS]\n"
          "\n"
          "  run   TASK.json [--planner llm|script|replay|exec] [--mode hybrid|pruned|atomic|html|vision]\n"
          "                  [--agent 'CMD ARGS'] [--agent-timeout S]  exec: your agent program over JSON\n"
          "                  lines (protocol 1, README), one process per task x mode, no shell\n"
          "                  [--llm PROVIDER:MODEL] [--llm-base-url URL] [--llm-ca FILE] [--cassette FILE]\n"
          "                  [--webdriver URL] [--out DIR] [--max-steps N] [--max-seconds N]\n"
          "                  [--secrets FILE] [--policy FILE] [--w3c-only] [--max-obs-tokens N]\n"
          "                  [--max-batch N] [--deltas on|off] [--history stateless|full] [--history-budget N]\n"
          "                  [--files DIR] [--repair llm]   RPA: uploads only from DIR; a script step whose\n"
          "                  target is gone replaced once by the model (repair.json beside the trace)\n"
          "                  [--param NAME=VALUE]... [--params FILE]  fill the job's {{param:NAME}} (a JSON\n"
          "                  object or NAME=value lines; the last value given wins; also for bench)\n"
          "  bench TASKS...  [--modes hybrid,atomic] [--planner ...] [--workers N]\n"
          "                  [--webdriver URL] [--out DIR] [--resume] [--lock FILE] [--w3c-only]\n"
          "                  [--restart-browser-every N]  a fresh browser per worker every N tasks (100)\n"
          "                  [--fail-on any-attempt|last-attempt]  any-attempt: an earlier failed attempt exits 1\n"
          "  observe URL     [--mode atomic|pruned|hybrid|html|vision] [--format text|json] [--webdriver URL]\n"
          "                  [--screenshot FILE.png]  vision: the set-of-marks screenshot the model gets\n"
          "  call URL KEY TOOL PARAMS_JSON [--webdriver URL]   one semantic call, result as JSON\n"
          "  check TASK.json...   validate task files, one line per problem\n"
          "  compare RUN_A RUN_B [--format md|json]   per task × mode changes; exit 1 on regressions\n"
          "  repair apply RUN_DIR   the task files a run's --repair proposed, under RUN_DIR/repaired/\n"
          "  score            WebArena's evaluators on JSON lines {eval,intent,answer,url,values} from stdin\n"
          "  mcp             [--mode hybrid|pruned|atomic] [--deltas on|off] [--type edit|keys] [--webdriver URL] [--w3c-only]\n"
          "                  [--policy FILE] [--secrets FILE] [--audit FILE] [--headed]   MCP server over stdio;\n"
          "                  with --port N [--host ADDR] [--allowed-origins LIST] [--allowed-hosts LIST]\n"
          "                  [--token FILE] [--max-sessions N] [--idle-timeout S] [--max-body BYTES]\n"
          "                  [--request-timeout S] [--header-timeout S] [--max-client-connections N]\n"
          "                  [--require-origin]:\n"
          "                  Streamable HTTP at /mcp, one browser per session (--port 0 prints the URL);\n"
          "                  a request's headers must come within --header-timeout (10) of connecting, its\n"
          "                  body within --request-timeout (60) of the headers, or the connection is closed;\n"
          "                  one client address holds at most --max-client-connections (32) of 256\n"
          "\n"
          "  --webdriver URL  a remote WebDriver (Selenium Grid hub) instead of a local chromedriver\n"
          "  --w3c-only       never use CDP: perceive and act through W3C scripts alone, as on\n"
          "                   endpoints without goog/cdp (geckodriver, Safari, stripped grids)\n"
          "  --screenshots none|failure|final|every  run/bench: PNGs beside each trace (secret fields\n"
          "                   masked) of failed steps and failed tasks' last page (failure, default),\n"
          "                   every task's last page (final) or every step (every); each step's\n"
          "                   observation text is kept as trace/TASK-MODE/step-NN.txt\n"
          "  --max-obs-tokens N  send the model the first N o200k tokens of each observation (WebArena's\n"
          "                   max_obs_length); default: no cut, 1920 for the WebArena text prompt\n"
          "  --type edit|keys  how an atomic type enters text: edit (default) puts plain text in as one\n"
          "                   edit and its last character as a key press; keys presses every key (for a\n"
          "                   page that filters or acts on each key)\n"
          "  --max-batch N    actions one plan may hold, run in order on the view they were planned on\n"
          "                   (default 8; 1 = one action per step)\n"
          "  --deltas on|off  from the second step send what changed in the view (default on for the llm\n"
          "                   planner with --history full); the trace records full and sent sizes\n"
          "  --history stateless|full  model requests: stateless = WebArena's shape (the whole view and\n"
          "                   every previous action each time; no deltas), full = one conversation per\n"
          "                   task, deltas against the view before them, a cacheable prefix (default)\n"
          "  --history-budget N  full: tokens a conversation holds before it starts afresh (24000)\n"
          "  --help, --version\n"
          "exit codes: 0 passed, 1 a task failed, 2 bad input, 3 infrastructure (also a start URL\n"
          "that cannot be loaded), 130 SIGINT, 143 SIGTERM\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EOUS_EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { /* `eous bench --help` */
            usage(stdout);
            return 0;
        }
    if (!strcmp(cmd, "--version")) {
        printf("eous %s\n", EOUS_VERSION);
        return 0;
    }
    /* past a file-size limit, write() fails with EFBIG (a one-line error)
     * instead of the signal killing us mid-line */
    signal(SIGXFSZ, SIG_IGN);
    const char *lvl = getenv("EOUS_LOG");
    if (lvl && eous_log_level_parse(lvl) >= 0)
        eous_log_configure((eous_log_level)eous_log_level_parse(lvl), getenv("EOUS_LOG_JSON") != NULL, NULL);
    if (!strcmp(cmd, "observe"))
        return cli_observe(argc - 1, argv + 1);
    if (!strcmp(cmd, "call"))
        return cli_call(argc - 1, argv + 1);
    if (!strcmp(cmd, "run"))
        return cli_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return cli_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cli_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return cli_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "score"))
        return cli_score(argc - 1, argv + 1);
    if (!strcmp(cmd, "mcp"))
        return cli_mcp(argc - 1, argv + 1);
    if (!strcmp(cmd, "repair"))
        return cli_repair(argc - 1, argv + 1);
    fprintf(stderr,
            "eous: unknown command '%s' (expected run, bench, observe, call, check, compare, score, mcp, repair; see eous --help)\n",
            cmd);
    return EOUS_EXIT_INPUT;
}

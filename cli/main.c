/* cli/main.c — the eous CLI: parses options and calls libeous's public API.
 * Exit codes: 0 ok/passed · 1 a task failed · 2 bad input · 3 infrastructure ·
 * 130/143 interrupted by SIGINT/SIGTERM (core/err.c's eous_rc_exit_code). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_help.h"
#include "core/core.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return EOUS_EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        /* `eous help run` is `eous run --help` */
        if (argc > 2 && cli_help(stdout, argv[2])) {
            fprintf(stderr, "eous help: unknown command '%s' (expected run, bench, observe, call, check, compare, "
                            "score, mcp, repair, distill, report)\n", argv[2]);
            return EOUS_EXIT_INPUT;
        }
        if (argc <= 2)
            cli_usage(stdout);
        return 0;
    }
    for (int i = 2; i < argc && cli_cmd_bit(cmd); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) /* `eous bench --help`: bench's own options */
            return cli_help(stdout, cmd) ? EOUS_EXIT_INPUT : 0;
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
    if (!strcmp(cmd, "distill"))
        return cli_distill(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cli_report(argc - 1, argv + 1);
    fprintf(stderr,
            "eous: unknown command '%s' (expected run, bench, observe, call, check, compare, score, mcp, repair, distill, report; see eous --help)\n",
            cmd);
    return EOUS_EXIT_INPUT;
}

/* cli/cli_repair.c — `eous repair apply RUN_DIR`: the task files a run's
 * --repair llm proposed, written under RUN_DIR/repaired/ for review
 * (agent/repair.h); the original task files are never touched. */
#include <stdio.h>
#include <string.h>

#include "agent/repair.h"
#include "cli/cli.h"

int cli_repair(int argc, char **argv)
{
    if (argc != 3 || strcmp(argv[1], "apply")) {
        fprintf(stderr, "eous repair: expected `eous repair apply RUN_DIR`\n");
        return EOUS_EXIT_INPUT;
    }
    int written = 0;
    eous_err err;
    eous_err_clear(&err);
    eous_rc rc = agent_repair_apply(argv[2], stdout, &written, &err);
    if (rc) {
        fprintf(stderr, "eous repair: %s\n", err.msg);
        return eous_rc_exit_code(rc);
    }
    if (!written)
        fprintf(stdout, "%s: no repair of a task that passed; nothing written\n", argv[2]);
    return 0;
}

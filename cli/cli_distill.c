/* cli/cli_distill.c — `eous distill RUN_DIR [--task ID] [--mode M] [-o FILE]`:
 * a model's passed run as a plain job file (agent/distill.h) on stdout or in
 * FILE (written whole or not at all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/distill.h"
#include "cli/cli.h"
#include "cli/cli_help.h"

int cli_distill(int argc, char **argv)
{
    const char *run_dir = NULL, *task = NULL, *mode = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            if (run_dir) {
                fprintf(stderr, "eous distill: '%s': expected one RUN_DIR (got '%s' already)\n", a, run_dir);
                return EOUS_EXIT_INPUT;
            }
            run_dir = a;
            continue;
        }
        if (!cli_own_opt_known(CLI_CMD_DISTILL, a) || i + 1 >= argc) {
            fprintf(stderr, "eous distill: %s: %s (see eous distill --help)\n", a,
                    cli_own_opt_known(CLI_CMD_DISTILL, a) ? "expected a value" : "unknown option");
            return EOUS_EXIT_INPUT;
        }
        const char *v = argv[++i];
        if (!strcmp(a, "--task"))
            task = v;
        else if (!strcmp(a, "--mode"))
            mode = v;
        else
            file = v;
    }
    if (!run_dir) {
        fprintf(stderr, "eous distill: expected `eous distill RUN_DIR [--task ID] [--mode M] [-o FILE]`\n");
        return EOUS_EXIT_INPUT;
    }
    cJSON *job = NULL;
    char *text = NULL;
    eous_err err;
    eous_err_clear(&err);
    eous_rc rc = agent_distill(run_dir, task, mode, &job, &err);
    if (!rc && !(text = cJSON_Print(job)))
        rc = eous_err_set(&err, EOUS_E_NOMEM, "out of memory");
    if (!rc && file) {
        size_t n = strlen(text);
        text[n] = '\n'; /* cJSON_Print's NUL becomes the last newline; the length says where to stop */
        rc = eous_write_file_atomic(file, text, n + 1, &err);
        text[n] = '\0';
    } else if (!rc) {
        printf("%s\n", text);
    }
    if (rc) {
        fprintf(stderr, "eous distill: %s%s\n", err.msg,
                !strcmp(err.code, "ambiguous") ? " (--task ID --mode M)" : "");
    } else {
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(job, "params"), *note;
        cJSON_ArrayForEach(note, cJSON_GetObjectItemCaseSensitive(job, "notes")) /* a step dropped, a value made */
            if (cJSON_IsString(note))
                fprintf(stderr, "eous distill: %s\n", note->valuestring);
        fprintf(stderr, "eous distill: %d steps, %d parameters%s%s\n",
                cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(job, "steps")),
                params ? cJSON_GetArraySize(params) : 0, file ? " -> " : "", file ? file : "");
    }
    free(text);
    cJSON_Delete(job);
    return rc ? eous_rc_exit_code(rc) : 0;
}

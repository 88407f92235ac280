/* cli/cli_compare.c — `eous compare RUN_A RUN_B [--format md|json]`: what
 * changed from run A to run B; exit 1 when B regressed (see runs/runcmp.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_help.h"
#include "runs/runcmp.h"

int cli_compare(int argc, char **argv)
{
    const char *runs[2] = {NULL, NULL}, *format = "md";
    int nruns = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && !cli_own_opt_known(CLI_CMD_COMPARE, argv[i])) {
            fprintf(stderr, "eous compare: unknown option '%s' (see eous compare --help)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        }
        if (!strcmp(argv[i], "--format") && i + 1 < argc)
            format = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(stderr, "eous compare: unknown option '%s' (expected --format md|json)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        } else if (nruns < 2)
            runs[nruns++] = argv[i];
        else {
            fprintf(stderr, "eous compare: unexpected argument '%s' (two run directories expected)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        }
    }
    if (nruns != 2) {
        fprintf(stderr, "eous compare: expected two run directories, RUN_A RUN_B\n");
        return EOUS_EXIT_INPUT;
    }
    if (strcmp(format, "md") && strcmp(format, "json")) {
        fprintf(stderr, "eous compare: --format '%s': expected md or json\n", format);
        return EOUS_EXIT_INPUT;
    }
    runs_cmp *c = NULL;
    eous_err err = {0};
    if (runs_cmp_load(runs[0], runs[1], &c, &err)) {
        fprintf(stderr, "eous compare: %s\n", err.msg);
        return eous_rc_exit_code(err.rc);
    }
    char *text = !strcmp(format, "json") ? runs_cmp_json(c) : runs_cmp_markdown(c);
    runs_cmp_counts n;
    runs_cmp_get_counts(c, &n);
    runs_cmp_free(c);
    if (!text) {
        fprintf(stderr, "eous compare: out of memory\n");
        return EOUS_EXIT_INFRA;
    }
    fputs(text, stdout);
    if (text[0] && text[strlen(text) - 1] != '\n')
        fputc('\n', stdout);
    free(text);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "eous compare: could not write the comparison to stdout\n");
        return EOUS_EXIT_INFRA;
    }
    return n.regressions ? EOUS_EXIT_FAILED : EOUS_EXIT_OK;
}

/* cli/cli_report.c — `eous report RUN_A RUN_B [RUN...] [-o FILE.html]`: one
 * HTML page comparing run folders (runs/report.h: runs_compare_html_write).
 * Its own command, not `compare --format html`: compare is the two-run check
 * CI gates on (exit 1 on a regression, text on stdout); this is a page for a
 * reader, of two runs or more (default vs baseline, mode vs mode), written to
 * a file whose path it prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_help.h"
#include "runs/report.h"
#include "runs/rundir.h"

#define REPORT_MAX_RUNS 16

int cli_report(int argc, char **argv)
{
    const char *runs[REPORT_MAX_RUNS], *file = NULL;
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && (!cli_own_opt_known(CLI_CMD_REPORT, a) || i + 1 >= argc)) {
            fprintf(stderr, "eous report: %s: %s (see eous report --help)\n", a,
                    cli_own_opt_known(CLI_CMD_REPORT, a) ? "expected a value" : "unknown option");
            return EOUS_EXIT_INPUT;
        }
        if (a[0] == '-')
            file = argv[++i];
        else if (n < REPORT_MAX_RUNS)
            runs[n++] = a;
        else {
            fprintf(stderr, "eous report: '%s': at most %d run folders on one page\n", a, REPORT_MAX_RUNS);
            return EOUS_EXIT_INPUT;
        }
    }
    if (n < 2) {
        fprintf(stderr, "eous report: expected two run folders or more, `eous report RUN_A RUN_B [RUN...] "
                        "[-o FILE.html]` (got %d)\n", n);
        return EOUS_EXIT_INPUT;
    }
    eous_err err;
    eous_err_clear(&err);
    cli_opts co; /* only for the default folder: eous-runs/DATE-compare[-N]/ */
    memset(&co, 0, sizeof co);
    char path[600];
    for (int i = 0; i < n && !file; i++) { /* a bad folder is named before one is made for the page */
        runs_dir rd;
        if (runs_dir_load(runs[i], 0, &rd, &err)) {
            fprintf(stderr, "eous report: not a run folder: %s\n", err.msg);
            return EOUS_EXIT_INPUT;
        }
        runs_dir_free(&rd);
    }
    if (!file && cli_default_out(&co, "compare", &err)) {
        fprintf(stderr, "eous report: %s\n", err.msg);
        return eous_rc_exit_code(err.rc);
    }
    if (!file)
        snprintf(path, sizeof path, "%s/compare.html", co.out_dir);
    eous_rc rc = runs_compare_html_write(runs, n, file ? file : path, &err);
    if (rc) {
        if (!file)
            rmdir(co.out_dir); /* the folder made for it holds nothing: it goes */
        fprintf(stderr, "eous report: %s\n", err.msg);
        return eous_rc_exit_code(rc);
    }
    printf("comparison: %s\n", file ? file : path);
    return EOUS_EXIT_OK;
}

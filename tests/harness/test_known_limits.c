/* tests/harness/test_known_limits.c — eous bench --known-limits FILE that eous cannot take: one line naming the
 * file and the entry, exit 2, before any run folder is made (no browser either).  Its own binary: beside
 * test_report_html's suite, Criterion's parallel runner leaked 48 bytes under ASan. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/workdir.h"

TestSuite(report_known, .timeout = 120);

Test(report_known, bad_known_limits_file_is_one_line_exit_2_nothing_written)
{
    char dir[256], o[300], e[300];
    ts_workdir_make(dir, sizeof dir, "known", o, e, sizeof o);
    static const char *const cases[][2] = {
        {"not json", "known.json"},
        {"{\"limits\": [{\"said\": \"x\"}]}", "limits[0]: expected {\"said\": REGEX, \"why\": TEXT}"},
        {"{\"limits\": [{\"said\": \"(a\", \"why\": \"w\"}]}", "limits[0]: said '(a' is not a POSIX extended"},
        {"{\"limits\": [{\"said\": \"a\", \"why\": \"w\", \"mode\": \"tree\"}]}", "limits[0]: mode 'tree'"},
        {"{\"limits\": {}}", "expected {\"limits\": [...]}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char known[300], out[300];
        snprintf(known, sizeof known, "%s/known.json", dir);
        snprintf(out, sizeof out, "%s/run", dir);
        FILE *f = fopen(known, "w");
        cr_assert_not_null(f);
        fputs(cases[i][0], f);
        fclose(f);
        int rc = ts_cli_run((const char *[]){"bench", EOUS_SOURCE_DIR "/tests/fixtures/tasks/form_hello.json",
                                             "--known-limits", known, "--out", out, NULL},
                            o, e, 60);
        char *err = ts_slurp(e);
        cr_expect_eq(rc, 2, "%s: %s", cases[i][0], err);
        cr_expect(strstr(err, "eous bench: --known-limits: ") && strstr(err, known) && strstr(err, cases[i][1]) &&
                      ts_count_lines(err) == 1,
                  "one line naming the file and the entry (%s): %s", cases[i][1], err);
        cr_expect_neq(access(out, F_OK), 0, "no run folder for %s", cases[i][0]);
        free(err);
    }
    ts_workdir_remove(dir);
}

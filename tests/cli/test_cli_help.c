/* tests/cli/test_cli_help.c — `eous COMMAND --help` against the option tables
 * the parsers use (cli/cli_help.h, linked in): every row appears in the help
 * of each command it belongs to and nowhere else, and each command's parser
 * takes it.  No browser: every run here stops at its arguments. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_help.h"
#include "support/cli.h"
#include "support/workdir.h"

static char out_path[256], err_path[256], tmpdir[256];

static const struct {
    const char *name;
    unsigned bit;
} COMMANDS[] = {
    {"run", CLI_CMD_RUN},         {"bench", CLI_CMD_BENCH},     {"observe", CLI_CMD_OBSERVE},
    {"call", CLI_CMD_CALL},       {"check", CLI_CMD_CHECK},     {"compare", CLI_CMD_COMPARE},
    {"score", CLI_CMD_SCORE},     {"mcp", CLI_CMD_MCP},         {"repair", CLI_CMD_REPAIR},
    {"report", CLI_CMD_REPORT},
};
#define N_COMMANDS (sizeof COMMANDS / sizeof *COMMANDS)

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "clihelp", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(cli_help, .init = setup, .fini = teardown, .timeout = 300);

/* `eous CMD --help`'s text (caller frees). */
static char *help_of(const char *cmd)
{
    int rc = ts_cli_run((const char *[]){cmd, "--help", NULL}, out_path, err_path, 30);
    cr_assert_eq(rc, 0, "eous %s --help exits 0", cmd);
    return ts_slurp(out_path);
}

/* 1 when help lists opt as an option line of its own ("  --opt" then a space or a newline). */
static int lists(const char *help, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = help; (p = strstr(p, opt)); p += n)
        if (p - help >= 3 && !strncmp(p - 3, "\n  ", 3) && (p[n] == ' ' || p[n] == '\n'))
            return 1;
    return 0;
}

/* 1 when opt's entry in help (from its line to the next option's) holds words. */
static int describes(const char *help, const char *opt, const char *words)
{
    char at[64];
    snprintf(at, sizeof at, "\n  %s ", opt);
    const char *p = strstr(help, at), *end = p ? strstr(p + 1, "\n  -") : NULL;
    const char *w = p ? strstr(p, words) : NULL;
    return w && (!end || w < end);
}

/* Every row of both tables, with the commands it belongs to, in each of their help and no other's. */
static void check_table(int (*row)(size_t, cli_optdoc *), char **helps)
{
    cli_optdoc d;
    for (size_t i = 0; !row(i, &d); i++) {
        cr_assert(d.name && d.help && d.help[0] && d.cmds, "row %zu has a name, help and commands", i);
        for (size_t c = 0; c < N_COMMANDS; c++) {
            /* the same name may be another row's for this command (observe's --mode is its own) */
            if (d.cmds & COMMANDS[c].bit)
                cr_expect(lists(helps[c], d.name), "eous %s --help lists %s:\n%s", COMMANDS[c].name, d.name,
                          helps[c]);
        }
    }
}

Test(cli_help, every_option_in_the_tables_is_in_its_commands_help)
{
    char *helps[N_COMMANDS];
    for (size_t c = 0; c < N_COMMANDS; c++) {
        helps[c] = help_of(COMMANDS[c].name);
        char want[64];
        snprintf(want, sizeof want, "usage: eous %s", COMMANDS[c].name);
        cr_assert(!strncmp(helps[c], want, strlen(want)), "its own usage, not the general one:\n%s", helps[c]);
    }
    check_table(cli_common_opt, helps);
    check_table(cli_own_opt, helps);
    /* the ones the issue found missing, and mcp's own */
    const char *run_needs[] = {"--grounding", "--settle", "--providers", "--image-detail", "--max-image-px",
                               "--agent", "--param", "--params", "--out"};
    for (size_t i = 0; i < sizeof run_needs / sizeof *run_needs; i++)
        cr_expect(lists(helps[0], run_needs[i]), "run --help lists %s", run_needs[i]);
    /* a runtime error deep in a step names the thing, not the flag (actions/files.c "outside the files
     * folder", "the session is W3C-only"): --help ties each thing to its flag */
    cr_expect(describes(helps[0], "--files", "the files folder") && describes(helps[0], "--out", "the run folder") &&
                  describes(helps[0], "--w3c-only", "W3C-only session"),
              "%s", helps[0]);
    cr_expect(lists(helps[7], "--header-timeout") && lists(helps[7], "--port") && lists(helps[7], "--token"),
              "mcp --help prints mcp's options:\n%s", helps[7]);
    /* bench's options are not run's, and mcp's are not run's */
    cr_expect(!lists(helps[0], "--workers") && !lists(helps[0], "--resume"), "%s", helps[0]);
    cr_expect(!lists(helps[0], "--port"), "%s", helps[0]);
    cr_expect(lists(helps[1], "--workers") && lists(helps[1], "--resume"), "%s", helps[1]);
    for (size_t c = 0; c < N_COMMANDS; c++)
        free(helps[c]);
}

/* Each row is taken by its command's parser: given a value (or none for a flag) and then an
 * unknown option, the refusal names the unknown one, never the row's. */
static void check_parsed(int (*row)(size_t, cli_optdoc *))
{
    cli_optdoc d;
    for (size_t i = 0; !row(i, &d); i++) {
        for (size_t c = 0; c < N_COMMANDS; c++) {
            if (!(d.cmds & COMMANDS[c].bit))
                continue;
            const char *args[6] = {COMMANDS[c].name, d.name, d.arg ? "1" : "--no-such-option",
                                   d.arg ? "--no-such-option" : NULL, NULL};
            int rc = ts_cli_run(args, out_path, err_path, 30);
            char *e = ts_slurp(err_path);
            char unknown[96], other[96];
            snprintf(unknown, sizeof unknown, "'%s'", d.name);
            snprintf(other, sizeof other, "%s is not an option", d.name);
            cr_expect_eq(rc, 2, "eous %s %s ... is bad input: %s", COMMANDS[c].name, d.name, e);
            cr_expect(!(strstr(e, unknown) && (strstr(e, "unknown option") || strstr(e, "unexpected argument"))) &&
                          !strstr(e, other),
                      "eous %s takes %s: %s", COMMANDS[c].name, d.name, e);
            free(e);
        }
    }
}

Test(cli_help, every_option_in_the_tables_is_taken_by_its_commands)
{
    check_parsed(cli_common_opt);
    check_parsed(cli_own_opt);
    /* and one that is not its command's is refused, naming where to look */
    int rc = ts_cli_run((const char *[]){"run", "x.json", "--workers", "2", NULL}, out_path, err_path, 30);
    char *e = ts_slurp(err_path);
    cr_assert_eq(rc, 2);
    cr_assert(strstr(e, "--workers is not an option of run (see eous run --help)"), "%s", e);
    free(e);
}

Test(cli_help, general_help_is_a_short_list_of_commands)
{
    cr_assert_eq(ts_cli_run((const char *[]){"--help", NULL}, out_path, err_path, 30), 0);
    char *o = ts_slurp(out_path);
    cr_assert_lt(ts_count_lines(o), 25, "short:\n%s", o);
    for (size_t c = 0; c < N_COMMANDS; c++) {
        char want[32];
        snprintf(want, sizeof want, "\n  %s ", COMMANDS[c].name);
        cr_expect(strstr(o, want), "names %s:\n%s", COMMANDS[c].name, o);
    }
    free(o);
    cr_assert_eq(ts_cli_run((const char *[]){"help", "mcp", NULL}, out_path, err_path, 30), 0);
    o = ts_slurp(out_path);
    cr_assert(!strncmp(o, "usage: eous mcp", 15), "%s", o);
    free(o);
}

/* cli/cli_help.h — `eous --help` and `eous COMMAND --help`, printed from the
 * option tables the parsers use: run and bench's in cli_common.c, the other
 * commands' in cli_help.c (their parsers refuse an option not in it).  All
 * strings are static; nothing here allocates. */
#ifndef EOUS_CLI_CLI_HELP_H
#define EOUS_CLI_CLI_HELP_H

#include <stddef.h>
#include <stdio.h>

/* The commands an option belongs to: cli_optdoc.cmds is a set of these. */
enum {
    CLI_CMD_RUN = 1u << 0,
    CLI_CMD_BENCH = 1u << 1,
    CLI_CMD_OBSERVE = 1u << 2,
    CLI_CMD_CALL = 1u << 3,
    CLI_CMD_CHECK = 1u << 4,
    CLI_CMD_COMPARE = 1u << 5,
    CLI_CMD_SCORE = 1u << 6,
    CLI_CMD_MCP = 1u << 7,
    CLI_CMD_REPAIR = 1u << 8,
    CLI_CMD_DISTILL = 1u << 9,
    CLI_CMD_REPORT = 1u << 10,
};

/* One option as help prints it: its name, its value's shape (NULL for a
 * flag), the commands it belongs to, one line of help, and for a whole
 * number the range the parser accepts (min > max: none). */
typedef struct cli_optdoc {
    const char *name;
    const char *arg;
    unsigned cmds;
    const char *help;
    long min, max;
} cli_optdoc;

/* Row i of run and bench's option table (cli_common.c) into *out: 0, or -1 past its end. */
int cli_common_opt(size_t i, cli_optdoc *out);
/* Row i of the other commands' option table into *out: 0, or -1 past its end. */
int cli_own_opt(size_t i, cli_optdoc *out);
/* 1 when name is one of cmd's (a CLI_CMD_* bit) own options, else 0. */
int cli_own_opt_known(unsigned cmd, const char *name);

/* A command's CLI_CMD_* bit; 0 for an unknown name. */
unsigned cli_cmd_bit(const char *cmd);

/* `eous --help`: one line a command. */
void cli_usage(FILE *f);
/* `eous CMD --help`: its synopsis, what it does and every option it takes,
 * from the tables.  0, or -1 when cmd is not a command (nothing printed). */
int cli_help(FILE *f, const char *cmd);

#endif

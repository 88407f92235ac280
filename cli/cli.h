/* cli/cli.h — the CLI's commands; each returns the process exit code.
 * argv[0] is the command name.  They use only libeous's public headers. */
#ifndef EOUS_CLI_CLI_H
#define EOUS_CLI_CLI_H

int cli_observe(int argc, char **argv);
int cli_call(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_compare(int argc, char **argv);
int cli_score(int argc, char **argv);
int cli_mcp(int argc, char **argv);
int cli_repair(int argc, char **argv);
int cli_distill(int argc, char **argv);
int cli_report(int argc, char **argv);

#endif

/* tests/support/cli.h — running the eous CLI from tests and reading what it
 * wrote.  No Criterion here: benchmarks link this library too. */
#ifndef EOUS_TS_CLI_H
#define EOUS_TS_CLI_H

#include <cjson/cJSON.h>
#include <sys/types.h>

/* Runs $EOUS_CLI with args (NULL-terminated), stdin /dev/null (a
 * non-interactive run), stdout and stderr to the two files.  A run longer
 * than limit_s is stopped (SIGTERM, then SIGKILL to that PID) and gives 124.
 * Returns the exit code, 128 when killed by a signal, -1 when EOUS_CLI is
 * unset or fork fails. */
int ts_cli_run(const char *const *args, const char *out_path, const char *err_path, int limit_s);
/* In a test binary with a browser pool (tests/pool/browser_pool.c), a CLI command that opens one local
 * browser (run, bench with one worker, observe, call, mcp over stdio) attaches to a free pooled browser
 * through EOUS_CDP_ENDPOINT (its --cdp-endpoint) instead of launching its own (~2 CPU-s a launch), held
 * until ts_cli_wait reaps it; none free: it launches, as without a pool.  ts_cli_own_browser(1): this
 * process's CLIs always launch their own (a test of the launch itself). */
void ts_cli_own_browser(int on);
/* ts_cli_run in two halves, for a test that signals the CLI mid-run: spawn
 * returns the child's PID (-1 on failure), wait reaps it as ts_cli_run does. */
pid_t ts_cli_spawn(const char *const *args, const char *out_path, const char *err_path);
int ts_cli_wait(pid_t pid, int limit_s);
/* The file's contents (caller frees); "" when it cannot be read. */
char *ts_slurp(const char *path);
/* Newline count of s. */
int ts_count_lines(const char *s);
/* s without the lines a slow browser start prints ("eous: still waiting for ...", webdriver/wait_int.h),
 * in place: a loaded machine's start is not the error a test counts the lines of.  Returns s. */
char *ts_drop_wait_notes(char *s);
/* Path of the first regular file under dir (recursively) holding needle, or
 * NULL.  The path is borrowed until the next call. */
const char *ts_file_with(const char *dir, const char *needle);
/* The first line of OUTDIR/results.jsonl parsed (caller deletes; NULL when
 * missing or not JSON); *n_lines gets the file's line count. */
cJSON *ts_result_line(const char *outdir, int *n_lines);

#endif

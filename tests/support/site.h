/* tests/support/site.h — a bundled site a test runs its task suite against
 * (DokuWiki by scripts/wiki, MediaWiki by scripts/mediawiki), started by its
 * script on a free loopback port in a folder of the test's and stopped by the
 * PID file the script keeps there, and what the suite's bench runs tell:
 * tasks counted, a copy with other plans, results counted by status, the
 * secrets file's values looked for in a run's files.  No Criterion here:
 * benchmarks link this library too. */
#ifndef EOUS_TS_SITE_H
#define EOUS_TS_SITE_H

/* `bash SCRIPT start --dir DIR --secrets SECRETS`; checks it printed a
 * loopback URL and left the secrets file 0600, then sets EOUS_SITE_<SITE> to
 * the URL and EOUS_SITE_<SITE>_RESET to `SCRIPT reset DIR` (SITE as in those
 * names, e.g. "DOKUWIKI").  0, or -1 with one line on stderr. */
int ts_site_start(const char *script, const char *site, const char *dir, const char *secrets);
/* `bash SCRIPT stop DIR` (the PID the script wrote there); a failure said on
 * stderr. */
void ts_site_stop(const char *script, const char *dir);
/* The tasks (*.json files) of the suite in dir; -1 when dir cannot be read. */
int ts_suite_count(const char *dir);
/* Copies each task of the suite in src into dst (made) with "script" and
 * "atomic_script" replaced by plan (JSON): how many, or -1 with one line on
 * stderr. */
int ts_suite_copy_with_plan(const char *src, const char *dst, const char *plan);
/* `eous bench TASKS --modes MODES [--planner PLANNER] --workers 2 --secrets
 * SECRETS --out OUT` (PLANNER may be NULL), its stdout and stderr in OUT.out
 * and OUT.err, stopped after limit_s; its stderr shown when the exit code is
 * neither 0 nor 1.  The exit code, as ts_cli_run's. */
int ts_suite_bench(const char *tasks, const char *modes, const char *planner, const char *secrets,
                   const char *out, int limit_s);
/* Lines of the results.jsonl at results with this status (and this mode,
 * unless mode is NULL). */
int ts_results_count(const char *results, const char *status, const char *mode);
/* The NAME=VALUE lines of the secrets file (-1 when one has no value over 8
 * characters); *found gets the path of a file under dir holding one of the
 * values (borrowed as ts_file_with's), else NULL. */
int ts_secrets_in(const char *secrets, const char *dir, const char **found);

#endif

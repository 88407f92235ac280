/* tests/support/site.h — a bundled site a test runs its task suite against
 * (DokuWiki by scripts/wiki, MediaWiki by scripts/mediawiki), started by its
 * script on a free loopback port in a folder of the test's and stopped by the
 * PID file the script keeps there, and what the suite's bench runs tell:
 * tasks counted, results counted by status, the secrets file's values
 * looked for in a run's files; and what the suite's evaluators give each
 * task's untouched start page.  No Criterion here: benchmarks link this
 * library too. */
#ifndef EOUS_TS_SITE_H
#define EOUS_TS_SITE_H

#include "webarena/task.h"
#include "webdriver/wd.h"

/* `bash SCRIPT start --dir DIR --secrets SECRETS`; checks it printed a
 * loopback URL and left the secrets file 0600, then sets EOUS_SITE_<SITE> to
 * the URL and EOUS_SITE_<SITE>_RESET to `SCRIPT reset DIR` (SITE as in those
 * names, e.g. "DOKUWIKI").  0, or -1 with one line on stderr. */
int ts_site_start(const char *script, const char *site, const char *dir, const char *secrets);
/* ts_site_start for n copies of the site (a pool, webarena/site_pool.h), one
 * in each of dirs, sharing the secrets file: EOUS_SITE_<SITE> gets their URLs
 * separated by blanks and EOUS_SITE_<SITE>_RESET their reset commands by
 * ';', in the order of dirs.  0, or -1 with one line on stderr (the copies
 * started are stopped by ts_site_stop on their dirs). */
int ts_site_start_copies(const char *script, const char *site, const char *const *dirs, int n,
                         const char *secrets);
/* `bash SCRIPT stop DIR` (the PID the script wrote there); a failure said on
 * stderr. */
void ts_site_stop(const char *script, const char *dir);
/* The tasks (*.json files) of the suite in dir; -1 when dir cannot be read. */
int ts_suite_count(const char *dir);
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

/* The task files in dir (a suite's folder), loaded into l with the site variables as
 * they are now.  0, or -1 with one line on stderr naming dir and what failed. */
int ts_suite_load(const char *dir, wa_task_list *l);

/* What WebArena's evaluators give a suite's tasks when nothing is done. */
typedef struct ts_untouched {
    int tasks;         /* tasks evaluated */
    int zero;          /* scored 0 with no answer (an empty plan's run) */
    int na_right;      /* scored 0 for the answer "N/A", 1 on a task of kind "unachievable" */
    int unachievable;  /* tasks of that kind */
    char wrong[2048];  /* "task ID: no answer S, N/A S; " for each task that did not, or the evaluator's detail */
} ts_untouched;
/* Loads the suite's tasks in dir (the site variables set) and, one after the
 * other on session s, gives each what a run that does nothing gives it: the
 * runner's hold on its sites (bench_task_job's ops: a reset for
 * require_reset), its start page (agent_prepare_page), then WebArena's
 * evaluators with no answer and with "N/A", as `eous bench` scores an empty
 * plan and stop("N/A") without the loop's views.  0, or -1 with one line on
 * stderr (a task that does not load, a site or page that fails). */
int ts_suite_untouched(wd_session *s, const char *dir, ts_untouched *u);

#endif

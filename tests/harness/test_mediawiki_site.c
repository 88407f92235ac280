/* tests/harness/test_mediawiki_site.c — the third ground: a real MediaWiki (Debian 12's package, 1.39 on
 * SQLite, installed per test by scripts/mediawiki and served on a free loopback port) and its
 * suite benchmarks/grounds/tasks/mediawiki through the real runner with the script planner.  Its widgets
 * are MediaWiki's own (OOUI dropdowns, checkboxes and tabs in the preferences, the login and
 * account forms, a search box whose suggestion script rewrites its form): every task passes in
 * hybrid and in atomic with the database reset between tasks (EOUS_SITE_MEDIAWIKI_RESET), so
 * hybrid loses no task to atomic; with nothing done, and with the answer "N/A", every task scores 0. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/browser.h"
#include "support/cli.h"
#include "support/site.h"
#include "support/untouched_check.h"
#include "support/workdir.h"
#include "support/grounds.h"

#define SUITE_DIR TS_TASKS "/mediawiki"
#define MEDIAWIKI EOUS_SOURCE_DIR "/scripts/mediawiki"

static char tmpdir[256];
static char wikidir[300];
static char secrets[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "mediawiki-test", NULL, NULL, 0);
    snprintf(wikidir, sizeof wikidir, "%s/mw", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/secrets.env", tmpdir);
}

static void teardown(void)
{
    ts_site_stop(MEDIAWIKI, wikidir); /* by the PID in mediawiki.pid */
    ts_workdir_remove(tmpdir);
}

/* Installs and starts the wiki; sets EOUS_SITE_MEDIAWIKI and EOUS_SITE_MEDIAWIKI_RESET. */
static void start_wiki(void)
{
    cr_assert_eq(ts_site_start(MEDIAWIKI, "MEDIAWIKI", wikidir, secrets), 0,
                 "scripts/mediawiki started (its stderr says why not)");
}

static int bench(const char *tasks, const char *modes, const char *out)
{
    return ts_suite_bench(tasks, modes, "script", secrets, out, 3600);
}

/* Fails when a secret's value from the secrets file is in a file under out. */
static void expect_no_secret_in(const char *out)
{
    const char *found;
    cr_expect_eq(ts_secrets_in(secrets, out, &found), 2, "MW_PASSWORD and MW_NEW_PASSWORD, each a value");
    cr_expect_null(found, "a password is in %s", found);
}

TestSuite(mediawiki_site, .init = setup, .fini = teardown, .timeout = 3600);

Test(mediawiki_site, every_task_passes_in_hybrid_and_atomic)
{
    start_wiki();
    int n = ts_suite_count(SUITE_DIR);
    cr_assert_geq(n, 6, "at least 6 MediaWiki tasks");
    char out[300], results[400];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    int rc = bench(SUITE_DIR, "atomic,hybrid", out);
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    char *text = ts_slurp(results);
    cr_expect_eq(rc, 0, "every task passed; results:\n%s", text);
    cr_expect_eq(ts_count_lines(text), 2 * n, "one line per task and mode");
    cr_expect_eq(ts_results_count(results, "passed", "atomic"), n, "atomic; results:\n%s", text);
    cr_expect_eq(ts_results_count(results, "passed", "hybrid"), n, "hybrid, no task lost to atomic; results:\n%s", text);
    /* the passwords reached the forms (tasks passed) but no file of the run */
    expect_no_secret_in(out);
    free(text);
}

Test(mediawiki_site, doing_nothing_or_answering_na_scores_zero_on_every_task)
{
    start_wiki();
    /* what `eous bench` scores for an empty plan and for stop("N/A"), on each task's start page in one
     * browser, the database reset before a require_reset task as the runner does: no task's loop run */
    ts_expect_untouched_scores_zero(SUITE_DIR, 6, "MediaWiki");
}

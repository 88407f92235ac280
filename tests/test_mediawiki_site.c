/* tests/test_mediawiki_site.c — the third ground: a real MediaWiki (Debian 12's package, 1.39 on
 * SQLite, installed per test by scripts/mediawiki and served on a free loopback port) and its
 * suite benchmarks/tasks/mediawiki through the real runner with the script planner.  Its widgets
 * are MediaWiki's own (OOUI dropdowns, checkboxes and tabs in the preferences, the login and
 * account forms, a search box whose suggestion script rewrites its form): every task passes in
 * hybrid and in atomic with the database reset between tasks (EOUS_SITE_MEDIAWIKI_RESET), so
 * hybrid loses no task to atomic; with the plans replaced by an empty plan every task scores 0. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "support/cli.h"
#include "support/workdir.h"

#define SUITE_DIR EOUS_SOURCE_DIR "/benchmarks/tasks/mediawiki"
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
    char cmd[700];
    snprintf(cmd, sizeof cmd, "bash %s stop %s", MEDIAWIKI, wikidir); /* by the PID in mediawiki.pid */
    if (system(cmd) != 0)
        fprintf(stderr, "scripts/mediawiki stop failed\n");
    ts_workdir_remove(tmpdir);
}

/* Installs and starts the wiki; sets EOUS_SITE_MEDIAWIKI and EOUS_SITE_MEDIAWIKI_RESET. */
static void start_wiki(void)
{
    char cmd[900], url[256] = "", reset[700];
    snprintf(cmd, sizeof cmd, "bash %s start --dir %s --secrets %s", MEDIAWIKI, wikidir, secrets);
    FILE *p = popen(cmd, "r");
    cr_assert(p && fgets(url, sizeof url, p), "scripts/mediawiki start printed a URL");
    cr_assert_eq(pclose(p), 0, "scripts/mediawiki start succeeded");
    url[strcspn(url, "\n")] = '\0';
    cr_assert(!strncmp(url, "http://127.0.0.1:", 17), "wiki URL: %s", url);
    setenv("EOUS_SITE_MEDIAWIKI", url, 1);
    snprintf(reset, sizeof reset, "%s reset %s", MEDIAWIKI, wikidir);
    setenv("EOUS_SITE_MEDIAWIKI_RESET", reset, 1);
    struct stat st;
    cr_assert_eq(stat(secrets, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600, "the secrets file is private");
}

static int count_tasks(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d, "%s present", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        n += len > 5 && !strcmp(e->d_name + len - 5, ".json");
    }
    closedir(d);
    return n;
}

/* Lines of results.jsonl with this status (and this mode, unless NULL). */
static int count_status(const char *results, const char *status, const char *mode)
{
    char *text = ts_slurp(results);
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *r = cJSON_Parse(line);
        const char *s = eous_json_str(r, "status"), *m = eous_json_str(r, "mode");
        n += s && !strcmp(s, status) && (!mode || (m && !strcmp(m, mode)));
        cJSON_Delete(r);
    }
    free(text);
    return n;
}

/* A copy of the suite in dir whose plans are all replaced by `plan` (JSON). */
static int copy_suite_with_plan(const char *dir, const char *plan)
{
    mkdir(dir, 0755);
    DIR *d = opendir(SUITE_DIR);
    cr_assert(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char src[600], dst[600];
        snprintf(src, sizeof src, "%s/%s", SUITE_DIR, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
        char *text = ts_slurp(src);
        cJSON *task = cJSON_Parse(text);
        free(text);
        cr_assert(task, "%s parses", src);
        cJSON_ReplaceItemInObjectCaseSensitive(task, "script", cJSON_Parse(plan));
        cJSON_ReplaceItemInObjectCaseSensitive(task, "atomic_script", cJSON_Parse(plan));
        char *out = cJSON_Print(task);
        FILE *f = fopen(dst, "w");
        cr_assert(f && out);
        fputs(out, f);
        fclose(f);
        free(out);
        cJSON_Delete(task);
        n++;
    }
    closedir(d);
    return n;
}

static int bench(const char *tasks, const char *modes, const char *out)
{
    char log[400], errlog[400];
    snprintf(log, sizeof log, "%s.out", out);
    snprintf(errlog, sizeof errlog, "%s.err", out);
    int rc = ts_cli_run((const char *[]){"bench", tasks, "--modes", modes, "--planner", "script", "--workers", "2",
                                          "--secrets", secrets, "--out", out, NULL},
                        log, errlog, 3600);
    if (rc != 0 && rc != 1) {
        char *e = ts_slurp(errlog);
        cr_log_error("bench exited %d:\n%s", rc, e);
        free(e);
    }
    return rc;
}

/* Fails when a secret's value from the secrets file is in a file under out. */
static void expect_no_secret_in(const char *out)
{
    char *sec = ts_slurp(secrets);
    int seen = 0;
    for (char *line = strtok(sec, "\n"); line; line = strtok(NULL, "\n")) {
        const char *v = strchr(line, '=');
        cr_assert(v && strlen(v + 1) > 8, "a secret line with a value");
        seen++;
        cr_expect_null(ts_file_with(out, v + 1), "a password is in %s", ts_file_with(out, v + 1));
    }
    cr_expect_eq(seen, 2, "MW_PASSWORD and MW_NEW_PASSWORD");
    free(sec);
}

TestSuite(mediawiki_site, .init = setup, .fini = teardown, .timeout = 3600);

Test(mediawiki_site, every_task_passes_in_hybrid_and_atomic)
{
    start_wiki();
    int n = count_tasks(SUITE_DIR);
    cr_assert_geq(n, 6, "at least 6 MediaWiki tasks");
    char out[300], results[400];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    int rc = bench(SUITE_DIR, "atomic,hybrid", out);
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    char *text = ts_slurp(results);
    cr_expect_eq(rc, 0, "every task passed; results:\n%s", text);
    cr_expect_eq(ts_count_lines(text), 2 * n, "one line per task and mode");
    cr_expect_eq(count_status(results, "passed", "atomic"), n, "atomic; results:\n%s", text);
    cr_expect_eq(count_status(results, "passed", "hybrid"), n, "hybrid, no task lost to atomic; results:\n%s", text);
    /* the passwords reached the forms (tasks passed) but no file of the run */
    expect_no_secret_in(out);
    free(text);
}

Test(mediawiki_site, doing_nothing_scores_zero_on_every_task)
{
    start_wiki();
    char dir[300], out[300], results[400];
    snprintf(dir, sizeof dir, "%s/tasks-empty", tmpdir);
    snprintf(out, sizeof out, "%s/out-empty", tmpdir);
    int n = copy_suite_with_plan(dir, "[]");
    cr_assert_geq(n, 6);
    int rc = bench(dir, "atomic", out);
    snprintf(results, sizeof results, "%s/results.jsonl", out);
    char *text = ts_slurp(results);
    cr_expect_eq(rc, 1, "the bench reports failures");
    cr_expect_eq(count_status(results, "failed", NULL), n, "every task scores 0:\n%s", text);
    cr_expect_null(strstr(text, "\"score\":1"), "no task scored:\n%s", text);
    free(text);
}

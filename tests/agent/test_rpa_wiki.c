/* tests/agent/test_rpa_wiki.c — RPA steps on a web application nobody here wrote:
 * the bundled DokuWiki (scripts/wiki, as tests/harness/test_wiki_site.c serves it).
 * One job logs in with a secret, uploads a media file through the media
 * manager's own uploader, waits for it to be listed, saves a page and waits
 * for its text, then downloads the page export DokuWiki sends as an
 * attachment (do=export_raw).  The checks read the wiki's own files. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/workdir.h"
#include "support/site.h"

#define WIKI EOUS_SOURCE_DIR "/scripts/wiki"
#define FIX EOUS_SOURCE_DIR "/tests/fixtures/rpa"

static char tmpdir[256], wikidir[300], secrets[300], out_path[300], err_path[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "rpa-wiki", NULL, NULL, 0);
    snprintf(wikidir, sizeof wikidir, "%s/wiki", tmpdir);
    snprintf(secrets, sizeof secrets, "%s/secrets.env", tmpdir);
    snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
    cr_assert_eq(ts_site_start(WIKI, "DOKUWIKI", wikidir, secrets), 0, "scripts/wiki started (its stderr says why not)");
}

static void teardown(void)
{
    ts_site_stop(WIKI, wikidir);
    ts_workdir_remove(tmpdir);
}

TestSuite(rpa_wiki, .init = setup, .fini = teardown, .timeout = 600);

Test(rpa_wiki, upload_media_wait_after_save_download_export)
{
    char out[400];
    snprintf(out, sizeof out, "%s/run", tmpdir);
    const char *args[] = {"run", FIX "/dokuwiki/media-export.json", "--mode", "atomic", "--secrets", secrets, "--files",
                          FIX "/files", "--out", out, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 300);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    /* the wiki keeps the uploaded file byte for byte */
    char path[700];
    snprintf(path, sizeof path, "%s/data/media/buoy-b2.png", wikidir);
    char *kept = ts_slurp(path), *sent = ts_slurp(FIX "/files/buoy-b2.png");
    cr_expect(kept[0] && !memcmp(kept, sent, 8), "the media manager stored the PNG");
    free(kept);
    free(sent);
    /* the download is the page's source as DokuWiki exports it */
    const cJSON *dl = cJSON_GetArrayItem(eous_json_arr(r, "downloads"), 0);
    cr_assert_not_null(dl, "a download in the result");
    cr_expect_str_eq(eous_json_str(dl, "name"), "aurora.txt");
    cr_expect_str_eq(eous_json_str(dl, "mime"), "text/plain");
    snprintf(path, sizeof path, "%s/data/pages/projects/aurora.txt", wikidir);
    char *source = ts_slurp(path);
    cr_expect_eq((size_t)eous_json_num(dl, "size", -1), strlen(source));
    snprintf(path, sizeof path, "%s/%s", out, eous_json_str(dl, "file"));
    char *got = ts_slurp(path);
    cr_expect_str_eq(got, source, "the export is the page source");
    free(got);
    free(source);
    /* the password typed from the secrets file is nowhere in the run directory */
    char *env = ts_slurp(secrets), *pw = strstr(env, "WIKI_PASSWORD=");
    cr_assert_not_null(pw);
    pw += strlen("WIKI_PASSWORD=");
    pw[strcspn(pw, "\r\n")] = '\0';
    cr_expect_null(ts_file_with(out, pw), "the secret leaked into %s", ts_file_with(out, pw));
    free(env);
    cJSON_Delete(r);
}

/* The README's cron job (examples/cron/members-report.json, a plain job whose
 * wiki address is a parameter) as the crontab line runs it: passes, its
 * output.json holds the table, the export is the page source, results.jsonl
 * holds the parameters; while another run holds the --lock it does not start
 * (exit 2). */
Test(rpa_wiki, readme_cron_job_runs_as_written)
{
    char out[400], lock[400];
    snprintf(out, sizeof out, "%s/reports/today", tmpdir);
    snprintf(lock, sizeof lock, "%s/report.lock", tmpdir);
    char wiki_url[400];
    snprintf(wiki_url, sizeof wiki_url, "WIKI_URL=%s", getenv("EOUS_SITE_DOKUWIKI"));
    const char *args[] = {"run", EOUS_SOURCE_DIR "/examples/cron/members-report.json", "--param", wiki_url,
                          "--secrets", secrets, "--out", out, "--lock", lock, NULL};
    int rc = ts_cli_run(args, out_path, err_path, 300);
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    char path[700];
    snprintf(path, sizeof path, "%s/trace/members-report-hybrid/output.json", out);
    char *text = ts_slurp(path);
    cJSON *o = cJSON_Parse(text);
    const cJSON *members = eous_json_arr(o, "members");
    cr_expect_eq(cJSON_GetArraySize(members), 5, "%s", text);
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(members, 3), "Name"), "Mira Okafor");
    cJSON_Delete(o);
    free(text);
    const cJSON *dl = cJSON_GetArrayItem(eous_json_arr(r, "downloads"), 0);
    cr_assert_not_null(dl);
    snprintf(path, sizeof path, "%s/%s", out, eous_json_str(dl, "file"));
    char *got = ts_slurp(path);
    snprintf(path, sizeof path, "%s/data/pages/team/members.txt", wikidir);
    char *source = ts_slurp(path);
    cr_expect_str_eq(got, source, "the export is the page source");
    free(got);
    free(source);
    cr_expect_str_eq(eous_json_str(eous_json_obj(r, "params"), "WIKI_USER"), "mira", "the declared default");
    cr_expect_str_eq(eous_json_str(eous_json_obj(r, "params"), "WIKI_URL"), getenv("EOUS_SITE_DOKUWIKI"));
    cJSON_Delete(r);
    /* cron started it again while the first still runs: the lock says so and nothing starts */
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    cr_assert(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0);
    snprintf(out, sizeof out, "%s/reports/again", tmpdir);
    rc = ts_cli_run(args, out_path, err_path, 60);
    close(fd);
    cr_expect_eq(rc, 2, "exit %d", rc);
    char *e = ts_slurp(err_path);
    cr_expect(strstr(e, "another eous run holds the lock"), "%s", e);
    free(e);
}

/* DokuWiki's quick search (keyup: clearTimeout, setTimeout 500 ms, then a
 * POST whose answer fills the result list) typed into, then its result
 * clicked at once, in every mode: the type step's settle waits for the
 * answer, so the link is there to click. */
Test(rpa_wiki, quick_search_typed_then_its_result_clicked)
{
    const char *modes[] = {"atomic", "pruned", "hybrid"};
    for (int i = 0; i < 3; i++) {
        char out[400];
        snprintf(out, sizeof out, "%s/live-%s", tmpdir, modes[i]);
        const char *args[] = {"run", FIX "/dokuwiki/live-search.json", "--mode", modes[i], "--out", out, NULL};
        int rc = ts_cli_run(args, out_path, err_path, 300);
        int nl = 0;
        cJSON *r = ts_result_line(out, &nl);
        cr_assert_not_null(r, "%s: a result: %s", modes[i], ts_slurp(err_path));
        cr_expect_eq(rc, 0, "%s: exit %d: %s", modes[i], rc, eous_json_str(r, "error"));
        cr_expect_str_eq(eous_json_str(r, "status"), "passed", "%s", modes[i]);
        cJSON_Delete(r);
    }
}

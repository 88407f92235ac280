/* tests/cli/test_paths.c — what eous builds from input stays inside its root
 * (issue 48): a task id is a name, so nothing is written outside --out; files
 * reach a page only through upload, only from --files (no control character
 * in a name, one path a send keys, and `type` never sets a file input, even
 * one a field becomes on focus); two downloads of one name are both kept.
 * Real eous CLI, chromedriver and headless Chromium on loopback pages
 * (tests/fixtures/pages/paths/); a second loopback server is the beacon a
 * page reports a received file to. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actions/exec.h"
#include "actions/policy.h"
#include "core/core.h"
#include "support/browser.h"
#include "support/cli.h"
#include "support/testsrv.h"
#include "support/workdir.h"

#define PAGES EOUS_SOURCE_DIR "/tests/fixtures/pages"

static char tmpdir[256], out_path[300], err_path[300];
static ts_server *SRV, *BEACON;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "paths", out_path, err_path, sizeof out_path);
    SRV = ts_server_start(PAGES);
    cr_assert_not_null(SRV);
    setenv("EOUS_SITE_PATHS", ts_server_url(SRV), 1);
    char beacon_root[300];
    snprintf(beacon_root, sizeof beacon_root, "%s/beacon", tmpdir);
    cr_assert_eq(mkdir(beacon_root, 0755), 0);
    BEACON = ts_server_start(beacon_root);
    cr_assert_not_null(BEACON);
}

static void teardown(void)
{
    if (SRV)
        ts_server_stop(SRV);
    if (BEACON)
        ts_server_stop(BEACON);
    SRV = BEACON = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(paths, .init = setup, .fini = teardown, .timeout = 600);

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    fputs(text, f);
    fclose(f);
}

/* tmpdir/NAME.json holding one task: id (JSON text, quoted by the caller), start page, script (JSON text). */
static void write_task(char *path, size_t n, const char *name, const char *id, const char *page, const char *script)
{
    snprintf(path, n, "%s/%s.json", tmpdir, name);
    char text[8192];
    snprintf(text, sizeof text,
             "{\"task_id\": %s, \"start_url\": \"__PATHS__/paths/%s\", \"intent\": \"issue 48\", "
             "\"eval\": {\"eval_types\": []}, %s}",
             id, page, script);
    write_text(path, text);
}

static int run_cli(const char *const *args)
{
    int rc = ts_cli_run(args, out_path, err_path, 240);
    cr_assert_lt(rc, 124, "exit %d\n%s", rc, ts_slurp(err_path));
    return rc;
}

/* A task id that is not a name ("../x" lands beside trace/, "../../x" beside
 * --out) is bad input at load: check, run and bench exit 2 with one line
 * naming the file, the id and what was expected, before a browser starts, and
 * nothing is written, inside --out or outside it. */
Test(paths, task_id_that_leaves_out_is_bad_input_for_run_bench_and_check)
{
    static const char *const ids[] = {"\"../x\"", "\"../../x\""};
    char work[300], out[400], task[400], p[500];
    snprintf(work, sizeof work, "%s/w", tmpdir);
    cr_assert_eq(mkdir(work, 0755), 0);
    snprintf(out, sizeof out, "%s/out", work);
    for (size_t i = 0; i < 2; i++) {
        write_task(task, sizeof task, "escape", ids[i], "upload.html", "\"script\": [{\"stop\": \"\"}]");
        cr_expect_eq(run_cli((const char *[]){"check", task, NULL}), 2, "check: %s", ids[i]);
        char *o = ts_slurp(out_path);
        cr_expect(strstr(o, task) && strstr(o, "task_id \"../") && strstr(o, "is not a name (expected"),
                  "check names the file, the id and what was expected: %s", o);
        free(o);
        const char *cmds[] = {"run", "bench"};
        for (int c = 0; c < 2; c++) {
            int rc = run_cli((const char *[]){cmds[c], task, "--out", out, NULL});
            char *e = ts_slurp(err_path);
            cr_expect_eq(rc, 2, "%s %s: exit %d: %s", cmds[c], ids[i], rc, e);
            cr_expect(strstr(e, task) && strstr(e, "task_id \"../") && strstr(e, "is not a name (expected"),
                      "%s: %s", cmds[c], e);
            cr_expect_eq(ts_count_lines(e), 1, "%s: one line: %s", cmds[c], e);
            free(e);
            cr_expect(!exists(out), "%s %s: nothing written under --out", cmds[c], ids[i]);
            snprintf(p, sizeof p, "%s/x-hybrid.jsonl", work);
            cr_expect(!exists(p), "%s %s: no trace outside --out", cmds[c], ids[i]);
            snprintf(p, sizeof p, "%s/x-hybrid", work);
            cr_expect(!exists(p), "%s %s: no evidence outside --out", cmds[c], ids[i]);
        }
    }
}

/* "atomic_script": null is found when the task loads: check reports it, and
 * run --mode atomic refuses it before it looks for a driver (none is there). */
Test(paths, null_atomic_script_is_bad_input_at_load)
{
    char task[400], out[400];
    write_task(task, sizeof task, "null-atomic", "\"null-atomic\"", "upload.html",
               "\"script\": [{\"stop\": \"\"}], \"atomic_script\": null");
    cr_assert_eq(run_cli((const char *[]){"check", task, NULL}), 2);
    char *o = ts_slurp(out_path);
    cr_expect(strstr(o, "\"atomic_script\" must be a list of steps, got null"), "%s", o);
    free(o);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    setenv("EOUS_CHROMEDRIVER", "/nonexistent/chromedriver", 1);
    int rc = run_cli((const char *[]){"run", task, "--mode", "atomic", "--out", out, NULL});
    unsetenv("EOUS_CHROMEDRIVER");
    char *e = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "exit %d: %s", rc, e);
    cr_expect(strstr(e, "\"atomic_script\" must be a list of steps, got null"), "%s", e);
    free(e);
    cr_expect(!exists(out), "nothing written");
}

/* --files holding a.txt, and what makes "a.txt\n<outside>" resolve inside it:
 * the directory "a.txt\n" with the outside path's parts under it.  Sent as one
 * text, chromedriver would split it and upload <outside>.  outside gets the
 * file's absolute path (n bytes). */
static void files_with_a_newline_trap(char *files, size_t fn, char *outside, size_t n)
{
    snprintf(files, fn, "%s/files", tmpdir);
    cr_assert_eq(mkdir(files, 0755), 0);
    char p[1200], dir[1200];
    snprintf(p, sizeof p, "%s/a.txt", files);
    write_text(p, "inside\n");
    snprintf(p, sizeof p, "%s/one.txt", files);
    write_text(p, "first file\n");
    snprintf(p, sizeof p, "%s/two.txt", files);
    write_text(p, "the second file\n");
    snprintf(dir, sizeof dir, "%s/outside", tmpdir);
    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(outside, n, "%s/secret.txt", dir);
    write_text(outside, "TOP SECRET\n");
    snprintf(dir, sizeof dir, "%s/a.txt\n%s/outside", files, tmpdir);
    eous_err err;
    cr_assert_eq(eous_mkdirs(dir, 0755, &err), EOUS_OK, "%s", err.msg);
    snprintf(p, sizeof p, "%s/secret.txt", dir);
    write_text(p, "decoy inside --files\n");
}

/* An upload whose file name holds a newline: a script naming it is bad input
 * at load (exit 2, one line); the executor refuses it too (a model's upload),
 * and the page receives no file; two good names reach a multiple input as two
 * files, one send keys each. */
Test(paths, upload_name_with_a_newline_is_refused_and_nothing_leaves_files)
{
    char files[300], outside[400], name[800], task[400], out[400];
    files_with_a_newline_trap(files, sizeof files, outside, sizeof outside);
    snprintf(name, sizeof name, "a.txt\n%s", outside);
    /* eous run: bad input before a browser */
    char script[2048];
    snprintf(script, sizeof script, "\"script\": [{\"upload\": \"textbox 'Attachments'\", \"files\": [\"a.txt\\n%s\"]}]",
             outside);
    write_task(task, sizeof task, "upload-newline", "\"upload-newline\"", "upload.html", script);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    int rc = run_cli((const char *[]){"run", task, "--out", out, "--files", files, NULL});
    char *e = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "exit %d: %s", rc, e);
    cr_expect(strstr(e, "a.txt\\x0a") && strstr(e, "holds a control character"), "%s", e);
    cr_expect_eq(ts_count_lines(e), 1, "one line: %s", e);
    free(e);
    cr_expect(!exists(out), "nothing written");
    /* the executor, as a model's upload reaches it */
    ts_browser B;
    cr_assert_eq(ts_browser_start(&B, PAGES), 0);
    act_exec *x = NULL;
    act_policy *pol = NULL;
    act_exec_opts o;
    act_exec_opts_init(&o);
    o.files_dir = files;
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(act_exec_new(B.session, &o, &x, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_new(&pol, &err), EOUS_OK);
    cr_assert_eq(act_policy_allow_origin(pol, ts_browser_url(&B, "/"), &err), EOUS_OK);
    act_policy_set_interactive(pol, 0);
    act_exec_set_policy(x, pol);
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/paths/upload.html"), &err), EOUS_OK, "%s", err.msg);
    const char *const sets[2][3] = {{name, NULL, NULL}, {"one.txt", "two.txt", NULL}};
    for (int k = 0; k < 2; k++) {
        perc_opts po;
        perc_opts_init(&po);
        perc_obs *obs = NULL;
        cr_assert_eq(perc_observe(B.session, &po, &obs, &err), EOUS_OK, "%s", err.msg);
        act_action a;
        act_action_init(&a);
        a.kind = ACT_UPLOAD;
        a.target = strdup("css=#att");
        a.from_script = 1;
        a.params = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(a.params, "files");
        for (int i = 0; sets[k][i]; i++)
            cJSON_AddItemToArray(arr, cJSON_CreateString(sets[k][i]));
        act_result r;
        memset(&r, 0, sizeof r);
        eous_err_clear(&err);
        rc = act_execute(x, obs, &a, &r, &err);
        act_action_clear(&a);
        act_result_clear(&r);
        perc_obs_free(obs);
        cJSON *v = NULL;
        eous_err e2;
        cr_assert_eq(wd_execute(B.session, "return document.getElementById('got').textContent", NULL, &v, &e2),
                     EOUS_OK, "%s", e2.msg);
        const char *got = cJSON_IsString(v) ? v->valuestring : "?";
        if (k == 0) {
            cr_expect_neq(rc, EOUS_OK, "the newline name is refused");
            cr_expect(strstr(err.msg, "holds a control character"), "%s", err.msg);
            cr_expect_str_eq(got, "", "the page received no file: '%s'", got);
            cr_expect(!strstr(got, "secret"), "the outside file never reached the page: %s", got);
        } else {
            cr_expect_eq(rc, EOUS_OK, "%s", err.msg);
            cr_expect_str_eq(got, "one.txt (11), two.txt (16)", "both files, one send keys each");
        }
        cJSON_Delete(v);
    }
    act_exec_free(x);
    act_policy_free(pol);
    ts_browser_stop(&B);
}

/* A type into a field that becomes <input type=file> on focus, with CDP and
 * without (--w3c-only): the page reports no file to the beacon; under
 * --w3c-only (Element Send Keys, which would set the file) the step is refused
 * with one line. */
Test(paths, type_never_sets_a_field_that_becomes_a_file_input)
{
    char outside[400], task[400], out[400], script[2048], page[600];
    snprintf(outside, sizeof outside, "%s/beacon/secret.txt", tmpdir);
    write_text(outside, "TOP SECRET\n");
    snprintf(page, sizeof page, "type_file.html?beacon=%s", ts_server_url(BEACON));
    snprintf(script, sizeof script,
             "\"script\": [{\"type\": \"textbox 'Name'\", \"text\": \"%s\"}, "
             "{\"wait\": {\"target\": \"css=#got:not(:empty)\", \"timeout_ms\": 3000}}, {\"stop\": \"\"}]",
             outside);
    write_task(task, sizeof task, "type-file", "\"type-file\"", page, script);
    const char *how[] = {"--mode", "--w3c-only"};
    for (int k = 0; k < 2; k++) {
        snprintf(out, sizeof out, "%s/out-%d", tmpdir, k);
        int rc = run_cli((const char *[]){"run", task, "--out", out, k ? how[1] : how[0], k ? NULL : "hybrid", NULL});
        int nl = 0;
        cJSON *r = ts_result_line(out, &nl);
        cr_assert_not_null(r, "%s: a result: %s", how[k], ts_slurp(err_path));
        cr_expect_eq(rc, 1, "%s: exit %d", how[k], rc);
        const char *e = eous_json_str(r, "error");
        /* through Element Send Keys (the W3C-only run's way) the step is refused; key actions and
         * Input.insertText (CDP's) never set a file, so the task fails waiting for a file that never came */
        if (k)
            cr_expect(e && strstr(e, "type: the focused field is a file input; use upload"), "%s: %s", how[k], e);
        else
            cr_expect_str_eq(eous_json_str(r, "status"), "failed", "%s: %s", how[k], e);
        cJSON_Delete(r);
        cr_assert_eq(ts_server_quiesce(BEACON, 30000), 0);
        cr_expect_eq(ts_server_requests(BEACON), 0, "%s: the page received no file", how[k]);
    }
}

/* `eous mcp --w3c-only` on a pipe: requests go in one at a time, answers come out into a file. */
typedef struct mcp_proc {
    pid_t pid;
    int in;
    char out[400];
} mcp_proc;

static void mcp_start(mcp_proc *m)
{
    const char *cli = getenv("EOUS_CLI");
    cr_assert_not_null(cli, "EOUS_CLI");
    snprintf(m->out, sizeof m->out, "%s/mcp.out", tmpdir);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    m->pid = fork();
    cr_assert_geq(m->pid, 0);
    if (m->pid == 0) {
        int o = open(m->out, O_WRONLY | O_CREAT | O_TRUNC, 0644), e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0)
            _exit(127);
        dup2(fds[0], 0);
        dup2(o, 1);
        dup2(e, 2);
        close(fds[1]);
        execl(cli, cli, "mcp", "--w3c-only", (char *)NULL);
        _exit(127);
    }
    close(fds[0]);
    m->in = fds[1];
}

/* Sends one request (a JSON line) and waits up to 60 s for the answer with id; the answer (caller deletes). */
static cJSON *mcp_ask(mcp_proc *m, int id, const char *line)
{
    cr_assert_eq(write(m->in, line, strlen(line)), (ssize_t)strlen(line));
    cr_assert_eq(write(m->in, "\n", 1), 1);
    for (int t = 0; t < 600; t++) {
        char *text = ts_slurp(m->out);
        for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
            cJSON *j = cJSON_Parse(l);
            if (j && (int)eous_json_num(j, "id", 0) == id) {
                free(text);
                return j;
            }
            cJSON_Delete(j);
        }
        free(text);
        usleep(100 * 1000);
    }
    cr_assert_fail("no answer to request %d: %s", id, ts_slurp(err_path));
    return NULL;
}

/* The text of a tools/call answer, and whether it is an error. */
static const char *tool_text(const cJSON *answer, int *is_error)
{
    const cJSON *res = eous_json_obj(answer, "result");
    *is_error = eous_json_bool(res, "isError", 0);
    const char *t = eous_json_str(cJSON_GetArrayItem(eous_json_arr(res, "content"), 0), "text");
    return t ? t : "";
}

static void mcp_stop(mcp_proc *m)
{
    close(m->in);
    int st = 0;
    for (int t = 0; t < 300; t++) {
        if (waitpid(m->pid, &st, WNOHANG) == m->pid)
            return;
        usleep(100 * 1000);
    }
    kill(m->pid, SIGKILL);
    waitpid(m->pid, &st, 0);
    cr_assert_fail("eous mcp did not end when its input closed");
}

#define CALL "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}"

/* The same field through `eous mcp --w3c-only` browser_type: an error naming
 * the file input, and no file reaches the page.  An unreachable page's error
 * names the URL it could not reach. */
Test(paths, mcp_w3c_only_browser_type_never_sets_a_file_input)
{
    char req[4096], args[2048], outside[400];
    snprintf(outside, sizeof outside, "%s/beacon/secret.txt", tmpdir);
    write_text(outside, "TOP SECRET\n");
    mcp_proc m;
    mcp_start(&m);
    cJSON *a = mcp_ask(&m, 1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                              "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test_paths\",\"version\":\"1\"}}}");
    cJSON_Delete(a);
    const char *note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    cr_assert_eq(write(m.in, note, strlen(note)), (ssize_t)strlen(note));
    snprintf(args, sizeof args, "{\"url\":\"%s/paths/type_file.html?beacon=%s\"}", ts_server_url(SRV),
             ts_server_url(BEACON));
    snprintf(req, sizeof req, CALL, 2, "browser_navigate", args);
    a = mcp_ask(&m, 2, req);
    int is_err = 0;
    const char *said = tool_text(a, &is_err);
    /* "[c1] textbox 'Name'" (a native component) or "textbox [4] 'Name'": the ref in the brackets */
    const char *box = strstr(said, "textbox 'Name'"), *open_b = box;
    while (open_b && open_b > said && *open_b != '[')
        open_b--;
    if (!box) {
        box = strstr(said, "textbox [");
        open_b = box ? box + 8 : NULL;
    }
    cr_assert(open_b && *open_b == '[' && !is_err, "the view shows the field: %s", said);
    char ref[32];
    snprintf(ref, sizeof ref, "%.*s", (int)strcspn(open_b + 1, "]"), open_b + 1);
    cJSON_Delete(a);
    snprintf(args, sizeof args, "{\"ref\":\"%s\",\"text\":\"%s\"}", ref, outside);
    snprintf(req, sizeof req, CALL, 3, "browser_type", args);
    a = mcp_ask(&m, 3, req);
    said = tool_text(a, &is_err);
    cr_expect(is_err, "browser_type failed: %s", said);
    cr_expect(strstr(said, "type: the focused field is a file input; use upload"), "%s", said);
    cJSON_Delete(a);
    snprintf(req, sizeof req, CALL, 4, "browser_snapshot", "{}");
    a = mcp_ask(&m, 4, req);
    said = tool_text(a, &is_err);
    cr_expect(!strstr(said, "received:"), "the page shows no file: %s", said);
    cJSON_Delete(a);
    cr_assert_eq(ts_server_quiesce(BEACON, 30000), 0);
    cr_expect_eq(ts_server_requests(BEACON), 0, "the page received no file");
    int closed = eous_free_port();
    snprintf(args, sizeof args, "{\"url\":\"http://127.0.0.1:%d/gone\"}", closed);
    snprintf(req, sizeof req, CALL, 5, "browser_navigate", args);
    a = mcp_ask(&m, 5, req);
    said = tool_text(a, &is_err);
    char gone[200];
    snprintf(gone, sizeof gone, "could not reach http://127.0.0.1:%d/gone (ERR_CONNECTION_REFUSED)", closed);
    cr_expect(is_err && strstr(said, gone), "names the URL: %s", said);
    cJSON_Delete(a);
    mcp_stop(&m);
}

static void sha256_of(const char *path, char out[65])
{
    char *s = ts_slurp(path);
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dl = 0;
    EVP_Digest(s, strlen(s), d, &dl, EVP_sha256(), NULL);
    for (unsigned i = 0; i < dl; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
    free(s);
}

/* Two different files offered under one download name, one step each: both
 * kept, as report.csv and report (1).csv, each with its own size and sha256,
 * in order. */
Test(paths, two_downloads_of_one_name_are_both_kept)
{
    char task[400], out[400], p[800];
    write_task(task, sizeof task, "two-downloads", "\"two-downloads\"", "downloads.html",
               "\"script\": [{\"download\": \"link 'Report one'\", \"timeout_ms\": 10000}, "
               "{\"download\": \"link 'Report two'\", \"timeout_ms\": 10000}, {\"stop\": \"\"}]");
    snprintf(out, sizeof out, "%s/out", tmpdir);
    int rc = run_cli((const char *[]){"run", task, "--out", out, NULL});
    int nl = 0;
    cJSON *r = ts_result_line(out, &nl);
    cr_assert_not_null(r, "a result: %s", ts_slurp(err_path));
    cr_expect_eq(rc, 0, "exit %d: %s", rc, eous_json_str(r, "error"));
    const cJSON *dl = eous_json_arr(r, "downloads");
    cr_assert_eq(cJSON_GetArraySize(dl), 2, "two downloads");
    static const char *const names[] = {"report.csv", "report (1).csv"};
    static const char *const srcs[] = {PAGES "/paths/a/export.csv", PAGES "/paths/b/export.csv"};
    for (int i = 0; i < 2; i++) {
        const cJSON *d = cJSON_GetArrayItem(dl, i);
        cr_expect_str_eq(eous_json_str(d, "name"), names[i]);
        struct stat st;
        cr_assert_eq(stat(srcs[i], &st), 0);
        cr_expect_eq((long)eous_json_num(d, "size", -1), (long)st.st_size, "%s: its own size", names[i]);
        char want[65];
        sha256_of(srcs[i], want);
        cr_expect_str_eq(eous_json_str(d, "sha256"), want, "%s: its own sha256", names[i]);
        snprintf(p, sizeof p, "%s/%s", out, eous_json_str(d, "file"));
        char *saved = ts_slurp(p), *orig = ts_slurp(srcs[i]);
        cr_expect_str_eq(saved, orig, "%s is the server's file", p);
        free(saved);
        free(orig);
    }
    cJSON_Delete(r);
}

/* tests/cli/test_readme.c — the README's tour as a newcomer runs it: every shell block the README
 * marks runnable (the line `<!-- runnable -->` right before its ```sh fence) is run by bash,
 * `set -euo pipefail`, from a copy of the repository root (each top-level entry linked, so its
 * relative paths mean what they mean there; build/eous linked to $EOUS_CLI; eous-runs/ its own),
 * with the Playground and the stand-in model on free loopback ports and EOUS_SITE_PLAYGROUND,
 * OPENAI_BASE_URL and OPENAI_API_KEY pointing at them, as the tour's export lines say.  A block
 * that exits non-zero fails the test with its README line and first command, so a wrong path or
 * option in the README fails CI.  Nothing leaves loopback. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/cli.h"
#include "support/service.h"
#include "support/testsrv.h"
#include "support/workdir.h"
#include "support/grounds.h"

#define MARK "<!-- runnable -->"
#define MAX_BLOCKS 32
/* one block's bound: the slowest (the cron job: a wiki built and served, a login) takes ~30 s on a
 * loaded 2-core machine */
#define BLOCK_LIMIT_S 300

typedef struct {
    int line;       /* the README line of its ```sh fence */
    char first[160]; /* its first command, for the failure message */
    char *text;     /* the block's lines, owned */
} block;

static char tmpdir[256], root[300];
static ts_server *site;
static pid_t standin = -1;
static char standin_url[64];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "readme", NULL, NULL, 0);
    snprintf(root, sizeof root, "%s/root", tmpdir);
    site = ts_server_start(TS_PLAYGROUND_DIST);
    cr_assert_not_null(site, "the Playground is built (scripts/build-site)");
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(site), 1);
    cr_assert_eq(ts_standin_start(NULL, &standin, standin_url, sizeof standin_url), 0, "the stand-in starts");
    /* the tour's export lines, with the stand-in where the test started it */
    setenv("OPENAI_BASE_URL", standin_url, 1);
    setenv("OPENAI_API_KEY", "standin", 1);
}

/* A wiki a block started and did not stop (it failed half-way): stopped by the PID in its dir. */
static void stop_wikis(void)
{
    char runs[400];
    snprintf(runs, sizeof runs, "%s/eous-runs", root);
    DIR *d = opendir(runs);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char pidfile[800], cmd[1200];
        snprintf(pidfile, sizeof pidfile, "%s/%s/wiki.pid", runs, e->d_name);
        if (e->d_name[0] == '.' || access(pidfile, F_OK) != 0)
            continue;
        snprintf(cmd, sizeof cmd, "bash '%s/scripts/wiki' stop '%s/%s' >/dev/null 2>&1", EOUS_SOURCE_DIR, runs,
                 e->d_name);
        if (system(cmd) != 0)
            fprintf(stderr, "test_readme: scripts/wiki stop %s/%s failed\n", runs, e->d_name);
    }
    if (d)
        closedir(d);
}

static void teardown(void)
{
    stop_wikis();
    ts_service_stop(standin);
    standin = -1;
    if (site)
        ts_server_stop(site);
    site = NULL;
    ts_workdir_remove(tmpdir);
}

TestSuite(readme, .init = setup, .fini = teardown, .timeout = 1200);

/* root as the repository root: every top-level entry but build dirs, out/ and eous-runs/ linked
 * to the source tree's; build/eous is the eous under test. */
static void make_root(void)
{
    cr_assert_eq(mkdir(root, 0755), 0);
    DIR *d = opendir(EOUS_SOURCE_DIR);
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, ".git") || !strncmp(n, "build", 5) ||
            !strcmp(n, "out") || !strcmp(n, "eous-runs"))
            continue;
        char src[1024], dst[1024];
        snprintf(src, sizeof src, "%s/%s", EOUS_SOURCE_DIR, n);
        snprintf(dst, sizeof dst, "%s/%s", root, n);
        cr_assert_eq(symlink(src, dst), 0, "link %s: %s", dst, strerror(errno));
    }
    closedir(d);
    const char *cli = getenv("EOUS_CLI");
    cr_assert(cli && *cli, "EOUS_CLI names the eous under test (ctest sets it)");
    char dst[400];
    snprintf(dst, sizeof dst, "%s/build", root);
    cr_assert_eq(mkdir(dst, 0755), 0);
    snprintf(dst, sizeof dst, "%s/build/eous", root);
    cr_assert_eq(symlink(cli, dst), 0);
}

static void block_add(block *b, const char *line)
{
    size_t have = b->text ? strlen(b->text) : 0, add = strlen(line);
    b->text = realloc(b->text, have + add + 2);
    cr_assert_not_null(b->text);
    memcpy(b->text + have, line, add);
    b->text[have + add] = '\n';
    b->text[have + add + 1] = '\0';
    if (!b->first[0] && line[0] && line[0] != '#')
        snprintf(b->first, sizeof b->first, "%.*s", (int)sizeof b->first - 1, line);
}

/* The runnable blocks of path, in order; how many.  A marker not followed by a ```sh fence, or a
 * fence never closed, fails the test (the README's own mistake). */
static int read_blocks(const char *path, block *out, int max)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    char line[4096];
    int n = 0, lineno = 0, marked = 0, in = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (in) {
            if (!strcmp(line, "```"))
                in = 0, n++;
            else
                block_add(&out[n], line);
        } else if (marked) {
            cr_assert(!strcmp(line, "```sh"), "README.md:%d: expected a ```sh fence after " MARK ", got '%s'", lineno,
                      line);
            cr_assert_lt(n, max, "README.md: more than %d runnable blocks", max);
            memset(&out[n], 0, sizeof out[n]);
            out[n].line = lineno;
            marked = 0, in = 1;
        } else {
            marked = !strcmp(line, MARK);
        }
    }
    fclose(f);
    cr_assert(!in, "README.md: the runnable block at line %d is never closed", n < max ? out[n].line : 0);
    return n;
}

/* bash script in root, its own process group, stdin /dev/null; its exit code, 124 past limit_s
 * (the group stopped), 128 + signal when killed. */
static int run_bash(const char *script, const char *out_path, const char *err_path, int limit_s)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY), out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644),
            err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0 || chdir(root) != 0)
            _exit(127);
        dup2(in, 0), dup2(out, 1), dup2(err, 2);
        execlp("bash", "bash", script, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int status = 0;
    for (int waited_ms = 0;; waited_ms += 50) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (waited_ms >= limit_s * 1000) {
            kill(-pid, SIGTERM);
            sleep(3);
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 124;
        }
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The last ~600 bytes of a file, for a failure message (caller frees). */
static char *tail_of(const char *path)
{
    char *s = ts_slurp(path);
    size_t len = strlen(s);
    if (len > 600)
        memmove(s, s + len - 600, 601);
    return s;
}

/* Every runnable block of the README exits 0, in order, from the repository root.  Seen failing with
 * the tour's run pointed at benchmarks/grounds/tasks/playground/3.json (the README's old first command):
 * "README.md:NNN: the runnable block 'build/eous run benchmarks/grounds/tasks/playground/3.json ...' exited 2". */
Test(readme, every_runnable_block_runs)
{
    make_root();
    static block blocks[MAX_BLOCKS];
    int n = read_blocks(EOUS_SOURCE_DIR "/README.md", blocks, MAX_BLOCKS);
    /* the tour's six blocks: observe, run, bench and report, MCP, the cron job, help and check */
    cr_assert_geq(n, 6, "README.md marks %d blocks runnable; the tour has six", n);
    for (int i = 0; i < n; i++) {
        char script[400], out[400], err[400];
        snprintf(script, sizeof script, "%s/block-%02d.sh", tmpdir, i);
        snprintf(out, sizeof out, "%s/block-%02d.out", tmpdir, i);
        snprintf(err, sizeof err, "%s/block-%02d.err", tmpdir, i);
        FILE *f = fopen(script, "w");
        cr_assert_not_null(f);
        /* stderr names the command that failed, not only the block */
        fprintf(f, "set -euo pipefail\ntrap 'echo \"README command failed (exit $?): $BASH_COMMAND\" >&2' ERR\n%s",
                blocks[i].text);
        cr_assert_eq(fclose(f), 0);
        time_t t0 = time(NULL);
        int rc = run_bash(script, out, err, BLOCK_LIMIT_S);
        fprintf(stderr, "test_readme: README.md:%d '%s': exit %d in %ld s\n", blocks[i].line, blocks[i].first, rc,
                (long)(time(NULL) - t0));
        free(blocks[i].text);
        if (rc != 0) {
            static char tail[700];
            char *t = tail_of(err);
            snprintf(tail, sizeof tail, "%s", t);
            free(t);
            for (int k = i + 1; k < n; k++) /* the blocks after it depend on it: not run */
                free(blocks[k].text);
            cr_assert_fail("README.md:%d: the runnable block '%s' exited %d; its stderr ends:\n%s", blocks[i].line,
                           blocks[i].first, rc, tail);
        }
    }
}

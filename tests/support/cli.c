/* tests/support/cli.c — see cli.h. */
#define _GNU_SOURCE
#include "support/cli.h"

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "support/browser_pool.h"
#include <cjson/cJSON.h>

/* The pooled browsers the CLIs this process started hold, by PID, until ts_cli_wait reaps them. */
#define SHARED_MAX 8
static struct {
    pid_t pid;
    int lock;
} shared[SHARED_MAX];
static int own_browser; /* ts_cli_own_browser */

void ts_cli_own_browser(int on) { own_browser = on; }

/* A command that opens one local browser this run may attach to: not one that names its own browser,
 * several workers' browsers or none (eous check, distill, report ...). */
static int may_share(const char *const *args)
{
    static const char *const CMDS[] = {"run", "bench", "observe", "call", "mcp"};
    int cmd = 0;
    for (size_t i = 0; args[0] && i < sizeof CMDS / sizeof *CMDS; i++)
        cmd |= !strcmp(args[0], CMDS[i]);
    if (!cmd || own_browser || getenv("EOUS_CDP_ENDPOINT"))
        return 0;
    for (int i = 1; args[i]; i++) {
        if (!strcmp(args[i], "--webdriver") || !strcmp(args[i], "--headed") || !strcmp(args[i], "--cdp-endpoint") ||
            !strcmp(args[i], "--port") || !strcmp(args[i], "--help"))
            return 0;
        if (!strcmp(args[i], "--workers") && args[i + 1] && strcmp(args[i + 1], "1"))
            return 0;
    }
    return 1;
}

pid_t ts_cli_spawn(const char *const *args, const char *out_path, const char *err_path)
{
    const char *cli = getenv("EOUS_CLI");
    if (!cli) {
        fprintf(stderr, "ts_cli_spawn: EOUS_CLI is not set (ctest sets it)\n");
        return -1;
    }
    char addr[64];
    int lock = -1, slot = -1;
    for (int i = 0; i < SHARED_MAX && slot < 0; i++)
        if (!shared[i].pid)
            slot = i;
    if (slot >= 0 && may_share(args))
        lock = ts_pool_claim(addr, sizeof addr);
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0 && lock >= 0) {
            shared[slot].pid = pid;
            shared[slot].lock = lock;
        } else if (lock >= 0) {
            close(lock);
        }
        return pid;
    }
    /* a pooled browser instead of a launch (~2 CPU-s): the CLI's own attach, as a person would */
    if (lock >= 0)
        setenv("EOUS_CDP_ENDPOINT", addr, 1);
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    /* none of this process's descriptors: a connection a test server here accepted, inherited, stayed
     * open after the server closed it, and a browser's idle socket to it then hung the next page load */
    closefrom(3);
    const char *argv[48];
    int n = 0;
    argv[n++] = cli;
    for (int i = 0; args[i] && n < 47; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    execv(cli, (char *const *)argv);
    _exit(127);
}

static int cli_wait(pid_t pid, int limit_s);

/* The pooled browser pid's CLI held goes back to the pool. */
static void give_back(pid_t pid)
{
    for (int i = 0; i < SHARED_MAX; i++)
        if (shared[i].pid == pid) {
            close(shared[i].lock);
            shared[i].pid = 0;
        }
}

int ts_cli_wait(pid_t pid, int limit_s)
{
    int code = cli_wait(pid, limit_s);
    give_back(pid);
    return code;
}

static int cli_wait(pid_t pid, int limit_s)
{
    double until = eous_now_ms() + limit_s * 1000.0;
    int status = 0;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            break;
        if (eous_now_ms() > until) {
            kill(pid, SIGTERM);
            for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) != pid; i++)
                usleep(100 * 1000);
            if (kill(pid, 0) == 0) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
            }
            return 124;
        }
        usleep(50 * 1000);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int ts_cli_run(const char *const *args, const char *out_path, const char *err_path, int limit_s)
{
    pid_t pid = ts_cli_spawn(args, out_path, err_path);
    return pid < 0 ? -1 : ts_cli_wait(pid, limit_s);
}

char *ts_slurp(const char *path)
{
    char *s = NULL;
    if (eous_read_file(path, 0, &s, NULL, NULL))
        return strdup("");
    return s;
}

int ts_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

char *ts_drop_wait_notes(char *s)
{
    static const char note[] = "eous: still waiting for ";
    char *w = s;
    for (const char *p = s; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (strncmp(p, note, sizeof note - 1)) {
            memmove(w, p, len);
            w += len;
        }
        p += len;
    }
    *w = '\0';
    return s;
}

static const char *g_needle; /* nftw has no user pointer */
static char g_hit[512];

static int scan_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || st->st_size == 0)
        return 0;
    char *s = NULL;
    size_t len = 0;
    if (eous_read_file(path, 0, &s, &len, NULL))
        return 0;
    int hit = memmem(s, len, g_needle, strlen(g_needle)) != NULL;
    free(s);
    if (hit) {
        snprintf(g_hit, sizeof g_hit, "%s", path);
        return 1;
    }
    return 0;
}

const char *ts_file_with(const char *dir, const char *needle)
{
    g_needle = needle;
    g_hit[0] = '\0';
    nftw(dir, scan_one, 16, FTW_PHYS);
    return g_hit[0] ? g_hit : NULL;
}

cJSON *ts_result_line(const char *outdir, int *n_lines)
{
    char path[512];
    snprintf(path, sizeof path, "%s/results.jsonl", outdir);
    char *s = ts_slurp(path);
    *n_lines = ts_count_lines(s);
    char *nl = strchr(s, '\n');
    if (nl)
        *nl = '\0';
    cJSON *j = cJSON_Parse(s);
    free(s);
    return j;
}

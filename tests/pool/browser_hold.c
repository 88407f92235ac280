/* tests/pool/browser_hold.c — headless Chromiums held for tests that attach to them.
 *
 *   eous_test_browser_hold          one browser for a JavaScript test file (tests/mcp/support.mjs):
 *                                   prints "127.0.0.1:PORT" and holds it until stdin closes or a signal
 *   eous_test_browser_hold N DIR    N browsers for every C test binary of a ctest run (the browser_pool
 *                                   fixture, CMakeLists.txt): writes DIR/pid, DIR/locks/ and, once all
 *                                   listen, DIR/browsers ("127.0.0.1:PORT,..." as TS_POOL_ENV holds
 *                                   them, tests/pool/browser_pool.c), then holds them until SIGTERM
 *
 * Each browser is launched with eous's flags (support/chromium.h) and dies with this process
 * (PR_SET_PDEATHSIG); on a signal or stdin's end it stops them and removes their profiles.
 * Ownership: the process that started this one, which stops it by its PID. */
#include "support/chromium.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOLD_MAX 8

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static ts_chromium_held held[HOLD_MAX];
static int n_held;

static void stop_all(void)
{
    for (int i = 0; i < n_held; i++) /* all told at once: each takes a second or two to go */
        if (held[i].pid > 0)
            kill(-held[i].pid, SIGTERM);
    for (int i = 0; i < n_held; i++)
        ts_chromium_release(&held[i]);
    n_held = 0;
}

/* Launches n browsers: their list into list, or -1 after saying which did not start. */
static int launch_all(int n, char *list, size_t size)
{
    size_t len = 0;
    list[0] = '\0';
    for (int i = 0; i < n && !stop; i++) {
        n_held = i + 1;
        int port = ts_chromium_hold(&held[i]);
        if (port < 0) {
            fprintf(stderr, "browser_hold: Chromium %d did not start\n", i);
            return -1;
        }
        len += (size_t)snprintf(list + len, size - len, "%s127.0.0.1:%d", len ? "," : "", port);
    }
    return stop ? -1 : 0;
}

/* text into dir/name, whole or not at all (written beside, then renamed) */
static int write_file(const char *dir, const char *name, const char *text)
{
    char tmp[512], path[512];
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    return bad ? -1 : rename(tmp, path);
}

int main(int argc, char **argv)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the read below returns on a signal */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int n = argc == 3 ? atoi(argv[1]) : 1;
    const char *dir = argc == 3 ? argv[2] : NULL;
    if (argc != 1 && (argc != 3 || n < 1 || n > HOLD_MAX)) {
        fprintf(stderr, "usage: eous_test_browser_hold [N DIR]  (N from 1 to %d)\n", HOLD_MAX);
        return 2;
    }
    char list[HOLD_MAX * 24], pid[32], locks[512];
    if (dir) {
        snprintf(pid, sizeof pid, "%d\n", (int)getpid());
        snprintf(locks, sizeof locks, "%s/locks", dir);
        if (write_file(dir, "pid", pid) || (mkdir(locks, 0700) && access(locks, W_OK))) {
            fprintf(stderr, "browser_hold: cannot write in %s\n", dir);
            return 1;
        }
    }
    if (launch_all(n, list, sizeof list) || (dir && write_file(dir, "browsers", list))) {
        stop_all();
        return 1;
    }
    if (dir) {
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGINT);
        sigprocmask(SIG_BLOCK, &block, &old);
        while (!stop)
            sigsuspend(&old); /* no signal lost between the test and the wait */
        sigprocmask(SIG_SETMASK, &old, NULL);
    } else {
        printf("%s\n", list);
        fflush(stdout);
        char c;
        while (!stop && read(0, &c, 1) > 0)
            ; /* held until the starter closes stdin or signals */
    }
    stop_all();
    return 0;
}

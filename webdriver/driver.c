/* webdriver/driver.c — spawning and stopping chromedriver processes.
 *
 * chromedriver runs in a process group of its own, and the browsers it starts
 * inherit that group, so stopping a driver is one kill(-pgid) that takes its
 * browsers too.  Live groups are kept in a small fixed table the signal
 * handler can walk without locks or allocation. */
#define _GNU_SOURCE
#include "webdriver/wd.h"
#include "webdriver/wait_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct wd_driver {
    pid_t pid;
    int port;
    char url[64];
    int slot;
};

#define MAX_LIVE_GROUPS 128
static volatile sig_atomic_t live_groups[MAX_LIVE_GROUPS];

static int register_group(pid_t pgid)
{
    for (int i = 0; i < MAX_LIVE_GROUPS; i++) {
        if (__sync_bool_compare_and_swap(&live_groups[i], 0, (sig_atomic_t)pgid))
            return i;
    }
    return -1;
}

static void unregister_group(int slot)
{
    if (slot >= 0)
        live_groups[slot] = 0;
}

static void release_group(wd_driver *d, pid_t pgid)
{
    unregister_group(d->slot);
    d->slot = -1;
    wd_guard_release_group(pgid);
}

static void on_signal(int sig)
{
    eous_interrupt_from_signal(sig);
    for (int i = 0; i < MAX_LIVE_GROUPS; i++) {
        pid_t g = live_groups[i];
        if (g > 0)
            kill(-g, SIGKILL);
    }
}

void wd_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A dead driver's socket must give an error, not kill us. */
    signal(SIGPIPE, SIG_IGN);
}

void wd_become_subreaper(void)
{
#ifdef PR_SET_CHILD_SUBREAPER
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
}

/* The state, parent, group and session of pid from /proc; 0 when it is gone. */
static int read_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgrp, pid_t *sid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
    int pp, pg, se;
    if (!p || sscanf(p + 1, " %c %d %d %d", state, &pp, &pg, &se) != 4)
        return 0;
    *ppid = pp, *pgrp = pg, *sid = se;
    return 1;
}

int wd_reap_orphans(void)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    /* a look that reaps nothing: with no child ended (the usual case) that is all */
    if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
        return 0;
    pid_t self = getpid(), my_pgrp = getpgrp(), my_sid = getsid(0);
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        pid_t pid = (pid_t)atoi(e->d_name), ppid, pgrp, sid;
        char state;
        if (!read_stat(pid, &state, &ppid, &pgrp, &sid) || ppid != self || state != 'Z')
            continue;
        /* ours to reap: it left our session (chrome_crashpad_handler calls setsid), or
         * it is a member, not the leader, of another group (a browser whose driver died).
         * Our own forks (chromedriver leads its group; others stay in ours) are waited
         * for by pid where they were started, so they are left to that code. */
        if (sid == my_sid && (pgrp == pid || pgrp == my_pgrp))
            continue;
        if (waitpid(pid, NULL, WNOHANG) == pid)
            n++;
    }
    if (d)
        closedir(d);
    return n;
}

static void reap_group(pid_t pgid)
{
    /* Reaps the group's members that are our children (direct, or orphans
     * reparented to us when we are a subreaper). */
    while (waitpid(-pgid, NULL, WNOHANG) > 0)
        ;
}

static int group_alive(pid_t pgid)
{
    reap_group(pgid);
    return kill(-pgid, 0) == 0;
}

static void stop_group(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(-pid, SIGTERM);
    for (int i = 0; i < 40; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid || errno == ECHILD)
            break;
        eous_sleep_ms(25);
    }
    /* Browsers may outlive a terminated driver: finish the whole group. */
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
    for (int i = 0; i < 40 && group_alive(pid); i++)
        eous_sleep_ms(25);
}

/* Forks chromedriver in a process group of its own, tied to eous's life;
 * the child's pid, or -1 when fork failed.  log_arg may be NULL. */
static pid_t start_child(const char *path, const char *port_arg, const char *log_arg)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    /* If eous is killed outright, the driver goes too (its browsers
     * are the guardian's job, webdriver/guard.c). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127); /* the parent died before prctl took effect */
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2);
    }
    /* none of the caller's descriptors: a connection its server closed stayed open in the driver (and
     * the browser's socket to that server then waited on it), as did any file or socket it holds */
    closefrom(3);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    if (log_arg)
        execl(path, path, port_arg, log_arg, (char *)NULL);
    else
        execl(path, path, port_arg, (char *)NULL);
    _exit(127);
}

/* Polls the new driver's /status until it is ready (EOUS_OK), it exits
 * (*exited = 1) or start_timeout passes (both EOUS_E_TIMEOUT, no message);
 * an interruption frees d and says so. */
static eous_rc await_ready(wd_driver *d, double start_timeout, int *exited, eous_err *err)
{
    double t0 = eous_now_ms();
    while (eous_now_ms() - t0 < start_timeout) {
        int status;
        if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
            *exited = 1;
            return EOUS_E_TIMEOUT;
        }
        int ready = 0;
        if (wd_status(d->url, 1000, &ready, NULL) == EOUS_OK && ready) {
            EOUS_DEBUG("webdriver", "chromedriver pid %d ready on %s in %.0f ms", (int)d->pid, d->url,
                       eous_now_ms() - t0);
            return EOUS_OK;
        }
        if (eous_interrupted()) {
            wd_driver_free(d);
            return eous_err_set(err, EOUS_E_INTERRUPTED, "interrupted while starting chromedriver");
        }
        eous_sleep_ms(20);
    }
    return EOUS_E_TIMEOUT;
}

eous_rc wd_driver_spawn(const wd_driver_opts *opts, wd_driver **out, eous_err *err)
{
    wd_driver_opts o = {0};
    if (opts)
        o = *opts;
    *out = NULL;
    const char *name = o.chromedriver;
    if (!name)
        name = getenv("EOUS_CHROMEDRIVER");
    if (!name || !*name)
        name = "chromedriver";
    char path[4096];
    if (!eous_which(name, path, sizeof path)) {
        eous_err_set_code(err, "missing binary");
        return eous_err_set(err, EOUS_E_INFRA,
                            "chromedriver not found (%s): install the Debian package chromium-driver", name);
    }
    char browser[4096];
    if (!eous_which(wd_chromium_path(), browser, sizeof browser)) {
        eous_err_set_code(err, "missing binary");
        return eous_err_set(err, EOUS_E_INFRA,
                            "chromium not found (%s): install the Debian package chromium", wd_chromium_path());
    }
    double start_timeout = o.start_timeout_ms > 0 ? o.start_timeout_ms : 15000;

    for (int attempt = 0; attempt < 3; attempt++) {
        int port = o.port ? o.port : eous_free_port();
        if (port <= 0)
            return eous_err_set(err, EOUS_E_INFRA, "cannot find a free loopback port: %s", strerror(errno));
        char port_arg[32];
        snprintf(port_arg, sizeof port_arg, "--port=%d", port);
        char log_arg[4200] = "";
        if (o.log_path)
            snprintf(log_arg, sizeof log_arg, "--log-path=%s", o.log_path);

        pid_t pid = start_child(path, port_arg, o.log_path ? log_arg : NULL);
        if (pid < 0)
            return eous_err_set(err, EOUS_E_INFRA, "fork failed: %s", strerror(errno));
        setpgid(pid, pid); /* both sides, so there is no window where it is unset */
        wd_guard_track_group(pid);

        wd_driver *d = calloc(1, sizeof *d);
        if (!d) {
            stop_group(pid);
            wd_guard_release_group(pid);
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
        d->pid = pid;
        d->port = port;
        d->slot = register_group(pid);
        snprintf(d->url, sizeof d->url, "http://127.0.0.1:%d", port);

        int exited = 0;
        /* a loaded machine took 25-55 s here: say what the silence is */
        wd_wait_note *note = wd_wait_note_start("chromedriver on port %d to answer", port);
        eous_rc rc = await_ready(d, start_timeout, &exited, err);
        wd_wait_note_stop(note);
        if (rc != EOUS_E_TIMEOUT) {
            if (!rc)
                *out = d;
            return rc;
        }
        if (!exited)
            stop_group(pid);
        release_group(d, pid);
        free(d);
        if (!exited || o.port)
            return eous_err_set(err, EOUS_E_INFRA, "chromedriver (%s) did not become ready on port %d within %.0f ms",
                                path, port, start_timeout);
        /* exited at once: most likely the port was taken between probe and bind; retry */
    }
    return eous_err_set(err, EOUS_E_INFRA, "chromedriver (%s) exited at start three times", path);
}

const char *wd_driver_url(const wd_driver *d)
{
    return d ? d->url : NULL;
}

pid_t wd_driver_pid(const wd_driver *d)
{
    return d ? d->pid : -1;
}

int wd_driver_alive(wd_driver *d)
{
    if (!d || d->pid <= 0)
        return 0;
    int status;
    pid_t r = waitpid(d->pid, &status, WNOHANG);
    if (r == d->pid) {
        d->pid = -d->pid; /* remember the group for cleanup, mark dead */
        return 0;
    }
    return kill(d->pid, 0) == 0;
}

void wd_driver_free(wd_driver *d)
{
    if (!d)
        return;
    pid_t pid = d->pid < 0 ? -d->pid : d->pid;
    stop_group(pid);
    release_group(d, pid);
    free(d);
    wd_reap_orphans(); /* helpers of this browser or an earlier one that have ended since */
}

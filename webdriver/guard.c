/* webdriver/guard.c — nothing eous started outlives it, even after SIGKILL.
 *
 * SIGKILL cannot be handled, and PR_SET_PDEATHSIG only reaches chromedriver,
 * not the browsers it starts nor sessions on a remote Grid.  So a guardian
 * process, forked before any driver, holds the read end of a pipe; eous sends
 * it one record per process group, remote session and profile dir it starts
 * (and one per release).  When the pipe closes — eous exited in any way — the
 * guardian kills the groups still recorded, deletes the remote sessions and
 * removes the dirs, then exits: it never outlives eous doing nothing.
 *
 * The same records are appended to STATE_DIR/.eous-guard-PID.log, so if the
 * guardian died too (a whole cgroup OOM-killed), the next eous started on the
 * same run directory reaps them.  A group is only signalled when it is
 * provably the recorded one: its leader has the recorded /proc start time, or
 * the leader is gone and a member started no earlier than the leader did.
 *
 * Records, one line each (< PIPE_BUF, so one write() is atomic):
 *   O PID START       owner (first line of the file)
 *   G PGID START / g PGID       a process group / its release
 *   S URL / s URL               a remote session URL (base/session/ID) / release
 *   D PATH / d PATH             a temporary dir / release */
#define _GNU_SOURCE
#include "webdriver/wd.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static int guard_pipe = -1;     /* write end; -1 = no guardian */
static int guard_log = -1;      /* the run directory's record file */
static pid_t guard_pid = -1;
static char guard_log_path[4200];

/* ---- /proc --------------------------------------------------------------- */

/* Process group and start time (clock ticks since boot) of pid; 0 when it does
 * not exist or is a zombie. */
static int proc_stat(pid_t pid, pid_t *pgrp, unsigned long long *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and parens */
    if (!p)
        return 0;
    char state;
    int ppid, pg;
    unsigned long long st = 0;
    /* fields 3..22: state ppid pgrp session tty tpgid flags minflt cminflt majflt
     * cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime */
    if (sscanf(p + 2, "%c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &state,
               &ppid, &pg, &st) != 4 || state == 'Z')
        return 0;
    if (pgrp)
        *pgrp = pg;
    if (start)
        *start = st;
    return 1;
}

unsigned long long wd_proc_start_time(pid_t pid)
{
    unsigned long long st = 0;
    return proc_stat(pid, NULL, &st) ? st : 0;
}

/* 1 when pgid is still the group recorded with the leader's start time. */
static int group_is_recorded_one(pid_t pgid, unsigned long long start)
{
    unsigned long long leader_start;
    if (proc_stat(pgid, NULL, &leader_start))
        return leader_start == start;
    /* leader gone: while any member lives the kernel keeps the number from
     * being reused, so a member that started after the leader is one of ours */
    DIR *d = opendir("/proc");
    struct dirent *e;
    int ours = 0;
    while (d && !ours && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        pid_t pg;
        unsigned long long st;
        if (proc_stat((pid_t)atoi(e->d_name), &pg, &st) && pg == pgid && st >= start)
            ours = 1;
    }
    if (d)
        closedir(d);
    return ours;
}

static int group_has_members(pid_t pgid)
{
    while (waitpid(-pgid, NULL, WNOHANG) > 0) /* our children, when we are their reaper */
        ;
    return kill(-pgid, 0) == 0;
}

static void kill_recorded_group(pid_t pgid, unsigned long long start)
{
    if (pgid <= 1 || !group_is_recorded_one(pgid, start))
        return;
    for (int i = 0; i < 100 && group_has_members(pgid); i++) {
        kill(-pgid, SIGKILL);
        usleep(10000);
    }
}

static void delete_remote_session(const char *url)
{
    CURL *c = curl_easy_init();
    if (!c)
        return;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "DELETE");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 8000L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 2000L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fwrite);
    FILE *sink = fopen("/dev/null", "we");
    if (sink)
        curl_easy_setopt(c, CURLOPT_WRITEDATA, sink);
    curl_easy_perform(c);
    curl_easy_cleanup(c);
    if (sink)
        fclose(sink);
}

/* ---- records ------------------------------------------------------------- */

/* 1 when the record on line `at` (kind K, argument arg) is released later. */
static int released_later(const char *after, char kind, const char *arg, size_t arg_len)
{
    char rel = (char)(kind - 'A' + 'a');
    for (const char *p = after; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            break; /* a torn last line releases nothing */
        if (p[0] == rel && p[1] == ' ' && (size_t)(eol - p - 2) >= arg_len && !strncmp(p + 2, arg, arg_len) &&
            (p[2 + arg_len] == '\n' || p[2 + arg_len] == ' '))
            return 1;
        p = eol + 1;
    }
    return 0;
}

/* Kills, deletes and removes what `records` holds and does not release.
 * Returns how many records it acted on. */
static int reap_records(const char *records)
{
    int n = 0;
    for (const char *p = records; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            break;
        char line[4200];
        size_t len = (size_t)(eol - p);
        if (len >= 3 && len < sizeof line && p[1] == ' ' && (p[0] == 'G' || p[0] == 'S' || p[0] == 'D')) {
            memcpy(line, p, len);
            line[len] = '\0';
            const char *arg = line + 2;
            size_t arg_len = p[0] == 'G' ? strcspn(arg, " ") : strlen(arg);
            if (!released_later(eol + 1, p[0], arg, arg_len)) {
                int pgid;
                unsigned long long start;
                if (p[0] == 'G' && sscanf(arg, "%d %llu", &pgid, &start) == 2)
                    kill_recorded_group((pid_t)pgid, start);
                else if (p[0] == 'S')
                    delete_remote_session(arg);
                else if (p[0] == 'D' && !strncmp(arg, "/tmp/eous-", 10))
                    eous_rmtree(arg);
                n++;
            }
        }
        p = eol + 1;
    }
    return n;
}

int wd_guard_reap_leftovers(const char *state_dir)
{
    DIR *d = opendir(state_dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int owner;
        char tail[8];
        if (sscanf(e->d_name, ".eous-guard-%d.%7s", &owner, tail) != 2 || strcmp(tail, "log"))
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", state_dir, e->d_name);
        char *text = NULL;
        if (eous_read_file(path, 1 << 22, &text, NULL, NULL))
            continue;
        unsigned long long owner_start = 0;
        if (sscanf(text, "O %d %llu", &owner, &owner_start) == 2 && owner != getpid() &&
            wd_proc_start_time((pid_t)owner) == owner_start) {
            free(text); /* a live eous on the same directory: its records are its own */
            continue;
        }
        int k = reap_records(text);
        if (k)
            EOUS_WARN("webdriver", "reaped %d leftover(s) of eous pid %d recorded in %s", k, owner, path);
        free(text);
        unlink(path);
        n += k;
    }
    closedir(d);
    return n;
}

/* ---- the guardian process ------------------------------------------------ */

static void guardian_main(int rd)
{
    signal(SIGINT, SIG_IGN);  /* a terminal's ^C goes to the whole job; eous handles it */
    signal(SIGTERM, SIG_IGN); /* eous cleans up on TERM and its exit closes the pipe */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGCHLD, SIG_DFL);
    prctl(PR_SET_NAME, "eous-guard", 0, 0, 0);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 1);
    }
    /* only eous's pipe: a held lock or socket must not outlive eous (as chromedriver's start, driver.c) */
    if (rd != 3 && dup2(rd, 3) == 3)
        rd = 3;
    closefrom(rd + 1);
    size_t cap = 1 << 14, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            _exit(1);
        if (len + 4097 > cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                break; /* still act on what is recorded */
            buf = nb;
        }
        ssize_t r = read(rd, buf + len, 4096);
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        len += (size_t)r;
    }
    buf[len] = '\0';
    reap_records(buf);
    _exit(0);
}

static void send_record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void send_record(const char *fmt, ...)
{
    char line[4200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n <= 0 || n >= (int)sizeof line)
        return;
    pthread_mutex_lock(&guard_lock);
    if (guard_log >= 0 && write(guard_log, line, (size_t)n) != n)
        EOUS_WARN("webdriver", "%s: cannot record a started process: %s", guard_log_path, strerror(errno));
    if (guard_pipe >= 0 && write(guard_pipe, line, (size_t)n) != n)
        EOUS_WARN("webdriver", "the guardian process is gone: %s", strerror(errno));
    pthread_mutex_unlock(&guard_lock);
}

eous_rc wd_guard_start(const char *state_dir, eous_err *err)
{
    if (guard_pipe >= 0)
        return EOUS_OK;
    wd_guard_reap_leftovers(state_dir);
    snprintf(guard_log_path, sizeof guard_log_path, "%s/.eous-guard-%d.log", state_dir, (int)getpid());
    guard_log = open(guard_log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (guard_log < 0)
        return eous_err_set(err, EOUS_E_IO, "%s: cannot create: %s", guard_log_path, strerror(errno));
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        close(guard_log);
        guard_log = -1;
        unlink(guard_log_path);
        return eous_err_set(err, EOUS_E_INFRA, "cannot create the guardian pipe: %s", strerror(errno));
    }
    signal(SIGPIPE, SIG_IGN);
    pthread_once_t dummy = PTHREAD_ONCE_INIT;
    (void)dummy;
    curl_global_init(CURL_GLOBAL_DEFAULT); /* before fork: the guardian may need it */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        close(guard_log);
        guard_log = -1;
        unlink(guard_log_path);
        return eous_err_set(err, EOUS_E_INFRA, "cannot fork the guardian process: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[1]);
        guardian_main(fds[0]);
    }
    close(fds[0]);
    guard_pid = pid;
    guard_pipe = fds[1];
    send_record("O %d %llu\n", (int)getpid(), wd_proc_start_time(getpid()));
    return EOUS_OK;
}

void wd_guard_stop(void)
{
    pthread_mutex_lock(&guard_lock);
    int fd = guard_pipe;
    guard_pipe = -1;
    if (guard_log >= 0) {
        close(guard_log);
        guard_log = -1;
        unlink(guard_log_path);
    }
    pthread_mutex_unlock(&guard_lock);
    if (fd < 0)
        return;
    close(fd); /* EOF: the guardian acts on what is still recorded and exits */
    waitpid(guard_pid, NULL, 0);
    guard_pid = -1;
}

pid_t wd_guard_pid(void)
{
    return guard_pid;
}

void wd_guard_track_group(pid_t pgid)
{
    if (guard_pipe >= 0)
        send_record("G %d %llu\n", (int)pgid, wd_proc_start_time(pgid));
}

void wd_guard_release_group(pid_t pgid)
{
    if (guard_pipe >= 0)
        send_record("g %d\n", (int)pgid);
}

void wd_guard_track_session(const char *session_url)
{
    if (guard_pipe >= 0 && !strchr(session_url, '\n'))
        send_record("S %s\n", session_url);
}

void wd_guard_release_session(const char *session_url)
{
    if (guard_pipe >= 0 && !strchr(session_url, '\n'))
        send_record("s %s\n", session_url);
}

void wd_guard_track_dir(const char *path)
{
    if (guard_pipe >= 0 && !strchr(path, '\n'))
        send_record("D %s\n", path);
}

void wd_guard_release_dir(const char *path)
{
    if (guard_pipe >= 0 && !strchr(path, '\n'))
        send_record("d %s\n", path);
}

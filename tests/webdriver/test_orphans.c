/* tests/webdriver/test_orphans.c — eous killed with SIGKILL leaves nothing running: not
 * its chromedriver, not the browsers chromedriver started, not the browsers a
 * Selenium Grid started for its sessions; and leftovers a crashed eous
 * recorded in its run directory are reaped by the next one (only those). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/browser.h"
#include "support/proc.h"
#include "support/workdir.h"
#include "support/grounds.h"

static char tmpdir[256];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "orphans", NULL, NULL, 0);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(orphans, .init = setup, .fini = teardown, .timeout = 600);

/* ---- /proc snapshots ----------------------------------------------------- */

typedef struct proc_id {
    pid_t pid;
    unsigned long long start;
} proc_id;

typedef struct snapshot {
    proc_id p[512];
    int n;
} snapshot;

/* The parent of a live (not zombie) pid: 1 with *ppid, else 0. */
static int read_ppid(pid_t pid, pid_t *ppid)
{
    char state;
    return ts_proc_stat(pid, &state, ppid, NULL) == 0 && state != 'Z';
}

/* Adds every live descendant of root (not root itself) to s. */
static void add_descendants(snapshot *s, pid_t root)
{
    pid_t frontier[512];
    int nf = 0;
    frontier[nf++] = root;
    while (nf) {
        pid_t parent = frontier[--nf];
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] < '1' || e->d_name[0] > '9')
                continue;
            pid_t pid = atoi(e->d_name), pp;
            if (read_ppid(pid, &pp) && pp == parent && s->n < 512 && nf < 512) {
                s->p[s->n].pid = pid;
                s->p[s->n].start = wd_proc_start_time(pid);
                s->n++;
                frontier[nf++] = pid;
            }
        }
        if (d)
            closedir(d);
    }
}

/* 1 when the process's command name is comm. */
static int has_comm(pid_t pid, const char *comm)
{
    char path[64], buf[64] = "";
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (fgets(buf, sizeof buf, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
    return !strcmp(buf, comm);
}

/* How many of s are still running (same pid and start time, not a zombie). */
static int survivors(const snapshot *s, char *names, size_t names_size)
{
    int n = 0;
    names[0] = '\0';
    for (int i = 0; i < s->n; i++) {
        unsigned long long st = wd_proc_start_time(s->p[i].pid);
        if (st && st == s->p[i].start) {
            n++;
            char path[64], comm[64] = "?";
            snprintf(path, sizeof path, "/proc/%d/comm", (int)s->p[i].pid);
            FILE *f = fopen(path, "r");
            if (f) {
                if (fgets(comm, sizeof comm, f))
                    comm[strcspn(comm, "\n")] = '\0';
                fclose(f);
            }
            size_t used = strlen(names);
            snprintf(names + used, names_size - used, " %d(%s)", (int)s->p[i].pid, comm);
        }
    }
    return n;
}

/* Waits up to `seconds` for every process in s to be gone; returns the survivors. */
static int survivors_after(const snapshot *s, int seconds, char *names, size_t names_size)
{
    int n = 0;
    for (int i = 0; i < seconds * 10; i++) {
        if (!(n = survivors(s, names, names_size)))
            break;
        eous_sleep_ms(100);
    }
    return n;
}

/* ---- running eous -------------------------------------------------------- */

static pid_t spawn_eous(const char *const *args, const char *log)
{
    const char *cli = getenv("EOUS_CLI");
    cr_assert(cli, "EOUS_CLI set (ctest sets it)");
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        const char *argv[32] = {cli};
        int n = 1;
        for (const char *const *a = args; *a && n < 31; a++)
            argv[n++] = *a;
        argv[n] = NULL;
        execv(cli, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* A slice of the Playground suite (the first n task files), linked into dir. */
static void make_slice(const char *dir, int n)
{
    mkdir(dir, 0755);
    for (int i = 0; i < n; i++) {
        char src[1024], dst[1024];
        snprintf(src, sizeof src, "%s/playground/%03d.json", TS_TASKS, i);
        snprintf(dst, sizeof dst, "%s/%03d.json", dir, i);
        cr_assert_eq(symlink(src, dst), 0);
    }
}

/* Waits until eous has at least `want` descendants (driver, browsers). */
static int wait_for_descendants(pid_t eous, int want)
{
    for (int i = 0; i < 600; i++) {
        snapshot s = {.n = 0};
        add_descendants(&s, eous);
        if (s.n >= want)
            return s.n;
        eous_sleep_ms(100);
    }
    return 0;
}

/* SIGKILLs eous once it is mid-run; returns how many of the processes in the
 * snapshot taken just before (eous's descendants, and extra_root's when given:
 * a Grid's drivers and browsers) are still there after `seconds`, naming them
 * and eous's log in why.  The caller asserts after its own cleanup, so a
 * failure never leaves a Grid running. */
static int kill_and_check(pid_t eous, pid_t extra_root, int seconds, const char *log, char *why, size_t why_size)
{
    snapshot s = {.n = 0};
    add_descendants(&s, eous);
    if (extra_root > 0) {
        snapshot g = {.n = 0};
        add_descendants(&g, extra_root);
        /* the node's chromedriver services are the node's: it stops them on its
         * own schedule after the sessions go; the browsers are what must not stay */
        for (int i = 0; i < g.n && s.n < 512; i++)
            if (!has_comm(g.p[i].pid, "chromedriver"))
                s.p[s.n++] = g.p[i];
    }
    char names[4096];
    cr_assert_gt(survivors(&s, names, sizeof names), 1, "a driver and browser are running before the kill");
    kill(eous, SIGKILL);
    int status = 0;
    waitpid(eous, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    int left = survivors_after(&s, seconds, names, sizeof names);
    char *text = NULL;
    eous_read_file(log, 0, &text, NULL, NULL);
    snprintf(why, why_size, "%d of %d processes survived eous's SIGKILL by %d s:%s\nlog:\n%.2000s", left, s.n,
             seconds, names, text ? text : "");
    free(text);
    return left;
}

/* Waits until a task is under way: its trace file exists (opened when the
 * task starts, after its browser session is up). */
static int wait_for_a_step(const char *out)
{
    char dir[400];
    snprintf(dir, sizeof dir, "%s/trace", out);
    for (int i = 0; i < 1500; i++) { /* a loaded machine can take minutes */
        DIR *d = opendir(dir);
        struct dirent *e;
        int found = 0;
        while (d && !found && (e = readdir(d))) {
            char path[700];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            found = e->d_name[0] != '.' && access(path, F_OK) == 0;
        }
        if (d)
            closedir(d);
        if (found)
            return 1;
        eous_sleep_ms(200);
    }
    return 0;
}

static ts_server *serve_playground(void)
{
    const char *site = ts_site_root();
    cr_assert(site, "the Playground is built (scripts/build-site)");
    ts_server *srv = ts_server_start(site);
    cr_assert(srv);
    setenv("EOUS_SITE_PLAYGROUND", ts_server_url(srv), 1);
    return srv;
}

Test(orphans, sigkill_run_mid_step_leaves_nothing)
{
    ts_server *srv = serve_playground();
    char task[1024], out[300], log[300];
    snprintf(task, sizeof task, "%s/playground/000.json", TS_TASKS);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(log, sizeof log, "%s/log", tmpdir);
    pid_t eous = spawn_eous((const char *[]){"run", task, "--out", out, NULL}, log);
    /* guardian + chromedriver + a browser with its helpers */
    cr_assert_geq(wait_for_descendants(eous, 4), 4, "eous started a driver and a browser");
    cr_assert(wait_for_a_step(out), "the task got under way");
    char why[8192];
    cr_assert_eq(kill_and_check(eous, 0, 5, log, why, sizeof why), 0, "%s", why);
    ts_server_stop(srv);
}

Test(orphans, sigkill_bench_with_two_workers_leaves_nothing)
{
    ts_server *srv = serve_playground();
    char slice[300], out[300], log[300];
    snprintf(slice, sizeof slice, "%s/slice", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(log, sizeof log, "%s/log", tmpdir);
    make_slice(slice, 12);
    pid_t eous = spawn_eous((const char *[]){"bench", slice, "--workers", "2", "--out", out, NULL}, log);
    cr_assert(wait_for_a_step(out), "the bench got going");
    char why[8192];
    cr_assert_eq(kill_and_check(eous, 0, 5, log, why, sizeof why), 0, "%s", why);
    ts_server_stop(srv);
}

Test(orphans, sigkill_bench_on_grid_leaves_no_grid_browser)
{
    ts_server *srv = serve_playground();
    char griddir[300], cmd[900], url[256] = "";
    snprintf(griddir, sizeof griddir, "%s/grid", tmpdir);
    snprintf(cmd, sizeof cmd, "bash %s/scripts/grid start --sessions 2 --dir %s", EOUS_SOURCE_DIR, griddir);
    FILE *g = popen(cmd, "r");
    cr_assert(g && fgets(url, sizeof url, g), "grid started");
    pclose(g);
    url[strcspn(url, "\n")] = '\0';
    char pidfile[400];
    snprintf(pidfile, sizeof pidfile, "%s/grid.pid", griddir);
    char *pidtext = NULL;
    eous_read_file(pidfile, 0, &pidtext, NULL, NULL);
    pid_t grid = pidtext ? atoi(pidtext) : 0;
    free(pidtext);
    cr_assert_gt(grid, 0);

    char slice[300], out[300], log[300];
    snprintf(slice, sizeof slice, "%s/slice", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(log, sizeof log, "%s/log", tmpdir);
    make_slice(slice, 12);
    pid_t eous = spawn_eous(
        (const char *[]){"bench", slice, "--workers", "2", "--webdriver", url, "--out", out, NULL}, log);
    int started = wait_for_a_step(out), left = 0;
    char why[8192] = "";
    /* the grid's drivers and browsers are all this eous's; they go when the
     * guardian's DELETE reaches the node, which then quits chromedriver itself:
     * that teardown is the node's, so it gets a longer bound than a local kill */
    if (started)
        left = kill_and_check(eous, grid, 20, log, why, sizeof why);
    else
        kill(eous, SIGKILL), waitpid(eous, NULL, 0);
    snprintf(cmd, sizeof cmd, "bash %s/scripts/grid stop %s", EOUS_SOURCE_DIR, griddir);
    cr_assert_eq(system(cmd), 0);
    cr_assert(started, "the bench got going on the grid");
    cr_assert_eq(left, 0, "%s", why);
    ts_server_stop(srv);
}

/* A process group standing in for a crashed eous's chromedriver. */
static pid_t spawn_group(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* exec, as chromedriver does, so inherited close-on-exec fds go */
        execl("/bin/sh", "sh", "-c", "sleep 600 & exec sleep 600", (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    while (ts_proc_group_count(pid) < 2) /* the shell has started its background child */
        sched_yield();
    return pid;
}

static int group_alive(pid_t pgid)
{
    while (waitpid(-pgid, NULL, WNOHANG) > 0)
        ;
    return kill(-pgid, 0) == 0;
}

Test(orphans, leftovers_of_a_dead_eous_are_reaped_only_when_recorded_exactly)
{
    wd_become_subreaper(); /* so the grandchild is ours to reap */
    pid_t ours = spawn_group(), stranger = spawn_group(), released = spawn_group();
    char path[400];
    snprintf(path, sizeof path, "%s/.eous-guard-999999.log", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    /* owner 999999 with start time 1: not a live eous */
    fprintf(f, "O 999999 1\nG %d %llu\nG %d %llu\nG %d %llu\ng %d\nG %d 1", (int)ours,
            wd_proc_start_time(ours), (int)stranger, wd_proc_start_time(stranger) + 7, (int)released,
            wd_proc_start_time(released), (int)released, 999998);
    fclose(f);
    cr_assert_eq(wd_guard_reap_leftovers(tmpdir), 2, "two unreleased whole records (the torn last line is not one)");
    cr_assert_not(group_alive(ours), "the recorded group was killed");
    cr_assert(group_alive(stranger), "a group whose leader start time differs is someone else's");
    cr_assert(group_alive(released), "a released group is not touched");
    cr_assert_neq(access(path, F_OK), 0, "the record file is consumed");
    kill(-stranger, SIGKILL);
    kill(-released, SIGKILL);
    for (int i = 0; i < 50 && (group_alive(stranger) || group_alive(released)); i++)
        eous_sleep_ms(20);
}

Test(orphans, records_of_a_live_eous_are_left_alone)
{
    pid_t g = spawn_group();
    char path[400];
    snprintf(path, sizeof path, "%s/.eous-guard-%d.log", tmpdir, (int)getppid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fprintf(f, "O %d %llu\nG %d %llu\n", (int)getppid(), wd_proc_start_time(getppid()), (int)g,
            wd_proc_start_time(g));
    fclose(f);
    cr_assert_eq(wd_guard_reap_leftovers(tmpdir), 0);
    cr_assert(group_alive(g));
    cr_assert_eq(access(path, F_OK), 0);
    kill(-g, SIGKILL);
    waitpid(g, NULL, 0);
}

Test(orphans, guardian_kills_recorded_group_when_its_parent_dies)
{
    /* a child process starts a guardian, records a group and is SIGKILLed */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        eous_err err;
        if (wd_guard_start(tmpdir, &err))
            _exit(9);
        pid_t g = spawn_group();
        wd_guard_track_group(g);
        int msg[2] = {(int)g, (int)wd_guard_pid()};
        if (write(fds[1], msg, sizeof msg) != sizeof msg)
            _exit(8);
        pause();
        _exit(0);
    }
    close(fds[1]);
    int msg[2] = {0, 0};
    cr_assert_eq(read(fds[0], msg, sizeof msg), (ssize_t)sizeof msg);
    snapshot s = {.n = 2};
    s.p[0].pid = msg[0];
    s.p[0].start = wd_proc_start_time(msg[0]);
    s.p[1].pid = msg[1];
    s.p[1].start = wd_proc_start_time(msg[1]);
    cr_assert(s.p[0].start && s.p[1].start, "group and guardian running");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    char names[256];
    cr_assert_eq(survivors_after(&s, 5, names, sizeof names), 0, "survivors:%s", names);
}

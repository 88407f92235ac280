/* webarena/site_reset.c — site locks and reset commands (see site_reset.h). */
#define _GNU_SOURCE
#include "webarena/site_reset.h"
#include "webarena/site_pool.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 32

static unsigned long fnv1a(const char *s)
{
    unsigned long h = 1469598103934665603UL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

/* The lock of the site's copy instance: its file is named by that copy's URL. */
static int open_lock(const char *site, int instance, eous_err *err)
{
    char url[2048] = "", path[512];
    wa_site_url(site, instance, url, sizeof url);
    const char *tmp = getenv("TMPDIR");
    char safe[64];
    size_t n = 0;
    for (const char *p = site; *p && n + 1 < sizeof safe; p++)
        safe[n++] = isalnum((unsigned char)*p) ? *p : '_';
    safe[n] = '\0';
    snprintf(path, sizeof path, "%s/eous-site-%s-%016lx.lock", tmp && *tmp ? tmp : "/tmp", safe, fnv1a(url));
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        eous_err_set(err, EOUS_E_INFRA, "site %s: cannot open the lock file %s: %s", site, path, strerror(errno));
    return fd;
}

static int lock_fd(int fd, int how)
{
    while (flock(fd, how) < 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

/* Runs cmd (split on blanks, no shell) and waits at most limit_s seconds. */
static eous_rc run_reset(const char *site, const char *cmd, int limit_s, eous_err *err)
{
    char *copy = strdup(cmd);
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    if (!copy)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok && argc < MAX_ARGS; tok = strtok_r(NULL, " \t", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    eous_rc rc = EOUS_OK;
    if (!argc) {
        rc = eous_err_set(err, EOUS_E_INVALID, "site %s: the reset command is empty", site);
        goto done;
    }
    pid_t pid = fork();
    if (pid < 0) {
        rc = eous_err_set(err, EOUS_E_INFRA, "site %s: cannot start '%.200s': %s", site, cmd, strerror(errno));
        goto done;
    }
    if (pid == 0) {
        setpgid(0, 0); /* its own group, so a timeout stops what it started too */
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
        }
        /* none of eous's descriptors: a reset that restarts a server would hold them for that server's life */
        closefrom(3);
        execvp(argv[0], argv);
        fprintf(stderr, "eous: site %s: cannot run %s: %s\n", site, argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    int status = 0;
    double deadline = eous_now_ms() + limit_s * 1000.0;
    pid_t w;
    while ((w = waitpid(pid, &status, WNOHANG)) == 0 && eous_now_ms() < deadline)
        eous_sleep_ms(20);
    if (w == 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        rc = eous_err_set(err, EOUS_E_INFRA, "site %s: reset command '%.200s' did not finish within %d s", site, cmd,
                          limit_s);
    } else if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
        rc = eous_err_set(err, EOUS_E_INFRA, "site %s: reset command '%.200s' failed (%s %d)", site, cmd,
                          w > 0 && WIFSIGNALED(status) ? "signal" : "exit",
                          w > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    }
done:
    free(copy);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int reset_timeout_s(void)
{
    const char *s = getenv("EOUS_SITE_RESET_TIMEOUT");
    int v = s ? atoi(s) : 0;
    return v > 0 ? v : WA_SITE_RESET_TIMEOUT_S;
}

/* 1 when site has a reset command in the environment. */
static int resettable(const char *site)
{
    char cmd[8];
    return wa_site_reset_command(site, 0, cmd, sizeof cmd);
}

static int names_site(const wa_task *t, const char *site)
{
    const cJSON *s;
    cJSON_ArrayForEach(s, t->sites)
        if (cJSON_IsString(s) && !strcmp(s->valuestring, site))
            return 1;
    return 0;
}

int wa_site_reset_waits_for(const wa_task *t, int instance, const wa_task *other, int other_instance)
{
    if (!t->require_reset || !other)
        return 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, t->sites)
        if (cJSON_IsString(s) && resettable(s->valuestring) && names_site(other, s->valuestring) &&
            wa_site_copy(s->valuestring, instance) == wa_site_copy(s->valuestring, other_instance))
            return 1;
    return 0;
}

eous_rc wa_site_enter(wa_site_hold *h, const wa_task *t, eous_err *err)
{
    wa_site_leave(h);
    const char *names[WA_SITE_MAX];
    int n = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, t->sites)
        if (cJSON_IsString(s) && n < WA_SITE_MAX && resettable(s->valuestring))
            names[n++] = s->valuestring;
    /* one order for every task, so two tasks on the same sites cannot deadlock */
    qsort(names, (size_t)n, sizeof *names, by_name);
    for (int i = 0; i < n; i++) {
        int fd = open_lock(names[i], t->instance, err);
        if (fd < 0)
            goto fail;
        h->fds[h->n++] = fd;
        if (lock_fd(fd, t->require_reset ? LOCK_EX : LOCK_SH) < 0) {
            eous_err_set(err, EOUS_E_INFRA, "site %s: cannot lock: %s", names[i], strerror(errno));
            goto fail;
        }
        if (!t->require_reset)
            continue;
        char cmd[4096];
        wa_site_reset_command(names[i], t->instance, cmd, sizeof cmd);
        eous_log(EOUS_LOG_INFO, "agent", "task %s: resetting site %s", t->id, names[i]);
        if (run_reset(names[i], cmd, reset_timeout_s(), err))
            goto fail;
        if (lock_fd(fd, LOCK_SH) < 0) {
            eous_err_set(err, EOUS_E_INFRA, "site %s: cannot lock: %s", names[i], strerror(errno));
            goto fail;
        }
    }
    return EOUS_OK;
fail:
    wa_site_leave(h);
    if (err)
        err->rc = err->rc == EOUS_E_INVALID ? EOUS_E_INVALID : EOUS_E_INFRA;
    return err ? err->rc : EOUS_E_INFRA;
}

void wa_site_leave(wa_site_hold *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->n; i++)
        close(h->fds[i]); /* closing the last fd of the open file drops the flock */
    h->n = 0;
}

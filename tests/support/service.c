/* tests/support/service.c — see service.h. */
#define _GNU_SOURCE
#include "support/service.h"
#include "support/grounds.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"

int ts_service_start(const char *const *argv, pid_t *pid, int *port)
{
    *pid = -1;
    *port = 0;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (child == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    char buf[128];
    size_t n = 0;
    double until = eous_now_ms() + 15000;
    while (n < sizeof buf - 1 && eous_now_ms() < until) {
        struct pollfd p = {fds[0], POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t r = read(fds[0], buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
        buf[n] = '\0';
        if (strchr(buf, '\n'))
            break;
    }
    close(fds[0]);
    buf[n] = '\0';
    if (sscanf(buf, "PORT %d", port) != 1) {
        fprintf(stderr, "%s: no port on its first line (got '%s')\n", argv[1] ? argv[1] : argv[0], buf);
        ts_service_stop(child);
        return -1;
    }
    *pid = child;
    return 0;
}

void ts_service_stop(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    for (int i = 0; i < 50; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        usleep(100 * 1000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

int ts_standin_start(const char *log_path, pid_t *pid, char *url, size_t url_size)
{
    const char *argv[] = {"node", TS_STANDIN, "--tasks",
                          TS_TASKS "/playground", log_path ? "--log" : NULL, log_path, NULL};
    int port = 0;
    if (ts_service_start(argv, pid, &port) != 0)
        return -1;
    snprintf(url, url_size, "http://127.0.0.1:%d", port);
    setenv("OPENAI_API_KEY", "standin-test-key", 1);
    unsetenv("OPENAI_BASE_URL");
    return 0;
}

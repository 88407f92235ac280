/* tests/support/chromium.c — see chromium.h. */
#include "support/chromium.h"

#include "core/util.h"
#include "support/proc.h"
#include "webdriver/wd.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Chromium writes its port to DevToolsActivePort once it listens: the port, or -1 when it died or
 * did not within 30 s. */
static int await_port(pid_t pid, const char *profile_dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/DevToolsActivePort", profile_dir);
    for (int waited = 0; waited < 30000; waited += 20) {
        int port = ts_file_int(path);
        if (port > 0)
            return port;
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return -1;
        eous_sleep_ms(20);
    }
    return -1;
}

int ts_chromium_launch(const char *profile_dir, pid_t *pid)
{
    *pid = 0;
    wd_session_opts o;
    wd_session_opts_init(&o);
    cJSON *args = wd_browser_args(&o, profile_dir);
    const char *const *sw = wd_attach_switches();
    size_t n_sw = 0;
    while (sw[n_sw])
        n_sw++;
    char **argv = calloc((size_t)cJSON_GetArraySize(args) + n_sw + 4, sizeof *argv);
    if (!argv) {
        cJSON_Delete(args);
        return -1;
    }
    int k = 0;
    argv[k++] = (char *)wd_chromium_path();
    for (cJSON *a = args->child; a; a = a->next)
        argv[k++] = a->valuestring;
    /* as chromedriver would launch it: the sessions attached to it see the same browser */
    for (size_t i = 0; i < n_sw; i++)
        argv[k++] = (char *)sw[i];
    argv[k++] = "--remote-debugging-port=0";
    argv[k++] = "about:blank";
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* the launcher gone, the browser goes too */
        if (getppid() != parent)
            _exit(127);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    free(argv);
    cJSON_Delete(args);
    if (child < 0)
        return -1;
    int port = await_port(child, profile_dir);
    if (port < 0) {
        ts_chromium_stop(child);
        return -1;
    }
    *pid = child;
    return port;
}

void ts_chromium_stop(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(-pid, SIGTERM);
    for (int w = 0; w < 100 && waitpid(pid, NULL, WNOHANG) != pid; w++)
        eous_sleep_ms(20);
    kill(-pid, SIGKILL); /* the renderers and helpers of its group */
    waitpid(pid, NULL, WNOHANG);
    for (int w = 0; w < 100 && kill(-pid, 0) == 0; w++)
        eous_sleep_ms(20);
}

int ts_chromium_hold(ts_chromium_held *h)
{
    h->pid = 0;
    snprintf(h->profile, sizeof h->profile, "/tmp/eous-test-browser-XXXXXX");
    if (!mkdtemp(h->profile)) {
        h->profile[0] = '\0';
        return -1;
    }
    return ts_chromium_launch(h->profile, &h->pid);
}

void ts_chromium_release(ts_chromium_held *h)
{
    ts_chromium_stop(h->pid);
    h->pid = 0;
    if (h->profile[0])
        eous_rmtree(h->profile);
    h->profile[0] = '\0';
}

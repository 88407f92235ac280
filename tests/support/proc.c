/* tests/support/proc.c — see proc.h. */
#include "support/proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ts_proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t r = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[r] = 0;
    /* the command name may hold spaces and parentheses: the fields start after the last ')' */
    char *cp = strrchr(buf, ')');
    char st;
    int pp, pg;
    if (!cp || sscanf(cp + 2, "%c %d %d", &st, &pp, &pg) != 3)
        return -1;
    if (state)
        *state = st;
    if (ppid)
        *ppid = pp;
    if (pgid)
        *pgid = pg;
    return 0;
}

int ts_process_dead(pid_t pid)
{
    char st;
    return ts_proc_stat(pid, &st, NULL, NULL) != 0 || st == 'Z';
}

int ts_proc_group_count(pid_t pgid)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char state;
        pid_t pg;
        if (ts_proc_stat((pid_t)atoi(e->d_name), &state, NULL, &pg) == 0 && pg == pgid && state != 'Z')
            n++;
    }
    if (d)
        closedir(d);
    return n;
}

int ts_file_int(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = 0;
        fclose(f);
    }
    return n;
}

int ts_pipe_closed_everywhere(int p[2], int wait_ms)
{
    close(p[1]);
    struct pollfd pf = {.fd = p[0], .events = POLLIN};
    poll(&pf, 1, wait_ms); /* POLLHUP once the last writer is gone */
    int closed = 0;
    char c;
    if (fcntl(p[0], F_SETFL, O_NONBLOCK) == 0)
        closed = read(p[0], &c, 1) == 0;
    close(p[0]);
    return closed;
}

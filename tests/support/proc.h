/* tests/support/proc.h — a process's state as /proc/PID/stat tells it, for
 * tests that kill browsers and drivers and must see them gone (no Criterion:
 * benchmarks link this library too). */
#ifndef EOUS_TS_PROC_H
#define EOUS_TS_PROC_H

#include <sys/types.h>

/* 0 with the state letter ('R', 'S', 'Z', …), parent and process group of
 * pid; -1 when there is no such process. */
int ts_proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgid);
/* Live (not zombie) processes whose process group is pgid. */
int ts_proc_group_count(pid_t pgid);
/* 1 when pid is gone or a zombie its parent has yet to reap. */
int ts_process_dead(pid_t pid);
/* For a test that something this process started holds none of its descriptors: closes the pipe p's
 * write end here and waits up to wait_ms for every other holder to let go; 1 when p's read end then
 * reads end-of-file (no process holds the write end), 0 when one still does.  Closes both ends. */
int ts_pipe_closed_everywhere(int p[2], int wait_ms);
/* The number a file begins with (a pidfile, Chromium's DevToolsActivePort); 0 when it is absent or holds none. */
int ts_file_int(const char *path);

#endif

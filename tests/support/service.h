/* tests/support/service.h — a helper process a test starts on loopback: a
 * node program that prints "PORT <n>" on its first stdout line once it
 * listens (the model mock, the stand-in model).  Stopped by its PID only.
 * No Criterion here: benchmarks link this library too. */
#ifndef EOUS_TS_SERVICE_H
#define EOUS_TS_SERVICE_H

#include <sys/types.h>

/* Spawns argv (argv[0] looked up in PATH; NULL-terminated) with stdout read
 * until "PORT <n>" (up to 15 s); stderr is inherited.  0 with *pid and *port,
 * or -1 (message on stderr; a started child is stopped). */
int ts_service_start(const char *const *argv, pid_t *pid, int *port);
/* SIGTERM to pid, then SIGKILL after 5 s; reaps it.  pid <= 0 is a no-op. */
void ts_service_stop(pid_t pid);

#endif

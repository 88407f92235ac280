/* tests/support/service.h — a helper process a test starts on loopback: a
 * node program that prints "PORT <n>" on its first stdout line once it
 * listens (the model mock, the stand-in model).  Stopped by its PID only.
 * No Criterion here: benchmarks link this library too. */
#ifndef EOUS_TS_SERVICE_H
#define EOUS_TS_SERVICE_H

#include <stddef.h>
#include <sys/types.h>

/* Spawns argv (argv[0] looked up in PATH; NULL-terminated) with stdout read
 * until "PORT <n>" (up to 15 s); stderr is inherited.  0 with *pid and *port,
 * or -1 (message on stderr; a started child is stopped). */
int ts_service_start(const char *const *argv, pid_t *pid, int *port);
/* The stand-in model (benchmarks/standin/standin.mjs) playing the Playground's tasks, its
 * requests logged to log_path when not NULL: *pid and its base URL ("http://127.0.0.1:PORT")
 * into url; OPENAI_API_KEY set to a test key and OPENAI_BASE_URL unset, as the tests that
 * pass --llm-base-url want.  0 or -1 as ts_service_start. */
int ts_standin_start(const char *log_path, pid_t *pid, char *url, size_t url_size);
/* SIGTERM to pid, then SIGKILL after 5 s; reaps it.  pid <= 0 is a no-op. */
void ts_service_stop(pid_t pid);

#endif

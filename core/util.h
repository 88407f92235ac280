/* core/util.h — small helpers: monotonic time, paths, strings, processes. */
#ifndef EOUS_CORE_UTIL_H
#define EOUS_CORE_UTIL_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"

/* Monotonic milliseconds (for durations, never for dates). */
double eous_now_ms(void);
void eous_sleep_ms(long ms);
/* Looks name up in PATH (or takes it as a path when it contains '/');
 * writes the full path into out.  Returns 1 when found and executable. */
int eous_which(const char *name, char *out, size_t out_size);
/* mkdir -p; mode for every created directory. */
eous_rc eous_mkdirs(const char *path, unsigned mode, eous_err *err);
/* root/REL into out (n bytes), REL made from fmt as printf makes it: every
 * path eous writes or reads under a directory it was given (--out, a task's
 * download directory) from names it was handed goes through here.  A REL that
 * would leave root (empty, absolute, a "." or ".." or empty part, a control
 * character) or a path past n bytes is EOUS_E_INVALID naming root and REL; out
 * is "" then. */
eous_rc eous_path_under(char *out, size_t n, const char *root, eous_err *err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* rm -rf of a directory tree we created (never follows symlinks). */
eous_rc eous_rmtree(const char *path);
/* Appends line plus '\n' to fd (opened O_APPEND) in one write and fsyncs it.
 * All or nothing: on a short or failed write (ENOSPC, EFBIG past a file-size
 * limit, EROFS) the file is cut back to its size before, so no torn line is
 * left, and EOUS_E_IO names `what` and the reason. */
eous_rc eous_append_line(int fd, const char *line, const char *what, eous_err *err);
/* A free TCP port on 127.0.0.1 (bind to port 0, read it back, close). */
int eous_free_port(void);
/* strdup that aborts never: NULL in, NULL out. */
char *eous_strdup(const char *s);
/* 1 when s starts with prefix. */
int eous_starts_with(const char *s, const char *prefix);
/* Base64: decode into a malloc'd buffer (caller frees). */
eous_rc eous_base64_decode(const char *in, unsigned char **out, size_t *out_len, eous_err *err);
/* Base64 (standard alphabet, padded) of p[0..n) as a string (caller frees); NULL out of memory. */
char *eous_base64_encode(const unsigned char *p, size_t n);
/* FNV-1a 64-bit hash as 16 hex chars into out[17]. */
void eous_hash_hex(const void *data, size_t len, char out[17]);

/* Interruption flag set from signal handlers (SIGINT/SIGTERM) and polled by
 * long waits (HTTP transfers, settle loops, the runner) so they stop early. */
void eous_interrupt_set(void);
/* The same, remembering which signal asked (async-signal-safe). */
void eous_interrupt_from_signal(int sig);
int eous_interrupted(void);
/* The signal that interrupted us, 0 when none did (or eous_interrupt_set). */
int eous_interrupt_signal(void);
void eous_interrupt_reset(void);

#endif

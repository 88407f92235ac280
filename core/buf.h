/* core/buf.h — a bounded, growable byte buffer (HTTP bodies, AX trees, prompts).
 *
 * The buffer owns `data`; eous_buf_free releases it, eous_buf_steal hands it to
 * the caller (who frees it with free()).  `data` is always NUL-terminated when
 * non-NULL.  Appending past `max` fails with EOUS_E_LIMIT and leaves the buffer
 * unchanged: nothing is silently dropped.  The first failure is sticky: later
 * appends fail too (so no text is built around a hole), and a caller that
 * appends many pieces unchecked tests `failed` once at the end. */
#ifndef EOUS_CORE_BUF_H
#define EOUS_CORE_BUF_H

#include <stddef.h>

#include "core/err.h"

#define EOUS_BUF_DEFAULT_MAX ((size_t)256 * 1024 * 1024)

typedef struct eous_buf {
    char *data;
    size_t len;
    size_t cap;
    size_t max;     /* hard cap on len; 0 at init means EOUS_BUF_DEFAULT_MAX */
    eous_rc failed; /* the first append's failure (EOUS_OK while none); cleared by reset */
} eous_buf;

void eous_buf_init(eous_buf *b, size_t max);
eous_rc eous_buf_append(eous_buf *b, const void *p, size_t n, eous_err *err);
eous_rc eous_buf_puts(eous_buf *b, const char *s, eous_err *err);
eous_rc eous_buf_putc(eous_buf *b, char c, eous_err *err);
eous_rc eous_buf_printf(eous_buf *b, eous_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends s with JSON string escaping (no surrounding quotes). */
eous_rc eous_buf_put_json_escaped(eous_buf *b, const char *s, eous_err *err);
/* Empties the buffer, keeping its memory, and forgets a failure. */
void eous_buf_reset(eous_buf *b);
/* Returns the data (never NULL: an empty string when nothing was appended) and
 * re-initialises the buffer; the caller frees the result. */
char *eous_buf_steal(eous_buf *b);
void eous_buf_free(eous_buf *b);

#endif

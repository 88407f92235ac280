/* core/arena.h — a per-step arena for transient data (prompt text, views).
 *
 * Allocations live until eous_arena_reset or eous_arena_free; nothing from an
 * arena is freed individually.  Built with EOUS_ARENA_MALLOC defined (the
 * sanitizer build does this) every allocation is its own malloc so ASan sees
 * overflows and use-after-reset. */
#ifndef EOUS_CORE_ARENA_H
#define EOUS_CORE_ARENA_H

#include <stddef.h>

typedef struct eous_arena eous_arena;

/* block_size 0 picks 64 KiB.  Returns NULL when out of memory. */
eous_arena *eous_arena_new(size_t block_size);
/* Zeroed memory aligned for any type; NULL when out of memory. */
void *eous_arena_alloc(eous_arena *a, size_t n);
char *eous_arena_strdup(eous_arena *a, const char *s);
char *eous_arena_strndup(eous_arena *a, const char *s, size_t n);
char *eous_arena_printf(eous_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Bytes handed out since the last reset. */
size_t eous_arena_used(const eous_arena *a);
void eous_arena_reset(eous_arena *a);
void eous_arena_free(eous_arena *a);

#endif

/* core/arena.c — see arena.h. */
#include "core/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct arena_block {
    struct arena_block *next;
    size_t size, used;
    max_align_t data[]; /* aligned storage */
} arena_block;

struct eous_arena {
    arena_block *head;
    size_t block_size;
    size_t used_total;
};

eous_arena *eous_arena_new(size_t block_size)
{
    eous_arena *a = calloc(1, sizeof *a);
    if (a)
        a->block_size = block_size ? block_size : 64 * 1024;
    return a;
}

#define ALIGN_UP(n) (((n) + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1))

void *eous_arena_alloc(eous_arena *a, size_t n)
{
    if (n == 0)
        n = 1;
#ifdef EOUS_ARENA_MALLOC
    arena_block *b = calloc(1, sizeof *b + n);
    if (!b)
        return NULL;
    b->size = b->used = n;
    b->next = a->head;
    a->head = b;
    a->used_total += n;
    return b->data;
#else
    size_t need = ALIGN_UP(n);
    if (need < n)
        return NULL;
    arena_block *b = a->head;
    if (!b || b->size - b->used < need) {
        size_t size = need > a->block_size ? need : a->block_size;
        b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    a->used_total += need;
    memset(p, 0, n);
    return p;
#endif
}

char *eous_arena_strndup(eous_arena *a, const char *s, size_t n)
{
    char *p = eous_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *eous_arena_strdup(eous_arena *a, const char *s)
{
    return eous_arena_strndup(a, s ? s : "", s ? strlen(s) : 0);
}

char *eous_arena_printf(eous_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = eous_arena_alloc(a, (size_t)n + 1);
    if (!p)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

size_t eous_arena_used(const eous_arena *a)
{
    return a->used_total;
}

void eous_arena_reset(eous_arena *a)
{
    if (!a)
        return;
    /* Keep the newest block (usually the biggest working set) to avoid churn. */
    arena_block *keep = a->head, *b = keep ? keep->next : NULL;
#ifdef EOUS_ARENA_MALLOC
    b = a->head;
    keep = NULL;
#endif
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = keep;
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
    a->used_total = 0;
}

void eous_arena_free(eous_arena *a)
{
    if (!a)
        return;
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}

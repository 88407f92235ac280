/* perception/strmap.c — a string → index map (open addressing, FNV-1a):
 * AX node ids to node indices while a tree is parsed. */
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ULL;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

int perc_strmap_init(perc_strmap *m, size_t n)
{
    m->cap = 16;
    while (m->cap < n * 2)
        m->cap <<= 1;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    if (m->keys && m->vals)
        return 0;
    perc_strmap_free(m);
    return -1;
}

static size_t slot_of(const perc_strmap *m, const char *k)
{
    size_t i = hash_str(k) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], k))
        i = (i + 1) & (m->cap - 1);
    return i;
}

int perc_strmap_put(perc_strmap *m, const char *k, int v)
{
    size_t i = slot_of(m, k);
    if (m->keys[i])
        return m->vals[i];
    m->keys[i] = k;
    m->vals[i] = v;
    return -1;
}

int perc_strmap_get(const perc_strmap *m, const char *k)
{
    if (!m->cap)
        return -1;
    size_t i = slot_of(m, k);
    return m->keys[i] ? m->vals[i] : -1;
}

void perc_strmap_free(perc_strmap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = 0;
}

/* core/tokenize.c — byte-level BPE (tiktoken's algorithm) with the o200k_base and cl100k_base
 * split patterns matched by hand.
 *
 * Why by hand and not PCRE2: the ids must equal the npm tokenizer's, whose patterns run on
 * JavaScript's regex engine; its \s (which has U+FEFF and lacks U+0085) and its Unicode
 * version are not PCRE2's.  The character classes are therefore taken from Node's own engine
 * at build time (gen/core/tok_unicode.h), and each pattern's alternation, including the
 * backtracking it implies, is spelled out below; a hand-written scanner is also several times
 * faster than a backtracking regex on this input. */
#include "core/tokenize.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/log.h"
#include "core/tok_unicode.h"

#define TOK_NONE UINT32_MAX
#define TOK_MAX_RANKS (1u << 24)

typedef enum tok_split { SPLIT_O200K, SPLIT_CL100K } tok_split;

/* A table slot holds a token's first 8 bytes, so most lookups touch one cache line and not the
 * rank file; only longer tokens compare their tail in the blob. */
typedef struct tok_slot {
    uint64_t head;  /* first min(len, 8) bytes, zero-padded */
    uint32_t rank1; /* rank + 1; 0 = empty */
    uint32_t len;
} tok_slot;

struct eous_tok {
    char name[32];
    uint64_t serial; /* distinct for every load: the per-thread caches' key */
    tok_split split;
    unsigned char *data;     /* the whole file */
    size_t data_len;
    const uint32_t *offsets; /* into data: n_ranks + 1 entries */
    const unsigned char *blob;
    uint32_t n_ranks;
    tok_slot *slots; /* open addressing, linear probing */
    size_t mask;
    uint32_t max_len;    /* the longest token: longer byte strings are not looked up */
    uint32_t *pair_rank; /* 65536: rank of every two-byte string (TOK_NONE if none), the merge's start */
};

/* ---- rank lookup ------------------------------------------------------------ */

static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h ^= w; /* murmur3's finaliser: every input bit reaches the low bits the table uses */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

static inline uint64_t head_of(const unsigned char *p, size_t n)
{
    uint64_t w = 0;
    memcpy(&w, p, n < 8 ? n : 8);
    return w;
}

static uint32_t rank_of(const eous_tok *t, const unsigned char *p, size_t n)
{
    if (n == 2)
        return t->pair_rank[p[0] << 8 | p[1]];
    if (n > t->max_len)
        return TOK_NONE;
    uint64_t head = head_of(p, n);
    for (size_t s = hash_bytes(p, n) & t->mask;; s = (s + 1) & t->mask) {
        const tok_slot *v = &t->slots[s];
        if (!v->rank1)
            return TOK_NONE;
        if (v->head == head && v->len == n &&
            (n <= 8 || !memcmp(t->blob + t->offsets[v->rank1 - 1] + 8, p + 8, n - 8)))
            return v->rank1 - 1;
    }
}

/* ---- loading ------------------------------------------------------------------ */

static eous_rc read_file(const char *path, unsigned char **out, size_t *len, eous_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return eous_err_set(err, EOUS_E_IO, "%s: cannot open tokenizer data", path);
    eous_rc rc = EOUS_OK;
    unsigned char *buf = NULL;
    long size;
    if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        rc = eous_err_set(err, EOUS_E_IO, "%s: cannot read tokenizer data", path);
        goto done;
    }
    if (!(buf = malloc((size_t)size + 1))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        rc = eous_err_set(err, EOUS_E_IO, "%s: short read of tokenizer data", path);
        goto done;
    }
    *out = buf;
    *len = (size_t)size;
    buf = NULL;
done:
    free(buf);
    fclose(f);
    return rc;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Checks the header and offsets (see scripts/gen-tokenizer-data.mjs) and builds the table. */
static eous_rc index_ranks(eous_tok *t, const char *path, eous_err *err)
{
    const unsigned char *d = t->data;
    if (t->data_len < 16 || memcmp(d, "EOUSBPE1", 8))
        return eous_err_set(err, EOUS_E_PARSE, "%s: not an eous BPE rank file (expected magic EOUSBPE1)", path);
    uint32_t n = le32(d + 8), blob_len = le32(d + 12);
    if (n == 0 || n > TOK_MAX_RANKS || t->data_len != 16 + 4 * ((size_t)n + 1) + blob_len)
        return eous_err_set(err, EOUS_E_PARSE, "%s: rank count %u and blob length %u do not match the file size",
                            path, n, blob_len);
    /* offsets are read in place: make them aligned, native-endian uint32 */
    uint32_t *offs = malloc(4 * ((size_t)n + 1));
    if (!offs)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (uint32_t r = 0; r <= n; r++) {
        offs[r] = le32(d + 16 + 4 * (size_t)r);
        if ((r && offs[r] < offs[r - 1]) || offs[r] > blob_len) {
            free(offs);
            return eous_err_set(err, EOUS_E_PARSE, "%s: offset of rank %u out of order", path, r);
        }
    }
    t->offsets = offs;
    t->blob = d + 16 + 4 * ((size_t)n + 1);
    t->n_ranks = n;
    size_t cap = 1;
    while (cap < 2 * (size_t)n)
        cap <<= 1;
    if (!(t->slots = calloc(cap, sizeof *t->slots)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    t->mask = cap - 1;
    for (uint32_t r = 0; r < n; r++) {
        size_t len = offs[r + 1] - offs[r];
        if (!len)
            continue; /* an unused rank */
        size_t s = hash_bytes(t->blob + offs[r], len) & t->mask;
        while (t->slots[s].rank1)
            s = (s + 1) & t->mask;
        t->slots[s] = (tok_slot){head_of(t->blob + offs[r], len), r + 1, (uint32_t)len};
        if (len > t->max_len)
            t->max_len = (uint32_t)len;
    }
    if (!(t->pair_rank = malloc(65536 * sizeof *t->pair_rank)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (unsigned pair = 0; pair < 65536; pair++) {
        unsigned char two[2] = {(unsigned char)(pair >> 8), (unsigned char)pair};
        size_t s = hash_bytes(two, 2) & t->mask;
        uint32_t r = TOK_NONE;
        for (; t->slots[s].rank1; s = (s + 1) & t->mask)
            if (t->slots[s].len == 2 && t->slots[s].head == head_of(two, 2)) {
                r = t->slots[s].rank1 - 1;
                break;
            }
        t->pair_rank[pair] = r;
    }
    for (unsigned b = 0; b < 256; b++) {
        unsigned char byte = (unsigned char)b;
        if (rank_of(t, &byte, 1) == TOK_NONE)
            return eous_err_set(err, EOUS_E_PARSE, "%s: byte 0x%02x has no rank (byte-level BPE needs all 256)",
                                path, b);
    }
    return EOUS_OK;
}

static int find_data(const char *name, char *path, size_t size)
{
    const char *dirs[] = {getenv("EOUS_TOKENIZER_DIR"), EOUS_TOKDATA_BUILD_DIR, EOUS_TOKDATA_INSTALL_DIR};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        snprintf(path, size, "%s/%s.eousbpe", dirs[i], name);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return 1;
        }
        if (i == 0)
            return 0; /* an explicit directory is the only one looked at */
    }
    return 0;
}

eous_rc eous_tok_load(const char *name, eous_tok **out, eous_err *err)
{
    *out = NULL;
    tok_split split;
    if (name && !strcmp(name, "o200k_base"))
        split = SPLIT_O200K;
    else if (name && !strcmp(name, "cl100k_base"))
        split = SPLIT_CL100K;
    else
        return eous_err_set(err, EOUS_E_INVALID, "tokenizer '%s': expected o200k_base or cl100k_base",
                            name ? name : "");
    char path[4096];
    if (!find_data(name, path, sizeof path)) {
        const char *env = getenv("EOUS_TOKENIZER_DIR");
        return eous_err_set(err, EOUS_E_IO, "%s.eousbpe: not found in %s (build eous, install it, or set "
                            "EOUS_TOKENIZER_DIR)", name, env && *env ? env : EOUS_TOKDATA_BUILD_DIR " nor "
                            EOUS_TOKDATA_INSTALL_DIR);
    }
    eous_tok *t = calloc(1, sizeof *t);
    if (!t)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    snprintf(t->name, sizeof t->name, "%s", name);
    static _Atomic uint64_t loads;
    t->serial = ++loads;
    t->split = split;
    eous_rc rc = read_file(path, &t->data, &t->data_len, err);
    if (!rc)
        rc = index_ranks(t, path, err);
    if (rc) {
        eous_tok_free(t);
        return rc;
    }
    *out = t;
    return EOUS_OK;
}

void eous_tok_free(eous_tok *tok)
{
    if (!tok)
        return;
    free((void *)tok->offsets);
    free(tok->slots);
    free(tok->pair_rank);
    free(tok->data);
    free(tok);
}

const char *eous_tok_name(const eous_tok *tok)
{
    return tok->name;
}

size_t eous_tok_memory(const eous_tok *tok)
{
    return tok->data_len + 4 * ((size_t)tok->n_ranks + 1) + (tok->mask + 1) * sizeof *tok->slots +
           65536 * sizeof *tok->pair_rank;
}

/* ---- where tokens go ----------------------------------------------------------- */

typedef struct tok_sink {
    size_t count;
    uint32_t *ids; /* encode: grown as needed; NULL when only counting */
    size_t cap;
    int want_ids;
    int oom;
    size_t max_tokens; /* cut: stop once this many tokens are out; 0 = never */
    size_t cut_end;    /* cut: byte end of the last token that fitted */
    int stop;
} tok_sink;

static void sink_put(tok_sink *k, uint32_t rank, size_t end)
{
    if (k->max_tokens && k->count == k->max_tokens) {
        k->stop = 1;
        return;
    }
    if (k->want_ids) {
        if (k->count == k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 1024;
            uint32_t *ids = realloc(k->ids, cap * sizeof *ids);
            if (!ids) {
                k->oom = k->stop = 1;
                return;
            }
            k->ids = ids;
            k->cap = cap;
        }
        k->ids[k->count] = rank;
    }
    k->count++;
    k->cut_end = end;
}

/* ---- byte pair merge ------------------------------------------------------------ */

#define BPE_SHORT 64 /* longer pieces merge through a heap instead of rescanning */

/* tiktoken's merge for a short piece: repeatedly join the adjacent pair of lowest rank
 * (the leftmost among equals), rescanning the few ranks each time. */
static size_t merge_short(const eous_tok *t, const unsigned char *p, size_t n, uint32_t *ids, uint32_t *ends)
{
    uint32_t start[BPE_SHORT + 1], rk[BPE_SHORT + 1];
    size_t m = n + 1;
    for (size_t i = 0; i <= n; i++) {
        start[i] = (uint32_t)i;
        rk[i] = i + 2 <= n ? rank_of(t, p + i, 2) : TOK_NONE;
    }
    while (m > 1) {
        uint32_t best = TOK_NONE;
        size_t at = 0;
        for (size_t i = 0; i + 1 < m; i++)
            if (rk[i] < best) {
                best = rk[i];
                at = i;
            }
        if (best == TOK_NONE)
            break;
        /* the pair at `at` becomes one part: its new pair spans up to the part after next */
        rk[at] = at + 3 < m ? rank_of(t, p + start[at], start[at + 3] - start[at]) : TOK_NONE;
        if (at > 0)
            rk[at - 1] = at + 2 < m ? rank_of(t, p + start[at - 1], start[at + 2] - start[at - 1]) : TOK_NONE;
        memmove(start + at + 1, start + at + 2, (m - at - 2) * sizeof *start);
        memmove(rk + at + 1, rk + at + 2, (m - at - 2) * sizeof *rk);
        m--;
    }
    for (size_t i = 0; i + 1 < m; i++) {
        ids[i] = rank_of(t, p + start[i], start[i + 1] - start[i]);
        ends[i] = start[i + 1];
    }
    return m - 1;
}

/* ---- the same merge for long pieces: linked parts + a min-heap of (rank, position) --- */

typedef struct bpe_heap {
    uint64_t *v;
    size_t n;
} bpe_heap;

static void heap_push(bpe_heap *h, uint64_t x)
{
    size_t i = h->n++;
    while (i && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static uint64_t heap_pop(bpe_heap *h)
{
    uint64_t top = h->v[0], x = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c])
            c++;
        if (h->v[c] >= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    h->v[i] = x;
    return top;
}

/* Rank of the pair starting at byte i (part i joined with the part after it), TOK_NONE if
 * there is no such pair or it is not a token.  next[i] == n marks the last part. */
static uint32_t pair_rank(const eous_tok *t, const unsigned char *p, size_t n, const uint32_t *next, size_t i)
{
    if (next[i] >= n)
        return TOK_NONE;
    return rank_of(t, p + i, next[next[i]] - i);
}

/* Returns the number of tokens written to ids/ends; 0 when out of memory. */
static size_t merge_long(const eous_tok *t, const unsigned char *p, size_t n, uint32_t *ids, uint32_t *ends)
{
    size_t out = 0;
    /* parts are named by their first byte; next/prev link them, rk is each part's pair rank */
    uint32_t *next = malloc((n + 1) * sizeof *next), *prev = malloc((n + 1) * sizeof *prev);
    uint32_t *rk = malloc((n + 1) * sizeof *rk);
    bpe_heap h = {malloc(3 * n * sizeof *h.v), 0};
    if (!next || !prev || !rk || !h.v)
        goto done;
    for (size_t i = 0; i <= n; i++) {
        next[i] = (uint32_t)(i + 1);
        prev[i] = (uint32_t)(i ? i - 1 : 0);
    }
    next[n] = (uint32_t)n; /* the end sentinel points at itself */
    for (size_t i = 0; i < n; i++) {
        rk[i] = pair_rank(t, p, n, next, i);
        if (rk[i] != TOK_NONE)
            heap_push(&h, (uint64_t)rk[i] << 32 | i);
    }
    while (h.n) {
        uint64_t top = heap_pop(&h);
        uint32_t r = (uint32_t)(top >> 32), i = (uint32_t)top;
        if (rk[i] != r)
            continue; /* stale: the part was merged away or its pair changed */
        uint32_t gone = next[i];
        rk[gone] = TOK_NONE;
        next[i] = next[gone];
        if (next[gone] < n)
            prev[next[gone]] = i;
        if ((rk[i] = pair_rank(t, p, n, next, i)) != TOK_NONE)
            heap_push(&h, (uint64_t)rk[i] << 32 | i);
        if (i > 0 && (rk[prev[i]] = pair_rank(t, p, n, next, prev[i])) != TOK_NONE)
            heap_push(&h, (uint64_t)rk[prev[i]] << 32 | prev[i]);
    }
    for (size_t i = 0; i < n; i = next[i], out++) {
        ids[out] = rank_of(t, p + i, next[i] - i);
        ends[out] = next[i];
    }
done:
    free(next);
    free(prev);
    free(rk);
    free(h.v);
    return out;
}

/* ---- a per-thread cache of merged pieces --------------------------------------------
 * Merging is the costly part and text repeats its pieces (an accessibility tree says
 * "button" and "StaticText" hundreds of times), so each thread keeps the last merge of
 * each of CACHE_SLOTS piece hashes.  Thread-local because a loaded tokenizer is shared
 * read-only across threads; keyed by the tokenizer's load serial so a tokenizer loaded at a
 * freed one's address never sees its entries. */

#define CACHE_SLOTS 16384
#define CACHE_MAX_PIECE 1024          /* longer pieces are not kept */
#define CACHE_BUDGET (4u * 1024 * 1024) /* bytes of entries per thread */

typedef struct cache_entry {
    uint64_t hash;
    uint32_t len, n;
    uint32_t data[]; /* ids[n], ends[n], then the piece's bytes */
} cache_entry;

typedef struct tok_cache {
    uint64_t serial;
    size_t bytes;
    cache_entry *slot[CACHE_SLOTS];
} tok_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static int cache_ok;

static void cache_clear(tok_cache *c)
{
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        free(c->slot[i]);
        c->slot[i] = NULL;
    }
    c->bytes = 0;
}

static void cache_destroy(void *p)
{
    if (p)
        cache_clear(p);
    free(p);
}

static void cache_init(void)
{
    cache_ok = !pthread_key_create(&cache_key, cache_destroy);
}

/* This thread's cache for t, NULL when there is none (it is only an accelerator). */
static tok_cache *cache_get(const eous_tok *t)
{
    pthread_once(&cache_once, cache_init);
    if (!cache_ok)
        return NULL;
    tok_cache *c = pthread_getspecific(cache_key);
    if (!c) {
        if (!(c = calloc(1, sizeof *c)) || pthread_setspecific(cache_key, c)) {
            free(c);
            return NULL;
        }
    }
    if (c->serial != t->serial) {
        cache_clear(c);
        c->serial = t->serial;
    }
    return c;
}

static const cache_entry *cache_find(const tok_cache *c, uint64_t h, const unsigned char *p, size_t n)
{
    const cache_entry *e = c->slot[h % CACHE_SLOTS];
    if (e && e->hash == h && e->len == n && !memcmp(e->data + 2 * e->n, p, n))
        return e;
    return NULL;
}

static void cache_put(tok_cache *c, uint64_t h, const unsigned char *p, size_t n, const uint32_t *ids,
                      const uint32_t *ends, size_t m)
{
    size_t size = sizeof(cache_entry) + 8 * m + n;
    cache_entry **slot = &c->slot[h % CACHE_SLOTS];
    size_t freed = *slot ? sizeof(cache_entry) + 8 * (*slot)->n + (*slot)->len : 0;
    if (n > CACHE_MAX_PIECE || c->bytes - freed + size > CACHE_BUDGET)
        return;
    cache_entry *e = malloc(size);
    if (!e)
        return;
    e->hash = h;
    e->len = (uint32_t)n;
    e->n = (uint32_t)m;
    memcpy(e->data, ids, 4 * m);
    memcpy(e->data + m, ends, 4 * m);
    memcpy(e->data + 2 * m, p, n);
    free(*slot);
    *slot = e;
    c->bytes = c->bytes - freed + size;
}

static void emit(tok_sink *k, const uint32_t *ids, const uint32_t *ends, size_t m, size_t base)
{
    for (size_t i = 0; i < m && !k->stop; i++)
        sink_put(k, ids[i], base + ends[i]);
}

/* The tokens of one piece p[0..n), which starts at byte base of the text. */
static void encode_piece(const eous_tok *t, tok_cache *c, const unsigned char *p, size_t n, size_t base,
                         tok_sink *k)
{
    uint32_t whole = rank_of(t, p, n);
    if (whole != TOK_NONE) {
        sink_put(k, whole, base + n);
        return;
    }
    uint64_t h = hash_bytes(p, n);
    const cache_entry *e = c ? cache_find(c, h, p, n) : NULL;
    if (e) {
        emit(k, e->data, e->data + e->n, e->n, base);
        return;
    }
    uint32_t ids_short[BPE_SHORT], ends_short[BPE_SHORT];
    uint32_t *ids = ids_short, *ends = ends_short;
    size_t m;
    if (n <= BPE_SHORT) {
        m = merge_short(t, p, n, ids, ends);
    } else {
        ids = malloc(n * sizeof *ids);
        ends = malloc(n * sizeof *ends);
        m = ids && ends ? merge_long(t, p, n, ids, ends) : 0;
        if (!m)
            k->oom = k->stop = 1;
    }
    emit(k, ids, ends, m, base);
    if (c && m)
        cache_put(c, h, p, n, ids, ends, m);
    if (ids != ids_short) {
        free(ids);
        free(ends);
    }
}

/* ---- characters ------------------------------------------------------------------ */

enum { C_OTHER = 0, C_WS = TOK_WS_CLASS, C_N = TOK_N_CLASS, C_LU = TOK_LU_CLASS, C_LL = TOK_LL_CLASS,
       C_LT = TOK_LT_CLASS, C_LM = TOK_LM_CLASS, C_LO = TOK_LO_CLASS, C_M = TOK_M_CLASS };

typedef struct tok_text {
    const unsigned char *s;
    size_t len;
} tok_text;

/* Class of the (valid UTF-8) character at i; *next = where the following one starts. */
static inline int cls_at(const tok_text *x, size_t i, size_t *next)
{
    const unsigned char *p = x->s + i;
    uint32_t cp;
    if (p[0] < 0x80) {
        *next = i + 1;
        return TOK_STAGE2[p[0]];
    } else if (p[0] < 0xE0) {
        cp = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
        *next = i + 2;
    } else if (p[0] < 0xF0) {
        cp = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
        *next = i + 3;
    } else {
        cp = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 | (uint32_t)(p[2] & 0x3F) << 6 |
             (p[3] & 0x3F);
        *next = i + 4;
    }
    return TOK_STAGE2[(size_t)TOK_STAGE1[cp / TOK_BLOCK] * TOK_BLOCK + cp % TOK_BLOCK];
}

static inline int is_letter(int c)
{
    return c >= C_LU && c <= C_LO;
}
/* [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] */
static inline int is_upperish(int c)
{
    return c == C_LU || c == C_LT || c == C_LM || c == C_LO || c == C_M;
}
/* [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
static inline int is_lowerish(int c)
{
    return c == C_LL || c == C_LM || c == C_LO || c == C_M;
}
/* [^\r\n\p{L}\p{N}] for the character at i of class c */
static inline int is_prefix(const tok_text *x, size_t i, int c)
{
    return !is_letter(c) && c != C_N && x->s[i] != '\r' && x->s[i] != '\n';
}
/* [^\s\p{L}\p{N}] */
static inline int is_punct(int c)
{
    return c == C_OTHER || c == C_M;
}

/* (?:'s|'d|'m|'t|'ll|'ve|'re), ASCII case-insensitive, at i: where it ends (i if absent). */
static size_t contraction(const tok_text *x, size_t i)
{
    if (i + 1 >= x->len || x->s[i] != '\'')
        return i;
    unsigned char a = x->s[i + 1] | 0x20, b = i + 2 < x->len ? x->s[i + 2] | 0x20 : 0;
    if (a == 's' || a == 'd' || a == 'm' || a == 't')
        return i + 2;
    if ((a == 'l' && b == 'l') || (a == 'v' && b == 'e') || (a == 'r' && b == 'e'))
        return i + 3;
    return i;
}

/* Where the run of characters satisfying pred from i ends. */
static size_t run_end(const tok_text *x, size_t i, int (*pred)(int))
{
    size_t nx;
    while (i < x->len && pred(cls_at(x, i, &nx)))
        i = nx;
    return i;
}

/* A whitespace run from i (i is whitespace): its end, the start of its last character, and
 * the position of its last \r or \n (SIZE_MAX when none). */
typedef struct ws_run {
    size_t end, last, last_nl;
} ws_run;

static ws_run scan_ws(const tok_text *x, size_t i)
{
    ws_run w = {i, i, SIZE_MAX};
    size_t nx;
    while (w.end < x->len && cls_at(x, w.end, &nx) == C_WS) {
        if (x->s[w.end] == '\r' || x->s[w.end] == '\n')
            w.last_nl = w.end;
        w.last = w.end;
        w.end = nx;
    }
    return w;
}

/* ` ?[^\s\p{L}\p{N}]+` followed by any run of bytes in `tail`; 0 when it does not match at i. */
static size_t punct_piece(const tok_text *x, size_t i, int c0, size_t n1, const char *tail)
{
    size_t q = i, nx;
    if (x->s[i] == ' ' && n1 < x->len && is_punct(cls_at(x, n1, &nx)))
        q = n1;
    else if (!is_punct(c0))
        return 0;
    q = run_end(x, q, is_punct);
    while (q < x->len && x->s[q] && strchr(tail, x->s[q]))
        q++;
    return q;
}

/* ---- o200k_base ------------------------------------------------------------------
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?
 *  |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|...)?
 *  |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+                           */

/* U*W+C? from p.  U* is greedy, so W+ starts at the last position it can: the character
 * after the U run when that is Ll, else the last U character that is also W (Lm, Lo, M). */
static size_t o200k_lower_word(const tok_text *x, size_t p)
{
    size_t q = p, nx, last_w = SIZE_MAX;
    int c;
    while (q < x->len && is_upperish(c = cls_at(x, q, &nx))) {
        if (is_lowerish(c))
            last_w = q;
        q = nx;
    }
    size_t w;
    if (q < x->len && cls_at(x, q, &nx) == C_LL)
        w = q;
    else if (last_w != SIZE_MAX)
        w = last_w;
    else
        return 0;
    return contraction(x, run_end(x, w, is_lowerish));
}

/* U+W*C? from p. */
static size_t o200k_upper_word(const tok_text *x, size_t p)
{
    size_t q = run_end(x, p, is_upperish);
    if (q == p)
        return 0;
    return contraction(x, run_end(x, q, is_lowerish));
}

static size_t o200k_next(const tok_text *x, size_t i)
{
    size_t n1, e;
    int c0 = cls_at(x, i, &n1);
    int pre = is_prefix(x, i, c0) && n1 < x->len;
    if ((pre && (e = o200k_lower_word(x, n1))) || (e = o200k_lower_word(x, i)) ||
        (pre && (e = o200k_upper_word(x, n1))) || (e = o200k_upper_word(x, i)))
        return e;
    if (c0 == C_N) {
        size_t q = n1, nx;
        for (int k = 1; k < 3 && q < x->len && cls_at(x, q, &nx) == C_N; k++)
            q = nx;
        return q;
    }
    if ((e = punct_piece(x, i, c0, n1, "\r\n/")))
        return e;
    if (c0 != C_WS)
        return n1; /* unreachable: every character is in one of the classes above */
    ws_run w = scan_ws(x, i);
    if (w.last_nl != SIZE_MAX)
        return w.last_nl + 1; /* \s*[\r\n]+ backs off to the last newline */
    if (w.end == x->len || w.last == i)
        return w.end; /* \s+(?!\S) at the end, or \s+ */
    return w.last;    /* \s+(?!\S): leave the last space to the word after it */
}

/* ---- cl100k_base -----------------------------------------------------------------
 *   '(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
 *  | ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s                                    */

static size_t cl100k_next(const tok_text *x, size_t i)
{
    size_t n1, nx, e;
    if ((e = contraction(x, i)) != i)
        return e;
    int c0 = cls_at(x, i, &n1);
    if (is_prefix(x, i, c0) && n1 < x->len && is_letter(cls_at(x, n1, &nx)))
        return run_end(x, n1, is_letter);
    if (is_letter(c0))
        return run_end(x, n1, is_letter);
    if (c0 == C_N) {
        size_t q = n1;
        for (int k = 1; k < 3 && q < x->len && cls_at(x, q, &nx) == C_N; k++)
            q = nx;
        return q;
    }
    if ((e = punct_piece(x, i, c0, n1, "\r\n")))
        return e;
    if (c0 != C_WS)
        return n1; /* unreachable, as for o200k */
    ws_run w = scan_ws(x, i);
    if (w.end == x->len)
        return w.end; /* \s+$ */
    if (w.last_nl != SIZE_MAX)
        return w.last_nl + 1; /* \s*[\r\n] */
    if (w.last != i)
        return w.last; /* \s+(?!\S) */
    return n1;         /* \s */
}

/* ---- driving ------------------------------------------------------------------------ */

/* Same rule as eous_utf8_scrub (RFC 3629), over a length instead of a NUL. */
static size_t utf8_valid_len(const unsigned char *p, size_t avail)
{
    unsigned char b = p[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (b < 0x80)
        return 1;
    if (b >= 0xC2 && b <= 0xDF)
        n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        lo = b == 0xE0 ? 0xA0 : 0x80;
        hi = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF;
    } else
        return 0;
    if (avail < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* NULL when text is valid UTF-8; else a scrubbed copy (caller frees); *oom on failure. */
static unsigned char *scrubbed_copy(const char *text, size_t len, int *oom)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, n;
    while (i < len && (n = utf8_valid_len(s + i, len - i)))
        i += n;
    if (i == len)
        return NULL;
    unsigned char *c = malloc(len + 1);
    if (!c) {
        *oom = 1;
        return NULL;
    }
    memcpy(c, text, len);
    c[len] = 0;
    /* eous_utf8_scrub stops at a NUL: scrub each NUL-separated segment */
    for (size_t at = 0; at < len; at += strlen((char *)c + at) + 1)
        eous_utf8_scrub((char *)c + at);
    return c;
}

static void run(const eous_tok *t, const char *text, size_t len, tok_sink *k)
{
    unsigned char *copy = scrubbed_copy(text, len, &k->oom);
    if (k->oom)
        return;
    tok_text x = {copy ? copy : (const unsigned char *)text, len};
    size_t (*next_piece)(const tok_text *, size_t) = t->split == SPLIT_O200K ? o200k_next : cl100k_next;
    tok_cache *c = cache_get(t);
    for (size_t i = 0; i < len && !k->stop;) {
        size_t e = next_piece(&x, i);
        encode_piece(t, c, x.s + i, e - i, i, k);
        i = e;
    }
    /* cut: a token that ended inside a character leaves the character out */
    while (k->stop && k->cut_end > 0 && k->cut_end < len && (x.s[k->cut_end] & 0xC0) == 0x80)
        k->cut_end--;
    free(copy);
}

size_t eous_tok_count(const eous_tok *tok, const char *text, size_t len)
{
    tok_sink k = {0};
    run(tok, text, len, &k);
    return k.oom ? len : k.count; /* out of memory: one token per byte, an upper bound */
}

eous_rc eous_tok_encode(const eous_tok *tok, const char *text, size_t len, uint32_t **out, size_t *n_out,
                        eous_err *err)
{
    tok_sink k = {0};
    k.want_ids = 1;
    run(tok, text, len, &k);
    if (k.oom) {
        free(k.ids);
        *out = NULL;
        *n_out = 0;
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory tokenizing %zu bytes", len);
    }
    *out = k.ids;
    *n_out = k.count;
    return EOUS_OK;
}

size_t eous_tok_cut(const eous_tok *tok, const char *text, size_t len, size_t max_tokens)
{
    if (!max_tokens)
        return 0;
    tok_sink k = {0};
    k.max_tokens = max_tokens;
    run(tok, text, len, &k);
    if (!k.stop || k.oom)
        return k.oom ? 0 : len;
    return k.cut_end;
}

/* ---- the shared o200k instance ---------------------------------------------------- */

static pthread_once_t o200k_once = PTHREAD_ONCE_INIT;
static eous_tok *o200k_shared;

static void load_o200k(void)
{
    eous_err err = {0};
    if (eous_tok_load("o200k_base", &o200k_shared, &err))
        EOUS_WARN("tokenize", "%s; token counts fall back to an estimate", err.msg);
}

const eous_tok *eous_tok_o200k(void)
{
    pthread_once(&o200k_once, load_o200k);
    return o200k_shared;
}

/* ---- the one token count -------------------------------------------------------
 * Tokens are counted with OpenAI's o200k_base (core/tokenize.h): exact for the o200k
 * models, an estimate for others (Claude's tokenizer is not public).  Only when the
 * tokenizer's data cannot be loaded are they estimated from the text's shape:
 *   a run of letters: 1 token per 6 letters (at least 1)  — common words are 1;
 *   a run of digits: 1 per 3 digits                       — BPE splits numbers in 3s;
 *   each punctuation or symbol byte: 1                    — "[", "]", "'", ":" ...;
 *   a whitespace run holding a newline or tab: 1; spaces: free (they merge);
 *   each non-ASCII character (UTF-8 lead byte): 1.
 * It over-counts rather than under-counts, so a budget is not silently blown. */
static size_t shape_estimate(const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    size_t n = 0;
    while (p < end) {
        unsigned char c = *p;
        if (isalpha(c)) {
            const unsigned char *s = p;
            while (p < end && isalpha(*p))
                p++;
            n += ((size_t)(p - s) + 5) / 6;
        } else if (isdigit(c)) {
            const unsigned char *s = p;
            while (p < end && isdigit(*p))
                p++;
            n += ((size_t)(p - s) + 2) / 3;
        } else if (isspace(c)) {
            int counted = 0;
            while (p < end && isspace(*p)) {
                if (*p != ' ' && !counted) {
                    n++;
                    counted = 1;
                }
                p++;
            }
        } else if (c >= 0x80) {
            if ((c & 0xC0) != 0x80)
                n++;
            p++;
        } else {
            n++;
            p++;
        }
    }
    return n;
}

size_t eous_tok_count_o200k(const char *text, size_t len)
{
    if (!text)
        return 0;
    const eous_tok *tok = eous_tok_o200k();
    return tok ? eous_tok_count(tok, text, len) : shape_estimate(text, len);
}

/* Without the tokenizer: the longest prefix whose shape estimate fits, at a line end when one
 * is near. */
size_t eous_tok_cut_o200k(const char *obs, size_t len, size_t max_tokens)
{
    const eous_tok *tok = eous_tok_o200k();
    if (tok)
        return eous_tok_cut(tok, obs, len, max_tokens);
    /* binary search on length: the estimate is monotonic in the prefix */
    size_t lo = 0, hi = len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (shape_estimate(obs, mid) <= max_tokens)
            lo = mid;
        else
            hi = mid - 1;
    }
    size_t cut = lo;
    while (cut > 0 && cut < len && ((unsigned char)obs[cut] & 0xC0) == 0x80)
        cut--;
    /* prefer whole lines unless that would throw away more than a quarter */
    size_t nl = cut;
    while (nl > 0 && obs[nl - 1] != '\n')
        nl--;
    if (nl > 0 && nl >= cut - cut / 4)
        cut = nl;
    return cut;
}

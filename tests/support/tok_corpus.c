/* tests/support/tok_corpus.c — see tok_corpus.h. */
#include "support/tok_corpus.h"
#include "support/grounds.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

static int add(ts_texts *t, const char *name, const char *bytes, size_t len)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        ts_text *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    ts_text *x = &t->v[t->n];
    if (!(x->bytes = malloc(len + 1)))
        return -1;
    memcpy(x->bytes, bytes, len);
    x->bytes[len] = 0;
    x->len = len;
    snprintf(x->name, sizeof x->name, "%s", name);
    t->n++;
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n;
    if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n + 1))) {
        *len = fread(buf, 1, (size_t)n, f);
        buf[*len] = 0;
    }
    fclose(f);
    return buf;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ts_texts_add_views(ts_texts *t)
{
    const char *dir = TS_STORED_VIEWS;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: cannot open the stored views\n", dir);
        return -1;
    }
    char *names[1024];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 1024)
        if (strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".txt"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int added = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *s = slurp(path, &len);
        if (!s || add(t, names[i], s, len))
            added = -1;
        else if (added >= 0)
            added++;
        free(s);
        free(names[i]);
    }
    return added;
}

int ts_texts_add_intents(ts_texts *t)
{
    const char *path = TS_WEBARENA_CONFIGS; /* in the repo, as test_eval reads it */
    const char *env = getenv("EOUS_WEBARENA_CONFIGS");
    if (env && *env)
        path = env;
    size_t len = 0;
    char *s = slurp(path, &len);
    cJSON *root = s ? cJSON_ParseWithLength(s, len) : NULL;
    free(s);
    if (!cJSON_IsArray(root)) {
        fprintf(stderr, "%s: expected WebArena's test.raw.json (a JSON array of task configs)\n", path);
        cJSON_Delete(root);
        return -1;
    }
    int added = 0;
    const cJSON *cfg;
    cJSON_ArrayForEach(cfg, root)
    {
        const cJSON *intent = cJSON_GetObjectItemCaseSensitive(cfg, "intent");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(cfg, "task_id");
        if (!cJSON_IsString(intent))
            continue;
        char name[64];
        snprintf(name, sizeof name, "intent-%d", cJSON_IsNumber(id) ? id->valueint : added);
        if (add(t, name, intent->valuestring, strlen(intent->valuestring)))
            break;
        added++;
    }
    cJSON_Delete(root);
    return added;
}

/* ---- generated texts -------------------------------------------------------------- */

/* Fragments chosen to reach every branch of both split patterns and of the merge. */
static const char *const FRAGMENTS[] = {
    /* Latin, case, contractions (the patterns know 's 't 're 've 'm 'll 'd in any case) */
    "hello", "Hello", "HELLO", "don't", "DON'T", "I'LL", "it's", "they've", "WE'RE", "you'd", "I'm", "'s", "'LL",
    "o'clock", "CamelCase", "HTTPServer", "iPhone", "Stra\xc3\x9f" "e", "\xc7\x85" "emal", "na\xc3\xafve", "'sup",
    "rock'n'roll", "x'S", "can't've",
    /* Cyrillic, Greek */
    "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82, \xd0\xbc\xd0\xb8\xd1\x80", "\xd0\x81\xd0\x96\xd0\x98\xd0\x9a",
    "\xe1\xbe\x88\xce\xb8\xce\xb7\xce\xbd\xce\xb1",
    /* CJK, kana (ー is Lm), Hangul */
    "\xe4\xb8\xad\xe6\x96\x87\xe5\x88\x86\xe8\xaf\x8d\xe6\xb5\x8b\xe8\xaf\x95",
    "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88",
    "\xe3\x82\xb3\xe3\x83\xbc\xe3\x83\x92\xe3\x83\xbc", "\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4 \xeb\xac\xb8\xec\x9e\xa5",
    /* Arabic with diacritics (marks), Arabic-Indic digits */
    "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd8\xa7\xd9\x84\xd8\xb9\xd8\xa7\xd9\x84\xd9\x85",
    "\xd9\x85\xd9\x8e\xd8\xb1\xd9\x92\xd8\xad\xd9\x8e\xd8\xa8\xd9\x8b\xd8\xa7", "\xd9\xa3\xd9\xa4\xd9\xa5\xd9\xa6",
    /* Devanagari (vowel signs are marks) */
    "\xe0\xa4\xa8\xe0\xa4\xae\xe0\xa4\xb8\xe0\xa5\x8d\xe0\xa4\xa4\xe0\xa5\x87 \xe0\xa4\xa6\xe0\xa5\x81\xe0\xa4\xa8"
    "\xe0\xa4\xbf\xe0\xa4\xaf\xe0\xa4\xbe",
    "\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7\xe0\xa4\xa4\xe0\xa5\x8d\xe0\xa4\xb0\xe0\xa4\xbf\xe0\xa4\xaf",
    /* combining marks alone, after a space, after a letter */
    "e\xcc\x81", "\xcc\x81\xcc\x81", " \xcc\x81" "a", "A\xcc\x8a" "B", "\xca\xb0" "x",
    /* emoji: ZWJ family, flag, skin tone, keycap, rainbow flag */
    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7\xe2\x80\x8d\xf0\x9f\x91\xa6",
    "\xf0\x9f\x87\xba\xf0\x9f\x87\xb8", "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd", "1\xef\xb8\x8f\xe2\x83\xa3",
    "\xf0\x9f\x8f\xb3\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x8c\x88",
    /* digits: runs split in threes, other numerals */
    "1234567", "0", "42", "3.14159", "\xe2\x91\xa0\xe2\x91\xa1", "\xe2\x85\xab", "2025-12-31",
    /* whitespace of every kind: \r\n, tabs, NBSP, ideographic space, line separator, BOM, NEL */
    " ", "  ", "   ", "\t", "\t\t", "\n", "\n\n", "\r\n", "\r", " \n ", "\v\f", "\xc2\xa0", "\xe3\x80\x80",
    "\xe2\x80\xa8", "\xef\xbb\xbf", "\xc2\x85", "\xe2\x80\x83",
    /* punctuation, slashes, special-token text (ordinary text here) */
    "...", "!!!", "//", "/\n/", "{}", "[12]", "<|endoftext|>", "<|im_start|>", "'''", "\xe2\x80\x94",
    "\xc2\xab\xc2\xbb", "=====", "->", "http://127.0.0.1:8080/a?b=c&d=e", "$", "\\", "\"", "'",
    /* invalid UTF-8: stray bytes, truncated sequences, surrogates, overlongs, past U+10FFFF */
    "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\x80", "\xf0\x9f\x91",
};
#define N_FRAGMENTS (sizeof FRAGMENTS / sizeof *FRAGMENTS)

static unsigned long long next_rand(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A long run of one fragment: pieces longer than the merge's short path (e.g. 300 letters). */
static size_t put_run(char *buf, size_t at, size_t cap, const char *frag, size_t times)
{
    size_t flen = strlen(frag);
    for (size_t k = 0; k < times && at + flen < cap; k++, at += flen)
        memcpy(buf + at, frag, flen);
    return at;
}

int ts_texts_add_generated(ts_texts *t, size_t n, unsigned long long seed)
{
    static const char *const RUNS[] = {"a", "Z", " ", "\t", "\n", "-", "9", "\xe4\xb8\xad", "\xd0\xb6", "=",
                                        "\xe3\x80\x80", "\xcc\x81", "ab"};
    const size_t cap = 8192;
    char *buf = malloc(cap);
    if (!buf)
        return -1;
    unsigned long long s = seed ? seed : 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; i < n; i++) {
        size_t at = 0, parts = 1 + next_rand(&s) % 40;
        for (size_t p = 0; p < parts; p++) {
            if (next_rand(&s) % 25 == 0) {
                at = put_run(buf, at, cap, RUNS[next_rand(&s) % (sizeof RUNS / sizeof *RUNS)],
                             1 + next_rand(&s) % 300);
                continue;
            }
            at = put_run(buf, at, cap, FRAGMENTS[next_rand(&s) % N_FRAGMENTS], 1);
            if (next_rand(&s) % 3 == 0)
                at = put_run(buf, at, cap, " ", 1);
        }
        char name[64];
        snprintf(name, sizeof name, "generated-%zu", i);
        if (add(t, name, buf, at)) {
            free(buf);
            return -1;
        }
    }
    free(buf);
    return (int)n;
}

void ts_texts_free(ts_texts *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].bytes);
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* ---- the npm tokenizer's ids ------------------------------------------------------- */

int ts_texts_expect(const ts_texts *t, const char *encoding, const char *dir)
{
    for (size_t i = 0; i < t->n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%zu.txt", dir, i);
        FILE *f = fopen(path, "wb");
        if (!f)
            return -1;
        /* scrubbed as eous does, segment by segment (the scrub stops at NUL) */
        char *copy = malloc(t->v[i].len + 1);
        if (!copy) {
            fclose(f);
            return -1;
        }
        memcpy(copy, t->v[i].bytes, t->v[i].len + 1);
        for (size_t at = 0; at < t->v[i].len; at += strlen(copy + at) + 1)
            eous_utf8_scrub(copy + at);
        size_t w = fwrite(copy, 1, t->v[i].len, f);
        free(copy);
        if (fclose(f) || w != t->v[i].len)
            return -1;
    }
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "node '%s/tests/support/tok_expect.mjs' '%s' '%s'", EOUS_SOURCE_DIR, encoding, dir);
    return system(cmd) == 0 ? 0 : -1;
}

unsigned *ts_texts_expected(const char *dir, size_t i, size_t *n)
{
    char path[4096];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%zu.txt.ids", dir, i);
    char *s = slurp(path, &len);
    if (!s)
        return NULL;
    unsigned *ids = malloc(len + sizeof *ids);
    if (ids)
        memcpy(ids, s, len);
    free(s);
    *n = len / sizeof *ids;
    return ids;
}

/* tests/support/tok_corpus.h — the texts the tokenizer is checked and measured on: the stored
 * views (benchmarks/results/views), the 812 WebArena intents, and a generated mix of scripts,
 * emoji, whitespace and digit runs, contractions and invalid UTF-8.  No Criterion here: the
 * benchmark links this too. */
#ifndef EOUS_TS_TOK_CORPUS_H
#define EOUS_TS_TOK_CORPUS_H

#include <stddef.h>

typedef struct ts_text {
    char name[64];
    char *bytes; /* owned; may hold invalid UTF-8 (generated texts) */
    size_t len;
} ts_text;

typedef struct ts_texts {
    ts_text *v;
    size_t n, cap;
} ts_texts;

/* Each appends to *t and returns the number of texts added, -1 when the source is missing
 * or unreadable (the reason on stderr). */
int ts_texts_add_views(ts_texts *t);
int ts_texts_add_intents(ts_texts *t);
/* n texts from a fixed seed: the same texts on every run. */
int ts_texts_add_generated(ts_texts *t, size_t n, unsigned long long seed);
void ts_texts_free(ts_texts *t);

/* Writes each text, scrubbed as eous does, to DIR/<index>.txt and runs
 * tests/support/tok_expect.mjs ENCODING DIR, which writes the npm tokenizer's ids next to
 * it.  Returns 0 on success. */
int ts_texts_expect(const ts_texts *t, const char *encoding, const char *dir);
/* The npm tokenizer's ids for text i (caller frees), *n ids; NULL when missing. */
unsigned *ts_texts_expected(const char *dir, size_t i, size_t *n);

#endif

/* tests/core/test_tokenize.c — core/tokenize.c gives the npm tokenizer's (gpt-tokenizer) token ids,
 * id for id, on the stored views, the 812 WebArena intents and a generated corpus of mixed
 * scripts, emoji, whitespace and digit runs, contractions and invalid UTF-8; the expected ids
 * are computed at test time by tests/support/tok_expect.mjs from the same texts (scrubbed). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/tokenize.h"
#include "support/tok_corpus.h"

static eous_tok *load(const char *name)
{
    eous_tok *t = NULL;
    eous_err err = {0};
    cr_assert_eq(eous_tok_load(name, &t, &err), EOUS_OK, "%s", err.msg);
    return t;
}

static void rm_dir(const char *dir)
{
    eous_rmtree(dir);
}

/* Every text of t: eous's ids equal the npm tokenizer's, count agrees, and a cut at half the
 * tokens re-encodes to exactly that many leading ids. */
static void expect_identical(const ts_texts *t, const char *encoding)
{
    char dir[] = "/tmp/eous-tok-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(ts_texts_expect(t, encoding, dir), 0, "node tests/support/tok_expect.mjs %s failed", encoding);
    eous_tok *tok = load(encoding);
    size_t differ = 0, total = 0;
    for (size_t i = 0; i < t->n; i++) {
        size_t n_exp = 0, n_got = 0;
        unsigned *exp = ts_texts_expected(dir, i, &n_exp);
        uint32_t *got = NULL;
        cr_assert_not_null(exp, "%s: no expected ids", t->v[i].name);
        cr_assert_eq(eous_tok_encode(tok, t->v[i].bytes, t->v[i].len, &got, &n_got, NULL), EOUS_OK);
        size_t k = 0;
        while (k < n_got && k < n_exp && got[k] == exp[k])
            k++;
        if (k != n_got || n_got != n_exp) {
            differ++;
            cr_log_error("%s (%s): first difference at token %zu of %zu (npm %zu): eous %u, npm %u", t->v[i].name,
                         encoding, k, n_got, n_exp, k < n_got ? got[k] : 0, k < n_exp ? exp[k] : 0);
        }
        cr_expect_eq(eous_tok_count(tok, t->v[i].bytes, t->v[i].len), n_got, "%s: count", t->v[i].name);
        total += n_got;
        free(exp);
        free(got);
    }
    eous_tok_free(tok);
    rm_dir(dir);
    cr_assert_eq(differ, 0, "%zu of %zu texts differ from the npm tokenizer (%s)", differ, t->n, encoding);
    cr_assert_gt(total, t->n, "the texts were tokenized");
}

static void with_views(ts_texts *t)
{
    cr_assert_geq(ts_texts_add_views(t), 40, "benchmarks/results/views holds the 40 stored views");
}

Test(tokenize, views_o200k, .timeout = 300)
{
    ts_texts t = {0};
    with_views(&t);
    expect_identical(&t, "o200k_base");
    ts_texts_free(&t);
}

Test(tokenize, views_cl100k, .timeout = 300)
{
    ts_texts t = {0};
    with_views(&t);
    expect_identical(&t, "cl100k_base");
    ts_texts_free(&t);
}

Test(tokenize, webarena_intents, .timeout = 300)
{
    ts_texts t = {0};
    cr_assert_eq(ts_texts_add_intents(&t), 812, "all 812 WebArena intents");
    expect_identical(&t, "o200k_base");
    expect_identical(&t, "cl100k_base");
    ts_texts_free(&t);
}

Test(tokenize, generated_corpus, .timeout = 300)
{
    ts_texts t = {0};
    cr_assert_eq(ts_texts_add_generated(&t, 1500, 16), 1500);
    expect_identical(&t, "o200k_base");
    expect_identical(&t, "cl100k_base");
    ts_texts_free(&t);
}

/* ---- behaviour that does not need the npm side ---------------------------------------- */

Test(tokenize, invalid_utf8_is_scrubbed_first)
{
    eous_tok *t = load("o200k_base");
    uint32_t *a, *b;
    size_t na, nb;
    cr_assert_eq(eous_tok_encode(t, "caf\xc3 ok\xff", 8, &a, &na, NULL), EOUS_OK);
    cr_assert_eq(eous_tok_encode(t, "caf? ok?", 8, &b, &nb, NULL), EOUS_OK);
    cr_assert_eq(na, nb);
    cr_assert_arr_eq(a, b, na * sizeof *a);
    /* a NUL is ordinary text, and the scrub goes on past it */
    cr_assert_eq(eous_tok_count(t, "a\0\xff", 3), eous_tok_count(t, "a\0?", 3));
    free(a);
    free(b);
    eous_tok_free(t);
}

Test(tokenize, cut_keeps_whole_tokens_and_characters)
{
    eous_tok *t = load("o200k_base");
    const char *s = "The quick brown fox jumps over the lazy dog. \xe4\xb8\xad\xe6\x96\x87\xe5\x88\x86\xe8\xaf\x8d";
    size_t len = strlen(s), n = eous_tok_count(t, s, len);
    cr_assert_gt(n, 10);
    cr_assert_eq(eous_tok_cut(t, s, len, n), len, "enough tokens: nothing cut");
    cr_assert_eq(eous_tok_cut(t, s, len, 0), 0);
    for (size_t k = 1; k < n; k++) {
        size_t cut = eous_tok_cut(t, s, len, k);
        cr_assert_lt(cut, len);
        cr_assert_leq(eous_tok_count(t, s, cut), k, "a cut at %zu tokens keeps at most %zu", k, k);
        cr_assert_neq((unsigned char)s[cut] & 0xC0, 0x80, "the cut at %zu tokens splits a character", k);
    }
    cr_assert_eq(eous_tok_cut(t, s, len, 4), strlen("The quick brown fox"));
    eous_tok_free(t);
}

Test(tokenize, load_errors_name_the_input)
{
    eous_tok *t = NULL;
    eous_err err = {0};
    cr_assert_eq(eous_tok_load("p50k_base", &t, &err), EOUS_E_INVALID);
    cr_assert_not_null(strstr(err.msg, "p50k_base"));
    cr_assert_null(t);

    char dir[] = "/tmp/eous-tokdir-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    setenv("EOUS_TOKENIZER_DIR", dir, 1);
    cr_assert_eq(eous_tok_load("o200k_base", &t, &err), EOUS_E_IO);
    cr_assert_not_null(strstr(err.msg, "o200k_base.eousbpe"), "%s", err.msg);

    char path[256];
    snprintf(path, sizeof path, "%s/o200k_base.eousbpe", dir);
    FILE *f = fopen(path, "wb");
    fputs("EOUSBPE1\x05\x00\x00\x00garbage", f);
    fclose(f);
    cr_assert_eq(eous_tok_load("o200k_base", &t, &err), EOUS_E_PARSE);
    cr_assert_not_null(strstr(err.msg, path), "%s", err.msg);
    cr_assert_null(t);
    unsetenv("EOUS_TOKENIZER_DIR");
    rm_dir(dir);
}

Test(tokenize, shared_o200k_is_loaded_once)
{
    const eous_tok *a = eous_tok_o200k(), *b = eous_tok_o200k();
    cr_assert_not_null(a);
    cr_assert_eq(a, b);
    cr_assert_str_eq(eous_tok_name(a), "o200k_base");
    cr_assert_eq(eous_tok_count(a, "hello world", 11), 2);
    cr_assert_gt(eous_tok_memory(a), 2000000);
}

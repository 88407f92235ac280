/* tests/fuzz/fuzz_redact.c — libFuzzer target for the secret redactor.
 *
 * The input draws a secret, then text in which the secret appears several
 * times, each occurrence spelled byte by byte in a random mix of encodings
 * (raw, %XX in either case, %25XX, '+', JSON and HTML escapes), between filler
 * drawn from bytes no secret or encoding uses (at least one between two
 * occurrences).  Invariant: the output is the
 * filler with every occurrence replaced by "[redacted]", nothing else changed
 * (where one spelling reads as two secrets back to back, "[redacted]" twice
 * counts as once: both hide the same bytes).
 * FUZZ_REDACT_ENTRY renames the entry point (the corpus replay in
 * tests/fuzz/test_fuzz_corpus.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/log.h"

#ifndef FUZZ_REDACT_ENTRY
#define FUZZ_REDACT_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_REDACT_ENTRY(const uint8_t *data, size_t size);

/* The secret's alphabet: what a password holds, the bytes encodings use, and a UTF-8 letter. */
static const char *const secret_chars[] = {"a", "b", "c", "0", "9", " ", "!", "@", "<", ">", "&", "\"", "'", "%",
                                           "+", "/", "\\", ":", "?", "=", "#", ";", "\xc3\xa9", "\xe2\x82\xac"};
/* Filler: nothing a secret or an encoded unit can start with or contain. */
static const char filler_chars[] = "nopqrstuvwxyzNOPQRSTUVWXYZ,.()[]{}|^~*\n";

typedef struct {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static unsigned next(fuzz_in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

/* One byte of the secret spelled by encoding e into b. */
static void spell_byte(eous_buf *b, unsigned char c, unsigned e)
{
    static const char *const json_named[][2] = {{"\"", "\\\""}, {"\\", "\\\\"}, {"/", "\\/"}};
    switch (e % 8) {
    case 1:
        eous_buf_printf(b, NULL, "%%%02X", c);
        return;
    case 2:
        eous_buf_printf(b, NULL, "%%%02x", c);
        return;
    case 3:
        eous_buf_printf(b, NULL, "%%25%02X", c);
        return;
    case 4:
        if (c == ' ') {
            eous_buf_putc(b, '+', NULL);
            return;
        }
        break;
    case 5:
        for (size_t i = 0; i < 3; i++) {
            if (c == (unsigned char)json_named[i][0][0]) {
                eous_buf_puts(b, json_named[i][1], NULL);
                return;
            }
        }
        if (c < 0x80) {
            eous_buf_printf(b, NULL, "\\u%04x", c);
            return;
        }
        break;
    case 6:
        if (c < 0x80) {
            eous_buf_printf(b, NULL, "&#%u;", c);
            return;
        }
        break;
    case 7:
        if (c == '&' || c == '<' || c == '"') {
            eous_buf_puts(b, c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&quot;", NULL);
            return;
        }
        if (c < 0x80) {
            eous_buf_printf(b, NULL, "&#x%X;", c);
            return;
        }
        break;
    default:
        break;
    }
    eous_buf_putc(b, (char)c, NULL);
}

/* "[redacted][redacted]" -> "[redacted]", in place. */
static void collapse_repeats(char *s)
{
    static const char mark[] = "[redacted]";
    const size_t n = sizeof mark - 1;
    char *p;
    while (s && (p = strstr(s, "[redacted][redacted]"))) {
        memmove(p + n, p + 2 * n, strlen(p + 2 * n) + 1);
        s = p;
    }
}

int FUZZ_REDACT_ENTRY(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    eous_buf secret, text, want;
    eous_buf_init(&secret, 1 << 12);
    eous_buf_init(&text, 1 << 20);
    eous_buf_init(&want, 1 << 20);
    size_t len = 4 + next(&in) % 24;
    while (secret.len < len)
        eous_buf_puts(&secret, secret_chars[next(&in) % (sizeof secret_chars / sizeof *secret_chars)], NULL);
    eous_redact_clear();
    if (eous_redact_add(secret.data) != 0)
        abort();
    unsigned occurrences = next(&in) % 5;
    for (unsigned k = 0; k <= occurrences; k++) {
        /* at least one filler byte between occurrences: two adjacent spellings can be read at
         * more than one boundary ("\\\\" is one escaped '\\' or two raw ones) */
        unsigned n_fill = next(&in) % 12 + (k > 0 && k < occurrences);
        for (unsigned i = 0; i < n_fill; i++) {
            char f = filler_chars[next(&in) % (sizeof filler_chars - 1)];
            eous_buf_putc(&text, f, NULL);
            eous_buf_putc(&want, f, NULL);
        }
        if (k == occurrences)
            break;
        for (size_t i = 0; i < secret.len; i++)
            spell_byte(&text, (unsigned char)secret.data[i], next(&in));
        eous_buf_puts(&want, "[redacted]", NULL);
    }
    char *got = eous_redact(text.data ? text.data : "");
    collapse_repeats(got);
    const char *expect = want.data ? want.data : "";
    if (!got || strcmp(got, expect) != 0) {
        fprintf(stderr, "secret: %s\ntext:   %s\nwant:   %s\ngot:    %s\n", secret.data, text.data ? text.data : "",
                expect, got ? got : "(null)");
        abort();
    }
    if (eous_redact_contains(got))
        abort();
    free(got);
    eous_redact_clear();
    eous_buf_free(&secret);
    eous_buf_free(&text);
    eous_buf_free(&want);
    return 0;
}

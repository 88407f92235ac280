/* core/tokenize.h — OpenAI's byte-level BPE tokenizers (o200k_base, cl100k_base) in C.
 *
 * Token ids are identical to the npm tokenizer gpt-tokenizer's encode(text,
 * {disallowedSpecial: new Set()}) (tiktoken's encode_ordinary: special-token text such as
 * "<|endoftext|>" is ordinary text).  Invalid UTF-8 is scrubbed first, byte by byte, as
 * eous_utf8_scrub does ('?' for each byte that does not start a valid sequence).
 *
 * The ranks are a data file converted at build time from gpt-tokenizer's ranks by
 * scripts/gen-tokenizer-data.mjs (NAME.eousbpe); eous_tok_load looks for it in
 * $EOUS_TOKENIZER_DIR, then the build tree's share/eous, then the install prefix's share/eous.
 * A loaded tokenizer is immutable: any number of threads may use it at once. */
#ifndef EOUS_CORE_TOKENIZE_H
#define EOUS_CORE_TOKENIZE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

typedef struct eous_tok eous_tok;

/* Loads "o200k_base" or "cl100k_base".  *out is the caller's, freed with eous_tok_free. */
eous_rc eous_tok_load(const char *name, eous_tok **out, eous_err *err);
void eous_tok_free(eous_tok *tok);
/* The encoding's name, e.g. "o200k_base"; owned by tok. */
const char *eous_tok_name(const eous_tok *tok);
/* Bytes the loaded ranks occupy in memory (data file + lookup table). */
size_t eous_tok_memory(const eous_tok *tok);

/* Number of tokens of text[0..len). */
size_t eous_tok_count(const eous_tok *tok, const char *text, size_t len);
/* The token ids of text[0..len): *out (caller frees with free()) holds *n_out ids. */
eous_rc eous_tok_encode(const eous_tok *tok, const char *text, size_t len, uint32_t **out, size_t *n_out,
                        eous_err *err);
/* Length in bytes of the longest prefix of text made of its first max_tokens tokens (WebArena's
 * decode(encode(text)[:max_tokens])), backed up so no UTF-8 character is split; len when the
 * whole text has at most max_tokens tokens. */
size_t eous_tok_cut(const eous_tok *tok, const char *text, size_t len, size_t max_tokens);

/* The process-wide o200k_base tokenizer, loaded on first use (thread-safe); NULL when its data
 * file cannot be loaded (the reason is logged once).  Never freed: it lives as long as the
 * process, like the library's other one-time initialisation. */
const eous_tok *eous_tok_o200k(void);

/* The one token count of views, budgets and bills: text[0..len)'s o200k_base tokens, exact
 * whenever eous_tok_o200k() loads (always in a built tree or an install).  Only without the
 * data file is it an estimate from the text's shape, which over-counts (tokenize.c says how);
 * 0 for NULL text.  Exact for OpenAI's o200k models, an approximation for other providers'. */
size_t eous_tok_count_o200k(const char *text, size_t len);
/* The longest prefix of text[0..len) of at most max_tokens o200k tokens, as WebArena cuts an
 * observation (decode(encode(text)[:max_tokens])), never inside a UTF-8 character; without
 * the data file, the longest prefix whose estimate fits, at a line end when one is near. */
size_t eous_tok_cut_o200k(const char *text, size_t len, size_t max_tokens);

#endif

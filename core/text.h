/* core/text.h — text helpers every module needs the same way: UTF-8 cuts
 * and scrubbing, Python's str() of a JSON number, blank tests, list
 * membership, wiping secrets from memory. */
#ifndef EOUS_CORE_TEXT_H
#define EOUS_CORE_TEXT_H

#include <stddef.h>

/* Replaces every byte that does not start a valid UTF-8 sequence with '?',
 * in place; returns how many were replaced. */
size_t eous_utf8_scrub(char *s);

/* The longest prefix of s no longer than max bytes that does not end
 * inside a UTF-8 sequence: where to cut text without splitting a character. */
size_t eous_utf8_cut(const char *s, size_t max);

/* Python's str() of a JSON number as WebArena's evaluators see it: an
 * integral value within ±1e15 without a fraction ("3"), else "%.17g".
 * The range is checked before the cast to long long (the cast is undefined
 * behaviour outside it).  Writes into out and returns it. */
#define EOUS_NUMBER_STR_MAX 32
char *eous_number_str(double d, char out[EOUS_NUMBER_STR_MAX]);

/* 1 when s is NULL or holds only whitespace as Python's str.strip() sees it:
 * ASCII spaces and the Unicode ones (NBSP, U+2000..U+200A, U+2028/2029,
 * U+202F, U+205F, U+3000). */
int eous_is_blank(const char *s);

/* 1 when url (not NULL) starts with http:// or https:// (the schemes a task,
 * a WebDriver endpoint and a page eous acts on may have). */
int eous_is_http_url(const char *url);

/* 1 when s (not NULL) equals one of list[0..n). */
int eous_in_list(const char *s, const char *const *list, size_t n);
#define EOUS_IN_LIST(s, L) eous_in_list((s), (L), sizeof(L) / sizeof *(L))

/* Overwrites s's bytes with zeros in a way the compiler keeps (secrets must
 * not linger in freed heap); NULL is fine. */
void eous_wipe(void *p, size_t n);
/* eous_wipe of a NUL-terminated string (NULL is fine); _free frees it too. */
void eous_wipe_str(char *s);
void eous_wipe_free(char *s);

/* Enum <-> name through one table, names[v] naming enum value v (designated
 * initialisers; NULL for a gap): the index of s, or -1 when no name is s. */
int eous_name_find(const char *const *names, size_t n, const char *s);
/* names[v], or fallback when v is outside the table or a gap. */
const char *eous_name_of(const char *const *names, size_t n, int v, const char *fallback);
#define EOUS_NAMES_N(names) (sizeof(names) / sizeof *(names))

#endif

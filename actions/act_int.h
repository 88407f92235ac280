/* actions/act_int.h — helpers shared inside actions/ only (not installed API
 * in spirit: nothing outside actions/ should include this).
 *
 * Text matching (labels regardless of case and accents, whole words, globs)
 * and URL splitting used by the validator, the policy, secrets and the
 * executor.  Every function here is pure; outputs go to caller buffers. */
#ifndef EOUS_ACT_INT_H
#define EOUS_ACT_INT_H

#include <stddef.h>

#include "core/core.h"

/* Folds UTF-8 text to lowercase ASCII where it can: Latin accents dropped
 * ("Région" → "region"), ß → "ss", other bytes copied lowercased.  Writes at
 * most n-1 bytes plus NUL into out; returns the length written. */
size_t act_fold(const char *in, char *out, size_t n);

/* 1 when the words of `query` appear, as whole consecutive words, in `text`
 * (both folded): "name" finds "Display name", not "Username". */
int act_words_match(const char *query, const char *text);

/* Glob match with '*' and '?' over folded text (case and accent insensitive).
 * A NULL pattern matches anything. */
int act_glob(const char *pattern, const char *text);

/* A URL split the way a browser would for the parts policy cares about.
 * Leading spaces/controls are stripped and tabs/newlines removed first, as
 * the URL standard does, so "java\tscript:" is seen as "javascript:". */
typedef struct act_url {
    char scheme[32];   /* lowercased, without ':' ; "" when the URL has none */
    char host[256];    /* lowercased; IPv6 keeps its brackets */
    int port;          /* explicit or the scheme's default; 0 when unknown */
    int has_authority; /* "scheme://..." */
} act_url;

/* 0 on success, -1 when the text is not a URL we can judge (empty, too long,
 * a host with '%' escapes or spaces ...). */
int act_url_parse(const char *url, act_url *out);
/* "scheme://host:port" into out (port always written). */
void act_url_origin(const act_url *u, char *out, size_t n);

#endif

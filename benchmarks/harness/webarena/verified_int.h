/* webarena/verified_int.h — what only agent/verified*.c share. */
#ifndef EOUS_WEBARENA_VERIFIED_INT_H
#define EOUS_WEBARENA_VERIFIED_INT_H

#include <stdio.h>

#include "webarena/verified.h"

#define VF_T "\x01t" /* a typed value's type name */
#define VF_A "\x01a" /* its normalised alternatives */

/* Python re.search of a task's pattern: 1 match, 0 none, -1 bad pattern. */
int vf_re_search(const char *pattern, const char *s, int icase);

/* The type name of a typed value, or NULL for plain JSON. */
const char *vf_typeof(const cJSON *v);

/* Appends {assertion_name, assertion_msgs: [msg]} to out. */
void vf_assert(cJSON *out, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The parts of a HAR the evaluators read, as a cJSON tree ({"log":
 * {"entries": [{"request": {url, method, headers, postData}, "response":
 * {status, content, cookies}}]}}), or NULL when the text is not strict JSON
 * of that shape: then parse it whole.  Caller frees. (verified_harscan.c) */
cJSON *vf_har_prune(const char *text, size_t len);

#endif

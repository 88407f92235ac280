/* webarena/har.h — a HAR 1.2 network log built from CDP Network events (as
 * chromedriver's performance log gives them, webdriver/perflog.c), with
 * secrets taken out: Cookie, Set-Cookie, Authorization and API-key headers
 * are "[redacted]", cookie lists are empty, every registered secret value
 * (core/log.h eous_redact_add: {{secret:NAME}} values, keys) is "[redacted]"
 * wherever it appears — as it is, URL-encoded or inside a form or JSON body —
 * and form or JSON fields named like passwords are "[redacted]" too.
 * Returned trees are the caller's (cJSON_Delete). */
#ifndef EOUS_WEBARENA_HAR_H
#define EOUS_WEBARENA_HAR_H

#include "core/core.h"

/* A HAR {"log": {...}} from performance-log entries ({message: "<json>"} or
 * already-parsed {method, params} objects); events of other domains and
 * non-http(s) requests are skipped; malformed messages are skipped and
 * counted in *skipped (may be NULL). */
cJSON *wa_har_build(const cJSON *entries, int *skipped);
/* The redaction the builder applies to one text (a URL, header value or
 * body): caller frees. */
char *wa_har_redact_text(const char *text, const char *mime);

#endif

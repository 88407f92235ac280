/* actions/secrets.h — {{secret:NAME}} placeholders, filled only at execution.
 *
 * Sources, later ones winning:
 *   1. a secrets file (--secrets FILE), dotenv lines:
 *        NAME=value                      usable on any page
 *        NAME@example.com=value          only on pages of example.com
 *        NAME@*.example.com,127.0.0.1:8080=value
 *                                        several hosts; "*." matches subdomains;
 *                                        host:port pins the port too
 *      '#' comments, blank lines, an optional "export " prefix, values in
 *      "double" (with \n \" \\ escapes) or 'single' quotes.  The file must
 *      not be readable or writable by group or others (mode 0600 or 0400):
 *      anything else is refused, naming the file and its mode.
 *   2. the environment: EOUS_SECRET_NAME=value, optionally scoped with
 *      EOUS_SECRET_DOMAINS_NAME=host1,host2 (same host syntax as above).
 * NAME is [A-Za-z_][A-Za-z0-9_]*.  Every value is registered with
 * eous_redact_add (core/log.h) the moment it is read, so it never reaches a
 * log, trace, cassette, report or the audit log; values shorter than 4 bytes
 * cannot be redacted safely and are refused.
 *
 * Ownership: act_secrets is an opaque handle (_new / _free, which wipes the
 * values).  Expanded strings are malloc'd for the caller, who should release
 * them with act_secret_free (wipes, then frees). */
#ifndef EOUS_ACT_SECRETS_H
#define EOUS_ACT_SECRETS_H

#include "core/core.h"

typedef struct act_secrets act_secrets;

/* Reads EOUS_SECRET_* from the environment (registering each value for
 * redaction). */
eous_rc act_secrets_new(act_secrets **out, eous_err *err);
void act_secrets_free(act_secrets *s);

/* Adds the file's secrets.  EOUS_E_INVALID naming the file for a bad mode
 * ("mode 0644, expected 0600"), and FILE:LINE for a bad line. */
eous_rc act_secrets_load_file(act_secrets *s, const char *path, eous_err *err);
size_t act_secrets_count(const act_secrets *s);

/* 1 when text holds a {{secret:...}} placeholder. */
int act_secrets_has_placeholder(const char *text);
/* Same for any string inside a JSON value. */
int act_secrets_json_has_placeholder(const cJSON *v);

/* Replaces every {{secret:NAME}} in text for a page at page_url (NULL: a
 * scoped secret is refused).  *out: malloc'd result (free with
 * act_secret_free).  Errors: EOUS_E_INVALID "unknown secret NAME: set
 * EOUS_SECRET_NAME or add NAME=... to the secrets file"; EOUS_E_POLICY when
 * the page is outside the secret's domains.  s may be NULL (environment only). */
eous_rc act_secrets_expand(const act_secrets *s, const char *text, const char *page_url, char **out, eous_err *err);
/* Deep copy of v with every string expanded (caller frees with
 * act_secret_json_free). */
eous_rc act_secrets_expand_json(const act_secrets *s, const cJSON *v, const char *page_url, cJSON **out,
                                eous_err *err);

/* The names (never the values) of the secrets usable on page_url, "A, B", into out (empty when
 * none): what a model is told it may type as {{secret:NAME}}.  s may be NULL (environment only). */
void act_secrets_names(const act_secrets *s, const char *page_url, char *out, size_t size);

/* Wipes then frees (NULL is fine). */
void act_secret_free(char *value);
void act_secret_json_free(cJSON *v);

#endif

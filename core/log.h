/* core/log.h — a small logger and the process-wide secret redactor.
 *
 * Every line the logger writes passes through eous_redact first, so a secret
 * registered with eous_redact_add never reaches a log.  Trace, cassette,
 * report and audit writers call eous_redact on what they write too.
 * The logger and the redactor are the only process-wide state in libeous;
 * both are thread-safe. */
#ifndef EOUS_CORE_LOG_H
#define EOUS_CORE_LOG_H

#include <stdio.h>

typedef enum eous_log_level {
    EOUS_LOG_DEBUG = 0,
    EOUS_LOG_INFO,
    EOUS_LOG_WARN,
    EOUS_LOG_ERROR,
    EOUS_LOG_OFF
} eous_log_level;

/* out NULL = stderr.  json_lines: one JSON object per line instead of text. */
void eous_log_configure(eous_log_level level, int json_lines, FILE *out);
eous_log_level eous_log_level_get(void);
/* Parses "debug|info|warn|error|off"; returns -1 when unknown. */
int eous_log_level_parse(const char *s);
void eous_log(eous_log_level level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define EOUS_DEBUG(comp, ...) eous_log(EOUS_LOG_DEBUG, comp, __VA_ARGS__)
#define EOUS_INFO(comp, ...) eous_log(EOUS_LOG_INFO, comp, __VA_ARGS__)
#define EOUS_WARN(comp, ...) eous_log(EOUS_LOG_WARN, comp, __VA_ARGS__)
#define EOUS_ERROR(comp, ...) eous_log(EOUS_LOG_ERROR, comp, __VA_ARGS__)

/* Registers a secret value (copied); values shorter than 4 bytes are refused
 * (returns -1) since redacting them would mangle ordinary text. */
int eous_redact_add(const char *secret);
/* Adds a query parameter name whose values are credentials (beside key,
 * token, api_key, access_token, auth, sig, …), matched regardless of case;
 * -1 for an empty name or one holding = & ? # or spaces.  eous_redact_clear
 * forgets these too. */
int eous_redact_add_param(const char *name);
void eous_redact_clear(void);
/* Returns a malloc'd copy of text with every registered secret replaced by
 * "[redacted]" (caller frees); NULL only when out of memory. */
char *eous_redact(const char *text);
/* 1 when text contains any registered secret. */
int eous_redact_contains(const char *text);

#endif

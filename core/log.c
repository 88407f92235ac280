/* core/log.c — see log.h. */
#include "core/log.h"

#include "core/text.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/buf.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static eous_log_level log_level = EOUS_LOG_WARN;
static int log_json;
static FILE *log_out;

static pthread_mutex_t redact_lock = PTHREAD_MUTEX_INITIALIZER;
static char **secrets;
static size_t n_secrets;
/* Credential query parameter names a policy file adds ("redact_params"), under redact_lock. */
static char **extra_params;
static size_t n_extra_params;

void eous_log_configure(eous_log_level level, int json_lines, FILE *out)
{
    pthread_mutex_lock(&log_lock);
    log_level = level;
    log_json = json_lines;
    log_out = out;
    pthread_mutex_unlock(&log_lock);
}

eous_log_level eous_log_level_get(void)
{
    return log_level;
}

int eous_log_level_parse(const char *s)
{
    static const char *names[] = {"debug", "info", "warn", "error", "off"};
    for (int i = 0; i < 5; i++)
        if (s && strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

void eous_log(eous_log_level level, const char *component, const char *fmt, ...)
{
    static const char *names[] = {"debug", "info", "warn", "error", "off"};
    if (level < log_level || level >= EOUS_LOG_OFF)
        return;
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    char *clean = eous_redact(msg);
    const char *text = clean ? clean : "[log line dropped: out of memory]";

    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[40];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);

    pthread_mutex_lock(&log_lock);
    FILE *out = log_out ? log_out : stderr;
    if (log_json) {
        eous_buf b;
        eous_buf_init(&b, 0);
        eous_buf_printf(&b, NULL, "{\"ts\":\"%s.%03ldZ\",\"level\":\"%s\",\"component\":\"", when,
                        ts.tv_nsec / 1000000, names[level]);
        eous_buf_put_json_escaped(&b, component ? component : "", NULL);
        eous_buf_puts(&b, "\",\"msg\":\"", NULL);
        eous_buf_put_json_escaped(&b, text, NULL);
        eous_buf_puts(&b, "\"}\n", NULL);
        if (b.data)
            fputs(b.data, out);
        eous_buf_free(&b);
    } else {
        fprintf(out, "eous: %s: %s%s%s\n", names[level], component ? component : "",
                component ? ": " : "", text);
    }
    fflush(out);
    pthread_mutex_unlock(&log_lock);
    free(clean);
}

int eous_redact_add(const char *secret)
{
    if (!secret || strlen(secret) < 4)
        return -1;
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_secrets; i++) {
        if (strcmp(secrets[i], secret) == 0) {
            pthread_mutex_unlock(&redact_lock);
            return 0;
        }
    }
    char **grown = realloc(secrets, (n_secrets + 1) * sizeof *secrets);
    char *copy = strdup(secret);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            secrets = grown;
        pthread_mutex_unlock(&redact_lock);
        return -1;
    }
    secrets = grown;
    secrets[n_secrets++] = copy;
    pthread_mutex_unlock(&redact_lock);
    return 0;
}

void eous_redact_clear(void)
{
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_secrets; i++) {
        eous_wipe_free(secrets[i]);
    }
    free(secrets);
    secrets = NULL;
    n_secrets = 0;
    for (size_t i = 0; i < n_extra_params; i++)
        free(extra_params[i]);
    free(extra_params);
    extra_params = NULL;
    n_extra_params = 0;
    pthread_mutex_unlock(&redact_lock);
}

/* Query parameters that carry a credential in a URL (a feed key, an OAuth token, a signed URL's
 * signature): their values are redacted wherever a URL is printed, as secrets are. */
static const char *const credential_params[] = {"key", "token", "api_key", "apikey", "access_token", "auth", "sig",
                                                "signature", "password"};

int eous_redact_add_param(const char *name)
{
    if (!name || !*name || strpbrk(name, "=&?# \t\r\n"))
        return -1;
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_extra_params; i++) {
        if (!strcasecmp(extra_params[i], name)) {
            pthread_mutex_unlock(&redact_lock);
            return 0;
        }
    }
    char **grown = realloc(extra_params, (n_extra_params + 1) * sizeof *extra_params);
    char *copy = strdup(name);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            extra_params = grown;
        pthread_mutex_unlock(&redact_lock);
        return -1;
    }
    extra_params = grown;
    extra_params[n_extra_params++] = copy;
    pthread_mutex_unlock(&redact_lock);
    return 0;
}

/* Length of "name=" at p when name is one of names, else 0. */
static size_t param_named(const char *p, const char *const *names, size_t n_names)
{
    for (size_t i = 0; i < n_names; i++) {
        size_t n = strlen(names[i]);
        if (!strncasecmp(p, names[i], n) && p[n] == '=')
            return n + 1;
    }
    return 0;
}

/* Length of "?name=" / "&name=" at p when name is a credential parameter, else 0 (redact_lock held). */
static size_t credential_param_at(const char *p)
{
    if (*p != '?' && *p != '&')
        return 0;
    size_t n = param_named(p + 1, credential_params, sizeof credential_params / sizeof *credential_params);
    if (!n)
        n = param_named(p + 1, (const char *const *)extra_params, n_extra_params);
    return n ? n + 1 : 0;
}

/* Where a URL's query value ends. */
static const char *param_value_end(const char *v)
{
    while (*v && !strchr("&#\"' \t\r\n<>)]|", *v))
        v++;
    return v;
}

char *eous_redact(const char *text)
{
    if (!text)
        text = "";
    eous_buf out;
    eous_buf_init(&out, 0);
    pthread_mutex_lock(&redact_lock);
    const char *p = text;
    while (*p) {
        size_t best = 0;
        for (size_t i = 0; i < n_secrets; i++) {
            size_t n = strlen(secrets[i]);
            if (n > best && strncmp(p, secrets[i], n) == 0)
                best = n;
        }
        size_t param = best ? 0 : credential_param_at(p);
        if (best) {
            if (eous_buf_puts(&out, "[redacted]", NULL))
                goto oom;
            p += best;
        } else if (param && *param_value_end(p + param) != *(p + param)) {
            if (eous_buf_append(&out, p, param, NULL) || eous_buf_puts(&out, "[redacted]", NULL))
                goto oom;
            p = param_value_end(p + param);
        } else {
            if (eous_buf_putc(&out, *p, NULL))
                goto oom;
            p++;
        }
    }
    pthread_mutex_unlock(&redact_lock);
    return eous_buf_steal(&out);
oom:
    pthread_mutex_unlock(&redact_lock);
    eous_buf_free(&out);
    return NULL;
}

int eous_redact_contains(const char *text)
{
    int found = 0;
    if (!text)
        return 0;
    pthread_mutex_lock(&redact_lock);
    for (size_t i = 0; i < n_secrets && !found; i++)
        found = strstr(text, secrets[i]) != NULL;
    pthread_mutex_unlock(&redact_lock);
    return found;
}

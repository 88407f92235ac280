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

/* core/buf.c — see buf.h. */
#include "core/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void eous_buf_init(eous_buf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max ? max : EOUS_BUF_DEFAULT_MAX;
    b->failed = EOUS_OK;
}

static eous_rc reserve(eous_buf *b, size_t extra, eous_err *err)
{
    if (b->failed)
        return eous_err_set(err, b->failed, "an earlier append to this buffer failed");
    if (b->max == 0)
        b->max = EOUS_BUF_DEFAULT_MAX;
    if (extra > b->max - b->len)
        return b->failed = eous_err_set(err, EOUS_E_LIMIT,
                                        "buffer limit of %zu bytes exceeded (had %zu, adding %zu)",
                                        b->max, b->len, extra);
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return EOUS_OK;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    char *p = realloc(b->data, ncap);
    if (!p)
        return b->failed = eous_err_set(err, EOUS_E_NOMEM, "out of memory growing a buffer to %zu bytes", ncap);
    b->data = p;
    b->cap = ncap;
    return EOUS_OK;
}

eous_rc eous_buf_append(eous_buf *b, const void *p, size_t n, eous_err *err)
{
    eous_rc rc = reserve(b, n, err);
    if (rc)
        return rc;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return EOUS_OK;
}

eous_rc eous_buf_puts(eous_buf *b, const char *s, eous_err *err)
{
    return eous_buf_append(b, s, strlen(s), err);
}

eous_rc eous_buf_putc(eous_buf *b, char c, eous_err *err)
{
    return eous_buf_append(b, &c, 1, err);
}

eous_rc eous_buf_printf(eous_buf *b, eous_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return b->failed = eous_err_set(err, EOUS_E_INVALID, "bad format string");
    eous_rc rc = reserve(b, (size_t)n, err);
    if (rc)
        return rc;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return EOUS_OK;
}

eous_rc eous_buf_put_json_escaped(eous_buf *b, const char *s, eous_err *err)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    const unsigned char *run = u;
    eous_rc rc;
    for (; *u; u++) {
        const char *rep = NULL;
        char esc[7];
        switch (*u) {
        case '"': rep = "\\\""; break;
        case '\\': rep = "\\\\"; break;
        case '\n': rep = "\\n"; break;
        case '\r': rep = "\\r"; break;
        case '\t': rep = "\\t"; break;
        default:
            if (*u < 0x20) {
                esc[0] = '\\'; esc[1] = 'u'; esc[2] = '0'; esc[3] = '0';
                esc[4] = hex[*u >> 4]; esc[5] = hex[*u & 15]; esc[6] = 0;
                rep = esc;
            }
        }
        if (rep) {
            if ((rc = eous_buf_append(b, run, (size_t)(u - run), err)) ||
                (rc = eous_buf_puts(b, rep, err)))
                return rc;
            run = u + 1;
        }
    }
    return eous_buf_append(b, run, (size_t)(u - run), err);
}

void eous_buf_reset(eous_buf *b)
{
    b->len = 0;
    b->failed = EOUS_OK;
    if (b->data)
        b->data[0] = '\0';
}

char *eous_buf_steal(eous_buf *b)
{
    char *p = b->data;
    if (!p)
        p = calloc(1, 1);
    size_t max = b->max;
    eous_buf_init(b, max);
    return p;
}

void eous_buf_free(eous_buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = EOUS_OK;
}

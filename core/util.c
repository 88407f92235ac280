/* core/util.c — see util.h. */
#define _GNU_SOURCE
#include "core/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double eous_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

void eous_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

int eous_which(const char *name, char *out, size_t out_size)
{
    if (!name || !*name)
        return 0;
    if (strchr(name, '/')) {
        snprintf(out, out_size, "%s", name);
        return access(name, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(out, out_size, "%.*s/%s", (int)n, path, name);
        struct stat st;
        if (n && stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
            return 1;
        path += n + (colon ? 1 : 0);
    }
    out[0] = '\0';
    return 0;
}

eous_rc eous_mkdirs(const char *path, unsigned mode, eous_err *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
        return eous_err_set(err, EOUS_E_INVALID, "%s: path too long", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, mode) != 0 && errno != EEXIST)
                return eous_err_set(err, EOUS_E_IO, "%s: cannot create directory: %s", tmp, strerror(errno));
            *p = '/';
        }
    }
    if (mkdir(tmp, mode) != 0 && errno != EEXIST)
        return eous_err_set(err, EOUS_E_IO, "%s: cannot create directory: %s", tmp, strerror(errno));
    return EOUS_OK;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

eous_rc eous_rmtree(const char *path)
{
    if (!path || !*path || strcmp(path, "/") == 0)
        return EOUS_E_INVALID;
    nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
    return EOUS_OK;
}

int eous_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

char *eous_strdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

int eous_starts_with(const char *s, const char *prefix)
{
    return s && prefix && strncmp(s, prefix, strlen(prefix)) == 0;
}

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

eous_rc eous_base64_decode(const char *in, unsigned char **out, size_t *out_len, eous_err *err)
{
    size_t n = strlen(in);
    unsigned char *buf = malloc(n / 4 * 3 + 4);
    if (!buf)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory decoding base64");
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)in[i];
        if (c == '=' )
            break;
        if (c == '\n' || c == '\r' || c == ' ')
            continue;
        int v = b64val(c);
        if (v < 0) {
            free(buf);
            return eous_err_set(err, EOUS_E_PARSE, "invalid base64 character at offset %zu", i);
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[o++] = (unsigned char)((acc >> bits) & 0xff);
        }
    }
    *out = buf;
    *out_len = o;
    return EOUS_OK;
}

char *eous_base64_encode(const unsigned char *p, size_t n)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *o++ = tbl[v >> 18 & 63], *o++ = tbl[v >> 12 & 63], *o++ = tbl[v >> 6 & 63], *o++ = tbl[v & 63];
    }
    if (i < n) { /* one or two bytes left: padded to four characters */
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *o++ = tbl[v >> 18 & 63], *o++ = tbl[v >> 12 & 63];
        *o++ = i + 1 < n ? tbl[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    *o = '\0';
    return out;
}

void eous_hash_hex(const void *data, size_t len, char out[17])
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

eous_rc eous_append_line(int fd, const char *line, const char *what, eous_err *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return eous_err_set(err, EOUS_E_IO, "%s: cannot append: %s", what, strerror(errno));
    size_t n = strlen(line);
    char *buf = malloc(n + 1);
    if (!buf)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    memcpy(buf, line, n);
    buf[n] = '\n';
    /* one write() keeps lines whole with concurrent writers; O_APPEND */
    ssize_t w;
    do
        w = write(fd, buf, n + 1);
    while (w < 0 && errno == EINTR);
    int saved = w < 0 ? errno : ENOSPC; /* a short write is a full disk or a size limit */
    free(buf);
    if (w == (ssize_t)(n + 1) && fsync(fd) == 0)
        return EOUS_OK;
    if (w == (ssize_t)(n + 1))
        saved = errno;
    if (w > 0 && ftruncate(fd, st.st_size) != 0)
        return eous_err_set(err, EOUS_E_IO, "%s: write failed (%s) and a torn line is left: %s", what,
                            strerror(saved), strerror(errno));
    return eous_err_set(err, EOUS_E_IO, "%s: write failed: %s", what, strerror(saved));
}


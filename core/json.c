/* core/json.c — see json.h. */
#include "core/json.h"

#include "core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"

static void locate(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

cJSON *eous_json_parse(const char *text, size_t len, const char *what, eous_err *err)
{
    const char *end = NULL;
    if (!text)
        text = "";
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t off;
    if (root) {
        off = (size_t)(end - text);
        while (off < len && (text[off] == ' ' || text[off] == '\n' || text[off] == '\r' ||
                             text[off] == '\t' || text[off] == '\0'))
            off++;
        if (off >= len)
            return root;
        cJSON_Delete(root);
    } else {
        off = end ? (size_t)(end - text) : 0;
        if (off > len)
            off = len;
    }
    int line, col;
    locate(text, off, &line, &col);
    char near[24] = "";
    size_t n = 0;
    for (size_t i = off; i < len && n < 16; i++)
        near[n++] = (text[i] >= 0x20 && text[i] < 0x7f) ? text[i] : ' ';
    near[n] = '\0';
    if (len == 0)
        eous_err_set(err, EOUS_E_PARSE, "%s: empty input, expected JSON", what ? what : "input");
    else if (root == NULL && off >= len)
        eous_err_set(err, EOUS_E_PARSE, "%s: invalid JSON at line %d, column %d: unexpected end of input",
                     what ? what : "input", line, col);
    else
        eous_err_set(err, EOUS_E_PARSE, "%s: invalid JSON at line %d, column %d (near '%s')",
                     what ? what : "input", line, col, near);
    return NULL;
}

eous_rc eous_read_file(const char *path, size_t max_bytes, char **out, size_t *out_len, eous_err *err)
{
    *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!max_bytes)
        max_bytes = 64u * 1024 * 1024;
    FILE *f = fopen(path, "rb");
    if (!f)
        return eous_err_set(err, errno == ENOENT ? EOUS_E_INVALID : EOUS_E_IO,
                            "%s: cannot open: %s", path, strerror(errno));
    eous_buf b;
    eous_buf_init(&b, max_bytes);
    char chunk[65536];
    size_t n;
    eous_rc rc = EOUS_OK;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if ((rc = eous_buf_append(&b, chunk, n, err))) {
            eous_err_prefix(err, "%s", path);
            break;
        }
    }
    if (!rc && ferror(f))
        rc = eous_err_set(err, EOUS_E_IO, "%s: read error", path);
    fclose(f);
    if (rc) {
        eous_buf_free(&b);
        return rc;
    }
    if (out_len)
        *out_len = b.len;
    *out = eous_buf_steal(&b);
    return EOUS_OK;
}

cJSON *eous_json_parse_file(const char *path, size_t max_bytes, eous_err *err)
{
    char *text;
    size_t len;
    if (eous_read_file(path, max_bytes, &text, &len, err))
        return NULL;
    cJSON *root = eous_json_parse(text, len, path, err);
    free(text);
    return root;
}

eous_rc eous_write_file_atomic(const char *path, const void *data, size_t len, eous_err *err)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        eous_rc rc = eous_err_set(err, EOUS_E_IO, "%s: cannot create: %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            eous_rc rc = eous_err_set(err, EOUS_E_IO, "%s: write failed: %s", path, strerror(errno));
            close(fd);
            unlink(tmp);
            free(tmp);
            return rc;
        }
        p += w;
        left -= (size_t)w;
    }
    fchmod(fd, 0644);
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        eous_rc rc = eous_err_set(err, EOUS_E_IO, "%s: cannot write: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return rc;
    }
    free(tmp);
    return EOUS_OK;
}

const char *eous_json_str(const cJSON *obj, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

double eous_json_num(const cJSON *obj, const char *key, double dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(it) ? it->valuedouble : dflt;
}

int eous_json_int(const cJSON *obj, const char *key, int dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(it) ? it->valueint : dflt;
}

int eous_json_bool(const cJSON *obj, const char *key, int dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsBool(it))
        return cJSON_IsTrue(it);
    return dflt;
}

const cJSON *eous_json_obj(const cJSON *obj, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsObject(it) ? it : NULL;
}

const cJSON *eous_json_arr(const cJSON *obj, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsArray(it) ? it : NULL;
}

char *eous_json_print(const cJSON *item)
{
    char *s = cJSON_PrintUnformatted(item);
    /* a page's bytes (or a cut we did not make) must not make the line
     * invalid JSON text for the strict readers (model APIs, python json) */
    eous_utf8_scrub(s);
    return s;
}

const char *eous_json_type_name(const cJSON *item)
{
    if (!item || cJSON_IsInvalid(item))
        return "nothing";
    if (cJSON_IsNull(item))
        return "null";
    if (cJSON_IsBool(item))
        return "boolean";
    if (cJSON_IsNumber(item))
        return "number";
    if (cJSON_IsString(item))
        return "string";
    if (cJSON_IsArray(item))
        return "array";
    if (cJSON_IsObject(item))
        return "object";
    return "raw";
}

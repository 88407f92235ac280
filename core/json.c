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

/* ---- strict protocol messages ---------------------------------------------- */

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The end of the JSON number at t[i..), or 0 when RFC 8259's grammar refuses
 * it (cJSON takes "01", "1." and "-.5" through strtod). */
static size_t number_end(const char *t, size_t i, size_t len)
{
    if (i < len && t[i] == '-')
        i++;
    if (i >= len || !is_digit(t[i]))
        return 0;
    if (t[i] == '0')
        i++;
    else
        while (i < len && is_digit(t[i]))
            i++;
    if (i < len && t[i] == '.') {
        size_t d = ++i;
        while (i < len && is_digit(t[i]))
            i++;
        if (i == d)
            return 0;
    }
    if (i < len && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < len && (t[i] == '+' || t[i] == '-'))
            i++;
        size_t d = i;
        while (i < len && is_digit(t[i]))
            i++;
        if (i == d)
            return 0;
    }
    if (i < len && (is_digit(t[i]) || t[i] == '.' || t[i] == 'e' || t[i] == 'E' || t[i] == '+' || t[i] == '-'))
        return 0;
    return i;
}

/* The end of the string literal opening at t[i] (past its closing quote), or
 * 0 at a raw control character; *nul set when it holds \u0000. */
static size_t string_end(const char *t, size_t i, size_t len, int *nul)
{
    for (i++; i < len; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '"')
            return i + 1;
        if (c < 0x20)
            return 0;
        if (c == '\\' && i + 1 < len) {
            if (t[i + 1] == 'u' && i + 5 < len && !strncmp(t + i + 2, "0000", 4))
                *nul = 1;
            i++; /* the escaped character; \uXXXX's digits are plain characters */
        }
    }
    return 0;
}

/* 1 when the string literal t[a..b) decodes to key (escapes included: "\u0069d" is "id"). */
static int literal_is(const char *t, size_t a, size_t b, const char *key)
{
    cJSON *s = cJSON_ParseWithLength(t + a, b - a);
    int same = cJSON_IsString(s) && !strcmp(s->valuestring, key);
    cJSON_Delete(s);
    return same;
}

/* Walks text[0..len) (a value cJSON parsed): strings and numbers as RFC 8259
 * has them; the span of the top-level member id_key's number in *id_a..*id_b
 * (0, 0 when none).  The offset of the first bad byte, or len when all good. */
static size_t scan_message(const char *t, size_t len, const char *id_key, int *nul, size_t *id_a, size_t *id_b)
{
    int depth = 0, top_object = 0, seen_id = 0;
    *id_a = *id_b = 0;
    for (size_t i = 0; i < len;) {
        char c = t[i];
        if (c == '"') {
            size_t e = string_end(t, i, len, nul);
            if (!e)
                return i;
            size_t k = e;
            while (k < len && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r'))
                k++;
            if (id_key && !seen_id && depth == 1 && top_object && k < len && t[k] == ':' &&
                literal_is(t, i, e, id_key)) {
                seen_id = 1; /* the first, as cJSON_GetObjectItemCaseSensitive finds it */
                for (k++; k < len && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r');)
                    k++;
                size_t n = k < len && (t[k] == '-' || is_digit(t[k])) ? number_end(t, k, len) : 0;
                if (n)
                    *id_a = k, *id_b = n;
            }
            i = e;
        } else if (c == '-' || is_digit(c)) {
            size_t e = number_end(t, i, len);
            if (!e)
                return i;
            i = e;
        } else {
            if (c == '{' || c == '[') {
                if (depth++ == 0)
                    top_object = c == '{';
            } else if (c == '}' || c == ']') {
                depth--;
            }
            i++;
        }
    }
    return len;
}

cJSON *eous_json_parse_message(const char *text, size_t len, const char *id_key, size_t *error_at, int *nul)
{
    *error_at = 0;
    *nul = 0;
    if (!text)
        text = "";
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        *error_at = end && end >= text && (size_t)(end - text) <= len ? (size_t)(end - text) : 0;
        return NULL;
    }
    size_t used = (size_t)(end - text), off = used;
    /* only JSON's whitespace may follow: "{...}garbage" is not a message */
    while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\n' || text[off] == '\r'))
        off++;
    size_t id_a = 0, id_b = 0;
    size_t bad = off < len ? off : scan_message(text, used, id_key, nul, &id_a, &id_b);
    if (bad < len && (off < len || bad < used)) {
        *error_at = bad;
        cJSON_Delete(root);
        return NULL;
    }
    cJSON *id = id_b ? cJSON_GetObjectItemCaseSensitive(root, id_key) : NULL;
    if (cJSON_IsNumber(id)) {
        /* an id is echoed as sent: a number cJSON would print otherwise (too
         * large for a double's digits, 1e400, 1.0) stays its own text */
        char *as_sent = strndup(text + id_a, id_b - id_a), *printed = cJSON_PrintUnformatted(id);
        cJSON *raw = as_sent && printed && strcmp(as_sent, printed) ? cJSON_CreateRaw(as_sent) : NULL;
        if (raw && !cJSON_ReplaceItemInObjectCaseSensitive(root, id_key, raw))
            cJSON_Delete(raw);
        free(as_sent);
        free(printed);
    }
    return root;
}

static void wipe_strings(cJSON *v)
{
    for (; v; v = v->next) {
        if (cJSON_IsString(v))
            eous_wipe_str(v->valuestring);
        wipe_strings(v->child);
    }
}

void eous_json_wipe_free(cJSON *v)
{
    if (!v)
        return;
    if (cJSON_IsString(v))
        eous_wipe_str(v->valuestring);
    wipe_strings(v->child);
    cJSON_Delete(v);
}

/* core/json.h — helpers over cJSON that say where input broke.
 *
 * Parsed trees are owned by the caller and freed with cJSON_Delete.  Getter
 * functions borrow: returned strings live as long as the tree. */
#ifndef EOUS_CORE_JSON_H
#define EOUS_CORE_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/err.h"
#include "core/text.h"

/* Parses text[0..len).  On failure sets EOUS_E_PARSE with
 * "WHAT: invalid JSON at line L, column C (near '...')".  Trailing non-space
 * garbage after the value is an error too. */
cJSON *eous_json_parse(const char *text, size_t len, const char *what, eous_err *err);
/* Parses one protocol message (JSON-RPC) strictly: only JSON whitespace may
 * follow the value, numbers follow RFC 8259's grammar and strings hold no raw
 * control character (cJSON takes all three).  The top-level member id_key
 * (NULL: none), when a number cJSON would print otherwise
 * (12345678901234567890123, 1e400, 1.0), becomes a raw node holding the text
 * as sent, so an answer echoes it exactly.  Returns the tree (caller frees),
 * or NULL with *error_at the offset where the text broke.  *nul is set, the
 * tree still returned, when a string holds \u0000: a C string ends there
 * ("ping\u0000x" would read as "ping"), so the caller refuses the message. */
cJSON *eous_json_parse_message(const char *text, size_t len, const char *id_key, size_t *error_at, int *nul);
/* Reads and parses a file; errors name the path.  max_bytes 0 = 64 MiB. */
cJSON *eous_json_parse_file(const char *path, size_t max_bytes, eous_err *err);

/* Reads a whole file into a NUL-terminated malloc'd buffer (caller frees). */
eous_rc eous_read_file(const char *path, size_t max_bytes, char **out, size_t *out_len, eous_err *err);
/* Writes a file atomically (temp file + rename) so readers never see half of it. */
eous_rc eous_write_file_atomic(const char *path, const void *data, size_t len, eous_err *err);

/* Case-sensitive getters; NULL / dflt when absent or of another type. */
const char *eous_json_str(const cJSON *obj, const char *key);
double eous_json_num(const cJSON *obj, const char *key, double dflt);
int eous_json_int(const cJSON *obj, const char *key, int dflt);
int eous_json_bool(const cJSON *obj, const char *key, int dflt);
const cJSON *eous_json_obj(const cJSON *obj, const char *key);
const cJSON *eous_json_arr(const cJSON *obj, const char *key);

/* Compact serialisation; caller frees with free().  NULL when out of memory.
 * Invalid UTF-8 bytes (from a page, or a byte cut) become '?', so the text
 * is valid JSON for strict readers. */
char *eous_json_print(const cJSON *item);

/* Deletes v after wiping every string in it (eous_wipe_str): JSON that held typed text or a secret's
 * value (input events, a call's params).  NULL is fine. */
void eous_json_wipe_free(cJSON *v);

/* Name of a node's JSON type: "string", "number", "object", ... */
const char *eous_json_type_name(const cJSON *item);

#endif

/* llm/bill.c — what a provider bills for one request, counted by eous.
 *
 * A request is read as pieces in the order providers put them in front of
 * the model (and cache them): each tool schema, the system prompt, each
 * message.  A piece's tokens are o200k_base tokens (core/tokenize.h) of its
 * text, plus framing:
 *   - a tool schema: OpenAI's published count for function definitions (the
 *     tiktoken cookbook: 7 per function, name:description, 3 + 3 per
 *     property with name:type:description, enum items at 3 each, 12 at the
 *     end); Anthropic's compact JSON (its rendering is not published);
 *   - the system prompt and each message: the strings it carries (text,
 *     tool-call names and arguments, tool results) + 3 tokens of framing,
 *     OpenAI's published rule for chat messages; +3 once for the reply's
 *     priming;
 *   - an image: OpenAI 85 at detail low, else 85 + 170 per 512-px tile after
 *     fitting 2048x2048 and a shortest side of 768; Anthropic width*height/750.
 * Structural strings (role, type, ids) are not counted.  The prefix a
 * provider's cache can serve is the run of leading pieces equal to the
 * previous request's (cache_control markers aside).  Counts are exact for
 * o200k models' text and an estimate of framing; the provider's own usage
 * stays in prompt_tokens. */
#define _GNU_SOURCE
#include "llm/llm_int.h"

#include "core/tokenize.h"

#include <stdlib.h>
#include <string.h>

#define MESSAGE_FRAMING 3
#define REPLY_PRIMING 3

void llm_bill_clear(llm_bill *b)
{
    free(b->pieces);
    memset(b, 0, sizeof *b);
}

static int structural_key(const char *k)
{
    static const char *const keys[] = {"role", "type", "id", "tool_call_id", "tool_use_id", "cache_control",
                                       "detail", "media_type"};
    if (!k)
        return 0;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(k, keys[i]))
            return 1;
    return 0;
}

static long text_tokens(const char *s)
{
    return s ? (long)eous_tok_count_o200k(s, strlen(s)) : 0;
}

/* Width and height from a PNG's IHDR, given its base64 (the first 32 characters
 * hold the 24 bytes needed); 0 when it is not a PNG. */
static int png_size_b64(const char *b64, long *w, long *h)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char bytes[24];
    size_t nb = 0;
    unsigned acc = 0;
    int bits = 0;
    for (const char *p = b64; *p && nb < sizeof bytes; p++) {
        const char *at = strchr(alphabet, *p);
        if (!at || !*p)
            return 0;
        acc = (acc << 6) | (unsigned)(at - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes[nb++] = (unsigned char)(acc >> bits);
        }
    }
    if (nb < 24 || memcmp(bytes, "\x89PNG", 4))
        return 0;
    *w = (long)bytes[16] << 24 | (long)bytes[17] << 16 | (long)bytes[18] << 8 | bytes[19];
    *h = (long)bytes[20] << 24 | (long)bytes[21] << 16 | (long)bytes[22] << 8 | bytes[23];
    return *w > 0 && *h > 0;
}

static long image_tokens(llm_provider p, const char *b64, const char *detail)
{
    long w = 0, h = 0;
    if (!b64 || !png_size_b64(b64, &w, &h))
        return 0;
    if (p == LLM_ANTHROPIC)
        return (w * h + 749) / 750;
    if (detail && !strcmp(detail, "low"))
        return 85;
    double sw = (double)w, sh = (double)h;
    if (sw > 2048 || sh > 2048) {
        double k = 2048 / (sw > sh ? sw : sh);
        sw *= k;
        sh *= k;
    }
    double shortest = sw < sh ? sw : sh;
    if (shortest > 768) {
        sw *= 768 / shortest;
        sh *= 768 / shortest;
    }
    long tiles = (long)((sw + 511) / 512) * (long)((sh + 511) / 512);
    return 85 + 170 * tiles;
}

/* Tokens of every countable string under node; images by the provider's rule. */
static long node_tokens(llm_provider p, const cJSON *node)
{
    long n = 0;
    for (const cJSON *it = node->child; it; it = it->next) {
        if (structural_key(it->string))
            continue;
        if (cJSON_IsString(it)) {
            const char *s = it->valuestring;
            if (!strncmp(s, "data:image/", 11)) { /* OpenAI image_url.url */
                const char *comma = strchr(s, ',');
                n += image_tokens(p, comma ? comma + 1 : NULL, eous_json_str(node, "detail"));
            } else if (it->string && !strcmp(it->string, "data") && eous_json_str(node, "media_type")) {
                n += image_tokens(p, s, NULL); /* Anthropic source.data */
            } else {
                n += text_tokens(s);
            }
        } else if (cJSON_IsObject(it) || cJSON_IsArray(it)) {
            n += node_tokens(p, it);
        }
    }
    return n;
}

/* Removes every member named key, at any depth. */
static void strip_key(cJSON *node, const char *key)
{
    for (cJSON *it = node ? node->child : NULL; it;) {
        cJSON *next = it->next;
        if (it->string && !strcmp(it->string, key))
            cJSON_Delete(cJSON_DetachItemViaPointer(node, it));
        else
            strip_key(it, key);
        it = next;
    }
}

/* The piece's identity: its compact JSON without cache_control markers. */
static void piece_hash(const cJSON *piece, char out[17])
{
    cJSON *copy = cJSON_Duplicate(piece, 1);
    char *text = NULL;
    if (copy) {
        strip_key(copy, "cache_control");
        text = cJSON_PrintUnformatted(copy);
    }
    eous_hash_hex(text ? text : "", text ? strlen(text) : 0, out);
    cJSON_free(text);
    cJSON_Delete(copy);
}

static int add_piece(llm_bill *b, const cJSON *piece, long tokens, int fixed)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        llm_bill_piece *np = realloc(b->pieces, cap * sizeof *np);
        if (!np)
            return -1;
        b->pieces = np;
        b->cap = cap;
    }
    llm_bill_piece *pc = &b->pieces[b->n++];
    piece_hash(piece, pc->hash);
    pc->tokens = tokens;
    b->total += tokens;
    if (fixed)
        b->fixed += tokens;
    return 0;
}

/* "a:b" or "a:b:c" without the description's final full stop, as the cookbook writes it. */
static long line_tokens(const char *a, const char *b, const char *c)
{
    char *line = NULL;
    const char *last = c ? c : b;
    size_t n = last ? strlen(last) : 0;
    int cut = n && last[n - 1] == '.';
    int r = c ? asprintf(&line, "%s:%s:%.*s", a, b ? b : "", (int)(n - (size_t)cut), c)
              : asprintf(&line, "%s:%.*s", a, (int)(n - (size_t)cut), b ? b : "");
    long t = r < 0 ? 0 : text_tokens(line);
    free(line);
    return t;
}

/* OpenAI's count for one {"type":"function","function":{...}} tool. */
static long openai_tool_tokens(const cJSON *tool)
{
    const cJSON *fn = eous_json_obj(tool, "function");
    const char *name = eous_json_str(fn, "name");
    long n = 7 + line_tokens(name ? name : "", eous_json_str(fn, "description"), NULL);
    const cJSON *props = eous_json_obj(eous_json_obj(fn, "parameters"), "properties");
    if (props && props->child)
        n += 3;
    for (const cJSON *p = props ? props->child : NULL; p; p = p->next) {
        n += 3;
        const cJSON *e;
        if (eous_json_arr(p, "enum"))
            n -= 3;
        cJSON_ArrayForEach(e, eous_json_arr(p, "enum"))
            n += 3 + (cJSON_IsString(e) ? text_tokens(e->valuestring) : 1);
        const char *pd = eous_json_str(p, "description");
        n += line_tokens(p->string, eous_json_str(p, "type"), pd ? pd : "");
    }
    return n;
}

long llm_bill_message_tokens(llm_provider p, const cJSON *msg)
{
    return node_tokens(p, msg) + MESSAGE_FRAMING;
}

eous_rc llm_bill_count(llm_provider p, const cJSON *body, llm_bill *out, eous_err *err)
{
    llm_bill_clear(out);
    int bad = 0;
    const cJSON *it;
    int n_tools = 0;
    cJSON_ArrayForEach(it, eous_json_arr(body, "tools")) {
        long t = 0;
        if (p == LLM_OPENAI) {
            t = openai_tool_tokens(it) + (++n_tools == cJSON_GetArraySize(eous_json_arr(body, "tools")) ? 12 : 0);
        } else {
            char *text = cJSON_PrintUnformatted(it);
            bad |= !text;
            t = text_tokens(text);
            cJSON_free(text);
        }
        bad |= add_piece(out, it, t, 1);
    }
    const cJSON *system = cJSON_GetObjectItemCaseSensitive(body, "system");
    if (system) { /* Anthropic: a string or text blocks */
        long t = cJSON_IsString(system) ? text_tokens(system->valuestring) : node_tokens(p, system);
        bad |= add_piece(out, system, t + MESSAGE_FRAMING, 1);
    }
    cJSON_ArrayForEach(it, eous_json_arr(body, "messages")) {
        const char *role = eous_json_str(it, "role");
        bad |= add_piece(out, it, llm_bill_message_tokens(p, it), role && !strcmp(role, "system"));
    }
    out->total += REPLY_PRIMING;
    if (bad) {
        llm_bill_clear(out);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    return EOUS_OK;
}

long llm_bill_shared_prefix(const llm_bill *prev, const llm_bill *cur)
{
    long n = 0;
    for (size_t i = 0; prev && i < prev->n && i < cur->n; i++) {
        if (strcmp(prev->pieces[i].hash, cur->pieces[i].hash))
            break;
        n += cur->pieces[i].tokens;
    }
    return n;
}

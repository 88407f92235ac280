/* llm/llm_int.h — what only the llm/ files share (not installed API). */
#ifndef EOUS_LLM_INT_H
#define EOUS_LLM_INT_H

#include <stdint.h>

#include "llm/llm.h"

typedef enum llm_provider { LLM_OPENAI = 0, LLM_ANTHROPIC } llm_provider;

#define LLM_MAX_RESPONSE ((size_t)16 * 1024 * 1024)

/* ---- client.c ---- */
/* A provider response (already parsed) → usage and an action, exactly as
 * llm_next_action does after the exchange; for fuzzing and tools. */
eous_rc llm_response_to_action(llm_client *c, const cJSON *root, act_action *out, llm_usage *u, eous_err *err);

/* ---- batch.c ---- */
/* The reply's tool calls as a turn (*out NULL when it made none). */
eous_rc llm_turn_from_response(llm_provider p, const cJSON *root, llm_turn **out, eous_err *err);
/* Appends the turn's results (t may be NULL: none) and then a user message
 * with the step's content (a string, or an array of parts with a vision
 * image; taken over) to msgs, in provider p's shape. */
eous_rc llm_turn_add_results(llm_provider p, const llm_turn *t, cJSON *msgs, cJSON *user, eous_err *err);
/* The reply as the provider sent it (borrowed). */
const cJSON *llm_turn_assistant(const llm_turn *t);
/* Several action lines in the last ``` fence (each a WebArena action), else
 * one action by act_parse_text's rules.  Lines beyond cap go to *dropped. */
eous_rc llm_parse_text_actions(const char *text, act_action *out, size_t cap, size_t *n_out, size_t *dropped,
                               eous_err *err);

/* ---- prompt.c ---- */
/* Which actions a mode offers: hybrid adds call(). */
int llm_mode_has_call(perc_mode mode);
/* Tool definitions in the provider's shape (owned by caller). */
/* answer_schema (may be NULL) replaces the stop tool's string answer (WebArena-Verified). */
cJSON *llm_tools_json(llm_provider p, int with_call, const cJSON *answer_schema);

/* ---- bill.c ---- */
/* One request as a provider bills it: its pieces (tool schemas, system
 * prompt, messages) in order with o200k tokens each. */
typedef struct llm_bill_piece {
    char hash[17]; /* the piece's compact JSON, cache_control markers aside */
    long tokens;
} llm_bill_piece;
typedef struct llm_bill {
    llm_bill_piece *pieces; /* owned */
    size_t n, cap;
    long total;  /* every piece and the reply's priming */
    long fixed;  /* tool schemas and system prompt */
} llm_bill;
eous_rc llm_bill_count(llm_provider p, const cJSON *body, llm_bill *out, eous_err *err);
void llm_bill_clear(llm_bill *b);
/* Tokens of the leading pieces cur shares with prev (NULL: none). */
long llm_bill_shared_prefix(const llm_bill *prev, const llm_bill *cur);
/* One message's tokens as llm_bill_count counts them. */
long llm_bill_message_tokens(llm_provider p, const cJSON *msg);

/* ---- conv.c ---- */
/* This request's messages after the system prompt (a new array, caller
 * owns): the conversation so far (none when conv is NULL), the last reply's
 * results (prev) and a user message with content (taken over).  *n_old gets
 * how many came from the conversation. */
cJSON *llm_conv_messages(const llm_conv *conv, llm_provider p, const llm_turn *prev, cJSON *content,
                         size_t *n_old);
/* 1 when the conversation already holds a reply: the user message is a continuation. */
int llm_conv_continuing(const llm_conv *conv);
/* Where the text results of a text reply start in the history (llm_step_input.history), or
 * (size_t)-1 when the last reply was tool calls (its results go as tool results). */
size_t llm_conv_text_results_from(const llm_conv *conv);
/* After a reply parsed: keeps msgs[n_old..] and the reply (assistant message, borrowed) and
 * where the history stands (n_history), for the next request. */
eous_rc llm_conv_commit(llm_conv *conv, llm_provider p, const cJSON *msgs, size_t n_old, const cJSON *assistant,
                        int text_reply, size_t n_history, eous_err *err);
/* Anthropic prompt caching: cache_control on the system prompt and on the last block of the
 * last two user messages (the previous request's end, which its cache holds, and this one's). */
void llm_conv_mark_cache(cJSON *body);

/* ---- image.c ---- */
typedef struct llm_image {
    char *b64;          /* base64 of the PNG (owned) */
    char sha256[72];    /* "sha256:<hex>": what cassettes and their keys hold instead of the bytes */
    char *legend;       /* redacted legend (owned) */
    const char *detail; /* OpenAI's detail, borrowed; NULL = not sent */
} llm_image;
eous_rc llm_image_init(llm_image *img, const unsigned char *png, size_t len, const char *legend, const char *detail,
                       eous_err *err);
void llm_image_clear(llm_image *img);
/* The user message's content with the image: [text, image, legend text] in
 * provider's shape (an llm_provider).  Caller owns the array; NULL out of memory. */
cJSON *llm_image_content(int provider, const char *user, const llm_image *img);
/* The request body as a cassette keys and keeps it: body (printed with
 * llm_image_content) with the image's "sha256:<hex>" in place of its bytes.
 * Caller frees; NULL out of memory or when the image is not in body. */
char *llm_image_key_body(const llm_image *img, int provider, const char *body);

/* ---- http.c ---- */
typedef struct llm_http_opts {
    const char *url;
    const char *const *headers; /* NULL-terminated "Name: value" lines; never logged */
    const char *body;
    const char *ca_file;
    double connect_timeout_ms, request_timeout_ms, total_budget_ms;
    int max_retries;
    const char *provider_name; /* for messages */
} llm_http_opts;

typedef struct llm_http_result {
    long status;
    char *body;          /* malloc'd response body of the final attempt (caller frees) */
    size_t body_len;
    int retries;
    double latency_ms;
} llm_http_result;

/* POST with retries (429, 408, 5xx, 529, connection errors; Retry-After
 * honoured).  Returns OK with any final status the caller must interpret
 * (2xx or a non-retryable 4xx); transport failures, exhausted retries and
 * interruption are errors.  rng is the caller's jitter state. */
struct eous_http;
eous_rc llm_http_post(struct eous_http *http, const llm_http_opts *o, uint64_t *rng, llm_http_result *res, eous_err *err);
/* Error body → "message" and type ("authentication_error"...), from either
 * provider's shape; borrowed from root. */
void llm_error_fields(const cJSON *root, const char **message, const char **type);

/* ---- cassette.c ---- */
typedef struct llm_cassette llm_cassette;
eous_rc llm_cassette_open(const char *path, int mode, llm_cassette **out, eous_err *err);
void llm_cassette_free(llm_cassette *c);
/* Provider and model of the first recorded call (borrowed); 0 when unknown. */
int llm_cassette_recorded_model(const llm_cassette *c, const char **provider, const char **model);
/* Replay: the recorded response text for key (borrowed), or NULL. */
const char *llm_cassette_find(llm_cassette *c, const char *key);
/* Record: appends one redacted line and flushes.  secret (the API key) is
 * scrubbed too. */
eous_rc llm_cassette_append(llm_cassette *c, const char *key, const char *provider, const char *model,
                            unsigned long step, const char *request_body, const char *response_body,
                            const llm_usage *usage, const char *secret, eous_err *err);

/* ---- price.c ---- */
typedef struct llm_price_table llm_price_table;
eous_rc llm_price_table_load(const char *path, llm_price_table **out, eous_err *err);
void llm_price_table_free(llm_price_table *t);
/* Override table first (may be NULL), then built-ins; longest prefix wins. */
int llm_price_lookup(const llm_price_table *t, const char *model, llm_price *out);

/* Deep-redacts every string in a JSON tree (eous_redact + secret). */
eous_rc llm_json_redact(cJSON *node, const char *secret);
/* Replaces every occurrence of secret in a malloc'd string (in place result). */
char *llm_scrub(char *text, const char *secret);

#endif

/* llm/llm.h — language-model planners: one model call gives one action.
 *
 * Providers: OpenAI Chat Completions (and compatible servers) and Anthropic
 * Messages, over HTTPS with libcurl (peer verification always on), with
 * retries, a total time budget, cancellation (eous_interrupted) and a
 * record/replay cassette so runs can be repeated without a key or network.
 *
 * Ownership: llm_opts holds borrowed strings; llm_client_new copies what it
 * keeps, so the options may go away afterwards.  An llm_client is not
 * thread-safe: use one per worker.  llm_client_free accepts NULL.
 *
 * Secrets: API keys come only from OPENAI_API_KEY / ANTHROPIC_API_KEY; the
 * client registers its key with eous_redact_add, never logs headers, and runs
 * objective, observation, history and errors through eous_redact before they
 * reach a prompt.  Cassettes are redacted again before every write. */
#ifndef EOUS_LLM_H
#define EOUS_LLM_H

#include <stddef.h>

#include "actions/action.h"
#include "core/core.h"
#include "perception/perc.h"

typedef struct llm_client llm_client;

enum { LLM_CASSETTE_OFF = 0, LLM_CASSETTE_RECORD, LLM_CASSETTE_REPLAY };

/* Observation budget: WebArena's max_obs_length (1920 tokens) for the WebArena text prompt
 * (use_tools 0), so that baseline compares under the paper's budget; no cut for tool calling
 * unless asked (--max-obs-tokens).  Tokens are o200k_base's (core/tokenize.h). */
#define LLM_WEBARENA_MAX_OBS_TOKENS 1920
#define LLM_MAX_OBS_DEFAULT ((size_t)-1)
#define LLM_DEFAULT_MAX_OBS_TOKENS LLM_MAX_OBS_DEFAULT

typedef struct llm_opts {
    const char *provider;   /* "openai" | "anthropic" (default "openai") */
    const char *model;      /* required, e.g. "gpt-4o", "claude-sonnet-4-20250514" */
    /* NULL: the provider's variable (OPENAI_BASE_URL for openai,
     * ANTHROPIC_BASE_URL for anthropic), else https://api.openai.com/v1 or
     * https://api.anthropic.com.  Plain http:// is refused except to loopback. */
    const char *base_url;
    const char *ca_file;    /* NULL: EOUS_LLM_CA env, else the system bundle */
    double connect_timeout_ms;  /* default 10 s */
    double request_timeout_ms;  /* one attempt, default 120 s */
    double total_budget_ms;     /* all attempts of one call incl. backoff, default 300 s */
    int max_retries;            /* default 4 */
    int max_tokens;             /* completion budget, default 1024 */
    double temperature;         /* default 0; negative = do not send (reasoning models) */
    int use_tools;              /* 1 tool calling (default), 0 WebArena text prompt */
    size_t max_obs_tokens;      /* cut to this many o200k tokens, 0 = no cut; default LLM_MAX_OBS_DEFAULT:
                                   1920 for the WebArena text prompt, no cut with tools */
    const char *cassette_path;
    int cassette_mode;          /* LLM_CASSETTE_OFF/RECORD/REPLAY */
    const char *price_table;    /* optional JSON file overriding prices */
    const char *image_detail;   /* vision: OpenAI's image detail "low" | "high" | "auto"; NULL = not sent */
} llm_opts;

void llm_opts_init(llm_opts *o);
/* "openai:gpt-4o" → provider + model (pointers into spec, which must outlive
 * o).  Errors name the spec and what was expected. */
eous_rc llm_parse_spec(const char *spec, llm_opts *o, eous_err *err);
/* "off" | "record" | "replay" → LLM_CASSETTE_*; -1 when unknown. */
int llm_cassette_mode_parse(const char *s);

/* Missing key = EOUS_E_INVALID naming the variable (not needed in replay
 * mode).  A replay cassette is loaded here; errors name the file and line. */
eous_rc llm_client_new(const llm_opts *o, llm_client **out, eous_err *err);
void llm_client_free(llm_client *c);
/* A second client with c's options (provider, model, endpoint, key, price):
 * its own connection and its own record of the last request, for another
 * thread.  EOUS_E_INVALID for a client with a cassette (record or replay). */
eous_rc llm_client_dup(const llm_client *c, llm_client **out, eous_err *err);

typedef struct llm_history_item {
    const char *action; /* act_format text */
    const char *result; /* one line */
} llm_history_item;

/* A model reply that asked for actions, kept so the next request can give
 * each of its tool calls its result in the provider's format (llm/batch.c).
 * Made by llm_next_actions; the caller sets results and frees it. */
typedef struct llm_turn llm_turn;
typedef enum llm_action_status { LLM_ACTION_OK = 0, LLM_ACTION_ERROR, LLM_ACTION_NOT_RUN } llm_action_status;
/* Tool calls in the reply (0 for NULL). */
size_t llm_turn_n_calls(const llm_turn *t);
/* The result of call i (in reply order): one line, redacted on the way in. */
void llm_turn_set_result(llm_turn *t, size_t i, llm_action_status status, const char *text);
void llm_turn_free(llm_turn *t);

/* How a task's requests carry what came before (llm/conv.c):
 *   stateless  WebArena's shape: every request is the system prompt and one user message (the
 *              objective, the URL, every previous action with its result, the whole observation).
 *              Deltas cannot be read this way and are refused (agent_run_task).
 *   full       one conversation per task: the first user message as above, then each reply with its
 *              tool results and the next observation (a delta refers to the observation before it,
 *              which the same request holds).  Requests only grow at the end, so a provider can cache
 *              the prefix; once the conversation holds budget tokens, the next request starts afresh
 *              (previous actions as text, the whole view). */
typedef enum llm_history { LLM_HISTORY_STATELESS = 0, LLM_HISTORY_FULL } llm_history;
#define LLM_DEFAULT_HISTORY LLM_HISTORY_FULL
#define LLM_DEFAULT_HISTORY_BUDGET 24000
/* "stateless" | "full" → *out; -1 on anything else. */
int llm_history_parse(const char *s, llm_history *out);
const char *llm_history_name(llm_history h);

/* One task's conversation (history full).  Made by the caller, passed in
 * llm_step_input.conv; llm_next_actions appends each request's new messages
 * and the reply once the reply parsed.  Not thread-safe; free accepts NULL. */
typedef struct llm_conv llm_conv;
eous_rc llm_conv_new(size_t budget_tokens, llm_conv **out, eous_err *err);
void llm_conv_free(llm_conv *c);
/* 1 when the conversation holds its budget: the caller sends the next view
 * whole and calls llm_conv_reset, so the next request starts afresh. */
int llm_conv_over_budget(const llm_conv *c);
void llm_conv_reset(llm_conv *c);
/* o200k tokens the conversation's messages hold (llm/bill.c's count). */
size_t llm_conv_tokens(const llm_conv *c);
/* Fresh starts after the first (budget reached). */
int llm_conv_collapses(const llm_conv *c);

typedef struct llm_step_input {
    const char *objective;
    const char *url;
    /* names of the secrets the model may type as {{secret:NAME}} ("A, B"; NULL or "" = none): eous
     * fills the values in at execution, the model never sees them */
    const char *secret_names;
    const char *observation;
    perc_mode mode; /* the observation's mode: the prompt explains it, semantic modes offer call() (0 is atomic) */
    const llm_history_item *history;
    size_t n_history;
    const char *last_error; /* NULL when the last step went fine */
    int last_error_is_answer; /* last_error is about the model's last answer (it did not parse), not an
                                 action's result: a conversation repeats only such errors */
    /* batches: how many actions one answer may hold (0 or 1: exactly one, the
     * request asks for no parallel tool calls, prompts as before) */
    int max_batch;
    /* the previous reply with its results (NULL: none, or a text reply): sent
     * back as tool results in a conversation (conv); unused when stateless */
    const llm_turn *prev_turn;
    /* history full: the task's conversation (borrowed); NULL = stateless */
    llm_conv *conv;
    /* 1: observations after the first may be deltas (perception/delta.c); the
     * system prompt says how to read them.  Only with a conversation (conv). */
    int deltas;
    /* vision: the set-of-marks screenshot (PNG, borrowed) and its legend, sent as an
     * image part after the text and the legend as text; NULL = text only */
    const unsigned char *image_png;
    size_t image_len;
    const char *image_legend;
    /* a WebArena-Verified task: the JSON schema of the stop tool's answer (an object: task_type,
     * status, retrieved_data, error_details); NULL = the answer is a string (borrowed) */
    const cJSON *answer_schema;
} llm_step_input;

typedef struct llm_usage {
    long prompt_tokens;     /* all input tokens, cached ones included */
    long completion_tokens;
    long cached_tokens;     /* input tokens read from the provider's cache */
    double latency_ms;      /* wall time of the call incl. retries (0 on replay) */
    double cost_usd;        /* from the price table; 0 for unknown models */
    int retries;
    int obs_truncated;      /* the observation was cut to max_obs_tokens */
    size_t obs_tokens;      /* o200k_base tokens of the observation sent (eous's count: exact for
                               OpenAI's o200k models, an estimate for others, e.g. Anthropic's;
                               prompt_tokens above is the provider's own figure) */
    int extra_tool_calls;   /* tool calls after the first, ignored */
    long calls;             /* model calls (1 per llm_next_action / llm_judge) */
    /* what a provider bills, counted by eous (llm/bill.c): o200k tokens of the whole request (system
     * prompt, tool schemas, every message, images by the provider's rule), of which the prefix equal to
     * the client's previous request (what a provider's cache can serve) and the fixed part (system
     * prompt and tool schemas) */
    long request_tokens;
    long prefix_tokens;
    long fixed_tokens;
} llm_usage;

/* One model call → one action (out must be initialised; it is cleared first).
 * A response that does not parse gives EOUS_E_PARSE with a message to feed
 * back as last_error (err->code "refusal", "empty", "truncated" or "syntax");
 * the agent loop counts them (3 in a row stops, WebArena's rule).  When the
 * model makes several tool calls the first is taken and the rest counted in
 * usage->extra_tool_calls.  Transport and endpoint failures: EOUS_E_INFRA /
 * EOUS_E_TIMEOUT (err->http_status and err->code carry the provider's status
 * and error type), EOUS_E_INTERRUPTED on SIGINT/SIGTERM.  usage may be NULL;
 * it is filled even when the answer does not parse. */
eous_rc llm_next_action(llm_client *c, const llm_step_input *in, act_action *out, llm_usage *usage,
                        eous_err *err);

/* One model call → up to cap actions, in the reply's order (out[0..cap) are
 * initialised by the caller and cleared first; *n_out gets how many were
 * filled).  Tool calls beyond cap are counted in usage->extra_tool_calls and
 * not returned; when in->max_batch <= 1 only the first is taken.  A reply
 * whose tool calls do not all parse is EOUS_E_PARSE naming the call.  Text
 * replies may hold several action lines in their last ``` fence.  *turn
 * (when turn is not NULL) gets the reply for the next request's prev_turn, or
 * NULL for a text reply; the caller frees it.  Otherwise as llm_next_action. */
eous_rc llm_next_actions(llm_client *c, const llm_step_input *in, act_action *out, size_t cap, size_t *n_out,
                         llm_turn **turn, llm_usage *usage, eous_err *err);

/* WebArena's two judges (helper_functions.py llm_fuzzy_match / llm_ua_match):
 * the same system and user text, temperature 0, top_p 1, 768 tokens. */
typedef enum llm_judge_kind {
    LLM_JUDGE_FUZZY, /* reference answer vs student answer: correct/incorrect/partially correct */
    LLM_JUDGE_UA     /* actual vs reported reason a task is unachievable: same/different */
} llm_judge_kind;
/* One verdict: *correct 1 or 0.  The model is the client's (the user's choice). */
eous_rc llm_judge(llm_client *c, llm_judge_kind kind, const char *question, const char *reference,
                  const char *answer, int *correct, llm_usage *usage, eous_err *err);
/* WebArena's reading of a judge reply (lower-cased): fuzzy 0 when "partially
 * correct" or "incorrect" appears anywhere, else 1 when "correct" does; ua 0
 * when "different" appears, else 1 when "same" does; -1 when neither (WebArena
 * asserts). */
int llm_judge_verdict(llm_judge_kind kind, const char *reply);
/* The user message WebArena sends for kind (caller frees). */
char *llm_judge_message(llm_judge_kind kind, const char *question, const char *reference, const char *student);

void llm_usage_add(llm_usage *sum, const llm_usage *one);

/* The prompt llm_next_action would send (system and user text, redacted and
 * truncated), for debugging and tests.  Caller frees both.  usage may be NULL. */
eous_rc llm_render_prompt(const llm_opts *o, const llm_step_input *in, char **system, char **user,
                          llm_usage *usage, eous_err *err);

/* The request body llm_next_actions would send for in (caller frees *body), with its counts in
 * usage (request_tokens, prefix_tokens against the client's previous request — which this one
 * becomes —, fixed_tokens); nothing is sent.  For benchmarks and tests. */
eous_rc llm_render_request(llm_client *c, const llm_step_input *in, char **body, llm_usage *usage, eous_err *err);

/* Price per 1M tokens for model from the built-in table or the client's
 * override file; 0 when found, EOUS_E_NOT_FOUND when the model is unknown. */
typedef struct llm_price {
    double input, output, cached_input; /* USD per 1M tokens */
} llm_price;
eous_rc llm_client_price(const llm_client *c, llm_price *out);
/* Cost of usage at price (cached tokens at cached_input, the rest at input). */
double llm_cost(const llm_price *p, long prompt_tokens, long cached_tokens, long completion_tokens);

/* Model calls made by this client so far. */
unsigned long llm_client_calls(const llm_client *c);

/* What eous's local token counts (obs_tokens) are for this client's model: "o200k_base" for
 * OpenAI models that use it (gpt-4o, gpt-4.1, gpt-5, o1/o3/o4, gpt-oss), "o200k_base estimate"
 * otherwise (Anthropic's and other tokenizers differ; their prompt_tokens are the provider's). */
const char *llm_client_token_count_label(const llm_client *c);

#endif

/* llm/client.c — the client: options, provider request bodies, responses to
 * actions, usage and cost, the judge, and the cassette around every call. */
#define _GNU_SOURCE
#include "llm/llm_int.h"

#include "core/http_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define OPENAI_DEFAULT_BASE "https://api.openai.com/v1"
#define ANTHROPIC_DEFAULT_BASE "https://api.anthropic.com"
#define ANTHROPIC_VERSION "2023-06-01"

struct llm_client {
    llm_provider provider;
    char *model;
    char *base_url;
    char *url;              /* endpoint */
    char *ca_file;
    char *cassette_path;
    char *key;              /* NULL in replay mode */
    char *auth_header;      /* holds the key: wiped on free, never logged */
    const char *headers[6];
    llm_opts o;             /* numeric options; string members point at our copies */
    eous_http *http;
    llm_cassette *cassette;
    llm_price_table *prices;
    llm_price price;
    int have_price;
    unsigned long calls;
    uint64_t rng;
    llm_bill prev_bill;     /* the last request's pieces: what the next one shares with it */
};

/* ---- options --------------------------------------------------------------- */

void llm_opts_init(llm_opts *o)
{
    memset(o, 0, sizeof *o);
    o->provider = "openai";
    o->connect_timeout_ms = 10000;
    o->request_timeout_ms = 120000;
    o->total_budget_ms = 300000;
    o->max_retries = 4;
    o->max_tokens = 1024;
    o->temperature = 0;
    o->use_tools = 1;
    o->max_obs_tokens = LLM_DEFAULT_MAX_OBS_TOKENS;
    o->cassette_mode = LLM_CASSETTE_OFF;
}

static int provider_of(const char *name, llm_provider *out)
{
    if (name && !strcmp(name, "openai")) {
        *out = LLM_OPENAI;
        return 1;
    }
    if (name && !strcmp(name, "anthropic")) {
        *out = LLM_ANTHROPIC;
        return 1;
    }
    return 0;
}

eous_rc llm_parse_spec(const char *spec, llm_opts *o, eous_err *err)
{
    static char provider_buf[2][16] = {"openai", "anthropic"};
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (!spec || !colon || colon == spec || !colon[1])
        return eous_err_set(err, EOUS_E_INVALID,
                            "model '%s': expected PROVIDER:MODEL, e.g. openai:gpt-4o or "
                            "anthropic:claude-sonnet-4-20250514",
                            spec ? spec : "");
    size_t n = (size_t)(colon - spec);
    for (int i = 0; i < 2; i++) {
        if (strlen(provider_buf[i]) == n && strncmp(provider_buf[i], spec, n) == 0) {
            o->provider = provider_buf[i];
            o->model = colon + 1;
            return EOUS_OK;
        }
    }
    return eous_err_set(err, EOUS_E_INVALID, "model '%s': unknown provider '%.*s'; expected openai or anthropic",
                        spec, (int)(n > 32 ? 32 : n), spec);
}

int llm_cassette_mode_parse(const char *s)
{
    if (!s)
        return -1;
    if (!strcmp(s, "off"))
        return LLM_CASSETTE_OFF;
    if (!strcmp(s, "record"))
        return LLM_CASSETTE_RECORD;
    if (!strcmp(s, "replay"))
        return LLM_CASSETTE_REPLAY;
    return -1;
}

/* Keys must not travel in clear: plain http only to this machine. */
static int url_allowed(const char *u)
{
    if (!strncasecmp(u, "https://", 8))
        return 1;
    if (strncasecmp(u, "http://", 7))
        return 0;
    const char *h = u + 7;
    static const char *local[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(local[i]);
        if (!strncasecmp(h, local[i], n) && (h[n] == ':' || h[n] == '/' || h[n] == '\0'))
            return 1;
    }
    return 0;
}

void llm_client_free(llm_client *c)
{
    if (!c)
        return;
    eous_http_free(c->http);
    llm_cassette_free(c->cassette);
    llm_price_table_free(c->prices);
    llm_bill_clear(&c->prev_bill);
    eous_wipe_free(c->auth_header);
    eous_wipe_free(c->key);
    free(c->model);
    free(c->base_url);
    free(c->url);
    free(c->ca_file);
    free(c->cassette_path);
    free(c);
}

/* The model, the endpoint (base URL from the option, the environment or the
 * provider's default; plain http only to loopback), the CA file and the
 * request URL, into c. */
static eous_rc client_endpoint(llm_client *c, const llm_opts *opts, const char *model, eous_err *err)
{
    const char *base = opts->base_url;
    if (!base || !*base)
        base = getenv(c->provider == LLM_OPENAI ? "OPENAI_BASE_URL" : "ANTHROPIC_BASE_URL");
    if (!base || !*base)
        base = c->provider == LLM_OPENAI ? OPENAI_DEFAULT_BASE : ANTHROPIC_DEFAULT_BASE;
    if (!url_allowed(base))
        return eous_err_set(err, EOUS_E_INVALID,
                            "llm: base URL '%s': expected https://... (plain http only to 127.0.0.1 or "
                            "localhost, so the API key never travels in clear)",
                            base);
    const char *ca = opts->ca_file && *opts->ca_file ? opts->ca_file : getenv("EOUS_LLM_CA");
    if (ca && *ca && access(ca, R_OK) != 0)
        return eous_err_set(err, EOUS_E_INVALID, "llm: CA file '%s' cannot be read", ca);
    size_t bl = strlen(base);
    while (bl > 0 && base[bl - 1] == '/')
        bl--;
    c->model = strdup(model);
    c->base_url = strndup(base, bl);
    c->ca_file = ca && *ca ? strdup(ca) : NULL;
    if (!c->model || !c->base_url || (ca && *ca && !c->ca_file) ||
        asprintf(&c->url, "%s%s", c->base_url, c->provider == LLM_OPENAI ? "/chat/completions" : "/v1/messages") <
            0) {
        c->url = NULL;
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    return EOUS_OK;
}

/* The API key from the provider's variable (redacted everywhere from now on),
 * the request headers and the HTTP handle. */
static eous_rc client_auth(llm_client *c, const char *pname, eous_err *err)
{
    const char *var = c->provider == LLM_OPENAI ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
    const char *key = getenv(var);
    if (!key || !*key) {
        return eous_err_set(err, EOUS_E_INVALID, "llm: %s is not set; it is needed to call %s:%s", var, pname,
                            c->model);
    }
    if (!(c->key = strdup(key)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_redact_add(c->key); /* so no log line, trace or cassette can carry it */
    int n = c->provider == LLM_OPENAI ? asprintf(&c->auth_header, "Authorization: Bearer %s", c->key)
                                      : asprintf(&c->auth_header, "x-api-key: %s", c->key);
    if (n < 0) {
        c->auth_header = NULL;
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    int h = 0;
    c->headers[h++] = c->auth_header;
    c->headers[h++] = "Content-Type: application/json";
    c->headers[h++] = "Accept: application/json";
    c->headers[h++] = "Expect:";
    if (c->provider == LLM_ANTHROPIC)
        c->headers[h++] = "anthropic-version: " ANTHROPIC_VERSION;
    c->headers[h] = NULL;
    return eous_http_new(&c->http, err);
}

eous_rc llm_client_new(const llm_opts *opts, llm_client **out, eous_err *err)
{
    *out = NULL;
    llm_opts dflt;
    if (!opts) {
        llm_opts_init(&dflt);
        opts = &dflt;
    }
    eous_rc rc = EOUS_OK;
    llm_client *c = calloc(1, sizeof *c);
    if (!c)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    c->o = *opts;
    const char *provider = opts->provider ? opts->provider : "openai", *model = opts->model;
    if (opts->cassette_mode == LLM_CASSETTE_REPLAY) {
        /* replay needs no --llm: the cassette knows which model answered */
        if ((rc = llm_cassette_open(opts->cassette_path, LLM_CASSETTE_REPLAY, &c->cassette, err)))
            goto done;
        const char *rp, *rm;
        if ((!model || !*model) && llm_cassette_recorded_model(c->cassette, &rp, &rm)) {
            provider = rp;
            model = rm;
        }
    }
    if (!provider_of(provider, &c->provider)) {
        rc = eous_err_set(err, EOUS_E_INVALID, "llm: unknown provider '%s'; expected openai or anthropic",
                          provider);
        goto done;
    }
    if (!model || !*model) {
        rc = eous_err_set(err, EOUS_E_INVALID, "llm: no model given; expected a model name (as in PROVIDER:MODEL)");
        goto done;
    }
    const char *pname = c->provider == LLM_OPENAI ? "openai" : "anthropic";
    if ((rc = client_endpoint(c, opts, model, err)))
        goto done;
    c->o.provider = pname;
    c->o.model = c->model;
    c->o.base_url = c->base_url;
    c->o.ca_file = c->ca_file;
    c->o.cassette_path = NULL;
    c->o.price_table = NULL;

    if (opts->cassette_mode != LLM_CASSETTE_REPLAY && (rc = client_auth(c, pname, err)))
        goto done;
    if (opts->cassette_mode != LLM_CASSETTE_OFF && opts->cassette_path &&
        !(c->cassette_path = strdup(opts->cassette_path))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    if (opts->cassette_mode == LLM_CASSETTE_RECORD &&
        (rc = llm_cassette_open(opts->cassette_path, opts->cassette_mode, &c->cassette, err)))
        goto done;
    if (opts->price_table && *opts->price_table &&
        (rc = llm_price_table_load(opts->price_table, &c->prices, err)))
        goto done;
    c->have_price = llm_price_lookup(c->prices, c->model, &c->price);
    c->rng = (uint64_t)(eous_now_ms() * 1000.0) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)c;
done:
    if (rc) {
        llm_client_free(c);
        return rc;
    }
    *out = c;
    return EOUS_OK;
}

eous_rc llm_client_dup(const llm_client *c, llm_client **out, eous_err *err)
{
    *out = NULL;
    if (c->cassette) /* one file in one order: its requests cannot come from two threads */
        return eous_err_set(err, EOUS_E_INVALID, "llm: a client with a cassette (%s) cannot be duplicated",
                            c->cassette_path ? c->cassette_path : "?");
    llm_opts o = c->o; /* strings point at c's resolved copies; llm_client_new copies them */
    eous_rc rc = llm_client_new(&o, out, err);
    if (!rc) { /* the price the parent resolved, its table included (not loaded again) */
        (*out)->price = c->price;
        (*out)->have_price = c->have_price;
    }
    return rc;
}

unsigned long llm_client_calls(const llm_client *c)
{
    return c->calls;
}

const char *llm_client_token_count_label(const llm_client *c)
{
    static const char *const o200k_models[] = {"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3",
                                               "o4", "gpt-oss"};
    if (c->provider == LLM_OPENAI && c->model)
        for (size_t i = 0; i < sizeof o200k_models / sizeof *o200k_models; i++)
            if (eous_starts_with(c->model, o200k_models[i]))
                return "o200k_base";
    return "o200k_base estimate";
}

eous_rc llm_client_price(const llm_client *c, llm_price *out)
{
    if (!c->have_price)
        return EOUS_E_NOT_FOUND;
    *out = c->price;
    return EOUS_OK;
}

void llm_usage_add(llm_usage *sum, const llm_usage *one)
{
    sum->prompt_tokens += one->prompt_tokens;
    sum->completion_tokens += one->completion_tokens;
    sum->cached_tokens += one->cached_tokens;
    sum->latency_ms += one->latency_ms;
    sum->cost_usd += one->cost_usd;
    sum->retries += one->retries;
    sum->obs_truncated += one->obs_truncated;
    sum->obs_tokens += one->obs_tokens;
    sum->extra_tool_calls += one->extra_tool_calls;
    sum->calls += one->calls;
    sum->request_tokens += one->request_tokens;
    sum->prefix_tokens += one->prefix_tokens;
    sum->fixed_tokens += one->fixed_tokens;
}

/* ---- request bodies ---------------------------------------------------------- */

/* OpenAI's reasoning models take max_completion_tokens and only the default
 * temperature; everything else (and compatible servers) takes max_tokens. */
static int openai_reasoning_model(const char *m)
{
    return !strncmp(m, "o1", 2) || !strncmp(m, "o3", 2) || !strncmp(m, "o4", 2) || !strncmp(m, "gpt-5", 5);
}

/* The request body around msgs (this request's messages after the system
 * prompt, duplicated in): model, system prompt, tools, limits.  Anthropic
 * gets cache_control marks (llm/conv.c).  Caller frees; NULL out of memory. */
static cJSON *build_body(const llm_client *c, const llm_step_input *in, const char *system, const cJSON *msgs,
                         int tools, int with_call, int max_tokens, double temperature)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *copy = cJSON_Duplicate(msgs, 1);
    if (!root || !copy) {
        cJSON_Delete(root);
        cJSON_Delete(copy);
        return NULL;
    }
    int parallel = in && in->max_batch > 1;
    cJSON_AddStringToObject(root, "model", c->model);
    if (c->provider == LLM_OPENAI) {
        cJSON *all = cJSON_AddArrayToObject(root, "messages");
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "role", "system");
        cJSON_AddStringToObject(m, "content", system);
        cJSON_AddItemToArray(all, m);
        cJSON *it;
        while ((it = cJSON_DetachItemFromArray(copy, 0)))
            cJSON_AddItemToArray(all, it);
        cJSON_Delete(copy);
        int reasoning = openai_reasoning_model(c->model);
        cJSON_AddNumberToObject(root, reasoning ? "max_completion_tokens" : "max_tokens", max_tokens);
        if (temperature >= 0 && !reasoning)
            cJSON_AddNumberToObject(root, "temperature", temperature);
        if (tools) {
            cJSON_AddItemToObject(root, "tools", llm_tools_json(LLM_OPENAI, with_call, in ? in->answer_schema : NULL));
            cJSON_AddStringToObject(root, "tool_choice", "required");
            cJSON_AddBoolToObject(root, "parallel_tool_calls", parallel);
        }
        cJSON_AddBoolToObject(root, "stream", 0);
    } else {
        cJSON_AddNumberToObject(root, "max_tokens", max_tokens);
        cJSON_AddStringToObject(root, "system", system);
        cJSON_AddItemToObject(root, "messages", copy);
        if (temperature >= 0)
            cJSON_AddNumberToObject(root, "temperature", temperature > 1 ? 1 : temperature);
        if (tools) {
            cJSON_AddItemToObject(root, "tools", llm_tools_json(LLM_ANTHROPIC, with_call, in ? in->answer_schema : NULL));
            cJSON *tc = cJSON_AddObjectToObject(root, "tool_choice");
            cJSON_AddStringToObject(tc, "type", "any");
            if (!parallel)
                cJSON_AddBoolToObject(tc, "disable_parallel_tool_use", 1);
        }
        if (in) /* the judge's one-off question has nothing to cache */
            llm_conv_mark_cache(root);
    }
    return root;
}

/* A plain text request (the judge): body text, caller frees. */
static char *build_text_body(const llm_client *c, const char *system, const char *user, int max_tokens,
                             double temperature)
{
    size_t n_old;
    cJSON *msgs = llm_conv_messages(NULL, c->provider, NULL, cJSON_CreateString(user), &n_old);
    cJSON *root = msgs ? build_body(c, NULL, system, msgs, 0, 0, max_tokens, temperature) : NULL;
    char *s = root ? eous_json_print(root) : NULL;
    cJSON_Delete(root);
    cJSON_Delete(msgs);
    return s;
}

/* ---- one exchange: replay, or HTTP (+ record) ----------------------------------- */

/* A token count from the provider: garbage (negative, NaN, 1e300) becomes a
 * count a long can hold, never undefined behaviour. */
static long token_count(const cJSON *obj, const char *key)
{
    double d = eous_json_num(obj, key, 0);
    if (!(d >= 0))
        return 0;
    return d > 1e12 ? (long)1e12 : (long)d;
}

static void parse_usage(const llm_client *c, const cJSON *root, llm_usage *u)
{
    const cJSON *us = eous_json_obj(root, "usage");
    if (!us)
        return;
    if (c->provider == LLM_OPENAI) {
        u->prompt_tokens = token_count(us, "prompt_tokens");
        u->completion_tokens = token_count(us, "completion_tokens");
        u->cached_tokens = token_count(eous_json_obj(us, "prompt_tokens_details"), "cached_tokens");
    } else {
        /* Anthropic's input_tokens excludes cache reads and writes: add them so
         * prompt_tokens means "all input" for both providers */
        long in = token_count(us, "input_tokens");
        long read = token_count(us, "cache_read_input_tokens");
        long created = token_count(us, "cache_creation_input_tokens");
        u->prompt_tokens = in + read + created;
        u->cached_tokens = read;
        u->completion_tokens = token_count(us, "output_tokens");
    }
    if (c->have_price)
        u->cost_usd = llm_cost(&c->price, u->prompt_tokens, u->cached_tokens, u->completion_tokens);
}

static eous_rc http_error(const llm_client *c, long status, const char *body, eous_err *err)
{
    const char *pname = c->o.provider;
    cJSON *root = body ? cJSON_Parse(body) : NULL;
    const char *m = NULL, *t = NULL;
    llm_error_fields(root, &m, &t);
    char *msg = llm_scrub(eous_redact(m ? m : (body && *body && !root ? body : "(no message)")), c->key);
    eous_rc rc = status == 413 ? EOUS_E_LIMIT : EOUS_E_INFRA;
    const char *hint = status == 401 || status == 403
                           ? (c->provider == LLM_OPENAI ? "; check OPENAI_API_KEY" : "; check ANTHROPIC_API_KEY")
                       : status == 404 ? "; check the model name and base URL"
                                       : "";
    eous_err_set(err, rc, "%s: HTTP %ld%s%s: %.400s%s", pname, status, t ? " " : "", t ? t : "",
                 msg ? msg : "(out of memory)", hint);
    if (err) {
        err->http_status = (int)status;
        eous_err_set_code(err, t ? t : "http");
    }
    free(msg);
    cJSON_Delete(root);
    return rc;
}

/* key_body: what the cassette keys and records (body with a vision image's
 * bytes replaced by its SHA-256); body itself when there is no image. */
static eous_rc exchange(llm_client *c, const char *body, const char *key_body, cJSON **resp, llm_usage *u,
                        eous_err *err)
{
    *resp = NULL;
    c->calls++;
    u->calls = 1;
    char key[17];
    eous_hash_hex(key_body, strlen(key_body), key);
    if (c->o.cassette_mode == LLM_CASSETTE_REPLAY) {
        const char *text = llm_cassette_find(c->cassette, key);
        if (!text)
            return eous_err_set(err, EOUS_E_INVALID,
                                "cassette %s has no response for this request (step %lu); re-record it with "
                                "the llm planner",
                                c->cassette_path, c->calls);
        *resp = cJSON_Parse(text);
        if (!*resp)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        parse_usage(c, *resp, u);
        return EOUS_OK;
    }
    llm_http_opts ho = {
        .url = c->url,
        .headers = c->headers,
        .body = body,
        .ca_file = c->ca_file,
        .connect_timeout_ms = c->o.connect_timeout_ms,
        .request_timeout_ms = c->o.request_timeout_ms,
        .total_budget_ms = c->o.total_budget_ms,
        .max_retries = c->o.max_retries,
        .provider_name = c->o.provider,
    };
    llm_http_result hr;
    eous_rc rc = llm_http_post(c->http, &ho, &c->rng, &hr, err);
    u->retries = hr.retries;
    u->latency_ms = hr.latency_ms;
    if (rc)
        goto done;
    if (hr.status < 200 || hr.status >= 300) {
        rc = http_error(c, hr.status, hr.body, err);
        goto done;
    }
    eous_err perr;
    eous_err_clear(&perr);
    *resp = eous_json_parse(hr.body, hr.body_len, "response", &perr);
    if (!*resp || !cJSON_IsObject(*resp)) {
        cJSON_Delete(*resp);
        *resp = NULL;
        eous_err_set_code(err, "bad_response");
        rc = eous_err_set(err, EOUS_E_INFRA, "%s: HTTP %ld but the body is not a JSON object: %s", c->o.provider,
                          hr.status, perr.msg[0] ? perr.msg : "got another JSON value");
        goto done;
    }
    parse_usage(c, *resp, u);
    if (c->o.cassette_mode == LLM_CASSETTE_RECORD &&
        (rc = llm_cassette_append(c->cassette, key, c->o.provider, c->model, c->calls, key_body, hr.body, u, c->key,
                                  err))) {
        cJSON_Delete(*resp);
        *resp = NULL;
    }
done:
    free(hr.body);
    return rc;
}

/* ---- responses → an action ----------------------------------------------------- */

#define ANSWER_MAX_CALLS 64

typedef struct answer {
    const char *tool_name[ANSWER_MAX_CALLS]; /* borrowed from the response tree */
    char *tool_args[ANSWER_MAX_CALLS];       /* malloc'd JSON text */
    char *text;            /* malloc'd concatenated text, may be empty */
    const char *refusal;   /* borrowed */
    int n_tool_calls;      /* all calls in the reply; the first ANSWER_MAX_CALLS are kept */
    int truncated;         /* the model hit max_tokens */
} answer;

static void answer_free(answer *a)
{
    for (int i = 0; i < a->n_tool_calls && i < ANSWER_MAX_CALLS; i++)
        free(a->tool_args[i]);
    free(a->text);
}

static eous_rc bad_shape(const llm_client *c, const char *what, eous_err *err)
{
    eous_err_set_code(err, "bad_response");
    return eous_err_set(err, EOUS_E_INFRA, "%s: unexpected response: %s", c->o.provider, what);
}

static eous_rc append_text(eous_buf *b, const char *s, eous_err *err)
{
    if (!s || !*s)
        return EOUS_OK;
    if (b->len && eous_buf_putc(b, '\n', err))
        return EOUS_E_NOMEM;
    return eous_buf_puts(b, s, err);
}

static eous_rc extract_openai(const llm_client *c, const cJSON *root, answer *a, eous_err *err)
{
    const cJSON *choices = eous_json_arr(root, "choices");
    const cJSON *ch = choices ? cJSON_GetArrayItem(choices, 0) : NULL;
    const cJSON *msg = eous_json_obj(ch, "message");
    if (!msg) {
        /* some compatible servers send an error body with status 200 */
        const char *m, *t;
        llm_error_fields(root, &m, &t);
        if (m && eous_json_obj(root, "error")) {
            char *clean = llm_scrub(eous_redact(m), c->key);
            eous_err_set_code(err, t ? t : "bad_response");
            eous_rc rc = eous_err_set(err, EOUS_E_INFRA, "%s: error in a 200 response: %.400s", c->o.provider,
                                      clean ? clean : "(out of memory)");
            free(clean);
            return rc;
        }
        return bad_shape(c, "no choices[0].message", err);
    }
    const char *finish = eous_json_str(ch, "finish_reason");
    a->truncated = finish && !strcmp(finish, "length");
    a->refusal = eous_json_str(msg, "refusal");
    if (a->refusal && !*a->refusal)
        a->refusal = NULL;
    if (finish && !strcmp(finish, "content_filter") && !a->refusal)
        a->refusal = "the provider's content filter stopped the answer";
    const cJSON *calls = eous_json_arr(msg, "tool_calls");
    const cJSON *call;
    cJSON_ArrayForEach(call, calls) {
        int i = a->n_tool_calls++;
        if (i >= ANSWER_MAX_CALLS)
            continue;
        const cJSON *fn = eous_json_obj(call, "function");
        a->tool_name[i] = eous_json_str(fn, "name");
        const char *args = eous_json_str(fn, "arguments");
        if (!a->tool_name[i])
            return bad_shape(c, "a tool call without function.name", err);
        if (!(a->tool_args[i] = strdup(args ? args : "")))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    eous_buf b;
    eous_buf_init(&b, LLM_MAX_RESPONSE);
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
    eous_rc rc = EOUS_OK;
    if (cJSON_IsString(content)) {
        rc = append_text(&b, content->valuestring, err);
    } else if (cJSON_IsArray(content)) {
        /* some compatible servers answer with content parts */
        for (const cJSON *p = content->child; p && !rc; p = p->next)
            rc = append_text(&b, eous_json_str(p, "text"), err);
    }
    if (!rc && !(a->text = eous_buf_steal(&b)))
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_buf_free(&b);
    return rc;
}

static eous_rc extract_anthropic(const llm_client *c, const cJSON *root, answer *a, eous_err *err)
{
    const cJSON *content = eous_json_arr(root, "content");
    if (!content)
        return bad_shape(c, "no content array", err);
    const char *stop = eous_json_str(root, "stop_reason");
    a->truncated = stop && !strcmp(stop, "max_tokens");
    if (stop && !strcmp(stop, "refusal"))
        a->refusal = "the model declined to answer (stop_reason refusal)";
    eous_buf b;
    eous_buf_init(&b, LLM_MAX_RESPONSE);
    eous_rc rc = EOUS_OK;
    for (const cJSON *blk = content->child; blk && !rc; blk = blk->next) {
        const char *type = eous_json_str(blk, "type");
        if (type && !strcmp(type, "tool_use")) {
            int i = a->n_tool_calls++;
            if (i < ANSWER_MAX_CALLS) {
                a->tool_name[i] = eous_json_str(blk, "name");
                const cJSON *input = cJSON_GetObjectItemCaseSensitive(blk, "input");
                if (!a->tool_name[i])
                    rc = bad_shape(c, "tool_use block without a name", err);
                else if (!(a->tool_args[i] = input ? eous_json_print(input) : strdup("{}")))
                    rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            }
        } else if (type && !strcmp(type, "text")) {
            rc = append_text(&b, eous_json_str(blk, "text"), err);
        }
    }
    if (!rc && !(a->text = eous_buf_steal(&b)))
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_buf_free(&b);
    return rc;
}


/* One tool call of the answer as out; errors as answer_to_actions's. */
static eous_rc call_to_action(const llm_client *c, const answer *a, int i, int of, act_action *out, eous_err *err)
{
    eous_err e1;
    eous_err_clear(&e1);
    if (act_parse_tool_call(a->tool_name[i], a->tool_args[i], out, &e1) == EOUS_OK)
        return EOUS_OK;
    if (of > 1)
        eous_err_prefix(&e1, "tool call %d of %d (%s)", i + 1, of, a->tool_name[i]);
    if (a->truncated) {
        eous_err_set_code(err, "truncated");
        return eous_err_set(err, EOUS_E_PARSE,
                            "the answer was cut off at max_tokens (%d) inside the arguments of %s: %s",
                            c->o.max_tokens, a->tool_name[i], e1.msg);
    }
    eous_err_set_code(err, "syntax");
    return eous_err_set(err, EOUS_E_PARSE, "%s", e1.msg);
}

/* The model's answer as up to cap actions, or EOUS_E_PARSE with a message
 * written for the model (it goes back as last_error) and a code for the loop
 * and traces. */
static eous_rc answer_to_actions(const llm_client *c, const answer *a, act_action *out, size_t cap,
                                 size_t *n_out, llm_usage *u, eous_err *err)
{
    *n_out = 0;
    const char *how = c->o.use_tools ? "call exactly one of the tools"
                                     : "end with: In summary, the next action I will perform is ```...```";
    if (a->refusal) {
        eous_err_set_code(err, "refusal");
        return eous_err_set(err, EOUS_E_PARSE,
                            "the model refused: %.300s; answer with one action (stop with answer N/A if the "
                            "task cannot be done)",
                            a->refusal);
    }
    eous_err e1;
    eous_err_clear(&e1);
    if (a->n_tool_calls) {
        size_t take = (size_t)a->n_tool_calls;
        if (take > cap)
            take = cap;
        if (take > ANSWER_MAX_CALLS)
            take = ANSWER_MAX_CALLS;
        if ((size_t)a->n_tool_calls > take) {
            /* beyond the batch limit (with 1, parallel calls were not asked
             * for): the first are the ones the model meant first */
            u->extra_tool_calls = a->n_tool_calls - (int)take;
            EOUS_INFO("llm", "%d tool calls in one answer; taking the first %zu (%s)", a->n_tool_calls, take,
                      a->tool_name[0]);
        }
        for (size_t i = 0; i < take; i++) {
            eous_rc rc = call_to_action(c, a, (int)i, (int)take, &out[i], err);
            if (rc) {
                for (size_t k = 0; k < i; k++)
                    act_action_clear(&out[k]);
                return rc;
            }
        }
        *n_out = take;
        return EOUS_OK;
    }
    if (eous_is_blank(a->text)) {
        eous_err_set_code(err, a->truncated ? "truncated" : "empty");
        return eous_err_set(err, EOUS_E_PARSE, "%s; expected one action (%s)",
                            a->truncated ? "the answer was cut off at max_tokens before any action"
                                         : "empty answer",
                            how);
    }
    /* without a tool call, a tools-mode model may still have written the action as text */
    size_t dropped = 0;
    eous_rc prc = cap > 1 ? llm_parse_text_actions(a->text, out, cap, n_out, &dropped, &e1)
                          : act_parse_text(a->text, out, &e1);
    if (prc == EOUS_OK) {
        if (cap <= 1)
            *n_out = 1;
        u->extra_tool_calls = (int)dropped;
        return EOUS_OK;
    }
    eous_err_set_code(err, a->truncated ? "truncated" : "syntax");
    if (a->truncated)
        return eous_err_set(err, EOUS_E_PARSE, "the answer was cut off at max_tokens (%d) before the action: %s",
                            c->o.max_tokens, e1.msg);
    if (c->o.use_tools)
        return eous_err_set(err, EOUS_E_PARSE, "no tool call in the answer; %s (%s)", how, e1.msg);
    return eous_err_set(err, EOUS_E_PARSE, "%s", e1.msg);
}

static eous_rc extract(const llm_client *c, const cJSON *root, answer *a, eous_err *err)
{
    memset(a, 0, sizeof *a);
    return c->provider == LLM_OPENAI ? extract_openai(c, root, a, err) : extract_anthropic(c, root, a, err);
}

eous_rc llm_response_to_action(llm_client *c, const cJSON *root, act_action *out, llm_usage *u, eous_err *err)
{
    answer a;
    act_action_clear(out);
    parse_usage(c, root, u);
    size_t n = 0;
    eous_rc rc = extract(c, root, &a, err);
    if (!rc)
        rc = answer_to_actions(c, &a, out, 1, &n, u, err);
    answer_free(&a);
    return rc;
}

/* The reply as the conversation keeps it: the turn's assistant message, or a text message. */
static cJSON *reply_message(const llm_client *c, const llm_turn *turn, const answer *a)
{
    if (turn)
        return cJSON_Duplicate(llm_turn_assistant(turn), 1);
    cJSON *m = cJSON_CreateObject();
    if (!m)
        return NULL;
    cJSON_AddStringToObject(m, "role", "assistant");
    if (c->provider == LLM_OPENAI) {
        cJSON_AddStringToObject(m, "content", a->text ? a->text : "");
    } else {
        cJSON *blk = cJSON_CreateObject();
        cJSON_AddStringToObject(blk, "type", "text");
        cJSON_AddStringToObject(blk, "text", a->text && *a->text ? a->text : "(no text)");
        cJSON_AddItemToArray(cJSON_AddArrayToObject(m, "content"), blk);
    }
    return m;
}

/* One request, made and counted before it is sent. */
typedef struct request {
    char *system, *user, *body, *key_body;
    cJSON *msgs;  /* this request's messages after the system prompt (what a conversation keeps) */
    cJSON *root;  /* the body as JSON */
    size_t n_old; /* of msgs, how many the conversation already held */
    llm_image img;
} request;

static void request_clear(request *r)
{
    free(r->system);
    free(r->user);
    free(r->body);
    free(r->key_body);
    cJSON_Delete(r->msgs);
    cJSON_Delete(r->root);
    llm_image_clear(&r->img);
    memset(r, 0, sizeof *r);
}

/* The request llm_next_actions sends for in, counted into u (llm/bill.c) against the client's
 * previous request, which it then becomes. */
static eous_rc make_request(llm_client *c, const llm_step_input *in, request *r, llm_usage *u, eous_err *err)
{
    memset(r, 0, sizeof *r);
    eous_rc rc = llm_render_prompt(&c->o, in, &r->system, &r->user, u, err);
    if (rc)
        return rc;
    int image = in->image_png != NULL;
    if (image && (rc = llm_image_init(&r->img, in->image_png, in->image_len, in->image_legend, c->o.image_detail,
                                      err)))
        return rc;
    /* the text, or with a vision image the parts llm/image.c makes */
    cJSON *content = image ? llm_image_content(c->provider, r->user, &r->img) : cJSON_CreateString(r->user);
    r->msgs = content ? llm_conv_messages(in->conv, c->provider, in->prev_turn, content, &r->n_old) : NULL;
    r->root = r->msgs ? build_body(c, in, r->system, r->msgs, c->o.use_tools, llm_mode_has_call(in->mode),
                                   c->o.max_tokens, c->o.temperature)
                      : NULL;
    r->body = r->root ? eous_json_print(r->root) : NULL;
    /* the cassette's copy: the same text with the image's hash for its bytes */
    if (image && r->body)
        r->key_body = llm_image_key_body(&r->img, c->provider, r->body);
    if (!r->body || (image && !r->key_body))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    llm_bill bill;
    memset(&bill, 0, sizeof bill);
    if ((rc = llm_bill_count(c->provider, r->root, &bill, err)))
        return rc;
    u->request_tokens = bill.total;
    u->fixed_tokens = bill.fixed;
    u->prefix_tokens = llm_bill_shared_prefix(c->prev_bill.n ? &c->prev_bill : NULL, &bill);
    llm_bill_clear(&c->prev_bill);
    c->prev_bill = bill;
    return EOUS_OK;
}

eous_rc llm_render_request(llm_client *c, const llm_step_input *in, char **body, llm_usage *usage, eous_err *err)
{
    llm_usage u;
    memset(&u, 0, sizeof u);
    *body = NULL;
    request r;
    eous_rc rc = make_request(c, in, &r, &u, err);
    if (!rc) {
        *body = r.body;
        r.body = NULL;
    }
    request_clear(&r);
    if (usage)
        *usage = u;
    return rc;
}

eous_rc llm_next_actions(llm_client *c, const llm_step_input *in, act_action *out, size_t cap, size_t *n_out,
                         llm_turn **turn, llm_usage *usage, eous_err *err)
{
    llm_usage u;
    memset(&u, 0, sizeof u);
    *n_out = 0;
    if (turn)
        *turn = NULL;
    for (size_t i = 0; i < cap; i++)
        act_action_clear(&out[i]);
    if (in->max_batch <= 1 && cap > 1)
        cap = 1;
    cJSON *resp = NULL, *reply = NULL;
    llm_turn *t = NULL;
    answer a;
    memset(&a, 0, sizeof a);
    request r;
    eous_rc rc = make_request(c, in, &r, &u, err);
    if (rc)
        goto done;
    if ((rc = exchange(c, r.body, r.key_body ? r.key_body : r.body, &resp, &u, err)) ||
        (rc = extract(c, resp, &a, err)))
        goto done;
    if ((rc = answer_to_actions(c, &a, out, cap, n_out, &u, err)))
        goto done;
    /* a reply with tool calls is kept so its results go back in the next request */
    if (a.n_tool_calls && (in->conv || turn) && (rc = llm_turn_from_response(c->provider, resp, &t, err)))
        goto done;
    if (in->conv) {
        if (!(reply = reply_message(c, t, &a))) {
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            goto done;
        }
        if ((rc = llm_conv_commit(in->conv, c->provider, r.msgs, r.n_old, reply, t == NULL, in->n_history, err)))
            goto done;
    }
    if (turn) {
        *turn = t;
        t = NULL;
    }
done:
    if (rc) {
        for (size_t i = 0; i < *n_out; i++)
            act_action_clear(&out[i]);
        *n_out = 0;
    }
    if (usage)
        *usage = u;
    llm_turn_free(t);
    answer_free(&a);
    cJSON_Delete(resp);
    cJSON_Delete(reply);
    request_clear(&r);
    return rc;
}

eous_rc llm_next_action(llm_client *c, const llm_step_input *in, act_action *out, llm_usage *usage, eous_err *err)
{
    size_t n = 0;
    return llm_next_actions(c, in, out, 1, &n, NULL, usage, err);
}

/* ---- the judge ------------------------------------------------------------------ */

static const char judge_system[] = "You are a helpful assistant";

char *llm_judge_message(llm_judge_kind kind, const char *question, const char *reference, const char *student)
{
    char *m = NULL;
    int n;
    if (kind == LLM_JUDGE_UA)
        n = asprintf(&m,
                     "task: %s\nactual unachievable reason: %s\nreported unachievable reason: %s\n"
                     "The task described above is inherently unachievable due to the reason specified under "
                     "'actual unachievable reason'. An individual previously attempted this task and was unable to "
                     "complete it. They provided a reason for their failure, which is listed under 'reported "
                     "unachievable reason'. Your role is to review both the actual and reported reasons. Determine "
                     "if the reported reason aligns with the actual reason, even if implicitly. If the stated reason "
                     "is in line with the actual reason, respond with 'same'. Otherwise, respond with 'different'.",
                     question, reference, student);
    else
        n = asprintf(&m,
                     "Help a teacher to grade the answer of a student given a question. Keep in mind that the "
                     "student may use different phrasing or wording to answer the question. The goal is to evaluate "
                     "whether the answer is semantically equivalent to the reference answer.\n"
                     "question: %s\nreference answer: %s\n"
                     "all the string 'N/A' that you see is a special sequence that means 'not achievable'\n"
                     "student answer: %s\n"
                     "Conclude the judgement by correct/incorrect/partially correct.",
                     question, reference, student);
    return n < 0 ? NULL : m;
}

int llm_judge_verdict(llm_judge_kind kind, const char *text)
{
    size_t n = strlen(text);
    char *low = malloc(n + 1);
    if (!low)
        return -1;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)text[i]);
    int v;
    if (kind == LLM_JUDGE_UA)
        v = strstr(low, "different") ? 0 : strstr(low, "same") ? 1 : -1;
    else
        v = strstr(low, "partially correct") || strstr(low, "incorrect") ? 0 : strstr(low, "correct") ? 1 : -1;
    free(low);
    return v;
}

eous_rc llm_judge(llm_client *c, llm_judge_kind kind, const char *question, const char *reference,
                  const char *answer_text, int *correct, llm_usage *usage, eous_err *err)
{
    llm_usage u;
    memset(&u, 0, sizeof u);
    *correct = 0;
    eous_buf ub;
    eous_buf_init(&ub, 16 * 1024 * 1024);
    char *body = NULL, *q = eous_redact(question), *r = eous_redact(reference), *s = eous_redact(answer_text);
    cJSON *resp = NULL;
    answer a;
    memset(&a, 0, sizeof a);
    eous_rc rc = EOUS_OK;
    if (!q || !r || !s) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    char *msg = llm_judge_message(kind, q, r, s);
    rc = msg ? eous_buf_printf(&ub, err, "%s", msg) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    free(msg);
    if (rc)
        goto done;
    /* the verdict needs no creativity: temperature 0 unless the user turned it off */
    body = build_text_body(c, judge_system, ub.data, c->o.max_tokens > 768 ? c->o.max_tokens : 768,
                           c->o.temperature >= 0 ? 0 : -1);
    if (!body) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    if ((rc = exchange(c, body, body, &resp, &u, err)) || (rc = extract(c, resp, &a, err)))
        goto done;
    if (a.refusal) {
        eous_err_set_code(err, "refusal");
        rc = eous_err_set(err, EOUS_E_PARSE, "judge: the model refused: %.300s", a.refusal);
        goto done;
    }
    int v = llm_judge_verdict(kind, a.text ? a.text : "");
    if (v < 0) {
        eous_err_set_code(err, "syntax");
        rc = eous_err_set(err, EOUS_E_PARSE, "judge: no verdict (%s) in the answer: %.200s", kind == LLM_JUDGE_UA ? "same/different" : "correct/incorrect",
                          a.text ? a.text : "");
        goto done;
    }
    *correct = v;
done:
    if (usage)
        *usage = u;
    answer_free(&a);
    cJSON_Delete(resp);
    eous_buf_free(&ub);
    free(body);
    free(q);
    free(r);
    free(s);
    return rc;
}

/* llm/conv.c — a task's conversation with the model (--history full).
 *
 * The conversation keeps, in the provider's shape, every message sent and
 * every reply received since it started: the first user message (objective,
 * previous actions, the whole view), then per step the reply, its results
 * (tool results, or text for a text reply) and the next observation.  A
 * request is the conversation plus its new messages, so requests only grow
 * at the end and a provider's cache serves the prefix; a delta always has
 * its base in the same request.  Messages are committed only once a reply
 * parsed: a failed exchange leaves the conversation as it was (the loop then
 * sends the whole view again).  Past its budget the conversation starts
 * afresh (llm_conv_reset, called by the loop before it renders the view). */
#include "llm/llm_int.h"

#include <stdlib.h>
#include <string.h>

struct llm_conv {
    cJSON *msgs;       /* provider-shaped, through the last reply (owned) */
    size_t tokens;     /* llm_bill_message_tokens of msgs */
    size_t budget;
    size_t hist_mark;  /* history length when the last reply was committed */
    int text_reply;    /* the last reply was text: its results go as text */
    int collapses;
};

static const char *const history_names[] = {[LLM_HISTORY_STATELESS] = "stateless", [LLM_HISTORY_FULL] = "full"};

int llm_history_parse(const char *s, llm_history *out)
{
    int i = eous_name_find(history_names, EOUS_NAMES_N(history_names), s);
    if (i < 0)
        return -1;
    *out = (llm_history)i;
    return 0;
}

const char *llm_history_name(llm_history h)
{
    return eous_name_of(history_names, EOUS_NAMES_N(history_names), (int)h, "stateless");
}

eous_rc llm_conv_new(size_t budget_tokens, llm_conv **out, eous_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out || !((*out)->msgs = cJSON_CreateArray())) {
        free(*out);
        *out = NULL;
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    (*out)->budget = budget_tokens ? budget_tokens : LLM_DEFAULT_HISTORY_BUDGET;
    return EOUS_OK;
}

void llm_conv_free(llm_conv *c)
{
    if (!c)
        return;
    cJSON_Delete(c->msgs);
    free(c);
}

int llm_conv_over_budget(const llm_conv *c)
{
    return c && c->tokens >= c->budget;
}

void llm_conv_reset(llm_conv *c)
{
    if (!c || !cJSON_GetArraySize(c->msgs))
        return;
    cJSON *fresh = cJSON_CreateArray();
    if (!fresh)
        return; /* keeps growing rather than losing what it holds */
    cJSON_Delete(c->msgs);
    c->msgs = fresh;
    c->tokens = 0;
    c->text_reply = 0;
    c->collapses++;
}

size_t llm_conv_tokens(const llm_conv *c)
{
    return c ? c->tokens : 0;
}

int llm_conv_collapses(const llm_conv *c)
{
    return c ? c->collapses : 0;
}

int llm_conv_continuing(const llm_conv *c)
{
    return c && cJSON_GetArraySize(c->msgs) > 0;
}

size_t llm_conv_text_results_from(const llm_conv *c)
{
    return llm_conv_continuing(c) && c->text_reply ? c->hist_mark : (size_t)-1;
}

cJSON *llm_conv_messages(const llm_conv *conv, llm_provider p, const llm_turn *prev, cJSON *content,
                         size_t *n_old)
{
    cJSON *msgs = conv ? cJSON_Duplicate(conv->msgs, 1) : cJSON_CreateArray();
    *n_old = msgs ? (size_t)cJSON_GetArraySize(msgs) : 0;
    /* the results belong to the conversation's last reply: without one there is nothing to answer */
    if (!msgs || llm_turn_add_results(p, llm_conv_continuing(conv) ? prev : NULL, msgs, content, NULL)) {
        cJSON_Delete(msgs);
        return NULL;
    }
    return msgs;
}

/* Earlier screenshots stay out of the conversation (a request carries only
 * the current one): each image part becomes a line saying so. */
static void drop_images(cJSON *m)
{
    cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content");
    int n = cJSON_IsArray(content) ? cJSON_GetArraySize(content) : 0;
    for (int i = 0; i < n; i++) {
        const char *type = eous_json_str(cJSON_GetArrayItem(content, i), "type");
        if (!type || (strcmp(type, "image_url") && strcmp(type, "image")))
            continue;
        cJSON *txt = cJSON_CreateObject();
        if (!txt)
            continue;
        cJSON_AddStringToObject(txt, "type", "text");
        cJSON_AddStringToObject(txt, "text", "(this observation's screenshot is left out of the conversation)");
        cJSON_ReplaceItemInArray(content, i, txt);
    }
}

eous_rc llm_conv_commit(llm_conv *conv, llm_provider p, const cJSON *msgs, size_t n_old, const cJSON *assistant,
                        int text_reply, size_t n_history, eous_err *err)
{
    if (!conv)
        return EOUS_OK;
    size_t i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, msgs) {
        if (i++ < n_old)
            continue;
        cJSON *copy = cJSON_Duplicate(m, 1);
        if (copy)
            drop_images(copy);
        if (!copy || !cJSON_AddItemToArray(conv->msgs, copy)) {
            cJSON_Delete(copy);
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
        conv->tokens += (size_t)llm_bill_message_tokens(p, copy);
    }
    cJSON *reply = cJSON_Duplicate(assistant, 1);
    if (!reply || !cJSON_AddItemToArray(conv->msgs, reply)) {
        cJSON_Delete(reply);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    conv->tokens += (size_t)llm_bill_message_tokens(p, assistant);
    conv->text_reply = text_reply;
    conv->hist_mark = n_history;
    return EOUS_OK;
}

/* The last block of message m's content (converted to blocks when a string). */
static cJSON *last_block(cJSON *m)
{
    cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content");
    if (cJSON_IsString(content)) {
        cJSON *blocks = cJSON_CreateArray(), *txt = cJSON_CreateObject();
        if (!blocks || !txt) {
            cJSON_Delete(blocks);
            cJSON_Delete(txt);
            return NULL;
        }
        cJSON_AddStringToObject(txt, "type", "text");
        cJSON_AddStringToObject(txt, "text", content->valuestring);
        cJSON_AddItemToArray(blocks, txt);
        cJSON_ReplaceItemInObjectCaseSensitive(m, "content", blocks);
        content = blocks;
    }
    int n = cJSON_IsArray(content) ? cJSON_GetArraySize(content) : 0;
    return n ? cJSON_GetArrayItem(content, n - 1) : NULL;
}

static void mark(cJSON *block)
{
    if (!block || cJSON_GetObjectItemCaseSensitive(block, "cache_control"))
        return;
    cJSON *cc = cJSON_AddObjectToObject(block, "cache_control");
    if (cc)
        cJSON_AddStringToObject(cc, "type", "ephemeral");
}

void llm_conv_mark_cache(cJSON *body)
{
    cJSON *system = cJSON_GetObjectItemCaseSensitive(body, "system");
    if (cJSON_IsString(system)) {
        cJSON *blocks = cJSON_CreateArray(), *txt = cJSON_CreateObject();
        if (!blocks || !txt) {
            cJSON_Delete(blocks);
            cJSON_Delete(txt);
            return;
        }
        cJSON_AddStringToObject(txt, "type", "text");
        cJSON_AddStringToObject(txt, "text", system->valuestring);
        mark(txt);
        cJSON_AddItemToArray(blocks, txt);
        cJSON_ReplaceItemInObjectCaseSensitive(body, "system", blocks);
    }
    /* the last two user messages: the previous request's end (already cached) and this one's */
    cJSON *msgs = cJSON_GetObjectItemCaseSensitive(body, "messages");
    int marked = 0;
    for (int i = cJSON_GetArraySize(msgs) - 1; i >= 0 && marked < 2; i--) {
        cJSON *m = cJSON_GetArrayItem(msgs, i);
        const char *role = eous_json_str(m, "role");
        if (role && !strcmp(role, "user")) {
            mark(last_block(m));
            marked++;
        }
    }
}

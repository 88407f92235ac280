/* llm/batch.c — several actions in one model reply: the reply kept as a turn
 * (llm_turn) so the next request can give each tool call its result in the
 * provider's own format, and several action lines of WebArena text.
 *
 * In a conversation (llm/conv.c) the next request carries the reply as the
 * assistant message, then its results — OpenAI: one
 * {"role":"tool","tool_call_id"} message per call; Anthropic: one tool_result
 * block per tool_use id (is_error for errors and actions not run) at the head
 * of the step's user message. */
#define _GNU_SOURCE
#include "llm/llm_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct llm_turn {
    llm_provider provider;
    cJSON *assistant;  /* the assistant message as the provider sent it (owned) */
    char **ids;        /* tool call ids, in order (owned) */
    char **results;    /* "ok: ...", "error: ...", "not run: ..." (owned; NULL = not reported) */
    int *is_error;
    size_t n;
};

void llm_turn_free(llm_turn *t)
{
    if (!t)
        return;
    cJSON_Delete(t->assistant);
    for (size_t i = 0; i < t->n; i++) {
        free(t->ids[i]);
        free(t->results[i]);
    }
    free(t->ids);
    free(t->results);
    free(t->is_error);
    free(t);
}

size_t llm_turn_n_calls(const llm_turn *t)
{
    return t ? t->n : 0;
}

void llm_turn_set_result(llm_turn *t, size_t i, llm_action_status status, const char *text)
{
    if (!t || i >= t->n)
        return;
    static const char *const prefix[] = {"ok: ", "error: ", "not run: "};
    char *r = NULL;
    if (asprintf(&r, "%s%s", prefix[status], text ? text : "") < 0)
        return;
    char *clean = eous_redact(r);
    free(r);
    free(t->results[i]);
    t->results[i] = clean;
    t->is_error[i] = status != LLM_ACTION_OK;
}

/* The reply's tool calls: OpenAI choices[0].message.tool_calls, Anthropic
 * content[] tool_use blocks.  NULL when the reply made none. */
eous_rc llm_turn_from_response(llm_provider p, const cJSON *root, llm_turn **out, eous_err *err)
{
    *out = NULL;
    cJSON *assistant = NULL;
    const cJSON *calls = NULL;
    if (p == LLM_OPENAI) {
        const cJSON *msg = eous_json_obj(cJSON_GetArrayItem(eous_json_arr(root, "choices"), 0), "message");
        calls = eous_json_arr(msg, "tool_calls");
        if (!calls || !cJSON_GetArraySize(calls))
            return EOUS_OK;
        assistant = cJSON_CreateObject();
        cJSON_AddStringToObject(assistant, "role", "assistant");
        const char *text = eous_json_str(msg, "content");
        if (text)
            cJSON_AddStringToObject(assistant, "content", text);
        else
            cJSON_AddNullToObject(assistant, "content");
        cJSON_AddItemToObject(assistant, "tool_calls", cJSON_Duplicate(calls, 1));
    } else {
        calls = eous_json_arr(root, "content");
        assistant = cJSON_CreateObject();
        cJSON_AddStringToObject(assistant, "role", "assistant");
        cJSON_AddItemToObject(assistant, "content", cJSON_Duplicate(calls, 1));
    }
    llm_turn *t = calloc(1, sizeof *t);
    size_t cap = (size_t)cJSON_GetArraySize(calls);
    if (!t || !assistant || !(t->ids = calloc(cap, sizeof *t->ids)) ||
        !(t->results = calloc(cap, sizeof *t->results)) || !(t->is_error = calloc(cap, sizeof *t->is_error))) {
        cJSON_Delete(assistant);
        llm_turn_free(t);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    t->provider = p;
    t->assistant = assistant;
    const cJSON *c;
    cJSON_ArrayForEach(c, calls) {
        if (p == LLM_ANTHROPIC && strcmp(eous_json_str(c, "type") ? eous_json_str(c, "type") : "", "tool_use"))
            continue;
        const char *id = eous_json_str(c, "id");
        t->ids[t->n++] = strdup(id ? id : "");
    }
    if (!t->n) {
        llm_turn_free(t);
        return EOUS_OK;
    }
    *out = t;
    return EOUS_OK;
}

static cJSON *text_message(const char *role, const char *text)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "role", role);
    cJSON_AddStringToObject(m, "content", text);
    return m;
}

static const char *result_of(const llm_turn *t, size_t i)
{
    return t->results[i] ? t->results[i] : "not run: no result was recorded";
}

const cJSON *llm_turn_assistant(const llm_turn *t)
{
    return t ? t->assistant : NULL;
}

eous_rc llm_turn_add_results(llm_provider p, const llm_turn *t, cJSON *msgs, cJSON *user, eous_err *err)
{
    size_t before = (size_t)cJSON_GetArraySize(msgs);
    cJSON *m = cJSON_CreateObject();
    if (!m) {
        cJSON_Delete(user);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    cJSON_AddStringToObject(m, "role", "user");
    if (p == LLM_OPENAI) {
        for (size_t i = 0; t && i < t->n; i++) {
            cJSON *r = text_message("tool", result_of(t, i));
            cJSON_AddStringToObject(r, "tool_call_id", t->ids[i]);
            cJSON_AddItemToArray(msgs, r);
        }
        cJSON_AddItemToObject(m, "content", user);
    } else {
        /* Anthropic: the results lead the user message as tool_result blocks, the step's text (or
         * its parts, with an image) follows; content is always blocks so a cache mark fits */
        cJSON *content = cJSON_AddArrayToObject(m, "content");
        for (size_t i = 0; t && i < t->n; i++) {
            cJSON *b = cJSON_CreateObject();
            cJSON_AddStringToObject(b, "type", "tool_result");
            cJSON_AddStringToObject(b, "tool_use_id", t->ids[i]);
            cJSON_AddStringToObject(b, "content", result_of(t, i));
            if (t->is_error[i])
                cJSON_AddBoolToObject(b, "is_error", 1);
            cJSON_AddItemToArray(content, b);
        }
        if (cJSON_IsArray(user)) {
            cJSON *part;
            while ((part = cJSON_DetachItemFromArray(user, 0)))
                cJSON_AddItemToArray(content, part);
        } else {
            cJSON *txt = cJSON_CreateObject();
            cJSON_AddStringToObject(txt, "type", "text");
            cJSON_AddStringToObject(txt, "text", cJSON_IsString(user) ? user->valuestring : "");
            cJSON_AddItemToArray(content, txt);
        }
        cJSON_Delete(user);
    }
    cJSON_AddItemToArray(msgs, m);
    if ((size_t)cJSON_GetArraySize(msgs) <= before)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* ---- several action lines of WebArena text ----------------------------------- */

/* The last ``` fence's inside, or 0. */
static int last_fence(const char *text, const char **b, const char **e)
{
    const char *open = NULL, *p = text;
    *b = *e = NULL;
    while ((p = strstr(p, "```")) != NULL) {
        if (!open) {
            open = p + 3;
        } else {
            *b = open;
            *e = p;
            open = NULL;
        }
        p += 3;
    }
    return *b != NULL;
}

eous_rc llm_parse_text_actions(const char *text, act_action *out, size_t cap, size_t *n_out, size_t *dropped,
                               eous_err *err)
{
    *n_out = 0;
    *dropped = 0;
    const char *b, *e;
    size_t lines = 0;
    if (text && last_fence(text, &b, &e)) {
        char *body = strndup(b, (size_t)(e - b));
        if (!body)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        char *save = NULL;
        int ok = 1;
        for (char *ln = strtok_r(body, "\n", &save); ln && ok; ln = strtok_r(NULL, "\n", &save)) {
            while (isspace((unsigned char)*ln))
                ln++;
            if (!*ln || (lines == 0 && !strchr(ln, '[') && !strchr(ln, ' ') && !act_verb_find(ln, strlen(ln))))
                continue; /* blank, or a language tag such as ```text */
            if (*n_out < cap) {
                act_action_init(&out[*n_out]);
                ok = act_parse_text(ln, &out[*n_out], NULL) == EOUS_OK;
                if (ok)
                    (*n_out)++;
            } else {
                (*dropped)++;
            }
            lines++;
        }
        free(body);
        if (ok && lines > 1)
            return EOUS_OK;
        for (size_t i = 0; i < *n_out; i++)
            act_action_clear(&out[i]);
        *n_out = *dropped = 0;
    }
    /* one action, by act_parse_text's own rules (and its error) */
    if (!cap)
        return eous_err_set(err, EOUS_E_INVALID, "no room for an action");
    act_action_init(&out[0]);
    eous_rc rc = act_parse_text(text, &out[0], err);
    if (!rc)
        *n_out = 1;
    return rc;
}

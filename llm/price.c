/* llm/price.c — USD per 1M tokens, built in for a few common models and
 * overridable by a JSON file:
 *   {"gpt-4o": {"input": 2.5, "output": 10, "cached_input": 1.25}, ...}
 * A model matches an entry by exact name, else by the longest entry that is a
 * prefix of it ("gpt-4o-2024-08-06" → "gpt-4o").  Built-in prices are the
 * providers' published list prices when this was written; pass a table to
 * follow changes. */
#include "llm/llm_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct price_row {
    const char *model;
    llm_price p;
} price_row;

static const price_row builtin[] = {
    {"gpt-4o", {2.50, 10.00, 1.25}},
    {"gpt-4o-mini", {0.15, 0.60, 0.075}},
    {"gpt-4.1", {2.00, 8.00, 0.50}},
    {"gpt-4.1-mini", {0.40, 1.60, 0.10}},
    {"gpt-4.1-nano", {0.10, 0.40, 0.025}},
    {"gpt-4-turbo", {10.00, 30.00, 10.00}},
    {"gpt-3.5-turbo", {0.50, 1.50, 0.50}},
    {"o3-mini", {1.10, 4.40, 0.55}},
    {"o4-mini", {1.10, 4.40, 0.275}},
    {"claude-3-5-haiku", {0.80, 4.00, 0.08}},
    {"claude-3-5-sonnet", {3.00, 15.00, 0.30}},
    {"claude-3-7-sonnet", {3.00, 15.00, 0.30}},
    {"claude-sonnet-4", {3.00, 15.00, 0.30}},
    {"claude-opus-4", {15.00, 75.00, 1.50}},
};

typedef struct owned_row {
    char *model;
    llm_price p;
} owned_row;

struct llm_price_table {
    owned_row *rows;
    size_t n;
};

void llm_price_table_free(llm_price_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i].model);
    free(t->rows);
    free(t);
}

eous_rc llm_price_table_load(const char *path, llm_price_table **out, eous_err *err)
{
    *out = NULL;
    eous_rc rc = EOUS_OK;
    cJSON *root = eous_json_parse_file(path, 4 * 1024 * 1024, err);
    if (!root) {
        if (err)
            err->rc = EOUS_E_INVALID;
        return EOUS_E_INVALID;
    }
    llm_price_table *t = calloc(1, sizeof *t);
    size_t n = (size_t)cJSON_GetArraySize(root);
    if (!t || !(t->rows = calloc(n ? n : 1, sizeof *t->rows))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        rc = eous_err_set(err, EOUS_E_INVALID,
                          "%s: expected {\"MODEL\": {\"input\": <USD per 1M>, \"output\": <USD per 1M>, "
                          "\"cached_input\": <USD per 1M>}}, got a %s",
                          path, eous_json_type_name(root));
        goto done;
    }
    for (const cJSON *it = root->child; it; it = it->next) {
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(it, "input");
        const cJSON *outp = cJSON_GetObjectItemCaseSensitive(it, "output");
        const cJSON *cached = cJSON_GetObjectItemCaseSensitive(it, "cached_input");
        if (!cJSON_IsObject(it) || !cJSON_IsNumber(in) || !cJSON_IsNumber(outp) ||
            (cached && !cJSON_IsNumber(cached)) || in->valuedouble < 0 || outp->valuedouble < 0) {
            rc = eous_err_set(err, EOUS_E_INVALID,
                              "%s: \"%s\": expected {\"input\": <USD per 1M>, \"output\": <USD per 1M>, "
                              "\"cached_input\": <USD per 1M, optional>}",
                              path, it->string ? it->string : "");
            goto done;
        }
        owned_row *r = &t->rows[t->n];
        if (!(r->model = strdup(it->string ? it->string : ""))) {
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            goto done;
        }
        r->p.input = in->valuedouble;
        r->p.output = outp->valuedouble;
        /* without a cached price, cached tokens cost as much as the others */
        r->p.cached_input = cached ? cached->valuedouble : in->valuedouble;
        t->n++;
    }
done:
    cJSON_Delete(root);
    if (rc) {
        llm_price_table_free(t);
        return rc;
    }
    *out = t;
    return EOUS_OK;
}

static int match_len(const char *entry, const char *model)
{
    size_t n = strlen(entry);
    if (strncmp(entry, model, n) != 0)
        return -1;
    return model[n] == '\0' ? 100000 : (int)n; /* exact beats any prefix */
}

int llm_price_lookup(const llm_price_table *t, const char *model, llm_price *out)
{
    if (!model)
        return 0;
    int best = -1;
    for (size_t i = 0; t && i < t->n; i++) {
        int m = match_len(t->rows[i].model, model);
        if (m > best) {
            best = m;
            *out = t->rows[i].p;
        }
    }
    if (best >= 0)
        return 1; /* the user's table wins over built-ins */
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++) {
        int m = match_len(builtin[i].model, model);
        if (m > best) {
            best = m;
            *out = builtin[i].p;
        }
    }
    return best >= 0;
}

double llm_cost(const llm_price *p, long prompt_tokens, long cached_tokens, long completion_tokens)
{
    double uncached = (double)prompt_tokens - (double)cached_tokens; /* no long overflow on garbage */
    if (uncached < 0)
        uncached = 0;
    return (uncached * p->input + (double)cached_tokens * p->cached_input +
            (double)completion_tokens * p->output) / 1e6;
}

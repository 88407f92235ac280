/* agent/distill_params.c — the typed values a run's intent holds, as a distilled job's parameters: each
 * value the model typed that the intent names becomes {{param:NAME}} with the run's value as its default
 * (see distill.h).  Used by the run's steps (distill.c) and by a call's atomic steps (distill_atomic.c). */
#define _GNU_SOURCE
#include "agent/distill_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when value is in the intent as a whole word or phrase (worth a parameter). */
static int in_intent(const char *intent, const char *value)
{
    size_t n = strlen(value);
    if (n < 3 || strstr(value, "{{"))
        return 0;
    for (const char *p = intent ? strstr(intent, value) : NULL; p; p = strstr(p + 1, value))
        if ((p == intent || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
            return 1;
    return 0;
}

/* The parameter holding value (an existing one, else a new one named from label), as its
 * placeholder in out; 0 when value is no parameter. */
int dv_param_for(dv_params *ps, const char *value, const char *label, int step, char *out, size_t n)
{
    if (!in_intent(ps->intent, value))
        return 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, ps->decl)
    {
        const char *d = eous_json_str(it, "default");
        if (d && !strcmp(d, value)) {
            snprintf(out, n, "{{param:%s}}", it->string);
            return 1;
        }
    }
    char base[48] = "";
    size_t k = 0;
    for (const char *p = label; p && *p && k < 40; p++) {
        if (isalnum((unsigned char)*p))
            base[k++] = (char)toupper((unsigned char)*p);
        else if (k && base[k - 1] != '_')
            base[k++] = '_';
    }
    while (k && base[k - 1] == '_')
        k--;
    base[k] = '\0';
    if (!k || isdigit((unsigned char)base[0]))
        snprintf(base, sizeof base, "VALUE");
    char name[64];
    snprintf(name, sizeof name, "%s", base);
    for (int i = 2; cJSON_GetObjectItemCaseSensitive(ps->decl, name); i++)
        snprintf(name, sizeof name, "%s_%d", base, i);
    cJSON *d = cJSON_CreateObject();
    char desc[160];
    snprintf(desc, sizeof desc, "typed into %.100s at step %d", label && *label ? label : "a field", step);
    if (!d || !cJSON_AddStringToObject(d, "default", value) || !cJSON_AddStringToObject(d, "description", desc) ||
        !cJSON_AddItemToObject(ps->decl, name, d)) {
        cJSON_Delete(d);
        return 0;
    }
    snprintf(out, n, "{{param:%s}}", name);
    return 1;
}

/* 1 when a call's parameter key says only what kind of value it is (its component's label says more). */
static int generic_key(const char *k)
{
    static const char *const keys[] = {"text", "value", "values", "date", "time", "query", "path"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(k, keys[i]))
            return 1;
    return 0;
}

/* Every string of a call's params (copied in place) that the intent holds, as its parameter,
 * named after its key (a form's field, a table's column), or label when the key is generic. */
void dv_params_in_json(dv_params *ps, cJSON *j, const char *label, int fields, int step)
{
    cJSON *it;
    cJSON_ArrayForEach(it, j)
    {
        char ph[96];
        const char *name = it->string && (fields || !generic_key(it->string)) ? it->string : label;
        if (cJSON_IsString(it) && dv_param_for(ps, it->valuestring, name, step, ph, sizeof ph))
            cJSON_SetValuestring(it, ph);
        else if (cJSON_IsArray(it) || cJSON_IsObject(it))
            dv_params_in_json(ps, it, label, fields, step);
    }
}

/* s with each parameter's value (of 4 characters or more, as a whole word) written as its
 * placeholder; caller frees. */
char *dv_with_placeholders(const dv_params *ps, const char *s)
{
    char *cur = strdup(s ? s : "");
    const cJSON *it;
    cJSON_ArrayForEach(it, ps->decl)
    {
        const char *v = eous_json_str(it, "default");
        if (!cur || !v || strlen(v) < 4 || !in_intent(cur, v))
            continue;
        const char *p = strstr(cur, v);
        while (p && ((p > cur && isalnum((unsigned char)p[-1])) || isalnum((unsigned char)p[strlen(v)])))
            p = strstr(p + 1, v);
        if (!p)
            continue;
        char *next = NULL;
        if (asprintf(&next, "%.*s{{param:%s}}%s", (int)(p - cur), cur, it->string, p + strlen(v)) < 0)
            next = NULL;
        free(cur);
        cur = next;
    }
    return cur;
}

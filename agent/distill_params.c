/* agent/distill_params.c — the typed values a run's intent holds, as a distilled job's parameters: each
 * value the model typed that the intent names becomes {{param:NAME}} with the run's value as its default
 * (see distill.h).  Used by the run's steps (distill.c) and by a call's atomic steps (distill_atomic.c). */
#define _GNU_SOURCE
#include "agent/distill_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* A new parameter's name from label ("Check-out": CHECK_OUT, then CHECK_OUT_2...) into name. */
static void param_name(const dv_params *ps, const char *label, char *name, size_t n)
{
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
    snprintf(name, n, "%s", base);
    for (int i = 2; cJSON_GetObjectItemCaseSensitive(ps->decl, name); i++)
        snprintf(name, n, "%s_%d", base, i);
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
    char name[64];
    param_name(ps, label, name, sizeof name);
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

/* The days since 1970 of a date "YYYY-MM-DD" at s (exactly, then no digit), or -1. */
static long date_days(const char *s)
{
    int y, m, d, len = 0;
    if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &len) != 3 || len != 10 || isdigit((unsigned char)s[10]) ||
        m < 1 || m > 12 || d < 1 || d > 31)
        return -1;
    struct tm tm = {.tm_year = y - 1900, .tm_mon = m - 1, .tm_mday = d, .tm_hour = 12};
    time_t t = timegm(&tm);
    return t == (time_t)-1 ? -1 : (long)(t / 86400);
}

/* How a computed date value is counted from the intent's last date before or after it ("2025-07-01 plus
 * 14 days"), into how; 0, or -1 when the intent holds no other date within a year of it. */
static int date_counted(const dv_params *ps, const char *value, char *how, size_t hn)
{
    long want = date_days(value), best = -1;
    char date[11] = "";
    for (const char *p = ps->intent; want >= 0 && p && *p; p++) {
        long d = (p == ps->intent || !isdigit((unsigned char)p[-1])) ? date_days(p) : -1;
        if (d >= 0 && d != want && labs(want - d) <= 366) {
            best = d;
            snprintf(date, sizeof date, "%.10s", p);
        }
    }
    if (best < 0)
        return -1;
    snprintf(how, hn, "%s %s %ld days", date, want > best ? "plus" : "minus", labs(want - best));
    return 0;
}

int dv_value_seen(const dv_params *ps, const char *value)
{
    return (ps->intent && strcasestr(ps->intent, value)) || (ps->seen && strcasestr(ps->seen, value));
}

int dv_param_computed(dv_params *ps, const char *value, const char *label, int step, char *out, size_t n,
                      char *from, size_t fn)
{
    char how[64] = "";
    if (!value || !*value || strlen(value) > 200 || strchr(value, '\n') || strstr(value, "{{") ||
        in_intent(ps->intent, value))
        return 0;
    /* a date counted from the intent's (though a hybrid tool's bounds printed it: the atomic view does not) */
    int dated = date_days(value) >= 0 && !date_counted(ps, value, how, sizeof how);
    if (!dated && dv_value_seen(ps, value))
        return 0;
    snprintf(from, fn, "%s", dated ? "" : "placeholder");
    const cJSON *it;
    cJSON_ArrayForEach(it, ps->decl) /* the same value typed again: the same parameter */
    {
        const char *d = eous_json_str(it, "default");
        if (d && !strcmp(d, value)) {
            snprintf(out, n, "{{param:%s}}", it->string);
            return 1;
        }
    }
    char name[64], desc[300], note[700], said[400];
    param_name(ps, label, name, sizeof name);
    if (dated)
        snprintf(desc, sizeof desc, "%s at step %d: the model counted it (%s)", label && *label ? label : "a field",
                 step, how);
    else
        snprintf(desc, sizeof desc, "%s at step %d: the model made it up (filler in no view it read)",
                 label && *label ? label : "a field", step);
    cJSON *d = cJSON_CreateObject();
    if (!d || !cJSON_AddStringToObject(d, "default", value) || !cJSON_AddStringToObject(d, "description", desc) ||
        !cJSON_AddItemToObject(ps->decl, name, d)) {
        cJSON_Delete(d);
        return 0;
    }
    if (dated) { /* the job's intent names it, as it names each value a replay types (its grounding reads it) */
        snprintf(said, sizeof said, "%s: {{param:%s}}", label && *label ? label : name, name);
        cJSON_AddItemToArray(ps->said, cJSON_CreateString(said));
        snprintf(note, sizeof note, "step %d: '%.100s' (%s) is not in the intent: parameter %s, the run's value its "
                 "default, which the job's intent names", step, value, how, name);
    } else {
        snprintf(note, sizeof note, "step %d: '%.100s' is in neither the intent nor a view the run read: parameter %s, "
                 "the run's value its default, typed as filler (\"from\": \"placeholder\")", step, value, name);
    }
    cJSON_AddItemToArray(ps->notes, cJSON_CreateString(note));
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

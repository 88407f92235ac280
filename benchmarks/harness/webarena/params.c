/* webarena/params.c — see params.h. */
#define _GNU_SOURCE
#include "webarena/params.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PH_OPEN "{{param:"

static int valid_name(const char *s, size_t n)
{
    if (!n || n > WA_PARAM_NAME_MAX || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

/* name (n bytes) = value into *values; what names the source in errors. */
static eous_rc put(cJSON **values, const char *name, size_t n, const char *value, const char *what, eous_err *err)
{
    if (!valid_name(name, n))
        return eous_err_set(err, EOUS_E_INVALID,
                            "%s: parameter name '%.*s': expected letters, digits and '_' (not starting with a digit)",
                            what, (int)(n > 80 ? 80 : n), name);
    /* a value that held a placeholder would be filled again: a parameter never names a secret */
    if (strstr(value, "{{"))
        return eous_err_set(err, EOUS_E_INVALID, "%s: parameter %.*s: a value may not hold '{{' (a parameter is not a "
                            "placeholder; secrets go in the secrets file)", what, (int)n, name);
    if (!*values && !(*values = cJSON_CreateObject()))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    char key[WA_PARAM_NAME_MAX + 1];
    memcpy(key, name, n);
    key[n] = '\0';
    cJSON_DeleteItemFromObjectCaseSensitive(*values, key);
    if (!cJSON_AddStringToObject(*values, key, value))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

eous_rc wa_params_add(cJSON **values, const char *arg, eous_err *err)
{
    const char *eq = strchr(arg, '=');
    char what[160];
    snprintf(what, sizeof what, "parameter '%.100s'", arg);
    if (!eq)
        return eous_err_set(err, EOUS_E_INVALID, "%s: expected NAME=VALUE", what);
    return put(values, arg, (size_t)(eq - arg), eq + 1, what, err);
}

/* ---- --params FILE ---------------------------------------------------------- */

/* A dotenv value in place: "double" (\n \t \" \\), 'single' or bare (" #" starts a comment). */
static int dotenv_value(char *v)
{
    size_t n = strlen(v);
    if (n && (v[0] == '"' || v[0] == '\'')) {
        char q = v[0], *w = v;
        size_t i = 1;
        for (; i < n && v[i] != q; i++) {
            if (q == '"' && v[i] == '\\' && i + 1 < n) {
                i++;
                *w++ = v[i] == 'n' ? '\n' : v[i] == 't' ? '\t' : v[i];
            } else {
                *w++ = v[i];
            }
        }
        const char *rest = i < n ? v + i + 1 : NULL;
        while (rest && (*rest == ' ' || *rest == '\t'))
            rest++;
        if (!rest || (*rest && *rest != '#'))
            return -1;
        *w = '\0';
        return 0;
    }
    char *hash = strstr(v, " #");
    if (hash)
        *hash = '\0';
    n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        v[--n] = '\0';
    return 0;
}

static eous_rc load_dotenv(cJSON **values, char *text, const char *path, eous_err *err)
{
    int line = 0;
    char *next = text;
    while (next && *next) {
        char *ln = next, *nl = strchr(ln, '\n');
        if (nl)
            *nl = '\0';
        next = nl ? nl + 1 : NULL;
        line++;
        size_t n = strlen(ln);
        if (n && ln[n - 1] == '\r')
            ln[--n] = '\0';
        ln += strspn(ln, " \t");
        if (!*ln || *ln == '#')
            continue;
        if (!strncmp(ln, "export ", 7))
            ln += 7;
        char *eq = strchr(ln, '='), what[4200];
        snprintf(what, sizeof what, "parameters file %s:%d", path, line);
        if (!eq)
            return eous_err_set(err, EOUS_E_INVALID, "%s: expected NAME=VALUE", what);
        size_t nn = (size_t)(eq - ln);
        while (nn && (ln[nn - 1] == ' ' || ln[nn - 1] == '\t'))
            nn--;
        char *v = eq + 1 + strspn(eq + 1, " \t");
        if (dotenv_value(v))
            return eous_err_set(err, EOUS_E_INVALID, "%s: unterminated quote or text after the quoted value", what);
        eous_rc rc = put(values, ln, nn, v, what, err);
        if (rc)
            return rc;
    }
    return EOUS_OK;
}

static eous_rc load_json(cJSON **values, const cJSON *o, const char *path, eous_err *err)
{
    char what[4200];
    snprintf(what, sizeof what, "parameters file %s", path);
    if (!cJSON_IsObject(o))
        return eous_err_set(err, EOUS_E_INVALID, "%s: expected a JSON object {NAME: value} or NAME=value lines, got %s",
                            what, eous_json_type_name(o));
    const cJSON *c;
    cJSON_ArrayForEach(c, o) {
        char num[64];
        const char *v = cJSON_IsString(c) ? c->valuestring : NULL;
        if (cJSON_IsNumber(c)) {
            snprintf(num, sizeof num, "%.17g", c->valuedouble);
            v = num;
        } else if (cJSON_IsBool(c)) {
            v = cJSON_IsTrue(c) ? "true" : "false";
        }
        if (!v)
            return eous_err_set(err, EOUS_E_INVALID, "%s: parameter %.80s: expected a string, number or boolean, got %s",
                                what, c->string, eous_json_type_name(c));
        eous_rc rc = put(values, c->string, strlen(c->string), v, what, err);
        if (rc)
            return rc;
    }
    return EOUS_OK;
}

eous_rc wa_params_load_file(cJSON **values, const char *path, eous_err *err)
{
    char *text = NULL;
    size_t len = 0;
    eous_rc rc = eous_read_file(path, 1024 * 1024, &text, &len, err);
    if (rc) {
        free(text);
        char why[EOUS_ERR_MSG_MAX]; /* err->msg is both the cause and the message: printing one into the other garbled it */
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        return eous_err_set(err, EOUS_E_INVALID, "parameters file %s: cannot read it (%s)", path, why);
    }
    const char *p = text + strspn(text, " \t\r\n");
    if (*p == '{') {
        cJSON *o = eous_json_parse(text, len, path, err);
        rc = o ? load_json(values, o, path, err) : EOUS_E_INVALID;
        if (!o && err)
            err->rc = EOUS_E_INVALID;
        cJSON_Delete(o);
    } else {
        rc = load_dotenv(values, text, path, err);
    }
    free(text);
    return rc;
}

/* ---- filling a config ------------------------------------------------------- */

/* The declaration of name (n bytes) in decl, or NULL. */
static const cJSON *declared(const cJSON *decl, const char *name, size_t n)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, decl)
        if (strlen(c->string) == n && !strncmp(c->string, name, n))
            return c;
    return NULL;
}

static const char *default_of(const cJSON *d)
{
    return cJSON_IsString(d) ? d->valuestring : eous_json_str(d, "default");
}

/* "params" is an object of NAME: "default" | {default?: string, description?: string}. */
static eous_rc check_decl(const cJSON *decl, const char *where, eous_err *err)
{
    if (!decl)
        return EOUS_OK;
    if (!cJSON_IsObject(decl))
        return eous_err_set(err, EOUS_E_INVALID, "%s: \"params\" must be an object {NAME: {default?, description?}}, got %s",
                            where, eous_json_type_name(decl));
    const cJSON *c;
    cJSON_ArrayForEach(c, decl) {
        if (!valid_name(c->string, strlen(c->string)))
            return eous_err_set(err, EOUS_E_INVALID,
                                "%s: parameter name '%.80s': expected letters, digits and '_' (not starting with a digit)",
                                where, c->string);
        if (cJSON_IsString(c))
            continue;
        if (!cJSON_IsObject(c))
            return eous_err_set(err, EOUS_E_INVALID, "%s: parameter %s: expected a default string or {default?, "
                                "description?}, got %s", where, c->string, eous_json_type_name(c));
        const cJSON *k;
        cJSON_ArrayForEach(k, c) {
            if ((strcmp(k->string, "default") && strcmp(k->string, "description")) || !cJSON_IsString(k))
                return eous_err_set(err, EOUS_E_INVALID, "%s: parameter %s: \"%.40s\": expected \"default\" or "
                                    "\"description\", each a string", where, c->string, k->string);
        }
    }
    return EOUS_OK;
}

typedef struct fill_ctx {
    const cJSON *decl, *given;
    int keep_missing;
    const char *where;
} fill_ctx;

/* s with every placeholder filled into *out (caller frees; NULL when s has none left to fill). */
static eous_rc fill_string(const fill_ctx *f, const char *s, char **out, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    const char *p = s, *ph;
    *out = NULL;
    while ((ph = strstr(p, PH_OPEN))) {
        const char *name = ph + strlen(PH_OPEN), *end = strstr(name, "}}");
        size_t n = end ? (size_t)(end - name) : 0;
        if (!end || !valid_name(name, n)) {
            eous_buf_free(&b);
            return eous_err_set(err, EOUS_E_INVALID, "%s: placeholder '%.*s': expected {{param:NAME}} with NAME of "
                                "letters, digits, '_'", f->where, (int)strcspn(ph, " \"") > 60 ? 60 : (int)strcspn(ph, " \""), ph);
        }
        const cJSON *d = declared(f->decl, name, n), *g = declared(f->given, name, n);
        if (!d) {
            eous_buf_free(&b);
            return eous_err_set(err, EOUS_E_INVALID, "%s: {{param:%.*s}} is not declared (add \"%.*s\" under \"params\", "
                                "with a default or none)", f->where, (int)n, name, (int)n, name);
        }
        const char *v = g ? g->valuestring : default_of(d);
        if (!v && !f->keep_missing) {
            eous_buf_free(&b);
            eous_err_set_code(err, WA_ERR_PARAM_UNSET); /* the CLI names the flags that give one */
            return eous_err_set(err, EOUS_E_INVALID, "%s: parameter %.*s has no value and no default (expected "
                                "%.*s=VALUE among the parameters given)", f->where, (int)n, name, (int)n, name);
        }
        eous_buf_append(&b, p, (size_t)(ph - p), NULL);
        if (v)
            eous_buf_puts(&b, v, NULL);
        else
            eous_buf_append(&b, ph, (size_t)(end + 2 - ph), NULL);
        p = end + 2;
    }
    if (p == s) {
        eous_buf_free(&b);
        return EOUS_OK;
    }
    eous_buf_puts(&b, p, NULL);
    *out = eous_buf_steal(&b);
    return *out ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
}

static eous_rc fill_tree(const fill_ctx *f, cJSON *node, int top, eous_err *err)
{
    for (cJSON *c = node ? node->child : NULL; c; c = c->next) {
        /* the id names files and the declaration holds the defaults: neither is filled */
        if (top && c->string && (!strcmp(c->string, "params") || !strcmp(c->string, "task_id") ||
                                 !strcmp(c->string, "name")))
            continue;
        eous_rc rc = EOUS_OK;
        if (cJSON_IsString(c) && strstr(c->valuestring, PH_OPEN)) {
            char *r = NULL;
            rc = fill_string(f, c->valuestring, &r, err);
            if (!rc && r && !cJSON_SetValuestring(c, r))
                rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            free(r);
        } else if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
            rc = fill_tree(f, c, 0, err);
        }
        if (rc)
            return rc;
    }
    return EOUS_OK;
}

eous_rc wa_params_fill(cJSON *cfg, const cJSON *given, int keep_missing, const char *where, cJSON **used,
                       eous_err *err)
{
    *used = NULL;
    const cJSON *decl = cJSON_GetObjectItemCaseSensitive(cfg, "params");
    eous_rc rc = check_decl(decl, where, err);
    if (rc)
        return rc;
    fill_ctx f = {decl, given, keep_missing, where};
    if ((rc = fill_tree(&f, cfg, 1, err)))
        return rc;
    const cJSON *d;
    cJSON_ArrayForEach(d, decl) {
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(given, d->string);
        const char *v = g ? g->valuestring : default_of(d);
        if (!v)
            continue;
        if ((!*used && !(*used = cJSON_CreateObject())) || !cJSON_AddStringToObject(*used, d->string, v)) {
            cJSON_Delete(*used);
            *used = NULL;
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        }
    }
    return EOUS_OK;
}

int wa_params_declares(const cJSON *cfg, const char *name)
{
    const cJSON *decl = cJSON_GetObjectItemCaseSensitive(cfg, "params");
    return cJSON_IsObject(decl) && cJSON_GetObjectItemCaseSensitive(decl, name) != NULL;
}

/* actions/secrets.c — secret placeholders, sources and scoping (see secrets.h). */
#include "actions/secrets.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/act_int.h"

extern char **environ;

#define PH_OPEN "{{secret:"
#define ENV_PREFIX "EOUS_SECRET_"
#define ENV_DOMAINS "EOUS_SECRET_DOMAINS_"

typedef struct secret {
    char *name, *value, *domains; /* domains: comma list or NULL (any page) */
} secret;

struct act_secrets {
    secret *v;
    size_t n, cap;
};

void act_secret_free(char *value)
{
    eous_wipe_free(value);
}

void act_secret_json_free(cJSON *v)
{
    eous_json_wipe_free(v);
}

static int valid_name(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

/* Registers the value with the redactor, which finds it in every encoding a
 * page or URL gives it back in (core/redact.c). */
static int register_value(const char *value)
{
    return eous_redact_add(value);
}

static eous_rc put(act_secrets *s, const char *name, size_t name_len, const char *value, const char *domains,
                   const char *where, eous_err *err)
{
    if (register_value(value) != 0)
        return eous_err_set(err, EOUS_E_INVALID,
                            "%s: secret %.*s is shorter than 4 characters, too short to keep out of logs", where,
                            (int)name_len, name);
    for (size_t i = 0; i < s->n; i++) {
        if (strlen(s->v[i].name) == name_len && !memcmp(s->v[i].name, name, name_len)) {
            char *v = strdup(value), *d = domains ? strdup(domains) : NULL;
            if (!v || (domains && !d)) {
                free(v);
                free(d);
                return eous_err_set(err, EOUS_E_NOMEM, "out of memory reading secrets");
            }
            act_secret_free(s->v[i].value);
            free(s->v[i].domains);
            s->v[i].value = v;
            s->v[i].domains = d;
            return EOUS_OK;
        }
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        secret *n = realloc(s->v, cap * sizeof *n);
        if (!n)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory reading secrets");
        s->v = n;
        s->cap = cap;
    }
    secret *e = &s->v[s->n];
    e->name = strndup(name, name_len);
    e->value = strdup(value);
    e->domains = domains ? strdup(domains) : NULL;
    if (!e->name || !e->value || (domains && !e->domains)) {
        free(e->name);
        act_secret_free(e->value);
        free(e->domains);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory reading secrets");
    }
    s->n++;
    return EOUS_OK;
}

eous_rc act_secrets_new(act_secrets **out, eous_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory creating secrets");
    /* Register environment secrets now so they are redacted even before
     * first use; short ones stay unregistered and are refused when used. */
    for (char **e = environ; e && *e; e++)
        if (eous_starts_with(*e, ENV_PREFIX) && !eous_starts_with(*e, ENV_DOMAINS) && strchr(*e, '='))
            register_value(strchr(*e, '=') + 1);
    return EOUS_OK;
}

void act_secrets_free(act_secrets *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].name);
        act_secret_free(s->v[i].value);
        free(s->v[i].domains);
    }
    free(s->v);
    free(s);
}

size_t act_secrets_count(const act_secrets *s)
{
    return s ? s->n : 0;
}

/* ---- the dotenv file -------------------------------------------------------- */

static eous_rc parse_value(char *v, const char *path, int line, eous_err *err)
{
    size_t n = strlen(v);
    if (n && (v[0] == '"' || v[0] == '\'')) {
        char q = v[0];
        char *w = v;
        size_t i = 1;
        for (; i < n && v[i] != q; i++) {
            if (q == '"' && v[i] == '\\' && i + 1 < n) {
                i++;
                *w++ = v[i] == 'n' ? '\n' : v[i] == 't' ? '\t' : v[i];
            } else {
                *w++ = v[i];
            }
        }
        if (i >= n)
            return eous_err_set(err, EOUS_E_INVALID, "%s:%d: unterminated %c-quoted value", path, line, q);
        const char *rest = v + i + 1;
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (*rest && *rest != '#')
            return eous_err_set(err, EOUS_E_INVALID, "%s:%d: unexpected text after the quoted value", path, line);
        *w = '\0';
        return EOUS_OK;
    }
    /* unquoted: " #" starts a comment; surrounding blanks dropped */
    char *hash = strstr(v, " #");
    if (hash)
        *hash = '\0';
    n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        v[--n] = '\0';
    return EOUS_OK;
}

static int valid_domains(const char *d)
{
    if (!*d)
        return 0;
    for (; *d; d++)
        if ((unsigned char)*d <= 0x20 || strchr("/@\\%", *d))
            return 0;
    return 1;
}

eous_rc act_secrets_load_file(act_secrets *s, const char *path, eous_err *err)
{
    eous_rc rc = EOUS_OK;
    char *text = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return eous_err_set(err, EOUS_E_INVALID, "secrets file %s: cannot open it", path);
    struct stat st;
    /* fstat on the opened file: the mode checked is the mode of what is read */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = eous_err_set(err, EOUS_E_INVALID, "secrets file %s: not a regular file", path);
        goto done;
    }
    if (st.st_mode & 077) {
        rc = eous_err_set(err, EOUS_E_INVALID,
                          "secrets file %s has mode %04o; it must not be readable by group or others "
                          "(expected 0600: chmod 600 %s)",
                          path, (unsigned)(st.st_mode & 07777), path);
        goto done;
    }
    if (st.st_size > 1024 * 1024) {
        rc = eous_err_set(err, EOUS_E_INVALID, "secrets file %s: larger than 1 MiB", path);
        goto done;
    }
    text = calloc(1, (size_t)st.st_size + 1);
    if (!text) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory reading %s", path);
        goto done;
    }
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, text + got, (size_t)st.st_size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    text[got] = '\0';
    int line = 0;
    char *next = text;
    while (next && *next) {
        char *ln = next;
        char *nl = strchr(ln, '\n');
        if (nl)
            *nl = '\0';
        next = nl ? nl + 1 : NULL;
        line++;
        size_t n = strlen(ln);
        if (n && ln[n - 1] == '\r')
            ln[--n] = '\0';
        while (*ln == ' ' || *ln == '\t')
            ln++;
        if (!*ln || *ln == '#')
            continue;
        if (!strncmp(ln, "export ", 7))
            ln += 7;
        char *eq = strchr(ln, '=');
        if (!eq) {
            rc = eous_err_set(err, EOUS_E_INVALID, "%s:%d: expected NAME=value or NAME@host=value", path, line);
            goto done;
        }
        *eq = '\0';
        char *key = ln, *val = eq + 1;
        size_t kl = strlen(key);
        while (kl && (key[kl - 1] == ' ' || key[kl - 1] == '\t'))
            key[--kl] = '\0';
        while (*val == ' ' || *val == '\t')
            val++;
        char *at = strchr(key, '@');
        if (at)
            *at++ = '\0';
        if (!valid_name(key, strlen(key))) {
            rc = eous_err_set(err, EOUS_E_INVALID,
                              "%s:%d: secret name '%s' must be letters, digits and '_' (not starting with a digit)",
                              path, line, key);
            goto done;
        }
        if (at && !valid_domains(at)) {
            rc = eous_err_set(err, EOUS_E_INVALID, "%s:%d: secret %s: expected hosts like example.com,*.example.org "
                                                   "after '@'",
                              path, line, key);
            goto done;
        }
        if ((rc = parse_value(val, path, line, err)))
            goto done;
        char where[600];
        snprintf(where, sizeof where, "%s:%d", path, line);
        if ((rc = put(s, key, strlen(key), val, at, where, err)))
            goto done;
    }
done:
    if (text) {
        /* the buffer now holds NULs between lines: clear all of it */
        volatile char *w = text;
        for (off_t i = 0; i < st.st_size; i++)
            w[i] = 0;
    }
    free(text);
    close(fd);
    return rc;
}

/* ---- expansion ----------------------------------------------------------------- */

int act_secrets_has_placeholder(const char *text)
{
    return text && strstr(text, PH_OPEN) != NULL;
}

int act_secrets_json_has_placeholder(const cJSON *v)
{
    for (; v; v = v->next) {
        if (cJSON_IsString(v) && act_secrets_has_placeholder(v->valuestring))
            return 1;
        if (v->child && act_secrets_json_has_placeholder(v->child))
            return 1;
    }
    return 0;
}

/* 1 when one of the comma-separated host patterns covers the page. */
static int domain_ok(const char *domains, const act_url *u)
{
    char list[1024];
    snprintf(list, sizeof list, "%s", domains);
    char *save = NULL;
    for (char *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
        while (*d == ' ')
            d++;
        char *port = NULL;
        if (d[0] != '[' && (port = strrchr(d, ':')))
            *port++ = '\0';
        else if (d[0] == '[' && (port = strstr(d, "]:")))
            *++port = '\0', port++;
        if (port && atoi(port) != u->port)
            continue;
        if (!strncmp(d, "*.", 2)) {
            size_t hl = strlen(u->host), sl = strlen(d + 1);
            if (hl > sl && !strcasecmp(u->host + hl - sl, d + 1))
                return 1;
        } else if (!strcasecmp(d, u->host)) {
            return 1;
        }
    }
    return 0;
}

static eous_rc lookup(const act_secrets *s, const char *name, const char *page_url, const char **value,
                      eous_err *err)
{
    char env[300];
    snprintf(env, sizeof env, ENV_PREFIX "%s", name);
    const char *v = getenv(env);
    const char *domains = NULL;
    if (v) {
        snprintf(env, sizeof env, ENV_DOMAINS "%s", name);
        domains = getenv(env);
        if (register_value(v) != 0)
            return eous_err_set(err, EOUS_E_INVALID,
                                "secret %s (from $" ENV_PREFIX "%s) is shorter than 4 characters, too short to keep "
                                "out of logs",
                                name, name);
    } else {
        for (size_t i = 0; s && i < s->n; i++) {
            if (!strcmp(s->v[i].name, name)) {
                v = s->v[i].value;
                domains = s->v[i].domains;
                break;
            }
        }
    }
    if (!v)
        return eous_err_set(err, EOUS_E_INVALID,
                            "unknown secret %s: set " ENV_PREFIX "%s or add %s=... to the secrets file", name, name,
                            name);
    if (domains && *domains) {
        act_url u;
        if (!page_url || act_url_parse(page_url, &u) != 0 || !u.host[0] || !domain_ok(domains, &u))
            return eous_err_set(err, EOUS_E_POLICY, "secret %s is only for %s, not for the page at %s", name,
                                domains, page_url ? page_url : "(unknown)");
    }
    *value = v;
    return EOUS_OK;
}

/* 1 when the secret may be used on page_url (unscoped, or one of its domains covers the page). */
static int usable_on(const char *domains, const char *page_url)
{
    act_url u;
    return !domains || !*domains ||
           (page_url && act_url_parse(page_url, &u) == 0 && u.host[0] && domain_ok(domains, &u));
}

static int listed(const char *out, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = out; (p = strstr(p, name)); p += n)
        if ((p == out || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

void act_secrets_names(const act_secrets *s, const char *page_url, char *out, size_t size)
{
    extern char **environ;
    size_t len = 0;
    out[0] = '\0';
#define ADD(name, nlen)                                                                                         \
    do {                                                                                                      \
        char one[256];                                                                                        \
        snprintf(one, sizeof one, "%.*s", (int)(nlen), (name));                                              \
        if (!listed(out, one) && len + strlen(one) + 3 < size)                                               \
            len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "", one);                    \
    } while (0)
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, ENV_PREFIX, strlen(ENV_PREFIX)) || !strncmp(*e, ENV_DOMAINS, strlen(ENV_DOMAINS)))
            continue;
        const char *name = *e + strlen(ENV_PREFIX), *eq = strchr(name, '=');
        if (!eq || !valid_name(name, (size_t)(eq - name)))
            continue;
        char var[300];
        snprintf(var, sizeof var, ENV_DOMAINS "%.*s", (int)(eq - name), name);
        if (usable_on(getenv(var), page_url))
            ADD(name, eq - name);
    }
    for (size_t i = 0; s && i < s->n; i++)
        if (usable_on(s->v[i].domains, page_url))
            ADD(s->v[i].name, strlen(s->v[i].name));
#undef ADD
}

eous_rc act_secrets_expand(const act_secrets *s, const char *text, const char *page_url, char **out, eous_err *err)
{
    *out = NULL;
    eous_buf b;
    eous_buf_init(&b, 16 * 1024 * 1024);
    eous_rc rc = EOUS_OK;
    const char *p = text ? text : "";
    for (;;) {
        const char *ph = strstr(p, PH_OPEN);
        if (!ph) {
            rc = eous_buf_puts(&b, p, err);
            break;
        }
        if ((rc = eous_buf_append(&b, p, (size_t)(ph - p), err)))
            break;
        const char *name = ph + strlen(PH_OPEN);
        const char *close = strstr(name, "}}");
        if (!close) {
            rc = eous_err_set(err, EOUS_E_INVALID, "secret placeholder '%.40s' has no closing }}", ph);
            break;
        }
        size_t nl = (size_t)(close - name);
        if (!valid_name(name, nl) || nl > 200) {
            rc = eous_err_set(err, EOUS_E_INVALID,
                              "secret placeholder '%.*s': expected {{secret:NAME}} with NAME of letters, digits, '_'",
                              (int)(close + 2 - ph > 80 ? 80 : close + 2 - ph), ph);
            break;
        }
        char nm[256];
        memcpy(nm, name, nl);
        nm[nl] = '\0';
        const char *v = NULL;
        if ((rc = lookup(s, nm, page_url, &v, err)))
            break;
        if ((rc = eous_buf_puts(&b, v, err)))
            break;
        p = close + 2;
    }
    if (rc) {
        eous_wipe_str(b.data);
        eous_buf_free(&b);
        return rc;
    }
    *out = eous_buf_steal(&b);
    return EOUS_OK;
}

static eous_rc expand_into(const act_secrets *s, cJSON *v, const char *page_url, eous_err *err)
{
    for (; v; v = v->next) {
        if (cJSON_IsString(v) && act_secrets_has_placeholder(v->valuestring)) {
            char *x = NULL;
            eous_rc rc = act_secrets_expand(s, v->valuestring, page_url, &x, err);
            if (rc)
                return rc;
            /* cJSON owns valuestring: swap in the expanded copy */
            act_secret_free(v->valuestring);
            v->valuestring = x;
        }
        if (v->child) {
            eous_rc rc = expand_into(s, v->child, page_url, err);
            if (rc)
                return rc;
        }
    }
    return EOUS_OK;
}

eous_rc act_secrets_expand_json(const act_secrets *s, const cJSON *v, const char *page_url, cJSON **out,
                                eous_err *err)
{
    *out = NULL;
    if (!v)
        return EOUS_OK;
    cJSON *c = cJSON_Duplicate(v, 1);
    if (!c)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory expanding secrets");
    eous_rc rc = cJSON_IsString(c) ? EOUS_OK : expand_into(s, c->child, page_url, err);
    if (!rc && cJSON_IsString(c) && act_secrets_has_placeholder(c->valuestring)) {
        char *x = NULL;
        if (!(rc = act_secrets_expand(s, c->valuestring, page_url, &x, err))) {
            act_secret_free(c->valuestring);
            c->valuestring = x;
        }
    }
    if (rc) {
        act_secret_json_free(c);
        return rc;
    }
    *out = c;
    return EOUS_OK;
}

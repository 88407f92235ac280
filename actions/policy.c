/* actions/policy.c — navigation allowlist, rules, page marks (see policy.h). */
#include "actions/policy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "actions/act_int.h"

enum { EFFECT_ALLOW, EFFECT_DENY, EFFECT_CONFIRM };

typedef struct nav_pat {
    char scheme[16]; /* "" = http or https */
    char host[256];  /* glob, lowercased */
    char port[8];    /* "" = the scheme's default, "*" = any */
} nav_pat;

typedef struct rule {
    int effect;
    char *kind, *label, *action, *url, *reason;
} rule;

struct act_policy {
    nav_pat *pats;
    size_t n_pats, cap_pats;
    rule *rules;
    size_t n_rules, cap_rules;
    int default_deny;
    act_confirm_fn confirm_fn;
    void *confirm_ud;
    int interactive;
};

eous_rc act_policy_new(act_policy **out, eous_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory creating a policy");
    (*out)->interactive = 0; /* a library never reads stdin unless its caller says a person is there */
    return EOUS_OK;
}

static void rule_free(rule *r)
{
    free(r->kind);
    free(r->label);
    free(r->action);
    free(r->url);
    free(r->reason);
}

void act_policy_free(act_policy *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_rules; i++)
        rule_free(&p->rules[i]);
    free(p->rules);
    free(p->pats);
    free(p);
}

/* ---- origins ------------------------------------------------------------- */

static eous_rc add_pat(act_policy *p, const nav_pat *np, eous_err *err)
{
    if (p->n_pats == p->cap_pats) {
        size_t cap = p->cap_pats ? p->cap_pats * 2 : 8;
        nav_pat *n = realloc(p->pats, cap * sizeof *n);
        if (!n)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory adding an origin");
        p->pats = n;
        p->cap_pats = cap;
    }
    p->pats[p->n_pats++] = *np;
    return EOUS_OK;
}

/* Parses "scheme://host[:port]" patterns ('*' allowed) or full URLs. */
static int parse_pattern(const char *in, nav_pat *out)
{
    memset(out, 0, sizeof *out);
    const char *rest = in;
    const char *sep = strstr(in, "://");
    if (sep) {
        size_t sl = (size_t)(sep - in);
        if (!sl || sl >= sizeof out->scheme)
            return -1;
        for (size_t i = 0; i < sl; i++)
            out->scheme[i] = (char)tolower((unsigned char)in[i]);
        if (strcmp(out->scheme, "http") && strcmp(out->scheme, "https"))
            return -1;
        rest = sep + 3;
    }
    if (!strchr(rest, '*') && sep) {
        act_url u;
        if (act_url_parse(in, &u) != 0 || !u.host[0])
            return -1;
        snprintf(out->host, sizeof out->host, "%s", u.host);
        snprintf(out->port, sizeof out->port, "%d", u.port);
        return 0;
    }
    size_t hl = strcspn(rest, "/?#");
    char auth[300];
    if (!hl || hl >= sizeof auth)
        return -1;
    memcpy(auth, rest, hl);
    auth[hl] = '\0';
    char *port = NULL;
    if (auth[0] == '[') {
        char *close = strchr(auth, ']');
        if (!close)
            return -1;
        if (close[1] == ':')
            port = close + 2;
        close[1] = '\0';
    } else if ((port = strrchr(auth, ':'))) {
        *port++ = '\0';
    }
    if (port) {
        if (strcmp(port, "*")) {
            char *end;
            long v = strtol(port, &end, 10);
            if (!*port || *end || v < 1 || v > 65535)
                return -1;
        }
        snprintf(out->port, sizeof out->port, "%s", port);
    }
    for (char *c = auth; *c; c++) {
        if ((unsigned char)*c <= 0x20 || *c == '@' || *c == '%' || *c == '\\')
            return -1;
        *c = (char)tolower((unsigned char)*c);
    }
    if (!auth[0])
        return -1;
    snprintf(out->host, sizeof out->host, "%s", auth);
    return 0;
}

eous_rc act_policy_allow_origin(act_policy *p, const char *url_or_pattern, eous_err *err)
{
    nav_pat np;
    if (!url_or_pattern || parse_pattern(url_or_pattern, &np) != 0)
        return eous_err_set(err, EOUS_E_INVALID,
                            "allowed origin '%s': expected http(s)://host[:port] (host and port may use '*')",
                            url_or_pattern ? url_or_pattern : "");
    return add_pat(p, &np, err);
}

size_t act_policy_n_origins(const act_policy *p)
{
    return p ? p->n_pats : 0;
}

static int pat_matches(const nav_pat *np, const act_url *u)
{
    if (np->scheme[0] ? strcmp(np->scheme, u->scheme) != 0
                      : (strcmp(u->scheme, "http") && strcmp(u->scheme, "https")))
        return 0;
    if (!act_glob(np->host, u->host))
        return 0;
    if (!strcmp(np->port, "*"))
        return 1;
    int want = np->port[0] ? atoi(np->port) : (!strcmp(u->scheme, "https") ? 443 : 80);
    return want == u->port;
}

static int is_about_blank(const char *url)
{
    while (*url && (unsigned char)*url <= 0x20)
        url++;
    return !strncasecmp(url, "about:blank", 11) && (!url[11] || url[11] == '#' || url[11] == '?');
}

eous_rc act_policy_check_url(const act_policy *p, const char *url, eous_err *err)
{
    if (!url || !*url)
        return eous_err_set(err, EOUS_E_POLICY, "goto: an empty URL is refused");
    if (is_about_blank(url))
        return EOUS_OK;
    act_url u;
    if (act_url_parse(url, &u) != 0)
        return eous_err_set(err, EOUS_E_POLICY, "goto: '%s' is refused: not a URL eous can check", url);
    if (!u.scheme[0])
        return eous_err_set(err, EOUS_E_POLICY, "goto: '%s' is refused: expected an absolute http(s) URL", url);
    if (strcmp(u.scheme, "http") && strcmp(u.scheme, "https"))
        return eous_err_set(err, EOUS_E_POLICY, "goto: '%s' is refused: the %s: scheme is never allowed", url,
                            u.scheme);
    for (size_t i = 0; p && i < p->n_pats; i++)
        if (pat_matches(&p->pats[i], &u))
            return EOUS_OK;
    char origin[320];
    act_url_origin(&u, origin, sizeof origin);
    eous_buf b;
    eous_buf_init(&b, 2048);
    for (size_t i = 0; p && i < p->n_pats && i < 8; i++) {
        const nav_pat *np = &p->pats[i];
        eous_buf_printf(&b, NULL, "%s%s%s%s%s%s", i ? ", " : "", np->scheme[0] ? np->scheme : "http(s)", "://",
                        np->host, np->port[0] ? ":" : "", np->port);
    }
    eous_rc rc = eous_err_set(err, EOUS_E_POLICY, "goto: '%s' is refused: origin %s is not allowed (allowed: %s)",
                              url, origin, b.data ? b.data : "none");
    eous_buf_free(&b);
    return rc;
}

/* ---- rules ----------------------------------------------------------------- */

static int field_matches(const char *pattern, const char *value)
{
    if (!pattern)
        return 1;
    return act_glob(pattern, value ? value : "");
}

eous_rc act_policy_check_action(const act_policy *p, const char *kind, const char *label, const char *action,
                                const char *tool, const char *url, const char **confirm_out, eous_err *err)
{
    if (confirm_out)
        *confirm_out = NULL;
    if (!p)
        return EOUS_OK;
    for (size_t i = 0; i < p->n_rules; i++) {
        const rule *r = &p->rules[i];
        int action_ok = !r->action || field_matches(r->action, action) || (tool && field_matches(r->action, tool));
        if (!action_ok || !field_matches(r->kind, kind) || !field_matches(r->label, label) ||
            !field_matches(r->url, url))
            continue;
        if (r->effect == EFFECT_ALLOW)
            return EOUS_OK;
        if (r->effect == EFFECT_CONFIRM) {
            if (confirm_out)
                *confirm_out = r->reason ? r->reason : "a policy rule asks a person to approve this";
            return EOUS_OK;
        }
        return eous_err_set(err, EOUS_E_POLICY, "%s%s%s on %s \"%s\" is refused by policy rule %zu%s%s",
                            action ? action : "action", tool ? " " : "", tool ? tool : "", kind ? kind : "target",
                            label ? label : "", i + 1, r->reason ? ": " : "", r->reason ? r->reason : "");
    }
    if (p->default_deny)
        return eous_err_set(err, EOUS_E_POLICY,
                            "%s%s%s on %s \"%s\" is refused: no policy rule allows it (default deny)",
                            action ? action : "action", tool ? " " : "", tool ? tool : "", kind ? kind : "target",
                            label ? label : "");
    return EOUS_OK;
}

/* ---- people -------------------------------------------------------------- */

void act_policy_set_confirm(act_policy *p, act_confirm_fn fn, void *ud)
{
    p->confirm_fn = fn;
    p->confirm_ud = ud;
}

void act_policy_set_interactive(act_policy *p, int interactive)
{
    p->interactive = interactive;
}

/* Page text goes to a terminal: no control characters (escape sequences). */
static void sanitize(const char *in, char *out, size_t n)
{
    size_t j = 0;
    for (; in && *in && j + 1 < n; in++)
        out[j++] = ((unsigned char)*in < 0x20 || *in == 0x7f) ? ' ' : *in;
    out[j] = '\0';
}

eous_rc act_policy_confirm(act_policy *p, const char *sentence, const char *what, eous_err *err)
{
    char s[512], w[512];
    sanitize(sentence && *sentence ? sentence : "this action needs a person", s, sizeof s);
    sanitize(what, w, sizeof w);
    int yes;
    if (p && p->confirm_fn) {
        yes = p->confirm_fn(p->confirm_ud, s, w);
    } else {
        if (!p || p->interactive <= 0)
            return eous_err_set(err, EOUS_E_POLICY, "Needs a person: %s", s);
        if (w[0])
            fprintf(stderr, "eous is about to: %s\n", w);
        fprintf(stderr, "Needs a person: %s [y/N] ", s);
        fflush(stderr);
        char line[64];
        yes = fgets(line, sizeof line, stdin) && (!strcasecmp(line, "y\n") || !strcasecmp(line, "yes\n") ||
                                                   !strcasecmp(line, "y") || !strcasecmp(line, "yes"));
    }
    if (!yes)
        return eous_err_set(err, EOUS_E_POLICY, "The person said no to \"%s\"", s);
    return EOUS_OK;
}

eous_rc act_policy_hidden(const char *what, eous_err *err)
{
    return eous_err_set(err, EOUS_E_POLICY,
                        "%s is refused: the target is inside data-agent-hidden; ask the person to do it",
                        what && *what ? what : "the action");
}

/* ---- the policy file --------------------------------------------------------- */

/* Where in the text a JSON path points, for file:line:col messages: a tiny
 * scanner over text cJSON already accepted. */
typedef struct seg {
    const char *key; /* NULL: index */
    int index;
} seg;

static const char *ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end && *p != '"'; p++)
        if (*p == '\\')
            p++;
    return p < end ? p + 1 : end;
}

static const char *skip_value(const char *p, const char *end)
{
    p = ws(p, end);
    if (p >= end)
        return end;
    if (*p == '"')
        return skip_string(p, end);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (p < end) {
            if (*p == '"') {
                p = skip_string(p, end);
                continue;
            }
            if (*p == '{' || *p == '[')
                depth++;
            else if ((*p == '}' || *p == ']') && --depth == 0)
                return p + 1;
            p++;
        }
        return end;
    }
    while (p < end && !strchr(",}] \t\r\n", *p))
        p++;
    return p;
}

static const char *locate(const char *p, const char *end, const seg *path, int n, int want_key)
{
    p = ws(p, end);
    if (n == 0 || p >= end)
        return p;
    if (path[0].key) {
        if (*p != '{')
            return p;
        p++;
        for (;;) {
            p = ws(p, end);
            if (p >= end || *p != '"')
                return p;
            const char *k = p + 1;
            const char *ke = skip_string(p, end);
            size_t kl = (size_t)(ke - k - 1);
            p = ws(ke, end);
            if (p < end && *p == ':')
                p++;
            if (kl == strlen(path[0].key) && !memcmp(k, path[0].key, kl))
                return (n == 1 && want_key) ? k - 1 : locate(p, end, path + 1, n - 1, want_key);
            p = ws(skip_value(p, end), end);
            if (p < end && *p == ',')
                p++;
        }
    }
    if (*p != '[')
        return p;
    p++;
    for (int i = 0;; i++) {
        p = ws(p, end);
        if (p >= end || *p == ']')
            return p;
        if (i == path[0].index)
            return locate(p, end, path + 1, n - 1, want_key);
        p = ws(skip_value(p, end), end);
        if (p < end && *p == ',')
            p++;
    }
}

typedef struct loader {
    const char *name, *text, *end;
} loader;

static void line_col(const loader *L, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = L->text; p < at && p < L->end; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static eous_rc bad_at(const loader *L, const seg *path, int n, int want_key, const char *what, eous_err *err)
{
    int line, col;
    line_col(L, locate(L->text, L->end, path, n, want_key), &line, &col);
    return eous_err_set(err, EOUS_E_INVALID, "%s:%d:%d: %s", L->name, line, col, what);
}

static eous_rc want_string(const loader *L, const cJSON *v, const seg *path, int n, char **out, eous_err *err)
{
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        char what[256];
        snprintf(what, sizeof what, "\"%s\" must be a non-empty string (a glob such as \"Delete*\")",
                 path[n - 1].key);
        return bad_at(L, path, n, 0, what, err);
    }
    if (!(*out = strdup(v->valuestring)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory reading %s", L->name);
    return EOUS_OK;
}

static eous_rc load_rule(act_policy *p, const loader *L, const cJSON *r, int idx, eous_err *err)
{
    seg path[3] = {{"rules", 0}, {NULL, idx}, {NULL, 0}};
    if (!cJSON_IsObject(r))
        return bad_at(L, path, 2, 0, "each rule must be an object like {\"effect\": \"deny\", \"label\": \"Delete*\"}",
                      err);
    rule nr;
    memset(&nr, 0, sizeof nr);
    nr.effect = -1;
    eous_rc rc = EOUS_OK;
    const cJSON *f;
    cJSON_ArrayForEach(f, r) {
        path[2].key = f->string;
        char **slot = !strcmp(f->string, "kind")                                   ? &nr.kind
                      : !strcmp(f->string, "label")                                ? &nr.label
                      : !strcmp(f->string, "action") || !strcmp(f->string, "tool") ? &nr.action
                      : !strcmp(f->string, "url")                                  ? &nr.url
                      : !strcmp(f->string, "reason") || !strcmp(f->string, "sentence") ? &nr.reason
                                                                                        : NULL;
        if (!strcmp(f->string, "effect")) {
            const char *e = cJSON_IsString(f) ? f->valuestring : "";
            nr.effect = !strcmp(e, "allow") ? EFFECT_ALLOW : !strcmp(e, "deny") ? EFFECT_DENY
                        : !strcmp(e, "confirm")                                 ? EFFECT_CONFIRM
                                                                                : -2;
            if (nr.effect == -2) {
                rc = bad_at(L, path, 3, 0, "\"effect\" must be \"allow\", \"deny\" or \"confirm\"", err);
                goto done;
            }
        } else if (slot) {
            if (*slot) {
                rc = bad_at(L, path, 3, 1, "field given twice (\"tool\" and \"action\" are the same field)", err);
                goto done;
            }
            if ((rc = want_string(L, f, path, 3, slot, err)))
                goto done;
        } else {
            char what[256];
            snprintf(what, sizeof what,
                     "unknown rule field \"%s\" (expected effect, kind, label, action, tool, url, reason)", f->string);
            rc = bad_at(L, path, 3, 1, what, err);
            goto done;
        }
    }
    if (nr.effect < 0) {
        rc = bad_at(L, path, 2, 0, "rule has no \"effect\" (allow, deny or confirm)", err);
        goto done;
    }
    if (p->n_rules == p->cap_rules) {
        size_t cap = p->cap_rules ? p->cap_rules * 2 : 8;
        rule *n = realloc(p->rules, cap * sizeof *n);
        if (!n) {
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory reading %s", L->name);
            goto done;
        }
        p->rules = n;
        p->cap_rules = cap;
    }
    p->rules[p->n_rules++] = nr;
    return EOUS_OK;
done:
    rule_free(&nr);
    return rc;
}

/* "navigation": {"allow": ["https://host", ...]} */
static eous_rc load_navigation(act_policy *p, const loader *L, const cJSON *f, eous_err *err)
{
    seg path[3] = {{f->string, 0}, {NULL, 0}, {NULL, 0}};
    if (!cJSON_IsObject(f))
        return bad_at(L, path, 1, 0, "\"navigation\" must be an object like {\"allow\": [\"https://host\"]}", err);
    const cJSON *g;
    cJSON_ArrayForEach(g, f) {
        path[1].key = g->string;
        if (strcmp(g->string, "allow"))
            return bad_at(L, path, 2, 1, "unknown navigation field (expected \"allow\")", err);
        if (!cJSON_IsArray(g))
            return bad_at(L, path, 2, 0, "\"allow\" must be a list of origins", err);
        int i = 0;
        const cJSON *o;
        cJSON_ArrayForEach(o, g) {
            path[2].key = NULL;
            path[2].index = i++;
            nav_pat np;
            if (!cJSON_IsString(o) || parse_pattern(o->valuestring, &np) != 0)
                return bad_at(L, path, 3, 0,
                              "expected an origin like \"https://host\", \"http://127.0.0.1:*\" or "
                              "\"https://*.example.org\" (http and https only)",
                              err);
            eous_rc rc = add_pat(p, &np, err);
            if (rc)
                return rc;
        }
    }
    return EOUS_OK;
}

/* "redact_params": a site's own credential parameters (GitLab's private_token, a feed_token) */
static eous_rc load_redact_params(const loader *L, const cJSON *f, eous_err *err)
{
    seg path[3] = {{f->string, 0}, {NULL, 0}, {NULL, 0}};
    if (!cJSON_IsArray(f))
        return bad_at(L, path, 1, 0, "\"redact_params\" must be a list of query parameter names", err);
    int i = 0;
    const cJSON *n;
    cJSON_ArrayForEach(n, f) {
        path[1].index = i++;
        if (!cJSON_IsString(n) || eous_redact_add_param(n->valuestring))
            return bad_at(L, path, 2, 0, "expected a query parameter name such as \"private_token\"", err);
    }
    return EOUS_OK;
}

/* One top-level field of a policy object. */
static eous_rc load_field(act_policy *p, const loader *L, const cJSON *f, eous_err *err)
{
    seg path[3] = {{f->string, 0}, {NULL, 0}, {NULL, 0}};
    if (!strcmp(f->string, "navigation"))
        return load_navigation(p, L, f, err);
    if (!strcmp(f->string, "redact_params"))
        return load_redact_params(L, f, err);
    if (!strcmp(f->string, "rules")) {
        if (!cJSON_IsArray(f))
            return bad_at(L, path, 1, 0, "\"rules\" must be a list of rule objects", err);
        int i = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, f) {
            eous_rc rc = load_rule(p, L, r, i++, err);
            if (rc)
                return rc;
        }
        return EOUS_OK;
    }
    if (!strcmp(f->string, "default")) {
        const char *d = cJSON_IsString(f) ? f->valuestring : "";
        if (strcmp(d, "allow") && strcmp(d, "deny"))
            return bad_at(L, path, 1, 0, "\"default\" must be \"allow\" or \"deny\"", err);
        p->default_deny = !strcmp(d, "deny");
        return EOUS_OK;
    }
    char what[256];
    snprintf(what, sizeof what, "unknown policy field \"%s\" (expected navigation, rules, default, redact_params)",
             f->string);
    return bad_at(L, path, 1, 1, what, err);
}

eous_rc act_policy_load_text(act_policy *p, const char *text, size_t len, const char *name, eous_err *err)
{
    loader L = {name ? name : "policy", text, text + len};
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    eous_rc rc = EOUS_OK;
    if (!root) {
        int line, col;
        line_col(&L, end ? end : text, &line, &col);
        return eous_err_set(err, EOUS_E_INVALID, "%s:%d:%d: invalid JSON", L.name, line, col);
    }
    if (ws(end, L.end) < L.end) {
        int line, col;
        line_col(&L, ws(end, L.end), &line, &col);
        rc = eous_err_set(err, EOUS_E_INVALID, "%s:%d:%d: unexpected text after the policy object", L.name, line,
                          col);
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        rc = eous_err_set(err, EOUS_E_INVALID, "%s:1:1: a policy is a JSON object with navigation, rules, default",
                          L.name);
        goto done;
    }
    const cJSON *f;
    cJSON_ArrayForEach(f, root) {
        if ((rc = load_field(p, &L, f, err)))
            goto done;
    }
done:
    cJSON_Delete(root);
    return rc;
}

eous_rc act_policy_load(act_policy *p, const char *path, eous_err *err)
{
    char *text = NULL;
    size_t len = 0;
    eous_rc rc = eous_read_file(path, 4 * 1024 * 1024, &text, &len, err);
    if (rc) {
        char why[EOUS_ERR_MSG_MAX];
        snprintf(why, sizeof why, "%s", err ? err->msg : "unreadable");
        return eous_err_set(err, EOUS_E_INVALID, "policy file %s: %s", path, why);
    }
    rc = act_policy_load_text(p, text, len, path, err);
    free(text);
    return rc;
}

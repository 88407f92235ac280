/* agent/eval.c — see eval.h.  Each rule follows WebArena's
 * evaluation_harness/evaluators.py; comments name the rule reproduced. */
#define _GNU_SOURCE
#include "agent/eval.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"

/* ---- strings ------------------------------------------------------------------ */

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char *agent_clean_answer(const char *answer)
{
    if (!answer)
        answer = "";
    const char *s = answer;
    while (*s && is_space((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && is_space((unsigned char)s[n - 1]))
        n--;
    /* one pair of enclosing quotes ('x' or "x") */
    if (n >= 2 && ((s[0] == '\'' && s[n - 1] == '\'') || (s[0] == '"' && s[n - 1] == '"'))) {
        s++;
        n -= 2;
    } else if (n == 1 && (s[0] == '\'' || s[0] == '"')) {
        /* Python: "'".startswith("'") and endswith("'") → answer[1:-1] == "" */
        n = 0;
    }
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[n] = '\0';
    return out;
}

double agent_exact_match(const char *ref, const char *pred)
{
    char *r = agent_clean_answer(ref), *p = agent_clean_answer(pred);
    double score = r && p && !strcmp(r, p) ? 1.0 : 0.0;
    free(r);
    free(p);
    return score;
}

/* An approximation of nltk's word_tokenize for the single-token rule:
 * runs of letters/digits (with inner ' . , for numbers) are words, other
 * non-space characters are tokens of their own. */
static int count_tokens(const char *s, char first_token[64])
{
    int n = 0;
    const unsigned char *p = (const unsigned char *)s;
    first_token[0] = '\0';
    while (*p) {
        if (is_space(*p)) {
            p++;
            continue;
        }
        const unsigned char *start = p;
        if (isalnum(*p) || *p >= 0x80) {
            while (*p && (isalnum(*p) || *p >= 0x80 ||
                          ((*p == '.' || *p == ',') && isdigit(p[1]) && p > start && isdigit(p[-1]))))
                p++;
        } else {
            p++;
        }
        if (n == 0) {
            size_t len = (size_t)(p - start);
            if (len > 63)
                len = 63;
            memcpy(first_token, start, len);
            first_token[len] = '\0';
        }
        n++;
    }
    return n;
}

double agent_must_include(const char *ref, const char *pred, int tokenize)
{
    char *r = agent_clean_answer(ref), *p = agent_clean_answer(pred);
    double score = 0.0;
    if (r && p) {
        char tok[64];
        /* the single-token rule: a one-character reference against a one-token
         * prediction must equal the token (prevents "0" matching "10") */
        if (tokenize && strlen(r) == 1 && count_tokens(p, tok) == 1)
            score = !strcmp(r, tok) ? 1.0 : 0.0;
        else
            score = strstr(p, r) ? 1.0 : 0.0;
    }
    free(r);
    free(p);
    return score;
}

/* ---- URLs ---------------------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* urllib.parse.unquote_plus */
static void unquote_plus(const char *s, size_t n, char *out, size_t out_size)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < out_size; i++) {
        if (s[i] == '+')
            out[o++] = ' ';
        else if (s[i] == '%' && i + 2 < n + 0 && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            out[o++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else
            out[o++] = s[i];
    }
    out[o] = '\0';
}

typedef struct parsed_url {
    char base[2048];   /* netloc + path */
    char query[2048];
} parsed_url;

static void parse_url(const char *url, parsed_url *u)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    /* urlparse with no scheme puts everything in path: netloc empty */
    if (!strstr(url, "://"))
        p = url;
    const char *q = strchr(p, '?');
    const char *h = strchr(p, '#');
    size_t n = q ? (size_t)(q - p) : h ? (size_t)(h - p) : strlen(p);
    snprintf(u->base, sizeof u->base, "%.*s", (int)n, p);
    u->query[0] = '\0';
    if (q) {
        size_t qn = h && h > q ? (size_t)(h - q - 1) : strlen(q + 1);
        snprintf(u->query, sizeof u->query, "%.*s", (int)qn, q + 1);
    }
}

/* parse_qs(query)[key] contains value?  (blank values are dropped by parse_qs) */
static int query_has(const char *query, const char *key, const char *value)
{
    const char *p = query;
    while (*p) {
        const char *amp = strpbrk(p, "&;");
        size_t n = amp ? (size_t)(amp - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (eq) {
            char k[512], v[1024];
            unquote_plus(p, (size_t)(eq - p), k, sizeof k);
            unquote_plus(eq + 1, n - (size_t)(eq - p) - 1, v, sizeof v);
            if (*v && !strcmp(k, key) && !strcmp(v, value))
                return 1;
        }
        p += n + (amp ? 1 : 0);
    }
    return 0;
}

static void rstrip_slash(char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '/')
        s[--n] = '\0';
}

double agent_url_match(const char *reference_urls, const char *pred_url)
{
    char pred[4096];
    snprintf(pred, sizeof pred, "%s", pred_url ? pred_url : "");
    rstrip_slash(pred);
    parsed_url pu;
    parse_url(pred, &pu);
    /* split on " |OR| " */
    char refs[8192];
    snprintf(refs, sizeof refs, "%s", reference_urls ? reference_urls : "");
    char *list[64];
    int nrefs = 0;
    char *p = refs;
    while (p && nrefs < 64) {
        char *sep = strstr(p, " |OR| ");
        if (sep)
            *sep = '\0';
        list[nrefs++] = p;
        p = sep ? sep + 6 : NULL;
    }
    double base_score = 0.0;
    for (int i = 0; i < nrefs; i++) {
        rstrip_slash(list[i]);
        parsed_url ru;
        parse_url(list[i], &ru);
        if (strstr(pu.base, ru.base))
            base_score = 1.0;
    }
    /* every query key of any reference: one of its values must be in pred's */
    double query_score = 1.0;
    for (int i = 0; i < nrefs; i++) {
        parsed_url ru;
        parse_url(list[i], &ru);
        const char *q = ru.query;
        while (*q) {
            const char *amp = strpbrk(q, "&;");
            size_t n = amp ? (size_t)(amp - q) : strlen(q);
            const char *eq = memchr(q, '=', n);
            if (eq) {
                char k[512], v[1024];
                unquote_plus(q, (size_t)(eq - q), k, sizeof k);
                unquote_plus(eq + 1, n - (size_t)(eq - q) - 1, v, sizeof v);
                if (*v) {
                    /* any possible value for this key across all references */
                    int ok = 0;
                    for (int j = 0; j < nrefs && !ok; j++) {
                        parsed_url rj;
                        parse_url(list[j], &rj);
                        const char *qq = rj.query;
                        while (*qq && !ok) {
                            const char *a2 = strpbrk(qq, "&;");
                            size_t n2 = a2 ? (size_t)(a2 - qq) : strlen(qq);
                            const char *e2 = memchr(qq, '=', n2);
                            if (e2) {
                                char k2[512], v2[1024];
                                unquote_plus(qq, (size_t)(e2 - qq), k2, sizeof k2);
                                unquote_plus(e2 + 1, n2 - (size_t)(e2 - qq) - 1, v2, sizeof v2);
                                if (*v2 && !strcmp(k2, k) && query_has(pu.query, k, v2))
                                    ok = 1;
                            }
                            qq += n2 + (a2 ? 1 : 0);
                        }
                    }
                    if (!ok)
                        query_score = 0.0;
                }
            }
            q += n + (amp ? 1 : 0);
        }
    }
    return base_score * query_score;
}

/* ---- html unescape (the entities pages and locators actually produce) -------- */

static void html_unescape(char *s)
{
    static const struct { const char *e; const char *r; } ents[] = {
        {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&#x27;", "'"},
        {"&apos;", "'"}, {"&nbsp;", "\xC2\xA0"}, {"&#34;", "\""}};
    char *w = s;
    for (char *r = s; *r;) {
        int done = 0;
        if (*r == '&') {
            for (size_t i = 0; i < sizeof ents / sizeof *ents; i++) {
                size_t n = strlen(ents[i].e);
                if (!strncmp(r, ents[i].e, n)) {
                    size_t m = strlen(ents[i].r);
                    memmove(w, ents[i].r, m);
                    w += m;
                    r += n;
                    done = 1;
                    break;
                }
            }
        }
        if (!done)
            *w++ = *r++;
    }
    *w = '\0';
}

/* Python str() of a JS value returned by page.evaluate. */
static char *py_str(const cJSON *v)
{
    if (!v || cJSON_IsNull(v))
        return strdup("None");
    if (cJSON_IsString(v))
        return strdup(v->valuestring);
    if (cJSON_IsBool(v))
        return strdup(cJSON_IsTrue(v) ? "True" : "False");
    if (cJSON_IsNumber(v)) {
        char b[EOUS_NUMBER_STR_MAX];
        return strdup(eous_number_str(v->valuedouble, b));
    }
    return cJSON_PrintUnformatted(v);
}

/* WebArena's reddit_get_post_url: scheme://netloc/f/<sub>/<post>/ from a post
 * or comment URL; any other URL is returned unchanged. */
void agent_reddit_post_url(const char *url, char *out, size_t out_size);
void agent_reddit_post_url(const char *url, char *out, size_t out_size)
{
    snprintf(out, out_size, "%s", url);
    const char *sep = strstr(url, "://");
    if (!sep)
        return;
    const char *path = strchr(sep + 3, '/');
    if (!path)
        return;
    char seg[4][512];
    int n = 0;
    const char *p = path;
    /* path.split("/") → ['', 'f', sub, post, ...] */
    while (*p == '/' && n < 4) {
        p++;
        size_t len = strcspn(p, "/?#");
        snprintf(seg[n++], sizeof seg[0], "%.*s", (int)len, p);
        p += len;
        if (*p != '/')
            break;
    }
    if (n < 3 || strcmp(seg[0], "f"))
        return;
    snprintf(out, out_size, "%.*s/f/%s/%s/", (int)(path - url), url, seg[1], seg[2]);
}
#define reddit_post_url agent_reddit_post_url

/* ---- the evaluators ------------------------------------------------------------- */

static double string_match(const cJSON *eval, const char *intent, const char *answer, struct llm_client *judge,
                           agent_eval_result *out)
{
    const cJSON *refs = eous_json_obj(eval, "reference_answers");
    /* the answer is cleaned once here and again inside each matcher, as WebArena does */
    char *pred = agent_clean_answer(answer ? answer : "");
    double score = 1.0;
    const cJSON *it;
    cJSON_ArrayForEach(it, refs) {
        const char *k = it->string;
        if (!strcmp(k, "exact_match")) {
            const char *ref = cJSON_IsString(it) ? it->valuestring : "";
            double s = agent_exact_match(ref, pred);
            if (!s)
                snprintf(out->detail, sizeof out->detail, "string_match: exact_match expected '%.200s', got '%.200s'",
                         ref, pred);
            score *= s;
        } else if (!strcmp(k, "must_include")) {
            int n = cJSON_GetArraySize(it);
            const cJSON *m;
            cJSON_ArrayForEach(m, it) {
                const char *ref = cJSON_IsString(m) ? m->valuestring : "";
                double s = agent_must_include(ref, pred, n == 1);
                if (!s)
                    snprintf(out->detail, sizeof out->detail, "string_match: must_include '%.200s' not in '%.200s'",
                             ref, pred);
                score *= s;
            }
        } else if (!strcmp(k, "fuzzy_match")) {
            if (cJSON_IsString(it) && !strcmp(it->valuestring, "N/A")) {
                score *= agent_exact_match("N/A", pred);
                if (score != 1.0) {
                    const char *note = eous_json_str(eval, "string_note");
                    int ok = 0;
                    if (judge && llm_judge(judge, intent, note ? note : "N/A", pred, &ok, NULL, NULL) == EOUS_OK) {
                        score = ok ? 1.0 : 0.0;
                    } else {
                        if (!judge)
                            out->needs_judge = 1;
                        score = 0.0;
                        snprintf(out->detail, sizeof out->detail,
                                 "string_match: expected N/A, got '%.200s'%s", pred,
                                 judge ? "" : " (a reason-only answer needs a judge: configure --llm)");
                    }
                }
            } else {
                const cJSON *m;
                cJSON_ArrayForEach(m, it) {
                    const char *ref = cJSON_IsString(m) ? m->valuestring : "";
                    int ok = 0;
                    if (judge && llm_judge(judge, intent, ref, pred, &ok, NULL, NULL) == EOUS_OK) {
                        score *= ok ? 1.0 : 0.0;
                    } else {
                        out->needs_judge = !judge;
                        score = 0.0;
                        snprintf(out->detail, sizeof out->detail, "string_match: fuzzy_match '%.100s' needs a judge%s",
                                 ref, judge ? " (judge call failed)" : " (configure --llm)");
                    }
                }
            }
        }
    }
    free(pred);
    return score;
}

static double url_match(const cJSON *eval, wd_session *s, agent_eval_result *out, eous_err *err, eous_rc *rc)
{
    char *url = NULL;
    if ((*rc = wd_get_url(s, &url, err)))
        return 0.0;
    const char *ref = eous_json_str(eval, "reference_url");
    const char *note = eous_json_str(eval, "url_note");
    if (note && *note && strcmp(note, "GOLD in PRED")) {
        snprintf(out->detail, sizeof out->detail, "url_match: unknown url_note '%.100s'", note);
        free(url);
        return 0.0;
    }
    double score = agent_url_match(ref ? ref : "", url);
    if (!score)
        snprintf(out->detail, sizeof out->detail, "url_match: '%.300s' does not match '%.300s'", url, ref ? ref : "");
    free(url);
    return score;
}

static double program_html(const cJSON *eval, wd_session *s, agent_eval_result *out, eous_err *err, eous_rc *rc)
{
    const cJSON *targets = eous_json_arr(eval, "program_html");
    double score = 1.0;
    const cJSON *t;
    cJSON_ArrayForEach(t, targets) {
        const char *url = eous_json_str(t, "url");
        const char *loc = eous_json_str(t, "locator");
        if (!url)
            url = "last";
        if (!loc)
            loc = "";
        char post_url[4096];
        if (!strncmp(url, "func:reddit_get_post_url(", 25)) {
            /* pure URL arithmetic on the last URL: supported */
            char *last = NULL;
            if ((*rc = wd_get_url(s, &last, err)))
                return 0.0;
            reddit_post_url(last, post_url, sizeof post_url);
            free(last);
            url = post_url;
        }
        if (!strncmp(url, "func:", 5) || !strncmp(loc, "func:", 5)) {
            out->unsupported = 1;
            snprintf(out->detail, sizeof out->detail, "program_html: '%.100s' needs WebArena's site APIs (unsupported)",
                     !strncmp(url, "func:", 5) ? url : loc);
            return 0.0;
        }
        if (strcmp(url, "last")) {
            if ((*rc = wd_navigate(s, url, err)))
                return 0.0;
            eous_sleep_ms(300); /* WebArena sleeps 3 s here; our settle is shorter */
        }
        char *selected = NULL;
        const char *p = loc;
        while (*p && is_space((unsigned char)*p))
            p++;
        if (!*p) {
            if ((*rc = wd_get_page_source(s, &selected, err)))
                return 0.0;
        } else {
            const cJSON *prep = eous_json_arr(t, "prep_actions");
            const cJSON *pa;
            cJSON_ArrayForEach(pa, prep) {
                if (!cJSON_IsString(pa))
                    continue;
                char *script = NULL;
                if (asprintf(&script, "return (() => %s)();", pa->valuestring) >= 0) {
                    eous_err ignore;
                    cJSON *v = NULL;
                    wd_execute(s, script, NULL, &v, &ignore); /* WebArena ignores prep failures */
                    cJSON_Delete(v);
                    free(script);
                }
            }
            char *script = NULL;
            if (asprintf(&script, "return (() => %s)();", loc) < 0)
                return 0.0;
            cJSON *v = NULL;
            eous_err perr;
            eous_err_clear(&perr);
            eous_rc r = wd_execute(s, script, NULL, &v, &perr);
            free(script);
            if (r == EOUS_E_INFRA || r == EOUS_E_INTERRUPTED) {
                *rc = r;
                if (err)
                    *err = perr;
                return 0.0;
            }
            /* a locator that throws selects "" (WebArena: the page is wrong) */
            selected = r ? strdup("") : py_str(v);
            cJSON_Delete(v);
        }
        if (!selected)
            selected = strdup("");
        html_unescape(selected);
        const cJSON *req = eous_json_obj(t, "required_contents");
        const cJSON *em = req ? cJSON_GetObjectItemCaseSensitive(req, "exact_match") : NULL;
        const cJSON *mi = req ? eous_json_arr(req, "must_include") : NULL;
        if (em) {
            const char *ref = cJSON_IsString(em) ? em->valuestring : "";
            double sc = agent_exact_match(ref, selected);
            if (!sc)
                snprintf(out->detail, sizeof out->detail, "program_html: %.120s gave '%.150s', expected '%.150s'", loc,
                         selected, ref);
            score *= sc;
        } else if (mi) {
            const cJSON *m;
            cJSON_ArrayForEach(m, mi) {
                if (!cJSON_IsString(m))
                    continue;
                char alts[4096];
                snprintf(alts, sizeof alts, "%s", m->valuestring);
                int any = 0;
                char *a = alts;
                while (a) {
                    char *sep = strstr(a, " |OR| ");
                    if (sep)
                        *sep = '\0';
                    if (agent_must_include(a, selected, 0))
                        any = 1;
                    a = sep ? sep + 6 : NULL;
                }
                if (!any)
                    snprintf(out->detail, sizeof out->detail, "program_html: %.120s gave '%.150s', missing '%.150s'",
                             loc, selected, m->valuestring);
                score *= any ? 1.0 : 0.0;
            }
        } else {
            snprintf(out->detail, sizeof out->detail, "program_html: required_contents needs exact_match or must_include");
            score = 0.0;
        }
        free(selected);
    }
    return score;
}

eous_rc agent_evaluate(const cJSON *eval, const char *intent, const char *answer, wd_session *s,
                       struct llm_client *judge, agent_eval_result *out, eous_err *err)
{
    memset(out, 0, sizeof *out);
    out->score = 1.0;
    const cJSON *types = eous_json_arr(eval, "eval_types");
    if (!types)
        return eous_err_set(err, EOUS_E_INVALID, "task eval has no eval_types list");
    const cJSON *ty;
    eous_rc rc = EOUS_OK;
    cJSON_ArrayForEach(ty, types) {
        const char *name = cJSON_IsString(ty) ? ty->valuestring : "";
        double sc;
        if (!strcmp(name, "string_match"))
            sc = string_match(eval, intent, answer, judge, out);
        else if (!strcmp(name, "url_match"))
            sc = url_match(eval, s, out, err, &rc);
        else if (!strcmp(name, "program_html"))
            sc = program_html(eval, s, out, err, &rc);
        else {
            snprintf(out->detail, sizeof out->detail, "unsupported eval type '%s'", name);
            out->unsupported = 1;
            sc = 0.0;
        }
        if (rc)
            return rc;
        out->score *= sc;
    }
    if (out->score == 1.0)
        out->detail[0] = '\0';
    return EOUS_OK;
}

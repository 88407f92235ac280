/* webarena/eval.c — see eval.h.  Each rule follows WebArena's
 * evaluation_harness/evaluators.py; comments name the rule reproduced. */
#define _GNU_SOURCE
#include "webarena/eval.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"

/* ---- strings ------------------------------------------------------------------ */

char *wa_clean_answer(const char *answer)
{
    if (!answer)
        answer = "";
    size_t st, n;
    wa_py_strip(answer, &st, &n);
    const char *s = answer + st;
    /* one pair of enclosing quotes; a lone quote is both ends: "'"[1:-1] == "" */
    if (n >= 1 && ((s[0] == '\'' && s[n - 1] == '\'') || (s[0] == '"' && s[n - 1] == '"'))) {
        s += n >= 2;
        n = n >= 2 ? n - 2 : 0;
    }
    return wa_py_lower(s, n);
}

double wa_exact_match(const char *ref, const char *pred)
{
    char *r = wa_clean_answer(ref), *p = wa_clean_answer(pred);
    double score = r && p && !strcmp(r, p) ? 1.0 : 0.0;
    free(r);
    free(p);
    return score;
}

double wa_must_include(const char *ref, const char *pred, int tokenize)
{
    char *r = wa_clean_answer(ref), *p = wa_clean_answer(pred);
    double score = 0.0;
    if (r && p) {
        /* "tokenize the answer if the ref is a single word; prevent false positive (e.g, 0)":
         * a one-character reference must be a whole token of the prediction */
        if (tokenize && wa_py_len(r) == 1)
            score = wa_word_tokenize_contains(p, r) ? 1.0 : 0.0;
        else
            score = strstr(p, r) ? 1.0 : 0.0;
    }
    free(r);
    free(p);
    return score;
}

/* ---- URLs (urllib.parse.urlparse / parse_qs) ----------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* unquote(s.replace('+', ' ')) into a new string. */
static char *unquote_plus(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+')
            out[o++] = ' ';
        else if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            out[o++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else
            out[o++] = s[i];
    }
    out[o] = '\0';
    return out;
}

typedef struct url_parts {
    char *base;     /* netloc + path */
    cJSON *query;   /* [[key, value], ...] as parse_qsl gives them */
} url_parts;

static int in_set(char c, const char *set) { return c && strchr(set, c); }

/* urlparse(url): netloc + path (params cut off the last segment) and query. */
static int url_parse(const char *url, url_parts *u)
{
    char *clean = malloc(strlen(url) + 1);
    if (!clean)
        return -1;
    /* urlsplit: leading C0 controls and spaces go, tabs and newlines anywhere */
    while (*url && (unsigned char)*url <= 0x20)
        url++;
    size_t n = 0;
    for (const char *p = url; *p; p++)
        if (*p != '\t' && *p != '\r' && *p != '\n')
            clean[n++] = *p;
    clean[n] = '\0';
    const char *p = clean;
    char scheme[32] = "";
    const char *colon = strchr(p, ':');
    if (colon && colon > p && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
        const char *q = p;
        while (q < colon && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
                             in_set(*q, "+-.")))
            q++;
        if (q == colon) {
            size_t sl = (size_t)(colon - p) < sizeof scheme - 1 ? (size_t)(colon - p) : sizeof scheme - 1;
            for (size_t i = 0; i < sl; i++)
                scheme[i] = (char)((p[i] >= 'A' && p[i] <= 'Z') ? p[i] + 32 : p[i]);
            scheme[sl] = '\0';
            p = colon + 1;
        }
    }
    size_t netloc_len = 0;
    const char *netloc = p;
    if (p[0] == '/' && p[1] == '/') {
        netloc = p + 2;
        netloc_len = strcspn(netloc, "/?#");
        p = netloc + netloc_len;
    }
    size_t rest = strcspn(p, "#");
    const char *qm = memchr(p, '?', rest);
    size_t path_len = qm ? (size_t)(qm - p) : rest;
    const char *query = qm ? qm + 1 : "";
    size_t query_len = qm ? rest - path_len - 1 : 0;
    static const char *const uses_params[] = {"",     "ftp",  "hdl",   "prospero", "http",  "imap",
                                              "https", "shttp", "rtsp", "rtsps",   "rtspu", "sip",
                                              "sips",  "mms",  "sftp",  "tel"};
    for (size_t i = 0; i < sizeof uses_params / sizeof *uses_params; i++) {
        if (strcmp(scheme, uses_params[i]))
            continue;
        /* _splitparams: ';' after the last '/' (or the first ';' when there is no '/') */
        const char *slash = NULL;
        for (size_t k = 0; k < path_len; k++)
            if (p[k] == '/')
                slash = p + k;
        const char *from = slash ? slash : p;
        const char *semi = memchr(from, ';', path_len - (size_t)(from - p));
        if (semi)
            path_len = (size_t)(semi - p);
        break;
    }
    u->base = NULL;
    u->query = cJSON_CreateArray();
    if (!u->query || asprintf(&u->base, "%.*s%.*s", (int)netloc_len, netloc, (int)path_len, p) < 0) {
        free(clean);
        return -1;
    }
    /* parse_qsl(keep_blank_values=False, separator='&') */
    for (size_t i = 0; i <= query_len && query_len;) {
        size_t len = 0;
        while (i + len < query_len && query[i + len] != '&')
            len++;
        const char *eq = memchr(query + i, '=', len);
        if (eq && (size_t)(eq - (query + i)) + 1 < len) {
            char *k = unquote_plus(query + i, (size_t)(eq - (query + i)));
            char *v = unquote_plus(eq + 1, len - (size_t)(eq - (query + i)) - 1);
            cJSON *pair = cJSON_CreateArray();
            if (k && v && pair) {
                cJSON_AddItemToArray(pair, cJSON_CreateString(k));
                cJSON_AddItemToArray(pair, cJSON_CreateString(v));
                cJSON_AddItemToArray(u->query, pair);
                pair = NULL;
            }
            cJSON_Delete(pair);
            free(k);
            free(v);
        }
        i += len + 1;
    }
    free(clean);
    return 0;
}

static void url_parts_free(url_parts *u)
{
    free(u->base);
    cJSON_Delete(u->query);
}

static int query_has(const cJSON *query, const char *key, const char *value)
{
    const cJSON *pair;
    cJSON_ArrayForEach(pair, query) {
        if (!strcmp(cJSON_GetArrayItem(pair, 0)->valuestring, key) &&
            !strcmp(cJSON_GetArrayItem(pair, 1)->valuestring, value))
            return 1;
    }
    return 0;
}

/* clean_url: str(url).rstrip("/") */
static char *rstrip_slash(const char *s, size_t n)
{
    while (n && s[n - 1] == '/')
        n--;
    return strndup(s, n);
}

double wa_url_match(const char *reference_urls, const char *pred_url)
{
    char *pred = rstrip_slash(pred_url ? pred_url : "", strlen(pred_url ? pred_url : ""));
    url_parts pu = {0};
    cJSON *refs = cJSON_CreateArray(); /* [{base, query}] per " |OR| " alternative */
    double base_score = 0.0, query_score = 1.0;
    if (!pred || !refs || url_parse(pred, &pu))
        goto done;
    for (const char *p = reference_urls ? reference_urls : "";;) {
        const char *sep = strstr(p, " |OR| ");
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        char *ref = rstrip_slash(p, n);
        url_parts ru = {0};
        if (!ref || url_parse(ref, &ru)) {
            free(ref);
            url_parts_free(&ru);
            base_score = 0.0;
            goto done;
        }
        if (strstr(pu.base, ru.base)) /* "GOLD in PRED": a substring test */
            base_score = 1.0;
        cJSON_AddItemToArray(refs, ru.query);
        free(ru.base);
        free(ref);
        if (!sep)
            break;
        p = sep + 6;
    }
    /* queries[k] collects every reference's values; one of them must be in pred's */
    const cJSON *q, *pair;
    cJSON_ArrayForEach(q, refs) {
        cJSON_ArrayForEach(pair, q) {
            const char *k = cJSON_GetArrayItem(pair, 0)->valuestring;
            int ok = 0;
            const cJSON *q2, *pair2;
            cJSON_ArrayForEach(q2, refs) {
                cJSON_ArrayForEach(pair2, q2) {
                    if (!strcmp(cJSON_GetArrayItem(pair2, 0)->valuestring, k) &&
                        query_has(pu.query, k, cJSON_GetArrayItem(pair2, 1)->valuestring))
                        ok = 1;
                }
            }
            if (!ok)
                query_score = 0.0;
        }
    }
done:
    free(pred);
    url_parts_free(&pu);
    cJSON_Delete(refs);
    return base_score * query_score;
}

/* ---- program_html's required_contents ------------------------------------------ */

double wa_required_contents_score(const cJSON *req, const char *selected)
{
    char *text = wa_html_unescape(selected ? selected : "");
    if (!text)
        return 0.0;
    const cJSON *em = req ? cJSON_GetObjectItemCaseSensitive(req, "exact_match") : NULL;
    const cJSON *mi = req ? cJSON_GetObjectItemCaseSensitive(req, "must_include") : NULL;
    double score = 1.0;
    if (em) {
        score = wa_exact_match(cJSON_IsString(em) ? em->valuestring : "", text);
    } else if (mi) {
        const cJSON *m;
        cJSON_ArrayForEach(m, mi) {
            /* each entry: any of its " |OR| " alternatives, substring test (tokenize=False) */
            const char *p = cJSON_IsString(m) ? m->valuestring : "";
            int any = 0;
            for (;;) {
                const char *sep = strstr(p, " |OR| ");
                char *alt = strndup(p, sep ? (size_t)(sep - p) : strlen(p));
                if (alt && wa_must_include(alt, text, 0))
                    any = 1;
                free(alt);
                if (!sep)
                    break;
                p = sep + 6;
            }
            score *= any ? 1.0 : 0.0;
        }
    } else {
        score = -1.0;
    }
    free(text);
    return score;
}

/* WebArena's reddit_get_post_url: scheme://netloc/f/<sub>/<post>/ from a post
 * or comment URL; any other URL is returned unchanged. */
void wa_reddit_post_url(const char *url, char *out, size_t out_size);
void wa_reddit_post_url(const char *url, char *out, size_t out_size)
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
#define reddit_post_url wa_reddit_post_url

/* ---- the evaluators ------------------------------------------------------------- */

/* One judge verdict; a missing judge counts 1 in the potential score so a task
 * that fails elsewhere still reads as failed, not as waiting for a judge. */
static double judged(struct llm_client *judge, llm_judge_kind kind, const char *intent, const char *ref,
                     const char *pred, double *potential, wa_eval_result *out)
{
    int ok = 0;
    eous_err jerr;
    eous_err_clear(&jerr);
    if (judge && llm_judge(judge, kind, intent ? intent : "", ref, pred, &ok, NULL, &jerr) == EOUS_OK)
        return ok ? 1.0 : 0.0;
    out->needs_judge = 1;
    *potential = 1.0;
    snprintf(out->detail, sizeof out->detail, "string_match: %s '%.100s' needs a judge%s%.200s",
             kind == LLM_JUDGE_UA ? "ua_match" : "fuzzy_match", ref,
             judge ? " (judge call failed: " : " (no judge model given)", judge ? jerr.msg : "");
    return 0.0;
}

/* StringEvaluator.__call__; *potential is the score with missing verdicts as 1. */
static double string_match(const cJSON *eval, const char *intent, const char *answer, struct llm_client *judge,
                           wa_eval_result *out, double *potential)
{
    const cJSON *refs = eous_json_obj(eval, "reference_answers");
    /* the answer is cleaned once here and again inside each matcher, as WebArena does */
    char *pred = wa_clean_answer(answer ? answer : "");
    double score = 1.0, pot = 1.0, p1;
    const cJSON *it;
    cJSON_ArrayForEach(it, refs) {
        const char *k = it->string;
        double s = 1.0;
        if (!strcmp(k, "exact_match")) {
            const char *ref = cJSON_IsString(it) ? it->valuestring : "";
            if (!(s = wa_exact_match(ref, pred)))
                snprintf(out->detail, sizeof out->detail, "string_match: exact_match expected '%.200s', got '%.200s'",
                         ref, pred);
            score *= s;
            pot *= s;
        } else if (!strcmp(k, "must_include")) {
            int n = cJSON_GetArraySize(it);
            const cJSON *m;
            cJSON_ArrayForEach(m, it) {
                const char *ref = cJSON_IsString(m) ? m->valuestring : "";
                if (!(s = wa_must_include(ref, pred, n == 1)))
                    snprintf(out->detail, sizeof out->detail, "string_match: must_include '%.200s' not in '%.200s'",
                             ref, pred);
                score *= s;
                pot *= s;
            }
        } else if (!strcmp(k, "fuzzy_match") && cJSON_IsString(it) && !strcmp(it->valuestring, "N/A")) {
            score *= wa_exact_match("N/A", pred);
            pot *= wa_exact_match("N/A", pred);
            if (score != 1.0) {
                /* WebArena replaces (not multiplies) the score with ua_match's verdict */
                const char *note = eous_json_str(eval, "string_note");
                p1 = 0.0;
                score = judged(judge, LLM_JUDGE_UA, intent, note ? note : "", pred, &p1, out);
                pot = score ? score : p1;
            }
        } else if (!strcmp(k, "fuzzy_match")) {
            const cJSON *m;
            cJSON_ArrayForEach(m, it) {
                p1 = 0.0;
                s = judged(judge, LLM_JUDGE_FUZZY, intent, cJSON_IsString(m) ? m->valuestring : "", pred, &p1, out);
                score *= s;
                pot *= s ? s : p1;
            }
        }
    }
    free(pred);
    *potential = pot;
    return score;
}

/* HTMLContentEvaluator over values already read: values[i] is target i's. */
static double program_html_score(const cJSON *eval, const cJSON *values, wa_eval_result *out)
{
    const cJSON *targets = eous_json_arr(eval, "program_html");
    double score = 1.0;
    int i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, targets) {
        const cJSON *v = cJSON_GetArrayItem(values, i++);
        const char *loc = eous_json_str(t, "locator");
        if (!v) {
            if (!out->unsupported)
                snprintf(out->detail, sizeof out->detail, "program_html: no value for target %d (%.100s)", i,
                         loc ? loc : "");
            return 0.0;
        }
        /* str(page.evaluate(...)); "if not selected_element" only catches "" */
        char *selected = wa_py_str(v);
        double sc = wa_required_contents_score(eous_json_obj(t, "required_contents"), selected ? selected : "");
        if (sc < 0)
            snprintf(out->detail, sizeof out->detail, "program_html: required_contents needs exact_match or must_include");
        else if (sc == 0)
            snprintf(out->detail, sizeof out->detail, "program_html: %.120s gave '%.150s', want %.200s",
                     loc ? loc : "", selected ? selected : "", "required_contents");
        score *= sc > 0 ? sc : 0.0;
        free(selected);
    }
    return score;
}

void wa_score_observed(const cJSON *eval, const char *intent, const wa_eval_observed *obs,
                          struct llm_client *judge, wa_eval_result *out)
{
    memset(out, 0, sizeof *out);
    double score = 1.0, potential = 1.0;
    const cJSON *types = eous_json_arr(eval, "eval_types");
    const cJSON *ty;
    cJSON_ArrayForEach(ty, types) {
        const char *name = cJSON_IsString(ty) ? ty->valuestring : "";
        double sc, pot;
        if (!strcmp(name, "string_match")) {
            sc = string_match(eval, intent, obs->answer, judge, out, &pot);
        } else if (!strcmp(name, "url_match")) {
            const char *ref = eous_json_str(eval, "reference_url");
            const char *note = eous_json_str(eval, "url_note");
            if (note && strcmp(note, "GOLD in PRED")) {
                snprintf(out->detail, sizeof out->detail, "url_match: unknown url_note '%.100s'", note);
                sc = 0.0;
            } else if (!(sc = wa_url_match(ref ? ref : "", obs->url ? obs->url : ""))) {
                snprintf(out->detail, sizeof out->detail, "url_match: '%.300s' does not match '%.300s'",
                         obs->url ? obs->url : "", ref ? ref : "");
            }
            pot = sc;
        } else if (!strcmp(name, "program_html")) {
            sc = pot = program_html_score(eval, obs->values, out);
        } else {
            snprintf(out->detail, sizeof out->detail, "unsupported eval type '%s'", name);
            out->unsupported = 1;
            sc = pot = 0.0;
        }
        score *= sc;
        potential *= pot;
    }
    out->score = score;
    /* waiting for a judge only when the verdicts could still make it pass */
    if (out->needs_judge && potential == 0.0)
        out->needs_judge = 0;
    if (out->score == 1.0)
        out->detail[0] = '\0';
}

/* ---- reading what the evaluators look at ---------------------------------------- */

/* Runs "() => script" in the page; NULL value and EOUS_OK when it threw. */
static eous_rc page_evaluate(wd_session *s, const char *script, cJSON **value, eous_err *err)
{
    char *js = NULL;
    *value = NULL;
    if (asprintf(&js, "return (() => %s)();", script) < 0)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_err perr;
    eous_err_clear(&perr);
    eous_rc r = wd_execute(s, js, NULL, value, &perr);
    free(js);
    if (r == EOUS_E_INFRA || r == EOUS_E_INTERRUPTED) {
        if (err)
            *err = perr;
        return r;
    }
    if (r) {
        cJSON_Delete(*value);
        *value = NULL;
        return EOUS_E_PAGE;
    }
    if (!*value)
        *value = cJSON_CreateNull();
    return EOUS_OK;
}

/* The value one program_html target selects (see wa_eval_observed). */
static eous_rc read_target(wd_session *s, act_exec **x, const cJSON *t, cJSON **value, wa_eval_result *out,
                           eous_err *err)
{
    const char *url = eous_json_str(t, "url");
    const char *loc = eous_json_str(t, "locator");
    eous_rc rc;
    *value = NULL;
    if (!url)
        url = "last";
    if (!loc)
        loc = "";
    char post_url[4096];
    if (!strncmp(url, "func:reddit_get_post_url(", 25)) {
        /* pure URL arithmetic on the last URL: supported */
        char *last = NULL;
        if ((rc = wd_get_url(s, &last, err)))
            return rc;
        reddit_post_url(last, post_url, sizeof post_url);
        free(last);
        url = post_url;
    }
    if (!strncmp(url, "func:", 5) || !strncmp(loc, "func:", 5)) {
        out->unsupported = 1;
        snprintf(out->detail, sizeof out->detail, "program_html: '%.100s' needs WebArena's site APIs (unsupported)",
                 !strncmp(url, "func:", 5) ? url : loc);
        return EOUS_OK;
    }
    if (strcmp(url, "last")) {
        char *before = NULL, *after = NULL;
        if ((rc = wd_get_url(s, &before, err)))
            return rc;
        /* the executor's hooks go on every new document: made before the load */
        if (!*x && (rc = act_exec_new(s, NULL, x, err))) {
            free(before);
            return rc;
        }
        double began = eous_now_ms();
        if ((rc = wd_navigate(s, url, err))) {
            free(before);
            return rc;
        }
        /* WebArena sleeps 3 s here: a page is read when what it began since the load settles, up to the cap */
        eous_err serr;
        if (act_settle_loaded(*x, began, NULL, &serr))
            EOUS_DEBUG("eval", "settle on %.200s: %s", url, serr.msg);
        if ((rc = wd_get_url(s, &after, err))) {
            free(before);
            return rc;
        }
        /* a URL that downloads leaves the last page in place: Playwright's goto
         * throws there, so WebArena scores nothing; never read the old page */
        int stayed = !strcmp(after, before) && strcmp(after, url);
        free(before);
        free(after);
        if (stayed) {
            snprintf(out->detail, sizeof out->detail,
                     "program_html: '%.300s' loaded no page (a download?); nothing to read", url);
            return EOUS_OK;
        }
    }
    size_t st, n;
    wa_py_strip(loc, &st, &n);
    if (!n) {
        char *src = NULL;
        if ((rc = wd_get_page_source(s, &src, err)))
            return rc;
        *value = cJSON_CreateString(src);
        free(src);
        return *value ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    if (strncmp(loc, "document.", 9) && strncmp(loc, "[...document.", 13)) {
        snprintf(out->detail, sizeof out->detail, "program_html: unknown locator '%.100s'", loc);
        return EOUS_OK;
    }
    /* the prep actions run in one try block: the first that throws ends them */
    const cJSON *pa;
    cJSON_ArrayForEach(pa, eous_json_arr(t, "prep_actions")) {
        cJSON *ignored = NULL;
        rc = page_evaluate(s, cJSON_IsString(pa) ? pa->valuestring : "undefined", &ignored, err);
        cJSON_Delete(ignored);
        if (rc == EOUS_E_PAGE)
            break;
        if (rc)
            return rc;
    }
    /* a locator that throws selects "" (WebArena: the page is wrong) */
    rc = page_evaluate(s, loc, value, err);
    if (rc == EOUS_E_PAGE)
        *value = cJSON_CreateString("");
    else if (rc)
        return rc;
    return *value ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
}

eous_rc wa_evaluate(const cJSON *eval, const char *intent, const char *answer, wd_session *s, act_exec *x,
                    struct llm_client *judge, wa_eval_result *out, eous_err *err)
{
    act_exec *own = NULL; /* made when a page must be opened and the caller has no executor */
    act_exec **ex = x ? &x : &own;
    memset(out, 0, sizeof *out);
    const cJSON *types = eous_json_arr(eval, "eval_types");
    if (!types)
        return eous_err_set(err, EOUS_E_INVALID, "task eval has no eval_types list");
    wa_eval_observed obs = {.answer = answer};
    char *url = NULL;
    cJSON *values = cJSON_CreateArray();
    wa_eval_result reading;
    memset(&reading, 0, sizeof reading);
    eous_rc rc = values ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    const cJSON *ty;
    cJSON_ArrayForEach(ty, types) {
        if (rc || !cJSON_IsString(ty))
            continue;
        if (!strcmp(ty->valuestring, "url_match") && !url) {
            rc = wd_get_url(s, &url, err);
        } else if (!strcmp(ty->valuestring, "program_html")) {
            const cJSON *t;
            cJSON_ArrayForEach(t, eous_json_arr(eval, "program_html")) {
                cJSON *v = NULL;
                if (rc || (rc = read_target(s, ex, t, &v, &reading, err)) || !v)
                    break;
                cJSON_AddItemToArray(values, v);
            }
        }
    }
    if (!rc) {
        obs.url = url;
        obs.values = values;
        wa_score_observed(eval, intent, &obs, judge, out);
        if (reading.unsupported || reading.detail[0]) {
            out->unsupported |= reading.unsupported;
            out->score = 0.0;
            memcpy(out->detail, reading.detail, sizeof out->detail);
        }
    }
    free(url);
    cJSON_Delete(values);
    act_exec_free(own);
    return rc;
}

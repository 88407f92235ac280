/* bench/verified_run.c — see verified_run.h. */
#define _GNU_SOURCE
#include "bench/verified_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "webarena/har.h"
#include "webarena/verified.h"
#include "webarena/verified_task.h"
#include "core/text.h"

void bench_verified_objective(const wa_task *t, char **objective, cJSON **answer_schema)
{
    char *fmt = vf_answer_format(t->raw);
    if (fmt && asprintf(objective, "%s\n\n%s", t->intent ? t->intent : "", fmt) < 0)
        *objective = NULL;
    free(fmt);
    *answer_schema = vf_answer_schema(t->raw);
}

#define BODY_CAP (256 * 1024) /* a response body kept for an evaluator, at most */
#define BODIES_MAX 20           /* bodies fetched per task, at most */

/* Does an evaluator of the task read response bodies (response_content) or post data (which
 * Network.getRequestPostData takes from the same buffer when the event left it out)? */
static int reads_bodies(const wa_task *t)
{
    const cJSON *cfg, *evs = t ? t->verified : NULL;
    cJSON_ArrayForEach(cfg, evs) {
        const char *name = eous_json_str(cfg, "evaluator");
        const cJSON *exp = eous_json_obj(cfg, "expected");
        if (name && !strcmp(name, "NetworkEventEvaluator") &&
            (eous_json_obj(exp, "response_content") || eous_json_obj(exp, "post_data")))
            return 1;
    }
    return 0;
}

void bench_verified_begin(wd_session *s, const wa_task *t)
{
    if (!s || !wd_session_has_network_log(s))
        return;
    /* With Network enabled Chromium copies every response body into DevTools' buffer (100 MB by default) for
     * Network.getResponseBody; eous reads bodies only for a response_content evaluator, and none over BODY_CAP */
    int bodies = reads_bodies(t);
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddNumberToObject(p, "maxTotalBufferSize", bodies ? 2.0 * BODIES_MAX * BODY_CAP : 0);
    cJSON_AddNumberToObject(p, "maxResourceBufferSize", bodies ? BODY_CAP : 0);
    wd_cdp(s, "Network.enable", p, &r, NULL);
    cJSON_Delete(p), cJSON_Delete(r);
    cJSON *drop = NULL;
    wd_perf_log(s, &drop, NULL);
    cJSON_Delete(drop);
}

char *bench_verified_dir(const char *trace_path)
{
    if (!trace_path)
        return NULL;
    size_t n = strlen(trace_path);
    if (n > 6 && !strcmp(trace_path + n - 6, ".jsonl"))
        n -= 6;
    return strndup(trace_path, n);
}

static eous_rc write_json(const char *dir, const char *name, const cJSON *v, eous_err *err)
{
    char *path = NULL;
    if (asprintf(&path, "%s/%s", dir, name) < 0)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    char *text = eous_json_print(v);
    /* nothing secret leaves: every registered value is replaced in the text as written */
    char *clean = text ? eous_redact(text) : NULL;
    eous_rc rc = clean ? eous_write_file_atomic(path, clean, strlen(clean), err)
                       : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    free(clean), free(text), free(path);
    return rc;
}

/* Post data too large to ride along with the event, fetched by request id. */
static void fill_missing_post_data(wd_session *s, cJSON *har)
{
    cJSON *e;
    cJSON_ArrayForEach(e, eous_json_arr(eous_json_obj(har, "log"), "entries")) {
        if (!eous_json_bool(e, "_postDataMissing", 0) || !wd_session_has_cdp(s))
            continue;
        cJSON *p = cJSON_CreateObject(), *r = NULL;
        cJSON_AddStringToObject(p, "requestId", eous_json_str(e, "_requestId"));
        if (!wd_cdp(s, "Network.getRequestPostData", p, &r, NULL) && eous_json_str(r, "postData")) {
            cJSON *rq = cJSON_GetObjectItemCaseSensitive(e, "request");
            const char *mime = "";
            const cJSON *h;
            cJSON_ArrayForEach(h, eous_json_arr(rq, "headers")) if (!strcasecmp(eous_json_str(h, "name"), "content-type"))
                mime = eous_json_str(h, "value");
            char *t = wa_har_redact_text(eous_json_str(r, "postData"), *mime ? mime : "text/plain");
            cJSON *pd = cJSON_CreateObject();
            cJSON_AddStringToObject(pd, "mimeType", mime);
            cJSON_AddStringToObject(pd, "text", t ? t : "");
            cJSON_AddItemToObject(rq, "postData", pd);
            cJSON_DeleteItemFromObjectCaseSensitive(e, "_postDataMissing");
            free(t);
        }
        cJSON_Delete(p), cJSON_Delete(r);
    }
}

/* Response bodies only where an evaluator reads them (response_content):
 * the entries whose method and base URL match its expected request. */
static void fetch_bodies(wd_session *s, const wa_task *t, cJSON *har)
{
    const cJSON *cfg;
    int fetched = 0;
    vf_ctx ctx = {.sites = eous_json_arr(t->raw, "sites")};
    cJSON_ArrayForEach(cfg, t->verified) {
        const cJSON *exp = eous_json_obj(cfg, "expected");
        const char *name = eous_json_str(cfg, "evaluator");
        if (!name || strcmp(name, "NetworkEventEvaluator") || !eous_json_obj(exp, "response_content"))
            continue;
        vf_url_opts uo = {0};
        cJSON *eu = vf_norm_url(&ctx, cJSON_GetObjectItemCaseSensitive(exp, "url"), &uo, 0);
        const char *method = eous_json_str(exp, "http_method") ? eous_json_str(exp, "http_method") : "GET";
        cJSON *e;
        cJSON_ArrayForEach(e, eous_json_arr(eous_json_obj(har, "log"), "entries")) {
            cJSON *rq = cJSON_GetObjectItemCaseSensitive(e, "request");
            cJSON *content = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "response"), "content");
            if (fetched >= BODIES_MAX || !content || cJSON_GetObjectItemCaseSensitive(content, "text") ||
                strcasecmp(eous_json_str(rq, "method") ? eous_json_str(rq, "method") : "", method))
                continue;
            cJSON *u = cJSON_CreateString(eous_json_str(rq, "url") ? eous_json_str(rq, "url") : "");
            cJSON *nu = vf_norm_url(&ctx, u, &uo, 0);
            int match = eu && nu && vf_url_compare_path(eu, nu);
            cJSON_Delete(u), cJSON_Delete(nu);
            if (!match)
                continue;
            cJSON *p = cJSON_CreateObject(), *r = NULL;
            cJSON_AddStringToObject(p, "requestId", eous_json_str(e, "_requestId") ? eous_json_str(e, "_requestId") : "");
            fetched++;
            if (!wd_cdp(s, "Network.getResponseBody", p, &r, NULL) && eous_json_str(r, "body") &&
                !eous_json_bool(r, "base64Encoded", 0) && strlen(eous_json_str(r, "body")) <= BODY_CAP) {
                char *clean = wa_har_redact_text(eous_json_str(r, "body"), eous_json_str(content, "mimeType"));
                cJSON_AddStringToObject(content, "text", clean ? clean : "");
                free(clean);
            }
            cJSON_Delete(p), cJSON_Delete(r);
        }
        cJSON_Delete(eu);
    }
}

#define ASSERTION_MSG_MAX 300 /* a failed assertion's message on a results line, at most (score.json has all) */

cJSON *bench_verified_evaluators(const cJSON *score)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *ev;
    cJSON_ArrayForEach(ev, eous_json_arr(score, "evaluators")) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "evaluator", eous_json_str(ev, "evaluator") ? eous_json_str(ev, "evaluator") : "?");
        cJSON_AddStringToObject(o, "status", eous_json_str(ev, "status") ? eous_json_str(ev, "status") : "?");
        if (eous_json_str(ev, "error"))
            cJSON_AddStringToObject(o, "error", eous_json_str(ev, "error"));
        cJSON *failed = cJSON_AddArrayToObject(o, "failed");
        const cJSON *a;
        cJSON_ArrayForEach(a, eous_json_arr(ev, "assertions")) {
            /* "name: first message", the message cut on a character boundary */
            const char *name = eous_json_str(a, "assertion_name");
            const cJSON *m0 = cJSON_GetArrayItem(eous_json_arr(a, "assertion_msgs"), 0);
            const char *msg = cJSON_IsString(m0) ? m0->valuestring : "";
            size_t cut = eous_utf8_cut(msg, ASSERTION_MSG_MAX);
            char *line = NULL;
            if (asprintf(&line, "%s%s%.*s%s", name ? name : "?", *msg ? ": " : "", (int)cut, msg,
                         msg[cut] ? " …" : "") >= 0)
                cJSON_AddItemToArray(failed, cJSON_CreateString(line));
            free(line);
        }
        cJSON_AddItemToArray(out, o);
    }
    return out;
}

eous_rc bench_verified_finish(const wa_task *t, const char *answer, const char *trace_path, wd_session *s,
                              agent_result *res, char *note, size_t note_size, eous_err *err)
{
    note[0] = '\0';
    char *dir = bench_verified_dir(trace_path);
    eous_rc rc = EOUS_OK;
    cJSON *response = NULL, *har = NULL, *score = NULL;
    if (dir && (rc = eous_mkdirs(dir, 0755, err)))
        goto done;
    /* the answer: a JSON value when it parses, else the text as it is */
    if (answer) {
        response = cJSON_ParseWithOpts(answer, NULL, 1);
        if (!response || !(cJSON_IsObject(response) || cJSON_IsArray(response))) {
            cJSON_Delete(response);
            response = cJSON_CreateString(answer);
            if (answer[0])
                snprintf(note, note_size, "the answer is not a JSON object; kept verbatim and scored as WebArena-Verified "
                                          "scores it");
        }
    }
    vf_har h = {0};
    if (s && wd_session_has_network_log(s)) {
        cJSON *log = NULL;
        eous_err herr;
        eous_err_clear(&herr);
        if (!wd_perf_log(s, &log, &herr)) {
            har = wa_har_build(log, NULL);
            fill_missing_post_data(s, har);
            fetch_bodies(s, t, har);
            h.root = har;
            h.entries = eous_json_arr(eous_json_obj(har, "log"), "entries");
        } else {
            snprintf(note, note_size, "no network log: %s", herr.msg);
        }
        cJSON_Delete(log);
    } else if (!note[0]) {
        snprintf(note, note_size, "no HAR available: the session has no CDP network log (it is W3C-only)");
    }
    score = vf_score_task(t->raw, response, h.root && h.entries && h.entries->child ? &h : NULL);
    if (dir) {
        cJSON *null = cJSON_CreateNull();
        if ((rc = write_json(dir, "task.json", t->raw, err)) ||
            (rc = write_json(dir, "agent_response.json", response ? response : null, err)) ||
            (har && (rc = write_json(dir, "network.har", har, err))) || (rc = write_json(dir, "score.json", score, err))) {
            cJSON_Delete(null);
            goto done;
        }
        cJSON_Delete(null);
    }
    if (dir) { /* paths relative to the run directory, for reports: trace/<task>-<mode>/... */
        const char *tr = strstr(dir, "/trace/");
        const char *rel = tr ? tr + 1 : dir;
        snprintf(res->bench.agent_response, sizeof res->bench.agent_response, "%s/agent_response.json", rel);
        if (har)
            snprintf(res->bench.har, sizeof res->bench.har, "%s/network.har", rel);
    }
    res->score = eous_json_num(score, "score", 0);
    res->status = res->score >= 1 ? EOUS_ST_PASSED : EOUS_ST_FAILED;
    /* one line per evaluator: name, status, the first failed assertion or error */
    char detail[sizeof res->eval_detail] = "";
    size_t used = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, eous_json_arr(score, "evaluators")) {
        const cJSON *a = cJSON_GetArrayItem(eous_json_arr(ev, "assertions"), 0);
        const char *why = eous_json_str(ev, "error") ? eous_json_str(ev, "error")
                          : a ? eous_json_str(a, "assertion_name") : NULL;
        int k = snprintf(detail + used, sizeof detail - used, "%s%s %s%s%s", used ? " · " : "",
                         eous_json_str(ev, "evaluator"), eous_json_str(ev, "status"), why ? ": " : "", why ? why : "");
        if (k < 0 || (size_t)k >= sizeof detail - used)
            break;
        used += (size_t)k;
    }
    snprintf(res->eval_detail, sizeof res->eval_detail, "%s", detail);
    cJSON_Delete(res->bench.evaluators);
    res->bench.evaluators = bench_verified_evaluators(score);
done:
    cJSON_Delete(response), cJSON_Delete(har), cJSON_Delete(score);
    free(dir);
    return rc;
}

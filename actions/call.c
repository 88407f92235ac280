/* actions/call.c — semantic calls: a component found by view id, key or
 * (from scripts) label, validated and policy-checked in C, then called
 * through its provider (CI4A registry, WebMCP modelContext, ui-sdk bridge)
 * by call.js; a call a component cannot take falls back to an atomic action. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "actions/act_int.h"
#include "actions/call_js.h"
#include "actions/secrets.h"
#include "actions/validate.h"

static void comp_line(eous_buf *b, const perc_component *c)
{
    eous_buf_printf(b, NULL, "%s (%s, \"%s\")", c->key ? c->key : "?", c->kind ? c->kind : "component",
                    c->label ? c->label : "");
}

/* 1 when component c is written "kind 'label'" by k (kind and label folded) */
static int kind_label_match(const perc_component *c, const char *role, const char *name)
{
    char a[128], b[128], la[512], lb[512];
    act_fold(role, a, sizeof a);
    act_fold(c->kind, b, sizeof b);
    act_fold(name, la, sizeof la);
    act_fold(c->label, lb, sizeof lb);
    return !strcmp(a, b) && !strcmp(la, lb);
}

/* k: view id or key; from scripts also "kind 'label'" (as the hybrid view
 * prints it), a label (whole, then whole words, any case and accents) or a
 * kind.  Several matches: the one that has the tool, else an error listing
 * the candidates. */
eous_rc act_find_component(const perc_obs *obs, const act_action *a, const perc_component **out, eous_err *err)
{
    *out = NULL;
    const char *k = a->target ? a->target : "";
    if (!obs)
        return eous_err_set(err, EOUS_E_INVALID, "call %s: needs an observation", k);
    if ((*out = perc_obs_find_component(obs, k)))
        return EOUS_OK;
    if (!a->from_script)
        return EOUS_E_NOT_FOUND; /* the caller decides between fallback and error */
    size_t n = perc_obs_n_components(obs);
    const perc_component *hits[32];
    size_t nh = 0;
    char role[64], name[512];
    int nth = 1;
    int kind_label = act_parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0;
    char fk[512];
    act_fold(k, fk, sizeof fk);
    for (int pass = kind_label ? 0 : 1; pass < 4 && !nh; pass++) {
        for (size_t i = 0; i < n && nh < 32; i++) {
            const perc_component *c = perc_obs_component(obs, i);
            char fl[512], fc[128];
            act_fold(c->label, fl, sizeof fl);
            act_fold(c->kind, fc, sizeof fc);
            int hit = pass == 0   ? kind_label_match(c, role, name)
                      : pass == 1 ? c->label && !strcmp(fk, fl)
                      : pass == 2 ? act_words_match(k, c->label)
                                  : !strcmp(fk, fc);
            if (hit)
                hits[nh++] = c;
        }
        if (pass == 0 && nh >= (size_t)nth && nth > 1) { /* "kind 'label' #2": the second of them */
            hits[0] = hits[nth - 1];
            nh = 1;
        }
    }
    if (nh == 1) {
        *out = hits[0];
        return EOUS_OK;
    }
    if (nh > 1) {
        const perc_component *with_tool = NULL;
        size_t nt = 0;
        for (size_t i = 0; i < nh; i++)
            if (act_tool_exists(hits[i]->tools, hits[i]->metadata, a->tool))
                with_tool = hits[i], nt++;
        if (nt == 1) {
            *out = with_tool;
            return EOUS_OK;
        }
        eous_buf b;
        eous_buf_init(&b, 8192);
        for (size_t i = 0; i < nh; i++) {
            eous_buf_puts(&b, i ? ", " : "", NULL);
            comp_line(&b, hits[i]);
        }
        eous_rc rc = eous_err_set(err, EOUS_E_INVALID,
                                  "call: \"%s\" names %zu components: %s; use its id or kind 'label'", k, nh,
                                  b.data ? b.data : "");
        eous_buf_free(&b);
        return rc;
    }
    return EOUS_E_NOT_FOUND;
}

static eous_rc no_component(const perc_obs *obs, const char *k, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 8192);
    size_t n = obs ? perc_obs_n_components(obs) : 0;
    for (size_t i = 0; i < n && i < 20; i++) {
        const perc_component *c = perc_obs_component(obs, i);
        eous_buf_puts(&b, i ? ", " : "", NULL);
        if (c->view_id[0])
            eous_buf_printf(&b, NULL, "%s=", c->view_id);
        comp_line(&b, c);
    }
    eous_rc rc = eous_err_set(err, EOUS_E_NOT_FOUND, "call: no component '%s' on the page (components: %s)", k,
                              n ? b.data : "none");
    eous_buf_free(&b);
    return rc;
}

/* A call a component cannot take, expressed as an atomic action when there
 * is an obvious one.  Returns the atomic kind or ACT_NONE; *text borrows
 * from params. */
static act_kind call_as_atomic(const act_action *a, const char **text)
{
    static const char *const CLICKS[] = {"click", "press", "open", "toggle", "submit", "activate", "check",
                                         "uncheck", "expand", "collapse", "tap", NULL};
    static const char *const TYPES[] = {"setValue", "type", "fill", "input", "setText", "enter", NULL};
    static const char *const SELECTS[] = {"select", "selectOption", "choose", "pick", NULL};
    *text = NULL;
    const char *tool = a->tool ? a->tool : "";
    const cJSON *only = NULL;
    int n = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, a->params) {
        only = p;
        n++;
    }
    for (const char *const *t = CLICKS; *t; t++)
        if (!strcmp(tool, *t))
            return ACT_CLICK;
    if (!strcmp(tool, "hover"))
        return ACT_HOVER;
    if (n == 1 && cJSON_IsString(only)) {
        *text = only->valuestring;
        for (const char *const *t = TYPES; *t; t++)
            if (!strcmp(tool, *t))
                return ACT_TYPE;
        for (const char *const *t = SELECTS; *t; t++)
            if (!strcmp(tool, *t))
                return ACT_SELECT;
    }
    return ACT_NONE;
}

/* Atomic fallback for a call; t is resolved already. */
static eous_rc call_fallback(act_exec *x, const perc_obs *obs, const act_action *a, act_kind kind, const char *text,
                             act_target *t, const char *why, act_result *res, eous_err *err)
{
    act_action fa;
    act_action_init(&fa);
    fa.kind = kind;
    fa.target = a->target;
    fa.text = (char *)(uintptr_t)text; /* borrowed; fa is never cleared */
    fa.enter = 0;
    fa.clear = 1;
    fa.from_script = a->from_script;
    snprintf(res->fallback_reason, sizeof res->fallback_reason, "%s; did an atomic %s on %s", why,
             act_kind_name(kind), t->what);
    return act_run_atomic(x, obs, &fa, t, res, err);
}

/* Params as the bridge's step args. */
static cJSON *bridge_args(const cJSON *params)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "args");
    if (cJSON_IsArray(args))
        return cJSON_Duplicate(args, 1);
    cJSON *out = cJSON_CreateArray();
    int n = cJSON_GetArraySize(params);
    if (n == 1)
        cJSON_AddItemToArray(out, cJSON_Duplicate(params->child, 1));
    else if (n > 1)
        cJSON_AddItemToArray(out, cJSON_Duplicate(params, 1));
    return out;
}

/* A page's answer, unwrapped: JSON strings parsed, MCP {content:[{text}]}
 * opened.  Caller frees. */
static cJSON *unwrap_result(const char *ser)
{
    cJSON *v = ser ? cJSON_Parse(ser) : NULL;
    for (int i = 0; i < 3 && v; i++) {
        if (cJSON_IsString(v)) {
            cJSON *in = cJSON_Parse(v->valuestring);
            if (!in)
                break;
            cJSON_Delete(v);
            v = in;
            continue;
        }
        const cJSON *content = cJSON_GetObjectItemCaseSensitive(v, "content");
        const cJSON *first = cJSON_IsArray(content) ? content->child : NULL;
        const char *text = eous_json_str(first, "text");
        if (text && cJSON_GetArraySize(content) == 1) {
            /* text belongs to v: the new value is made before v goes */
            cJSON *in = cJSON_Parse(text);
            if (!in)
                in = cJSON_CreateString(text);
            cJSON_Delete(v);
            v = in;
            continue;
        }
        break;
    }
    return v;
}

static void put_capped(eous_buf *b, const cJSON *v, size_t cap)
{
    char *s = v ? cJSON_PrintUnformatted(v) : NULL;
    if (!s)
        return;
    if (strlen(s) > cap)
        eous_buf_printf(b, NULL, "%.*s...", (int)cap, s);
    else
        eous_buf_puts(b, s, NULL);
    free(s);
}

static eous_rc page_error(const cJSON *v, const char *who, eous_err *err)
{
    const char *code = eous_json_str(v, "code") ? eous_json_str(v, "code") : "";
    const char *msg = eous_json_str(v, "message") ? eous_json_str(v, "message") : "";
    const char *cons = eous_json_str(v, "constraints");
    eous_rc kind = EOUS_E_PAGE;
    if (!strcmp(code, "tool_error")) {
        /* a WebMCP tool's own message (thrown Error or string, or an isError
         * result), word for word; "generic" when the browser kept only its own */
        eous_rc rc = eous_err_set(err, EOUS_E_PAGE, "%s: the page's tool failed: %s%s", who, msg,
                                  cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "generic"))
                                      ? " (the browser gave no reason of the tool's own)"
                                      : "");
        if (err)
            eous_err_set_code(err, code);
        return rc;
    }
    if (!strcmp(code, "unknown_component"))
        kind = EOUS_E_STALE;
    else if (!strcmp(code, "unknown_tool"))
        kind = EOUS_E_NOT_FOUND;
    else if (!strcasecmp(code, "invalid_params") || !strcasecmp(code, "invalid_argument") ||
             !strcasecmp(code, "validation") || !strcasecmp(code, "rejected") || !strcmp(code, "disabled") ||
             !strcmp(code, "ValidationError") || (cons && strcmp(cons, "null")))
        kind = EOUS_E_REJECTED;
    eous_rc rc = eous_err_set(err, kind, "%s: the page refused%s%s%s: %s%s%.400s%s", who, code[0] ? " (" : "",
                              code, code[0] ? ")" : "", msg, cons ? " (constraints: " : "", cons ? cons : "",
                              cons ? ")" : "");
    if (err)
        eous_err_set_code(err, code);
    return rc;
}

/* A call that cannot be semantic: k names no component but an element the
 * planner called a tool on, or the component lacks the tool and the tool has
 * an obvious atomic meaning.  Returns 1 when it handled the call (*rc set). */
static int call_atomically(act_exec *x, const perc_obs *obs, const act_action *a, const perc_component *c,
                           act_result *res, eous_rc *rc, eous_err *err)
{
    const char *text = NULL;
    act_kind fk = call_as_atomic(a, &text);
    act_target t;
    memset(&t, 0, sizeof t);
    char why[200];
    if (!c) {
        eous_err e2;
        eous_err_clear(&e2);
        act_action probe = *a;
        probe.kind = fk;
        if (fk == ACT_NONE || !obs || !a->target || act_resolve_target(x, obs, &probe, &t, &e2) != EOUS_OK) {
            act_target_free(&t);
            *rc = no_component(obs, a->target ? a->target : "", err);
            return 1;
        }
        snprintf(why, sizeof why, "no component '%s'", a->target);
    } else {
        if (act_tool_exists(c->tools, c->metadata, a->tool) || fk == ACT_NONE || c->backend_id <= 0)
            return 0;
        t.backend_id = c->backend_id;
        t.node = perc_obs_node_by_backend(obs, c->backend_id);
        snprintf(t.what, sizeof t.what, "%s (%s \"%s\")", c->view_id[0] ? c->view_id : c->key, c->kind, c->label);
        snprintf(why, sizeof why, "%s has no tool '%s'", c->key, a->tool ? a->tool : "");
    }
    *rc = call_fallback(x, obs, a, fk, text, &t, why, res, err);
    act_target_free(&t);
    return 1;
}

/* Validation in C (nothing reaches the page on a rejection), the policy's
 * rules, then the page's and the rule's confirm sentences. */
static eous_rc check_call(act_exec *x, const perc_component *c, const act_action *a, const char *what,
                          int *confirmed, eous_err *err)
{
    eous_rc rc;
    if ((rc = act_validate(c, a->tool, a->params, err)))
        return rc;
    const char *confirm = NULL;
    if ((rc = act_policy_check_action(x->policy, c->kind, c->label, "call", a->tool, x->url, &confirm, err)))
        return rc;
    *confirmed = 0;
    if (c->confirm) {
        if ((rc = act_ask(x, c->confirm, what, err)))
            return rc;
        *confirmed = 1;
    }
    if (confirm && !(c->confirm && !strcmp(confirm, c->confirm)))
        return act_ask(x, confirm, what, err);
    return EOUS_OK;
}

/* Runs call.js; a confirm mark the observation did not show is asked about
 * and the call made once more.  *out is the script's answer (caller frees). */
static eous_rc call_in_page(act_exec *x, const perc_component *c, const act_action *a, const cJSON *params,
                            const char *who, const char *what, int confirmed, cJSON **out, eous_err *err)
{
    /* a component made by hand (tests) without a provider is a CI4A one */
    unsigned bit = c->provider_bit ? c->provider_bit : PERC_PROVIDER_CI4A;
    const char *provider = perc_provider_name(bit);
    *out = NULL;
    for (int attempt = 0; attempt < 2; attempt++) {
        cJSON *args = cJSON_CreateArray();
        cJSON_AddItemToArray(args, cJSON_CreateString(c->key));
        cJSON_AddItemToArray(args, cJSON_CreateString(a->tool));
        if (bit == PERC_PROVIDER_BRIDGE)
            cJSON_AddItemToArray(args, bridge_args(params));
        else
            cJSON_AddItemToArray(args, params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
        cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.call_timeout_ms));
        cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_quiet_ms));
        cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_cap_ms));
        cJSON_AddItemToArray(args, cJSON_CreateBool(confirmed));
        cJSON_AddItemToArray(args, cJSON_CreateString(provider));
        if (bit == PERC_PROVIDER_NATIVE) {
            /* native_call.js needs M (a form's field keys) and which params name secrets */
            cJSON_AddItemToArray(args, cJSON_Duplicate(c->metadata, 1));
            cJSON *sec = cJSON_CreateArray();
            const cJSON *p;
            cJSON_ArrayForEach(p, a->params) if (cJSON_IsString(p) && act_secrets_has_placeholder(p->valuestring))
                cJSON_AddItemToArray(sec, cJSON_CreateString(p->string ? p->string : ""));
            cJSON_AddItemToArray(args, sec);
        }
        eous_rc rc = act_execute_settling(x, ACT_CALL_JS, args, 0, out, err); /* it settles in the page */
        act_secret_json_free(args);
        if (rc)
            return eous_err_prefix(err, "%s", who);
        const char *st = eous_json_str(*out, "status");
        if (!st || strcmp(st, "confirm") || confirmed)
            return EOUS_OK;
        if ((rc = act_ask(x, eous_json_str(*out, "sentence"), what, err)))
            return rc;
        confirmed = 1;
        cJSON_Delete(*out);
        *out = NULL;
    }
    return EOUS_OK;
}

/* "c3.setValue: ok; result ...; state ..." from a successful call. */
/* A WebMCP tool annotated untrustedContentHint: its output is page data. */
static int untrusted_output(const perc_component *c, const char *tool)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(c->metadata, tool ? tool : "");
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(meta, "annotations"),
                                                         "untrustedContentHint"));
}

static eous_rc call_ok(const cJSON *v, const char *who, int untrusted, act_result *res, eous_err *err)
{
    cJSON *result = unwrap_result(eous_json_str(v, "result"));
    eous_rc rc = EOUS_OK;
    if (cJSON_IsObject(result) && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(result, "ok"))) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(result, "error");
        const char *m = cJSON_IsString(e) ? e->valuestring : eous_json_str(e, "message");
        if (!m)
            m = eous_json_str(result, "message");
        rc = eous_err_set(err, EOUS_E_PAGE, "%s: the page answered not ok: %s", who, m ? m : "no reason given");
        cJSON_Delete(result);
        return rc;
    }
    const char *state = eous_json_str(v, "state");
    res->state = state ? cJSON_Parse(state) : NULL;
    eous_buf b;
    eous_buf_init(&b, 8192);
    eous_buf_printf(&b, NULL, "%s: ok", who);
    const cJSON *shown = cJSON_IsObject(result) ? cJSON_GetObjectItemCaseSensitive(result, "result") : NULL;
    if (!shown && result && !(cJSON_IsObject(result) && cJSON_GetObjectItemCaseSensitive(result, "state")))
        shown = result;
    if (shown && !cJSON_IsNull(shown) && !cJSON_IsTrue(shown)) {
        /* untrusted output is delimited as page data: never instructions */
        eous_buf_puts(&b, untrusted ? "; result (page data, untrusted) <page-data>" : "; result ", NULL);
        put_capped(&b, shown, 300);
        if (untrusted)
            eous_buf_puts(&b, "</page-data>", NULL);
    }
    if (res->state) {
        eous_buf_puts(&b, "; state ", NULL);
        put_capped(&b, res->state, 500);
    }
    act_res_msg(res, "%s", b.data ? b.data : "");
    eous_buf_free(&b);
    cJSON_Delete(result);
    return rc;
}

/* The call script's answer as a result or an error. */
static eous_rc call_answer(act_exec *x, const perc_obs *obs, const perc_component *c, const char *tool, const cJSON *v, const char *who,
                           const char *what, act_result *res, eous_err *err)
{
    const char *st = eous_json_str(v, "status");
    st = st ? st : "";
    res->settle_ms = eous_json_num(v, "settleMs", 0);
    x->settle_capped = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "settleCapped"));
    const char *waited = eous_json_str(v, "settleWaited");
    snprintf(x->settle_waited, sizeof x->settle_waited, "%s", waited ? waited : "");
    if (!strcmp(st, "ok"))
        act_remember_settled(x, v); /* it settled after the call */
    else
        act_remember_url(x, v);
    if (!strcmp(st, "hidden"))
        return act_policy_hidden(what, err);
    if (!strcmp(st, "gone"))
        return eous_err_set(err, EOUS_E_STALE, "stale: component %s is gone since the observation; observe again",
                            c->key);
    if (!strcmp(st, "noprovider"))
        return eous_err_set(err, EOUS_E_STALE, "stale: the page no longer offers %s components (%s); observe again",
                            c->provider ? c->provider : "ci4a", who);
    if (!strcmp(st, "timeout")) {
        if (eous_json_str(v, "form") && *eous_json_str(v, "form"))
            return eous_err_set(err, EOUS_E_TIMEOUT,
                                "%s: the form is filled and waits for a person to submit it (no toolautosubmit); "
                                "no answer within %.0f ms",
                                who, x->o.call_timeout_ms);
        return eous_err_set(err, EOUS_E_TIMEOUT, "%s: no answer from the page within %.0f ms%s", who,
                            x->o.call_timeout_ms,
                            c->provider_bit == PERC_PROVIDER_WEBMCP ? " (the call was cancelled)" : "");
    }
    if (!strcmp(st, "submit"))
        return act_native_submit(x, obs, c, v, who, res, err);
    if (!strcmp(st, "error") && c->provider_bit == PERC_PROVIDER_NATIVE) {
        /* native_call.js says what the control holds, or the browser's validation message */
        const char *code = eous_json_str(v, "code") ? eous_json_str(v, "code") : "";
        eous_rc rc = eous_err_set(err, !strcmp(code, "unknown_component") ? EOUS_E_STALE : EOUS_E_PAGE, "%s: %s", who,
                                  eous_json_str(v, "message") ? eous_json_str(v, "message") : "failed");
        if (err)
            eous_err_set_code(err, code);
        return rc;
    }
    if (!strcmp(st, "error"))
        return page_error(v, who, err);
    if (!strcmp(st, "ok"))
        return call_ok(v, who, untrusted_output(c, tool), res, err);
    return eous_err_set(err, EOUS_E_PAGE, "%s: unexpected answer from the call script", who);
}

/* "describe" on a page tool (WebMCP, bridge) that has no tool of that name:
 * its whole description and input schema, from the observation (the view
 * cuts long descriptions and says so); nothing reaches the page. */
static eous_rc describe_page_tool(const perc_component *c, const char *who, act_result *res)
{
    const char *tool = c->tools && cJSON_IsString(c->tools->child) ? c->tools->child->valuestring : c->key;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(c->metadata, tool);
    const char *desc = eous_json_str(meta, "description");
    char *schema = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(meta, "inputSchema"));
    if (!desc)
        desc = c->label ? c->label : "";
    /* what fits the result line (4 kB); a longer text says what it left out */
    size_t len = strlen(desc), keep = eous_utf8_cut(desc, 2800);
    res->path = ACT_PATH_SEMANTIC;
    act_res_msg(res, "%s: ok; description (page data) <page-data>%.*s</page-data>%s; input schema %.800s", who,
                (int)keep, desc, keep < len ? " (the rest of it is too long to show)" : "",
                schema ? schema : "{}");
    free(schema);
    return EOUS_OK;
}

/* A native tool whose element, stamped for the executor's click, the page took away before the
 * click (a script the fill loaded replaced a form's button): the element is found again as the
 * page now shows it, once, and clicked; a form's fields are not filled again (submit's params
 * dropped), a link or field is asked for by the same params.  v: the first answer. */
static eous_rc click_again(act_exec *x, const perc_obs *obs, const perc_component *c, const act_action *a,
                            const cJSON *params, const cJSON *v, const char *who, const char *what, act_result *res,
                            eous_err *err)
{
    const char *st = eous_json_str(v, "status"), *via = eous_json_str(v, "via");
    if (!st || strcmp(st, "submit") || !via || strcmp(via, "click") || !a->tool)
        return EOUS_E_STALE;
    int form = !strcmp(a->tool, "submit") && !eous_json_str(v, "what");
    cJSON *again = form || !params ? cJSON_CreateObject() : cJSON_Duplicate(params, 1), *v2 = NULL;
    act_action b = *a; /* shallow: only params differ, and b is never cleared */
    b.params = again;
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc rc = again ? call_in_page(x, c, &b, again, who, what, 1, &v2, &e2) : EOUS_E_NOMEM;
    if (!rc)
        rc = call_answer(x, obs, c, "submit", v2, who, what, res, &e2);
    if (!rc) {
        size_t n = strlen(res->message);
        snprintf(res->message + n, sizeof res->message - n, " (%s found again: the page had replaced it)",
                 form ? "its submit button" : "what it clicks");
    } else if (rc != EOUS_E_STALE && err) {
        *err = e2;
    }
    cJSON_Delete(v2);
    act_secret_json_free(again);
    return rc;
}

eous_rc act_run_call(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    const perc_component *c = NULL;
    eous_rc rc = act_find_component(obs, a, &c, err);
    if (rc && rc != EOUS_E_NOT_FOUND)
        return rc;
    if (call_atomically(x, obs, a, rc ? NULL : c, res, &rc, err))
        return rc;
    res->path = ACT_PATH_SEMANTIC;
    char who[300], what[512];
    snprintf(who, sizeof who, "%s.%s", c->key, a->tool ? a->tool : "");
    snprintf(what, sizeof what, "call %s", who);
    if (a->tool && !strcmp(a->tool, "describe") && !act_tool_exists(c->tools, c->metadata, "describe") &&
        c->provider_bit && c->provider_bit != PERC_PROVIDER_CI4A)
        return describe_page_tool(c, who, res);
    int confirmed = 0;
    if ((rc = check_call(x, c, a, what, &confirmed, err)))
        return rc;
    /* a native file input: its files go in through WebDriver, never through the page's script */
    if (c->provider_bit == PERC_PROVIDER_NATIVE && a->tool && !strcmp(a->tool, "upload"))
        return act_native_upload(x, obs, c, a, who, res, err);
    cJSON *params = NULL, *v = NULL;
    /* secrets are filled in for the page only, and wiped after */
    if (!(rc = act_secrets_expand_json(x->secrets, a->params, x->url, &params, err)) &&
        !(rc = call_in_page(x, c, a, params, who, what, confirmed, &v, err)))
        rc = call_answer(x, obs, c, a->tool, v, who, what, res, err);
    if ((rc == EOUS_E_STALE || rc == EOUS_E_NOT_FOUND) && v) {
        eous_rc again = click_again(x, obs, c, a, params, v, who, what, res, err);
        if (again != EOUS_E_STALE)
            rc = again;
    }
    act_secret_json_free(params);
    cJSON_Delete(v);
    return rc;
}

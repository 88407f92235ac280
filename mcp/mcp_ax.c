/* mcp/mcp_ax.c — eous mcp's own DevTools connection to the tab the driver is on (mcp_devtools_int.h),
 * beside chromedriver's, for what costs most through the driver: the accessibility tree of every
 * answer's view (chromedriver's goog/cdp/execute parses the 150-200 kB answer and writes it again:
 * about half the tree's time on the Playground), an atomic action's clicks and keys (each of the
 * driver's requests 5-20 ms, here ~1 ms an event; act_exec_set_input) and the script that settles
 * after it and reads the view (100-180 kB, whose handling by the driver cost 20-100 ms a request;
 * act_exec_set_script).  The connection opens at the
 * first use, attaches to the tab the driver is on (again when that tab changes) and goes with the
 * browser (mcp_ax_free).  A browser whose DevTools address is not on this machine's loopback, or any
 * failure, leaves the tree and the input to the driver (perc_opts.ax_read's and the executor's
 * fallback); after a failure to connect it is not tried again in that browser. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_devtools_int.h"

struct mcp_ax {
    mcp_devtools dt;
    int off;             /* the connection could not be made: the driver reads the tree */
    char target[128];    /* the tab attached, "" none */
    char session[128];   /* its DevTools session */
    int page_on;         /* Page.enable sent in that session: a dialog opening under the input is seen */
    int dialog;          /* one opened under the input or a script: the next script goes through the driver,
                          * which meets it (the page waits on it) */
    unsigned long rt;    /* the driver's round trips when its tab was last asked: none since, none switched it */
    char *fn;            /* the settle's script compiled as a function in the tab's document (its object id,
                          * owned), so a 100-180 kB script is not compiled again each action; NULL none */
    size_t fn_len;       /* that script's length and hash */
    unsigned long fn_hash;
};

void mcp_ax_free(mcp_server *m)
{
    if (!m || !m->ax)
        return;
    mcp_devtools_close(&m->ax->dt);
    free(m->ax->fn);
    free(m->ax);
    m->ax = NULL;
}

/* Attaches a's connection to the tab target (chromedriver's window handles are target ids). */
static eous_rc attach(struct mcp_ax *a, const char *target, eous_err *err)
{
    a->target[0] = a->session[0] = '\0';
    a->page_on = 0;
    free(a->fn); /* object ids are the session's */
    a->fn = NULL;
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(p, "targetId", target);
    cJSON_AddBoolToObject(p, "flatten", 1);
    eous_rc rc = mcp_devtools_call(&a->dt, "Target.attachToTarget", p, &r, NULL, NULL, err);
    cJSON_Delete(p);
    const char *session = eous_json_str(r, "sessionId");
    if (!rc && (!session || strlen(session) >= sizeof a->session || strlen(target) >= sizeof a->target))
        rc = eous_err_set(err, EOUS_E_INFRA, "the browser gave no session for tab %s", target);
    if (!rc) {
        snprintf(a->session, sizeof a->session, "%s", session);
        snprintf(a->target, sizeof a->target, "%s", target);
    }
    cJSON_Delete(r);
    return rc;
}

/* m's connection attached to the tab the driver is on (opened first when needed); what: the caller's
 * name in errors. */
static eous_rc tab(mcp_server *m, const char *what, eous_err *err)
{
    if (!m->ax) {
        if (!(m->ax = calloc(1, sizeof *m->ax)))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        m->ax->dt.fd = -1;
    }
    struct mcp_ax *a = m->ax;
    if (a->off)
        return eous_err_set(err, EOUS_E_INVALID, "no DevTools connection of eous's own to this browser");
    /* the driver's current tab changes only by its requests: none since the last answer, the same tab */
    if (a->dt.fd >= 0 && a->target[0] && a->rt == wd_session_round_trips(m->b.session))
        return EOUS_OK;
    char *h = NULL;
    eous_rc rc = wd_window_handle(m->b.session, &h, err);
    a->rt = wd_session_round_trips(m->b.session);
    const char *target = h ? h + (strncmp(h, "CDwindow-", 9) ? 0 : 9) : "";
    if (!rc && a->dt.fd < 0) {
        a->target[0] = '\0';
        if ((rc = mcp_devtools_open(m->b.session, what, &a->dt, err)))
            a->off = 1;
    }
    if (!rc && strcmp(a->target, target))
        rc = attach(a, target, err);
    free(h);
    return rc;
}

/* After a failure on the connection (a tab closed, a connection lost): connect again next time. */
static void lost(mcp_server *m)
{
    if (m->ax && !m->ax->off) {
        mcp_devtools_close(&m->ax->dt);
        m->ax->target[0] = '\0';
    }
}

/* perc_opts.ax_read: ctx is the server. */
static eous_rc ax_read(void *ctx, const char *frame_id, char **body, size_t *len, eous_err *err)
{
    mcp_server *m = ctx;
    eous_rc rc = tab(m, "the accessibility tree", err);
    struct mcp_ax *a = m->ax;
    if (!rc) {
        cJSON *p = NULL;
        if (frame_id) {
            p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "frameId", frame_id);
        }
        rc = mcp_devtools_call_raw(&a->dt, "Accessibility.getFullAXTree", p, a->session, body, len, err);
        cJSON_Delete(p);
        if (!rc)
            EOUS_DEBUG("mcp", "AX tree of tab %s%s%s on eous's own DevTools connection, %zu bytes", a->target,
                       frame_id ? ", frame " : "", frame_id ? frame_id : "", *len);
    }
    if (rc)
        lost(m);
    return rc;
}

/* The answer to command id of a's session (*msg, caller frees; may be NULL); *dialog set (and EOUS_OK)
 * when a JavaScript dialog opened first: the page waits on it and the answer comes after it closes
 * (later reads skip it by its id). */
static eous_rc answer(struct mcp_ax *a, long id, const char *method, int *dialog, cJSON **msg, eous_err *err)
{
    eous_rc rc;
    cJSON *v = NULL;
    while (!(rc = mcp_devtools_recv(&a->dt, &v, err))) {
        const char *ev = eous_json_str(v, "method"), *sid = eous_json_str(v, "sessionId");
        if (ev && !strcmp(ev, "Page.javascriptDialogOpening") && sid && !strcmp(sid, a->session)) {
            *dialog = a->dialog = 1;
            break;
        }
        if (!ev && eous_json_num(v, "id", -1) == (double)id) {
            const cJSON *e = eous_json_obj(v, "error");
            if (e) /* the browser refused it: the connection is fine */
                rc = eous_err_set(err, EOUS_E_PAGE, "%s: %s", method, eous_json_str(e, "message"));
            else if (msg)
                *msg = cJSON_Duplicate(v, 1);
            break;
        }
        cJSON_Delete(v);
        v = NULL;
    }
    cJSON_Delete(v);
    return rc;
}

/* tab() with Page events on in its session: dialogs are Page events, and without them an alert under
 * a click or a script is a 30 s wait. */
static eous_rc ready(mcp_server *m, const char *what, eous_err *err)
{
    eous_rc rc = tab(m, what, err);
    struct mcp_ax *a = m->ax;
    if (!rc && !a->page_on) {
        char *t = NULL;
        size_t n = 0;
        if (!(rc = mcp_devtools_call_raw(&a->dt, "Page.enable", NULL, a->session, &t, &n, err)))
            a->page_on = 1;
        free(t);
    }
    return rc;
}

/* act_exec_set_input's hook: ctx is the server; each command answered before the next. */
static eous_rc input(void *ctx, const cJSON *cmds, int *sent, eous_err *err)
{
    mcp_server *m = ctx;
    *sent = 0;
    eous_rc rc = ready(m, "the input", err);
    struct mcp_ax *a = m->ax;
    int dialog = 0, total = cJSON_GetArraySize(cmds);
    const cJSON *c;
    cJSON_ArrayForEach(c, cmds) {
        const char *method = eous_json_str(c, "method");
        long id = 0;
        if (rc || dialog || !method ||
            (rc = mcp_devtools_send(&a->dt, method, eous_json_obj(c, "params"), a->session, &id, err)))
            break;
        ++*sent;
        rc = answer(a, id, method, &dialog, NULL, err);
    }
    if (!rc)
        EOUS_DEBUG("mcp", "input: %d of %d events on eous's own DevTools connection, tab %s%s", *sent, total,
                   a->target, dialog ? "; a dialog opened, the rest not sent" : "");
    else if (rc != EOUS_E_PAGE)
        lost(m);
    return rc;
}

/* The elements in v, {"__eous_el__": i}, as the driver's element references: els[i] (deeply
 * serialized nodes) as "f.FRAME.d.LOADER.e.BACKEND", the id chromedriver gives the same element,
 * frame the tab's main frame (its target id).  0 for an element of another document (a child
 * frame's, whose frame id is not known here): the driver runs the script then. */
static int put_elements(cJSON *v, const cJSON *els, const char *frame)
{
    const char *doc = eous_json_str(eous_json_obj(cJSON_GetArrayItem(els, 0), "value"), "loaderId");
    int ok = 1;
    for (cJSON *c = v ? v->child : NULL; c && ok; c = c->next) {
        const cJSON *i = cJSON_IsObject(c) ? cJSON_GetObjectItemCaseSensitive(c, "__eous_el__") : NULL;
        if (!cJSON_IsNumber(i)) {
            ok = put_elements(c, els, frame);
            continue;
        }
        const cJSON *node = eous_json_obj(cJSON_GetArrayItem(els, i->valueint), "value");
        const char *loader = eous_json_str(node, "loaderId");
        char id[320];
        ok = loader && doc && !strcmp(loader, doc) &&
             snprintf(id, sizeof id, "f.%s.d.%s.e.%d", frame, loader, eous_json_int(node, "backendNodeId", 0)) <
                 (int)sizeof id;
        cJSON_DeleteItemFromObjectCaseSensitive(c, "__eous_el__");
        ok = ok && cJSON_AddStringToObject(c, WD_ELEMENT_KEY, id);
    }
    return ok;
}

/* Runtime.evaluate's answer msg ([JSON text, elements], deeply serialized) as the script's value
 * (*out), or the exception it threw; frame: the tab's main frame. */
static eous_rc script_value(const cJSON *msg, const char *frame, cJSON **out, eous_err *err)
{
    const cJSON *r = eous_json_obj(msg, "result"), *ex = eous_json_obj(r, "exceptionDetails");
    if (ex) {
        const char *d = eous_json_str(eous_json_obj(ex, "exception"), "description");
        return eous_err_set(err, EOUS_E_PAGE, "the script threw: %.200s", d ? d : eous_json_str(ex, "text"));
    }
    const cJSON *pair = eous_json_arr(eous_json_obj(eous_json_obj(r, "result"), "deepSerializedValue"), "value");
    const char *text = eous_json_str(cJSON_GetArrayItem(pair, 0), "value");
    *out = text ? cJSON_Parse(text) : cJSON_CreateNull(); /* undefined: null, as the driver answers */
    if (!*out)
        return eous_err_set(err, EOUS_E_INFRA, "the script's answer is not JSON");
    if (!put_elements(*out, eous_json_arr(cJSON_GetArrayItem(pair, 1), "value"), frame)) {
        cJSON_Delete(*out);
        *out = NULL;
        return eous_err_set(err, EOUS_E_PAGE, "the script's answer holds an element of another document");
    }
    return EOUS_OK;
}

/* Applied to the compiled script (this) and its arguments: awaits it and answers [its JSON, the
 * elements in it, each once (a node serialized twice comes back the second time as a reference)],
 * each element in the JSON {"__eous_el__": its index} (not its properties: a React element's are
 * circular). */
static const char SCRIPT_CALL[] =
    "function(a) { return Promise.resolve(this.apply(null, a)).then((r) => { const els = [], at = new Map();"
    " const json = JSON.stringify(r, function(k, v) { if (v && typeof v === 'object' && v.nodeType === 1 &&"
    " typeof v.nodeName === 'string') { if (!at.has(v)) { at.set(v, els.length); els.push(v); }"
    " return {__eous_el__: at.get(v)}; } return v; });"
    " return [json, els]; }); }";

static unsigned long fnv(const char *p)
{
    unsigned long h = 2166136261u;
    while (*p)
        h = (h ^ (unsigned char)*p++) * 16777619u;
    return h;
}

/* a->fn: body compiled as a function in the tab's document, kept in an object group of eous's (the
 * page's scripts cannot reach it). */
static eous_rc compile(struct mcp_ax *a, const char *body, eous_err *err)
{
    free(a->fn);
    a->fn = NULL;
    eous_buf e;
    eous_buf_init(&e, 0);
    cJSON *p = cJSON_CreateObject(), *msg = NULL;
    int dialog = 0;
    long id = 0;
    eous_rc rc = !p || eous_buf_printf(&e, NULL, "(function() {\n%s\n})", body) ||
                         !cJSON_AddStringToObject(p, "expression", e.data) ||
                         !cJSON_AddStringToObject(p, "objectGroup", "eous-settle")
                     ? eous_err_set(err, EOUS_E_NOMEM, "out of memory")
                     : mcp_devtools_send(&a->dt, "Runtime.evaluate", p, a->session, &id, err);
    if (!rc && !(rc = answer(a, id, "Runtime.evaluate", &dialog, &msg, err))) {
        const char *obj = eous_json_str(eous_json_obj(eous_json_obj(msg, "result"), "result"), "objectId");
        if (dialog || !obj || !(a->fn = strdup(obj)))
            rc = eous_err_set(err, EOUS_E_PAGE, "the settle's script did not compile in the page");
        a->fn_len = strlen(body);
        a->fn_hash = fnv(body);
    }
    cJSON_Delete(msg);
    cJSON_Delete(p);
    eous_buf_free(&e);
    return rc;
}

/* a->fn applied to args: its answer (*msg), *dialog when one opened first. */
static eous_rc call_fn(struct mcp_ax *a, const cJSON *args, int *dialog, cJSON **msg, eous_err *err)
{
    cJSON *p = cJSON_CreateObject(), *arg = cJSON_CreateObject(), *so = NULL;
    cJSON *av = p ? cJSON_AddArrayToObject(p, "arguments") : NULL;
    if (arg && !cJSON_AddItemToArray(av, arg)) {
        cJSON_Delete(arg);
        arg = NULL;
    }
    long id = 0;
    eous_rc rc = !arg || !cJSON_AddItemToObject(arg, "value", args ? cJSON_Duplicate(args, 1) : cJSON_CreateArray()) ||
                         !cJSON_AddStringToObject(p, "functionDeclaration", SCRIPT_CALL) ||
                         !cJSON_AddStringToObject(p, "objectId", a->fn) || !cJSON_AddBoolToObject(p, "awaitPromise", 1) ||
                         !(so = cJSON_AddObjectToObject(p, "serializationOptions")) ||
                         !cJSON_AddStringToObject(so, "serialization", "deep")
                     ? eous_err_set(err, EOUS_E_NOMEM, "out of memory")
                     : mcp_devtools_send(&a->dt, "Runtime.callFunctionOn", p, a->session, &id, err);
    if (!rc)
        rc = answer(a, id, "Runtime.callFunctionOn", dialog, msg, err);
    cJSON_Delete(p);
    return rc;
}

/* act_exec_set_script's hook: ctx is the server; the script compiled once as a function in the
 * tab's document (again in a new one: its object is gone then), applied to args, its promise awaited,
 * its elements as the driver's references (what chromedriver's execute does); its answer as JSON text
 * (a view's nests deeper than DevTools' returnByValue takes). */
static eous_rc script(void *ctx, const char *body, const cJSON *args, cJSON **out, eous_err *err)
{
    mcp_server *m = ctx;
    *out = NULL;
    eous_rc rc = ready(m, "the settle", err);
    struct mcp_ax *a = m->ax;
    if (!rc && a->dialog) {
        a->dialog = 0;
        return eous_err_set(err, EOUS_E_PAGE, "a dialog is open");
    }
    cJSON *msg = NULL;
    int dialog = 0, again = 0;
    double t0 = eous_now_ms();
    if (!rc && (!a->fn || a->fn_len != strlen(body) || a->fn_hash != fnv(body)))
        rc = compile(a, body, err);
    else
        again = !rc;
    if (!rc && (rc = call_fn(a, args, &dialog, &msg, err)) == EOUS_E_PAGE && again && !dialog) {
        again = 0; /* a new document: its object went with the old one */
        if (!(rc = compile(a, body, err)))
            rc = call_fn(a, args, &dialog, &msg, err);
    }
    if (!rc)
        rc = dialog ? eous_err_set(err, EOUS_E_PAGE, "a dialog opened") : script_value(msg, a->target, out, err);
    if (!rc)
        EOUS_DEBUG("mcp", "settle's script on eous's own DevTools connection, tab %s%s, %.1f ms", a->target,
                   again ? " (compiled before)" : "", eous_now_ms() - t0);
    else if (rc != EOUS_E_PAGE)
        lost(m);
    cJSON_Delete(msg);
    return rc;
}

void mcp_input_use(mcp_server *m)
{
    act_exec_set_input(m->x, input, m);
    act_exec_set_script(m->x, script, m);
}

void mcp_ax_use(mcp_server *m, perc_opts *po)
{
    po->ax_read = ax_read;
    po->ax_ctx = m;
}

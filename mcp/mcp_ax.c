/* mcp/mcp_ax.c — eous mcp's own DevTools connection to the tab the driver is on (mcp_devtools_int.h),
 * beside chromedriver's, for what costs most through the driver: the accessibility tree of every
 * answer's view (chromedriver's goog/cdp/execute parses the 150-200 kB answer and writes it again:
 * about half the tree's time on the Playground), an atomic action's clicks and keys (each of the
 * driver's requests 5-20 ms, here ~1 ms an event; act_exec_set_input) and the page scripts of an
 * action, each compiled once per document (act_exec_set_script): the script that settles after it and
 * reads the view (100-180 kB, whose handling by the driver cost 20-100 ms a request), the prepare and
 * hit test before an atomic click or type (its element resolved here), a CI4A call's script with the
 * view's (it acts: never run again after it was sent).  The connection opens at the first use, attaches to the tab the driver is on (again when that tab changes) and goes with the
 * browser (mcp_ax_free).  A browser whose DevTools address is not on this machine's loopback, or any
 * failure, leaves the tree and the input to the driver (perc_opts.ax_read's and the executor's
 * fallback); after a failure to connect it is not tried again in that browser. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_devtools_int.h"

#define MCP_AX_FNS 4 /* the settle's script with and without the view's, a call's with it, the prepare */

struct mcp_ax {
    mcp_devtools dt;
    int off;             /* the connection could not be made: the driver reads the tree */
    char target[128];    /* the tab attached, "" none */
    char session[128];   /* its DevTools session */
    int page_on;         /* Page.enable sent in that session: a dialog opening under the input is seen */
    int dialog;          /* one opened under the input or a script: the next script goes through the driver,
                          * which meets it (the page waits on it) */
    unsigned long rt;    /* the driver's round trips when its tab was last asked: none since, none switched it */
    /* page scripts compiled as functions in the tab's document (the settle's, a call's, the prepare and
     * hit test), so a 15-180 kB script is not compiled again each action: each its object id (owned;
     * NULL a free slot), its script's length and hash; the oldest replaced */
    struct {
        char *id;
        size_t len;
        unsigned long hash;
    } fn[MCP_AX_FNS];
    unsigned fn_next;
};

static void fns_clear(struct mcp_ax *a)
{
    for (int i = 0; i < MCP_AX_FNS; i++) {
        free(a->fn[i].id);
        a->fn[i].id = NULL;
    }
}

void mcp_ax_free(mcp_server *m)
{
    if (!m || !m->ax)
        return;
    mcp_devtools_close(&m->ax->dt);
    fns_clear(m->ax);
    free(m->ax);
    m->ax = NULL;
}

/* Attaches a's connection to the tab target (chromedriver's window handles are target ids). */
static eous_rc attach(struct mcp_ax *a, const char *target, eous_err *err)
{
    a->target[0] = a->session[0] = '\0';
    a->page_on = 0;
    fns_clear(a); /* object ids are the session's */
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

/* Whether command c ends a gesture: a mouse button's release, or the key that lets go of the last one
 * held (*held counts the keys down: Control held around 'a' is one gesture, a key's down, edit and up
 * another). */
static int gesture_end(const cJSON *c, int *held)
{
    const cJSON *p = eous_json_obj(c, "params");
    const char *type = eous_json_str(p, "type"), *method = eous_json_str(c, "method");
    if (!type || !method)
        return *held == 0;
    if (!strcmp(method, "Input.dispatchMouseEvent"))
        return !strcmp(type, "mouseReleased");
    if (!strcmp(type, "keyDown") || !strcmp(type, "rawKeyDown"))
        ++*held;
    else if (!strcmp(type, "keyUp") && *held > 0)
        --*held;
    return *held == 0;
}

/* act_exec_set_input's hook: ctx is the server.  A gesture's commands (a click's move, press and
 * release; a key's down and up, with Control held around it) go at once, then their answers are read:
 * the browser queues them in order for the page, as one by one, without a round trip of ours between
 * (2-4 ms each under load); the next gesture after the last answer, so a dialog that opens ends the
 * input after the gesture it opened under (its rest queued behind the dialog, as a person's release). */
static eous_rc input(void *ctx, const cJSON *cmds, int *sent, eous_err *err)
{
    mcp_server *m = ctx;
    *sent = 0;
    eous_rc rc = ready(m, "the input", err);
    struct mcp_ax *a = m->ax;
    int dialog = 0, total = cJSON_GetArraySize(cmds), held = 0, n = 0, trips = 0;
    long ids[32];
    const cJSON *c;
    cJSON_ArrayForEach(c, cmds) {
        const char *method = eous_json_str(c, "method");
        if (rc || dialog || !method ||
            (rc = mcp_devtools_send(&a->dt, method, eous_json_obj(c, "params"), a->session, &ids[n], err)))
            break;
        ++*sent;
        /* the gesture's answers, in order, at its end (or when the table of ids is full) */
        if (++n == (int)(sizeof ids / sizeof *ids) || gesture_end(c, &held) || !c->next) {
            trips++;
            for (int i = 0; i < n && !rc && !dialog; i++)
                rc = answer(a, ids[i], method, &dialog, NULL, err);
            n = 0;
        }
    }
    if (!rc)
        EOUS_DEBUG("mcp", "input: %d of %d events on eous's own DevTools connection, tab %s, %d round trips%s",
                   *sent, total, a->target, trips, dialog ? "; a dialog opened, the rest not sent" : "");
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

/* Runtime.callFunctionOn's answer msg ([JSON text, elements], deeply serialized) as the script's
 * value (*out), or the exception it threw; frame: the tab's main frame; loader (may be ""): the
 * document the arguments' elements were named in, which the first element answered (the first
 * argument's) must be of, as the driver's reference says. */
static eous_rc script_value(const cJSON *msg, const char *frame, const char *loader, cJSON **out, eous_err *err)
{
    const cJSON *r = eous_json_obj(msg, "result"), *ex = eous_json_obj(r, "exceptionDetails");
    if (ex) {
        const char *d = eous_json_str(eous_json_obj(ex, "exception"), "description");
        return eous_err_set(err, EOUS_E_PAGE, "the script threw: %.200s", d ? d : eous_json_str(ex, "text"));
    }
    const cJSON *pair = eous_json_arr(eous_json_obj(eous_json_obj(r, "result"), "deepSerializedValue"), "value");
    const cJSON *els = eous_json_arr(cJSON_GetArrayItem(pair, 1), "value");
    const char *doc = eous_json_str(eous_json_obj(cJSON_GetArrayItem(els, 0), "value"), "loaderId");
    if (loader[0] && (!doc || strcmp(doc, loader)))
        return eous_err_set(err, EOUS_E_PAGE, "the script's element is of another document than its reference's");
    const char *text = eous_json_str(cJSON_GetArrayItem(pair, 0), "value");
    *out = text ? cJSON_Parse(text) : cJSON_CreateNull(); /* undefined: null, as the driver answers */
    if (!*out)
        return eous_err_set(err, EOUS_E_INFRA, "the script's answer is not JSON");
    if (!put_elements(*out, els, frame)) {
        cJSON_Delete(*out);
        *out = NULL;
        return eous_err_set(err, EOUS_E_PAGE, "the script's answer holds an element of another document");
    }
    return EOUS_OK;
}

/* Applied to the compiled script (this), its arguments a, the positions p in a of its elements and
 * those elements (e): awaits it and answers [its JSON, the elements (the arguments' first, so their
 * document comes back; then those in the answer), each once (a node serialized twice comes back the
 * second time as a reference)], each element in the JSON {"__eous_el__": its index} (not its
 * properties: a React element's are circular). */
static const char SCRIPT_CALL[] =
    "function(a, p, ...e) { p.forEach((i, k) => { a[i] = e[k]; });"
    " return Promise.resolve(this.apply(null, a)).then((r) => { const els = e.slice(),"
    " at = new Map(e.map((v, k) => [v, k]));"
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

/* The slot of body compiled in the tab's document, -1 none. */
static int fn_find(const struct mcp_ax *a, const char *body)
{
    size_t n = strlen(body);
    unsigned long h = fnv(body);
    for (int i = 0; i < MCP_AX_FNS; i++)
        if (a->fn[i].id && a->fn[i].len == n && a->fn[i].hash == h)
            return i;
    return -1;
}

/* body compiled as a function in the tab's document into a slot (*slot), kept in an object group of
 * eous's (the page's scripts cannot reach it).  Compiling runs nothing of it. */
static eous_rc compile(struct mcp_ax *a, const char *body, int *slot, eous_err *err)
{
    int i = fn_find(a, body);
    if (i < 0)
        i = (int)(a->fn_next++ % MCP_AX_FNS);
    free(a->fn[i].id);
    a->fn[i].id = NULL;
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
        if (dialog || !obj || !(a->fn[i].id = strdup(obj)))
            rc = eous_err_set(err, EOUS_E_PAGE, "the page script did not compile in the page");
        a->fn[i].len = strlen(body);
        a->fn[i].hash = fnv(body);
        *slot = i;
    }
    cJSON_Delete(msg);
    cJSON_Delete(p);
    eous_buf_free(&e);
    return rc;
}

/* ref, a driver's element reference "f.FRAME.d.LOADER.e.BACKEND" of the tab's main frame (its target
 * id), resolved in the tab's document and appended to c as {objectId} (in eous's "eous-args" group);
 * its document into loader, which holds the other elements' (all one).  EOUS_E_PAGE for a child
 * frame's element, another document's, a gone node: the driver then. */
static eous_rc element_arg(struct mcp_ax *a, const char *ref, char *loader, size_t ln, cJSON *c, eous_err *err)
{
    size_t tn = strlen(a->target);
    const char *d = !strncmp(ref, "f.", 2) && !strncmp(ref + 2, a->target, tn) && !strncmp(ref + 2 + tn, ".d.", 3)
                        ? ref + 5 + tn
                        : NULL;
    const char *e = d ? strstr(d, ".e.") : NULL;
    if (!e || (size_t)(e - d) >= ln)
        return eous_err_set(err, EOUS_E_PAGE, "an element of another frame");
    if (loader[0] && (strlen(loader) != (size_t)(e - d) || strncmp(loader, d, (size_t)(e - d))))
        return eous_err_set(err, EOUS_E_PAGE, "elements of two documents");
    snprintf(loader, ln, "%.*s", (int)(e - d), d);
    cJSON *p = cJSON_CreateObject(), *msg = NULL;
    int dialog = 0;
    long id = 0;
    eous_rc rc = !p || !cJSON_AddNumberToObject(p, "backendNodeId", (double)strtol(e + 3, NULL, 10)) ||
                         !cJSON_AddStringToObject(p, "objectGroup", "eous-args")
                     ? eous_err_set(err, EOUS_E_NOMEM, "out of memory")
                     : mcp_devtools_send(&a->dt, "DOM.resolveNode", p, a->session, &id, err);
    if (!rc && !(rc = answer(a, id, "DOM.resolveNode", &dialog, &msg, err))) {
        const char *oid = eous_json_str(eous_json_obj(eous_json_obj(msg, "result"), "object"), "objectId");
        cJSON *o = cJSON_CreateObject();
        if (dialog || !oid || !cJSON_AddStringToObject(o, "objectId", oid) || !cJSON_AddItemToArray(c, o)) {
            cJSON_Delete(o);
            rc = eous_err_set(err, EOUS_E_PAGE, "the element did not resolve in the tab");
        }
    }
    cJSON_Delete(msg);
    cJSON_Delete(p);
    return rc;
}

/* SCRIPT_CALL's arguments for args (*call, owned, set on failure too; it may hold typed text: wipe
 * it): args with each top-level element reference null, their positions, then the elements
 * (element_arg); *loader their document ("" none). */
static eous_rc call_args(struct mcp_ax *a, const cJSON *args, cJSON **call, char *loader, size_t ln, eous_err *err)
{
    cJSON *c = cJSON_CreateArray(), *va = cJSON_CreateObject(), *pa = cJSON_CreateObject();
    *call = c;
    loader[0] = '\0';
    if (!cJSON_AddItemToArray(c, va)) {
        cJSON_Delete(va);
        va = NULL;
    }
    if (!cJSON_AddItemToArray(c, pa)) {
        cJSON_Delete(pa);
        pa = NULL;
    }
    cJSON *v = args ? cJSON_Duplicate(args, 1) : cJSON_CreateArray(), *pos = pa ? cJSON_AddArrayToObject(pa, "value") : NULL;
    if (!va || !cJSON_AddItemToObject(va, "value", v)) {
        eous_json_wipe_free(v);
        v = NULL;
    }
    if (!v || !pos)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_rc rc = EOUS_OK;
    for (int i = 0, n = cJSON_GetArraySize(v); i < n && !rc; i++) {
        const char *ref = wd_element_id_of(cJSON_GetArrayItem(v, i));
        if (ref && !(rc = element_arg(a, ref, loader, ln, c, err)) &&
            (!cJSON_AddItemToArray(pos, cJSON_CreateNumber(i)) || !cJSON_ReplaceItemInArray(v, i, cJSON_CreateNull())))
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    return rc;
}

/* The compiled function in slot applied to call (call_args): its answer (*msg), *dialog when one
 * opened first. */
static eous_rc call_fn(struct mcp_ax *a, int slot, const cJSON *call, int *dialog, cJSON **msg, eous_err *err)
{
    cJSON *p = cJSON_CreateObject(), *so = NULL;
    long id = 0;
    if (p && !cJSON_AddItemReferenceToObject(p, "arguments", (cJSON *)call)) {
        cJSON_Delete(p);
        p = NULL;
    }
    eous_rc rc = !p || !cJSON_AddStringToObject(p, "functionDeclaration", SCRIPT_CALL) ||
                         !cJSON_AddStringToObject(p, "objectId", a->fn[slot].id) ||
                         !cJSON_AddBoolToObject(p, "awaitPromise", 1) ||
                         !(so = cJSON_AddObjectToObject(p, "serializationOptions")) ||
                         !cJSON_AddStringToObject(so, "serialization", "deep")
                     ? eous_err_set(err, EOUS_E_NOMEM, "out of memory")
                     : mcp_devtools_send(&a->dt, "Runtime.callFunctionOn", p, a->session, &id, err);
    if (!rc)
        rc = answer(a, id, "Runtime.callFunctionOn", dialog, msg, err);
    cJSON_Delete(p); /* the arguments are a reference: call stays the caller's */
    return rc;
}

/* A refusal of Runtime.callFunctionOn that says the function was never applied: its object went with
 * the document it was compiled in (a new document; compiled again), not an error met while it ran. */
static int not_applied(const eous_err *e)
{
    return strstr(e->msg, "Could not find object with given id") || strstr(e->msg, "Cannot find context with specified id");
}

/* A script that was applied and lost its document while it awaited (the page navigated under a settle):
 * one that only reads is taken again in the new document, as the driver's execute would. */
static int document_gone(const eous_err *e)
{
    return strstr(e->msg, "Inspected target navigated or closed") != NULL;
}

/* act_exec_set_script's hook: ctx is the server; the script compiled once as a function in the
 * tab's document (again in a new one: its object is gone then), applied to args (their element
 * references resolved in the tab), its promise awaited, its elements as the driver's references (what
 * chromedriver's execute does); its answer as JSON text (a view's nests deeper than DevTools'
 * returnByValue takes).  *ran: the function was sent to be applied (a script that acts must not run
 * again then); a refusal that says it was never applied is not. */
static eous_rc script(void *ctx, const char *body, const cJSON *args, int acts, int *ran, cJSON **out, eous_err *err)
{
    mcp_server *m = ctx;
    *out = NULL;
    *ran = 0;
    eous_rc rc = ready(m, "a page script", err);
    struct mcp_ax *a = m->ax;
    if (!rc && a->dialog) {
        a->dialog = 0;
        return eous_err_set(err, EOUS_E_PAGE, "a dialog is open");
    }
    cJSON *msg = NULL, *call = NULL;
    char loader[128] = "";
    int dialog = 0, slot = -1, again = 0;
    double t0 = eous_now_ms();
    if (!rc)
        rc = call_args(a, args, &call, loader, sizeof loader, err);
    if (!rc && (slot = fn_find(a, body)) < 0)
        rc = compile(a, body, &slot, err);
    else
        again = !rc;
    if (!rc) {
        *ran = 1;
        rc = call_fn(a, slot, call, &dialog, &msg, err);
    }
    if (rc == EOUS_E_PAGE && !dialog && ((again && not_applied(err)) || (!acts && document_gone(err)))) {
        *ran = again = 0; /* a new document: the object went with the old one, and the elements' ids */
        eous_json_wipe_free(call);
        call = NULL;
        if (!(rc = call_args(a, args, &call, loader, sizeof loader, err)) && !(rc = compile(a, body, &slot, err))) {
            *ran = 1;
            rc = call_fn(a, slot, call, &dialog, &msg, err);
        }
    }
    if (!rc)
        rc = dialog ? eous_err_set(err, EOUS_E_PAGE, "a dialog opened") : script_value(msg, a->target, loader, out, err);
    if (a && a->dt.fd >= 0 && loader[0]) { /* the arguments' elements let go (its answer is not awaited) */
        cJSON *p = cJSON_CreateObject();
        if (p && cJSON_AddStringToObject(p, "objectGroup", "eous-args"))
            mcp_devtools_send(&a->dt, "Runtime.releaseObjectGroup", p, a->session, NULL, NULL);
        cJSON_Delete(p);
    }
    if (!rc)
        EOUS_DEBUG("mcp", "%s on eous's own DevTools connection, tab %s%s, %.1f ms",
                   acts ? "a call's script" : loader[0] ? "an element's script" : "settle's script", a->target,
                   again ? " (compiled before)" : "", eous_now_ms() - t0);
    else if (rc != EOUS_E_PAGE)
        lost(m);
    eous_json_wipe_free(call); /* a call's params may hold typed text or a secret */
    cJSON_Delete(msg);
    return rc;
}

/* act_exec_set_tabs's hook: ctx is the server; the browser's page targets (what chromedriver lists as
 * window handles), asked of the browser target: no driver request for a lone tab. */
static eous_rc tabs(void *ctx, int *count, eous_err *err)
{
    mcp_server *m = ctx;
    *count = 0;
    eous_rc rc = tab(m, "the open tabs", err);
    cJSON *r = NULL;
    if (!rc)
        rc = mcp_devtools_call(&m->ax->dt, "Target.getTargets", NULL, &r, NULL, NULL, err);
    const cJSON *t;
    cJSON_ArrayForEach(t, eous_json_arr(r, "targetInfos")) {
        const char *type = eous_json_str(t, "type");
        *count += type && !strcmp(type, "page");
    }
    cJSON_Delete(r);
    if (!rc)
        EOUS_DEBUG("mcp", "open tabs: %d on eous's own DevTools connection", *count);
    else
        lost(m);
    return rc;
}

void mcp_input_use(mcp_server *m)
{
    act_exec_set_input(m->x, input, m);
    act_exec_set_script(m->x, script, m);
    act_exec_set_tabs(m->x, tabs, m);
}

void mcp_ax_use(mcp_server *m, perc_opts *po)
{
    po->ax_read = ax_read;
    po->ax_ctx = m;
}

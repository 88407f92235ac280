/* actions/exec.c — executes one action on the live page, semantic first
 * (see exec.h).
 *
 * Sections: page scripts · executor handle · results and audit · targets
 * (script targets, backend id → element) · atomic actions · semantic calls ·
 * navigation and tabs · act_execute. */
#include "actions/exec.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "actions/act_int.h"
#include "actions/audit.h"
#include "actions/validate.h"

/* ======================================================================
 * Page scripts
 * ====================================================================== */

/* Shared helpers prepended to scripts that need them. */
#define JS_HELPERS                                                                                             \
    "const closestDeep = (el, sel) => { for (let n = el; n; ) { const c = n.closest ? n.closest(sel) : null;"   \
    "  if (c) return c; const r = n.getRootNode ? n.getRootNode() : null; n = r && r.host ? r.host : null; }"   \
    "  return null; };"                                                                                         \
    "const settle = (quiet, cap) => new Promise(resolve => { const t0 = performance.now(); let last = t0;"      \
    "  let mo = null; try { mo = new MutationObserver(() => { last = performance.now(); });"                    \
    "  mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }"        \
    "  catch (e) {}"                                                                                            \
    "  const tick = () => { const now = performance.now();"                                                     \
    "    if (now - t0 >= cap || (document.readyState === 'complete' && now - last >= quiet)) {"                 \
    "      if (mo) mo.disconnect(); resolve({ms: now - t0, capped: now - t0 >= cap}); return; }"                \
    "    setTimeout(tick, Math.max(10, Math.min(50, quiet / 3))); };"                                           \
    "  tick(); });"                                                                                             \
    "const norm = t => String(t == null ? '' : t).replace(/\\s+/g, ' ').trim();"                                \
    "const fold = t => norm(t).normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase();"

/* Settle: readyState complete and DOM quiet.  args: quiet, cap. */
static const char SETTLE_JS[] =
    "return (async function(quiet, cap) {" JS_HELPERS
    "  const s = await settle(quiet, cap);"
    "  return {ms: s.ms, capped: s.capped, w: innerWidth, h: innerHeight, url: String(location.href)};"
    "}).apply(null, arguments);";

/* CDP Runtime.callFunctionOn body: parks the node (its element for text
 * nodes) under a random window property for the next script to pick up,
 * without touching the DOM (no attribute, so no mutation and no React noise). */
static const char STASH_FN[] =
    "function(t) { let n = this; if (n && n.nodeType !== 1) n = n.parentElement;"
    "  window[t] = n; return !!(n && n.isConnected); }";

/* Prepare a target.  args: stash token or null, element or null, scroll,
 * want_typing.  Checks marks before any side effect. */
static const char PREPARE_JS[] =
    "return (function(t, el, scroll, wantType) {" JS_HELPERS
    "  if (t && typeof t === 'object') {" /* W3C-only sessions: ids given by perception/axtree.js */
    "    const reg = window.__eous_ax__, ref = reg && reg.byId.get(t.bid); el = ref ? ref.deref() : null;"
    "    if (el && el.nodeType !== 1) el = el.parentElement;"
    "  } else if (t) { el = window[t]; try { delete window[t]; } catch (e) {} }"
    "  if (!el || !el.isConnected) return {gone: true};"
    "  const out = {url: String(location.href)};"
    "  if (closestDeep(el, '[data-agent-hidden]')) { out.hidden = true; return out; }"
    "  const c = closestDeep(el, '[data-agent-confirm]');"
    "  out.confirm = c ? (c.getAttribute('data-agent-confirm') || '') : null;"
    "  const comp = closestDeep(el, '[data-cid],[data-cid-owner]');"
    "  out.cid = comp ? (comp.getAttribute('data-cid') || comp.getAttribute('data-cid-owner')) : null;"
    "  if (scroll) { try { el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'}); }"
    "    catch (e) { el.scrollIntoView(); } }"
    "  const r = el.getBoundingClientRect();"
    "  out.x = r.left + r.width / 2; out.y = r.top + r.height / 2; out.w = r.width; out.h = r.height;"
    "  out.vw = innerWidth; out.vh = innerHeight;"
    "  out.tag = el.tagName.toLowerCase(); out.role = el.getAttribute('role') || '';"
    "  out.type = el.getAttribute('type') || '';"
    "  out.name = norm(el.getAttribute('aria-label') || el.getAttribute('title') || el.innerText || el.value ||"
    "    el.getAttribute('placeholder') || '').slice(0, 80);"
    "  out.disabled = !!el.disabled || el.getAttribute('aria-disabled') === 'true';"
    "  out.combobox = out.role === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox' ||"
    "    !!(el.closest && el.closest('.ant-select,.ant-cascader,.ant-picker,[role=combobox]'));"
    "  out.el = el;"
    "  if (wantType) { const ed = e => e && (e.isContentEditable || e.tagName === 'TEXTAREA' ||"
    "      (e.tagName === 'INPUT' && !['button','submit','checkbox','radio','file','image','reset','range','color',"
    "        'hidden'].includes((e.type || '').toLowerCase())));"
    "    let te = el; if (!ed(el)) { const inner = el.querySelector("
    "      'input:not([type=hidden]),textarea,[contenteditable=\"\"],[contenteditable=true]'); if (inner) te = inner; }"
    "    out.typeEl = te; out.editable = ed(te);"
    "    out.typeDisabled = !!te.disabled || !!te.readOnly; }"
    "  return out;"
    "}).apply(null, arguments);";

/* The focused element's marks (press can activate it). */
static const char ACTIVE_JS[] =
    "return (function() {" JS_HELPERS
    "  let el = document.activeElement; while (el && el.shadowRoot && el.shadowRoot.activeElement)"
    "    el = el.shadowRoot.activeElement;"
    "  const out = {url: String(location.href), w: innerWidth, h: innerHeight};"
    "  if (!el || el === document.body) return out;"
    "  out.hidden = !!closestDeep(el, '[data-agent-hidden]');"
    "  const c = closestDeep(el, '[data-agent-confirm]');"
    "  out.confirm = c ? (c.getAttribute('data-agent-confirm') || '') : null;"
    "  out.role = el.getAttribute('role') || el.tagName.toLowerCase();"
    "  out.name = norm(el.getAttribute('aria-label') || el.innerText || '').slice(0, 80);"
    "  return out;"
    "})();";

/* Native <select>: the option by label, value, then label regardless of
 * case/accents.  args: select element, wanted text. */
static const char NATIVE_OPTION_JS[] =
    "return (function(s, want) {" JS_HELPERS
    "  const opts = Array.from(s.options || []);"
    "  const o = opts.find(o => norm(o.label || o.text) === norm(want)) || opts.find(o => o.value === want) ||"
    "    opts.find(o => fold(o.label || o.text) === fold(want));"
    "  const names = opts.map(o => norm(o.label || o.text)).slice(0, 40);"
    "  if (!o) return {found: false, options: names, total: opts.length};"
    "  if (o.disabled) return {found: false, disabled: true, options: names, total: opts.length};"
    "  return {found: true, option: o, value: o.value, label: norm(o.label || o.text),"
    "    already: o.selected && !s.multiple};"
    "}).apply(null, arguments);";

/* Fallback for a native option W3C could not click: the value setter React
 * watches, then input + change. args: select, option. */
static const char NATIVE_SET_JS[] =
    "const s = arguments[0], o = arguments[1];"
    "const set = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;"
    "set.call(s, o.value); s.dispatchEvent(new Event('input', {bubbles: true}));"
    "s.dispatchEvent(new Event('change', {bubbles: true})); return s.value;";

/* Popup options (antd Select/Cascader portals, ARIA listboxes): waits up to
 * waitMs for a visible option whose accessible name equals want.
 * args: want, waitMs. */
static const char POPUP_OPTION_JS[] =
    "return (async function(want, waitMs) {" JS_HELPERS
    "  const SEL = '.ant-select-item-option,.ant-cascader-menu-item,[role=option],[role=menuitem],"
    "[role=menuitemradio],[role=treeitem],.ant-dropdown-menu-item';"
    "  const name = e => norm(e.getAttribute('aria-label') || e.getAttribute('title') || e.innerText || e.textContent);"
    "  const visible = e => { const r = e.getBoundingClientRect(); if (r.width < 1 || r.height < 1) return false;"
    "    const cs = getComputedStyle(e); return cs.visibility !== 'hidden' && cs.display !== 'none' &&"
    "      !closestDeep(e, '[data-agent-hidden]'); };"
    "  const t0 = performance.now(); let names = [];"
    "  for (;;) {"
    "    let all = Array.from(document.querySelectorAll(SEL)).filter(visible);"
    "    const opts = all.filter(e => !e.matches('[role=menuitem],[role=menuitemradio],.ant-dropdown-menu-item'));"
    "    if (opts.length) all = opts;"
    "    names = all.map(name);"
    "    let hit = all.filter(e => name(e) === norm(want));"
    "    if (!hit.length) hit = all.filter(e => fold(name(e)) === fold(want));"
    "    if (hit.length) { const e = hit[0];"
    "      const dis = e.getAttribute('aria-disabled') === 'true' || /-disabled\\b/.test(e.className || '');"
    "      const c = closestDeep(e, '[data-agent-confirm]');"
    "      e.scrollIntoView({block: 'nearest', behavior: 'instant'}); const r = e.getBoundingClientRect();"
    "      return {found: true, el: e, disabled: dis, confirm: c ? c.getAttribute('data-agent-confirm') : null,"
    "        x: r.left + r.width / 2, y: r.top + r.height / 2}; }"
    "    if (performance.now() - t0 >= waitMs) break;"
    "    await new Promise(r => setTimeout(r, 40));"
    "  }"
    "  const a = document.activeElement;"
    "  const canType = !!(a && a.tagName === 'INPUT' && !a.readOnly && !a.disabled);"
    "  return {found: false, options: Array.from(new Set(names)).slice(0, 40), canType};"
    "}).apply(null, arguments);";

/* A semantic call: marks, provider, bounded call, settle, new state.
 * args: key, tool, params, timeoutMs, quietMs, capMs, confirmed, provider. */
static const char CALL_JS[] =
    "return (async function(K, T, P, tmo, quiet, cap, confirmed, provider) {" JS_HELPERS
    "  const t0 = performance.now();"
    "  const msg = e => { try { return (e && e.message != null) ? String(e.message) : String(e); }"
    "    catch (x) { return 'unprintable error'; } };"
    "  const ser = v => { try { const s = JSON.stringify(v); return s === undefined ? null : s; }"
    "    catch (e) { try { return JSON.stringify(String(v)); } catch (x) { return null; } } };"
    "  const entryOf = (st) => { if (!st || typeof st !== 'object') return null;"
    "    if (Object.prototype.hasOwnProperty.call(st, K) && st[K] && typeof st[K] === 'object') return st[K];"
    "    return ('state' in st || 'tools' in st) ? st : null; };"
    "  let root = null;"
    "  if (provider !== 'webmcp') { try { root = document.querySelector('[data-cid=\"' + CSS.escape(K) + '\"]'); }"
    "    catch (e) {} }"
    "  if (root) { if (closestDeep(root, '[data-agent-hidden]')) return {status: 'hidden'};"
    "    const c = closestDeep(root, '[data-agent-confirm]');"
    "    if (c && !confirmed) return {status: 'confirm', sentence: c.getAttribute('data-agent-confirm') || ''}; }"
    "  let call;"
    "  if (provider === 'webmcp') { const mc = document.modelContext;"
    "    if (!mc || typeof mc.executeTool !== 'function') return {status: 'noprovider'};"
    "    let tools = []; try { tools = Array.from(await mc.getTools() || []); } catch (e) {}"
    "    const tool = tools.find(t => t && t.name === K); if (!tool) return {status: 'gone'};"
    "    call = () => mc.executeTool(tool, P);"
    "  } else if (provider === 'bridge') { const ag = window.agent;"
    "    if (!ag || typeof ag.act !== 'function') return {status: 'noprovider'};"
    "    call = () => ag.act({steps: [{ref: K, action: T, args: P}]});"
    "  } else { const r = window.__ci4a__; const own = r && r._components ? r._components[K] : null;"
    /* a registry with only _components (the seed's agent loop calls its tools directly) */
    "    const direct = own && own.tools && typeof own.tools[T] === 'function';"
    "    if (!r || (typeof r.callTool !== 'function' && !direct)) return {status: 'noprovider'};"
    "    if (typeof r.getStatus === 'function') { let st = null; try { st = await r.getStatus(K); } catch (e) {}"
    "      if (!entryOf(st) && !own) return {status: 'gone'}; }"
    "    call = typeof r.callTool === 'function' ? () => r.callTool(K, T, P) : () => own.tools[T](P); }"
    "  let timer;"
    "  const to = new Promise((_, rej) => { timer = setTimeout(() => rej({__eousTimeout: true}), tmo); });"
    "  let result;"
    "  try { result = await Promise.race([Promise.resolve().then(call), to]); }"
    "  catch (e) { clearTimeout(timer);"
    "    if (e && e.__eousTimeout) return {status: 'timeout', actMs: performance.now() - t0};"
    "    let cons = null; try { if (e && e.constraints !== undefined) cons = JSON.stringify(e.constraints); } catch (x) {}"
    "    let code = ''; try { code = e && e.code != null ? String(e.code) : (e && e.name ? String(e.name) : ''); }"
    "    catch (x) {}"
    "    return {status: 'error', code, message: msg(e), constraints: cons, actMs: performance.now() - t0}; }"
    "  clearTimeout(timer);"
    "  const actMs = performance.now() - t0;"
    "  const s = await settle(quiet, cap);"
    "  let state = null;"
    "  if (provider === 'ci4a') { try { const r = window.__ci4a__;"
    "    const e = typeof r.getStatus === 'function' ? entryOf(await r.getStatus(K)) : r._components[K];"
    "    state = e ? ser(typeof e.state === 'function' ? e.state() : e.state) : null; } catch (e) {} }"
    "  let res = ser(result); if (res && res.length > 65536) res = JSON.stringify(res.slice(0, 65536));"
    "  return {status: 'ok', result: res, state, actMs, settleMs: s.ms, url: String(location.href),"
    "    w: innerWidth, h: innerHeight};"
    "}).apply(null, arguments);";

/* ======================================================================
 * Executor handle
 * ====================================================================== */

struct act_exec {
    wd_session *s;
    act_exec_opts o;
    act_policy *policy;     /* borrowed */
    act_secrets *secrets;   /* borrowed */
    act_audit *audit;       /* owned */
    int vw, vh;             /* last viewport size seen */
    unsigned long n_stash;  /* for unique stash names */
    unsigned seed;
    char url[2048];         /* last page URL seen */
    /* dialogs the driver dismissed under one of our scripts ("unexpected
     * alert open"), reported with the step's own dialogs */
    char driver_dialogs[600];
};

void act_exec_opts_init(act_exec_opts *o)
{
    memset(o, 0, sizeof *o);
    o->call_timeout_ms = 5000;
    o->settle_quiet_ms = 150;
    o->settle_cap_ms = 3000;
    o->interactive = -1;
}

/* Records every alert/confirm/prompt the page opens, so the step can say
 * which dialog the session dismissed.  Installed for every new document
 * through CDP; without CDP, by the first dialog read on a document. */
#define DIALOG_HOOK_SRC                                                                                            \
    "(function(){ if (window.__eous_dialog_hook__) return; window.__eous_dialog_hook__ = 1;"                       \
    " window.__eous_dialogs__ = window.__eous_dialogs__ || [];"                                                    \
    " for (const k of ['alert', 'confirm', 'prompt']) { const orig = window[k];"                                   \
    "  if (typeof orig !== 'function') continue;"                                                                  \
    "  window[k] = function(msg) { try { window.__eous_dialogs__.push(k + ' ' + JSON.stringify(String(msg === "    \
    "undefined ? '' : msg)).slice(0, 200)); } catch (e) {}"                                                        \
    "   return orig.apply(this, arguments); }; } })();"
static const char DIALOG_HOOK_JS[] = DIALOG_HOOK_SRC;

static const char DIALOG_TAKE_JS[] =
    "const d = window.__eous_dialogs__ || []; window.__eous_dialogs__ = []; " DIALOG_HOOK_SRC " return d.slice(0, 5);";

/* A dialog the driver dismissed when one of our scripts ran into it, with
 * its text (the webdriver layer reads it from whatever the driver sent). */
static void note_driver_dialog(act_exec *x, const eous_err *e)
{
    char text[220];
    if (!wd_alert_text(e, text, sizeof text))
        return;
    size_t len = strlen(x->driver_dialogs);
    snprintf(x->driver_dialogs + len, sizeof x->driver_dialogs - len, "%sdialog \"%s\"", len ? ", " : "", text);
}

/* Dialogs the page opened since the last call, as "; the page opened ... (dismissed)". */
static void take_dialogs(act_exec *x, char *out, size_t out_size)
{
    out[0] = '\0';
    cJSON *v = NULL;
    eous_err e;
    eous_err_clear(&e);
    eous_rc rc = wd_execute(x->s, DIALOG_TAKE_JS, NULL, &v, &e);
    if (rc == EOUS_E_PAGE && !strcmp(e.code, "unexpected alert open")) {
        /* the dialog was still up: the driver dismissed it now; read again */
        note_driver_dialog(x, &e);
        cJSON_Delete(v);
        v = NULL;
        rc = wd_execute(x->s, DIALOG_TAKE_JS, NULL, &v, &e);
    }
    int recorded = !rc && cJSON_GetArraySize(v) > 0;
    if (recorded || x->driver_dialogs[0]) {
        size_t n = (size_t)snprintf(out, out_size, "; the page opened ");
        const cJSON *d;
        int first = 1;
        /* the hook saw it when it was installed; else only the driver did */
        if (x->driver_dialogs[0] && !recorded) {
            n += (size_t)snprintf(out + n, out_size - n, "%s", x->driver_dialogs);
            first = 0;
        }
        x->driver_dialogs[0] = '\0';
        cJSON_ArrayForEach(d, v) {
            if (!cJSON_IsString(d) || n >= out_size)
                continue;
            n += (size_t)snprintf(out + n, out_size - n, "%s%s", first ? "" : ", ", d->valuestring);
            first = 0;
        }
        if (n < out_size)
            snprintf(out + n, out_size - n, " (dismissed)");
    }
    cJSON_Delete(v);
}

eous_rc act_exec_new(wd_session *s, const act_exec_opts *o, act_exec **out, eous_err *err)
{
    *out = NULL;
    act_exec *x = calloc(1, sizeof *x);
    if (!x)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory creating an executor");
    x->s = s;
    if (o)
        x->o = *o;
    else
        act_exec_opts_init(&x->o);
    if (x->o.call_timeout_ms <= 0)
        x->o.call_timeout_ms = 5000;
    if (x->o.settle_quiet_ms < 0)
        x->o.settle_quiet_ms = 150;
    if (x->o.settle_cap_ms <= 0)
        x->o.settle_cap_ms = 3000;
    x->vw = 1280;
    x->vh = 900;
    x->seed = (unsigned)((unsigned long)eous_now_ms() ^ (unsigned long)(size_t)x);
    if (wd_session_has_cdp(s)) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "source", DIALOG_HOOK_JS);
        cJSON *r = NULL;
        wd_cdp(s, "Page.addScriptToEvaluateOnNewDocument", p, &r, NULL);
        cJSON_Delete(r);
        cJSON_Delete(p);
    }
    if (x->o.audit_path && *x->o.audit_path) {
        eous_rc rc = act_audit_open(x->o.audit_path, &x->audit, err);
        if (rc) {
            free(x);
            return rc;
        }
    }
    *out = x;
    return EOUS_OK;
}

void act_exec_free(act_exec *x)
{
    if (!x)
        return;
    act_audit_close(x->audit);
    free(x);
}

void act_exec_set_policy(act_exec *x, act_policy *p)
{
    x->policy = p;
    if (p && x->o.interactive >= 0)
        act_policy_set_interactive(p, x->o.interactive);
}

void act_exec_set_secrets(act_exec *x, act_secrets *sec)
{
    x->secrets = sec;
}

void act_result_clear(act_result *r)
{
    if (!r)
        return;
    free(r->answer);
    cJSON_Delete(r->state);
    memset(r, 0, sizeof *r);
    r->path = "none";
}

static void remember_url(act_exec *x, const cJSON *v)
{
    const char *u = eous_json_str(v, "url");
    if (u)
        snprintf(x->url, sizeof x->url, "%s", u);
    int w = eous_json_int(v, "w", eous_json_int(v, "vw", 0)), h = eous_json_int(v, "h", eous_json_int(v, "vh", 0));
    if (w > 0 && h > 0) {
        x->vw = w;
        x->vh = h;
    }
}

/* ======================================================================
 * Settle
 * ====================================================================== */

eous_rc act_settle(act_exec *x, double *ms_out, eous_err *err)
{
    double t0 = eous_now_ms();
    if (ms_out)
        *ms_out = 0;
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_quiet_ms));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_cap_ms));
    cJSON *v = NULL;
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc rc = wd_execute(x->s, SETTLE_JS, args, &v, &e2);
    if (rc == EOUS_E_PAGE)
        note_driver_dialog(x, &e2); /* dismissed by the driver: the step reports it */
    if (rc == EOUS_E_PAGE) {
        /* a navigation replaced the document under the script: once more on the new one */
        eous_sleep_ms(50);
        cJSON_Delete(v);
        v = NULL;
        rc = wd_execute(x->s, SETTLE_JS, args, &v, &e2);
    }
    cJSON_Delete(args);
    if (!rc)
        remember_url(x, v);
    cJSON_Delete(v);
    if (ms_out)
        *ms_out = eous_now_ms() - t0;
    if (rc) {
        if (err)
            *err = e2;
        return eous_err_prefix(err, "settle");
    }
    return EOUS_OK;
}

/* ======================================================================
 * Results
 * ====================================================================== */

static void res_msg(act_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void res_msg(act_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    for (char *p = r->message; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

/* Secrets must not reach the trace or the model through a message or state. */
static void redact_result(act_result *r)
{
    if (eous_redact_contains(r->message)) {
        char *c = eous_redact(r->message);
        if (c) {
            snprintf(r->message, sizeof r->message, "%s", c);
            free(c);
        }
    }
    if (r->state) {
        char *s = cJSON_PrintUnformatted(r->state);
        if (s && eous_redact_contains(s)) {
            char *c = eous_redact(s);
            cJSON_Delete(r->state);
            r->state = c ? cJSON_Parse(c) : NULL;
            free(c);
        }
        free(s);
    }
}

/* Short "[12] button 'Search'" description of an atomic target. */
typedef struct target {
    int backend_id;          /* 0 for css= targets */
    char *elem;              /* W3C element id of the target (owned) */
    char *type_elem;         /* W3C element id to type into (owned) */
    const perc_node *node;   /* from the observation, or NULL */
    char what[256];
    double x, y, w, h;
    char role[64], name[128], cid[128], tag[32], input_type[32];
    int combobox, editable, disabled, type_disabled;
    int has_confirm;         /* a data-agent-confirm mark covers the target */
    char confirm[512];
} target;

static void target_free(target *t)
{
    free(t->elem);
    free(t->type_elem);
    memset(t, 0, sizeof *t);
}

/* ======================================================================
 * Targets
 * ====================================================================== */

/* "role 'name'", "role \"name\"", optional " #N". */
static int parse_role_name(const char *s, char *role, size_t rn, char *name, size_t nn, int *nth)
{
    while (*s == ' ')
        s++;
    size_t i = 0;
    while (s[i] && s[i] != ' ' && s[i] != '\'' && s[i] != '"')
        i++;
    if (!i || i >= rn)
        return -1;
    memcpy(role, s, i);
    role[i] = '\0';
    s += i;
    while (*s == ' ')
        s++;
    char q = *s;
    if (q != '\'' && q != '"')
        return -1;
    const char *end = strrchr(s + 1, q);
    if (!end)
        return -1;
    size_t n = (size_t)(end - s - 1);
    if (n >= nn)
        return -1;
    memcpy(name, s + 1, n);
    name[n] = '\0';
    s = end + 1;
    while (*s == ' ')
        s++;
    *nth = 1;
    if (*s == '#') {
        char *e = NULL;
        long v = strtol(s + 1, &e, 10);
        if (v < 1 || *e)
            return -1;
        *nth = (int)v;
    } else if (*s) {
        return -1;
    }
    return 0;
}

static void describe_node(char *out, size_t n, const char *id, const perc_node *node)
{
    if (node)
        snprintf(out, n, "[%s] %s '%s'", id, node->role ? node->role : "node", node->name ? node->name : "");
    else
        snprintf(out, n, "[%s]", id);
}

/* Resolves a.target to a backend id (or, for css=, an element id). */
static eous_rc resolve_target(act_exec *x, const perc_obs *obs, const act_action *a, target *t, eous_err *err)
{
    const char *k = a->target;
    if (!k || !*k)
        return eous_err_set(err, EOUS_E_INVALID, "%s: expected a target id like [12]", act_kind_name(a->kind));
    if (a->from_script && !strncmp(k, "css=", 4)) {
        eous_rc rc = wd_find(x->s, "css selector", k + 4, &t->elem, err);
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: no element matches %s", act_kind_name(a->kind), k);
        if (rc == EOUS_E_INVALID)
            return eous_err_set(err, EOUS_E_INVALID, "%s: '%s' is not a valid CSS selector", act_kind_name(a->kind),
                                k + 4);
        snprintf(t->what, sizeof t->what, "%s", k);
        return rc;
    }
    if (!obs)
        return eous_err_set(err, EOUS_E_INVALID, "%s %s: needs an observation to resolve the target",
                            act_kind_name(a->kind), k);
    eous_rc rc;
    char role[64], name[512];
    int nth = 1;
    if (a->from_script && parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0) {
        rc = perc_obs_find_role_name(obs, role, name, nth, &t->backend_id, err);
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: no %s '%s'%s%.0d on the page", act_kind_name(a->kind),
                                role, name, nth > 1 ? " #" : "", nth > 1 ? nth : 0);
        if (rc)
            return rc;
        snprintf(t->what, sizeof t->what, "%s", k);
    } else {
        rc = perc_obs_resolve_id(obs, k, &t->backend_id, err);
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: there is no [%s] in the current observation%s",
                                act_kind_name(a->kind), k,
                                a->from_script ? " (script targets are \"role 'name'\" or css=SELECTOR)" : "");
        if (rc)
            return rc;
        t->node = perc_obs_node_by_backend(obs, t->backend_id);
        char id[64];
        snprintf(id, sizeof id, "%s", k[0] == '[' ? k + 1 : k);
        id[strcspn(id, "]")] = '\0';
        describe_node(t->what, sizeof t->what, id, t->node);
    }
    if (!t->node)
        t->node = perc_obs_node_by_backend(obs, t->backend_id);
    if (t->node && t->node->hidden)
        return act_policy_hidden(t->what, err);
    if (t->node && t->node->frame > 0)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: %s is inside a frame; eous acts on the main frame only",
                            act_kind_name(a->kind), t->what);
    return EOUS_OK;
}

/* Backend id → element: CDP resolveNode + callFunctionOn park the node on
 * window under a random name; PREPARE_JS picks it up, checks marks, scrolls
 * and returns the W3C element reference with facts about it. */
static eous_rc acquire(act_exec *x, target *t, int want_type, eous_err *err)
{
    eous_rc rc = EOUS_OK;
    cJSON *p = NULL, *res = NULL, *args = NULL, *v = NULL;
    char token[64] = "";
    if (t->backend_id > 0 && wd_session_has_cdp(x->s)) {
        p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "backendNodeId", t->backend_id);
        cJSON_AddStringToObject(p, "objectGroup", "eous-act");
        eous_err e2;
        eous_err_clear(&e2);
        rc = wd_cdp(x->s, "DOM.resolveNode", p, &res, &e2);
        cJSON_Delete(p);
        p = NULL;
        if (rc) {
            if (rc == EOUS_E_INFRA || rc == EOUS_E_TIMEOUT) {
                if (err)
                    *err = e2;
                goto done;
            }
            rc = eous_err_set(err, EOUS_E_STALE, "stale: %s is gone since the observation; observe again", t->what);
            goto done;
        }
        const char *oid = eous_json_str(eous_json_obj(res, "object"), "objectId");
        if (!oid) {
            rc = eous_err_set(err, EOUS_E_STALE, "stale: %s is gone since the observation; observe again", t->what);
            goto done;
        }
        snprintf(token, sizeof token, "__eous_t%lx_%lu", (unsigned long)rand_r(&x->seed), ++x->n_stash);
        p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "objectId", oid);
        cJSON_AddStringToObject(p, "functionDeclaration", STASH_FN);
        cJSON *fa = cJSON_AddArrayToObject(p, "arguments");
        cJSON *a0 = cJSON_CreateObject();
        cJSON_AddStringToObject(a0, "value", token);
        cJSON_AddItemToArray(fa, a0);
        cJSON_AddTrueToObject(p, "returnByValue");
        cJSON_Delete(res);
        res = NULL;
        rc = wd_cdp(x->s, "Runtime.callFunctionOn", p, &res, err);
        if (rc)
            goto done;
        if (!cJSON_IsTrue(eous_json_obj(res, "result") ? cJSON_GetObjectItem(eous_json_obj(res, "result"), "value")
                                                      : NULL)) {
            rc = eous_err_set(err, EOUS_E_STALE, "stale: %s is no longer in the page since the observation; "
                                                 "observe again",
                              t->what);
            goto done;
        }
    }
    args = cJSON_CreateArray();
    if (t->backend_id > 0 && !wd_session_has_cdp(x->s)) {
        /* no CDP: the in-page tree's own ids find the element in one call */
        cJSON *bid = cJSON_CreateObject();
        cJSON_AddNumberToObject(bid, "bid", t->backend_id);
        cJSON_AddItemToArray(args, bid);
    } else {
        cJSON_AddItemToArray(args, token[0] ? cJSON_CreateString(token) : cJSON_CreateNull());
    }
    cJSON_AddItemToArray(args, t->elem ? wd_element_ref(t->elem) : cJSON_CreateNull());
    cJSON_AddItemToArray(args, cJSON_CreateTrue());
    cJSON_AddItemToArray(args, cJSON_CreateBool(want_type));
    rc = wd_execute(x->s, PREPARE_JS, args, &v, err);
    if (rc)
        goto done;
    remember_url(x, v);
    if (cJSON_IsTrue(cJSON_GetObjectItem(v, "gone"))) {
        rc = eous_err_set(err, EOUS_E_STALE, "stale: %s is gone since the observation; observe again", t->what);
        goto done;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItem(v, "hidden"))) {
        rc = act_policy_hidden(t->what, err);
        goto done;
    }
    const char *id = wd_element_id_of(cJSON_GetObjectItem(v, "el"));
    if (!id) {
        rc = eous_err_set(err, EOUS_E_PAGE, "%s: the page did not hand back the element", t->what);
        goto done;
    }
    if (!t->elem && !(t->elem = strdup(id))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    const char *tid = wd_element_id_of(cJSON_GetObjectItem(v, "typeEl"));
    if (tid && !(t->type_elem = strdup(tid))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    t->x = eous_json_num(v, "x", 0);
    t->y = eous_json_num(v, "y", 0);
    t->w = eous_json_num(v, "w", 0);
    t->h = eous_json_num(v, "h", 0);
    snprintf(t->role, sizeof t->role, "%s", eous_json_str(v, "role") ? eous_json_str(v, "role") : "");
    snprintf(t->name, sizeof t->name, "%s", eous_json_str(v, "name") ? eous_json_str(v, "name") : "");
    snprintf(t->cid, sizeof t->cid, "%s", eous_json_str(v, "cid") ? eous_json_str(v, "cid") : "");
    snprintf(t->tag, sizeof t->tag, "%s", eous_json_str(v, "tag") ? eous_json_str(v, "tag") : "");
    snprintf(t->input_type, sizeof t->input_type, "%s", eous_json_str(v, "type") ? eous_json_str(v, "type") : "");
    t->combobox = eous_json_bool(v, "combobox", 0);
    t->editable = eous_json_bool(v, "editable", 0);
    t->disabled = eous_json_bool(v, "disabled", 0);
    t->type_disabled = eous_json_bool(v, "typeDisabled", 0);
    const char *conf = eous_json_str(v, "confirm");
    t->has_confirm = conf != NULL;
    snprintf(t->confirm, sizeof t->confirm, "%s", conf ? conf : "");
    rc = EOUS_OK;
done:
    cJSON_Delete(p);
    cJSON_Delete(res);
    cJSON_Delete(args);
    cJSON_Delete(v);
    return rc;
}

/* ======================================================================
 * Policy around a target
 * ====================================================================== */

static eous_rc ask(act_exec *x, const char *sentence, const char *what, eous_err *err)
{
    return act_policy_confirm(x->policy, sentence, what, err);
}

/* Rules over the element, then over the component holding it; then the
 * rule's or the page's confirm sentence goes to a person. */
static eous_rc check_target_policy(act_exec *x, const perc_obs *obs, const act_action *a, target *t, eous_err *err)
{
    const char *action = act_kind_name(a->kind);
    const char *kind = t->node && t->node->role ? t->node->role : (t->role[0] ? t->role : t->tag);
    const char *label = t->node && t->node->name ? t->node->name : t->name;
    const char *confirm = NULL, *c2 = NULL;
    eous_rc rc = act_policy_check_action(x->policy, kind, label, action, NULL, x->url, &confirm, err);
    if (rc)
        return rc;
    const perc_component *c = NULL;
    if (obs && t->node && t->node->component >= 0)
        c = perc_obs_component(obs, (size_t)t->node->component);
    if (!c && obs && t->cid[0])
        c = perc_obs_find_component(obs, t->cid);
    if (c) {
        if ((rc = act_policy_check_action(x->policy, c->kind, c->label, action, NULL, x->url, &c2, err)))
            return rc;
        if (!confirm)
            confirm = c2;
    }
    char what[512];
    snprintf(what, sizeof what, "%s %s", action, t->what);
    if (t->has_confirm && (rc = ask(x, t->confirm, what, err)))
        return rc;
    if (confirm && !(t->has_confirm && !strcmp(confirm, t->confirm)) && (rc = ask(x, confirm, what, err)))
        return rc;
    return EOUS_OK;
}

/* ======================================================================
 * Atomic actions
 * ====================================================================== */

/* W3C element click (real input events); when another element would get the
 * click, a pointer click at the target's centre — what a person would hit. */
static eous_rc click_elem(act_exec *x, const char *elem, double cx, double cy, double w, double h, char *note,
                          size_t nn, eous_err *err)
{
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc rc = wd_element_click(x->s, elem, &e2);
    if (rc == EOUS_E_PAGE && w >= 1 && h >= 1 &&
        (!strcmp(e2.code, "element click intercepted") || !strcmp(e2.code, "element not interactable"))) {
        if (note)
            snprintf(note, nn, " (pointer click at %.0f,%.0f: %s)", cx, cy, e2.code);
        return wd_click_at(x->s, cx, cy, err);
    }
    if (rc && err)
        *err = e2;
    return rc;
}

static eous_rc do_click(act_exec *x, target *t, act_result *res, eous_err *err)
{
    char note[160] = "";
    eous_rc rc = click_elem(x, t->elem, t->x, t->y, t->w, t->h, note, sizeof note, err);
    if (rc)
        return eous_err_prefix(err, "click %s", t->what);
    res_msg(res, "clicked %s%s", t->what, note);
    return EOUS_OK;
}

#define KEY_CONTROL "\xEE\x80\x89"
#define KEY_BACKSPACE "\xEE\x80\x83"
#define KEY_ENTER "\xEE\x80\x87"
#define KEY_END "\xEE\x80\x90"

static eous_rc do_type(act_exec *x, const act_action *a, target *t, act_result *res, eous_err *err)
{
    if (!t->type_elem || !t->editable)
        return eous_err_set(err, EOUS_E_PAGE, "type: %s does not take text (it is a %s%s%s); click it or pick a "
                                              "textbox",
                            t->what, t->tag, t->role[0] ? " with role " : "", t->role);
    if (t->type_disabled)
        return eous_err_set(err, EOUS_E_PAGE, "type: %s is disabled or read-only", t->what);
    char *text = NULL;
    eous_buf keys;
    eous_buf_init(&keys, 16 * 1024 * 1024);
    /* secrets are filled in here, on the page they are typed into, and nowhere else */
    eous_rc rc = act_secrets_expand(x->secrets, a->text ? a->text : "", x->url, &text, err);
    if (rc)
        goto done;
    char note[160] = "";
    if ((rc = click_elem(x, t->type_elem, t->x, t->y, t->w, t->h, note, sizeof note, err))) {
        eous_err_prefix(err, "type into %s", t->what);
        goto done;
    }
    /* React inputs ignore a programmatic clear: select all and delete, as a person would */
    if (a->clear)
        eous_buf_puts(&keys, KEY_CONTROL "a" KEY_CONTROL KEY_BACKSPACE, NULL);
    else /* the click left the caret where it landed: append at the end */
        eous_buf_puts(&keys, KEY_CONTROL KEY_END KEY_CONTROL, NULL);
    if ((rc = eous_buf_puts(&keys, text, err)) || (a->enter && (rc = eous_buf_puts(&keys, KEY_ENTER, err))))
        goto done;
    if ((rc = wd_element_send_keys(x->s, t->type_elem, keys.data, err))) {
        eous_err_prefix(err, "type into %s", t->what);
        goto done;
    }
    res_msg(res, "typed %zu characters into %s%s%s", strlen(a->text ? a->text : ""), t->what,
            a->enter ? " and pressed Enter" : "", note);
done:
    if (keys.data)
        memset(keys.data, 0, keys.len);
    eous_buf_free(&keys);
    act_secret_free(text);
    return rc;
}

static eous_rc do_hover(act_exec *x, target *t, act_result *res, eous_err *err)
{
    if (t->w < 1 || t->h < 1)
        return eous_err_set(err, EOUS_E_PAGE, "hover: %s has no size on screen", t->what);
    eous_rc rc = wd_move_to(x->s, t->x, t->y, err);
    if (rc)
        return eous_err_prefix(err, "hover %s", t->what);
    res_msg(res, "hovered %s", t->what);
    return EOUS_OK;
}

static void put_options(eous_buf *b, const cJSON *opts)
{
    int i = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, opts) {
        if (!cJSON_IsString(o) || !o->valuestring[0])
            continue;
        eous_buf_printf(b, NULL, "%s'%s'", i++ ? ", " : "", o->valuestring);
    }
    if (!i)
        eous_buf_puts(b, "none visible", NULL);
}

static eous_rc select_native(act_exec *x, const char *want, target *t, act_result *res, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, wd_element_ref(t->elem));
    cJSON_AddItemToArray(args, cJSON_CreateString(want));
    eous_rc rc = wd_execute(x->s, NATIVE_OPTION_JS, args, &v, err);
    cJSON_Delete(args);
    args = NULL;
    if (rc)
        goto done;
    if (!eous_json_bool(v, "found", 0)) {
        eous_buf b;
        eous_buf_init(&b, 8192);
        put_options(&b, cJSON_GetObjectItem(v, "options"));
        rc = eous_err_set(err, EOUS_E_NOT_FOUND, "select: %s '%s' in %s (options: %s)",
                          eous_json_bool(v, "disabled", 0) ? "the option is disabled:" : "no option", want, t->what,
                          b.data ? b.data : "");
        eous_buf_free(&b);
        goto done;
    }
    const char *label = eous_json_str(v, "label");
    if (!eous_json_bool(v, "already", 0)) {
        const char *opt = wd_element_id_of(cJSON_GetObjectItem(v, "option"));
        eous_err e2;
        eous_err_clear(&e2);
        /* clicking an <option> selects it with real events (W3C element click) */
        if (!opt || wd_element_click(x->s, opt, &e2) != EOUS_OK) {
            args = cJSON_CreateArray();
            cJSON_AddItemToArray(args, wd_element_ref(t->elem));
            cJSON_AddItemToArray(args, cJSON_Duplicate(cJSON_GetObjectItem(v, "option"), 1));
            if ((rc = wd_execute(x->s, NATIVE_SET_JS, args, NULL, err)))
                goto done;
        }
    }
    res_msg(res, "selected '%s' in %s", label ? label : want, t->what);
done:
    cJSON_Delete(args);
    cJSON_Delete(v);
    return rc;
}

static eous_rc find_popup_option(act_exec *x, const char *want, double wait_ms, cJSON **out, eous_err *err)
{
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, cJSON_CreateString(want));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(wait_ms));
    eous_rc rc = wd_execute(x->s, POPUP_OPTION_JS, args, out, err);
    cJSON_Delete(args);
    return rc;
}

/* antd Select / Cascader / ARIA comboboxes: open, type to filter when the
 * popup has a search box, click the option whose accessible name is the
 * wanted text.  "A / B" walks a cascader level by level. */
static eous_rc select_popup(act_exec *x, const char *want, target *t, act_result *res, eous_err *err)
{
    char note[160] = "";
    eous_rc rc = click_elem(x, t->elem, t->x, t->y, t->w, t->h, note, sizeof note, err);
    if (rc)
        return eous_err_prefix(err, "select: opening %s", t->what);
    char path[1024];
    snprintf(path, sizeof path, "%s", want);
    int level = 0;
    char *save = NULL;
    const char *sep = strstr(path, " / ") ? " / " : strstr(path, " > ") ? " > " : NULL;
    char *part = path;
    while (part) {
        char *next = NULL;
        if (sep && (next = strstr(part, sep))) {
            *next = '\0';
            next += strlen(sep);
        }
        (void)save;
        cJSON *v = NULL;
        if ((rc = find_popup_option(x, part, level ? 800 : 400, &v, err)))
            return rc;
        if (!eous_json_bool(v, "found", 0) && eous_json_bool(v, "canType", 0)) {
            cJSON *active = NULL;
            if (wd_command(x->s, "GET", "/element/active", NULL, &active, NULL) == EOUS_OK &&
                wd_element_id_of(active)) {
                wd_element_send_keys(x->s, wd_element_id_of(active), part, NULL);
                cJSON_Delete(v);
                v = NULL;
                rc = find_popup_option(x, part, 1500, &v, err);
            }
            cJSON_Delete(active);
            if (rc)
                return rc;
        }
        if (!eous_json_bool(v, "found", 0)) {
            eous_buf b;
            eous_buf_init(&b, 8192);
            put_options(&b, cJSON_GetObjectItem(v, "options"));
            rc = eous_err_set(err, EOUS_E_NOT_FOUND, "select: no option '%s' in %s (options: %s)", part, t->what,
                              b.data ? b.data : "");
            eous_buf_free(&b);
            cJSON_Delete(v);
            wd_press_keys(x->s, "Escape", NULL);
            return rc;
        }
        if (eous_json_bool(v, "disabled", 0)) {
            rc = eous_err_set(err, EOUS_E_REJECTED, "select: option '%s' in %s is disabled", part, t->what);
            cJSON_Delete(v);
            wd_press_keys(x->s, "Escape", NULL);
            return rc;
        }
        const char *conf = eous_json_str(v, "confirm");
        if (conf) {
            char what[512];
            snprintf(what, sizeof what, "select '%s' in %s", part, t->what);
            if ((rc = ask(x, conf, what, err))) {
                cJSON_Delete(v);
                wd_press_keys(x->s, "Escape", NULL);
                return rc;
            }
        }
        const char *opt = wd_element_id_of(cJSON_GetObjectItem(v, "el"));
        rc = opt ? click_elem(x, opt, eous_json_num(v, "x", 0), eous_json_num(v, "y", 0), 1, 1, NULL, 0, err)
                 : eous_err_set(err, EOUS_E_PAGE, "select: the page did not hand back option '%s'", part);
        cJSON_Delete(v);
        if (rc)
            return eous_err_prefix(err, "select '%s' in %s", part, t->what);
        part = next;
        level++;
    }
    res_msg(res, "selected '%s' in %s%s", want, t->what, note);
    return EOUS_OK;
}

static eous_rc do_select(act_exec *x, const act_action *a, target *t, act_result *res, eous_err *err)
{
    const char *want = a->text ? a->text : "";
    if (!*want)
        return eous_err_set(err, EOUS_E_INVALID, "select %s: expected an option's label or value", t->what);
    if (t->disabled)
        return eous_err_set(err, EOUS_E_PAGE, "select: %s is disabled", t->what);
    if (!strcmp(t->tag, "select"))
        return select_native(x, want, t, res, err);
    if (t->combobox || !strcmp(t->role, "listbox") || !strcmp(t->role, "button"))
        return select_popup(x, want, t, res, err);
    return eous_err_set(err, EOUS_E_INVALID,
                        "select: %s is a <%s>, not a <select> or a combobox; click the option instead", t->what,
                        t->tag);
}

/* Target resolution, marks, policy, then the action itself. */
static eous_rc run_atomic(act_exec *x, const perc_obs *obs, const act_action *a, target *t, act_result *res,
                          eous_err *err)
{
    res->path = "atomic";
    eous_rc rc = acquire(x, t, a->kind == ACT_TYPE, err);
    if (rc)
        return rc;
    if ((rc = check_target_policy(x, obs, a, t, err)))
        return rc;
    switch (a->kind) {
    case ACT_CLICK: return do_click(x, t, res, err);
    case ACT_TYPE: return do_type(x, a, t, res, err);
    case ACT_HOVER: return do_hover(x, t, res, err);
    case ACT_SELECT: return do_select(x, a, t, res, err);
    default: return eous_err_set(err, EOUS_E_INVALID, "%s is not an element action", act_kind_name(a->kind));
    }
}

/* ======================================================================
 * Semantic calls
 * ====================================================================== */

static void comp_line(eous_buf *b, const perc_component *c)
{
    eous_buf_printf(b, NULL, "%s (%s, \"%s\")", c->key ? c->key : "?", c->kind ? c->kind : "component",
                    c->label ? c->label : "");
}

/* k: view id or key; from scripts also a label (whole words, any case and
 * accents) or a kind.  Several matches: the one that has the tool, else an
 * error listing the candidates. */
static eous_rc find_component(const perc_obs *obs, const act_action *a, const perc_component **out, eous_err *err)
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
    for (int pass = 0; pass < 2 && !nh; pass++) {
        for (size_t i = 0; i < n && nh < 32; i++) {
            const perc_component *c = perc_obs_component(obs, i);
            char fk[128], fc[128];
            act_fold(k, fk, sizeof fk);
            act_fold(c->kind, fc, sizeof fc);
            if (pass == 0 ? act_words_match(k, c->label) : !strcmp(fk, fc))
                hits[nh++] = c;
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
        eous_rc rc = eous_err_set(err, EOUS_E_INVALID, "call: \"%s\" names %zu components: %s; use a key", k, nh,
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
                             target *t, const char *why, act_result *res, eous_err *err)
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
    return run_atomic(x, obs, &fa, t, res, err);
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
            cJSON *in = cJSON_Parse(text);
            cJSON_Delete(v);
            v = in ? in : cJSON_CreateString(text);
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

static eous_rc run_call(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    const perc_component *c = NULL;
    eous_rc rc = find_component(obs, a, &c, err);
    const char *text = NULL;
    act_kind fk = call_as_atomic(a, &text);
    if (rc == EOUS_E_NOT_FOUND) {
        /* not a component: maybe an element id the planner called a tool on */
        target t;
        memset(&t, 0, sizeof t);
        eous_err e2;
        eous_err_clear(&e2);
        if (fk != ACT_NONE && obs && a->target) {
            act_action probe = *a;
            probe.kind = fk;
            if (resolve_target(x, obs, &probe, &t, &e2) == EOUS_OK) {
                char why[160];
                snprintf(why, sizeof why, "no component '%s'", a->target);
                rc = call_fallback(x, obs, a, fk, text, &t, why, res, err);
                target_free(&t);
                return rc;
            }
            target_free(&t);
        }
        return no_component(obs, a->target ? a->target : "", err);
    }
    if (rc)
        return rc;
    char who[300];
    snprintf(who, sizeof who, "%s.%s", c->key, a->tool ? a->tool : "");
    if (!act_tool_exists(c->tools, c->metadata, a->tool) && fk != ACT_NONE && c->backend_id > 0) {
        target t;
        memset(&t, 0, sizeof t);
        t.backend_id = c->backend_id;
        t.node = perc_obs_node_by_backend(obs, c->backend_id);
        snprintf(t.what, sizeof t.what, "%s (%s \"%s\")", c->view_id[0] ? c->view_id : c->key, c->kind, c->label);
        char why[200];
        snprintf(why, sizeof why, "%s has no tool '%s'", c->key, a->tool ? a->tool : "");
        rc = call_fallback(x, obs, a, fk, text, &t, why, res, err);
        target_free(&t);
        return rc;
    }
    res->path = "semantic";
    /* validated in C first: nothing reaches the page on a rejection */
    if ((rc = act_validate(c, a->tool, a->params, err)))
        return rc;
    const char *confirm = NULL;
    if ((rc = act_policy_check_action(x->policy, c->kind, c->label, "call", a->tool, x->url, &confirm, err)))
        return rc;
    char what[512];
    snprintf(what, sizeof what, "call %s", who);
    int confirmed = 0;
    if (c->confirm) {
        if ((rc = ask(x, c->confirm, what, err)))
            return rc;
        confirmed = 1;
    }
    if (confirm && !(c->confirm && !strcmp(confirm, c->confirm))) {
        if ((rc = ask(x, confirm, what, err)))
            return rc;
    }
    cJSON *params = NULL, *args = NULL, *v = NULL, *result = NULL;
    rc = act_secrets_expand_json(x->secrets, a->params, x->url, &params, err);
    if (rc)
        goto done;
    const char *provider = c->provider ? c->provider : "ci4a";
    for (int attempt = 0; attempt < 2; attempt++) {
        args = cJSON_CreateArray();
        cJSON_AddItemToArray(args, cJSON_CreateString(c->key));
        cJSON_AddItemToArray(args, cJSON_CreateString(a->tool));
        if (!strcmp(provider, "bridge"))
            cJSON_AddItemToArray(args, bridge_args(params));
        else
            cJSON_AddItemToArray(args, params ? cJSON_Duplicate(params, 1) : cJSON_CreateObject());
        cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.call_timeout_ms));
        cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_quiet_ms));
        cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_cap_ms));
        cJSON_AddItemToArray(args, cJSON_CreateBool(confirmed));
        cJSON_AddItemToArray(args, cJSON_CreateString(provider));
        rc = wd_execute(x->s, CALL_JS, args, &v, err);
        act_secret_json_free(args);
        args = NULL;
        if (rc) {
            eous_err_prefix(err, "%s", who);
            goto done;
        }
        const char *st = eous_json_str(v, "status");
        st = st ? st : "";
        if (!strcmp(st, "confirm") && !confirmed) {
            if ((rc = ask(x, eous_json_str(v, "sentence"), what, err)))
                goto done;
            confirmed = 1;
            cJSON_Delete(v);
            v = NULL;
            continue;
        }
        break;
    }
    const char *st = eous_json_str(v, "status");
    st = st ? st : "";
    res->act_ms = eous_json_num(v, "actMs", 0);
    res->settle_ms = eous_json_num(v, "settleMs", 0);
    remember_url(x, v);
    if (!strcmp(st, "hidden")) {
        rc = act_policy_hidden(what, err);
    } else if (!strcmp(st, "gone")) {
        rc = eous_err_set(err, EOUS_E_STALE, "stale: component %s is gone since the observation; observe again",
                          c->key);
    } else if (!strcmp(st, "noprovider")) {
        rc = eous_err_set(err, EOUS_E_STALE, "stale: the page no longer offers %s components (%s); observe again",
                          provider, who);
    } else if (!strcmp(st, "timeout")) {
        rc = eous_err_set(err, EOUS_E_TIMEOUT, "%s: no answer from the page within %.0f ms", who,
                          x->o.call_timeout_ms);
    } else if (!strcmp(st, "error")) {
        rc = page_error(v, who, err);
    } else if (!strcmp(st, "ok")) {
        result = unwrap_result(eous_json_str(v, "result"));
        if (cJSON_IsObject(result) && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(result, "ok"))) {
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(result, "error");
            const char *m = cJSON_IsString(e) ? e->valuestring : eous_json_str(e, "message");
            if (!m)
                m = eous_json_str(result, "message");
            rc = eous_err_set(err, EOUS_E_PAGE, "%s: the page answered not ok: %s", who, m ? m : "no reason given");
            goto done;
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
            eous_buf_puts(&b, "; result ", NULL);
            put_capped(&b, shown, 300);
        }
        if (res->state) {
            eous_buf_puts(&b, "; state ", NULL);
            put_capped(&b, res->state, 500);
        }
        res_msg(res, "%s", b.data ? b.data : "");
        eous_buf_free(&b);
    } else {
        rc = eous_err_set(err, EOUS_E_PAGE, "%s: unexpected answer from the call script", who);
    }
done:
    act_secret_json_free(params);
    act_secret_json_free(args);
    cJSON_Delete(v);
    cJSON_Delete(result);
    return rc;
}

/* ======================================================================
 * Keys, scrolling, navigation, tabs
 * ====================================================================== */

static eous_rc run_press(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    cJSON *v = NULL;
    eous_rc rc = wd_execute(x->s, ACTIVE_JS, NULL, &v, err);
    if (rc)
        return rc;
    remember_url(x, v);
    char what[300];
    snprintf(what, sizeof what, "press %s on %s '%s'", a->text ? a->text : "",
             eous_json_str(v, "role") ? eous_json_str(v, "role") : "the page",
             eous_json_str(v, "name") ? eous_json_str(v, "name") : "");
    /* keys reach the focused element: its marks apply as if it were clicked */
    if (eous_json_bool(v, "hidden", 0))
        rc = act_policy_hidden(what, err);
    const char *confirm = NULL;
    if (!rc)
        rc = act_policy_check_action(x->policy, eous_json_str(v, "role"), eous_json_str(v, "name"), "press", NULL,
                                     x->url, &confirm, err);
    if (!rc && eous_json_str(v, "confirm"))
        rc = ask(x, eous_json_str(v, "confirm"), what, err);
    if (!rc && confirm)
        rc = ask(x, confirm, what, err);
    cJSON_Delete(v);
    if (rc)
        return rc;
    res->path = "atomic";
    if ((rc = wd_press_keys(x->s, a->text, err)))
        return rc;
    res_msg(res, "pressed %s", a->text);
    return EOUS_OK;
}

static eous_rc run_scroll(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    const char *d = a->text ? a->text : "down";
    int dx = 0, dy = 0;
    if (!strcasecmp(d, "down"))
        dy = 600;
    else if (!strcasecmp(d, "up"))
        dy = -600;
    else if (!strcasecmp(d, "right"))
        dx = 600;
    else if (!strcasecmp(d, "left"))
        dx = -600;
    else
        return eous_err_set(err, EOUS_E_INVALID, "scroll: expected up or down, got '%s'", d);
    eous_rc rc = act_policy_check_action(x->policy, NULL, NULL, "scroll", NULL, x->url, NULL, err);
    if (rc)
        return rc;
    res->path = "atomic";
    if ((rc = wd_wheel(x->s, x->vw / 2, x->vh / 2, dx, dy, err)))
        return rc;
    res_msg(res, "scrolled %s", d);
    return EOUS_OK;
}

static eous_rc check_nav(act_exec *x, const char *url, const char *from, eous_err *err)
{
    if (x->policy)
        return act_policy_check_url(x->policy, url, err);
    /* no policy: stay within the origin being left */
    act_policy *p = NULL;
    eous_rc rc = act_policy_new(&p, err);
    if (!rc && from && *from && act_policy_allow_origin(p, from, NULL) != EOUS_OK)
        rc = EOUS_OK; /* about:blank and the like: only about:blank stays reachable */
    if (!rc)
        rc = act_policy_check_url(p, url, err);
    act_policy_free(p);
    return rc;
}

static eous_rc run_goto(act_exec *x, const act_action *a, act_result *res, double *settle_ms, eous_err *err)
{
    const char *raw = a->text ? a->text : "";
    char from[2048];
    snprintf(from, sizeof from, "%s", x->url);
    if (!from[0]) {
        char *u = NULL;
        if (wd_get_url(x->s, &u, NULL) == EOUS_OK && u)
            snprintf(from, sizeof from, "%s", u);
        free(u);
    }
    char *url = NULL;
    eous_rc rc = act_secrets_expand(x->secrets, raw, raw, &url, err);
    if (rc)
        return rc;
    /* "/orders" goes to the current origin */
    if (url[0] == '/' && url[1] != '/' && url[1] != '\\') {
        act_url cur;
        if (act_url_parse(from, &cur) == 0 && cur.has_authority) {
            char origin[400];
            act_url_origin(&cur, origin, sizeof origin);
            size_t n = strlen(origin) + strlen(url) + 1;
            char *abs = malloc(n);
            if (!abs) {
                act_secret_free(url);
                return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            }
            snprintf(abs, n, "%s%s", origin, url);
            act_secret_free(url);
            url = abs;
        }
    }
    if ((rc = check_nav(x, url, from, err)))
        goto done;
    res->path = "atomic";
    if ((rc = wd_navigate(x->s, url, err))) {
        eous_err_prefix(err, "goto %s", raw);
        goto done;
    }
    if ((rc = act_settle(x, settle_ms, err)))
        goto done;
    /* redirects count too: where we ended must be allowed as well */
    if (x->url[0] && strcmp(x->url, url)) {
        eous_err e2;
        eous_err_clear(&e2);
        if (check_nav(x, x->url, from, &e2) != EOUS_OK) {
            char landed[2048];
            snprintf(landed, sizeof landed, "%s", x->url);
            wd_navigate(x->s, "about:blank", NULL);
            snprintf(x->url, sizeof x->url, "about:blank");
            rc = eous_err_set(err, EOUS_E_POLICY, "goto %s: the page redirected to %s, which is refused; left it "
                                                  "for about:blank",
                              raw, landed);
            goto done;
        }
    }
    res_msg(res, "went to %s", raw);
done:
    act_secret_free(url);
    return rc;
}

static eous_rc run_tabs(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    cJSON *h = NULL;
    eous_rc rc = wd_window_handles(x->s, &h, err);
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(h);
    res->path = "atomic";
    if (a->kind == ACT_TAB_FOCUS) {
        if (a->index < 0 || a->index >= n) {
            rc = eous_err_set(err, EOUS_E_NOT_FOUND, "tab_focus: no tab %d (tabs 0..%d are open)", a->index, n - 1);
        } else if (!(rc = wd_switch_window(x->s, cJSON_GetArrayItem(h, a->index)->valuestring, err))) {
            res_msg(res, "switched to tab %d", a->index);
        }
    } else {
        if (n <= 1) {
            rc = eous_err_set(err, EOUS_E_INVALID, "close_tab: this is the only tab; it stays open");
        } else if (!(rc = wd_close_window(x->s, err))) {
            cJSON_Delete(h);
            h = NULL;
            if (!(rc = wd_window_handles(x->s, &h, err)) && cJSON_GetArraySize(h) > 0) {
                int last = cJSON_GetArraySize(h) - 1;
                if (!(rc = wd_switch_window(x->s, cJSON_GetArrayItem(h, last)->valuestring, err)))
                    res_msg(res, "closed the tab; now on tab %d", last);
            }
        }
    }
    cJSON_Delete(h);
    return rc;
}

/* ======================================================================
 * act_execute
 * ====================================================================== */

static eous_rc dispatch(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, int *settle,
                        eous_err *err)
{
    *settle = 1;
    switch (a->kind) {
    case ACT_CALL:
        *settle = 0; /* the call script settles in the page */
        return run_call(x, obs, a, res, err);
    case ACT_CLICK:
    case ACT_TYPE:
    case ACT_HOVER:
    case ACT_SELECT: {
        target t;
        memset(&t, 0, sizeof t);
        eous_rc rc = resolve_target(x, obs, a, &t, err);
        if (!rc)
            rc = run_atomic(x, obs, a, &t, res, err);
        target_free(&t);
        return rc;
    }
    case ACT_PRESS: return run_press(x, a, res, err);
    case ACT_SCROLL: return run_scroll(x, a, res, err);
    case ACT_GOTO:
        *settle = 0; /* run_goto settles before its redirect check */
        return run_goto(x, a, res, &res->settle_ms, err);
    case ACT_GO_BACK:
    case ACT_GO_FORWARD: {
        res->path = "atomic";
        eous_rc rc = a->kind == ACT_GO_BACK ? wd_back(x->s, err) : wd_forward(x->s, err);
        if (!rc)
            res_msg(res, "went %s", a->kind == ACT_GO_BACK ? "back" : "forward");
        return rc;
    }
    case ACT_TAB_FOCUS:
    case ACT_CLOSE_TAB: return run_tabs(x, a, res, err);
    case ACT_STOP:
        *settle = 0;
        res->stopped = 1;
        res->answer = strdup(a->text ? a->text : "");
        if (!res->answer)
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        res_msg(res, "stopped with answer: %.900s", res->answer);
        return EOUS_OK;
    case ACT_NONE: break;
    }
    *settle = 0;
    return eous_err_set(err, EOUS_E_INVALID, "no action to execute");
}

eous_rc act_execute(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    memset(res, 0, sizeof *res);
    res->path = "none";
    eous_err e;
    eous_err_clear(&e);
    if (obs && perc_obs_url(obs)[0])
        snprintf(x->url, sizeof x->url, "%s", perc_obs_url(obs));
    char page[2048];
    snprintf(page, sizeof page, "%s", x->url);
    double t0 = eous_now_ms();
    int settle = 0;
    eous_rc rc = dispatch(x, obs, a, res, &settle, &e);
    if (!res->act_ms)
        res->act_ms = eous_now_ms() - t0 - res->settle_ms;
    if (!rc && settle) {
        double ms = 0;
        eous_err se;
        eous_err_clear(&se);
        if (act_settle(x, &ms, &se) != EOUS_OK)
            EOUS_DEBUG("actions", "settle after %s: %s", act_kind_name(a->kind), se.msg);
        res->settle_ms = ms;
    }
    char dialogs[600] = "";
    if (a->kind != ACT_STOP)
        take_dialogs(x, dialogs, sizeof dialogs);
    if (dialogs[0]) {
        if (rc) {
            size_t n = strlen(e.msg);
            snprintf(e.msg + n, sizeof e.msg - n, "%s", dialogs);
        } else {
            size_t n = strlen(res->message);
            snprintf(res->message + n, sizeof res->message - n, "%s", dialogs);
        }
    }
    if (rc) {
        if (!e.msg[0])
            eous_err_set(&e, rc, "%s failed", act_kind_name(a->kind));
        /* a page or driver message may echo what was typed */
        if (eous_redact_contains(e.msg)) {
            char *c = eous_redact(e.msg);
            if (c) {
                snprintf(e.msg, sizeof e.msg, "%s", c);
                free(c);
            }
        }
        res_msg(res, "%s", e.msg);
    }
    redact_result(res);
    if (x->audit) {
        char *text = act_format(a);
        act_audit_entry ae = {.url = page, .action = text ? text : act_kind_name(a->kind), .path = res->path,
                              .result = rc, .message = res->message, .fallback_reason = res->fallback_reason,
                              .act_ms = res->act_ms, .settle_ms = res->settle_ms};
        eous_err ae_err;
        if (act_audit_write(x->audit, &ae, &ae_err) != EOUS_OK)
            EOUS_WARN("actions", "%s", ae_err.msg);
        free(text);
    }
    if (err)
        *err = e;
    return rc;
}

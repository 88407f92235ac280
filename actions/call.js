/* A semantic call: marks, provider, bounded call, settle, new state and the
 * dialogs the page opened meanwhile.
 * args: key, tool, params, timeoutMs, quietMs (0 = the settle rule), capMs, confirmed, provider
 * ("ci4a" | "webmcp" | "bridge" | "native"), and for native components their
 * M and whether the values hold secrets (native_call.js).  A WebMCP call's params go as an object
 * to Chromium's executeTool and as JSON text to the draft's and the
 * polyfill's (webmcp_call.js). */
return (async function(K, T, P, tmo, quiet, cap, confirmed, provider, nativeMeta, secretValues) {
// @include quiet_hook.js
// @include page_helpers.js
// @include dialogs.js
// @include webmcp_call.js
// @include native_call.js
  const t0 = performance.now();
  const msg = e => {
    try { return (e && e.message != null) ? String(e.message) : String(e); }
    catch (x) { return 'unprintable error'; }
  };
  const ser = v => {
    try { const s = JSON.stringify(v); return s === undefined ? null : s; }
    catch (e) { try { return JSON.stringify(String(v)); } catch (x) { return null; } }
  };
  const entryOf = (st) => {
    if (!st || typeof st !== 'object') return null;
    if (Object.prototype.hasOwnProperty.call(st, K) && st[K] && typeof st[K] === 'object') return st[K];
    return ('state' in st || 'tools' in st) ? st : null;
  };
  let root = null;
  if (provider !== 'webmcp') {
    const mark = provider === 'native' ? 'data-eous-nk' : 'data-cid';
    try { root = document.querySelector('[' + mark + '="' + CSS.escape(K) + '"]'); } catch (e) {}
    if (!root && provider === 'native') return {status: 'gone'};
  }
  if (root) {
    if (closestDeep(root, '[data-agent-hidden]')) return {status: 'hidden'};
    const c = closestDeep(root, '[data-agent-confirm]');
    if (c && !confirmed) return {status: 'confirm', sentence: c.getAttribute('data-agent-confirm') || ''};
  }
  let call;
  let abort = null, wm = null;
  if (provider === 'webmcp') {
    wm = await webmcpFind(K);
    if (wm.status) return wm;
    abort = new AbortController();
    call = () => webmcpRun(wm, P, abort.signal);
  } else if (provider === 'native') {
    call = () => nativeRun(K, T, P, nativeMeta, secretValues);
  } else if (provider === 'bridge') {
    const ag = window.agent;
    if (!ag || typeof ag.act !== 'function') return {status: 'noprovider'};
    call = () => ag.act({steps: [{ref: K, action: T, args: P}]});
  } else {
    const r = window.__ci4a__;
    const own = r && r._components ? r._components[K] : null;
    // a registry with only _components (the seed's agent loop calls its tools directly)
    const direct = own && own.tools && typeof own.tools[T] === 'function';
    if (!r || (typeof r.callTool !== 'function' && !direct)) return {status: 'noprovider'};
    if (typeof r.getStatus === 'function') {
      let st = null;
      try { st = await r.getStatus(K); } catch (e) {}
      if (!entryOf(st) && !own) return {status: 'gone'};
    }
    call = typeof r.callTool === 'function' ? () => r.callTool(K, T, P) : () => own.tools[T](P);
  }
  let timer;
  const to = new Promise((_, rej) => { timer = setTimeout(() => rej({__eousTimeout: true}), tmo); });
  let result, awaited = false;
  try {
    result = await Promise.race([Promise.resolve().then(() => {
      const p = call();
      awaited = !!p && typeof p.then === 'function'; /* a CI4A registry that awaits its page's settle */
      return p;
    }), to]);
  } catch (e) {
    clearTimeout(timer);
    if (e && e.__eousTimeout) {
      // the page's tool is told the call is over (AbortSignal, as executeTool takes it)
      if (abort) try { abort.abort(); } catch (x) {}
      const form = wm && wm.form && !wm.form.hasAttribute('toolautosubmit') ? 'form' : '';
      return {status: 'timeout', form};
    }
    if (wm) return webmcpError(wm, e);
    let cons = null;
    try { if (e && e.constraints !== undefined) cons = JSON.stringify(e.constraints); } catch (x) {}
    let code = '';
    try { code = e && e.code != null ? String(e.code) : (e && e.name ? String(e.name) : ''); } catch (x) {}
    return {status: 'error', code, message: msg(e), constraints: cons};
  }
  clearTimeout(timer);
  if (wm) {
    const r = webmcpResult(result);
    if (r.isError) return {status: 'error', code: 'tool_error', message: r.message, constraints: null};
    result = r.value;
  }
  // a native form's submit: the executor clicks its button (real input, navigation)
  if (provider === 'native' && result && result.submit) return {status: 'submit', via: result.submit, what: result.what, filled: result.filled,
    pageChecks: result.pageChecks};
  if (provider === 'native' && result) result = result.result;
  /* a CI4A call answered through a promise: its registry awaited the page; settled unless more is pending */
  const s = await settle({quiet, cap, mark: t0, trust: provider === 'ci4a' && awaited});
  historyNow();
  let state = null;
  if (provider === 'ci4a') {
    try {
      const r = window.__ci4a__;
      const e = typeof r.getStatus === 'function' ? entryOf(await r.getStatus(K)) : r._components[K];
      state = e ? ser(typeof e.state === 'function' ? e.state() : e.state) : null;
    } catch (e) {}
  }
  let res = ser(result);
  if (res && res.length > 65536) res = JSON.stringify(res.slice(0, 65536));
  return {status: 'ok', result: res, state, settleMs: s.ms, settleCapped: s.capped, settleWaited: s.waited, url: String(location.href),
    w: innerWidth, h: innerHeight, dialogs: takeDialogs()};
}).apply(null, arguments);

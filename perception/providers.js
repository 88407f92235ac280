/* The semantic providers and the html mode's text, in one script.
 * args: timeoutMs, maxBytes, stampIds (html mode: ids on interactive
 * elements and the html view's text, html_view.js), wantProviders (PERC_PROVIDER_* bits:
 * 1 ci4a, 2 webmcp, 4 bridge, 8 native; true = all).  Providers are awaited
 * with a bound; anything they throw, any cycle or oversize answer becomes a
 * warning, never a failure. */
return (async function(timeoutMs, maxBytes, stampIds, wantProviders) {
  // doc: the driver's id of the root element tells how it names this document's elements
  const out = {url: String(location.href), title: String(document.title), warnings: [], doc: document.documentElement};
  const bound = (f, what) => Promise.race([Promise.resolve().then(f),
    new Promise((_, rej) => setTimeout(() => rej(new Error(what + ' timed out after ' + timeoutMs + ' ms')), timeoutMs))]);
  const enc = (v, what) => { let s; try { s = JSON.stringify(v); } catch (e) {
      throw new Error(what + ' returned data that cannot be serialised (' + (e && e.message) + ')'); }
    if (s === undefined) throw new Error(what + ' returned nothing');
    if (s.length > maxBytes) throw new Error(what + ' returned ' + s.length + ' bytes, over the ' + maxBytes + ' byte limit');
    return s; };
  const msg = e => { try { return (e && e.message) ? String(e.message) : String(e); } catch (x) { return 'unprintable error'; } };
  // CI4A as the seed writes it: getStatus() for all (or getStatus(K) per
  // key of _components), or only _components whose state/metadata may be
  // functions and whose tools are functions; cycles are cut with a warning
  const acyclic = (v, what) => { const stack = []; let cut = 0;
    const walk = x => { if (!x || typeof x !== 'object') return typeof x === 'function' ? undefined : x;
      if (stack.includes(x)) { cut++; return '[cycle]'; } stack.push(x);
      let o; if (Array.isArray(x)) o = x.map(walk); else { o = {}; for (const k of Object.keys(x)) { const w = walk(x[k]);
        if (w !== undefined) o[k] = w; } }
      stack.pop(); return o; };
    const o = walk(v); if (cut) out.warnings.push('ci4a: ' + what + ' holds a cycle (' + cut + ' cut)'); return o; };
  const entryOf = (k, e) => { if (!e || typeof e !== 'object') return e; const o = Object.assign({}, e);
    for (const f of ['state', 'metadata']) if (typeof o[f] === 'function') o[f] = o[f]();
    if (o.tools && typeof o.tools === 'object' && !Array.isArray(o.tools) &&
        Object.values(o.tools).some(t => typeof t === 'function')) o.tools = Object.keys(o.tools);
    return acyclic(o, k); };
  const readCi4a = async r => { const comps = r._components && typeof r._components === 'object' ? r._components : {};
    const hasGet = typeof r.getStatus === 'function'; let all, firstErr;
    try { all = hasGet ? await bound(() => r.getStatus(), 'getStatus') : undefined; } catch (e) { firstErr = e; }
  // getStatus(key) only: ask per key, keys from _components or the page's data-cid roots
    if (!all || typeof all !== 'object' || Array.isArray(all)) { const first = all;
      const keys = new Set(Object.keys(comps)); if (hasGet) document.querySelectorAll('[data-cid]').forEach(e => keys.add(e.getAttribute('data-cid')));
      if (firstErr && !keys.size) throw firstErr; all = {};
      for (const k of keys) { let e;
        if (hasGet) e = await bound(() => r.getStatus(k), 'getStatus');
        e = e && typeof e === 'object' ? (e[k] && typeof e[k] === 'object' ? e[k] : e) : comps[k];
        if (e) all[k] = e; }
  // nothing per key either: the first answer (or error) is what to report
      if (!Object.keys(all).length) { if (firstErr) throw firstErr; return first; } }
    if (!all || typeof all !== 'object') return all;
    const o = {}; for (const k of Object.keys(all)) o[k] = entryOf(k, all[k]); return o; };
  // what a data-cid root's aria-labelledby (or aria-label) names, for
  // roots whose role gets no accessible name
  const cidLabels = () => { const o = {};
    document.querySelectorAll('[data-cid][aria-labelledby],[data-cid][aria-label]').forEach(el => {
      const ids = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
      const t = ids.map(i => { const r = document.getElementById(i); return r ? r.textContent : ''; }).join(' ');
      const l = (t.trim() || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
      if (l) o[el.getAttribute('data-cid')] = l.slice(0, 200); });
    return o; };
  // the tab whose hidden panel holds a component (its role=tabpanel's aria-labelledby, or the tab
  // that controls it), for components not on screen: the hybrid view's "in tab 'Members'"
  const cidTabs = () => { const o = {};
    const shown = e => typeof e.checkVisibility === 'function' ? e.checkVisibility() : e.getClientRects().length > 0;
    document.querySelectorAll('[data-cid],[data-eous-nk]').forEach(el => {
      const panel = el.closest('[role=tabpanel]');
      if (!panel || shown(panel)) return;
      const ids = (panel.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
      let tab = ids.length ? document.getElementById(ids[0]) : null;
      if (!tab && panel.id) tab = document.querySelector('[role=tab][aria-controls="' + CSS.escape(panel.id) + '"]');
      const t = tab ? (tab.textContent || tab.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim() : '';
      if (t) o[el.getAttribute('data-cid') || el.getAttribute('data-eous-nk')] = t.slice(0, 80); });
    return o; };
  // WebMCP: Chromium's native getTools() lists the tools of the page and of
  // its same-origin frames; a polyfill's lists its own document's only, so
  // same-origin frames with a polyfill are asked too.  Fields are copied
  // out (a tool's window cannot be serialised); a declarative <form toolname>
  // tool says whether it submits itself.
  const readWebMcp = async () => {
    const docs = [], seen = new Set();
    const walk = (w, depth) => {
      let d; try { d = w.document; } catch (e) { return; }
      if (!d || docs.length > 50) return;
      docs.push({w, d});
      if (depth < 4) for (let i = 0; i < w.frames.length; i++) walk(w.frames[i], depth + 1);
    };
    walk(window, 0);
    let any = false;
    const list = [];
    for (const {w, d} of docs) {
      const mc = d.modelContext;
      if (!mc || typeof mc.getTools !== 'function') continue;
      if (w !== window && !mc.__isWebMCPPolyfill) continue; // native: the top lists them
      any = true;
      const tools = Array.from(await bound(() => mc.getTools(), 'getTools') || []);
      for (const t of tools) {
        const name = String(t.name);
        if (seen.has(name)) continue;
        seen.add(name);
        const o = {name, title: t.title == null ? '' : String(t.title),
          description: t.description == null ? '' : String(t.description),
          inputSchema: typeof t.inputSchema === 'string' ? t.inputSchema : (t.inputSchema || {})};
        const a = t.annotations;
        if (a && typeof a === 'object') o.annotations = {readOnlyHint: !!a.readOnlyHint, untrustedContentHint: !!a.untrustedContentHint};
        let td = d;
        try { if (t.window && t.window.document) td = t.window.document; } catch (e) {}
        let form = null;
        try { form = td.querySelector('form[toolname="' + CSS.escape(name) + '"]'); } catch (e) {}
        if (form) o.form = {autosubmit: form.hasAttribute('toolautosubmit')};
        if (w !== window || td !== document) o.frame = true;
        list.push(o);
      }
    }
    return any ? list : null;
  };
// @include native.js
// @include vis_hidden.js
// @include html_view.js
  const want = wantProviders === true ? 15 : (Number(wantProviders) || 0);
  if (want) {
// @include webmcp_hook.js
    if (want & 1) try { const r = window.__ci4a__; if (r && typeof r === 'object')
      out.ci4a = enc(await readCi4a(r), 'getStatus'); } catch (e) { out.warnings.push('ci4a: ' + msg(e)); }
    try { out.cidLabels = cidLabels(); } catch (e) {}
    try { out.cidTabs = cidTabs(); } catch (e) {}
    if (want & 2) try { const tools = await readWebMcp(); if (tools) out.webmcp = enc(tools, 'getTools'); }
    catch (e) { out.warnings.push('webmcp: ' + msg(e)); }
    if (want & 4) try { const ag = window.agent; if (ag && typeof ag.snapshot === 'function')
      out.bridge = enc(await bound(() => ag.snapshot(), 'snapshot'), 'snapshot'); } catch (e) { out.warnings.push('bridge: ' + msg(e)); }
    if (want & 8) try { out.native = enc(readNative(), 'native'); } catch (e) { out.warnings.push('native: ' + msg(e)); }
  }
  // text a person cannot see (vis_hidden.js), found before any tree is read:
  // handed to the page marks and the in-page tree as is (out.vh, not sent
  // back), and stamped data-eous-vh for the DOM snapshot and the html source,
  // only where a stamp changed (a page's observers see no churn)
  try {
    const vh = eousVisHidden(document, 20000);
    Object.defineProperty(out, 'vh', {value: vh.map});
    if (vh.cut) out.warnings.push('hidden text: only the first 20000 elements were checked for text a person cannot see');
    const reg = window.__eous_vh__ instanceof Array ? window.__eous_vh__ : [];
    const stale = new Set(reg.map(w => w && typeof w.deref === 'function' ? w.deref() : null).filter(Boolean));
    document.querySelectorAll('[data-eous-vh]').forEach(e => stale.add(e));
    const kept = [];
    for (const [e, v] of vh.map) {
      stale.delete(e);
      if (e.getAttribute('data-eous-vh') !== String(v)) e.setAttribute('data-eous-vh', String(v));
      kept.push(new WeakRef(e));
    }
    stale.forEach(e => { try { e.removeAttribute('data-eous-vh'); } catch (x) {} });
    window.__eous_vh__ = kept;
  } catch (e) { out.warnings.push('hidden text: ' + msg(e)); }
  // the html mode's text, ids stamped and the tree pruned in the page (html_view.js), after the
  // data-eous-vh stamps it reads
  if (stampIds) {
    const hv = eousHtmlView(document);
    out.htmlView = hv.text;
    if (hv.capped) out.warnings.push('page nests deeper than 512 levels; deeper content is not shown');
  }
  return out;
})(arguments[0], arguments[1], arguments[2], arguments[3]);

/* Keeps a WebMCP tool's own error.  Chromium's executeTool rejects with a
 * generic "Tool was executed but the invocation failed" whatever the tool
 * threw, and the published polyfill keeps an Error's message but drops a
 * thrown string.  This wraps each tool's execute as the page registers it,
 * so call.js can read what the tool threw (window.__eous_webmcp_errors__).
 *
 * Installed for every new document through CDP, before the page's scripts.
 * A polyfill installs document.modelContext later, with Object.defineProperty:
 * while the document loads, that call is watched (the watch is removed at the
 * first modelContext defined or at load).  Each observation runs this again,
 * for a modelContext that appeared some other way; tools registered before
 * that keep the browser's message. */
(function() {
  /* top documents only: in a frame (measured, Chromium 156), touching
   * document.modelContext as the document starts sometimes leaves the frame's
   * tools unlisted for good (and its initial about:blank's getTools() never
   * answers).  A frame's tool failing keeps the browser's message. */
  if (window !== window.top || location.href === 'about:blank') return;
  const install = () => {
    const mc = document.modelContext;
    if (!mc || typeof mc.registerTool !== 'function') return false;
    const proto = Object.getPrototypeOf(mc);
    const host = proto && Object.prototype.hasOwnProperty.call(proto, 'registerTool') ? proto : mc;
    if (host.registerTool.__eousWrapped) return true;
    const rec = window.__eous_webmcp_errors__ = window.__eous_webmcp_errors__ || {seq: 0, last: {}};
    const text = e => {
      try {
        if (typeof e === 'string') return e;
        if (e && e.message != null) return String(e.message);
        return String(e);
      } catch (x) { return 'unprintable error'; }
    };
    const orig = host.registerTool;
    const wrapped = function(tool, options) {
      if (tool && typeof tool === 'object' && typeof tool.execute === 'function') {
        const name = String(tool.name);
        const run = tool.execute;
        /* the page's object stays the prototype: every other member reads through */
        const w = Object.create(tool);
        Object.defineProperty(w, 'execute', {enumerable: true, value: async function() {
          try { return await run.apply(this, arguments); }
          catch (e) { rec.last[name] = {seq: ++rec.seq, message: text(e).slice(0, 4000)}; throw e; }
        }});
        for (const k of ['name', 'title', 'description', 'inputSchema', 'annotations'])
          if (k in tool) Object.defineProperty(w, k, {enumerable: true, value: tool[k]});
        tool = w;
      }
      return orig.call(this, tool, options);
    };
    Object.defineProperty(wrapped, '__eousWrapped', {value: true});
    try { Object.defineProperty(host, 'registerTool', {configurable: true, writable: true, value: wrapped}); }
    catch (e) { return false; }
    return true;
  };
  install();
  /* a polyfill may come (or replace the native one) while the page loads */
  if (document.readyState !== 'loading' || Object.defineProperty.__eousWatch) return;
  const define = Object.defineProperty;
  const unwatch = () => { if (Object.defineProperty === watch) Object.defineProperty = define; };
  const watch = function(target, key) {
    const r = define.apply(this, arguments);
    // on document, Document.prototype (the published polyfill) or navigator (older ones)
    if (key === 'modelContext' && install()) unwatch();
    return r;
  };
  define(watch, '__eousWatch', {value: true});
  Object.defineProperty = watch;
  window.addEventListener('load', unwatch, {once: true});
})();

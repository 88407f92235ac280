  // ---- WebMCP (included in call.js) ----------------------------------------
  // The tool named K, from the top document's modelContext or from a
  // same-origin frame's polyfill: {mc, tool, win, form} or {status}.
  const webmcpFind = async (name) => {
    const docs = [];
    const walk = (w, depth) => {
      let d; try { d = w.document; } catch (e) { return; }
      if (!d || docs.length > 50) return;
      docs.push({w, d});
      if (depth < 4) for (let i = 0; i < w.frames.length; i++) walk(w.frames[i], depth + 1);
    };
    walk(window, 0);
    let any = false;
    for (const {w, d} of docs) {
      const mc = d.modelContext;
      if (!mc || typeof mc.executeTool !== 'function') continue;
      if (w !== window && !mc.__isWebMCPPolyfill) continue;
      any = true;
      let tools = [];
      try { tools = Array.from(await mc.getTools() || []); } catch (e) {}
      const tool = tools.find(t => t && t.name === name);
      if (!tool) continue;
      let win = w;
      try { if (tool.window && tool.window.document) win = tool.window; } catch (e) {}
      let form = null;
      try { form = win.document.querySelector('form[toolname="' + CSS.escape(name) + '"]'); } catch (e) {}
      return {mc, tool, win, form};
    }
    return {status: any ? 'gone' : 'noprovider'};
  };
  // The WebMCP draft and the published polyfill take the arguments as JSON
  // text; Chromium's native executeTool takes an object and rejects text.
  // Either refusal comes before the tool runs, so the other form is tried.
  const webmcpRun = async (wm, params, signal) => {
    const text = JSON.stringify(params == null ? {} : params);
    const obj = JSON.parse(text);
    const first = wm.mc.__isWebMCPPolyfill ? text : obj;
    const refused = e => {
      const m = e && e.message ? String(e.message) : '';
      return /invalid input object|Failed to parse input arguments/i.test(m);
    };
    wm.seq = webmcpSeq(wm);
    try {
      return await wm.mc.executeTool(wm.tool, first, {signal});
    } catch (e) {
      if (!refused(e)) throw e;
      return await wm.mc.executeTool(wm.tool, first === text ? obj : text, {signal});
    }
  };
  const webmcpSeq = wm => {
    try { const r = wm.win.__eous_webmcp_errors__; return r ? r.seq : 0; } catch (e) { return 0; }
  };
  // What the tool threw, word for word: recorded by webmcp_hook.js when it
  // wrapped the tool, else the browser's message with its generic prefix
  // taken off (the polyfill appends an Error's message to it).
  const WEBMCP_GENERIC = /^Tool was executed but the invocation failed(\. For example, the script function threw an error)?(: )?/;
  const webmcpError = (wm, e) => {
    let message = msg(e), code = '';
    try { code = e && e.name ? String(e.name) : ''; } catch (x) {}
    try {
      const r = wm.win.__eous_webmcp_errors__;
      const got = r && r.last[wm.tool.name];
      if (got && got.seq > (wm.seq || 0)) return {status: 'error', code: 'tool_error', message: got.message, constraints: null};
    } catch (x) {}
    const m = WEBMCP_GENERIC.exec(message);
    if (m && m[0].length < message.length) return {status: 'error', code: 'tool_error', message: message.slice(m[0].length), constraints: null};
    if (m) return {status: 'error', code: 'tool_error', generic: true, message, constraints: null};
    return {status: 'error', code, message, constraints: null};
  };
  // A result is JSON text (native, draft, polyfill) or a value (older
  // polyfills); an MCP result with isError is the tool's error.
  const webmcpResult = (v) => {
    if (typeof v === 'string') { try { v = JSON.parse(v); } catch (e) { return {value: v}; } }
    if (v && typeof v === 'object' && v.isError === true) {
      let parts = [];
      try { parts = (Array.isArray(v.content) ? v.content : []).filter(c => c && typeof c.text === 'string').map(c => c.text); } catch (e) {}
      return {isError: true, message: parts.join('\n') || 'the tool answered isError with no text'};
    }
    return {value: v};
  };

/* What a document logs to its console (console.*, uncaught errors and
 * rejections) and the fetch and XMLHttpRequest calls it makes, with method
 * and status, from its start, for browser_console_messages and
 * browser_network_requests (page_log.js reads them).  Installed for every new
 * document through CDP (mcp_page_hooks_install); without CDP, by the first
 * read on a document, which then misses what came before. */
(function() {
  if (window.__eous_console__) return;
  const MAX = 500;
  const log = window.__eous_console__ = {list: [], dropped: 0};
  const req = window.__eous_requests__ = {list: [], dropped: 0};
  const keep = (l, e) => { if (l.list.length < MAX) l.list.push(e); else l.dropped++; };
  const str = (a) => {
    try { return typeof a === 'string' ? a : a instanceof Error ? String(a.stack || a) : JSON.stringify(a) ?? String(a); }
    catch (e) { return String(a); }
  };
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const orig = console[level];
    if (typeof orig !== 'function') continue;
    console[level] = function() {
      try {
        keep(log, {level: level === 'log' ? 'info' : level === 'warn' ? 'warning' : level,
                   text: Array.prototype.map.call(arguments, str).join(' ').slice(0, 2000)});
      } catch (e) {}
      return orig.apply(this, arguments);
    };
  }
  window.addEventListener('error', (e) => {
    if (e.message) keep(log, {level: 'error', text: String(e.message) + (e.filename ? ' (' + e.filename + ':' + e.lineno + ')' : '')});
  });
  window.addEventListener('unhandledrejection', (e) => keep(log, {level: 'error', text: 'Uncaught (in promise) ' + str(e.reason)}));
  const abs = (u) => { try { return new URL(u, location.href).href; } catch (e) { return String(u); } };
  try {
    const f = window.fetch;
    if (f) window.fetch = function(input, init) {
      const e = {method: String((init && init.method) || (input && input.method) || 'GET').toUpperCase(),
                 url: abs(typeof input === 'string' || input instanceof URL ? input : input && input.url), type: 'fetch', status: 0};
      keep(req, e);
      return f.apply(this, arguments).then((r) => { e.status = r.status; return r; }, (err) => { e.status = -1; throw err; });
    };
    const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.open = function(method, url) {
      this.__eous_req__ = {method: String(method || 'GET').toUpperCase(), url: abs(url), type: 'xhr', status: 0};
      return open.apply(this, arguments);
    };
    XMLHttpRequest.prototype.send = function() {
      const e = this.__eous_req__;
      if (e) { keep(req, e); this.addEventListener('loadend', () => { e.status = this.status || -1; }, {once: true}); }
      return send.apply(this, arguments);
    };
  } catch (e) {}
})();

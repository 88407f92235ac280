/* Every value change of a CI4A component (its state's value, checked or
 * pressed) or of a plain form control, for the value history
 * (actions/history.c: browser_history and browser_undo, `eous run`'s trace):
 * {id, doc, url, t, provider, component, key, label, value, previous, secret,
 * trusted}.  Who made it is decided in C from the
 * time: inside one of the agent's calls it is the agent's, else a person's
 * when a trusted event (a key, a click, an input) came first, else the page's.
 * Changes are noticed on input and change events, on the value setters of
 * inputs, selects and textareas (a script setting .value fires no event) and
 * on DOM mutations (a re-rendered component), then compared with the last
 * values seen (at most every 50 ms, each change stamped with the time it was
 * read); a control's first value is where it starts.  Entries are kept
 * in sessionStorage too, so a same-origin page after a submit still lists
 * them.  Installed for every new document through CDP (act_history_install);
 * without CDP by the first read (history_read.js), which misses what came before. */
(function() {
  if (window.__eous_history__) return;
  const MAX = 400, STORE = '__eous_history__';
  const GAP = 50; /* ms between two reads at most once: a page that animates its DOM costs little */
  /* the browser's own timer, not the one quiet_hook.js counts: this read is eous's, not the page's work, and
   * the settle after an action takes it itself (settle.js), so no action waits on it */
  const st = (window.__eous_quiet__ && window.__eous_quiet__.st) || window.setTimeout;
  const H = window.__eous_history__ = {entries: [], last: null, doc: Math.random().toString(36).slice(2, 10), seq: 0,
                                        trusted: false, pending: 0, checked: 0, check: null};
  try {
    const old = JSON.parse(sessionStorage.getItem(STORE) || '[]');
    if (Array.isArray(old)) H.entries = old.slice(-MAX);
  } catch (e) {}
  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim().slice(0, 200);
  // a label's own text, without the options of a select inside it (as perception/native.js reads it)
  const textOf = (el) => {
    let t = '';
    const walk = (n) => { for (const c of n.childNodes) {
      if (c.nodeType === 3) t += c.data;
      else if (c.nodeType === 1 && !/^(INPUT|SELECT|TEXTAREA|SCRIPT|STYLE)$/.test(c.tagName)) walk(c);
    } };
    walk(el);
    return t;
  };
  const labelOf = (el) => {
    let l = squash(el.getAttribute('aria-label'));
    if (!l && el.labels && el.labels.length) l = squash(Array.from(el.labels).map(textOf).join(' '));
    if (!l) l = squash(el.getAttribute('title') || el.getAttribute('placeholder') || el.getAttribute('name') || el.id);
    return l.replace(/[\s:*]+$/, '');
  };
  // as perception/native.js says it: a secret's value is never kept, a hidden control never recorded
  const secretOf = (el) => el.type === 'password' || !!el.closest('[data-agent-secret]') ||
    /^(one-time-code|cc-.*|current-password|new-password)$/.test(String(el.getAttribute('autocomplete') || '').trim());
  const rootOf = (k) => {
    try { return document.querySelector('[data-cid="' + CSS.escape(k) + '"]'); } catch (e) { return null; }
  };
  const hide = (v) => v === '' || v == null ? '' : '[redacted]'; /* filled or not, never what */
  const formOf = (el) => el.form ? squash(el.form.getAttribute('aria-label') || el.form.getAttribute('name') ||
    el.form.getAttribute('id') || el.form.getAttribute('action') || 'form') : '';
  // what every control holds now: "provider\tcomponent\tkey" -> {label, value, secret, nk}
  const read = () => {
    const o = {};
    const r = window.__ci4a__;
    let all = null;
    try { all = r && typeof r.getStatus === 'function' ? r.getStatus() : null; } catch (e) {}
    if (all && typeof all === 'object' && typeof all.then !== 'function') {
      for (const k of Object.keys(all)) {
        const c = all[k];
        let st = c && c.state;
        try { if (typeof st === 'function') st = st(); } catch (e) { st = null; }
        const root = rootOf(k);
        if (!st || typeof st !== 'object' || (root && root.closest('[data-agent-hidden]'))) continue;
        const secret = !!st.secret || !!(root && root.closest('[data-agent-secret]'));
        for (const f of ['value', 'checked', 'pressed'])
          if (f in st) o['ci4a\t' + k + '\t' + f] = {label: squash(c.label || k), secret,
                                                     value: secret ? hide(st[f]) : st[f]};
      }
    }
    const radios = {};
    for (const el of document.querySelectorAll('input,select,textarea')) {
      if (el.closest('[data-cid],[data-agent-hidden]') || /^(hidden|submit|button|reset|image|file)$/.test(el.type))
        continue;
      const secret = secretOf(el), nk = el.getAttribute('data-eous-nk') || '';
      if (el.type === 'radio') {
        const g = formOf(el) + '\t' + (el.name || labelOf(el));
        const fs = el.closest('fieldset'), lg = fs && fs.querySelector('legend');
        const cur = radios[g] || (radios[g] = {label: lg ? squash(textOf(lg)) : el.name, value: '', secret, nk});
        if (el.checked) cur.value = labelOf(el);
        continue;
      }
      const key = el.type === 'checkbox' ? 'checked' : 'value';
      const value = el.type === 'checkbox' ? el.checked : el.tagName === 'SELECT' && !el.multiple
        ? squash(el.selectedOptions[0] ? el.selectedOptions[0].label || el.selectedOptions[0].text : '')
        : String(el.value).slice(0, 2000);
      o['native\t' + formOf(el) + '\t' + labelOf(el) + '\t' + key] =
        {label: labelOf(el), value: secret ? hide(value) : value, secret, nk};
    }
    for (const g of Object.keys(radios)) o['native\t' + g + '\tvalue'] = radios[g];
    return o;
  };
  const save = () => { try { sessionStorage.setItem(STORE, JSON.stringify(H.entries)); } catch (e) {} };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  H.check = () => {
    const now = read(), t = Date.now(), trusted = H.trusted;
    H.pending = 0; H.checked = t; H.trusted = false;
    if (H.last) {
      for (const id of Object.keys(now)) {
        const b = H.last[id], a = now[id];
        if (!b || same(a.value, b.value)) continue;
        const p = id.split('\t');
        H.entries.push({id: H.doc + '-' + (++H.seq), doc: H.doc, url: location.href, t, provider: p[0],
                        component: p.slice(1, -1).join('\t'), key: p[p.length - 1], label: a.label, value: a.value,
                        previous: b.value, secret: a.secret || b.secret, trusted});
        if (H.entries.length > MAX) H.entries.shift();
        save();
      }
      for (const id of Object.keys(H.last)) if (!now[id]) now[id] = Object.assign({gone: true}, H.last[id]);
    }
    H.last = now;
    return now;
  };
  // read soon, not inside the setter or event that noticed it: a change's time is when it is read, within GAP ms
  const soon = (trusted) => {
    if (trusted) H.trusted = true;
    if (!H.pending) H.pending = st.call(window, H.check, Math.max(0, H.checked + GAP - Date.now()));
  };
  for (const type of ['input', 'change', 'keydown', 'pointerdown', 'click'])
    window.addEventListener(type, (e) => soon(e.isTrusted), true);
  for (const [C, props] of [[HTMLInputElement, ['value', 'checked']], [HTMLTextAreaElement, ['value']],
                            [HTMLSelectElement, ['value', 'selectedIndex']]]) {
    for (const p of props) {
      const d = Object.getOwnPropertyDescriptor(C.prototype, p);
      if (!d || !d.set) continue;
      Object.defineProperty(C.prototype, p, Object.assign({}, d, {set(v) { d.set.call(this, v); soon(false); }}));
    }
  }
  const watch = () => {
    new MutationObserver((list) => {
      if (list.some((m) => !(m.type === 'attributes' && /^data-(eous|cid)/.test(m.attributeName || '')))) soon(false);
    }).observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
    H.check();
  };
  if (document.documentElement) watch(); else document.addEventListener('readystatechange', watch, {once: true});
  document.addEventListener('DOMContentLoaded', () => soon(false));
})();

/* The native provider (owned by perception/native.c): components inferred
 * from standard HTML form controls and the WAI-ARIA APG widget patterns, for
 * pages with no registry.  Included by providers.js; readNative() returns
 * {comps: [{key, kind, label, state, tools, metadata, secret}], warnings}.
 *
 * Each component's root element (every radio of a group) is stamped
 * data-eous-nk="native-N", kept across observations, so perception folds its
 * subtree into one triplet and actions/native_call.js finds it again.
 * Registry components win: nothing inside a data-cid root or portal, or a
 * WebMCP <form toolname>, is inferred; nothing inside data-agent-hidden or
 * hidden by CSS is offered.  Big pages are capped with a count. */
// @include native_combo_text.js
// @include native_link_name.js
// @include native_column_filter.js
// @include native_calendar.js
const readNative = (caps) => {
  const warnings = [], comps = [];
  const MAX_COMPS = caps && caps.maxComps || 300, MAX_SCAN = caps && caps.maxScan || 4000,
    MAX_FORM_FIELDS = caps && caps.maxFormFields || 60, MAX_OPTIONS = 500;
  const squash = s => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  const cut = (s, n) => s.length > n ? s.slice(0, n) : s;
  const registry = el => !!el.closest('[data-cid],[data-cid-owner],form[toolname]');
  const agentHidden = el => !!el.closest('[data-agent-hidden]');
  const shown = el => {
    if (el.hidden || el.closest('[hidden]')) return false;
    if (typeof el.checkVisibility === 'function') return el.checkVisibility({visibilityProperty: true});
    const st = getComputedStyle(el);
    return st.display !== 'none' && st.visibility !== 'hidden' && el.getClientRects().length > 0;
  };
  const SECRET_AC = /^(one-time-code|cc-.*|current-password|new-password)$/;
  const secretOf = el => el.closest('[data-agent-secret]') != null ||
    (el.tagName === 'INPUT' && String(el.type).toLowerCase() === 'password') ||
    SECRET_AC.test(String(el.getAttribute('autocomplete') || '').trim());
  let seq = window.__eous_native_seq__ || 0;
  /* stamps are written after every read: a write between style reads would
   * make each read lay the page out again (a 5,000-field form would hang) */
  const stamps = [], given = new Map();
  const keyOf = (el, all) => {
    if (given.has(el)) return given.get(el);
    let k = el.getAttribute('data-eous-nk');
    if (!k || !/^native-\d+$/.test(k)) { k = 'native-' + (++seq); }
    for (const e of all || [el]) { given.set(e, k); if (e.getAttribute('data-eous-nk') !== k) stamps.push([e, k]); }
    return k;
  };
  const textOf = (el, skip) => {
    let t = '';
    const walk = n => { for (const c of n.childNodes) {
      if (c.nodeType === 3) t += c.data;
      else if (c.nodeType === 1 && c !== skip && !/^(INPUT|SELECT|TEXTAREA|SCRIPT|STYLE)$/.test(c.tagName)) walk(c);
    } };
    walk(el); return squash(t);
  };
  const byIds = (el, attr) => squash((el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)
    .map(i => { const r = document.getElementById(i); return r ? textOf(r) : ''; }).join(' '));
  const labelOf = el => {
    let l = byIds(el, 'aria-labelledby') || squash(el.getAttribute('aria-label'));
    if (!l && el.labels && el.labels.length) l = squash(Array.from(el.labels).map(x => textOf(x, el)).join(' '));
    if (!l) l = squash(el.getAttribute('title') || el.getAttribute('placeholder') || '');
    if (!l && el.tagName === 'INPUT' && /^(submit|button)$/.test(el.type)) l = squash(el.value);
    /* no name/id fallback: a field's label is its accessible name, as the
     * other views and the scripts written against them say it */
    return cut(l.replace(/[\s:*]+$/, ''), 200);
  };
  // HTML's pattern is a JS regular expression matched whole ('v' flag); the
  // C validator takes POSIX ERE, so the common escapes are rewritten, and a
  // pattern that has no POSIX form is shown but left to the page
  const posix = p => {
    let o = '', inCls = false;
    for (let i = 0; i < p.length; i++) {
      const ch = p[i];
      if (ch === '\\' && i + 1 < p.length) {
        const n = p[++i];
        const cls = {d: '0-9', w: 'A-Za-z0-9_', s: ' \\t\\n\\r'}[n];
        if (cls) { o += inCls ? cls : '[' + cls + ']'; continue; }
        if (/[DWSbBpPuxck0-9]/.test(n)) return null;
        o += inCls ? n : '\\' + n; continue;
      }
      if (ch === '(' && p[i + 1] === '?') return null;
      if (ch === '[') inCls = true; else if (ch === ']') inCls = false;
      o += ch;
    }
    return '^(' + o + ')$';
  };
  const patternOf = (el, label) => {
    const p = el.getAttribute('pattern');
    if (p == null || p === '') return null;
    try { new RegExp('^(?:' + p + ')$', 'v'); }
    catch (e) { warnings.push("native: field '" + cut(label, 60) + "' has a pattern that is not a valid regular expression (" +
      cut(String(e && e.message), 120) + "); the browser ignores it, and so is it here"); return null; }
    return posix(p) || {js: p};
  };
  const num = v => { if (v == null || v === '') return null; const n = Number(v); return isFinite(n) ? n : null; };
  const DATE_FMT = {date: 'YYYY-MM-DD', month: 'YYYY-MM', week: 'YYYY-Www', 'datetime-local': 'YYYY-MM-DDTHH:mm', time: 'HH:mm'};
  const KIND = {date: 'date', month: 'month', week: 'week', 'datetime-local': 'datetime', time: 'time', number: 'number',
    range: 'slider', email: 'textbox', url: 'textbox', tel: 'textbox', text: 'textbox', search: 'searchbox',
    password: 'textbox', checkbox: 'checkbox', radio: 'radiogroup', file: 'file'};
  const SKIP_TYPES = /^(hidden|submit|button|reset|image|color)$/;

  // One field: its kind, the spec its value takes (M), its state (S).
  const fieldOf = el => {
    const tag = el.tagName, type = tag === 'INPUT' ? String(el.type).toLowerCase() : tag.toLowerCase();
    const label = labelOf(el), secret = secretOf(el), req = el.required || el.getAttribute('aria-required') === 'true';
    const spec = {type: 'string'}, state = {};
    /* kinds are the AX roles where they name the control (a textarea is a textbox) */
    let kind = tag === 'SELECT' ? 'select' : tag === 'TEXTAREA' ? 'textbox' : (KIND[type] || 'textbox');
    /* a secret field keeps its role's kind (scripts name it "textbox 'Password'"); its state says secret */
    if (secret) state.secret = true;
    let tools = ['setValue', 'clear'];
    if (tag === 'SELECT') {
      const opts = Array.from(el.options).slice(0, MAX_OPTIONS).filter(o => !o.disabled);
      const labels = opts.map(o => squash(o.label || o.text));
      const uniq = new Set(labels).size === labels.length && labels.every(Boolean);
      const en = uniq ? labels : opts.map(o => o.value);
      if (el.options.length > MAX_OPTIONS) warnings.push("native: select '" + cut(label, 60) + "' has " + el.options.length +
        ' options; the first ' + MAX_OPTIONS + ' are offered');
      if (el.multiple) { spec.type = 'array'; spec.items = {type: 'string', enum: en}; tools = ['select', 'clear']; state.multiple = true;
        state.value = Array.from(el.selectedOptions).map(o => squash(o.label || o.text)); }
      else { spec.enum = en; tools = ['select'];
        const so = el.selectedOptions[0]; state.value = so ? squash(so.label || so.text) : ''; }
      return {el, kind, label, secret, spec, state, tools, req, param: el.multiple ? 'options' : 'option'};
    }
    if (type === 'checkbox') {
      state.checked = el.checked;
      /* true|false spelled out: the values a model sends, seen on the line */
      return {el, kind, label, secret, spec: {type: 'boolean', enum: [true, false]}, state, tools: ['check', 'uncheck'], req};
    }
    if (type === 'file') {
      if (el.accept) state.accept = el.accept;
      if (el.multiple) state.multiple = true;
      state.files = el.files ? el.files.length : 0;
      /* upload(files): names in --files DIR only (actions/native_upload.c) */
      return {el, kind, label, secret, spec: null, state, tools: el.disabled ? [] : ['upload'], req};
    }
    if (DATE_FMT[type]) {
      let f = DATE_FMT[type];
      const st = num(el.getAttribute('step'));
      if ((type === 'time' || type === 'datetime-local') && st != null && st % 60) f += ':ss';
      spec.format = f;
      if (type === 'week') spec.pattern = '^[0-9]{4}-W[0-9]{2}$';
      const mn = el.getAttribute('min'), mx = el.getAttribute('max');
      if (mn) spec.min = mn;
      if (mx) spec.max = mx;
      if (st != null && st !== 1 && type === 'date') spec.stepDays = st;
    } else if (type === 'number' || type === 'range' || el.getAttribute('role') === 'spinbutton') {
      /* an ARIA spinbutton (antd's InputNumber: a text input) says its limits in aria-valuemin/max */
      const spin = type !== 'number' && type !== 'range';
      if (spin) kind = 'number';
      spec.type = 'number';
      const mn = num(el.getAttribute(spin ? 'aria-valuemin' : 'min')), mx = num(el.getAttribute(spin ? 'aria-valuemax' : 'max'));
      const st = el.getAttribute('step');
      if (mn != null) spec.min = mn; else if (type === 'range') spec.min = 0;
      if (mx != null) spec.max = mx; else if (type === 'range') spec.max = 100;
      if (st !== 'any' && num(st) != null && num(st) !== 1) spec.step = num(st);
      else if (st !== 'any' && (mn == null || Number.isInteger(mn))) spec.type = 'integer';
      if (type === 'range') tools = ['setValue'];
    } else {
      if (type === 'email') spec.format = 'email';
      if (type === 'url') spec.format = 'url';
      const p = patternOf(el, label);
      if (typeof p === 'string') spec.pattern = p; else if (p) spec.jsPattern = p.js;
    }
    const mnl = num(el.getAttribute('minlength')), mxl = num(el.getAttribute('maxlength'));
    if (mnl != null && mnl > 0) spec.minLength = mnl;
    if (mxl != null && mxl >= 0) spec.maxLength = mxl;
    if (secret) state.filled = el.value !== '';
    else if (tag === 'TEXTAREA') { state.multiline = true; /* its lines print beneath, as in the pruned view */
      /* a long text is edited where it changes, as text editors' replace tools do: no retyping the rest */
      tools = ['setValue', 'clear', 'replace']; }
    else if (el.value !== '') state.value = cut(String(el.value), 400);
    if (el.readOnly) { state.readonly = true; tools = []; }
    return {el, kind, label, secret, spec, state, tools, req, param: 'value'};
  };

  const push = c => { if (comps.length >= MAX_COMPS) { capped++; return false; } comps.push(c); return true; };
  let capped = 0;
  const meta1 = (f) => {
    const m = {};
    if (f.kind === 'file' && f.tools.length)
      return {upload: {params: {files: {type: 'array', items: {type: 'string'}, required: true,
        ...(f.state.multiple ? {} : {maxItems: 1})}}}};
    if (!f.spec) return m;
    const s = Object.assign({}, f.spec); s.required = true; /* the tool's argument; the field's own required is state */
    for (const t of f.tools) {
      if (t === 'setValue' || t === 'select') m[t] = {params: {[f.param || 'value']: s}};
      else if (t === 'replace') m[t] = {params: {find: {type: 'string', minLength: 1, required: true},
        with: {type: 'string', required: true}}};
      else m[t] = {params: {}};
    }
    return m;
  };
  const fieldComp = (f, all) => {
    const st = Object.assign({}, f.state);
    if (f.req) st.required = true;
    if (f.el.disabled) st.disabled = true;
    if (f.spec && f.spec.jsPattern) st.pattern = '/' + cut(f.spec.jsPattern, 80) + '/ (checked by the page)';
    try { if (f.el.willValidate && !f.el.validity.valid && (f.el.value !== '' || f.el.checked)) st.invalid = cut(f.el.validationMessage, 160); } catch (e) {}
    return {key: keyOf(f.el, all), kind: f.kind, label: f.label, state: st, tools: f.el.disabled ? [] : f.tools,
      metadata: meta1(f), secret: f.secret, disabled: !!f.el.disabled};
  };

  // ---- form controls (radio groups by name, within their form) ----
  const all = document.querySelectorAll('input,select,textarea');
  if (all.length > MAX_SCAN) warnings.push('native: the page has ' + all.length + ' form fields; the first ' + MAX_SCAN + ' are read');
  const fieldsByForm = new Map();
  let nFields = 0, overFields = 0;
  const radioGroups = new Map();
  const seenForm = new Set();
  for (let i = 0; i < all.length && i < MAX_SCAN; i++) {
    const el = all[i];
    const type = el.tagName === 'INPUT' ? String(el.type).toLowerCase() : '';
    /* an APG combobox's input is the combobox below, not a plain field */
    if (SKIP_TYPES.test(type) || registry(el) || agentHidden(el) || el.getAttribute('role') === 'combobox') continue;
    if (type === 'radio') {
      const gk = (el.form ? 'f' : 'd') + '|' + el.name;
      if (!el.name) { if (shown(el)) radioGroups.set('#' + i, [el]); continue; }
      if (!radioGroups.has(gk)) radioGroups.set(gk, []);
      radioGroups.get(gk).push(el);
      continue;
    }
    if (!shown(el)) continue;
    if (++nFields > MAX_COMPS * 2) { overFields++; continue; } /* counted, not read */
    const f = fieldOf(el);
    const list = fieldsByForm.get(el.form) || [];
    fieldsByForm.set(el.form, list);
    list.push(f);
  }
  for (const [, radios] of radioGroups) {
    const vis = radios.filter(shown);
    if (!vis.length) continue;
    const first = vis[0];
    const fs = first.closest('fieldset');
    const rg = first.closest('[role=radiogroup]');
    let label = '';
    if (rg) label = byIds(rg, 'aria-labelledby') || squash(rg.getAttribute('aria-label'));
    /* a group that a <label for> names by its id (antd's Form.Item labels its Radio.Group so) */
    const grp = rg || fs;
    if (!label && grp && grp.id) { const l = document.querySelector('label[for="' + CSS.escape(grp.id) + '"]'); if (l) label = textOf(l); }
    if (!label && fs && vis.every(r => fs.contains(r)) && fs.querySelector('legend')) label = textOf(fs.querySelector('legend'));
    if (!label) label = squash(first.name);
    const opts = vis.map(r => labelOf(r));
    const uniq = new Set(opts).size === opts.length && opts.every(Boolean);
    const en = uniq ? opts : vis.map(r => r.value);
    const checked = vis.find(r => r.checked);
    const f = {el: first, all: vis, kind: 'radiogroup', label: cut(label.replace(/[\s:*]+$/, ''), 200), secret: false,
      spec: {type: 'string', enum: en}, state: {value: checked ? en[vis.indexOf(checked)] : ''}, tools: ['select'],
      req: vis.some(r => r.required), param: 'option'};
    const list = fieldsByForm.get(first.form) || [];
    fieldsByForm.set(first.form, list);
    list.push(f);
  }
  // document order inside each form
  const order = (a, b) => a.el === b.el ? 0 : (a.el.compareDocumentPosition(b.el) & 4 ? -1 : 1);
  const forms = Array.from(fieldsByForm.keys()).filter(Boolean).sort((a, b) => a === b ? 0 : (a.compareDocumentPosition(b) & 4 ? -1 : 1));
  for (const form of forms) {
    if (registry(form) || agentHidden(form) || !shown(form)) continue;
    const fields = fieldsByForm.get(form).sort(order);
    const withTools = fields.filter(f => f.spec && f.tools.length && !f.el.disabled);
    const names = new Map();
    for (const f of withTools) { const n = f.label || f.el.name || 'field'; names.set(n, (names.get(n) || 0) + 1); }
    const params = {}, used = new Map(), requiredNames = [];
    let n = 0;
    for (const f of withTools) {
      if (n >= MAX_FORM_FIELDS) break;
      let name = f.label || f.el.name || 'field';
      if (names.get(name) > 1) { const k = (used.get(name) || 0) + 1; used.set(name, k); name = name + ' #' + k; }
      f.formName = name;
      /* fill() may set some fields and leave the rest: what the browser
       * requires to submit is the form's state, and submit's check */
      params[name] = Object.assign({}, f.spec);
      if (f.req) requiredNames.push(name);
      n++;
    }
    const state = {};
    if (requiredNames.length) state.required = requiredNames;
    /* what the fields hold, on the form's own line (the hybrid view folds the
     * fields' lines into it): non-empty values, a secret only as filled, a
     * textarea's lines print beneath, a checkbox only when checked */
    const values = {}, invalid = [], suggests = [];
    for (const f of withTools.slice(0, n)) {
      const st = f.state;
      if (f.secret) { if (st.filled) values[f.formName] = 'filled (secret)'; }
      else if (st.checked === true) values[f.formName] = true;
      else if (Array.isArray(st.value) ? st.value.length : st.value != null && st.value !== '' && typeof st.value !== 'boolean')
        values[f.formName] = st.value;
      /* a checkbox's value is "on" whether checked or not: an unchecked required one is in required, not invalid */
      const entered = /^(checkbox|radio)$/.test(f.el.type) ? f.el.checked : f.el.value !== '';
      try { if (f.el.willValidate && !f.el.validity.valid && entered) invalid.push(f.formName + ': ' + cut(f.el.validationMessage, 120)); } catch (e) {}
      /* a field's <datalist> suggestions: the browser's popup of them is no page element, so neither
       * a click nor the accessibility tree reaches them; the view says them, as values fill() takes */
      const dl = !f.secret && f.el.tagName === 'INPUT' && f.el.list ? Array.from(f.el.list.options)
        .filter(o => !o.disabled).map(o => squash(o.value)).filter(Boolean) : [];
      if (dl.length) suggests.push(f.formName + ': ' + dl.slice(0, 20).map(o => cut(o, 60)).join(' | ') + (dl.length > 20 ? ' …' : ''));
    }
    if (Object.keys(values).length) state.values = values;
    if (invalid.length) state.invalid = invalid.join('; ');
    if (suggests.length) state.suggests = suggests.join('; ');
    if (withTools.length > n) { state.fields = withTools.length; state.shownInFill = n;
      warnings.push('native: form \'' + cut(labelOf(form) || 'form', 60) + "' has " + withTools.length + ' fields; fill() takes the first ' + n); }
    const submitter = form.querySelector('button:not([type]),button[type=submit],input[type=submit],input[type=image]') ||
      (form.getAttribute('id') ? document.querySelector('button[form="' + CSS.escape(form.getAttribute('id')) + '"]:not([type=button]):not([type=reset]),input[type=submit][form="' + CSS.escape(form.getAttribute('id')) + '"]') : null);
    if (submitter) state.submit = cut(labelOf(submitter) || textOf(submitter), 80);
    /* attributes, not properties: a form's .id is its field named "id" */
    let flabel = squash(form.getAttribute('aria-label')) || byIds(form, 'aria-labelledby');
    if (!flabel) { const h = form.querySelector('legend,h1,h2,h3,h4'); if (h) flabel = textOf(h); }
    if (!flabel) flabel = state.submit || squash(form.getAttribute('name') || form.getAttribute('id') || '') || 'form';
    const fkey = keyOf(form);
    seenForm.add(form);
    /* submit() takes fill()'s fields too, all optional: a whole form is one call */
    const optional = Object.fromEntries(Object.entries(params).map(([k, v]) => { const o = Object.assign({}, v); delete o.required; return [k, o]; }));
    const fieldKeys = Object.fromEntries(withTools.slice(0, n).map(f => [f.formName, keyOf(f.el, f.all)]));
    /* click(field): a field folded into this line has no id of its own, and a picker (a calendar, a
     * list of suggestions) shows what it offers only once a person clicks into it */
    const metadata = {fill: {params, fields: fieldKeys}, submit: n ? {params: optional, sameAs: 'fill'} : {params: {}}};
    if (n) metadata.click = {params: {field: {type: 'string', required: true}}};
    push({key: fkey, kind: 'form', label: cut(flabel, 200), state, tools: n ? ['fill', 'submit', 'click'] : ['fill', 'submit'],
      metadata});
  }
  for (const [form, fields] of fieldsByForm) {
    if (form) continue; /* a form's own fields follow it below; a form a registry owns has none */
    for (const f of fields) if (!push(fieldComp(f, f.all))) break;
  }
  for (const form of seenForm) for (const f of fieldsByForm.get(form)) if (!push(fieldComp(f, f.all))) break;

  // ---- WAI-ARIA APG widgets ----
  const ariaOK = el => !registry(el) && !agentHidden(el) && shown(el);
  const nameOf = el => cut(byIds(el, 'aria-labelledby') || squash(el.getAttribute('aria-label')) || textOf(el), 120);
  // tabs: a tablist and its tabs; select(tab)
  for (const tl of document.querySelectorAll('[role=tablist]')) {
    if (!ariaOK(tl)) continue;
    const tabs = Array.from(tl.querySelectorAll('[role=tab]')).filter(t => t.closest('[role=tablist]') === tl && shown(t));
    if (!tabs.length) continue;
    const en = tabs.map(nameOf);
    const sel = tabs.find(t => t.getAttribute('aria-selected') === 'true');
    push({key: keyOf(tl), kind: 'tabs', label: nameOf(tl) && (tl.getAttribute('aria-label') || tl.getAttribute('aria-labelledby')) ? nameOf(tl) : 'tabs',
      state: {selected: sel ? nameOf(sel) : ''}, tools: ['select'], metadata: {select: {params: {tab: {type: 'string', enum: en, required: true}}}}});
  }
  // combobox with a listbox popup (APG): setValue(text) types, select(option) picks from the popup;
  // expand() opens a closed one whose options are not listed (a page renders them when it opens),
  // after which its line lists them
  const openable = state => !state.expanded && !state.options;
  for (const cb of document.querySelectorAll('[role=combobox]')) {
    if (!ariaOK(cb) || cb.tagName === 'SELECT') continue;
    const input = cb.matches('input,textarea') ? cb : cb.querySelector('input');
    const lbId = cb.getAttribute('aria-controls') || cb.getAttribute('aria-owns');
    const lb = lbId ? document.getElementById(lbId) : null;
    /* the options it offers now: a popup that filters by the typed text hides the rest (OOUI's
     * ComboBoxInputWidget), which the accessibility tree and a person do not see either */
    const opts = lb ? Array.from(lb.querySelectorAll('[role=option]')).filter(shown).map(nameOf) : [];
    const spec = {type: 'string', required: true};
    /* several choices: what is chosen is a list, select(option) adds one, deselect(option) takes one
     * off (as native_call.js reads them back); a single choice shows its value */
    if (nativeComboMulti(cb, lb)) {
      const tags = [];
      const chosen = nativeComboChosen(cb, input, lb, tags).slice(0, 50).map(c => cut(c, 120));
      const state = {selected: chosen, expanded: cb.getAttribute('aria-expanded') === 'true'};
      if (opts.length && shown(lb)) state.options = opts.slice(0, 50);
      /* deselect's option is one of `selected` (printed once, there; the tool says what is not) */
      const metadata = {select: {params: {option: spec}}};
      if (chosen.length) metadata.deselect = {params: {option: spec}};
      /* the tags carry its key too: their text is folded into its line, not printed again */
      push({key: keyOf(cb, [cb, ...tags.filter(t => !t.contains(cb))]), kind: 'combobox', label: labelOf(input || cb), state,
        tools: (chosen.length ? ['select', 'deselect'] : ['select']).concat(openable(state) ? ['expand'] : []), metadata});
      continue;
    }
    /* what the combobox shows as its value, as native_call.js reads it back */
    const val = input && input.value ? String(input.value) : squash(nativeComboText(cb, input, false));
    const state = {value: cut(val, 200), expanded: cb.getAttribute('aria-expanded') === 'true'};
    if (opts.length && shown(lb)) state.options = opts.slice(0, 50);
    /* its name without the value it holds: an id aria-labelledby gives inside the combobox or its popup
     * names its choice (OOUI's handle: the field's label and its own choice; jQuery UI's selectmenu: the
     * option chosen), so the label stays the same when the value changes and the value prints once */
    const ids = (cb.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    const inValue = i => { const r = document.getElementById(i); return !!r && (cb.contains(r) || !!(lb && lb.contains(r))); };
    const nameIds = ids.filter(i => !inValue(i));
    let label = !input && nameIds.length < ids.length ?
      cut(squash(nameIds.map(i => textOf(document.getElementById(i))).join(' ')).replace(/[\s:*]+$/, ''), 200) || cut(squash(cb.getAttribute('aria-label')), 200) :
      labelOf(input || cb);
    /* a <label for> pointed at a span (jQuery UI's selectmenu points its select's label at its button) */
    const forLabel = !label && !input && cb.id ? document.querySelector('label[for="' + CSS.escape(cb.id) + '"]') : null;
    if (forLabel) label = cut(textOf(forLabel).replace(/[\s:*]+$/, ''), 200);
    push({key: keyOf(cb), kind: 'combobox', label, state,
      tools: ['select', 'setValue'].concat(openable(state) ? ['expand'] : []),
      metadata: {select: {params: {option: spec}}, setValue: {params: {value: {type: 'string', required: true}}}}});
  }
  // slider (APG): an element with role=slider and its aria-value*; setValue(value) by the keys the pattern binds
  for (const sl of document.querySelectorAll('[role=slider]')) {
    if (!ariaOK(sl) || sl.tagName === 'INPUT') continue;
    const mn = num(sl.getAttribute('aria-valuemin')), mx = num(sl.getAttribute('aria-valuemax'));
    let label = byIds(sl, 'aria-labelledby') || squash(sl.getAttribute('aria-label'));
    /* a widget whose root a <label for> names (antd's Form.Item labels its Slider's root by id) */
    for (let e = sl, i = 0; !label && e && i < 4; e = e.parentElement, i++)
      if (e.id) { const l = document.querySelector('label[for="' + CSS.escape(e.id) + '"]'); if (l) label = textOf(l); }
    const spec = {type: 'number', required: true};
    if (mn != null) spec.min = mn;
    if (mx != null) spec.max = mx;
    const state = {value: num(sl.getAttribute('aria-valuenow'))};
    if (sl.getAttribute('aria-valuetext')) state.valuetext = cut(squash(sl.getAttribute('aria-valuetext')), 80);
    const off = sl.getAttribute('aria-disabled') === 'true';
    push({key: keyOf(sl), kind: 'slider', label: cut(label.replace(/[\s:*]+$/, ''), 200) || 'slider', state, tools: off ? [] : ['setValue'],
      metadata: {setValue: {params: {value: spec}}}, disabled: off});
  }
  // listbox (not a combobox's popup): select(option)
  for (const lb of document.querySelectorAll('[role=listbox]')) {
    if (!ariaOK(lb) || lb.tagName === 'SELECT' || lb.id && document.querySelector('[role=combobox][aria-controls="' + CSS.escape(lb.id) + '"],[role=combobox][aria-owns="' + CSS.escape(lb.id) + '"]')) continue;
    const opts = Array.from(lb.querySelectorAll('[role=option]')).filter(shown);
    if (!opts.length) continue;
    const en = opts.map(nameOf), multi = lb.getAttribute('aria-multiselectable') === 'true';
    const sel = opts.filter(o => o.getAttribute('aria-selected') === 'true').map(nameOf);
    push({key: keyOf(lb), kind: 'listbox', label: labelOf(lb), state: {value: multi ? sel : (sel[0] || '')}, tools: ['select'],
      metadata: {select: {params: {option: {type: 'string', enum: en, required: true}}}}});
  }
  // disclosure and accordion: a button with aria-expanded and aria-controls
  for (const b of document.querySelectorAll('button[aria-expanded][aria-controls],[role=button][aria-expanded][aria-controls]')) {
    if (!ariaOK(b) || b.getAttribute('role') === 'combobox') continue;
    push({key: keyOf(b), kind: 'disclosure', label: nameOf(b), state: {open: b.getAttribute('aria-expanded') === 'true'},
      tools: ['expand', 'collapse'], metadata: {expand: {params: {}}, collapse: {params: {}}}});
  }
  // dialog: close()
  for (const d of document.querySelectorAll('dialog[open],[role=dialog],[role=alertdialog]')) {
    if (!ariaOK(d)) continue;
    push({key: keyOf(d), kind: 'dialog', label: labelOf(d) !== d.id ? labelOf(d) : (d.querySelector('h1,h2,h3') ? textOf(d.querySelector('h1,h2,h3')) : 'dialog'),
      state: {modal: d.getAttribute('aria-modal') === 'true' || (d.tagName === 'DIALOG' && d.matches(':modal'))}, tools: ['close'], metadata: {close: {params: {}}}});
  }
  // table or grid with sortable columns (APG sortable table): sort(column, direction); with filter
  // buttons in its column headers (a menu of values each, as Ant Design's Table): filter(column, values)
  for (const t of document.querySelectorAll('table,[role=grid],[role=table],[role=treegrid]')) {
    if (!ariaOK(t)) continue;
    const heads = Array.from(t.querySelectorAll('th,[role=columnheader]')).filter(h => h.closest('table,[role=grid],[role=table],[role=treegrid]') === t);
    const trigger = new Map(heads.map(h => [h, nativeFilterTrigger(h)]));
    const filters = heads.filter(h => trigger.get(h) && shown(trigger.get(h)));
    const sorts = heads.some(h => h.hasAttribute('aria-sort'));
    if (!sorts && !filters.length) continue;
    const state = {}, tools = [], metadata = {};
    if (sorts) {
      const sortable = heads.filter(h => h.hasAttribute('aria-sort') ||
        Array.from(h.querySelectorAll('button,[role=button]')).some(b => b !== trigger.get(h)));
      const cols = sortable.map(h => nameOf(h).replace(/[▲▼↑↓]/g, '').trim());
      const cur = sortable.find(h => /^(ascending|descending)$/.test(h.getAttribute('aria-sort')));
      if (cur) state.sorted = nameOf(cur).replace(/[▲▼↑↓]/g, '').trim() + ' ' + cur.getAttribute('aria-sort');
      tools.push('sort');
      metadata.sort = {params: {column: {type: 'string', enum: cols, required: true},
        direction: {type: 'string', enum: ['ascending', 'descending'], required: true}}};
    }
    if (filters.length) {
      tools.push('filter');
      metadata.filter = {params: {column: {type: 'string', enum: filters.map(nativeColumnName), required: true},
        values: {type: 'array', items: {type: 'string'}, required: true}}};
    }
    const cap = t.querySelector('caption');
    push({key: keyOf(t), kind: sorts ? 'sortable' : 'table', label: labelOf(t) || (cap ? textOf(cap) : ''), state, tools, metadata});
  }
  // a date picker's month calendar (native_calendar.js): select(date), a day it shows that is not
  // disabled; the days it shows are select()'s limits, the disabled ones between them its "not"
  for (const t of document.querySelectorAll('table,[role=grid]')) {
    if (!ariaOK(t)) continue;
    const days = nativeCalendarDays(t);
    if (!days) continue;
    const open = days.filter(d => !d.off);
    const month = days[0].date.slice(0, 7);
    const label = NATIVE_MONTHS[Number(month.slice(5)) - 1].replace(/^./, c => c.toUpperCase()) + ' ' + month.slice(0, 4);
    const state = {};
    const on = days.find(d => d.on);
    if (on) state.selected = on.date;
    if (!open.length) state.days = 'every day of the month is disabled';
    const spec = {type: 'string', format: 'YYYY-MM-DD', required: true};
    if (open.length) { spec.min = open[0].date; spec.max = open[open.length - 1].date; }
    /* the disabled days between the first and the last that can be chosen, runs of them as ranges */
    const gaps = [];
    for (const d of days) {
      if (!d.off || !open.length || d.date < spec.min || d.date > spec.max) continue;
      const last = gaps[gaps.length - 1], prev = days[days.indexOf(d) - 1];
      if (last && prev && prev.off && (last.to || last) === prev.date) gaps[gaps.length - 1] = {from: last.from || last, to: d.date};
      else gaps.push(d.date);
    }
    if (gaps.length) spec.disabled = gaps;
    push({key: keyOf(t), kind: 'calendar', label, state, tools: open.length ? ['select'] : [],
      metadata: open.length ? {select: {params: {date: spec}}} : {}});
  }
  // tree (APG treeview): expand(item), collapse(item), select(item)
  for (const tr of document.querySelectorAll('[role=tree]')) {
    if (!ariaOK(tr)) continue;
    const items = Array.from(tr.querySelectorAll('[role=treeitem]')).filter(shown).slice(0, 200);
    if (!items.length) continue;
    const own = it => { const g = it.querySelector('[role=group]'); let t = '';
      for (const c of it.childNodes) if (c !== g) t += c.nodeType === 3 ? c.data : (c.nodeType === 1 ? c.textContent : '');
      return cut(squash(it.getAttribute('aria-label') || t), 120); };
    const names = items.map(own);
    const parents = items.filter(i => i.hasAttribute('aria-expanded')).map(own);
    const sel = items.filter(i => i.getAttribute('aria-selected') === 'true').map(own);
    const state = {expanded: items.filter(i => i.getAttribute('aria-expanded') === 'true').map(own)};
    if (sel.length) state.selected = sel.length === 1 ? sel[0] : sel;
    const md = {select: {params: {item: {type: 'string', enum: names, required: true}}}};
    const tools = ['select'];
    if (parents.length) { tools.unshift('expand', 'collapse');
      md.expand = {params: {item: {type: 'string', enum: parents, required: true}}};
      md.collapse = {params: {item: {type: 'string', enum: parents, required: true}}}; }
    push({key: keyOf(tr), kind: 'tree', label: labelOf(tr), state, tools, metadata: md});
  }
  // numbered pagination: a navigation landmark, or a list whose class or
  // label says pagination, of page numbers: goToPage(page), and next() and
  // previous() where it has those links (rel, label or title "Next"/"Previous")
  const pagers = new Set();
  for (const nav of document.querySelectorAll('nav,[role=navigation],ul,ol,[role=list]')) {
    const said = (nav.getAttribute('aria-label') || '') + ' ' + (typeof nav.className === 'string' ? nav.className : '');
    if (!/pag(e|ination|er)/i.test(said) || !ariaOK(nav)) continue;
    if (Array.from(pagers).some(p => p.contains(nav) || nav.contains(p))) continue;
    let links = Array.from(nav.querySelectorAll('a,button,[role=link],[role=button]'))
      .filter(a => shown(a) && /^\d+$/.test(squash(a.textContent)));
    /* a list item that is the page's link itself (no a or button inside) */
    if (links.length < 2) links = Array.from(nav.querySelectorAll('li')).filter(li => shown(li) && /^\d+$/.test(squash(li.textContent)));
    if (links.length < 2) continue;
    pagers.add(nav);
    const nums = links.map(a => Number(squash(a.textContent)));
    const cur = nav.querySelector('[aria-current=page],[aria-current=true]') ||
      links.map(a => a.closest('li') || a).find(e => /(^|[-_ ])(active|current|selected)\b/.test(typeof e.className === 'string' ? e.className : ''));
    const state = {pages: Math.min(...nums) + '..' + Math.max(...nums)};
    if (cur && /^\d+$/.test(squash(cur.textContent))) state.current = Number(squash(cur.textContent));
    const md = {goToPage: {params: {page: {type: 'integer', enum: nums, required: true}}}};
    const tools = ['goToPage'];
    for (const [tool, re] of [['next', /^next( page)?$/i], ['previous', /^prev(ious)?( page)?$/i]]) {
      const step = Array.from(nav.querySelectorAll('a,button,li,[role=link],[role=button]')).find(e => shown(e) &&
        (e.getAttribute('rel') === tool.replace('previous', 'prev') || re.test(squash(e.getAttribute('aria-label') || '')) ||
         re.test(squash(e.getAttribute('title') || '')) || re.test(squash(e.textContent))));
      if (!step) continue;
      const off = step.getAttribute('aria-disabled') === 'true' || step.disabled ||
        !!step.querySelector('[disabled]') && !step.querySelector('button:not([disabled]),a');
      if (off) { state[tool] = 'disabled'; continue; }
      tools.push(tool); md[tool] = {params: {}};
    }
    push({key: keyOf(nav), kind: 'pagination', label: labelOf(nav) || 'pagination', state, tools, metadata: md});
  }
  // a group of links (a navigation, a list of links, a row of badges): open(link) by name.  Each
  // item is a link alone, or a list item (or wrapper) holding one link and no other text; 3 to 15
  // items with distinct names, nothing else in the container but white space and hidden elements.
  // A navigation or wrapper whose only other content is its heading folds in with it (its label).
  // Links of a table, form or other widget stay theirs; a table of contents (every link to a place
  // on this page) stays as lines, which the hybrid view already leaves out where they repeat a heading.
  const LINKS = 'a[href],[role=link]', MIN_LINKS = 3, MAX_LINKS = 15;
  const WIDGET = 'table,form,[role=menu],[role=menubar],[role=tablist],[role=listbox],[role=tree],[role=grid],' +
    '[role=treegrid],[role=toolbar],[role=dialog],[role=alertdialog],dialog';
  const blank = n => n.nodeType === 3 ? !n.data.trim() : n.nodeType === 8;
  const inPage = a => {
    const h = a.getAttribute('href') || '';
    if (h.startsWith('#')) return true;
    try { const u = new URL(a.href, location.href);
      return !!u.hash && u.origin + u.pathname + u.search === location.origin + location.pathname + location.search;
    } catch (e) { return false; }
  };
  const groups = new Map(), before = new Map();
  let nLinks = 0, prevLink = null;
  for (const a of document.querySelectorAll(LINKS)) {
    if (++nLinks > MAX_SCAN) break;
    before.set(a, prevLink);
    prevLink = a;
    let item = a;
    /* up through wrappers that hold this link alone (li > div.li > a, bdi > a) */
    for (let i = 0; i < 3 && item.parentElement && item.parentElement !== document.body; i++) {
      const p = item.parentElement;
      /* siblings first: in a list of links the first one holds a link, so each link costs a step or two */
      let alone = true;
      for (let n = p.firstChild; n && alone; n = n.nextSibling)
        alone = n === item || blank(n) || n.nodeType === 1 && !n.matches(LINKS) && !n.querySelector(LINKS) && !squash(n.textContent);
      if (!alone || p.querySelector('button,input,select,textarea,[role=button]')) break;
      item = p;
      if (/^(LI|DT|DD)$/.test(p.tagName) || p.getAttribute('role') === 'listitem') break;
    }
    const box = item.parentElement;
    if (!box) continue;
    if (!groups.has(box)) groups.set(box, []);
    groups.get(box).push({a, item});
  }
  for (const [box, list] of groups) {
    if (list.length < MIN_LINKS || list.length > MAX_LINKS || box === document.body) continue;
    if (!ariaOK(box) || box.closest(WIDGET) || list.some(x => !shown(x.item))) continue;
    const items = new Set(list.map(x => x.item));
    if (!Array.from(box.childNodes).every(n => items.has(n) || blank(n) || n.nodeType === 1 &&
        (/^(SCRIPT|STYLE|TEMPLATE)$/.test(n.tagName) || !shown(n) && !n.querySelector(LINKS)))) continue;
    const names = list.map(x => cut(nativeLinkName(x.a), 120));
    if (names.some(n => !n || n.includes('|')) || new Set(names).size !== names.length) continue;
    /* a first badge linking where the link just above it does, by the same name (DokuWiki's license):
     * that link opens it already, as the hybrid view says of such a badge */
    const up = before.get(list[0].a);
    if (up && !items.has(up) && !box.contains(up) && up.href === list[0].a.href && nativeLinkName(up) === names[0]) names.shift();
    if (list.every(x => inPage(x.a))) continue;
    let root = box;
    const heads = [];
    for (let i = 0; i < 3; i++) {
      const p = root.parentElement;
      if (!p || p === document.body || /^(MAIN|HEADER|FOOTER|ASIDE|ARTICLE|SECTION)$/.test(p.tagName) || !ariaOK(p)) break;
      const others = Array.from(p.childNodes).filter(n => n !== root && !blank(n) &&
        !(n.nodeType === 1 && (/^(SCRIPT|STYLE|TEMPLATE)$/.test(n.tagName) || !shown(n) && !n.querySelector(LINKS))));
      if (!others.every(n => n.nodeType === 1 && n.matches('h1,h2,h3,h4,h5,h6,[role=heading]'))) break;
      heads.push(...others);
      root = p;
      if (p.matches('nav,[role=navigation]')) break;
    }
    if (Array.from(given.keys()).some(e => e.contains(root) || root.contains(e))) continue;
    const label = byIds(root, 'aria-labelledby') || squash(root.getAttribute('aria-label')) ||
      squash(heads.map(h => textOf(h)).join(' '));
    if (!push({key: keyOf(root), kind: 'links', label: cut(label, 120), state: {}, tools: ['open'],
      metadata: {open: {params: {link: {type: 'string', enum: names, required: true}}}}})) break;
  }
  if (overFields) warnings.push('native: ' + overFields + ' more form fields than the ' + MAX_COMPS * 2 + ' read');
  if (capped) warnings.push('native: ' + capped + ' more components inferred than the ' + MAX_COMPS + ' shown');
  for (const [e, k] of stamps) e.setAttribute('data-eous-nk', k);
  window.__eous_native_seq__ = seq;
  return {comps, warnings};
};

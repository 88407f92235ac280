// perception/axtree.js — the accessibility tree computed inside the page, for
// WebDriver endpoints without CDP (plain W3C: geckodriver, Safari, grids that
// strip goog/cdp).  Compiled into eous as a C string (see CMakeLists.txt) and
// run with one Execute Script call.
//
// It answers in the shapes the CDP path already parses, so the views do not
// know which path fed them:
//   frames: [{frame, owner, ax: {nodes: [AXNode...]}}]   (getFullAXTree shape)
//   snap:   {documents: [{nodes: {parentIndex, backendNodeId, nodeName,
//            attributes}}], strings: [...]}                (DOMSnapshot shape)
// "Backend ids" are numbers this script gives DOM nodes and keeps in
// window.__eous_ax__ (a WeakMap, so ids stay stable while a node lives); the
// actions layer finds elements back through __eous_ax__.byId.
//
// Roles and names follow HTML-AAM and accname in the simplified form that
// matters to an agent (explicit role, implicit role by tag, aria-labelledby,
// aria-label, labels, alt, name from content, title, placeholder), with
// Chromium's role spellings so the views read the same on both paths.
// Open shadow roots are walked in place of their host's light children (slots
// expanded); same-origin iframes become child frames; cross-origin frames
// are reported in `warnings` and perceived without their content.
return (function (maxNodes, visHidden) {
  const top = window;
  const reg = top.__eous_ax__ || (top.__eous_ax__ = { ids: new WeakMap(), next: 1, byId: new Map() });
  reg.byId = new Map();
  const idOf = (n) => {
    let id = reg.ids.get(n);
    if (!id) { id = reg.next++; reg.ids.set(n, id); }
    reg.byId.set(id, new WeakRef(n));
    return id;
  };
  const warnings = [];
  // text a person cannot see (perception/vis_hidden.js, via w3c_observe.js):
  // element -> 1 (nothing in it is page text) | 2 (its own text is not)
  const vh = visHidden instanceof Map ? visHidden : new Map();
  let budget = maxNodes > 0 ? maxNodes : 200000;
  let truncated = false;

  const IMPLICIT = {
    A: (e) => e.hasAttribute('href') ? 'link' : 'generic', AREA: (e) => e.hasAttribute('href') ? 'link' : 'generic',
    ARTICLE: 'article', ASIDE: 'complementary', BLOCKQUOTE: 'blockquote', BUTTON: 'button', CAPTION: 'caption',
    CODE: 'code', DD: 'definition', DEL: 'deletion', DETAILS: 'group', DFN: 'term', DIALOG: 'dialog',
    DL: 'list', DT: 'term', EM: 'emphasis', FIELDSET: 'group', FIGCAPTION: 'Figcaption', FIGURE: 'figure',
    FOOTER: 'contentinfo', FORM: 'form', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading',
    H5: 'heading', H6: 'heading', HEADER: 'banner', HR: 'separator', IFRAME: 'Iframe', IMG: (e) =>
      e.getAttribute('alt') === '' ? 'none' : 'image', INS: 'insertion', LABEL: 'LabelText', LEGEND: 'legend',
    LI: 'listitem', MAIN: 'main', MARK: 'mark', MENU: 'list', METER: 'meter', NAV: 'navigation', OL: 'list',
    OPTGROUP: 'group', OPTION: 'option', OUTPUT: 'status', P: 'paragraph', PRE: 'generic', PROGRESS: 'progressbar',
    SEARCH: 'search', SECTION: (e) => hasOwnName(e) ? 'region' : 'generic', STRONG: 'strong', SUMMARY: 'DisclosureTriangle',
    SVG: (e) => hasOwnName(e) ? 'image' : 'none', TABLE: 'table', TD: 'cell', TEXTAREA: 'textbox',
    TFOOT: 'rowgroup', TBODY: 'none', // Chromium leaves tbody out
   TH: (e) => e.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader', THEAD: 'rowgroup',
    TIME: 'time', TR: 'row', UL: 'list', BR: 'LineBreak',
    SELECT: (e) => (e.multiple || e.size > 1) ? 'listbox' : 'combobox',
    INPUT: (e) => {
      const t = (e.getAttribute('type') || 'text').toLowerCase();
      if (t === 'hidden') return 'none';
      if (t === 'checkbox') return e.getAttribute('role') === 'switch' ? 'switch' : 'checkbox';
      if (t === 'radio') return 'radio';
      if (t === 'range') return 'slider';
      if (t === 'number') return 'spinbutton';
      if (t === 'button' || t === 'submit' || t === 'reset' || t === 'image' || t === 'file') return 'button';
      if (e.hasAttribute('list')) return 'combobox';
      if (t === 'search') return 'searchbox';
      return 'textbox';
    },
  };
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'META', 'LINK', 'TITLE']);
  const FROM_CONTENT = new Set(['button', 'link', 'heading', 'cell', 'columnheader', 'rowheader', 'option',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'treeitem', 'checkbox', 'radio', 'switch',
    'tooltip', 'DisclosureTriangle', 'legend', 'Figcaption', 'caption', 'term']);
  const CONTROLS = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch',
    'slider', 'spinbutton', 'button']);
  // Chromium collapses ASCII whitespace only: NBSP survives in names.
  const squash = (s) => String(s == null ? '' : s).replace(/[ \t\n\r\f]+/g, ' ').replace(/^ | $/g, '');
  const tag = (e) => (e.localName || '').toUpperCase();
  function hasOwnName(e) {
    return !!(e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || e.getAttribute('title'));
  }
  function styleOf(e) { try { return e.ownerDocument.defaultView.getComputedStyle(e); } catch (x) { return null; } }
  function hidden(e, st) {
    if (e.hidden || e.getAttribute('aria-hidden') === 'true') return true;
    return !!st && (st.display === 'none' || st.visibility === 'hidden' || st.visibility === 'collapse');
  }
  function roleOf(e) {
    const explicit = (e.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (explicit) return explicit === 'presentation' ? 'none' : explicit === 'img' ? 'image' : explicit;
    const r = IMPLICIT[tag(e)];
    if (typeof r === 'function') return r(e);
    return r || 'generic';
  }
  // Children in the composed tree: an open shadow root replaces the light
  // children; a slot shows what is assigned to it.
  function kidsOf(n) {
    if (n.nodeType === 1) {
      if (n.shadowRoot) return Array.from(n.shadowRoot.childNodes);
      if (tag(n) === 'SLOT') {
        const a = n.assignedNodes({ flatten: true });
        if (a.length) return a;
      }
    }
    return Array.from(n.childNodes);
  }
  // CSS generated content takes part in names (antd's required "*" marker,
  // its NBSP after checkbox labels) unless invisible; a non-inline box is a
  // word of its own.
  function pseudo(e, which) {
    let st;
    try { st = e.ownerDocument.defaultView.getComputedStyle(e, which); } catch (x) { return ''; }
    const c = st && st.content;
    if (!c || c === 'none' || c === 'normal' || st.visibility !== 'visible') return '';
    const m = /^"(.*)"$/.exec(c);
    if (!m) return '';
    const text = m[1].replace(/\\"/g, '"');
    return st.display === 'inline' ? text : ' ' + text + ' ';
  }
  function textOf(n, depth) {
    if (depth > 30) return '';
    if (n.nodeType === 3) return n.data;
    if (n.nodeType !== 1 || SKIP.has(tag(n))) return '';
    if (hidden(n, styleOf(n))) return '';
    const al = n.getAttribute('aria-label');
    if (al && depth > 0) return ' ' + al + ' ';
    const t = tag(n);
    if (t === 'IMG') return ' ' + (n.getAttribute('alt') || '') + ' ';
    if (t === 'INPUT' && /^(checkbox|radio|hidden|file)$/i.test(n.getAttribute('type') || '')) return '';
    if (t === 'INPUT' || t === 'TEXTAREA') return ' ' + (n.value || '') + ' ';
    if (t === 'SELECT') return ' ' + (n.selectedOptions[0] ? n.selectedOptions[0].text : '') + ' ';
    let s = pseudo(n, '::before');
    for (const k of kidsOf(n)) s += textOf(k, depth + 1);
    s += pseudo(n, '::after');
    const st = styleOf(n);
    return st && st.display !== 'inline' ? ' ' + s + ' ' : s;
  }
  function byIds(e, attr) {
    const root = e.getRootNode();
    return squash((e.getAttribute(attr) || '').split(/\s+/).map((id) => {
      const r = id && (root.getElementById ? root.getElementById(id) : e.ownerDocument.getElementById(id));
      return r ? (r.getAttribute('aria-label') || textOf(r, 1)) : '';
    }).join(' '));
  }
  function nameOf(e, role) {
    let n = byIds(e, 'aria-labelledby');
    if (n) return n;
    n = squash(e.getAttribute('aria-label'));
    if (n) return n;
    const t = tag(e);
    if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT' || t === 'METER' || t === 'PROGRESS') {
      const type = (e.getAttribute('type') || '').toLowerCase();
      if (t === 'INPUT' && (type === 'button' || type === 'submit' || type === 'reset'))
        return squash(e.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
      if (t === 'INPUT' && type === 'image') return squash(e.getAttribute('alt') || 'Submit');
      const labels = e.labels ? Array.from(e.labels) : [];
      n = squash(labels.map((l) => textOf(l, 1)).join(' '));
      if (n) return n;
      return squash(e.getAttribute('title') || e.getAttribute('placeholder') || '');
    }
    if (t === 'LABEL') return ''; // Chromium shows a label's text as StaticText, not as its name
    if (t === 'IMG' || t === 'AREA') return squash(e.getAttribute('alt') || e.getAttribute('title'));
    if (t === 'FIELDSET') { const l = e.querySelector(':scope > legend'); if (l) return squash(textOf(l, 1)); }
    if (t === 'TABLE') { const c = e.querySelector(':scope > caption'); if (c) return squash(textOf(c, 1)); }
    if (t === 'FIGURE') { const c = e.querySelector(':scope > figcaption'); if (c) return squash(textOf(c, 1)); }
    if (t === 'SVG') { const c = e.querySelector(':scope > title'); if (c) return squash(c.textContent); }
    if (FROM_CONTENT.has(role)) { n = squash(textOf(e, 0)); if (n) return n; }
    return squash(e.getAttribute('title'));
  }
  const prop = (name, type, value) => ({ name, value: { type, value } });
  function propsOf(e, role, doc) {
    const p = [];
    const t = tag(e);
    const aria = (a) => e.getAttribute(a);
    const focusable = e.tabIndex >= 0 || (t === 'A' && e.hasAttribute('href'));
    const disabled = e.disabled === true || aria('aria-disabled') === 'true';
    if (disabled) p.push(prop('disabled', 'boolean', true));
    else if (focusable) p.push(prop('focusable', 'booleanOrUndefined', true));
    if (doc.activeElement === e || (e.shadowRoot && e.shadowRoot.activeElement)) p.push(prop('focused', 'booleanOrUndefined', true));
    if (e.isContentEditable || ((t === 'INPUT' || t === 'TEXTAREA') && CONTROLS.has(role) && role !== 'button'))
      p.push(prop('editable', 'token', e.isContentEditable ? 'richtext' : 'plaintext'));
    if (t === 'TEXTAREA' || aria('aria-multiline') === 'true') p.push(prop('multiline', 'boolean', true));
    if (e.readOnly === true || aria('aria-readonly') === 'true') p.push(prop('readonly', 'boolean', true));
    if (aria('aria-autocomplete')) p.push(prop('autocomplete', 'token', aria('aria-autocomplete')));
    else if (role === 'combobox' && t === 'INPUT' && e.hasAttribute('list')) p.push(prop('autocomplete', 'token', 'list'));
    const hp = aria('aria-haspopup') || (role === 'combobox' ? 'listbox' : '');
    if (hp && hp !== 'false') p.push(prop('hasPopup', 'token', hp === 'true' ? 'menu' : hp));
    if (['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'columnheader'].includes(role) ||
        t === 'SELECT' || t === 'TEXTAREA')
      p.push(prop('required', 'boolean', e.required === true || aria('aria-required') === 'true'));
    if (role === 'heading') p.push(prop('level', 'integer', Number(aria('aria-level')) || Number(t.slice(1)) || 2));
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
      const c = aria('aria-checked') || (e.indeterminate ? 'mixed' : (e.checked === true ? 'true' : 'false'));
      p.push(prop('checked', 'tristate', c));
    }
    if (aria('aria-pressed')) p.push(prop('pressed', 'tristate', aria('aria-pressed')));
    if (aria('aria-expanded')) p.push(prop('expanded', 'booleanOrUndefined', aria('aria-expanded') === 'true'));
    else if (t === 'DETAILS') p.push(prop('expanded', 'booleanOrUndefined', e.open));
    else if (role === 'combobox') p.push(prop('expanded', 'booleanOrUndefined', false));
    if (aria('aria-selected')) p.push(prop('selected', 'booleanOrUndefined', aria('aria-selected') === 'true'));
    else if (t === 'OPTION') p.push(prop('selected', 'booleanOrUndefined', e.selected));
    if (role === 'link' && e.href) p.push(prop('url', 'string', String(e.href)));
    const orient = aria('aria-orientation') || (role === 'menu' ? 'vertical' : role === 'menubar' ? 'horizontal' : '');
    if (orient) p.push(prop('orientation', 'token', orient));
    if (aria('aria-modal') === 'true' || (t === 'DIALOG' && e.matches(':modal'))) p.push(prop('modal', 'boolean', true));
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter') {
      const num = (a, d) => { const v = aria(a) != null ? aria(a) : d; return v != null && v !== '' ? Number(v) : null; };
      const mn = num('aria-valuemin', e.min), mx = num('aria-valuemax', e.max);
      if (mn != null && !isNaN(mn)) p.push(prop('valuemin', 'number', mn));
      if (mx != null && !isNaN(mx)) p.push(prop('valuemax', 'number', mx));
      if (aria('aria-valuetext')) p.push(prop('valuetext', 'string', aria('aria-valuetext')));
    }
    if (aria('aria-live')) {
      p.push(prop('live', 'token', aria('aria-live')));
      p.push(prop('atomic', 'boolean', aria('aria-atomic') === 'true'));
      p.push(prop('relevant', 'token', aria('aria-relevant') || 'additions text'));
    }
    if (aria('aria-invalid') && aria('aria-invalid') !== 'false') p.push(prop('invalid', 'token', aria('aria-invalid')));
    return p;
  }
  function valueOf(e, role) {
    const t = tag(e);
    if (t === 'SELECT' && !e.multiple) return e.selectedOptions[0] ? e.selectedOptions[0].text : '';
    // a password's characters never leave the page (Chromium shows bullets too)
    if (t === 'INPUT' && (e.getAttribute('type') || '').toLowerCase() === 'password') return '\u2022'.repeat(e.value.length);
    if ((t === 'INPUT' && role !== 'button' && role !== 'checkbox' && role !== 'radio') || t === 'TEXTAREA') return String(e.value);
    if (e.isContentEditable && e.getAttribute('contenteditable') !== null) return squash(e.textContent);
    if (e.getAttribute('aria-valuenow') != null) return e.getAttribute('aria-valuenow');
    if (t === 'PROGRESS' || t === 'METER') return String(e.value);
    return null;
  }

  // DOMSnapshot-shaped marks, one "document" per frame.
  const strings = [], strIdx = new Map();
  const S = (s) => { let i = strIdx.get(s); if (i === undefined) { i = strings.length; strings.push(s); strIdx.set(s, i); } return i; };
  // data-eous-id: the html mode's ids (html_view.js), resolved through these marks
  const MARK_ATTRS = ['data-cid', 'data-eous-nk', 'data-cid-owner', 'data-agent-hidden', 'data-agent-secret', 'data-agent-confirm', 'type', 'autocomplete', 'data-eous-id'];
  const frames = [], documents = [];

  function walkDocument(doc, frameNo, ownerId) {
    const nodes = [];
    const snap = { parentIndex: [], backendNodeId: [], nodeName: [], attributes: [] };
    documents.push({ nodes: snap });
    const rootId = idOf(doc);
    const root = { nodeId: String(rootId), ignored: false, role: { type: 'role', value: 'RootWebArea' },
      name: { type: 'computedString', value: squash(doc.title) }, properties: [], childIds: [], backendDOMNodeId: rootId };
    if (doc.hasFocus && doc.hasFocus() && (!doc.activeElement || doc.activeElement === doc.body))
      root.properties.push(prop('focused', 'booleanOrUndefined', true));
    try { root.properties.push(prop('url', 'string', String(doc.location.href))); } catch (x) { /* detached */ }
    nodes.push(root);
    snap.parentIndex.push(-1); snap.backendNodeId.push(rootId); snap.nodeName.push(S('#document')); snap.attributes.push([]);
    const childFrames = [];
    // Iterative walk: pages nest deeper than the JS stack allows.
    const stack = [];
    const start = doc.body || doc.documentElement;
    if (start) stack.push([start, root, 0]);
    while (stack.length) {
      const [n, parentAx, parentSnap] = stack.pop();
      if (--budget < 0) { truncated = true; break; }
      if (n.nodeType === 3) {
        const text = n.data;
        if (!text || !text.trim()) continue;
        if (vh.get(n.parentNode) === 2) continue; // its element's own text a person cannot see
        const id = idOf(n);
        nodes.push({ nodeId: String(id), ignored: false, role: { type: 'role', value: 'StaticText' },
          name: { type: 'computedString', value: text }, properties: [], childIds: [], backendDOMNodeId: id, parentId: parentAx.nodeId });
        parentAx.childIds.push(String(id));
        continue;
      }
      if (n.nodeType === 11) { // a shadow root or fragment: its children in place
        const kids = Array.from(n.childNodes);
        for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], parentAx, parentSnap]);
        continue;
      }
      if (n.nodeType !== 1 || SKIP.has(tag(n))) continue;
      const st = styleOf(n);
      if (hidden(n, st) || vh.get(n) === 1) continue; // (it still names what it labels: textOf)
      const id = idOf(n);
      const snapIndex = snap.backendNodeId.length;
      const attrs = [];
      for (const a of MARK_ATTRS) { const v = n.getAttribute(a); if (v !== null) attrs.push(S(a), S(v)); }
      snap.parentIndex.push(parentSnap); snap.backendNodeId.push(id); snap.nodeName.push(S(tag(n))); snap.attributes.push(attrs);
      let role = roleOf(n);
      const name = role === 'none' ? '' : nameOf(n, role);
      const focusable = n.tabIndex >= 0 && !n.disabled;
      // Chromium leaves unnamed, unfocusable generics out of the tree (their
      // children move up); so do we, as ignored nodes.
      const ignored = role === 'none' || (role === 'generic' && !name && !focusable && !n.getAttribute('aria-live'));
      const ax = { nodeId: String(id), ignored, role: { type: 'role', value: ignored ? 'generic' : role },
        name: { type: 'computedString', value: name }, properties: ignored ? [] : propsOf(n, role, doc),
        childIds: [], backendDOMNodeId: id, parentId: parentAx.nodeId };
      if (!ignored) { const v = valueOf(n, role); if (v !== null) ax.value = { type: 'string', value: v }; }
      nodes.push(ax);
      parentAx.childIds.push(ax.nodeId);
      if (tag(n) === 'IFRAME' || tag(n) === 'FRAME') {
        let inner = null;
        try { inner = n.contentDocument; } catch (x) { inner = null; }
        if (inner && inner.documentElement) childFrames.push([inner, id]);
        else warnings.push('frame ' + (n.getAttribute('src') || '(no src)') + ': cross-origin, perceived without its content');
        continue;
      }
      // text-only leaves already carry their text in the name of name-from-content roles
      const kids = kidsOf(n);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], ax, snapIndex]);
    }
    frames.push({ frame: frameNo, owner: ownerId, ax: { nodes } });
    for (const [inner, owner] of childFrames) walkDocument(inner, frames.length, owner);
  }
  walkDocument(document, 0, 0);
  if (truncated) warnings.push('page has more than ' + maxNodes + ' nodes; the rest is left out');
  return { frames, snap: { documents, strings }, warnings };
})(arguments[0], arguments[1]);

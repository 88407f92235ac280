/* With CDP: the providers and the page marks in ONE Execute Script call, so
 * a frameless page needs no DOMSnapshot (perception/live.c).  providers.js
 * gets arguments 0..3; the marks part the rest: maxRecords.
 *
 * The marks (perception/marks.c reads them): one record per element that
 * carries one (data-cid, data-eous-nk, data-cid-owner, data-agent-hidden,
 * data-agent-secret, data-agent-confirm, a secret field, visually hidden
 * text: vh 1 or 2 as vis_hidden.js says), ancestors first,
 * each with its element (the driver's reference names its backend node id)
 * and the index of the record of its nearest marked ancestor in the flat
 * tree (a slotted element under its slot, a shadow root under its host), as
 * DOMSnapshot's parents go.  Everything else inherits along the
 * accessibility tree, which follows the flat tree too, except where
 * aria-owns moves an element, or where a marked element has no box (it is
 * not in the tree, though what it holds may be): those elements get a
 * record of their own, so they inherit as a DOMSnapshot would have them.
 * marks is null, and the caller takes a DOMSnapshot, when the page has
 * frames (their documents and trees are read apart), a defined custom
 * element without an open shadow root (it may hold a closed one: a snapshot
 * sees inside, a script does not), more records than maxRecords (element
 * references cost the driver time each), or the script failed.  A closed
 * shadow root attached to a built-in element (a div) is the one thing
 * neither this check nor the W3C-only path sees. */
const eousArgs = Array.from(arguments);
return (async function () {
const out = await (function () {
// @include providers.js
}).apply(null, eousArgs.slice(0, 4));
out.marks = (function (maxRecords) {
  try {
    if (window.frames.length > 0) return null;
    const SEL = '[data-cid],[data-eous-nk],[data-cid-owner],[data-agent-hidden],[data-agent-secret],' +
      '[data-agent-confirm],input[type],[autocomplete]';
    const secretField = e => {
      const ac = e.getAttribute('autocomplete');
      return (e.localName === 'input' && (e.getAttribute('type') || '').toLowerCase() === 'password') ||
        (ac != null && (ac === 'one-time-code' || ac.startsWith('cc-') || ac === 'current-password' ||
          ac === 'new-password'));
    };
    /* visually hidden text (vis_hidden.js, found by the providers' part) */
    const vh = out.vh instanceof Map ? out.vh : new Map();
    /* the texts a vh record hides (1: all under it, 2: its own), squashed as
     * Chromium names StaticText: an inline element has no node of its own in
     * the tree, its text hangs under the nearest ancestor's node, where the
     * reader finds it by these texts (perc_apply_marks) */
    const vhTexts = (e, v) => {
      const t = [];
      const keep = n => { const s = n.data.replace(/[ \t\n\r\f]+/g, ' ').trim(); if (s) t.push(s.slice(0, 300)); };
      if (v === 2) { for (let n = e.firstChild; n && t.length < 50; n = n.nextSibling) if (n.nodeType === 3) keep(n); }
      else { const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT); for (let n; t.length < 50 && (n = w.nextNode());) keep(n); }
      return t;
    };
    const found = [], index = new Map();
    const add = (e, own) => {
      if (index.has(e)) return true;
      if (found.length >= maxRecords) return false;
      const r = {el: e};
      if (own) {
        const g = k => e.getAttribute(k);
        const cid = g('data-cid'), nk = g('data-eous-nk'), owner = g('data-cid-owner');
        if (cid) r.cid = cid; else if (nk) r.cid = nk;
        if (owner) r.owner = owner;
        if (e.hasAttribute('data-agent-hidden')) r.hidden = 1;
        if (e.hasAttribute('data-agent-secret')) r.secret = 1;
        if (e.hasAttribute('data-agent-confirm')) r.confirm = g('data-agent-confirm') || '';
        if (secretField(e)) r.field = 1;
        if (vh.has(e)) { r.vh = vh.get(e); r.t = vhTexts(e, r.vh); }
        if (!r.cid && !r.owner && !r.hidden && !r.secret && r.confirm == null && !r.field && !r.vh) return true;
      }
      index.set(e, found.length);
      found.push(r);
      return true;
    };
    const roots = [document];
    for (let k = 0; k < roots.length; k++) {
      const root = roots[k];
      for (const e of root.querySelectorAll(SEL)) if (!add(e, true)) return null;
      /* each with its ancestors: the nearest with a node in the tree holds its text */
      const upEl = n => { let p = n.assignedSlot || n.parentNode; if (p && p.nodeType === 11) p = p.host;
        return p && p.nodeType === 1 ? p : null; };
      if (k === 0)
        for (const e of vh.keys()) {
          if (!add(e, true)) return null;
          for (let a = upEl(e); a; a = upEl(a)) if (!add(a, false)) return null;
        }
      for (const e of root.querySelectorAll('*')) {
        if (e.shadowRoot) roots.push(e.shadowRoot);
        /* a custom element without an open shadow root may hold a closed one, whose marks no script sees */
        else if (e.localName.includes('-') && customElements.get(e.localName)) return null;
      }
    }
    /* a marked element without a box (in a hidden tab pane, a closed popup) is
     * not in the accessibility tree, but what it holds may be (hidden form
     * controls are): those hang under whatever is there above it, so each
     * element inside gets a record of its own */
    const shown = e => typeof e.checkVisibility === 'function' ? e.checkVisibility() : e.getClientRects().length > 0;
    for (let i = 0, n = found.length; i < n; i++) {
      const e = found[i].el;
      if (!shown(e))
        for (const d of e.querySelectorAll('*')) if (!add(d, false)) return null;
    }
    /* elements the accessibility tree hangs elsewhere than the flat tree does */
    for (const root of roots)
      for (const o of root.querySelectorAll('[aria-owns]'))
        for (const id of (o.getAttribute('aria-owns') || '').split(/\s+/)) {
          const e = id ? root.getElementById(id) : null;
          if (e && !add(e, false)) return null;
        }
    /* each record's nearest recorded ancestor in the flat tree (a slotted
     * element's parent is its slot, a shadow root's its host), as DOMSnapshot
     * has it; then ancestors before descendants (by depth, the order found
     * kept), as the reader inherits in order */
    const up = n => n.assignedSlot || (n.parentNode && n.parentNode.nodeType === 11 ? n.parentNode.host : n.parentNode);
    const par = found.map(r => { for (let n = up(r.el); n; n = up(n)) { const i = index.get(n);
      if (i !== undefined) return i; } return -1; });
    const depth = new Array(found.length).fill(-1);
    const depthOf = i => { if (depth[i] < 0) depth[i] = par[i] < 0 ? 0 : depthOf(par[i]) + 1; return depth[i]; };
    const order = found.map((_, i) => i).sort((a, b) => depthOf(a) - depthOf(b) || a - b);
    const at = new Array(found.length);
    order.forEach((i, k) => { at[i] = k; });
    const recs = order.map(i => Object.assign(found[i], {p: par[i] < 0 ? -1 : at[par[i]]}));
    return {records: recs};
  } catch (e) { return null; }
}).apply(null, eousArgs.slice(4));
return out;
})();

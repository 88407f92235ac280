/* perception/vis_hidden.js — text a sighted person cannot see, the classic
 * prompt-injection carrier the accessibility tree still exposes.  Included by
 * providers.js, which runs it on every perceive before any tree is read.
 *
 * eousVisHidden(doc, maxElements) -> {map: Map(element -> 1 | 2), cut}:
 *   1  nothing in the element is shown as page text (it holds no control);
 *   2  its own text (its direct text nodes) is not shown; what it holds is.
 * An element's text is hidden when its box is
 *   - at opacity 0 (itself; an ancestor's 0 hides everything under it),
 *   - off-screen: wholly outside the scrollable area of its scroll container
 *     (the document's for most): left of or above it (negative coordinates
 *     beyond the page), or past its end.  Text scrolled out of view, or below
 *     the fold, is inside that area and stays;
 *   - clipped to nothing: clip: rect() or clip-path: inset() with no area
 *     left, or overflow hidden on a box 1px or less across (the "sr-only"
 *     pattern);
 * or when its own text is at a font size under 1px, in a transparent colour,
 * or in a colour whose contrast ratio with the background (the first
 * non-transparent background up the tree, composited; a picture or gradient
 * makes it unknown, and unknown keeps the text) is under 1.1.
 * Controls (form fields, buttons, links, anything focusable or with a widget
 * role) are never marked: they are actions, named as a screen reader names
 * them, and pages draw a visible control over a hidden real one (opacity 0
 * checkboxes, clipped radio inputs).  So a visually hidden label still names
 * the control it labels; it is not page text.  Past maxElements elements the
 * rest is not checked (cut says so). */
const eousVisHidden = (function () {
  const CONTROL = 'input:not([type=hidden]),select,textarea,button,a[href],[tabindex]:not([tabindex^="-"]),' +
    '[contenteditable]:not([contenteditable=false]),[role=button],[role=link],[role=checkbox],[role=radio],' +
    '[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],' +
    '[role=combobox],[role=textbox],[role=searchbox],[role=slider],[role=spinbutton],[role=treeitem]';
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title']);
  const MEDIA = new Set(['img', 'svg', 'canvas', 'video', 'picture', 'iframe', 'frame', 'object', 'embed']);
  const rgba = s => {
    const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(s || '');
    return m ? [+m[1], +m[2], +m[3], m[4] == null ? 1 : +m[4]] : null;
  };
  const mix = (c, bg) => [0, 1, 2].map(i => c[3] * c[i] + (1 - c[3]) * bg[i]);
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const contrast = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  /* strictly outside: a zero-height box on the page's edge is on the page */
  const outside = (r, sa) => r.right < sa.left || r.bottom < sa.top || r.left > sa.left + sa.w || r.top > sa.top + sa.h;
  /* inset(t [r [b [l]]]) leaving no area of box r */
  function insetEmpty(cp, r) {
    const m = /^inset\(([^)]*)\)$/.exec(cp);
    if (!m) return false;
    const v = m[1].split(/\s+round\s+/)[0].trim().split(/\s+/);
    if (!v.length || v.length > 4) return false;
    const px = (s, len) => /%$/.test(s) ? parseFloat(s) / 100 * len : parseFloat(s);
    const t = v[0], rr = v[1] || t, b = v[2] || t, l = v[3] || rr;
    return px(t, r.height) + px(b, r.height) >= r.height || px(l, r.width) + px(rr, r.width) >= r.width;
  }
  function clipped(st, r) {
    if ((st.position === 'absolute' || st.position === 'fixed') && st.clip && st.clip !== 'auto') {
      const m = /^rect\((-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px\)$/.exec(st.clip);
      if (m && (+m[3] - +m[1] <= 1 || +m[2] - +m[4] <= 1)) return true;
    }
    if (st.clipPath && st.clipPath !== 'none' && insetEmpty(st.clipPath, r)) return true;
    return (st.overflowX !== 'visible' && r.width <= 1) || (st.overflowY !== 'visible' && r.height <= 1);
  }
  const ownTexts = e => {
    const out = [];
    if (e.shadowRoot) return out; /* a host's own text is not rendered unless slotted */
    for (let n = e.firstChild; n; n = n.nextSibling) if (n.nodeType === 3 && n.data.trim()) out.push(n);
    return out;
  };
  function textHidden(e, st, bg, sa, texts) {
    if (parseFloat(st.fontSize) < 1) return true;
    const fill = rgba(st.webkitTextFillColor) || rgba(st.color);
    if (fill && fill[3] === 0) return true;
    if (fill && bg && st.textShadow === 'none' && !(parseFloat(st.webkitTextStrokeWidth) > 0) &&
        contrast(fill[3] < 1 ? mix(fill, bg) : fill, bg) < 1.1) return true;
    if (parseFloat(st.textIndent) < 0) { /* text pushed off the page by a negative indent */
      const range = e.ownerDocument.createRange();
      return texts.every(t => { range.selectNodeContents(t); const r = range.getBoundingClientRect();
        return (r.width > 0 || r.height > 0) && outside(r, sa); });
    }
    return false;
  }
  const kidsOf = e => {
    if (e.shadowRoot) return Array.from(e.shadowRoot.children);
    if (e.localName === 'slot') { const a = e.assignedElements({flatten: true}); if (a.length) return a; }
    return Array.from(e.children);
  };
  const hasContent = e => !!(e.textContent.trim() || e.querySelector('img[alt],[aria-label],[title]'));

  return function (doc, maxElements) {
    const map = new Map();
    let budget = maxElements > 0 ? maxElements : 50000, cut = false;
    /* a hidden region: marked whole, or split around the controls it holds */
    function region(e) {
      if (!hasContent(e)) return;
      if (!e.querySelector(CONTROL)) { map.set(e, 1); return; }
      if (ownTexts(e).length) map.set(e, 2);
      for (const k of e.children) if (!k.matches(CONTROL)) region(k);
    }
    /* returns [shows content, holds a control] */
    function walk(e, win, bg, sa) {
      if (--budget < 0) { cut = true; return [true, true]; }
      const tag = e.localName;
      if (SKIP.has(tag) || e.hidden || e.getAttribute('aria-hidden') === 'true' || e.hasAttribute('data-agent-hidden'))
        return [false, false];
      const st = win.getComputedStyle(e);
      if (st.display === 'none') return [false, false];
      const ctl = e.matches(CONTROL);
      /* the box only where a rule needs it: style reads and boxes are most of the cost */
      let r = null;
      const box = () => r || (r = e.getBoundingClientRect());
      const boxed = () => box().width > 0 || box().height > 0;
      const pos = st.position;
      const clips = pos === 'absolute' || pos === 'fixed' || st.overflowX !== 'visible' || st.overflowY !== 'visible' ||
        st.clipPath !== 'none';
      /* opacity and clipping hide everything drawn inside the box */
      if (parseFloat(st.opacity) === 0 || (clips && boxed() && clipped(st, box()))) {
        if (ctl) return [true, true];
        region(e);
        return [false, !!e.querySelector(CONTROL)];
      }
      if (MEDIA.has(tag) || ctl && !e.firstElementChild && !ownTexts(e).length) {
        if (tag === 'iframe' || tag === 'frame') frame(e, bg);
        return [!(boxed() && outside(box(), sa)), ctl];
      }
      /* what the children stand on */
      let kbg = bg;
      if (st.backgroundImage !== 'none') kbg = null;
      else {
        const c = rgba(st.backgroundColor);
        if (!c) kbg = null;
        else if (c[3] >= 1) kbg = c.slice(0, 3);
        else if (c[3] > 0) kbg = bg && mix(c, bg);
      }
      let ksa = sa;
      if (/auto|scroll/.test(st.overflowX + st.overflowY) && tag !== 'html' && tag !== 'body')
        ksa = {left: box().left + e.clientLeft - e.scrollLeft, top: box().top + e.clientTop - e.scrollTop,
          w: e.scrollWidth, h: e.scrollHeight};
      const before = map.size;
      let shows = false, holds = ctl;
      for (const k of kidsOf(e)) {
        const [s, h] = walk(k, win, kbg, ksa);
        shows = shows || s;
        holds = holds || h;
      }
      /* off-screen is judged per box: a positioned child may sit elsewhere */
      const texts = ownTexts(e);
      let ownHidden = false;
      if (texts.length && st.visibility === 'visible') {
        ownHidden = (tag !== 'html' && tag !== 'body' && boxed() && outside(box(), sa)) || textHidden(e, st, kbg, sa, texts);
        shows = shows || !ownHidden;
      }
      if (!shows && !holds && (ownHidden || map.size > before)) {
        /* nothing in it is shown: one record for the whole element */
        if (map.size > before) for (const d of e.querySelectorAll('*')) map.delete(d);
        map.set(e, 1);
      } else if (ownHidden) {
        map.set(e, 2);
      }
      return [shows, holds];
    }
    function frame(f, bg) {
      let d = null;
      try { d = f.contentDocument; } catch (x) { d = null; }
      if (d && d.documentElement) walkDoc(d, bg);
    }
    function walkDoc(d, bg) {
      const win = d.defaultView, root = d.documentElement;
      if (!win || !root) return;
      /* the canvas: white, unless the page asks for a dark one (then unknown) */
      const cs = win.getComputedStyle(root).colorScheme || '';
      if (/dark/.test(cs) && (!/light/.test(cs) || win.matchMedia('(prefers-color-scheme: dark)').matches)) bg = null;
      const sa = {left: -win.scrollX, top: -win.scrollY, w: root.scrollWidth, h: root.scrollHeight};
      walk(root, win, bg, sa);
    }
    walkDoc(doc, [255, 255, 255]);
    return {map, cut};
  };
})();

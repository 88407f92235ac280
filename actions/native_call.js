/* Runs a tool of a native component (perception/native.js inferred it and
 * stamped its root data-eous-nk=K); included by call.js, owned by
 * actions/native_call.c's caller (call.c).  Values are set the way pages
 * listen: the native value setter, then input and change events; a click
 * for checkboxes, radios, tabs, options and disclosures.  Every value is
 * read back: one that did not take is an error naming what the control
 * holds (never a secret field's value); a combobox that shows no value
 * anywhere is a success that says it could not read back.  A popup opens by
 * a click, never by a key that changes the value.  A submit that the browser's
 * validation blocks is an error with the validation message; a valid one
 * stamps its submit button data-eous-nks=K and answers {submit: 'click'} so
 * the executor clicks it with real input (navigation is the executor's). */
// @include perception/native_combo_text.js
// @include perception/native_link_name.js
// @include perception/native_column_filter.js
// @include perception/native_calendar.js
const nativeErr = (code, message) => { const e = new Error(message); e.code = code; return e; };
const nativeSquash = s => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
const nativeText = el => nativeSquash(el.getAttribute('aria-label') || el.textContent);
const nativeName = el => {
  const ids = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
  const t = nativeSquash(ids.map(i => { const r = document.getElementById(i); return r ? r.textContent : ''; }).join(' '));
  return t || nativeText(el);
};
const nativeLabel = el => {
  let l = nativeSquash(el.getAttribute('aria-label'));
  if (!l && el.labels && el.labels.length) l = nativeSquash(Array.from(el.labels).map(x => {
    let t = ''; const w = n => { for (const c of n.childNodes) { if (c.nodeType === 3) t += c.data;
      else if (c.nodeType === 1 && !/^(INPUT|SELECT|TEXTAREA)$/.test(c.tagName)) w(c); } }; w(x); return t; }).join(' '));
  return (l || nativeSquash(el.getAttribute('title') || el.getAttribute('placeholder') || el.getAttribute('name') || el.getAttribute('id') || '')).replace(/[\s:*]+$/, '');
};
const nativeSecret = el => el.closest('[data-agent-secret]') != null ||
  (el.tagName === 'INPUT' && String(el.type).toLowerCase() === 'password') ||
  /^(one-time-code|cc-.*|current-password|new-password)$/.test(String(el.getAttribute('autocomplete') || '').trim());
const nativeShown = v => JSON.stringify(String(v).length > 80 ? String(v).slice(0, 80) + '…' : String(v));
const nativeTick = () => new Promise(r => setTimeout(r, 0));
/* a rendered frame: widgets that commit in an effect or animation frame (rc-picker) have run */
const nativeFrame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
/* a person's click as the page's handlers see it: pointer and mouse events, then click */
const nativeClick = el => {
  const o = {bubbles: true, cancelable: true, composed: true, view: window, button: 0};
  try { el.dispatchEvent(new PointerEvent('pointerdown', o)); } catch (e) {}
  el.dispatchEvent(new MouseEvent('mousedown', o));
  try { el.dispatchEvent(new PointerEvent('pointerup', o)); } catch (e) {}
  el.dispatchEvent(new MouseEvent('mouseup', o));
  el.click();
};
/* A field whose suggestions follow the keys typed: a combobox, an aria-autocomplete field, one
 * with a listbox popup, an input with a datalist, jQuery UI's autocomplete, which says so only
 * by its class (and closes its menu on blur), or a search field (type=search: MediaWiki's search
 * box suggests titles on keyup and says nothing else).  Such a page may listen for keys only (a
 * keyup starts its search).  Not every autocomplete=off field: antd's pickers commit on blur. */
const nativeSuggests = el => el.getAttribute('role') === 'combobox' || !!(el.list) || el.type === 'search' ||
  /^(list|both|inline)$/.test(String(el.getAttribute('aria-autocomplete') || '').trim()) ||
  /^(listbox|true)$/.test(String(el.getAttribute('aria-haspopup') || '').trim()) ||
  !!(el.classList && el.classList.contains('ui-autocomplete-input'));
/* ch as a person's key: keydown, keypress, the character inserted (beforeinput, input), keyup;
 * a keydown the page cancels inserts nothing, as in a browser */
const nativeTypeChar = (el, setter, ch) => {
  const up = ch.toUpperCase(), cc = /^[A-Z0-9]$/.test(up) ? up.charCodeAt(0) : 0;
  const o = {key: ch, code: /^[A-Z]$/.test(up) ? 'Key' + up : /^[0-9]$/.test(ch) ? 'Digit' + ch : '', keyCode: cc, which: cc,
    bubbles: true, cancelable: true, composed: true};
  if (el.dispatchEvent(new KeyboardEvent('keydown', o))) {
    el.dispatchEvent(new KeyboardEvent('keypress', Object.assign({}, o, {charCode: ch.charCodeAt(0), keyCode: ch.charCodeAt(0), which: ch.charCodeAt(0)})));
    if (el.dispatchEvent(new InputEvent('beforeinput', {inputType: 'insertText', data: ch, bubbles: true, cancelable: true, composed: true}))) {
      setter.call(el, el.value + ch);
      el.dispatchEvent(new InputEvent('input', {inputType: 'insertText', data: ch, bubbles: true, composed: true}));
    }
  }
  el.dispatchEvent(new KeyboardEvent('keyup', o));
};
/* keepFocus: a combobox's text stays focused for its popup; any other field
 * is left as a person leaves it (blur), which is when date pickers and
 * masked inputs commit what was typed.  A field with suggestions gets its
 * last character (all of a text under 4) as keys, as atomic type sends it,
 * and keeps the focus its suggestions show under (the call settles on them). */
const nativeSetValue = async (el, v, secret, keepFocus) => {
  const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const want = String(v);
  if (el.disabled || el.readOnly) throw nativeErr('disabled', 'the field is disabled or read-only');
  if (typeof el.focus === 'function') el.focus();
  const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
  const chars = Array.from(want);
  const keyed = want !== '' && el.tagName === 'INPUT' && nativeSuggests(el) ? (chars.length < 4 ? chars.length : 1) : 0;
  if (keyed) keepFocus = true;
  setter.call(el, chars.slice(0, chars.length - keyed).join(''));
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  for (const ch of chars.slice(chars.length - keyed)) nativeTypeChar(el, setter, ch);
  el.dispatchEvent(new Event('change', {bubbles: true}));
  await nativeTick();
  /* two frames after leaving: a picker that drops an unconfirmed text (antd's TimePicker, its form
   * reset once) puts its old value back in the second */
  if (!keepFocus && document.activeElement === el && typeof el.blur === 'function') { el.blur(); await nativeFrame(); await nativeFrame(); }
  if (!keepFocus && String(el.value) !== want && el.type !== 'number' && el.type !== 'range' && el.getAttribute('role') !== 'spinbutton') {
    /* a picker that keeps only what Enter confirmed (antd's TimePicker):
     * typed again and committed with the key a person presses */
    el.focus();
    await nativeFrame();
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, want);
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    await nativeFrame();
    nativeKey(el, 'Enter');
    await nativeFrame();
    if (document.activeElement === el) { el.blur(); await nativeFrame(); }
  }
  const got = String(el.value);
  const numeric = el.type === 'number' || el.type === 'range' || el.getAttribute('role') === 'spinbutton';
  const same = got === want || (numeric ? Number(got) === Number(want) && got !== '' : false);
  if (!same) {
    const holds = secret ? 'something else (a secret field: not shown)' : (got === '' ? 'nothing' : nativeShown(got));
    throw nativeErr('not_taken', (secret ? 'the value' : nativeShown(want)) + ' did not take: the field holds ' + holds +
      (el.validationMessage ? ' (' + el.validationMessage + ')' : ''));
  }
  const r = secret ? {set: want.length + ' characters'} : {value: got};
  if (el.validity && !el.validity.valid && el.validationMessage) r.invalid = el.validationMessage;
  return r;
};
const nativeCheck = async (el, on) => {
  if (el.disabled) throw nativeErr('disabled', 'the checkbox is disabled');
  if (el.checked !== on) nativeClick(el);
  await nativeTick();
  if (el.checked !== on) throw nativeErr('not_taken', 'the checkbox is ' + (el.checked ? 'checked' : 'not checked') +
    ' after the click (the page changed it back)');
  return {checked: el.checked};
};
const nativeOptionMatch = (opts, want, textOf, valueOf) => {
  const w = nativeSquash(want);
  return opts.find(o => textOf(o) === w) || opts.find(o => valueOf(o) === want) ||
    opts.find(o => textOf(o).toLowerCase() === w.toLowerCase());
};
const nativeSelect = async (el, want) => {
  if (el.disabled) throw nativeErr('disabled', 'the select is disabled');
  const opts = Array.from(el.options);
  const lab = o => nativeSquash(o.label || o.text);
  const wants = Array.isArray(want) ? want : [want];
  const picked = wants.map(w => { const o = nativeOptionMatch(opts, String(w), lab, o => o.value);
    if (!o) throw nativeErr('not_found', 'no option ' + nativeShown(w) + ' (options: ' + opts.slice(0, 20).map(lab).join(' | ') + ')');
    if (o.disabled) throw nativeErr('disabled', 'option ' + nativeShown(w) + ' is disabled');
    return o; });
  if (el.multiple) for (const o of opts) o.selected = picked.includes(o);
  else Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(el, picked[0].value);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  await nativeTick();
  const now = Array.from(el.selectedOptions);
  if (now.length !== picked.length || !picked.every(o => now.includes(o)))
    throw nativeErr('not_taken', 'the selection did not take: the select holds ' + (now.map(lab).join(', ') || 'nothing'));
  return {value: el.multiple ? now.map(lab) : lab(now[0])};
};
const nativeRadio = async (radios, want) => {
  const r = nativeOptionMatch(radios, String(want), nativeLabel, x => x.value);
  if (!r) throw nativeErr('not_found', 'no option ' + nativeShown(want) + ' (options: ' + radios.map(nativeLabel).join(' | ') + ')');
  if (r.disabled) throw nativeErr('disabled', 'option ' + nativeShown(want) + ' is disabled');
  if (!r.checked) nativeClick(r);
  await nativeTick();
  if (!r.checked) throw nativeErr('not_taken', 'option ' + nativeShown(want) + ' is not checked after the click');
  return {value: nativeLabel(r)};
};
/* one field of any kind, by its component key (every radio of a group carries it) */
const nativeSetField = async (key, v, secretValues) => {
  const els = Array.from(document.querySelectorAll('[data-eous-nk="' + CSS.escape(key) + '"]'));
  if (!els.length) throw nativeErr('unknown_component', 'the field is gone since the observation; observe again');
  const el = els[0], type = String(el.type || '').toLowerCase();
  if (secretValues && !nativeSecret(el)) els.forEach(e => e.setAttribute('data-agent-secret', ''));
  if (type === 'radio') return nativeRadio(els, v);
  if (type === 'checkbox') return nativeCheck(el, v === true || v === 'true' || v === 'on' || v === 'yes');
  if (el.tagName === 'SELECT') return nativeSelect(el, v);
  return nativeSetValue(el, v == null ? '' : v, secretValues || nativeSecret(el));
};
/* replace(find, with) in a textarea: find must occur once in what it holds (as
 * text editors' replace tools take it), so the edit lands where the model
 * read it; the rest of the text is kept as it is, and the whole is read back */
const nativeReplace = async (el, find, by, secret) => {
  const text = String(el.value), f = String(find == null ? '' : find);
  if (!f) throw nativeErr('invalid_params', 'find is empty: give the text to replace, as the field holds it');
  const at = text.indexOf(f);
  if (at < 0) throw nativeErr('not_found', 'the field holds no ' + nativeShown(f) + ' (it holds ' + text.length + ' characters)');
  let n = 0;
  for (let i = at; i >= 0; i = text.indexOf(f, i + 1)) n++;
  if (n > 1) throw nativeErr('ambiguous', nativeShown(f) + ' occurs ' + n + ' times in the field; give more of the text around it, so it occurs once');
  if (secret) el.setAttribute('data-agent-secret', '');
  await nativeSetValue(el, text.slice(0, at) + String(by == null ? '' : by) + text.slice(at + f.length), secret || nativeSecret(el));
  /* where it landed, not the whole text again: the view prints the field's lines */
  return {replaced: 1, line: text.slice(0, at).split('\n').length, length: String(el.value).length};
};
const nativeFirstInvalid = form => Array.from(Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'elements').get.call(form))
  .find(e => e.willValidate && !e.validity.valid);
const nativeWait = async (pred, ms) => {
  const t0 = performance.now();
  for (;;) { const v = pred(); if (v || performance.now() - t0 > ms) return v; await new Promise(r => setTimeout(r, 20)); }
};

/* The key the APG combobox pattern binds (ArrowDown opens and moves the
 * active option, Enter picks it), pressed and released as the page's key
 * handlers receive it: rc-select takes one Enter until its keyup, so a
 * second pick into a several-choice Select was dropped without the release. */
const nativeKeyEvent = (el, type, key, mods) => {
  const code = {ArrowDown: 40, ArrowUp: 38, ArrowLeft: 37, ArrowRight: 39, Enter: 13, Escape: 27, Home: 36, End: 35}[key];
  el.dispatchEvent(new KeyboardEvent(type, Object.assign({key, code: key, keyCode: code, which: code,
    bubbles: true, cancelable: true, composed: true}, mods || {})));
};
const nativeKey = (el, key, mods) => { nativeKeyEvent(el, 'keydown', key, mods); nativeKeyEvent(el, 'keyup', key, mods); };
/* Opens a combobox's popup without changing what it holds: a person's click, else Alt+ArrowDown,
 * which the APG pattern defines as "open, move nothing"; never a bare ArrowDown, which a
 * select-only combobox (OOUI's dropdown) takes as "next option".  Resolves whether it opened. */
const nativeOpen = async (target, open) => {
  if (typeof target.focus === 'function') target.focus();
  await nativeTick();
  if (open()) return true;
  nativeClick(target);
  if (await nativeWait(open, 300)) return true;
  nativeKey(target, 'ArrowDown', {altKey: true});
  return !!await nativeWait(open, 1000);
};
/* What a combobox shows as its value: its input's text, else what
 * perception/native_combo_text.js reads around it (the view's own reading). */
const nativeComboShows = (root, input, besides) =>
  nativeSquash(input && input.value ? input.value : nativeComboText(root, input, besides));
/* Where a single-choice combobox shows what it holds, in this order: its input's value,
 * aria-valuetext, the option saying aria-selected or aria-checked, the text it displays, the
 * option the popup marks (aria-current, a selected/checked/active class): [{via, text}], the
 * places that show something.  A pick is taken when any of them shows it. */
const nativeComboReads = (root, input, lb) => {
  const out = [], put = (via, t) => { t = nativeSquash(t); if (t) out.push({via, text: t}); };
  if (input && input.type !== 'hidden') put('value', input.value);
  put('aria-valuetext', (input && input.getAttribute('aria-valuetext')) || root.getAttribute('aria-valuetext'));
  const opts = lb ? Array.from(lb.querySelectorAll('[role=option]')) : [];
  const sel = opts.find(o => o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true');
  if (sel) put('selected option', nativeName(sel));
  put('text', nativeComboText(root, input, false));
  const cls = o => typeof o.className === 'string' ? o.className : '';
  const marked = opts.find(o => o.getAttribute('aria-current') === 'true' || o.getAttribute('aria-current') === 'option' ||
    /(^|[\s_-])(selected|checked|active|current)(\s|$)/i.test(cls(o)));
  if (marked) put('marked option', nativeName(marked));
  return out;
};
/* what it holds, for comparing before and after opening (the popup's marked option left out:
 * opening may move that without changing the value) */
const nativeComboValue = (root, input, lb) => nativeComboReads(root, input, lb).filter(r => r.via !== 'marked option')
  .map(r => r.text).join(' | ');
/* shown and of a size a person could click (a popup's closed menu keeps its nodes, at no size) */
const nativeVisible = o => o.isConnected && o.getClientRects().length > 0 && o.getBoundingClientRect().width > 1 &&
  o.getBoundingClientRect().height > 1;
/* a popup menu, listbox or tree, and its items */
const NATIVE_POPUPS = '[role=menu],[role=listbox],[role=tree]';
const NATIVE_ITEMS = '[role=menuitemcheckbox],[role=menuitemradio],[role=menuitem],[role=option],[role=treeitem]';
/* el is left for the executor to click with real input (a submit or a link may load a new document,
 * which the executor settles after): stamped data-eous-nks=K, the one so stamped */
const nativeStampForClick = (el, K) => {
  document.querySelectorAll('[data-eous-nks]').forEach(e => e.removeAttribute('data-eous-nks'));
  el.setAttribute('data-eous-nks', K);
};
/* select('A / B') on a combobox whose popup is a cascade (antd's Cascader: a menu per level, each
 * option opening the next level's): each level's option clicked in turn, then the value the combobox
 * shows read back ("A / B", as such a combobox prints it).  not_found when the popup has no option
 * of the first name: the caller then takes 'A / B' as one option's name. */
const nativeCascadePick = async (root, input, parts) => {
  const target = input || root;
  const MENUS = NATIVE_POPUPS, ITEMS = NATIVE_ITEMS, visible = nativeVisible;
  const before = new Set(Array.from(document.querySelectorAll(MENUS)).filter(visible));
  const items = () => Array.from(document.querySelectorAll(MENUS)).filter(m => visible(m) && !before.has(m) && !m.contains(target))
    .flatMap(m => Array.from(m.querySelectorAll(ITEMS)));
  const expanded = () => target.getAttribute('aria-expanded') === 'true' || root.getAttribute('aria-expanded') === 'true';
  await nativeOpen(target, expanded);
  /* the items of the levels after menu m (a level's option opens the next one's menu) */
  const itemsAfter = m => Array.from(document.querySelectorAll(MENUS)).filter(x => visible(x) && !before.has(x) && x !== m &&
    !x.contains(target) && (m.compareDocumentPosition(x) & Node.DOCUMENT_POSITION_FOLLOWING)).flatMap(x => Array.from(x.querySelectorAll(ITEMS)));
  const whole = parts.join(' / ');
  let level = null; /* the menu of the option picked last */
  for (let i = 0; i < parts.length; i++) {
    let named = false;
    const o = await nativeWait(() => { const x = nativeOptionMatch(level ? itemsAfter(level) : items(), parts[i], nativeName, y => y.id);
      /* an option named 'A / B' whole ('50 / page'): no cascade, the popup left open for it */
      if (!i && nativeOptionMatch(items(), whole, nativeName, y => y.id)) { named = true; return true; }
      return x && visible(x) ? x : null; }, i ? 1000 : 500);
    if (named) { const e = nativeErr('not_found', 'an option is named ' + nativeShown(whole)); e.level = 0; throw e; }
    if (!o) {
      const offered = (level ? itemsAfter(level) : items()).map(nativeName);
      nativeKey(target, 'Escape');
      const e = nativeErr('not_found', 'the popup offers no option ' + nativeShown(parts[i]) +
        (i ? ' under ' + nativeShown(parts.slice(0, i).join(' / ')) : '') +
        (offered.length ? ' (it offers: ' + offered.slice(0, 30).join(' | ') + (offered.length > 30 ? ' …' : '') + ')' : ''));
      e.level = i;
      throw e;
    }
    if (o.getAttribute('aria-disabled') === 'true') { nativeKey(target, 'Escape'); throw nativeErr('disabled', 'option ' + nativeShown(parts[i]) + ' is disabled'); }
    if (typeof o.scrollIntoView === 'function') o.scrollIntoView({block: 'nearest'});
    level = o.closest(MENUS) || o;
    const shownBefore = new Set(itemsAfter(level));
    nativeClick(o);
    /* the next level's menu re-rendered for this option (or it was open already) */
    if (i + 1 < parts.length) await nativeWait(() => itemsAfter(level).some(x => !shownBefore.has(x)), 300);
  }
  const want = parts.map(nativeSquash).join(' / ');
  const ok = await nativeWait(() => nativeComboShows(root, input).toLowerCase() === want.toLowerCase(), 1000);
  const got = nativeComboShows(root, input);
  if (expanded()) nativeKey(target, 'Escape');
  if (!ok) throw nativeErr('not_taken', 'the combobox shows ' + nativeShown(got) + ' after picking ' + nativeShown(want));
  return {value: got};
};
/* select(option) on an APG combobox: open its popup, then pick the option by
 * its accessible name.  An option the popup renders and shows is clicked; a
 * virtual list (only the options near the active one rendered, as antd's)
 * is walked with ArrowDown through aria-activedescendant until the active
 * option has the name, and Enter picks it.  The value shown is read back;
 * off: the pick is to turn a chosen option off, which the caller reads back. */
const nativeComboPick = async (root, input, want, off) => {
  const target = input || root;
  const lbOf = () => { const id = target.getAttribute('aria-controls') || target.getAttribute('aria-owns') ||
    root.getAttribute('aria-controls') || root.getAttribute('aria-owns'); return id ? document.getElementById(id) : null; };
  const expanded = () => target.getAttribute('aria-expanded') === 'true' || root.getAttribute('aria-expanded') === 'true';
  const visible = nativeVisible;
  /* the popup may be a listbox or a tree (APG); a popup with no id the
   * combobox names is the one that appeared when it opened */
  const POPUPS = '[role=listbox],[role=tree],[role=grid]';
  const before = new Set(Array.from(document.querySelectorAll(POPUPS)).filter(visible));
  const appeared = () => Array.from(document.querySelectorAll(POPUPS)).filter(p => visible(p) && !before.has(p) && !p.contains(target));
  const optsOf = l => { const ps = l ? [l] : []; for (const p of appeared()) if (!ps.some(q => q.contains(p))) ps.push(p);
    return ps.flatMap(p => Array.from(p.querySelectorAll('[role=option],[role=treeitem]'))); };
  await nativeOpen(target, expanded);
  if (!expanded() && !lbOf()) throw nativeErr('not_taken', 'the popup did not open (neither a click nor Alt+ArrowDown opened it)');
  let picked = null, pickedEl = null;
  const shown = await nativeWait(() => { const o = nativeOptionMatch(optsOf(lbOf()), want, nativeName, x => x.id);
    return o && visible(o) ? o : null; }, 300);
  /* an option that already says it is selected before the pick: a list of
   * several choices turns it off when it is picked again (said so below) */
  const isOn = o => o.getAttribute('aria-selected') === 'true';
  let wasOn = false;
  if (shown) {
    if (typeof shown.scrollIntoView === 'function') shown.scrollIntoView({block: 'nearest'});
    /* the innermost element that holds the name: where a tree item's click handler listens */
    const name = nativeName(shown);
    let hit = shown;
    for (let d = hit.querySelector('*'); d; ) {
      const inner = Array.from(hit.children).find(c => nativeSquash(c.textContent) === name);
      if (!inner) break; hit = inner; d = inner.querySelector('*');
    }
    wasOn = isOn(shown); nativeClick(hit); picked = name; pickedEl = shown;
  } else {
    /* the active descendant, moved by the keys the pattern binds */
    const active = () => { const id = target.getAttribute('aria-activedescendant'); return id ? document.getElementById(id) : null; };
    const names = [], seen = new Set();
    const w = nativeSquash(want).toLowerCase();
    for (let i = 0; i < 1000; i++) {
      const a = await nativeWait(active, i ? 200 : 500);
      if (!a) break;
      const n = nativeName(a);
      if (n === nativeSquash(want) || n.toLowerCase() === w) {
        if (a.getAttribute('aria-disabled') === 'true') throw nativeErr('disabled', 'option ' + nativeShown(want) + ' is disabled');
        wasOn = isOn(a); nativeKey(target, 'Enter'); picked = n; pickedEl = a; break;
      }
      if (seen.has(a.id || n)) break; /* the list wrapped round: every option was active once */
      seen.add(a.id || n); names.push(n);
      const before = a.id || n;
      nativeKey(target, 'ArrowDown');
      if (!await nativeWait(() => { const b = active(); return b && (b.id || nativeName(b)) !== before; }, 300)) break;
    }
    if (!picked) {
      nativeKey(target, 'Escape');
      const offered = names.length ? names : optsOf(lbOf()).map(nativeName);
      throw nativeErr('not_found', 'the popup offers no option ' + nativeShown(want) +
        (offered.length ? ' (it offers: ' + offered.slice(0, 30).join(' | ') + (offered.length > 30 ? ' …' : '') + ')' : ''));
    }
  }
  /* an option that says whether it is selected must say so now (found by its
   * name: a virtual list reuses ids): a list of several choices turns a chosen
   * one off when it is picked again, and its search text is no value */
  const multi = target.getAttribute('aria-multiselectable') === 'true' || !!(lbOf() && lbOf().getAttribute('aria-multiselectable') === 'true');
  const named = () => optsOf(lbOf()).filter(o => nativeName(o) === picked && o.hasAttribute('aria-selected'));
  const beside = () => nativeComboShows(root, null, true);
  const chosen = () => { const n = named(); return n.some(o => o.getAttribute('aria-selected') === 'true') ? 1 : n.length ? 0 :
    (beside().includes(picked) ? 1 : -1); };
  /* off: asked to turn a chosen option off (deselect); the caller reads it back */
  if (off) return {value: picked};
  if (wasOn) {
    /* off now: a list of several choices toggled it, an error (never a
     * success, whatever a stale option still says); on: a single choice kept it */
    const gone = await nativeWait(() => chosen() !== 1, 1000);
    if (expanded()) nativeKey(target, 'Escape');
    /* a single choice whose popup marked the option its typed text matched and unmarks it once it
     * closes (OOUI's ComboBoxInputWidget): not toggled off, so what it shows is the read-back */
    if (gone && !nativeComboMulti(target, lbOf()) && nativeComboReads(root, input, lbOf())
      .some(r => r.via !== 'marked option' && r.text.toLowerCase() === picked.toLowerCase())) return {value: picked};
    if (gone) throw nativeErr('not_taken', 'option ' + nativeShown(want) + ' is not selected after picking it' +
      ' (a list of several choices turns a chosen option off when it is picked again)');
    return {value: picked};
  }
  if (pickedEl && (multi || pickedEl.hasAttribute('aria-selected') || expanded())) {
    const got = await nativeWait(() => chosen() === 1 || (!multi && !expanded() && chosen() === -1), 1000);
    if (!got) throw nativeErr('not_taken', 'option ' + nativeShown(want) + ' is not selected after picking it' +
      (multi || expanded() ? ' (a list of several choices turns a chosen option off when it is picked again)' : ''));
    if (multi || expanded()) { if (expanded()) nativeKey(target, 'Escape'); return {value: picked}; }
  }
  const reads = () => nativeComboReads(root, input, lbOf());
  const ok = await nativeWait(() => reads().some(r => r.text.toLowerCase() === picked.toLowerCase()), 1000);
  if (!ok) {
    const rs = reads();
    /* nothing shows a value: the pick may well have taken, which only the page can tell */
    if (!rs.length) return {value: picked, warning: 'could not read back ' + nativeShown(picked) +
      ': the combobox shows no value (no value, aria-valuetext, selected option, text or marked option); look at the page'};
    throw nativeErr('not_taken', 'the combobox shows ' + nativeShown(rs[0].text) + ' (' + rs[0].via + ') after picking ' + nativeShown(want));
  }
  if (expanded()) nativeKey(target, 'Escape');
  return {value: picked};
};
const nativeRun = async (K, T, P, meta, secretValues) => {
  /* a several-choice combobox's tags carry its key too: the root is the combobox */
  const marked = Array.from(document.querySelectorAll('[data-eous-nk="' + CSS.escape(K) + '"]'));
  const root = marked.find(e => e.getAttribute('role') === 'combobox') || marked[0];
  if (!root) throw nativeErr('unknown_component', 'component ' + K + ' is gone since the observation; observe again');
  const role = root.getAttribute('role') || '';
  P = P && typeof P === 'object' ? P : {};
  /* names of the params that held a {{secret:NAME}}: those fields are marked secret, their values never echoed */
  secretValues = Array.isArray(secretValues) ? secretValues : [];
  const anySecret = secretValues.length > 0;
  if (root.tagName === 'FORM') {
    const fillForm = async () => {
      const fields = meta && meta.fill && meta.fill.fields || {};
      const done = {};
      for (const name of Object.keys(P)) {
        const key = fields[name];
        if (!key) throw nativeErr('invalid_params', 'the form has no field ' + nativeShown(name));
        try { done[name] = await nativeSetField(key, P[name], secretValues.includes(name)); }
        catch (e) { throw nativeErr(e.code || 'not_taken', 'field ' + nativeShown(name) + ': ' + e.message +
          (Object.keys(done).length ? ' (set before it: ' + Object.keys(done).join(', ') + ')' : '')); }
      }
      return done;
    };
    if (T === 'click') {
      /* one of fill()'s fields, clicked by the executor with real input (a picker opens on it) */
      const fields = meta && meta.fill && meta.fill.fields || {};
      const el = fields[P.field] && document.querySelector('[data-eous-nk="' + CSS.escape(fields[P.field]) + '"]');
      if (!el) throw nativeErr('invalid_params', 'the form has no field ' + nativeShown(P.field) + ' (fields: ' +
        Object.keys(fields).join(' | ') + ')');
      nativeStampForClick(el, K);
      return {submit: 'click', what: 'field ' + nativeShown(P.field)};
    }
    if (T === 'fill') {
      const done = await fillForm();
      return {result: {set: Object.keys(done).length, fields: done}};
    }
    if (T === 'submit') {
      /* submit(fields) fills them first, as fill() does, then submits */
      const filled = Object.keys(P).length ? Object.keys(await fillForm()).length : 0;
      /* the submit control is found as the page shows it once the fill has settled: a focus may
       * load a script that replaces the form's no-JavaScript button (MediaWiki's search) */
      if (filled) await settle({quiet, cap, mark: t0});
      const bad = nativeFirstInvalid(root);
      if (bad && !root.hasAttribute('novalidate')) {
        const sub = root.querySelector('button:not([type]),button[type=submit],input[type=submit]');
        if (!sub || !sub.formNoValidate)
          throw nativeErr('invalid', "the browser's validation blocks the form: field '" + nativeLabel(bad) + "': " + bad.validationMessage);
      }
      const sub = root.querySelector('button:not([type]),button[type=submit],input[type=submit],input[type=image]') ||
        (root.getAttribute('id') ? document.querySelector('[form="' + CSS.escape(root.getAttribute('id')) + '"][type=submit],button[form="' +
          CSS.escape(root.getAttribute('id')) + '"]:not([type])') : null);
      /* novalidate: the page checks its fields itself (Bootstrap's validation) and may refuse the
       * submit, so the result names the field the browser finds invalid instead of "validation passed" */
      const pageChecks = bad && root.hasAttribute('novalidate') ?
        "field '" + nativeLabel(bad) + "' is invalid (" + bad.validationMessage + ')' : undefined;
      if (sub && !sub.disabled) {
        nativeStampForClick(sub, K);
        return {submit: 'click', label: nativeSquash(sub.value || sub.textContent), filled, pageChecks};
      }
      setTimeout(() => HTMLFormElement.prototype.requestSubmit.call(root), 0);
      return {submit: 'request', filled, pageChecks};
    }
  }
  if (T === 'select' && (root.tagName === 'TABLE' || role === 'grid')) {
    /* a calendar's day: clicked as a person clicks it, then read back (chosen, or the picker closed on it) */
    const days = nativeCalendarDays(root);
    if (!days) throw nativeErr('unknown_component', 'the calendar is gone since the observation; observe again');
    const day = days.find(d => d.date === String(P.date));
    const month = days[0].date.slice(0, 7);
    if (!day) throw nativeErr('not_found', 'the calendar shows ' + month + ', not ' + nativeShown(P.date) +
      ' (its next or previous month button shows another month)');
    if (day.off) throw nativeErr('disabled', nativeShown(P.date) + ' is disabled in the calendar');
    nativeClick(day.cell.querySelector('button,[role=button],a') || day.cell.firstElementChild || day.cell);
    const taken = await nativeWait(() => !nativeVisible(root) || (nativeCalendarDays(root) || []).some(d => d.date === day.date && d.on), 1000);
    if (!taken) throw nativeErr('not_taken', nativeShown(P.date) + ' is not chosen after the click (the calendar still shows it unchosen)');
    /* the field the picker fills is the one focused, where a picker keeps the focus */
    const f = document.activeElement;
    const r = {date: day.date};
    if (f && /^(INPUT|TEXTAREA)$/.test(f.tagName) && !nativeSecret(f)) r.field = {label: nativeLabel(f), value: f.value};
    return {result: r};
  }
  if (T === 'replace' && root.tagName === 'TEXTAREA') return {result: await nativeReplace(root, P.find, P.with, anySecret)};
  if (T === 'setValue' || T === 'select' || T === 'clear' || T === 'check' || T === 'uncheck') {
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(root.tagName) && role !== 'combobox') {
      const type = String(root.type || '').toLowerCase();
      if (T === 'check' || T === 'uncheck') return {result: await nativeCheck(root, T === 'check')};
      if (T === 'clear') {
        if (root.tagName === 'SELECT') { for (const o of root.options) o.selected = false;
          root.dispatchEvent(new Event('input', {bubbles: true})); root.dispatchEvent(new Event('change', {bubbles: true}));
          return {result: {value: []}}; }
        return {result: await nativeSetValue(root, '', nativeSecret(root))};
      }
      const v = P.value !== undefined ? P.value : P.option !== undefined ? P.option : P.options;
      return {result: await nativeSetField(K, v, anySecret)};
    }
  }
  if (role === 'slider' && T === 'setValue') {
    /* the APG slider's keys: Home or End, else an arrow held down (a held
     * key repeats its keydown) one step at a time until it says the value,
     * then released, when a slider commits (antd's onChangeComplete) */
    const now = () => Number(root.getAttribute('aria-valuenow'));
    const want = Number(P.value);
    if (typeof root.focus === 'function') root.focus();
    const edge = String(want) === root.getAttribute('aria-valuemax') ? 'End' : String(want) === root.getAttribute('aria-valuemin') ? 'Home' : null;
    if (edge) {
      const before = now();
      nativeKey(root, edge);
      await nativeWait(() => now() !== before, 500);
    }
    let held = null;
    for (let i = 0; i < 2000 && now() !== want; i++) {
      const before = now();
      held = now() < want ? 'ArrowRight' : 'ArrowLeft';
      nativeKeyEvent(root, 'keydown', held);
      /* a task between repeats, as a held key gives: React renders a key's
       * update at once, and updates chained in one task past its limit
       * (antd's tooltip re-aligns on each) throw away the whole page */
      await nativeTick();
      /* at its bound it never moves; elsewhere a busy page may take its time to render the step */
      const bound = Number(root.getAttribute(held === 'ArrowRight' ? 'aria-valuemax' : 'aria-valuemin'));
      if (now() === before && (before === bound || !await nativeWait(() => now() !== before, 1000))) break;
      /* a step past the value: the slider's steps do not land on it */
      if ((before < want) !== (now() < want) && now() !== want) break;
    }
    if (held) { nativeKeyEvent(root, 'keyup', held); await nativeFrame(); }
    await nativeTick();
    if (now() !== want) throw nativeErr('not_taken', 'the slider says ' + root.getAttribute('aria-valuenow') + ' after the keys, not ' + nativeShown(want));
    return {result: {value: now()}};
  }
  if (role === 'tablist' && T === 'select') {
    const tabs = Array.from(root.querySelectorAll('[role=tab]')).filter(t => t.closest('[role=tablist]') === root);
    const tab = nativeOptionMatch(tabs, String(P.tab), nativeName, t => t.id);
    if (!tab) throw nativeErr('not_found', 'no tab ' + nativeShown(P.tab) + ' (tabs: ' + tabs.map(nativeName).join(' | ') + ')');
    nativeClick(tab);
    const ok = await nativeWait(() => tab.getAttribute('aria-selected') === 'true', 500);
    if (!ok) throw nativeErr('not_taken', 'tab ' + nativeShown(P.tab) + ' is not selected after the click');
    return {result: {selected: nativeName(tab)}};
  }
  if (role === 'listbox' && T === 'select') {
    const opts = Array.from(root.querySelectorAll('[role=option]'));
    const o = nativeOptionMatch(opts, String(P.option), nativeName, x => x.id);
    if (!o) throw nativeErr('not_found', 'no option ' + nativeShown(P.option) + ' (options: ' + opts.slice(0, 20).map(nativeName).join(' | ') + ')');
    if (typeof o.scrollIntoView === 'function') o.scrollIntoView({block: 'nearest'});
    nativeClick(o);
    const ok = await nativeWait(() => o.getAttribute('aria-selected') === 'true', 500);
    if (!ok) throw nativeErr('not_taken', 'option ' + nativeShown(P.option) + ' is not selected after the click');
    return {result: {value: nativeName(o)}};
  }
  if (role === 'combobox' && T === 'expand') {
    /* as nativeComboPick opens it: the key the pattern binds, else a click */
    const input = root.matches('input,textarea') ? root : root.querySelector('input');
    const target = input || root;
    const open = () => target.getAttribute('aria-expanded') === 'true' || root.getAttribute('aria-expanded') === 'true';
    const lbId = target.getAttribute('aria-controls') || target.getAttribute('aria-owns') ||
      root.getAttribute('aria-controls') || root.getAttribute('aria-owns');
    const lb = () => lbId ? document.getElementById(lbId) : null;
    /* opening is no edit: what it holds is read before and after */
    const before = nativeComboValue(root, input, lb());
    if (!await nativeOpen(target, open)) throw nativeErr('not_taken', 'the popup did not open (neither a click nor Alt+ArrowDown opened it)');
    const after = nativeComboValue(root, input, lb());
    if (after !== before) throw nativeErr('not_taken', 'opening the popup changed the value from ' + nativeShown(before) + ' to ' + nativeShown(after));
    return {result: {expanded: true}};
  }
  if (role === 'combobox' && (T === 'select' || T === 'setValue' || T === 'deselect')) {
    const input = root.matches('input,textarea') ? root : root.querySelector('input');
    const want = String(T === 'setValue' ? P.value : P.option);
    /* an editable combobox filters as text is typed; a read-only one (a
     * select-only combobox, APG) only opens and moves */
    const editable = input && !input.readOnly && !input.disabled;
    /* several choices: select() makes the option chosen and deselect() not, each read back from
     * what the combobox holds (perception/native_combo_text.js, as the view prints it); picking
     * toggles, so an option already as asked is left alone */
    const lbId = (input || root).getAttribute('aria-controls') || (input || root).getAttribute('aria-owns');
    const lb = lbId ? document.getElementById(lbId) : null;
    const multi = T !== 'setValue' && nativeComboMulti(input || root, lb);
    const chosen = () => nativeComboChosen(input || root, input, lb);
    const has = () => chosen().some(c => c.toLowerCase() === nativeSquash(want).toLowerCase());
    if (T === 'deselect' && !multi) throw nativeErr('invalid_params', 'deselect() is for a combobox of several choices; this one holds one');
    if (multi && T === 'select' && has()) return {result: {selected: chosen(), already: true}};
    if (multi && T === 'deselect') {
      if (!has()) throw nativeErr('not_found', 'option ' + nativeShown(want) + ' is not chosen (chosen: ' + (chosen().join(' | ') || 'none') + ')');
      if (editable) await nativeSetValue(input, want, false, true).catch(() => {});
      try { await nativeComboPick(root, input, want, true); }
      catch (e) { if (e.code !== 'not_found' || !editable) throw e;
        await nativeSetValue(input, '', false, true).catch(() => {}); await nativeComboPick(root, input, want, true); }
      if (!await nativeWait(() => !has(), 1000)) throw nativeErr('not_taken', 'option ' + nativeShown(want) + ' is still chosen after picking it');
      if ((input || root).getAttribute('aria-expanded') === 'true') nativeKey(input || root, 'Escape');
      if (editable && input.value) await nativeSetValue(input, '', false, true).catch(() => {});
      return {result: {selected: chosen()}};
    }
    if (editable) { await nativeSetValue(input, want, false, true).catch(() => {}); }
    /* a select-only combobox holds no text (OOUI's dropdown): setValue(v) is the pick of the option
     * named v, as select(v), never an "ok" that changed nothing */
    if (T === 'setValue' && editable) return {result: {value: input.value}};
    /* 'A / B': a path through a cascade of menus, else one option of that name */
    const path = want.split(' / ').map(nativeSquash).filter(Boolean);
    if (path.length > 1) {
      try { return {result: await nativeCascadePick(root, input, path)}; }
      catch (e) { if (e.code !== 'not_found' || e.level > 0) throw e; }
    }
    try { return {result: await nativeComboPick(root, input, want)}; }
    catch (e) {
      /* the typed text filtered the option out (a search by value, say):
       * the whole list, unfiltered, is walked once more */
      if (!editable || e.code !== 'not_found') throw e;
      await nativeSetValue(input, '', false, true).catch(() => {});
      return {result: await nativeComboPick(root, input, want)};
    }
  }
  if (root.hasAttribute('aria-expanded') && (T === 'expand' || T === 'collapse')) {
    const want = T === 'expand' ? 'true' : 'false';
    if (root.getAttribute('aria-expanded') !== want) nativeClick(root);
    const ok = await nativeWait(() => root.getAttribute('aria-expanded') === want, 500);
    if (!ok) throw nativeErr('not_taken', 'still ' + (want === 'true' ? 'collapsed' : 'expanded') + ' after the click');
    return {result: {expanded: want === 'true'}};
  }
  if (T === 'close' && (root.tagName === 'DIALOG' || role === 'dialog' || role === 'alertdialog')) {
    const gone = () => !root.isConnected || (root.tagName === 'DIALOG' ? !root.open : !root.checkVisibility());
    const btn = Array.from(root.querySelectorAll('button,[role=button]')).find(b =>
      /^(close|cancel|dismiss|×|✕|x)$/i.test(nativeText(b)) || /close|dismiss/i.test(b.getAttribute('aria-label') || ''));
    if (btn) nativeClick(btn);
    else root.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', code: 'Escape', bubbles: true}));
    let ok = await nativeWait(gone, 500);
    if (!ok && root.tagName === 'DIALOG') { root.close(); ok = gone(); }
    if (!ok) throw nativeErr('not_taken', 'the dialog is still open');
    return {result: {closed: true}};
  }
  if (T === 'sort') {
    const scope = root.closest('table,[role=grid],[role=table],[role=treegrid]') || root;
    const heads = Array.from(scope.querySelectorAll('th,[role=columnheader]')).filter(h =>
      h.closest('table,[role=grid],[role=table],[role=treegrid]') === scope);
    const clean = h => nativeName(h).replace(/[▲▼↑↓]/g, '').trim();
    const h = nativeOptionMatch(heads, String(P.column), clean, x => x.id);
    if (!h) throw nativeErr('not_found', 'no column ' + nativeShown(P.column));
    const want = String(P.direction);
    for (let i = 0; i < 3 && h.getAttribute('aria-sort') !== want; i++) {
      const before = h.getAttribute('aria-sort');
      nativeClick(h.querySelector('button,[role=button]') || h);
      await nativeWait(() => h.isConnected && h.getAttribute('aria-sort') !== before, 500);
    }
    if (h.getAttribute('aria-sort') !== want)
      throw nativeErr('not_taken', 'column ' + nativeShown(P.column) + ' is ' + (h.getAttribute('aria-sort') || 'not sorted') + ' after clicking its header');
    return {result: {sorted: clean(h) + ' ' + want}};
  }
  if (T === 'filter') {
    /* open the column's filter menu, tick exactly the values asked (untick the others), confirm */
    const scope = root.closest('table,[role=grid],[role=table],[role=treegrid]') || root;
    const heads = Array.from(scope.querySelectorAll('th,[role=columnheader]')).filter(h =>
      h.closest('table,[role=grid],[role=table],[role=treegrid]') === scope && nativeFilterTrigger(h));
    const h = nativeOptionMatch(heads, String(P.column), nativeColumnName, x => x.id);
    if (!h) throw nativeErr('not_found', 'no column ' + nativeShown(P.column) + ' with a filter');
    const want = (Array.isArray(P.values) ? P.values : [P.values]).map(v => nativeSquash(v));
    const POPS = NATIVE_POPUPS, visible = nativeVisible;
    const before = new Set(Array.from(document.querySelectorAll(POPS)).filter(visible));
    nativeClick(nativeFilterTrigger(h));
    const pop = await nativeWait(() => Array.from(document.querySelectorAll(POPS)).find(p => visible(p) && !before.has(p) && !scope.contains(p)), 1000);
    if (!pop) throw nativeErr('not_taken', 'the filter of column ' + nativeShown(P.column) + ' did not open');
    const items = Array.from(pop.querySelectorAll(NATIVE_ITEMS));
    const close = () => nativeKey(document.activeElement || pop, 'Escape');
    const missing = want.filter(w => !nativeOptionMatch(items, w, nativeName, x => x.id));
    if (missing.length) {
      close();
      throw nativeErr('not_found', 'the filter of column ' + nativeShown(P.column) + ' offers no ' + missing.map(nativeShown).join(', ') +
        ' (it offers: ' + items.map(nativeName).slice(0, 30).join(' | ') + ')');
    }
    const on = it => it.getAttribute('aria-checked') === 'true' || it.getAttribute('aria-selected') === 'true' ||
      !!it.querySelector('input[type=checkbox]:checked,input[type=radio]:checked');
    const wanted = new Set(want.map(w => nativeOptionMatch(items, w, nativeName, x => x.id)));
    for (const it of items)
      if (wanted.has(it) !== on(it)) { nativeClick(it); await nativeWait(() => on(it) === wanted.has(it), 500); }
    const bad = items.filter(it => wanted.has(it) !== on(it));
    if (bad.length) { close(); throw nativeErr('not_taken', 'the filter of column ' + nativeShown(P.column) + ' did not take ' + bad.map(nativeName).join(', ')); }
    /* the menu's confirm button (OK, Apply, Filter…), in the panel that holds the menu */
    let panel = pop;
    for (let i = 0; i < 4 && panel.parentElement && !panel.querySelector('button'); i++) panel = panel.parentElement;
    const ok = Array.from(panel.querySelectorAll('button,[role=button]')).find(b => !b.disabled &&
      /^(ok|apply|filter|confirm|search|done)$/i.test(nativeSquash(b.textContent)));
    if (ok) nativeClick(ok);
    if (!await nativeWait(() => !visible(pop), 1000)) close();
    return {result: {column: nativeColumnName(h), values: want}};
  }
  if (role === 'tree' && (T === 'expand' || T === 'collapse' || T === 'select')) {
    const items = Array.from(root.querySelectorAll('[role=treeitem]'));
    const own = it => { const g = it.querySelector('[role=group]'); let t = '';
      for (const c of it.childNodes) if (c !== g) t += c.nodeType === 3 ? c.data : (c.nodeType === 1 ? c.textContent : '');
      return nativeSquash(it.getAttribute('aria-label') || t); };
    const it = nativeOptionMatch(items, String(P.item), own, x => x.id);
    if (!it) throw nativeErr('not_found', 'no tree item ' + nativeShown(P.item));
    /* the item's own label, not its group of children */
    const target = Array.from(it.children).find(c => c.getAttribute('role') !== 'group' && c.tagName !== 'UL') || it;
    if (T === 'select') {
      nativeClick(target);
      const ok = await nativeWait(() => it.getAttribute('aria-selected') === 'true' || document.activeElement === it, 500);
      if (!ok && it.hasAttribute('aria-selected')) throw nativeErr('not_taken', 'item ' + nativeShown(P.item) + ' is not selected after the click');
      return {result: {selected: own(it)}};
    }
    const want = T === 'expand' ? 'true' : 'false';
    if (it.getAttribute('aria-expanded') !== want) nativeClick(target);
    const ok = await nativeWait(() => it.getAttribute('aria-expanded') === want, 500);
    if (!ok) throw nativeErr('not_taken', 'item ' + nativeShown(P.item) + ' is still ' + (want === 'true' ? 'collapsed' : 'expanded'));
    return {result: {item: own(it), expanded: want === 'true'}};
  }
  if (T === 'goToPage' || T === 'next' || T === 'previous') {
    let link = null, what = '';
    if (T === 'goToPage') {
      const links = Array.from(root.querySelectorAll('a,button,[role=link],[role=button],li'))
        .filter(a => nativeSquash(a.textContent) === String(P.page));
      /* the innermost: the link in a list item, not the item */
      link = links.find(a => !links.some(b => b !== a && a.contains(b))) || null;
      if (!link) throw nativeErr('not_found', 'no page ' + nativeShown(P.page));
      what = 'page ' + P.page;
    } else {
      const re = T === 'next' ? /^next( page)?$/i : /^prev(ious)?( page)?$/i;
      const rel = T === 'next' ? 'next' : 'prev';
      const step = Array.from(root.querySelectorAll('a,button,li,[role=link],[role=button]')).find(e =>
        e.getAttribute('rel') === rel || re.test(nativeSquash(e.getAttribute('aria-label') || '')) ||
        re.test(nativeSquash(e.getAttribute('title') || '')) || re.test(nativeSquash(e.textContent)));
      if (!step) throw nativeErr('not_found', 'no ' + T + ' page link');
      if (step.getAttribute('aria-disabled') === 'true' || step.disabled) throw nativeErr('disabled', 'there is no ' + T + ' page (its link is disabled)');
      link = step.matches('li') ? (step.querySelector('a,button,[role=link],[role=button]') || step) : step;
      if (link.disabled) throw nativeErr('disabled', 'there is no ' + T + ' page (its link is disabled)');
      what = 'the ' + T + ' page';
    }
    nativeStampForClick(link, K);
    return {submit: 'click', what};
  }
  if (T === 'open') {
    /* a group of links: the one of that name, as native.js listed it */
    const links = Array.from(root.querySelectorAll('a[href],[role=link]'));
    const link = nativeOptionMatch(links, String(P.link), nativeLinkName, a => a.getAttribute('href'));
    if (!link) throw nativeErr('not_found', 'no link ' + nativeShown(P.link));
    nativeStampForClick(link, K);
    return {submit: 'click', what: "link '" + nativeLinkName(link) + "'"};
  }
  throw nativeErr('unknown_tool', 'the ' + (role || root.tagName.toLowerCase()) + ' has no tool ' + T);
};

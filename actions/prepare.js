/* Prepares a target: checks its marks before any side effect, scrolls it into
 * view and hands back the element with facts about it.
 * args: stash token, {bid} (W3C-only sessions: ids given by
 * perception/axtree.js) or null; element or null; scroll; wantType. */
return (function(t, el, scroll, wantType) {
// @include page_helpers.js
// @include widgets.js
// @include prepare_el.js
  if (t && typeof t === 'object') {
    const reg = window.__eous_ax__, ref = reg && reg.byId.get(t.bid);
    el = ref ? ref.deref() : null;
    if (el && el.nodeType !== 1) el = el.parentElement;
  } else if (t) {
    el = window[t];
    try { delete window[t]; } catch (e) {}
  }
  return prepareEl(el, scroll, wantType);
}).apply(null, arguments);

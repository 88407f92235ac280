/* A table column header's filter: a button in the header named "filter"
 * (by its label, title, or an icon's label, as Ant Design's Table prints
 * its funnel) that opens a menu of values.  nativeFilterTrigger(th) is that
 * button or null; nativeColumnName(th) the header's own text, the button's
 * name left out ("Role", where the accessibility tree says "Role filter").
 * One definition for the view (native.js lists the columns) and the tool
 * (actions/native_call.js opens the menu), so the two never disagree. */
const nativeControlName = b => String(b.getAttribute('aria-label') || b.getAttribute('title') ||
  Array.from(b.querySelectorAll('[role=img][aria-label],img[alt],svg[aria-label]'))
    .map(i => i.getAttribute('aria-label') || i.getAttribute('alt')).join(' ') || b.textContent || '')
  .replace(/\s+/g, ' ').trim();
const nativeFilterTrigger = th => Array.from(th.querySelectorAll('button,[role=button]'))
  .find(b => /^filter\b/i.test(nativeControlName(b))) || null;
const nativeColumnName = th => {
  const trig = nativeFilterTrigger(th);
  let t = '';
  const walk = n => { for (const c of n.childNodes) {
    if (c.nodeType === 3) t += c.data;
    else if (c.nodeType === 1 && c !== trig && !/^(INPUT|SELECT|TEXTAREA|SCRIPT|STYLE)$/.test(c.tagName)) walk(c);
  } };
  walk(th);
  return t.replace(/[▲▼↑↓]/g, '').replace(/\s+/g, ' ').trim();
};

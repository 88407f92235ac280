/* The current page's localStorage for browser_storage_state and
 * browser_set_storage_state (--caps storage).  args: "read" → {origin, items:
 * [{name, value}]} (null on a page without an http(s) origin); "write", items
 * → the origin's localStorage replaced by items.  The key eous uses to seed an
 * origin once (mcp/caps_seed.js) is never read back. */
const [mode, items] = arguments;
if (!/^https?:$/.test(location.protocol))
  return null;
if (mode === 'write') {
  localStorage.clear();
  for (const it of items || [])
    localStorage.setItem(String(it.name), String(it.value));
}
const out = [];
for (let i = 0; i < localStorage.length; i++) {
  const k = localStorage.key(i);
  if (k !== '__eous_storage_state')
    out.push({name: k, value: localStorage.getItem(k)});
}
return {origin: location.origin, items: out};

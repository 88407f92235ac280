/* browser_localstorage_* and browser_sessionstorage_* (--caps storage): the
 * current page's Web Storage.  args: area ("local" | "session"), op ("list",
 * "get", "set", "delete", "clear"), key, value.  Returns {origin, items:
 * [{name, value}]}, by name, for list, {found, value} for get, {} otherwise; null on a
 * page without an http(s) origin.  The key eous seeds an origin under
 * (mcp/caps_seed.js) is never listed. */
const [area, op, key, value] = arguments;
if (!/^https?:$/.test(location.protocol))
  return null;
const st = area === 'session' ? sessionStorage : localStorage;
if (op === 'get') {
  const v = st.getItem(key);
  return {origin: location.origin, found: v !== null, value: v};
}
if (op === 'set')
  st.setItem(key, value);
else if (op === 'delete')
  st.removeItem(key);
else if (op === 'clear')
  st.clear();
const items = [];
for (let i = 0; i < st.length; i++) {
  const k = st.key(i);
  if (k !== '__eous_storage_state')
    items.push({name: k, value: st.getItem(k)});
}
items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)); /* the browser keeps no order */
return {origin: location.origin, items};

/* browser_set_storage_state for an origin the tab is not on: run before each
 * new document's scripts (Page.addScriptToEvaluateOnNewDocument), it replaces
 * that origin's localStorage with the saved items once per restore (the
 * restore's nonce, kept under __eous_storage_state, says it was done), so the
 * page's later changes stay.  Called as (origin, items, nonce). */
(function (origin, items, nonce) {
  if (location.origin !== origin)
    return;
  try {
    if (localStorage.getItem('__eous_storage_state') === nonce)
      return;
    localStorage.clear();
    for (const it of items)
      localStorage.setItem(it.name, it.value);
    localStorage.setItem('__eous_storage_state', nonce);
  } catch (e) { /* storage refused (an opaque origin): nothing to seed */ }
})

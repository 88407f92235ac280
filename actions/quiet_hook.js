/* Notes when the document last changed, from the moment it starts, so that
 * settling after a navigation counts the quiet time from the page's own last
 * change instead of from when our script arrives (page_helpers.js settle).
 * Installed for every new document through CDP; without CDP there is no
 * record and settle waits its full quiet time. */
(function() {
  if (window.__eous_quiet__) return;
  const q = {since: performance.now(), last: 0};
  try {
    new MutationObserver(() => { q.last = performance.now(); })
      .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    window.__eous_quiet__ = q;
  } catch (e) {}
})();

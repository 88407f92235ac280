/* Records every alert/confirm/prompt the page opens, so the step can say
 * which dialog the session dismissed.  Installed for every new document
 * through CDP; without CDP, by the first dialog read on a document. */
(function() {
  if (window.__eous_dialog_hook__) return;
  window.__eous_dialog_hook__ = 1;
  window.__eous_dialogs__ = window.__eous_dialogs__ || [];
  for (const k of ['alert', 'confirm', 'prompt']) {
    const orig = window[k];
    if (typeof orig !== 'function') continue;
    window[k] = function(msg) {
      try { window.__eous_dialogs__.push(k + ' ' + JSON.stringify(String(msg === undefined ? '' : msg)).slice(0, 200)); }
      catch (e) {}
      return orig.apply(this, arguments);
    };
  }
})();

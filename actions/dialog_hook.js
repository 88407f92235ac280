/* Records every alert/confirm/prompt the page opens, so the step can say
 * which dialog the session dismissed.  Installed for every new document
 * through CDP; without CDP, by the first dialog read on a document.  An
 * answer armed beforehand (window.__eous_dialog_answer__ = {accept,
 * promptText}, eous mcp's browser_handle_dialog) answers the next dialog
 * instead of the driver's dismissal, once, and the record says how. */
(function() {
  if (window.__eous_dialog_hook__) return;
  window.__eous_dialog_hook__ = 1;
  window.__eous_dialogs__ = window.__eous_dialogs__ || [];
  for (const k of ['alert', 'confirm', 'prompt']) {
    const orig = window[k];
    if (typeof orig !== 'function') continue;
    window[k] = function(msg, dflt) {
      const ans = window.__eous_dialog_answer__;
      window.__eous_dialog_answer__ = null;
      const text = ans && ans.accept && k === 'prompt' ? String(ans.promptText != null ? ans.promptText : (dflt === undefined ? '' : dflt)) : null;
      const how = !ans ? '' : ' (answered: ' + (ans.accept ? 'accepted' : 'dismissed') +
        (text !== null ? ' with ' + JSON.stringify(ans.secret ? '[redacted]' : text).slice(0, 100) : '') + ')';
      try { window.__eous_dialogs__.push(k + ' ' + JSON.stringify(String(msg === undefined ? '' : msg)).slice(0, 200) + how); }
      catch (e) {}
      if (ans) return k === 'confirm' ? !!ans.accept : k === 'prompt' ? text : undefined;
      return orig.apply(this, arguments);
    };
  }
})();

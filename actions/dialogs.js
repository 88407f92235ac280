/* takeDialogs(): the dialogs recorded since the last read (at most 5), which
 * it clears; installs the hook on a document that does not have it yet.
 * Included by dialog_take.js and by the scripts that settle after an action,
 * so the step learns its dialogs without a round trip of its own. */
const takeDialogs = () => {
  const d = window.__eous_dialogs__ || [];
  window.__eous_dialogs__ = [];
// @include dialog_hook.js
  return d.slice(0, 5);
};

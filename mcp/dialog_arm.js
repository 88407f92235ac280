/* browser_handle_dialog with no dialog open: the next dialog this page opens
 * is answered so (actions/dialog_hook.js reads window.__eous_dialog_answer__),
 * once.  args: accept, promptText (null: the prompt's default), secret (the
 * text came from a {{secret:NAME}}: never recorded).  Returns the page's URL. */
// @include actions/dialog_hook.js
window.__eous_dialog_answer__ = {accept: !!arguments[0], promptText: arguments[1], secret: !!arguments[2]};
return location.href;

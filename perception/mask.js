/* Masks what a screenshot must not show, or removes the mask (arguments[0]:
 * true = on).  One style element, removed right after the capture; the rules
 * change paint only (filter, colour, visibility), never layout.  The secret
 * fields are perception's rule (marks.c perc_is_secret_field): password
 * inputs, one-time-code / cc-* / current- and new-password autocomplete, and
 * everything inside data-agent-secret; data-agent-hidden regions go blank. */
return (function(on) {
  const id = '__eous_mask__';
  let s = document.getElementById(id);
  if (on && !s) {
    s = document.createElement('style');
    s.id = id;
    s.textContent =
      '[data-agent-secret],[data-agent-secret] *,input[type=password i],' +
      '[autocomplete~=one-time-code],[autocomplete^=cc-],[autocomplete~=current-password],' +
      '[autocomplete~=new-password]' +
      '{filter:blur(10px)!important;color:transparent!important;text-shadow:none!important;' +
      'caret-color:transparent!important;-webkit-text-security:disc!important}' +
      '[data-agent-hidden]{visibility:hidden!important}';
    (document.head || document.documentElement).appendChild(s);
  }
  if (!on && s) s.remove();
  return true;
})(arguments[0]);

/* What the start page became: Chromium's error page (with its net::ERR_ code),
 * the document's HTTP status (Navigation Timing's responseStatus), or an empty
 * document (no element and no text in its body once loaded). */
const n = performance.getEntriesByType('navigation')[0];
const code = document.querySelector('.error-code');
const b = document.body;
return {
  href: location.href,
  status: n && n.responseStatus ? n.responseStatus : 0,
  empty: !document.documentElement || !b || (!b.firstElementChild && !b.textContent.trim()),
  neterr: location.protocol === 'chrome-error:' ? (code ? code.textContent : 'error page') : ''
};

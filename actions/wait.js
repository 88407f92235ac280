// One slice of a wait step (actions/wait.c): resolves as soon as the condition
// holds, or after sliceMs with met false; C repeats slices up to the step's timeout.
// arguments: [cond, value, sliceMs]; cond is 'text' | 'gone_text' | 'url' |
// 'network_idle' | 'change' (met on any DOM change: C then looks at the page again).
const [cond, value, sliceMs] = arguments;
const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim().toLowerCase();
const want = norm(value);
// the page's text as a person reads it, without regions the agent must not see
const pageText = () => {
  const b = document.body;
  if (!b) return '';
  if (!b.querySelector('[data-agent-hidden]')) return norm(b.innerText);
  let t = '';
  const walk = (el) => {
    for (const c of el.childNodes) {
      if (c.nodeType === 3) t += ' ' + c.nodeValue;
      else if (c.nodeType === 1 && !c.hasAttribute('data-agent-hidden') && !/^(SCRIPT|STYLE|TEMPLATE)$/.test(c.tagName)) walk(c);
    }
  };
  walk(b);
  return norm(t);
};
const NET_QUIET_MS = 500;
const check = () => {
  if (cond === 'text') return pageText().includes(want);
  if (cond === 'gone_text') return !pageText().includes(want);
  if (cond === 'url') return location.href.includes(String(value));
  if (cond === 'network_idle') {
    const n = window.__eous_net__;
    return !!n && n.pending === 0 && performance.now() - n.last >= NET_QUIET_MS;
  }
  return false;
};
const answer = (met) => ({met, url: location.href, hooked: !!window.__eous_net__});
if (check() || !(sliceMs > 0)) return answer(check());
return new Promise((resolve) => {
  let mo = null, timer = 0, poll = 0;
  const done = (met) => {
    if (mo) mo.disconnect();
    clearTimeout(timer);
    clearInterval(poll);
    resolve(answer(met));
  };
  mo = new MutationObserver(() => { if (cond === 'change' || check()) done(true); });
  mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  // URLs (history.pushState) and the network change without touching the DOM
  if (cond === 'url' || cond === 'network_idle') poll = setInterval(() => { if (check()) done(true); }, 50);
  timer = setTimeout(() => done(check()), sliceMs);
});

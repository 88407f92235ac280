// Shared by run-plan.mjs and check-ci4a.mjs: plan step execution and WebArena-style evaluation.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const SETTLE_MS = 150;

export function site(url, base) { return url.replace(/__PLAYGROUND__/g, base); }

// ---------------- WebArena evaluators ----------------
export function clean(s) {
  s = String(s).trim();
  if ((s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'"))) s = s.slice(1, -1);
  return s.toLowerCase();
}
const exactMatch = (ref, pred) => (clean(ref) === clean(pred) ? 1 : 0);
function mustInclude(ref, pred, tokenize) {
  const r = clean(ref), p = clean(pred);
  if (tokenize && r.split(/\s+/).length === 1) return p.split(/[^a-z0-9\-_.$€]+/).includes(r) ? 1 : 0;
  return p.includes(r) ? 1 : 0;
}
export function stringMatch(ev, answer) {
  let score = 1;
  for (const [approach, value] of Object.entries(ev.reference_answers || {})) {
    if (approach === 'exact_match') score *= exactMatch(value, answer);
    else if (approach === 'must_include') {
      for (const v of value) score *= mustInclude(v, answer, value.length === 1);
    } else if (approach === 'fuzzy_match') {
      if (value === 'N/A') score *= exactMatch('N/A', answer);
      else for (const v of [].concat(value)) score *= mustInclude(v, answer, false); // offline stand-in for the LLM judge
    }
  }
  return score;
}
function parseUrl(u) {
  const x = new URL(u);
  const q = {};
  for (const [k, v] of x.searchParams) (q[k] ||= []).push(v);
  return { base: x.host + x.pathname.replace(/\/+$/, ''), q };
}
export function urlMatch(ev, predUrl, base) {
  const refs = site(ev.reference_url, base).split(' |OR| ');
  const pred = parseUrl(predUrl);
  for (const ref of refs) {
    const r = parseUrl(ref);
    const baseOk = pred.base.includes(r.base); // GOLD in PRED
    const qOk = Object.entries(r.q).every(([k, vs]) => vs.every((v) => (pred.q[k] || []).includes(v)));
    if (baseOk && qOk) return 1;
  }
  return 0;
}
export async function programHtml(ev, page, base) {
  let score = 1;
  const reasons = [];
  for (const t of ev.program_html || []) {
    if (t.url !== 'last') {
      await page.goto(site(t.url, base));
      await page.waitForFunction(() => window.__playground__, null, { timeout: 10000 });
      await sleep(300);
    }
    if (!t.locator.startsWith('document.')) { reasons.push(`locator must start with document.: ${t.locator}`); score = 0; continue; }
    let val;
    try { val = await page.evaluate(`(() => String(${t.locator}))()`); } catch (e) { val = ''; reasons.push(`locator threw: ${String(e.message).split('\n')[0]}`); }
    const rc = t.required_contents || {};
    let s = 1;
    if (rc.exact_match !== undefined) s *= exactMatch(rc.exact_match, val);
    if (rc.must_include) for (const c of rc.must_include) s *= c.split(' |OR| ').some((x) => mustInclude(x, val, false)) ? 1 : 0;
    if (!s) reasons.push(`${t.locator} = ${JSON.stringify(val.slice(0, 120))}, want ${JSON.stringify(rc)}`);
    score *= s;
  }
  return { score, reason: reasons.join('; ') };
}
export async function evaluate(task, page, answer, base) {
  const ev = task.eval;
  let score = 1; const reasons = [];
  for (const type of ev.eval_types) {
    if (type === 'string_match') {
      const s = answer === null ? 0 : stringMatch(ev, answer);
      if (!s) reasons.push(`answer ${JSON.stringify(answer)} does not match ${JSON.stringify(ev.reference_answers)}`);
      score *= s;
    } else if (type === 'url_match') {
      const s = urlMatch(ev, page.url(), base);
      if (!s) reasons.push(`url ${page.url()} does not match ${ev.reference_url}`);
      score *= s;
    } else if (type === 'program_html') {
      const r = await programHtml(ev, page, base);
      if (!r.score) reasons.push(r.reason);
      score *= r.score;
    } else { reasons.push(`unknown eval type ${type}`); score = 0; }
  }
  return { score, reason: reasons.join('; ') };
}

// ---------------- target resolution ----------------
const norm = (s) => String(s).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
export async function resolveCallTarget(page, target) {
  const reg = await page.evaluate(() => {
    const s = window.__ci4a__ ? window.__ci4a__.getStatus() : {};
    return Object.values(s).map((e) => ({ key: e.key, kind: e.kind, label: e.label }));
  });
  if (reg.some((e) => e.key === target)) return target;
  const t = norm(target);
  const re = new RegExp(`(^|[^a-z0-9])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9])`);
  let m = reg.filter((e) => norm(e.label) === t);
  if (!m.length) m = reg.filter((e) => re.test(norm(e.label)));
  if (!m.length) m = reg.filter((e) => e.kind === target);
  if (m.length === 1) return m[0].key;
  if (!m.length) throw new Error(`call target '${target}' not found`);
  throw new Error(`call target '${target}' is ambiguous: ${m.map((e) => `${e.key} (${e.kind}, '${e.label}')`).join(', ')}`);
}

// resolve, re-observing for up to ~4 s while the page settles (slow machines)
export async function resolveAtomic(page, cdp, target) {
  let last;
  for (let i = 0; i < 16; i++) {
    try { return await resolveOnce(page, cdp, target); } catch (e) { last = e; await sleep(250); }
  }
  throw last;
}
async function resolveOnce(page, cdp, target) {
  if (target.startsWith('css=')) {
    const h = await page.$(target.slice(4));
    if (!h) throw new Error(`no element for ${target}`);
    return { handle: h };
  }
  const m = target.match(/^(\S+) '([\s\S]*)'(?: #(\d+))?$/);
  if (!m) throw new Error(`bad atomic target ${target}`);
  const [, role, name, nth] = m;
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const hits = nodes.filter((n) => !n.ignored && n.role && n.role.value === role && ((n.name && n.name.value) || '') === name && n.backendDOMNodeId);
  const n = hits[(nth ? Number(nth) : 1) - 1];
  if (!n) throw new Error(`no AX node ${target} (${hits.length} matches; same role: ${JSON.stringify(nodes.filter((x) => !x.ignored && x.role && x.role.value === role).map((x) => [x.name && x.name.value, x.backendDOMNodeId]).slice(0, 8))})`);
  return { backendNodeId: n.backendDOMNodeId };
}
async function clickPoint(page, cdp, r) {
  if (r.handle) {
    await r.handle.evaluate((e) => e.scrollIntoView({ block: 'center', inline: 'center' }));
    const box = await r.handle.boundingBox();
    if (!box) throw new Error('element has no box');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }
  const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: r.backendNodeId });
  await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: 'function(){ (this.nodeType===1?this:this.parentElement).scrollIntoView({block:"center",inline:"center"}); }' });
  await cdp.send('Runtime.releaseObject', { objectId: object.objectId });
  const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: r.backendNodeId });
  const q = model.border;
  return { x: (q[0] + q[2] + q[4] + q[6]) / 4, y: (q[1] + q[3] + q[5] + q[7]) / 4 };
}
export async function clickTarget(page, cdp, target) {
  const r = await resolveAtomic(page, cdp, target);
  const p = await clickPoint(page, cdp, r);
  await page.mouse.click(p.x, p.y);
}

// ---------------- one step ----------------
export async function runStep(page, cdp, step, base, { atomicOnly = false } = {}) {
  if ('call' in step) {
    if (atomicOnly) throw new Error('call step in an atomic plan');
    const key = await resolveCallTarget(page, step.call);
    const res = await page.evaluate(async ({ key: k, tool, params }) => {
      try { return { ok: true, value: await window.__ci4a__.callTool(k, tool, params) }; } catch (e) { return { ok: false, error: e && e.code ? { code: e.code, message: e.message } : String(e) }; }
    }, { key, tool: step.tool, params: step.params || {} });
    if (!res.ok) throw new Error(`callTool ${key}.${step.tool} failed: ${JSON.stringify(res.error)}`);
    return null;
  }
  if ('click' in step) { await clickTarget(page, cdp, step.click); return null; }
  if ('hover' in step) {
    const p = await clickPoint(page, cdp, await resolveAtomic(page, cdp, step.hover));
    await page.mouse.move(p.x, p.y); return null;
  }
  if ('type' in step) {
    await clickTarget(page, cdp, step.type);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(step.text);
    if (step.enter) await page.keyboard.press('Enter');
    return null;
  }
  if ('select' in step) {
    const r = await resolveAtomic(page, cdp, step.select);
    const isNative = r.handle ? await r.handle.evaluate((e) => e.tagName === 'SELECT')
      : await (async () => { const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: r.backendNodeId }); const v = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: 'function(){return this.tagName}', returnByValue: true }); return v.result.value === 'SELECT'; })();
    if (isNative) { await page.$eval(':focus', () => 0).catch(() => 0); throw new Error('native select not used on this site'); }
    const p = await clickPoint(page, cdp, r);
    await page.mouse.click(p.x, p.y);
    await sleep(100);
    await page.keyboard.type(step.option);
    await sleep(200);
    // the option whose accessible name equals the text; antd keeps a hidden a11y listbox, so click the visible item
    let b = null;
    for (let i = 0; i < 12 && !b; i++) {
      for (const h of await page.$$(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title=${JSON.stringify(step.option)}]`)) {
        const bb = await h.boundingBox();
        if (bb && bb.width > 0 && bb.height > 0 && await h.isVisible()) { b = bb; break; }
      }
      if (!b) await sleep(250);
    }
    if (!b) throw new Error(`option '${step.option}' not found`);
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    return null;
  }
  if ('press' in step) { await page.keyboard.press(step.press); return null; }
  if ('scroll' in step) {
    const vp = page.viewportSize();
    await page.mouse.move(vp.width / 2, vp.height / 2);
    await page.mouse.wheel(0, step.scroll === 'up' ? -600 : 600);
    return null;
  }
  if ('goto' in step) { await page.goto(site(step.goto, base)); await page.waitForFunction(() => window.__playground__); return null; }
  if ('go_back' in step) { await page.goBack(); return null; }
  if ('go_forward' in step) { await page.goForward(); return null; }
  if ('stop' in step) return { stop: step.stop };
  throw new Error(`unknown step ${JSON.stringify(step)}`);
}

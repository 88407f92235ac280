// Shared by run-plan.mjs and check-ci4a.mjs: plan step execution and WebArena-style evaluation.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const SETTLE_MS = 150;

export function site(url, base) { return url.replace(/__PLAYGROUND__/g, base); }

// ---------------- WebArena evaluators: eous's, one implementation ----------------
// The page is read here (final URL, each program_html target's locator value after its prep
// actions, as WebArena's HTMLContentEvaluator reads them); scoring is `eous score`, the C
// evaluator the agent uses (webarena/eval.c), so there is no second set of rules in JS.
import { spawnSync } from 'node:child_process';
import { join as joinPath } from 'node:path';
import { repoRoot } from './browser.mjs';

export function eousBinary() { return process.env.EOUS_CLI || joinPath(repoRoot, 'build', 'eous'); }

// Scores observations [{eval, intent, answer, url, values}] with `eous score`.
export function scoreWithEous(items) {
  const input = items.map((x) => JSON.stringify(x)).join('\n') + '\n';
  const r = spawnSync(eousBinary(), ['score'], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`cannot run ${eousBinary()} score: ${r.error.message} (build eous or set EOUS_CLI)`);
  if (r.status !== 0) throw new Error(`eous score failed (exit ${r.status}): ${r.stderr.trim()}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

async function readTargets(ev, page, base) {
  const values = [];
  for (const t of ev.program_html || []) {
    if (t.url !== 'last') {
      await page.goto(site(t.url, base));
      await page.waitForFunction(() => window.__playground__, null, { timeout: 10000 });
      await sleep(300);
    }
    if (!t.locator.trim()) { values.push(await page.content()); continue; }
    try { for (const p of t.prep_actions || []) await page.evaluate(`(() => ${p})()`); } catch { /* WebArena: the rest are skipped */ }
    let v;
    try { v = await page.evaluate(`(() => ${t.locator})()`); } catch { v = ''; }
    values.push(v === undefined ? null : v);
  }
  return values;
}

export async function evaluate(task, page, answer, base) {
  const ev = JSON.parse(site(JSON.stringify(task.eval), base));
  const values = ev.eval_types.includes('program_html') ? await readTargets(ev, page, base) : [];
  const [r] = scoreWithEous([{ eval: ev, intent: task.intent || '', answer: answer === null ? '' : answer, url: page.url(), values }]);
  return { score: r.score, status: r.status, reason: r.detail };
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

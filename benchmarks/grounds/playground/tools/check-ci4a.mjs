#!/usr/bin/env node
// Proof for the CI4A transceiver: on every screen, for every registered component,
// call every tool with valid params (state must change as expected) and with invalid
// params (structured error, state unchanged); check popups carry data-cid-owner;
// check ?ci4a=off exposes nothing. Also prints AX-tree node counts per screen.
// usage: node tools/check-ci4a.mjs   -> last line "N passed, M failed"
import { launch, startServer } from './browser.mjs';

const SCREENS = process.env.CHECK_SCREENS ? process.env.CHECK_SCREENS.split(',') : ['/booking', '/users', '/settings', '/orders', '/orders/ORD-1001', '/apply'];
const POPUP_KINDS = ['select', 'cascader', 'datepicker', 'rangepicker', 'timepicker', 'treeselect'];
// tools that navigate, open/close overlays, submit or otherwise reshape the page: reload after them
const DISRUPTIVE = new Set(['click', 'submit', 'reset', 'navigateTo', 'rowAction', 'next', 'prev', 'goToStep', 'open', 'close']);
const NON_MUTATING = new Set(['search']);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let passed = 0, failed = 0;
const failures = [];
function ok(cond, what) { if (cond) passed++; else { failed++; failures.push(what); console.log(`FAIL ${what}`); } }

const srv = await startServer();
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const page = await ctx.newPage();
page.setDefaultTimeout(120000);
page.setDefaultNavigationTimeout(120000);
const cdp = await ctx.newCDPSession(page);
async function load(path, query = '') {
  await page.goto(`${srv.url}/__blank__.txt`);
  await page.evaluate(() => { localStorage.clear(); sessionStorage.clear(); });
  await page.goto(srv.url + path + query);
  await page.waitForFunction(() => window.__playground__, null, { timeout: 120000 });
  await sleep(300);
}
const status = (key) => page.evaluate((k) => (k ? window.__ci4a__.getStatus(k)[k] : window.__ci4a__.getStatus()), key);
const callTool = (key, tool, params) => page.evaluate(async ({ key: k, tool: t, params: p }) => {
  try { return { ok: true, value: await window.__ci4a__.callTool(k, t, p) }; } catch (e) { return { ok: false, error: e && typeof e === 'object' && !(e instanceof Error) ? { ...e } : { thrown: String(e) } }; }
}, { key, tool, params });
async function axCount() { const { nodes } = await cdp.send('Accessibility.getFullAXTree'); return nodes.filter((n) => !n.ignored).length; }

const addDays = (iso, n) => { const d = new Date(iso + 'T00:00:00Z'); d.setUTCDate(d.getUTCDate() + n); return d.toISOString().slice(0, 10); };
// a valid value for one param spec (different from `cur` where possible)
function validValue(spec, cur, entry, tool, name) {
  const m = entry.metadata[tool];
  if (tool === 'rowAction' && name === 'key') return entry.state.rows[0] && entry.state.rows[0].key;
  if (tool === 'selectRows' && name === 'keys') return entry.state.rows.slice(0, 2).map((r) => r.key);
  if (tool === 'filter' && name === 'column') return Object.keys(m.constraints.filterValues)[0];
  if (tool === 'filter' && name === 'values') return [Object.values(m.constraints.filterValues)[0][0]];
  if (tool === 'setValue' && name === 'path') { const [c, cities] = Object.entries(m.constraints.options).find(([k]) => !cur || k !== cur[0]); return [c, cities[0]]; }
  if (tool === 'deselect') return (entry.state.value || [])[0];
  if (name === 'query') return 'a';
  if (spec.enum) return spec.enum.find((v) => JSON.stringify(v) !== JSON.stringify(cur)) ?? spec.enum[0];
  switch (spec.type) {
    case 'boolean': return !cur;
    case 'integer': case 'number': {
      const lo = spec.min ?? 0, hi = spec.max ?? lo + 100, st = spec.step ?? 1;
      let v = lo + st; if (v > hi) v = lo; if (v === cur) v = hi; return v;
    }
    case 'string': {
      if (spec.format === 'YYYY-MM-DD') {
        let d = spec.min || '2025-07-01';
        for (let i = 0; i < 60; i++) { const c = addDays(d, i + 2); if ((!spec.max || c <= spec.max) && !(spec.disabled || []).includes(c) && ![0, 6].includes(new Date(c + 'T00:00:00Z').getUTCDay())) return c; }
        return d;
      }
      if (spec.format === 'HH:mm') return spec.min && spec.min > '10:00' ? spec.min : '10:00';
      return tool === 'setValue' && entry.state.secret ? 'tok_check_12345' : 'Check value';
    }
    case 'array': return spec.items && spec.items.enum ? [spec.items.enum.find((v) => !(cur || []).includes(v)) ?? spec.items.enum[0]] : ['ci4a-check'];
    default: return {};
  }
}
function validParams(entry, tool) {
  const p = {};
  const params = entry.metadata[tool].params || {};
  for (const [name, spec] of Object.entries(params)) {
    if (!spec.required && !['order', 'mode'].includes(name)) continue;
    const cur = entry.state.value ?? entry.state.checked ?? entry.state.activeKey ?? entry.state.selectedKey;
    p[name] = validValue(spec, name === 'end' ? undefined : cur, entry, tool, name);
  }
  if (params.start && params.end) { p.start = validValue(params.start, null, entry, tool, 'start'); p.end = addDays(p.start, 3); if (params.end.max && p.end > params.end.max) p.end = p.start; }
  if (tool === 'sort') p.order = 'descend';
  if (tool === 'selectRows') p.mode = 'set';
  return p;
}
// one invalid variant per param spec: wrong type, out of range, not in enum, disabled; plus unknown param
function invalidVariants(entry, tool, good) {
  const out = [{ ...good, __bogus__: 1 }];
  for (const [name, spec] of Object.entries(entry.metadata[tool].params || {})) {
    out.push({ ...good, [name]: spec.type === 'string' ? 12345 : 'not-a-valid-value' });
    if (spec.enum) out.push({ ...good, [name]: spec.type === 'string' ? 'no-such-option-xyz' : 987654 });
    if (spec.max !== undefined && typeof spec.max === 'number') out.push({ ...good, [name]: spec.max + (spec.step || 1) });
    if (spec.max !== undefined && typeof spec.max === 'string' && spec.format === 'YYYY-MM-DD') out.push({ ...good, [name]: addDays(spec.max, 1) });
    if (spec.disabled && spec.disabled.length) out.push({ ...good, [name]: spec.disabled[0] });
    if (spec.required) { const c = { ...good }; delete c[name]; out.push(c); }
  }
  return out;
}

const kinds = new Set();
const axReport = [];
for (const path of SCREENS) {
  await load(path);
  const all = await status();
  const keys = Object.keys(all);
  ok(keys.length > 0, `${path}: registry has components`);
  // structure + data-cid
  for (const k of keys) {
    const e = all[k];
    kinds.add(e.kind);
    ok(e.key === k && typeof e.kind === 'string' && Array.isArray(e.tools) && typeof e.metadata === 'object' && typeof e.disabled === 'boolean' && typeof e.visible === 'boolean', `${path} ${k}: entry shape`);
    ok(e.tools.every((t) => e.metadata[t] && typeof e.metadata[t].description === 'string' && typeof e.metadata[t].params === 'object'), `${path} ${k}: metadata per tool`);
    if (e.visible) ok(await page.evaluate((kk) => !!document.querySelector(`[data-cid="${kk}"]`), k), `${path} ${k}: data-cid on DOM root`);
  }
  const uc = await callTool('no-such-component', 'setValue', {});
  ok(!uc.ok && uc.error.code === 'unknown_component', `${path}: unknown_component error`);
  const ut = await callTool(keys[0], 'noSuchTool', {});
  ok(!ut.ok && ut.error.code === 'unknown_tool', `${path}: unknown_tool error`);
  const gs = await page.evaluate(() => { try { window.__ci4a__.getStatus('nope'); return null; } catch (e) { return e.code; } });
  ok(gs === 'unknown_component', `${path}: getStatus(unknown) throws unknown_component`);

  // popups: data-cid-owner on the portal root while open; AX counts closed/open
  const closed = await axCount();
  let openMax = closed;
  for (const k of keys.filter((x) => POPUP_KINDS.includes(all[x].kind) && all[x].visible)) {
    const vis = await page.evaluate((kk) => { const el = document.querySelector(`[data-cid="${kk}"]`); if (!el) return false; const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden' && el.offsetParent !== null; }, k);
    if (!vis) continue;
    const el = await page.$(`[data-cid="${k}"]`);
    await el.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    const b = await el.boundingBox();
    await page.mouse.click(b.x + Math.min(20, b.width / 2), b.y + b.height / 2);
    await sleep(300);
    ok(await page.evaluate((kk) => !!document.querySelector(`[data-cid-owner="${kk}"]`), k), `${path} ${k}: popup has data-cid-owner`);
    openMax = Math.max(openMax, await axCount());
    await page.keyboard.press('Escape');
    await sleep(200);
  }
  axReport.push({ path, closed, open: openMax });

  // tools
  for (const k of keys) {
    for (const tool of all[k].tools) {
      let e = (await status(k));
      if (!e) { await load(path); e = await status(k); }
      if (!e || !e.tools.includes(tool)) continue;
      const good = validParams(e, tool);
      if (e.disabled) { // disabled components refuse every tool with code 'disabled'
        const before = JSON.stringify(e.state);
        const r = await callTool(k, tool, good);
        ok(!r.ok && r.error.code === 'disabled', `${path} ${k}.${tool}: disabled component answers code disabled`);
        ok(JSON.stringify((await status(k)).state) === before, `${path} ${k}.${tool}: disabled component state unchanged`);
        continue;
      }
      // invalid params first (state must not change)
      for (const bad of invalidVariants(e, tool, good)) {
        const before = JSON.stringify((await status(k)).state);
        const r = await callTool(k, tool, bad);
        const after = JSON.stringify((await status(k)).state);
        ok(!r.ok && r.error.code === 'invalid_params' && typeof r.error.message === 'string', `${path} ${k}.${tool}(${JSON.stringify(bad)}) -> invalid_params (got ${JSON.stringify(r.error || r.value).slice(0, 160)})`);
        ok(before === after, `${path} ${k}.${tool}: state unchanged after invalid params`);
      }
      const before = JSON.stringify(e.state);
      const r = await callTool(k, tool, good);
      const formFail = !r.ok && r.error && r.error.code === 'invalid_params' && (tool === 'submit' || tool === 'next' || tool === 'goToStep');
      ok(r.ok || formFail, `${path} ${k}.${tool}(${JSON.stringify(good)}) ok (got ${JSON.stringify(r.error || '').slice(0, 200)})`);
      if (r.ok && !DISRUPTIVE.has(tool) && !NON_MUTATING.has(tool)) {
        const after = await status(k);
        const changed = after && JSON.stringify(after.state) !== before;
        if (['setValue', 'toggle', 'sort', 'filter', 'setTab'].includes(tool) && !e.state.secret) ok(changed, `${path} ${k}.${tool}: state changed`);
        if (tool === 'setValue' && after) {
          const p = Object.values(good)[0];
          const st = after.state;
          const v = st.value && typeof st.value === 'object' && !Array.isArray(st.value) && st.value.start ? st.value.start : (st.value ?? st.checked);
          const want = good.start ?? (good.text !== undefined && st.secret ? '[redacted]' : p);
          ok(JSON.stringify(v) === JSON.stringify(want), `${path} ${k}.setValue: state value ${JSON.stringify(v)} equals ${JSON.stringify(want)}`);
        }
      }
      if (r.ok && NON_MUTATING.has(tool)) ok(r.value && r.value.result && Array.isArray(r.value.result.matches), `${path} ${k}.search returns matches`);
      if (DISRUPTIVE.has(tool) || formFail) await load(path);
    }
  }
}
// baseline: ?ci4a=off
for (const path of SCREENS) {
  await load(path, '?ci4a=off');
  const r = await page.evaluate(() => ({ reg: typeof window.__ci4a__, cid: document.querySelectorAll('[data-cid],[data-cid-owner]').length }));
  ok(r.reg === 'undefined' && r.cid === 0, `${path}?ci4a=off exposes no registry and no data-cid (${JSON.stringify(r)})`);
  // in-app navigation keeps it off
  await page.evaluate(() => { history.pushState(null, '', '/users'); dispatchEvent(new PopStateEvent('popstate')); });
  await sleep(300);
  ok(await page.evaluate(() => document.querySelectorAll('[data-cid]').length === 0), `${path}?ci4a=off: still off after in-app navigation`);
}
console.log(`kinds: ${[...kinds].sort().join(' ')}`);
for (const a of axReport) console.log(`ax ${a.path}: ${a.closed} nodes closed, ${a.open} with the largest popup open`);
await browser.close();
srv.stop();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

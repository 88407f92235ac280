#!/usr/bin/env node
// Reference executor for task plans.
// usage: node tools/run-plan.mjs [--plan script|atomic_script|both] [--ci4a-off-atomic] [TASK.json|DIR ...]
// Runs each task's plan on a fresh browser context, evaluates WebArena-style, and
// also checks that doing nothing scores 0. One line per task and plan:
//   PASS|FAIL task_id plan steps reason
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch, startServer, repoRoot } from './browser.mjs';
import { runStep, evaluate, site, SETTLE_MS } from './plan-lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const args = process.argv.slice(2);
let plans = ['script', 'atomic_script'];
let baselineAtomic = true;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--plan') { const p = args[++i]; plans = p === 'both' ? ['script', 'atomic_script'] : [p]; }
  else if (args[i] === '--atomic-with-ci4a') baselineAtomic = false;
  else files.push(args[i]);
}
if (!files.length) files.push(join(repoRoot, 'benchmarks', 'grounds', 'tasks', 'playground'));
const taskFiles = [];
for (const f of files) {
  const p = resolve(f);
  if (statSync(p).isDirectory()) for (const x of readdirSync(p).filter((n) => n.endsWith('.json')).sort()) taskFiles.push(join(p, x));
  else taskFiles.push(p);
}

const srv = await startServer();
const browser = await launch();
let pass = 0, fail = 0;
const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const page = await ctx.newPage();
page.setDefaultTimeout(120000);
page.setDefaultNavigationTimeout(120000);
const cdp = await ctx.newCDPSession(page);
// fresh state without a new context: clear the origin's storage on a cheap same-origin 404 page
async function open(task, ci4aOff) {
  await page.goto(`${srv.url}/__blank__.txt`);
  await page.evaluate(() => { localStorage.clear(); sessionStorage.clear(); });
  let start = site(task.start_url, srv.url);
  if (ci4aOff) start += (start.includes('?') ? '&' : '?') + 'ci4a=off';
  await page.goto(start);
  await page.waitForFunction(() => window.__playground__, null, { timeout: 120000 });
  await sleep(300);
  return { page, cdp };
}
for (const f of taskFiles) {
  const task = JSON.parse(readFileSync(f, 'utf8'));
  let fresh = null;
  // doing nothing must score 0
  try {
    fresh = await open(task, plans[0] === 'atomic_script' && baselineAtomic);
    const r = await evaluate(task, page, '', srv.url);
    if (r.score !== 0) { console.log(`FAIL ${task.task_id} noop 0 doing nothing scores ${r.score}`); fail++; }
    if (r.score !== 0 || task.eval.program_html.some((t) => t.url !== 'last')) fresh = null;
  } catch (e) { console.log(`FAIL ${task.task_id} noop 0 could not load the start page: ${String(e.message).split('\n')[0]}`); fail++; continue; }
  for (const plan of plans) {
    const steps = task[plan] || [];
    const atomic = plan === 'atomic_script';
    if (!fresh || plan !== plans[0]) {
      try { await open(task, atomic && baselineAtomic); } catch (e) { console.log(`FAIL ${task.task_id} ${plan} 0 could not load the start page`); fail++; continue; }
    }
    fresh = null;
    let answer = null, err = null, n = 0;
    try {
      for (const st of steps) {
        n++;
        const r = await runStep(page, cdp, st, srv.url, { atomicOnly: atomic });
        await sleep(SETTLE_MS);
        if (r && 'stop' in r) { answer = r.stop; break; }
      }
    } catch (e) { err = `step ${n}: ${String(e.message).split('\n')[0]}`; }
    let res = { score: 0, reason: err };
    if (!err) { try { res = await evaluate(task, page, answer, srv.url); } catch (e) { res = { score: 0, reason: `eval: ${e.message}` }; } }
    const ok = res.score === 1 && !err;
    if (ok) pass++; else fail++;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${task.task_id} ${plan} ${steps.length}${ok ? '' : ' ' + (res.reason || 'score 0')}`);
  }
}
await browser.close();
srv.stop();
console.log(`${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);

#!/usr/bin/env node
// benchmarks/compare/compare.mjs — how much text a model is sent per Playground screen:
// Playwright's AI snapshot (what Playwright MCP sends) against eous's atomic, pruned and
// hybrid views, in characters and in o200k_base tokens (gpt-tokenizer).
//
// usage: node benchmarks/compare/compare.mjs [--live] [--out DIR]
//   --live     always run `eous observe` for the popups-closed state, even when
//              benchmarks/results/views/<screen>.<mode>.txt exist
//   --out DIR  where compare.md / compare.json go (default benchmarks/results)
//   --dump DIR also write each Playwright snapshot to DIR/<screen>[-open].playwright.txt
// Needs `make build` (build/eous) and `scripts/build-site` (benchmarks/grounds/playground/dist).
// Exit codes: 0 ok, 2 missing prerequisite, 3 infrastructure failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const require = createRequire(import.meta.url);

const argv = process.argv.slice(2);
let live = false;
let outDir = join(root, 'benchmarks/results');
let dumpDir = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--live') live = true;
  else if (argv[i] === '--out') outDir = resolve(argv[++i]);
  else if (argv[i] === '--dump') dumpDir = resolve(argv[++i]);
  else if (argv[i] === '-h' || argv[i] === '--help') {
    console.log('usage: node benchmarks/compare/compare.mjs [--live] [--out DIR] [--dump DIR]');
    process.exit(0);
  } else {
    console.error(`compare: unknown argument ${argv[i]}`);
    process.exit(2);
  }
}

const EOUS = join(root, 'build/eous');
const VIEWS = join(root, 'benchmarks/results/views');
const CHROMIUM = '/usr/bin/chromium';
const CHROME_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MODES = ['atomic', 'pruned', 'hybrid'];

if (!existsSync(join(root, 'benchmarks/grounds/playground/dist/index.html'))) {
  console.error('compare: the Playground site is not built (benchmarks/grounds/playground/dist/index.html missing); run scripts/build-site first');
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`compare: ${CHROMIUM} not found (install the Debian package chromium)`);
  process.exit(2);
}

// How each screen's popup is opened; `popup` is what must become visible.
const SCREENS = [
  { path: '/booking', popup: 'Check-in calendar',
    open: async (p) => { await p.locator('.ci4a-k-datepicker-checkin input').first().click({ timeout: 5000 }); },
    shown: (p) => p.locator('.ci4a-o-datepicker-checkin .ant-picker-panel').first() },
  { path: '/users', popup: 'Role column filter dropdown',
    open: async (p) => { await p.locator('th', { hasText: 'Role' }).locator('.ant-table-filter-trigger').first().click({ timeout: 5000 }); },
    shown: (p) => p.locator('.ant-table-filter-dropdown').first() },
  { path: '/settings', popup: 'Members tab, members multi-select dropdown',
    open: async (p) => {
      await p.getByRole('tab', { name: 'Members' }).click({ timeout: 5000 });
      await p.locator('.ci4a-k-select-members').first().click({ timeout: 5000 });
    },
    shown: (p) => p.locator('.ci4a-o-select-members .ant-select-item-option, .ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first() },
  { path: '/orders', popup: 'Status select dropdown',
    open: async (p) => { await p.locator('.ci4a-k-select-order-status').first().click({ timeout: 5000 }); },
    shown: (p) => p.locator('.ci4a-o-select-order-status .ant-select-item-option, .ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first() },
  { path: '/apply', popup: 'Country select dropdown',
    open: async (p) => { await p.locator('.ci4a-k-select-country').first().click({ timeout: 5000 }); },
    shown: (p) => p.locator('.ci4a-o-select-country .ant-select-item-option, .ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first() },
];

function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn('bash', [join(root, 'scripts/serve-site'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    const timer = setTimeout(() => { child.kill(); fail(new Error('serve-site did not print its URL within 15 s')); }, 15000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) { clearTimeout(timer); child.stdout.removeAllListeners('data'); child.stdout.resume(); ok({ child, url: m[0] }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`serve-site exited (${code}) before listening`)); });
    child.on('error', (e) => { clearTimeout(timer); fail(e); });
  });
}

// Playwright's AI snapshot: the private _snapshotForAI of older releases, else the public
// ariaSnapshot({ mode: 'ai' }) that replaced it, else the plain body aria snapshot.
async function aiSnapshot(page) {
  if (typeof page._snapshotForAI === 'function') {
    const r = await page._snapshotForAI();
    return { method: 'page._snapshotForAI()', text: typeof r === 'string' ? r : r.full };
  }
  try {
    const text = await page.ariaSnapshot({ mode: 'ai' });
    if (typeof text === 'string') return { method: "page.ariaSnapshot({ mode: 'ai' })", text };
  } catch { /* older API: no page.ariaSnapshot or no ai mode */ }
  return { method: "page.locator('body').ariaSnapshot()", text: await page.locator('body').ariaSnapshot() };
}

async function settle(page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(500);
}

function eousObserve(url, mode) {
  const r = spawnSync(EOUS, ['observe', url, '--mode', mode, '--format', 'text'], { encoding: 'utf8', timeout: 120000, maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status}: ${(r.stderr || '').trim().split('\n').pop()}`;
    console.error(`compare: eous observe ${url} --mode ${mode} failed (${why})`);
    return null;
  }
  return r.stdout;
}

function measure(text, source) {
  if (text == null) return null;
  const m = { chars: [...text].length, tokens: countTokens(text), source };
  // the page's own tools (WebMCP) are listed last; no other view carries them
  const at = text.indexOf('\npage tools:\n');
  if (at >= 0) m.tokens_without_page_tools = countTokens(text.slice(0, at + 1));
  return m;
}

const stale = new Set(); // view files older than build/eous
function eousView(screen, state, mode, url) {
  const name = screen.slice(1) + (state === 'open' ? '-open' : '');
  const file = join(VIEWS, `${name}.${mode}.txt`);
  if (existsSync(file) && !(live && state === 'closed')) {
    if (statSync(file).mtimeMs < statSync(EOUS).mtimeMs) stale.add(`${name}.${mode}.txt`);
    return measure(readFileSync(file, 'utf8'), `file:${name}.${mode}.txt`);
  }
  if (state === 'open') return null; // eous observe opens its own browser and cannot see the popup
  return measure(eousObserve(url, mode), 'eous observe');
}

const fmt = (m) => (m ? `${m.chars} / ${m.tokens}` : 'n/a');
const ratio = (a, b) => (a && b && b.tokens ? a.tokens / b.tokens : null);

async function main() {
  if (!existsSync(EOUS)) {
    console.error(`compare: ${EOUS} missing; run make build first`);
    return 2;
  }
  let server;
  try { server = await startServer(); } catch (e) { console.error(`compare: ${e.message}`); return 3; }
  const rows = [];
  let method = null;
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const s of SCREENS) {
      const url = server.url + s.path;
      for (const state of ['closed', 'open']) {
        const t0 = Date.now();
        await page.goto(url, { waitUntil: 'load' });
        await settle(page);
        let note = null;
        if (state === 'open') {
          try {
            await s.open(page);
            await s.shown(page).waitFor({ state: 'visible', timeout: 5000 });
            await page.waitForTimeout(400); // animations
          } catch (e) {
            note = `could not open ${s.popup}: ${e.message.split('\n')[0]}`;
            console.error(`compare: ${s.path}: ${note}`);
          }
        }
        const snap = await aiSnapshot(page);
        method = method || snap.method;
        if (dumpDir) {
          mkdirSync(dumpDir, { recursive: true });
          writeFileSync(join(dumpDir, `${s.path.slice(1)}${state === 'open' ? '-open' : ''}.playwright.txt`), snap.text);
        }
        const row = { screen: s.path, state, popup: state === 'open' ? s.popup : null, note,
          playwright: measure(snap.text, snap.method) };
        for (const m of MODES) row[m] = eousView(s.path, state, m, url);
        row.hybrid_vs_playwright = ratio(row.hybrid, row.playwright);
        rows.push(row);
        process.stderr.write(`compare: ${s.path} ${state} done (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
      }
    }
  } catch (e) {
    console.error(`compare: ${e.stack || e.message}`);
    return 3;
  } finally {
    if (browser) await browser.close().catch(() => {});
    try { process.kill(server.child.pid, 'SIGTERM'); } catch { /* already gone */ }
  }

  const pwVersion = require('playwright-core/package.json').version;
  const tokVersion = require('gpt-tokenizer/package.json').version;
  const head = '| screen | state | playwright chars / tokens | atomic chars / tokens | pruned chars / tokens | hybrid chars / tokens | hybrid tokens without page tools | hybrid / atomic tokens | hybrid / playwright tokens |';
  const lines = [head, '|---|---|---:|---:|---:|---:|---:|---:|---:|'];
  const r2 = (x) => (x == null ? 'n/a' : x.toFixed(2));
  for (const r of rows) {
    const npt = r.hybrid && r.hybrid.tokens_without_page_tools;
    lines.push(`| ${r.screen} | ${r.state === 'open' ? 'open: ' + r.popup : 'closed'} | ${fmt(r.playwright)} | ${fmt(r.atomic)} | ${fmt(r.pruned)} | ${fmt(r.hybrid)} | ${npt == null ? 'n/a' : npt} | ${r2(ratio(r.hybrid, r.atomic))} | ${r2(r.hybrid_vs_playwright)} |`);
  }
  const closed = rows.filter((r) => r.state === 'closed' && r.hybrid && r.atomic && r.playwright);
  const leAtomic = closed.filter((r) => r.hybrid.tokens <= r.atomic.tokens).map((r) => r.screen);
  const leHalf = closed.filter((r) => r.hybrid.tokens <= 0.5 * r.playwright.tokens).map((r) => r.screen);
  const leAtomicNpt = closed.filter((r) => (r.hybrid.tokens_without_page_tools ?? r.hybrid.tokens) <= r.atomic.tokens)
    .map((r) => r.screen);
  const goals = `Goals (closed screens): hybrid ≤ atomic on ${leAtomic.length} of ${closed.length} (${leAtomic.join(', ') || 'none'}); ` +
    `without the page tools (WebMCP tools, which no other view carries) on ${leAtomicNpt.length} of ${closed.length}; ` +
    `hybrid ≤ 0.5× Playwright on ${leHalf.length} of ${closed.length} (${leHalf.join(', ') || 'none'}).`;
  const commit = spawnSync('git', ['-C', resolve(here, '../..'), 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const sources = [...new Set(rows.flatMap((r) => MODES.map((m) => r[m] && r[m].source)).filter(Boolean))];
  const fromFiles = sources.some((x) => x.startsWith('file:'));
  const table = lines.join('\n');
  const staleNote = stale.size
    ? `\nNote: ${stale.size} view file(s) are older than build/eous (rerun build/perf_perc_views, or use --live): ${[...stale].join(', ')}\n` : '';
  const md = `## What a model is sent per Playground screen

Playwright AI snapshot via \`${method}\` (playwright-core ${pwVersion}, Chromium headless) against eous views
(\`--format text\`), commit ${commit || 'unknown'}. Tokens: o200k_base, gpt-tokenizer ${tokVersion}. Characters are Unicode code points.
eous views come from ${fromFiles ? '`benchmarks/results/views/*.txt` (build/perf_perc_views) where present, else ' : ''}\`eous observe\`;
"n/a": no eous view of that popup-open state (\`eous observe\` opens its own browser and cannot see a popup opened in Playwright).

${table}

${goals}
${staleNote}`;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'compare.md'), md);
  writeFileSync(join(outDir, 'compare.json'), JSON.stringify({
    generated: new Date().toISOString(), commit, playwright_method: method, playwright_core: pwVersion,
    tokenizer: `gpt-tokenizer ${tokVersion} o200k_base`, live, stale_view_files: [...stale], rows }, null, 2) + '\n');
  console.log(`Playwright snapshot: ${method} (playwright-core ${pwVersion}); tokens: o200k_base (gpt-tokenizer ${tokVersion})`);
  console.log(table);
  if (staleNote) console.log(staleNote.trimEnd());
  console.log(`\nwrote ${join(outDir, 'compare.md')} and compare.json`);
  return rows.some((r) => r.note) ? 3 : 0;
}

main().then((code) => process.exit(code), (e) => { console.error(e); process.exit(3); });

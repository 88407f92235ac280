#!/usr/bin/env node
// benchmarks/perf/step_latency_mcp.mjs — ms per action with the page seen after it, `eous mcp`
// against Playwright MCP (@playwright/mcp, benchmarks/compare's node_modules) doing the same actions
// on the same pages (eous in its default hybrid view and with --mode atomic): DokuWiki (click a link on the start page, go back; the wiki started by
// step_latency.sh, EOUS_SITE_DOKUWIKI) and the Playground (type into the users search, click a
// settings tab).  eous answers an action with its view; Playwright MCP links its snapshot to a file,
// so its side of an action is the action plus browser_snapshot (as benchmarks/compare/mcp.mjs).
// The three servers side by side (action i on each in turn), the same MCP SDK client; the
// first action of each is a warm-up.  Writes OUT/step_latency_mcp.json.  EOUS_CLI: the eous to
// run (default build/eous); PHASES=1: where eous's time went, per phase (mcp_run_action_as).
// EOUS_CLI_BEFORE: a second eous (e.g. the commit before a change) run side by side as
// eous@before and eous-atomic@before, so a cut is measured against its base in one run.
//
//   node benchmarks/perf/step_latency_mcp.mjs OUT_DIR [ACTIONS_PER_GROUND]   (default 60)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const require = createRequire(join(root, 'benchmarks/compare/package.json'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport, getDefaultEnvironment } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const [outDir, nArg] = process.argv.slice(2);
if (!outDir) {
  console.error('step_latency_mcp.mjs: usage: step_latency_mcp.mjs OUT_DIR [ACTIONS_PER_GROUND]');
  process.exit(2);
}
const N = Number(nArg || 60);
const EOUS = process.env.EOUS_CLI || join(root, 'build/eous');
const EOUS_BEFORE = process.env.EOUS_CLI_BEFORE || '';
// PHASES=1: eous logs where each answer's time went (EOUS_LOG=debug, mcp_run_action_as) and the
// medians per phase land beside the figures
const PHASES = process.env.PHASES === '1';
const CHROMIUM = '/usr/bin/chromium';
const PW_PKG = require.resolve('@playwright/mcp/package.json');
const PW_VERSION = require('@playwright/mcp/package.json').version;
const CALL = { timeout: 300000 };
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// eous: "[12] link 'Aurora'", "link [12] 'Aurora'" or "[c3] input 'Search users'" → 12 / c3
function eref(view, roles, name) {
  // atomic prints "[12] link 'Aurora'", hybrid "link [12] 'Aurora'"
  const r = roles.map(esc).join('|');
  const m = view.match(new RegExp(`\\[(c?\\d+)\\] (?:${r}) '${esc(name)}'|(?:${r}) \\[(\\d+)\\] '${esc(name)}'`));
  if (!m) throw new Error(`eous view has no ${roles.join('/')} '${name}':\n${view.slice(0, 1500)}`);
  return m[1] || m[2];
}
// Playwright: '- link "Aurora" [ref=e41]' → e41
function pref(snap, role, name) {
  const m = snap.match(new RegExp(`- ${esc(role)} "${esc(name)}"[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'i'));
  if (!m) throw new Error(`Playwright snapshot has no ${role} "${name}"`);
  return m[1];
}

// Each ground: where to start, and an endless list of actions (each: eous call, Playwright call)
const GROUNDS = [];
if (process.env.EOUS_SITE_DOKUWIKI) {
  const links = ['Aurora', 'Borealis', 'Cirrus', 'Team members', 'Water sampling procedure'];
  GROUNDS.push({ name: 'dokuwiki', start: `${process.env.EOUS_SITE_DOKUWIKI}/doku.php?id=start`,
    action: (i) => (i % 2 === 0
      ? { what: 'click a link', eous: (v) => ['browser_click', { ref: eref(v, ['link'], links[(i / 2) % links.length]) }],
        pw: (s) => ['browser_click', { target: pref(s, 'link', links[(i / 2) % links.length]), element: 'link' }] }
      : { what: 'go back', eous: () => ['browser_navigate_back', {}], pw: () => ['browser_navigate_back', {}] }) });
}
if (process.env.EOUS_SITE_PLAYGROUND) {
  const words = ['ada', 'grace', 'alan', 'barbara'];
  GROUNDS.push({ name: 'playground', start: `${process.env.EOUS_SITE_PLAYGROUND}/users`,
    action: (i) => ({ what: 'type into a search',
      // hybrid: the component's own setValue (eous's way); atomic: typing into the element, as Playwright does
      eous: (v) => (/\[c\d+\] input 'Search users'/.test(v)
        ? ['browser_call', { component: eref(v, ['input'], 'Search users'), tool: 'setValue',
          params: { text: words[i % words.length] } }]
        : ['browser_type', { ref: eref(v, ['textbox', 'searchbox'], 'Search users'), text: words[i % words.length] }]),
    pw: (s) => ['browser_type', { target: pref(s, 'textbox', 'Search users'), element: 'Search users',
      text: words[i % words.length] }] }) });
}

const textOf = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// One server on one ground: its browser on the start page; step(i) times action i with the view after it.
async function open(kind, ground) {
  const work = mkdtempSync(join(tmpdir(), 'eous-steplat-'));
  const transport = kind !== 'playwright'
    ? new StdioClientTransport({ command: kind.endsWith('@before') ? EOUS_BEFORE : EOUS,
      args: kind.startsWith('eous-atomic') ? ['mcp', '--mode', 'atomic'] : ['mcp'], stderr: 'pipe',
      env: PHASES ? { ...getDefaultEnvironment(), EOUS_LOG: 'debug' } : undefined })
    : new StdioClientTransport({ command: process.execPath, cwd: work, stderr: 'pipe',
      args: [join(dirname(PW_PKG), 'cli.js'), '--headless', '--browser', 'chromium', '--executable-path', CHROMIUM,
        '--no-sandbox', '--isolated', '--output-dir', join(work, 'out')],
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  const s = { kind, ms: [], phases: [] };
  let errText = '', rts = [0, 0];
  transport.stderr.on('data', (d) => {
    errText += d;
    const lines = errText.split('\n');
    errText = lines.pop();
    for (const l of lines) {
      const rt = l.match(/round trip: (providers script|AX tree)[^\n]*?, ([\d.]+) ms/);
      if (rt) rts[rt[1] === 'AX tree' ? 1 : 0] += Number(rt[2]);
      const m = l.match(/phases \S+: act ([\d.]+) settle ([\d.]+) landing ([\d.]+) perceive ([\d.]+) \(browser ([\d.]+), (\d+) round trips, c ([\d.]+)\) view ([\d.]+) total ([\d.]+)/);
      if (m && s.counting) s.phases.push([...m.slice(1).map(Number), ...rts]);
      if (m) rts = [0, 0];
    }
  });
  const client = new Client({ name: 'eous-step-latency', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, CALL);
    if (r.isError) throw new Error(`${kind} ${name}: ${textOf(r).slice(0, 300)}`);
    return textOf(r);
  };
  s.close = async () => { await client.close(); rmSync(work, { recursive: true, force: true }); };
  try {
    s.view = await call('browser_navigate', { url: ground.start });
    if (kind === 'playwright') s.view = await call('browser_snapshot', {});
  } catch (e) {
    await s.close();
    throw e;
  }
  s.step = async (i) => {
    const a = ground.action(i);
    s.counting = i > 0; /* the first action warms up: not counted */
    const t0 = performance.now();
    if (kind !== 'playwright') {
      const [tool, args] = a.eous(s.view);
      s.view = await call(tool, args);
    } else {
      const [tool, args] = a.pw(s.view);
      await call(tool, args);
      s.view = await call('browser_snapshot', {});
    }
    if (i > 0) s.ms.push(performance.now() - t0);
  };
  return s;
}

const pct = (v, p) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.round(p * (s.length - 1)))]; };
let commit = 'unknown';
try { commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch (e) {}
const out = { commit, playwright_mcp: PW_VERSION, actions_per_ground: N, load_1min_start: +loadavg()[0].toFixed(2), runs: [] };
const KINDS = ['eous', 'eous-atomic', 'playwright', ...(EOUS_BEFORE ? ['eous@before', 'eous-atomic@before'] : [])];
const PHASE_NAMES = ['act', 'settle', 'landing', 'perceive', 'perceive_browser', 'round_trips', 'perceive_c', 'view', 'total',
  'perceive_script', 'perceive_ax'];
// The three servers side by side: action i on each in turn (the order rotating), so the shared
// machine's load falls on all of them alike; each round's eous/Playwright ratio is kept too.
for (const g of GROUNDS) {
  process.stderr.write(`step_latency_mcp: ${KINDS.join(', ')} side by side on ${g.name}\n`);
  const servers = [];
  const rows = {};
  try {
    for (const kind of KINDS) servers.push(await open(kind, g));
    for (let i = 0; i <= N; i++)
      for (let k = 0; k < servers.length; k++) await servers[(i + k) % servers.length].step(i);
  } catch (e) {
    out.runs.push({ ground: g.name, error: String(e.message || e).slice(0, 300) });
  }
  for (const sv of servers) {
    await sv.close().catch(() => {});
    if (!sv.ms.length) continue;
    const row = { ground: g.name, server: sv.kind, actions: sv.ms.length, median: Math.round(pct(sv.ms, 0.5)),
      p5: Math.round(pct(sv.ms, 0.05)), p95: Math.round(pct(sv.ms, 0.95)) };
    if (sv.phases.length)
      row.phases = Object.fromEntries(PHASE_NAMES.map((n, k) => [n, +pct(sv.phases.map((p) => p[k]), 0.5).toFixed(1)]));
    rows[sv.kind] = row;
  }
  const pw = rows.playwright;
  for (const kind of KINDS) {
    const row = rows[kind];
    if (!row) continue;
    if (pw && kind !== 'playwright' && row.actions === pw.actions) {
      const sv = servers.find((x) => x.kind === kind);
      const pwms = servers.find((x) => x.kind === 'playwright').ms;
      row.vs_playwright = +(row.median / pw.median).toFixed(2);
      row.paired_ratio_median = +pct(sv.ms.map((v, j) => v / pwms[j]), 0.5).toFixed(2);
    }
    out.runs.push(row);
  }
}
out.load_1min_end = +loadavg()[0].toFixed(2);
writeFileSync(join(outDir, 'step_latency_mcp.json'), JSON.stringify(out, null, 2) + '\n');
// the table, and with PHASES=1 where eous's time went (medians per phase, ms)
const md = [`# Step latency through MCP: eous against Playwright MCP ${out.playwright_mcp}`, '',
  `eous at commit ${out.commit}; ${N} actions per ground and server after a warm-up, the ${KINDS.length} servers side by side ` +
  `(action i on each in turn); 1-minute load ${out.load_1min_start} at the start, ${out.load_1min_end} at the end ` +
  `(2 cores). ms per action with the page seen after it. Paired: the median over rounds of eous's time / ` +
  `Playwright's in the same round.`, '',
  '| ground | server | median | p5 – p95 | × Playwright (medians) | × Playwright (paired) |', '|---|---|---|---|---|---|'];
for (const r of out.runs)
  md.push(r.error ? `| ${r.ground} | ${r.server || 'all'} | error: ${r.error.replace(/\|/g, '/')} | | | |`
    : `| ${r.ground} | ${r.server} | ${r.median} | ${r.p5} – ${r.p95} | ${r.vs_playwright ?? ''} | ${r.paired_ratio_median ?? ''} |`);
if (out.runs.some((r) => r.phases)) {
  md.push('', 'Where eous\'s time went (medians per phase, ms; `EOUS_LOG=debug`, mcp_run_action_as): act (the action\'s ' +
    'round trips, a call\'s in-page work), settle (in the page, by the rule), perceive (open tabs, the providers\' ' +
    'script, the accessibility tree), view (rendering and the delta).', '',
    '| ground | server | act | settle | perceive | providers script | AX tree | perceive in C | view | total |',
    '|---|---|---|---|---|---|---|---|---|---|');
  for (const r of out.runs.filter((x) => x.phases)) {
    const p = r.phases;
    md.push(`| ${r.ground} | ${r.server} | ${p.act} | ${p.settle} | ${p.perceive} | ${p.perceive_script} | ${p.perceive_ax} | ` +
      `${p.perceive_c} | ${p.view} | ${p.total} |`);
  }
}
writeFileSync(join(outDir, 'step_latency_mcp.md'), md.join('\n') + '\n');
console.log(JSON.stringify(out));

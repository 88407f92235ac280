#!/usr/bin/env node
// benchmarks/perf/step_latency_mcp.mjs — ms per action with the page seen after it, `eous mcp`
// against Playwright MCP (@playwright/mcp, benchmarks/compare's node_modules) doing the same actions
// on the same pages (eous in its default hybrid view and with --mode atomic): DokuWiki (click a link on the start page, go back; the wiki started by
// step_latency.sh, EOUS_SITE_DOKUWIKI) and the Playground (type into the users search, click a
// settings tab).  eous answers an action with its view; Playwright MCP links its snapshot to a file,
// so its side of an action is the action plus browser_snapshot (as benchmarks/compare/mcp.mjs).
// One server at a time, the same MCP SDK client.  Writes OUT/step_latency_mcp.json.
//
//   node benchmarks/perf/step_latency_mcp.mjs OUT_DIR [ACTIONS_PER_GROUND]   (default 60)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const require = createRequire(join(root, 'benchmarks/compare/package.json'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const [outDir, nArg] = process.argv.slice(2);
if (!outDir) {
  console.error('step_latency_mcp.mjs: usage: step_latency_mcp.mjs OUT_DIR [ACTIONS_PER_GROUND]');
  process.exit(2);
}
const N = Number(nArg || 60);
const EOUS = join(root, 'build/eous');
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

async function run(kind, ground) {
  const work = mkdtempSync(join(tmpdir(), 'eous-steplat-'));
  const transport = kind !== 'playwright'
    ? new StdioClientTransport({ command: EOUS, args: kind === 'eous' ? ['mcp'] : ['mcp', '--mode', 'atomic'], stderr: 'pipe' })
    : new StdioClientTransport({ command: process.execPath, cwd: work, stderr: 'pipe',
      args: [join(dirname(PW_PKG), 'cli.js'), '--headless', '--browser', 'chromium', '--executable-path', CHROMIUM,
        '--no-sandbox', '--isolated', '--output-dir', join(work, 'out')],
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  transport.stderr.on('data', () => {});
  const client = new Client({ name: 'eous-step-latency', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, CALL);
    if (r.isError) throw new Error(`${kind} ${name}: ${textOf(r).slice(0, 300)}`);
    return textOf(r);
  };
  const ms = [];
  try {
    let view = await call('browser_navigate', { url: ground.start });
    if (kind === 'playwright') view = await call('browser_snapshot', {});
    for (let i = 0; i < N; i++) {
      const a = ground.action(i);
      const t0 = performance.now();
      if (kind !== 'playwright') {
        const [tool, args] = a.eous(view);
        view = await call(tool, args);
      } else {
        const [tool, args] = a.pw(view);
        await call(tool, args);
        view = await call('browser_snapshot', {});
      }
      ms.push(performance.now() - t0);
    }
  } finally {
    await client.close();
    rmSync(work, { recursive: true, force: true });
  }
  return ms;
}

const pct = (v, p) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.round(p * (s.length - 1)))]; };
let commit = 'unknown';
try { commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch (e) {}
const out = { commit, playwright_mcp: PW_VERSION, actions_per_ground: N, runs: [] };
for (const g of GROUNDS) {
  for (const kind of ['eous', 'eous-atomic', 'playwright']) {
    process.stderr.write(`step_latency_mcp: ${kind} on ${g.name}\n`);
    try {
      const ms = await run(kind, g);
      out.runs.push({ ground: g.name, server: kind, actions: ms.length, median: Math.round(pct(ms, 0.5)),
        p95: Math.round(pct(ms, 0.95)) });
    } catch (e) {
      out.runs.push({ ground: g.name, server: kind, error: String(e.message || e).slice(0, 300) });
    }
  }
}
writeFileSync(join(outDir, 'step_latency_mcp.json'), JSON.stringify(out, null, 2) + '\n');
console.log(JSON.stringify(out));

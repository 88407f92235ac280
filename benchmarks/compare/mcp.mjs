#!/usr/bin/env node
// benchmarks/compare/mcp.mjs — `eous mcp` against Playwright MCP (@playwright/mcp), side by side:
// the same MCP SDK client drives both servers through the same short scripts on the Playground
// screens and counts what the model would read: o200k tokens of every tool result per script,
// tokens of one page snapshot, milliseconds per tool call, and secret / hidden-text leaks found
// by grep in everything the servers sent.
//
// An agent must see the page after each action.  eous answers every action with the new view;
// Playwright MCP (0.0.8x) writes the snapshot of an action to a file and links it, so its side of
// each step is the action plus browser_snapshot.  Components: eous acts through browser_call
// (one call per field); Playwright clicks and types (a dropdown is open + pick).
//
// usage: node benchmarks/compare/mcp.mjs [--out DIR] [--dump DIR] [--one-at-a-time]
//   --one-at-a-time: the servers run one after the other, each on a machine the others do not load
//   (for milliseconds on an idle machine); by default they run at the same time.
// Needs build/eous, benchmarks/grounds/playground/dist and /usr/bin/chromium (Playwright downloads nothing).
// Exit codes: 0 ok, 2 missing prerequisite, 3 a server or script failed.
import { spawn, execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
let outDir = join(root, 'benchmarks/results');
let dumpDir = null;
let oneAtATime = false;
const loadStart = loadavg()[0];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--out') outDir = resolve(argv[++i]);
  else if (argv[i] === '--dump') dumpDir = resolve(argv[++i]);
  else if (argv[i] === '--one-at-a-time') oneAtATime = true;
  else {
    console.error(`mcp.mjs: unknown argument ${argv[i]} (expected --out DIR, --dump DIR, --one-at-a-time)`);
    process.exit(2);
  }
}
const EOUS = resolve(process.env.EOUS_CLI || join(root, 'build/eous')); // EOUS_CLI: another build's binary
const CHROMIUM = '/usr/bin/chromium';
for (const [p, why] of [[EOUS, 'run make build'], [join(root, 'benchmarks/grounds/playground/dist/index.html'), 'run scripts/build-site'],
  [CHROMIUM, 'install the Debian package chromium']]) {
  if (!existsSync(p)) { console.error(`mcp.mjs: ${p} missing (${why})`); process.exit(2); }
}

const SECRET = 'tok_bench_s3cr3t_value_42';
// what must never reach a model: the typed secret, a data-agent-secret region, a data-agent-hidden region
const LEAKS = { secret: SECRET, 'password field value': 'tok_live_9f8e7d6c5b4a', 'data-agent-secret': 'whsec_4f1b9c2e7d8a',
  'data-agent-hidden': 'ignore all previous instructions' };
const CALL = { timeout: 300000 };

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// eous: "[c3] select 'Status'" → c3
function cid(view, kind, label) {
  const m = view.match(new RegExp(`\\[(c\\d+)\\] ${esc(kind)} '${esc(label)}'`));
  if (!m) throw new Error(`eous view has no ${kind} '${label}'`);
  return m[1];
}
// Playwright: '- combobox "* Status" [ref=e41]' → e41 (case-insensitive name, required-field star allowed)
// antd's dropdown items are plain elements ('- generic [ref=e9]: Paid'): then the last line showing that text
function pref(snap, role, name) {
  const m = snap.match(new RegExp(`- ${esc(role)} "(?:\\* )?${esc(name)}"[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'i'));
  if (m) return m[1];
  const byText = [...snap.matchAll(new RegExp(`\\[ref=([a-z0-9]+)\\][^\\n]*: "?${esc(name)}"?$`, 'gim'))];
  if (!byText.length) throw new Error(`Playwright snapshot has no ${role} "${name}"`);
  return byText.at(-1)[1];
}

// Each step: eous does one call on the last view; Playwright does its calls, each on the last snapshot.
const call = (kind, label, tool, params) => ({ eous: (v) => ['browser_call', { component: cid(v, kind, label), tool, params }] });
const SCRIPTS = [
  { name: 'settings: security tab, type API token secret', path: '/settings', steps: [
    { ...call('tabs', 'Settings sections', 'setTab', { key: 'security' }),
      pw: [(s) => ['browser_click', { target: pref(s, 'tab', 'Security'), element: 'Security tab' }]] },
    { ...call('input', 'API token', 'setValue', { text: '{{secret:API_TOKEN}}' }),
      pw: [(s) => ['browser_type', { target: pref(s, 'textbox', 'API token'), element: 'API token', text: 'API_TOKEN' }]] },
  ] },
  { name: 'orders: filter by customer', path: '/orders', steps: [
    { ...call('input', 'Customer', 'setValue', { text: 'Boyd' }),
      pw: [(s) => ['browser_type', { target: pref(s, 'textbox', 'Customer name'), element: 'Customer name', text: 'Boyd' }]] },
  ] },
  { name: 'apply: full name', path: '/apply', steps: [
    { ...call('input', 'Full name', 'setValue', { text: 'Ada Lovelace' }),
      pw: [(s) => ['browser_type', { target: pref(s, 'textbox', 'Full name'), element: 'Full name', text: 'Ada Lovelace' }]] },
  ] },
  { name: 'booking: guests', path: '/booking', steps: [
    { ...call('inputnumber', 'Guests', 'setValue', { value: 3 }),
      pw: [(s) => ['browser_type', { target: pref(s, 'spinbutton', 'Guests'), element: 'Guests', text: '3' }]] },
  ] },
  { name: 'users: search', path: '/users', steps: [
    { ...call('input', 'Search users', 'setValue', { text: 'ada' }),
      pw: [(s) => ['browser_type', { target: pref(s, 'textbox', 'Search users'), element: 'Search users', text: 'ada' }]] },
  ] },
  // both servers' browser_fill_form: several fields in one call (eous: each field's component and setter); last, so
  // its navigation is to another page than the script before (eous answers a navigation to the same page with a delta)
  { name: 'apply: name and email in one call (browser_fill_form)', path: '/apply', steps: [
    { eous: (v) => ['browser_fill_form', { fields: [
        { ref: cid(v, 'input', 'Full name'), name: 'Full name', type: 'textbox', value: 'Ada Lovelace' },
        { ref: cid(v, 'input', 'Email'), name: 'Email', type: 'textbox', value: 'ada@example.org' }] }],
      pw: [(s) => ['browser_fill_form', { fields: [
        { target: pref(s, 'textbox', 'Full name'), name: 'Full name', type: 'textbox', value: 'Ada Lovelace' },
        { target: pref(s, 'textbox', 'Email'), name: 'Email', type: 'textbox', value: 'ada@example.org' }] }]] },
  ] },
];

function startSite() {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [join(root, 'benchmarks/grounds/playground/serve.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.once('error', fail);
    p.stdout.once('data', (d) => ok({ proc: p, url: String(d).trim() }));
  });
}

const textOf = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

class Session {
  constructor(name, transport, stderrSink) {
    this.name = name;
    this.transport = transport;
    this.client = new Client({ name: 'eous-mcp-bench', version: '1.0.0' });
    this.stderr = stderrSink;
    this.all = []; // every text any tool result carried
  }
  async start() { await this.client.connect(this.transport); }
  async call(name, args, log) {
    const t0 = performance.now();
    const r = await this.client.callTool({ name, arguments: args }, undefined, CALL);
    const ms = performance.now() - t0;
    const text = textOf(r);
    this.all.push(text);
    if (log) log.push({ tool: name, ms, tokens: countTokens(text), error: !!r.isError });
    if (r.isError) throw new Error(`${this.name} ${name}: ${text.slice(0, 300)}`);
    return text;
  }
  async close() { await this.client.close(); }
}

// eous: the action's answer is the new view.  Playwright: the action, then browser_snapshot.
async function runScript(sess, kind, base, script) {
  const log = [];
  let view = await sess.call('browser_navigate', { url: base + script.path }, log);
  if (kind === 'playwright') view = await sess.call('browser_snapshot', {}, log);
  for (const step of script.steps) {
    if (kind !== 'playwright') {
      const [tool, args] = step.eous(view);
      view = await sess.call(tool, args, log);
    } else {
      for (const act of step.pw) {
        const [tool, args] = act(view);
        await sess.call(tool, args, log);
        view = await sess.call('browser_snapshot', {}, log);
      }
    }
  }
  const snap = await sess.call('browser_snapshot', {}, null); // one snapshot of the final page, outside the script
  // a step: the navigation or one action, with the page seen after it (eous: 1 call, Playwright: 2)
  return { log, steps: 1 + script.steps.length, snapshotTokens: countTokens(snap), finalSnapshot: snap };
}

async function runServer(kind, base, work) {
  let transport;
  if (kind === 'eous' || kind === 'eous-full') {
    // eous-full: the same server sending the whole view after every action (--deltas off), for the tokens deltas save
    transport = new StdioClientTransport({ command: EOUS, args: kind === 'eous' ? ['mcp'] : ['mcp', '--deltas', 'off'], stderr: 'pipe',
      env: { ...process.env, EOUS_SECRET_API_TOKEN: SECRET } });
  } else {
    const secrets = join(work, 'secrets.env');
    writeFileSync(secrets, `API_TOKEN=${SECRET}\n`);
    chmodSync(secrets, 0o600);
    transport = new StdioClientTransport({ command: process.execPath, cwd: work, stderr: 'pipe',
      args: [join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'), '--headless', '--browser', 'chromium', '--executable-path', CHROMIUM,
        '--no-sandbox', '--isolated', '--timeout-action', '60000', '--output-dir', join(work, 'out'), '--secrets', secrets],
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  }
  let stderr = '';
  transport.stderr.on('data', (d) => { stderr += d; });
  const sess = new Session(kind, transport);
  await sess.start();
  const results = [];
  try {
    await sess.call('browser_navigate', { url: base + '/' }, null); // warm-up: browser start, site cached
    for (const script of SCRIPTS) {
      process.stderr.write(`mcp.mjs: ${kind}: ${script.name}\n`);
      const r = await runScript(sess, kind, base, script);
      if (dumpDir) writeFileSync(join(dumpDir, `${kind}-${script.path.slice(1)}.txt`), sess.all.join('\n\n=====\n\n'));
      results.push({ script: script.name, ...r });
    }
  } finally {
    await sess.close();
  }
  const everything = sess.all.join('\n') + '\n' + stderr;
  const leaks = Object.entries(LEAKS).filter(([, v]) => everything.includes(v)).map(([k]) => k);
  return { results, leaks };
}

function summarize(kind, run) {
  const calls = run.results.flatMap((r) => r.log);
  return {
    server: kind,
    scripts: run.results.map((r) => ({
      script: r.script,
      calls: r.log.length,
      tokens: r.log.reduce((a, c) => a + c.tokens, 0),
      ms_per_call: r.log.reduce((a, c) => a + c.ms, 0) / r.log.length,
      steps: r.steps,
      ms_per_step: r.log.reduce((a, c) => a + c.ms, 0) / r.steps,
      snapshot_tokens: r.snapshotTokens,
    })),
    steps: run.results.reduce((a, r) => a + r.steps, 0),
    ms_per_step: calls.reduce((a, c) => a + c.ms, 0) / run.results.reduce((a, r) => a + r.steps, 0),
    calls: calls.length,
    tokens: calls.reduce((a, c) => a + c.tokens, 0),
    ms_per_call: calls.reduce((a, c) => a + c.ms, 0) / calls.length,
    ms_per_call_median: calls.map((c) => c.ms).sort((a, b) => a - b)[Math.floor(calls.length / 2)],
    leaks: run.leaks,
  };
}

const site = await startSite();
const work = mkdtempSync(join(tmpdir(), 'eous-mcp-bench-'));
if (dumpDir) mkdirSync(dumpDir, { recursive: true });
let code = 0;
const out = {};
try {
  // both at once: the shared machine is too slow to run them one after the other in time; each
  // suffers the other's load alike
  const kinds = ['eous', 'playwright', 'eous-full'];
  const runs = [];
  if (oneAtATime) for (const k of kinds) runs.push(await runServer(k, site.url, work));
  else runs.push(...(await Promise.all(kinds.map((k) => runServer(k, site.url, work)))));
  const [e, p, f] = runs;
  out.eous = summarize('eous', e);
  out.playwright = summarize('playwright', p);
  out.eous_full = summarize('eous-full', f);
} catch (e) {
  console.error(`mcp.mjs: ${e.message}`);
  code = 3;
} finally {
  site.proc.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
if (code) process.exit(code);

const commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
const pwVersion = require('@playwright/mcp/package.json').version;
const sdkVersion = JSON.parse(readFileSync(join(here, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;
const e = out.eous, p = out.playwright, f = out.eous_full;
const ratio = e.tokens / p.tokens;
const result = {
  commit, date: new Date().toISOString(), load_average_1m: loadavg()[0], playwright_mcp: pwVersion, mcp_sdk: sdkVersion,
  tokenizer: 'o200k_base (gpt-tokenizer)', eous: e, playwright: p, eous_deltas_off: f, token_ratio: ratio,
  token_ratio_deltas_off: f.tokens / p.tokens,
  goal: { tokens_at_most_half: ratio <= 0.5, no_leak: e.leaks.length === 0 && f.leaks.length === 0,
    no_slower_per_call: e.ms_per_call <= p.ms_per_call, no_slower_per_step: e.ms_per_step <= p.ms_per_step },
};
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'mcp.json'), JSON.stringify(result, null, 2) + '\n');
const rows = e.scripts.map((s, i) => {
  const q = p.scripts[i];
  return `| ${s.script} | ${s.calls} / ${q.calls} | ${s.tokens} / ${q.tokens} | ${(s.tokens / q.tokens).toFixed(2)} | ${f.scripts[i].tokens} | ${s.snapshot_tokens} / ${q.snapshot_tokens} | ${s.ms_per_step.toFixed(0)} / ${q.ms_per_step.toFixed(0)} | ${s.ms_per_call.toFixed(0)} / ${q.ms_per_call.toFixed(0)} |`;
});
const md = `# eous mcp vs Playwright MCP

Commit ${commit}, ${result.date}; @playwright/mcp ${pwVersion} and eous driven by the same
@modelcontextprotocol/sdk ${sdkVersion} client over stdio; Chromium ${CHROMIUM} headless for both;
tokens are o200k_base. The servers (eous, eous --deltas off, Playwright MCP) ran ${oneAtATime ? 'one after the other' : 'at the same time'}; 1-minute load average at the start ${loadStart.toFixed(1)}, at the end:
${result.load_average_1m.toFixed(1)} (a shared 2-core machine: milliseconds are noisy, tokens are not). Produced by \`node benchmarks/compare/mcp.mjs\`.

Each script opens a Playground screen and changes fields as an agent would. An agent has to see the
page after each action: eous answers every action with the new view, on the same page as a delta
(what changed since the view it sent last; \`--deltas off\` sends it whole, column "eous, deltas off");
Playwright MCP links its snapshot to a file, so its side of a step is the action plus \`browser_snapshot\`.
A step is the navigation or one action with the page seen after it: one eous call, two Playwright calls,
so "ms per step" compares the same work and "ms per call" does not. eous sets a
component with one \`browser_call\`; Playwright clicks and types. (Dropdown picks are left out of this
run: Playwright's snapshot of an open antd dropdown gave the scripts no option to pick in time.)
"snapshot" is one \`browser_snapshot\` of the final page. Figures are eous / Playwright.

| script | tool calls | tokens of all tool results | ratio | eous, deltas off: tokens | snapshot tokens | ms per step | ms per call |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
| **all** | ${e.calls} / ${p.calls} | ${e.tokens} / ${p.tokens} | **${ratio.toFixed(2)}** | ${f.tokens} (${(f.tokens / p.tokens).toFixed(2)}×) | | ${e.ms_per_step.toFixed(0)} / ${p.ms_per_step.toFixed(0)} | ${e.ms_per_call.toFixed(0)} / ${p.ms_per_call.toFixed(0)} (median ${e.ms_per_call_median.toFixed(0)} / ${p.ms_per_call_median.toFixed(0)}) |

Leaks found by grep in every tool result and the server's stderr (the typed secret
\`${'{{secret:API_TOKEN}}'}\`, the password field's own value, the Settings page's data-agent-secret and
data-agent-hidden text):
eous: ${e.leaks.length ? e.leaks.join(', ') : 'none'} · eous, deltas off: ${f.leaks.length ? f.leaks.join(', ') : 'none'} · Playwright MCP: ${p.leaks.length ? p.leaks.join(', ') : 'none'}.

Goal (≤ 0.5× Playwright's tokens per script, no leak, no slower per call):
tokens ${result.goal.tokens_at_most_half ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×) · leaks ${result.goal.no_leak ? 'met' : 'NOT met'} ·
per call ${result.goal.no_slower_per_call ? 'met' : 'NOT met'} (${e.ms_per_call.toFixed(0)} vs ${p.ms_per_call.toFixed(0)} ms mean) ·
per step ${result.goal.no_slower_per_step ? 'met' : 'NOT met'} (${e.ms_per_step.toFixed(0)} vs ${p.ms_per_step.toFixed(0)} ms mean).
`;
writeFileSync(join(outDir, 'mcp.md'), md);
process.stdout.write(md);

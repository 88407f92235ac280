// benchmarks/perf/mcp_load_shared.mjs — would one shared Chromium, with a browser
// context per MCP session, cut what N sessions cost?  (issue 28's load goal)
// Verifies against real chromedriver that several WebDriver sessions attached to
// one Chromium (goog:chromeOptions.debuggerAddress) can each drive a window in a
// browser context of its own (made over the browser-level CDP connection,
// Target.createBrowserContext + Target.createTarget), that cookies and
// localStorage stay per context, and whether each session sees the others'
// windows; then measures the CPU of N sessions × ROUNDS rounds (navigate
// /settings, type into an input, 3 scripts) with one browser per session
// against one shared browser, alternating, ROUNDS-round blocks REPEAT times.
// Writes OUT.{md,json} with the commit.  Owner: the mcp module.
//   node benchmarks/perf/mcp_load_shared.mjs [--sessions 4] [--rounds 5] [--repeat 3]
//        [--out benchmarks/results/mcp_load_shared]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof WebSocket === 'undefined') { // Node 20 has it behind a flag
  const r = spawn(process.execPath, ['--experimental-websocket', '--no-warnings', ...process.argv.slice(1)], { stdio: 'inherit' });
  r.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
  const N = Number(arg('sessions', 4)), ROUNDS = Number(arg('rounds', 5)), REPEAT = Number(arg('repeat', 3));
  const OUT = resolve(arg('out', join(root, 'benchmarks/results/mcp_load_shared')));
  if (!(N >= 2 && ROUNDS >= 1 && REPEAT >= 1) || !existsSync(join(root, 'benchmarks/grounds/playground/dist/index.html'))) {
    process.stderr.write('mcp_load_shared: expected --sessions N >= 2, --rounds N >= 1, --repeat N >= 1 and the Playground built (make site)\n');
    process.exit(2);
  }
  const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const groupPids = (pgid) => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try { const st = readFileSync(`/proc/${d}/stat`, 'utf8'); const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      return Number(f[2]) === pgid && f[0] !== 'Z'; } catch { return false; }
  }).map(Number);
  const cpuOf = (pid) => { try { const st = readFileSync(`/proc/${pid}/stat`, 'utf8'); const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / HZ; } catch { return 0; } };
  const freePort = () => new Promise((ok) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); }); });
  // eous's own switches (webdriver/session.c) and, for a browser eous would start itself, chromedriver's defaults
  const EOUS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    '--enable-features=WebMCP', '--force-device-scale-factor=1', '--lang=en-US', '--window-size=1280,900'];
  const CHROMEDRIVER = ['--disable-popup-blocking', '--enable-automation', '--disable-hang-monitor',
    '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows', '--allow-pre-commit-input',
    '--disable-prompt-on-repost', '--disable-client-side-phishing-detection', '--disable-default-apps',
    '--no-default-browser-check', '--password-store=basic', '--use-mock-keychain', '--test-type=webdriver'];
  const groups = [], cleanups = [];
  const stopAll = () => { for (const g of groups.splice(0)) try { process.kill(-g, 'SIGKILL'); } catch { /* gone */ }
    for (const c of cleanups.splice(0)) c(); };
  let stopSite = () => {};
  process.once('exit', () => { stopAll(); stopSite(); });

  const site = await new Promise((ok) => {
    const p = spawn(process.execPath, [join(root, 'benchmarks/grounds/playground/serve.mjs'), '--port', '0', '--root', join(root, 'benchmarks/grounds/playground/dist')],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    stopSite = () => p.kill('SIGTERM');
    p.stdout.once('data', (d) => ok(String(d).trim()));
  });
  const profile = () => { const d = mkdtempSync(join(tmpdir(), 'mcp-load-shared-')); cleanups.push(() => rmSync(d, { recursive: true, force: true })); return d; };
  const wd = async (base, method, path, body) => {
    const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const j = await r.json();
    if (j.value && j.value.error) throw new Error(`${method} ${path}: ${j.value.error}: ${String(j.value.message).split('\n')[0]}`);
    return j.value;
  };
  const driver = async () => {
    const port = await freePort();
    const p = spawn('chromedriver', [`--port=${port}`], { detached: true, stdio: 'ignore' });
    groups.push(p.pid);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 150; i++) { try { if ((await wd(url, 'GET', '/status')).ready) break; } catch { /* starting */ } await sleep(100); }
    return { url, pgid: p.pid };
  };
  const session = async (d, chromeOptions) => {
    const v = await wd(d.url, 'POST', '/session', { capabilities: { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': chromeOptions } } });
    return `${d.url}/session/${v.sessionId}`;
  };
  // one Chromium for all, its browser-level CDP connection
  const sharedBrowser = async () => {
    const prof = profile();
    const p = spawn('/usr/bin/chromium', [...EOUS, ...CHROMEDRIVER, `--user-data-dir=${prof}`, '--remote-debugging-port=0', 'about:blank'],
      { detached: true, stdio: 'ignore' });
    groups.push(p.pid);
    for (let i = 0; i < 300 && !existsSync(`${prof}/DevToolsActivePort`); i++) await sleep(100);
    const port = readFileSync(`${prof}/DevToolsActivePort`, 'utf8').split('\n')[0];
    const ver = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
    const ws = new WebSocket(ver.webSocketDebuggerUrl);
    await new Promise((ok, no) => { ws.addEventListener('open', ok); ws.addEventListener('error', no); });
    cleanups.push(() => ws.close());
    let seq = 0;
    const pend = new Map();
    ws.addEventListener('message', (ev) => { const m = JSON.parse(ev.data); if (m.id && pend.has(m.id)) { pend.get(m.id)(m); pend.delete(m.id); } });
    const cdp = (method, params) => new Promise((ok, no) => {
      const id = ++seq;
      pend.set(id, (m) => (m.error ? no(new Error(`${method}: ${m.error.message}`)) : ok(m.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });
    return { port, pgid: p.pid, cdp };
  };
  // a WebDriver session driving a fresh window in a browser context of its own
  const contextSession = async (d, b) => {
    const s = await session(d, { debuggerAddress: `127.0.0.1:${b.port}` });
    const ctx = await b.cdp('Target.createBrowserContext', {});
    const t = await b.cdp('Target.createTarget', { url: 'about:blank', browserContextId: ctx.browserContextId });
    await wd(s, 'POST', '/window', { handle: t.targetId });
    return { s, handle: t.targetId, ctx: ctx.browserContextId };
  };
  const script = (s, body) => wd(s, 'POST', '/execute/sync', { script: body, args: [] });

  // 1. does it work, and what stays per session?
  const found = {};
  {
    const b = await sharedBrowser();
    const d = await driver();
    const [a, c] = [await contextSession(d, b), await contextSession(d, b)];
    await wd(a.s, 'POST', '/url', { url: `${site}/settings` });
    await wd(c.s, 'POST', '/url', { url: `${site}/settings` });
    await script(a.s, 'document.cookie = "who=A; path=/"; localStorage.setItem("k", "A"); return 1');
    const seenA = await script(a.s, 'return [document.cookie, localStorage.getItem("k")]');
    const seenC = await script(c.s, 'return [document.cookie, localStorage.getItem("k")]');
    const cookiesC = await wd(c.s, 'GET', '/cookie');
    const handlesC = await wd(c.s, 'GET', '/window/handles');
    const el = await wd(a.s, 'POST', '/element', { using: 'css selector', value: 'input' });
    await wd(a.s, 'POST', `/element/${Object.values(el)[0]}/value`, { text: 'hello' });
    const shot = await wd(a.s, 'GET', '/screenshot');
    await wd(a.s, 'DELETE', '');
    await b.cdp('Target.disposeBrowserContext', { browserContextId: a.ctx });
    const cAfter = await script(c.s, 'return location.pathname');
    Object.assign(found, {
      sessions_attached: 2, own_context_window_driven: seenA[0] === 'who=A' && seenA[1] === 'A',
      cookie_isolated: seenC[0] === '' && cookiesC.length === 0, local_storage_isolated: seenC[1] === null,
      other_sessions_windows_visible: handlesC.includes(a.handle), typing_and_screenshot: shot.length > 1000,
      other_session_unaffected_by_close: cAfter === '/settings',
    });
    stopAll();
    await sleep(500);
  }

  // 2. CPU: one browser per session against one shared browser
  const rounds = async (sessions) => Promise.all(sessions.map(async (s) => {
    for (let r = 0; r < ROUNDS; r++) {
      await wd(s, 'POST', '/url', { url: `${site}/settings` });
      const el = await wd(s, 'POST', '/element', { using: 'css selector', value: 'input' });
      await wd(s, 'POST', `/element/${Object.values(el)[0]}/value`, { text: 'hello' });
      for (let k = 0; k < 3; k++) await script(s, 'return document.body.innerText.length');
    }
  }));
  const measure = async (shared) => {
    const t0 = performance.now();
    const pg = [], ss = [];
    if (shared) {
      const b = await sharedBrowser();
      const d = await driver();
      pg.push(b.pgid, d.pgid);
      for (let i = 0; i < N; i++) ss.push((await contextSession(d, b)).s);
    } else {
      for (let i = 0; i < N; i++) {
        const d = await driver();
        pg.push(d.pgid);
        ss.push(await session(d, { args: [...EOUS, `--user-data-dir=${profile()}`] }));
      }
    }
    const start = performance.now() - t0;
    const cpu = () => pg.reduce((s, g) => s + groupPids(g).reduce((a, p) => a + cpuOf(p), 0), 0);
    const startCpu = cpu();
    const t1 = performance.now();
    await rounds(ss);
    const out = { start_ms: Math.round(start), start_cpu_ms: Math.round(1000 * startCpu),
      cpu_ms_per_round: Math.round((1000 * (cpu() - startCpu)) / (N * ROUNDS)), wall_ms: Math.round(performance.now() - t1) };
    stopAll();
    await sleep(500);
    return out;
  };
  const load0 = loadavg();
  const runs = { separate: [], shared: [] };
  for (let i = 0; i < REPEAT; i++)
    for (const m of i % 2 ? ['shared', 'separate'] : ['separate', 'shared']) runs[m].push(await measure(m === 'shared'));
  const load1 = loadavg();
  stopSite();
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b), h = s.length >> 1; return s.length % 2 ? s[h] : Math.round((s[h - 1] + s[h]) / 2); };
  const sum = (m, k) => ({ median: med(runs[m].map((r) => r[k])), min: Math.min(...runs[m].map((r) => r[k])), max: Math.max(...runs[m].map((r) => r[k])) });
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD']).toString().trim();
  const json = { benchmark: 'mcp_load_shared', commit, date: new Date().toISOString(), cpus: cpus().length,
    chromium: execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(), sessions: N, rounds: ROUNDS, repeat: REPEAT,
    found, runs, load_start: load0.map((x) => Math.round(x * 10) / 10), load_end: load1.map((x) => Math.round(x * 10) / 10) };
  writeFileSync(`${OUT}.json`, JSON.stringify(json, null, 1) + '\n');
  const yes = (b) => (b ? 'yes' : 'no');
  const row = (m) => { const c = sum(m, 'cpu_ms_per_round'), s = sum(m, 'start_cpu_ms'), w = sum(m, 'start_ms');
    return `| ${m} | ${c.median} (${c.min}–${c.max}) | ${s.median} (${s.min}–${s.max}) | ${w.median} (${w.min}–${w.max}) |`; };
  const md = `## One shared Chromium with a browser context per session? (\`benchmarks/perf/mcp_load_shared.mjs\`)

Commit ${commit}, ${json.date.slice(0, 16).replace('T', ' ')} UTC, ${json.cpus} cores, ${json.chromium}; load average
(1, 5, 15 min) ${json.load_start.join(', ')} at the start, ${json.load_end.join(', ')} at the end.

What real chromedriver does with ${'`goog:chromeOptions.debuggerAddress`'} sessions on one Chromium, each switched
to a window of a browser context made over the browser-level CDP connection (a page's
${'`goog/cdp/execute`'} is refused ${'`Target.createBrowserContext`'}: "Not allowed"):

| check | result |
|---|---|
| two WebDriver sessions attach to one Chromium | ${yes(found.sessions_attached === 2)} |
| a session drives the window of its own context (navigate, script, type, screenshot) | ${yes(found.own_context_window_driven && found.typing_and_screenshot)} |
| cookies stay in their context (page and WebDriver ${'`/cookie`'}) | ${yes(found.cookie_isolated)} |
| localStorage stays in its context | ${yes(found.local_storage_isolated)} |
| a session's ${'`/window/handles`'} lists the other sessions' windows | ${yes(found.other_sessions_windows_visible)} |
| ending one session and disposing of its context leaves the other working | ${yes(found.other_session_unaffected_by_close)} |

CPU of ${N} sessions × ${ROUNDS} rounds (navigate /settings, type into an input, 3 scripts), one browser per
session against one shared browser; median (min–max) of ${REPEAT} alternating runs; ms:

| browsers | CPU per round | CPU to start all | wall to start all |
|---|---|---|---|
${row('separate')}
${row('shared')}
`;
  writeFileSync(`${OUT}.md`, md);
  process.stdout.write(md);
}

// benchmarks/perf/mcp_load.mjs — `eous mcp --port` under load: N concurrent
// sessions (MCP TypeScript SDK clients over Streamable HTTP) each running the
// same ACTIONS actions on the Playground, against one session alone.
// Measures per action (client wall time of tools/call) p50/p95 ms, RSS (and
// PSS) per session of the eous process and of each session's chromedriver +
// Chromium process group, cross-session leaks (each session types its own
// marker into 'Project name'; no other session's results may contain it, and
// its own must), and orphaned browsers after SIGTERM (processes left in any
// session's driver process group).  CPU accounting from /proc: eous's own,
// each session's browser tree by process, per kind of action (1-session run),
// the machine's and others' busy cores, the load average at start and end,
// the CPU floor N sessions set on the machine's cores, and the page alone (its
// own load with plain WebDriver navigations, no eous) as the floor no change
// to eous can remove.  Writes OUT_PREFIX.{md,json}.
//   node mcp_load.mjs [--sessions 8] [--actions 50] [--out benchmarks/results/mcp_load]
//                     [--eous-args '--mode pruned ...' (or EOUS_ARGS)]
//   node mcp_load.mjs --from OUT.json [--out ...]   the report again from a run's JSON
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const FROM = arg('from', '');
const SESSIONS = FROM ? JSON.parse(readFileSync(FROM, 'utf8')).many.sessions : Number(arg('sessions', 8));
const ACTIONS = FROM ? JSON.parse(readFileSync(FROM, 'utf8')).many.actions_per_session : Number(arg('actions', 50));
const OUT = resolve(arg('out', join(root, 'benchmarks/results/mcp_load')));
const EOUS = resolve(process.env.EOUS || join(root, 'build/eous'));
// extra `eous mcp` options for both runs (e.g. --mode pruned), space-separated
const EXTRA = (arg('eous-args', process.env.EOUS_ARGS || '') || '').split(/\s+/).filter(Boolean);
if (!(SESSIONS >= 1 && ACTIONS >= 5) || !existsSync(EOUS)) {
  process.stderr.write(`mcp_load: expected --sessions N >= 1, --actions N >= 5 and ${EOUS} built\n`);
  process.exit(2);
}
const requireSdk = createRequire(join(root, 'benchmarks/compare/package.json'));
const sdk = async (p) => import(pathToFileURL(requireSdk.resolve(`@modelcontextprotocol/sdk/${p}`)).href);
const { Client } = await sdk('client/index.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const LONG = { timeout: 600000 };

async function until(cond, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}
const kib = (pid, field) => {
  try {
    const m = readFileSync(`/proc/${pid}/${field === 'Pss' ? 'smaps_rollup' : 'status'}`, 'utf8')
      .match(new RegExp(`^${field === 'Pss' ? 'Pss' : 'VmRSS'}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : 0;
  } catch { return 0; }
};
function groupPids(pgid) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid && f[0] !== 'Z') out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}
// CPU accounting from /proc (clock ticks → seconds): a process's own utime+stime, and with its reaped
// children's cutime+cstime (a renderer that exited is in its reaper's); a tree is a process group.
const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
function cpuOf(pid, children) {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    // after the comm: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
    return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / HZ;
  } catch { return 0; }
}
// What a browser-tree process is: chromedriver, browser, renderer, gpu-process, zygote, or the utility's sub-type.
function procKind(pid) {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    if (/chromedriver/.test(argv[0])) return 'chromedriver';
    const type = argv.find((a) => a.startsWith('--type='));
    if (!type) return 'browser';
    const sub = argv.find((a) => a.startsWith('--utility-sub-type='));
    return sub ? sub.slice(19).replace(/\.mojom\..*/, '') : type.slice(7);
  } catch { return 'gone'; }
}
const treeByKind = (pgid, into) => {
  for (const p of groupPids(pgid)) { const k = procKind(p); into[k] = (into[k] || 0) + cpuOf(p, true); }
  return into;
};
const treeCpu = (pgid) => groupPids(pgid).reduce((s, p) => s + cpuOf(p, true), 0);
// The whole machine's busy CPU seconds so far (every process, ours and others'), from /proc/stat.
function machineBusy() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((s, x) => s + x, 0);
  return (total - f[3] - f[4]) / HZ; // less idle and iowait
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
const r1 = (x) => Math.round(x * 10) / 10;
const r3 = (x) => Math.round(x * 1000) / 1000;

function startSite() {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [join(root, 'benchmarks/grounds/playground/serve.mjs'), '--port', '0', '--root',
      join(root, 'benchmarks/grounds/playground/dist')], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.once('error', fail);
    p.stdout.once('data', (d) => ok({ p, url: String(d).trim() }));
  });
}

const KINDS = ['navigate', 'setValue', 'snapshot', 'setTab', 'webmcp_call'];

// One session's ACTIONS actions: navigate, set 'Project name' to its marker, snapshot, switch a tab,
// call a page WebMCP tool; again and again.  probe (the 1-session run only) returns the CPU seconds
// so far of eous and of the session's browser tree, read before and after each call, so each kind of
// action gets the CPU it used (what a page does after an answer falls to the next call).
async function runSession(url, site, marker, rec, errors, probe, started) {
  const c = new Client({ name: 'mcp-load', version: '1' });
  const t = new StreamableHTTPClientTransport(new URL(url));
  await c.connect(t);
  const call = async (kind, name, args) => {
    const c0 = probe ? probe() : null;
    const t0 = performance.now();
    const r = await c.callTool({ name, arguments: args }, undefined, LONG);
    const ms = performance.now() - t0;
    rec.times.push(ms);
    rec.byKind[kind].push(ms);
    if (probe && rec.times.length > 1) { // the first call starts the browser: not the action's cost
      const c1 = probe();
      const by = Object.fromEntries(Object.keys(c1.by).map((k) => [k, c1.by[k] - (c0.by[k] || 0)]));
      rec.cpuByKind[kind].push({ eous: c1.eous - c0.eous, browser: c1.browser - c0.browser, by });
    }
    rec.results.push(JSON.stringify(r));
    if (rec.times.length === 1) rec.started = started(t.sessionId);
    if (r.isError) throw new Error(`${name}: ${r.content[0].text.split('\n')[0].slice(0, 200)}`);
    return r;
  };
  const text = (r) => r.content.filter((x) => x.type === 'text').map((x) => x.text).join('\n');
  let done = 0;
  while (done < ACTIONS) {
    const steps = [
      async () => call('navigate', 'browser_navigate', { url: `${site}/settings` }),
      async (v) => call('setValue', 'browser_call', {
        component: text(v).match(/\[(c\d+)\] input 'Project name'/)[1], tool: 'setValue', params: { text: marker } }),
      async () => call('snapshot', 'browser_snapshot', {}),
      async (v) => call('setTab', 'browser_call', {
        component: v.structuredContent.components.find((x) => x.kind === 'tabs').id,
        tool: 'setTab', params: { key: 'members' } }),
      async () => call('webmcp_call', 'browser_webmcp_call', { name: 'search_orders', arguments: { status: 'paid' } }),
    ];
    let prev = null;
    for (const s of steps) {
      if (done >= ACTIONS) break;
      done++;
      try {
        prev = await s(prev);
      } catch (e) { // counted (a loaded machine times pages out); the cycle starts again from navigate
        errors.push(e.message);
        break;
      }
    }
  }
  return { c, t };
}

async function run(n) {
  const site = await startSite();
  const srv = spawn(EOUS, ['mcp', '--port', '0', '--max-sessions', String(Math.max(16, n)), ...EXTRA], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, EOUS_LOG: 'info' } });
  let out = '', err = '';
  srv.stdout.on('data', (d) => { out += d; });
  srv.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((r) => srv.once('exit', (code, sig) => r(code ?? sig)));
  if (!(await until(() => out.includes('\n'), 60000))) throw new Error(`no URL: ${err}`);
  const url = out.trim();
  const markers = Array.from({ length: n }, (_, i) => `probe${i}x${Math.random().toString(36).slice(2, 10)}`);
  const recs = markers.map(() => ({ times: [], results: [], byKind: Object.fromEntries(KINDS.map((k) => [k, []])),
    cpuByKind: Object.fromEntries(KINDS.map((k) => [k, []])) }));
  const errors = [];
  const stopAll = () => { if (srv.exitCode === null) srv.kill('SIGTERM'); site.p.kill('SIGTERM'); };
  process.once('exit', stopAll); // a crash here must not leave the server and its browsers behind
  // a session's browser tree's CPU once its first action (which starts the browser) has answered
  const started = (sid) => {
    const m = err.match(new RegExp(`session ${String(sid).slice(0, 8)}: browser started \\(chromedriver pid (\\d+)\\)`));
    return m ? { pid: Number(m[1]), cpu: treeCpu(Number(m[1])), eous: cpuOf(srv.pid, false) } : null;
  };
  const driverPids = () => [...err.matchAll(/browser started \(chromedriver pid (\d+)\)/g)].map((x) => Number(x[1]));
  const probe = n === 1 ? () => {
    const d = driverPids()[0];
    const by = d ? treeByKind(d, {}) : {};
    return { eous: cpuOf(srv.pid, false), browser: Object.values(by).reduce((s, x) => s + x, 0), by };
  } : null;
  const cpu0 = { eous: cpuOf(srv.pid, false), site: cpuOf(site.p.pid, false), harness: process.cpuUsage(),
    machine: machineBusy() };
  const load0 = loadavg();
  const t0 = performance.now();
  const clients = await Promise.all(markers.map((m, i) => runSession(url, site.url, m, recs[i], errors, probe, started)));
  const wall = performance.now() - t0;
  // CPU and memory while every session's browser is still open (a browser's CPU from its start:
  // the start itself is part of what its session cost)
  const hc = process.cpuUsage(cpu0.harness);
  const drivers = driverPids();
  const cpu = {
    eous_s: r3(cpuOf(srv.pid, false) - cpu0.eous),
    browser_s: drivers.map((pid) => r3(treeCpu(pid))),
    site_s: r3(cpuOf(site.p.pid, false) - cpu0.site),
    harness_s: r3((hc.user + hc.system) / 1e6),
    machine_s: r3(machineBusy() - cpu0.machine),
  };
  // the same without each browser's start (its session's first action)
  const steady = recs.filter((r) => r.started).map((r) => treeCpu(r.started.pid) - r.started.cpu);
  cpu.browser_after_start_s = r3(steady.reduce((s, x) => s + x, 0));
  cpu.started_sessions = steady.length;
  // by process kind, each browser from its start (a zygote's includes the renderers it reaped)
  cpu.browser_by_process_s = Object.fromEntries(Object.entries(drivers.reduce((o, pid) => treeByKind(pid, o), {}))
    .map(([k, v]) => [k, r3(v)]).sort((a, b) => b[1] - a[1]));
  const trees = drivers.map((pid) => groupPids(pid));
  // the switches eous's Chromium runs with (for the page-alone reference)
  const browserPid = trees.flat().find((p) => procKind(p) === 'browser');
  const browserArgs = browserPid ? readFileSync(`/proc/${browserPid}/cmdline`, 'utf8').split(/[\0 ]/)
    .filter((a) => a.startsWith('--') && !/^--(user-data-dir|remote-debugging-port|log-level|enable-logging)\b/.test(a)) : [];
  const mem = {
    eous_rss_kib: kib(srv.pid, 'VmRSS'), eous_pss_kib: kib(srv.pid, 'Pss'),
    tree_rss_kib: trees.map((ps) => ps.reduce((s, p) => s + kib(p, 'VmRSS'), 0)),
    tree_pss_kib: trees.map((ps) => ps.reduce((s, p) => s + kib(p, 'Pss'), 0)),
    tree_processes: trees.map((ps) => ps.length),
  };
  const load1 = loadavg();
  for (const { c } of clients) await c.close().catch(() => {});
  srv.kill('SIGTERM');
  const code = await exited;
  site.p.kill('SIGTERM');
  process.removeListener('exit', stopAll);
  // orphans: anything left in a session's driver process group once eous has exited
  await until(() => drivers.every((pid) => groupPids(pid).length === 0), 20000);
  const orphans = drivers.reduce((s, pid) => s + groupPids(pid).length, 0);
  let leaks = 0, ownMissing = 0;
  for (let i = 0; i < n; i++) {
    const all = recs[i].results.join('\n');
    if (!all.includes(markers[i])) ownMissing++;
    for (let j = 0; j < n; j++) if (j !== i && all.includes(markers[j])) leaks++;
  }
  const flat = recs.flatMap((r) => r.times);
  const sum = (xs) => xs.reduce((s, x) => s + x, 0);
  const server_s = cpu.eous_s + sum(cpu.browser_s);
  const kinds = Object.fromEntries(KINDS.map((k) => {
    const ts = recs.flatMap((r) => r.byKind[k]);
    const cs = recs.flatMap((r) => r.cpuByKind[k]);
    const o = { n: ts.length, p50_ms: r1(pct(ts, 50)), mean_ms: r1(sum(ts) / (ts.length || 1)) };
    if (cs.length) {
      o.eous_cpu_ms = r1((1000 * sum(cs.map((x) => x.eous))) / cs.length);
      o.browser_cpu_ms = r1((1000 * sum(cs.map((x) => x.browser))) / cs.length);
      const pk = [...new Set(cs.flatMap((x) => Object.keys(x.by)))];
      o.browser_cpu_ms_by_process = Object.fromEntries(pk.map((p) => [p, r1((1000 * sum(cs.map((x) => x.by[p] || 0))) / cs.length)])
        .filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]));
    }
    return [k, o];
  }));
  return {
    sessions: n, actions_per_session: ACTIONS, actions: flat.length, wall_s: r1(wall / 1000), exit_code: code,
    p50_ms: r1(pct(flat, 50)), p95_ms: r1(pct(flat, 95)), mean_ms: r1(sum(flat) / flat.length),
    session_p50_ms: recs.map((r) => r1(pct(r.times, 50))), browsers: drivers.length, ...mem,
    cpu, server_cpu_ms_per_action: r1((1000 * server_s) / flat.length),
    eous_cpu_ms_per_action: r1((1000 * cpu.eous_s) / flat.length),
    browser_cpu_ms_per_action: r1((1000 * sum(cpu.browser_s)) / flat.length),
    browser_cpu_ms_per_action_after_start: r1((1000 * cpu.browser_after_start_s) / (flat.length - cpu.started_sessions)),
    server_cpu_ms_per_action_after_start: r1((1000 * cpu.eous_s) / flat.length +
      (1000 * cpu.browser_after_start_s) / (flat.length - cpu.started_sessions)),
    harness_cpu_ms_per_action: r1((1000 * (cpu.site_s + cpu.harness_s)) / flat.length),
    server_cores_busy: r3(server_s / (wall / 1000)),
    machine_cores_busy: r3(cpu.machine_s / (wall / 1000)),
    others_cores_busy: r3(Math.max(0, cpu.machine_s - server_s - cpu.site_s - cpu.harness_s) / (wall / 1000)),
    load_start: load0.map(r1), load_end: load1.map(r1), kinds,
    browser_args: browserArgs,
    leaks, sessions_missing_own_marker: ownMissing, orphaned_processes: orphans,
    errors: errors.length, error_samples: [...new Set(errors)].slice(0, 5),
  };
}

// The page alone: what loading /settings costs the browser with no eous in between (one chromedriver
// session with the switches eous's Chromium ran with, plain WebDriver navigations), CPU per navigation
// by process.  No change to eous can take this below what the page's own load costs.
async function pageAlone(args, navigations) {
  const site = await startSite();
  const port = await new Promise((ok) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); }); });
  const cd = spawn(process.env.EOUS_CHROMEDRIVER || 'chromedriver', [`--port=${port}`], { detached: true, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const profile = mkdtempSync(join(tmpdir(), 'mcp-load-page-'));
  const wd = async (method, path, body) => {
    const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined });
    const j = await r.json();
    if (j.value && j.value.error) throw new Error(`${path}: ${j.value.error}`);
    return j.value;
  };
  try {
    for (let i = 0; i < 100; i++) {
      try { if ((await wd('GET', '/status')).ready) break; } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    const v = await wd('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'chrome',
      'goog:chromeOptions': { args: [...args, `--user-data-dir=${profile}`] } } } });
    const sess = `/session/${v.sessionId}`;
    await wd('POST', `${sess}/url`, { url: `${site.url}/settings` }); // the first load: the start, not counted
    const c0 = treeByKind(cd.pid, {});
    const t0 = performance.now();
    for (let i = 0; i < navigations; i++) await wd('POST', `${sess}/url`, { url: `${site.url}/settings` });
    const wall = performance.now() - t0;
    const c1 = treeByKind(cd.pid, {});
    await wd('DELETE', sess).catch(() => {});
    const by = Object.fromEntries(Object.keys(c1).map((k) => [k, r1((1000 * (c1[k] - (c0[k] || 0))) / navigations)])
      .filter(([, x]) => x > 0).sort((a, b) => b[1] - a[1]));
    return { navigations, cpu_ms_per_navigation: r1(Object.values(by).reduce((s, x) => s + x, 0)), by_process: by,
      wall_ms_per_navigation: r1(wall / navigations) };
  } finally {
    try { process.kill(-cd.pid, 'SIGKILL'); } catch { /* gone */ }
    await until(() => groupPids(cd.pid).length === 0, 10000);
    rmSync(profile, { recursive: true, force: true });
    site.p.kill('SIGTERM');
  }
}

// --from OUT.json: the report again from an earlier run's figures (no browsers)
const prev = FROM ? JSON.parse(readFileSync(FROM, 'utf8')) : null;
const one = prev ? prev.one : await run(1);
process.stderr.write(`mcp_load: 1 session: p50 ${one.p50_ms} ms, p95 ${one.p95_ms} ms\n`);
const many = prev ? prev.many : await run(SESSIONS);
process.stderr.write(`mcp_load: ${SESSIONS} sessions: p50 ${many.p50_ms} ms, p95 ${many.p95_ms} ms\n`);
const page = prev ? prev.page_alone : await pageAlone(one.browser_args, 10);
process.stderr.write(`mcp_load: the page alone: ${page.cpu_ms_per_navigation} ms CPU per navigation\n`);

const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD']).toString().trim();
// uncommitted changes other than results files make the commit +dirty
const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no', '--', '.', ':!benchmarks/results'])
  .toString().trim() !== '';
const commit = prev ? prev.commit.replace(/\+dirty$/, '') : head;
const mib = (k) => r1(k / 1024);
const avg = (xs) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const cores = cpus().length;
// The CPU floors.  Throughput (strict): N sessions acting back to back need N × (CPU per action)
// core-seconds per action time, so with `cores` cores the mean action cannot take less than
// N × C / cores.  The median (an estimate): with the cores shared fairly among N busy sessions an
// action that needs c of CPU takes at least about c × N / cores, so the p50 can be no lower than the
// p50 of that over the actions run (c per kind from the 1-session run, scaled by how much more CPU an
// action took with N sessions).  The goal is in reach only if the median action needs at most
// 1.5 × one session's p50 × cores / N of CPU.
const ratio = (x, y) => Math.round((x / (y || 1)) * 100) / 100;
const scale = many.server_cpu_ms_per_action_after_start / (one.server_cpu_ms_per_action_after_start || 1);
const kindCpu = (k) => (one.kinds[k].eous_cpu_ms || 0) + (one.kinds[k].browser_cpu_ms || 0);
const p50Floor = pct(KINDS.flatMap((k) => Array(many.kinds[k].n).fill((kindCpu(k) * scale * SESSIONS) / cores)), 50);
const floor = {
  mean_ms: r1((SESSIONS * many.server_cpu_ms_per_action_after_start) / cores),
  mean_with_harness_ms: r1((SESSIONS * (many.server_cpu_ms_per_action_after_start + many.harness_cpu_ms_per_action)) / cores),
  cpu_scale_n_vs_1: r3(scale),
  p50_ms: r1(p50Floor),
};
floor.mean_ratio = ratio(Math.max(one.mean_ms, floor.mean_ms), one.mean_ms);
floor.p50_ratio = ratio(Math.max(one.p50_ms, floor.p50_ms), one.p50_ms);
const budgetMs = r1((1.5 * one.p50_ms * cores) / SESSIONS);
// the page's own load: its share of the CPU a cycle of KINDS.length actions takes with N sessions
const pageShare = Math.round((100 * page.cpu_ms_per_navigation) / (KINDS.length * many.server_cpu_ms_per_action_after_start));
const json = {
  benchmark: 'mcp_load', commit: prev ? prev.commit : commit + (dirty ? '+dirty' : ''),
  date: prev ? prev.date : new Date().toISOString(), cpus: cores, eous_args: prev ? prev.eous_args : EXTRA.join(' '),
  what: `${SESSIONS} concurrent MCP sessions over Streamable HTTP vs 1, ${ACTIONS} actions each on the Playground ` +
    '(navigate /settings, browser_call setValue of Project name, browser_snapshot, browser_call setTab, ' +
    'browser_webmcp_call search_orders, repeated); per action: the SDK client\'s wall time of tools/call',
  one, many, page_alone: page, p50_ratio: Math.round((many.p50_ms / one.p50_ms) * 100) / 100, goal_p50_ratio: 1.5,
  cpu_floor: floor, cpu_budget_ms_of_median_action_for_goal: budgetMs, page_alone_share_pct: pageShare,
};
writeFileSync(`${OUT}.json`, JSON.stringify(json, null, 1) + '\n');
const row = (r) => `| ${r.sessions} | ${r.actions} | ${r.p50_ms} | ${r.p95_ms} | ${r.mean_ms} | ` +
  `${Math.min(...r.session_p50_ms)}–${Math.max(...r.session_p50_ms)} | ${r.wall_s} | ${mib(r.eous_rss_kib / r.sessions)} | ` +
  `${mib(avg(r.tree_rss_kib))} | ${mib(avg(r.tree_pss_kib))} | ${r.leaks} | ${r.orphaned_processes} | ${r.exit_code} | ${r.errors} |`;
const cpuRow = (r) => `| ${r.sessions} | ${r.eous_cpu_ms_per_action} | ${r.browser_cpu_ms_per_action} | ` +
  `${r.browser_cpu_ms_per_action_after_start} | ${r.server_cpu_ms_per_action} (${r.server_cpu_ms_per_action_after_start}) | ${r.harness_cpu_ms_per_action} | ${r.server_cores_busy} | ${r.machine_cores_busy} | ` +
  `${r.others_cores_busy} | ${r.load_start.join(', ')} | ${r.load_end.join(', ')} |`;
const kindRow = (k) => `| ${k} | ${one.kinds[k].p50_ms} | ${one.kinds[k].eous_cpu_ms ?? '–'} | ${one.kinds[k].browser_cpu_ms ?? '–'} | ` +
  `${Object.entries(one.kinds[k].browser_cpu_ms_by_process || {}).map(([p, v]) => `${p} ${v}`).join(', ')} | ` +
  `${many.kinds[k].p50_ms} | ${r1(many.kinds[k].p50_ms / (one.kinds[k].p50_ms || 1))}× |`;
const md = `## \`eous mcp --port\` under load (\`benchmarks/perf/mcp_load.sh\`)

Commit ${json.commit}, ${json.date.slice(0, 16).replace('T', ' ')} UTC, ${cores} cores${EXTRA.length ? `, \`eous mcp ${EXTRA.join(' ')}\`` : ''}.
${json.what}. Each session is its own browser (chromedriver + Chromium).
The load average (1, 5, 15 min) and the CPU other processes used are in the CPU table: they say how
busy the machine was besides this benchmark (other processes' busy cores: ${one.others_cores_busy} during the 1-session run,
${many.others_cores_busy} during the ${SESSIONS}-session run${Math.max(one.others_cores_busy, many.others_cores_busy) > 0.2 ?
  '; above about 0.2 the wall times, and so the ratios, are the load\'s as much as eous\'s: re-measure on an idle machine' : ''}).

| sessions | actions | p50 ms | p95 ms | mean ms | p50 range over sessions | wall s | eous RSS MiB / session | browser tree RSS MiB / session | browser tree PSS MiB / session | leaks | orphaned processes | exit | failed actions |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${row(one)}
${row(many)}

- p50 per action, ${SESSIONS} sessions vs 1: **${json.p50_ratio}×** (goal ≤ ${json.goal_p50_ratio}×).
- **CPU floors** (eous + browsers, each browser's start left out): ${SESSIONS} sessions took ${many.server_cpu_ms_per_action_after_start} ms
  of CPU per action (${floor.cpu_scale_n_vs_1}× what an action took alone). Throughput: on ${cores} cores the mean action
  cannot take less than ${SESSIONS} × ${many.server_cpu_ms_per_action_after_start} / ${cores} = **${floor.mean_ms} ms**, ${floor.mean_ratio}× one
  session's mean (${floor.mean_with_harness_ms} ms with the benchmark's site server and SDK clients, ${many.harness_cpu_ms_per_action} ms
  per action, on the same cores). Median, estimated: with the cores shared fairly, an action needing c of CPU takes
  at least about c × ${SESSIONS} / ${cores}; over the actions run that puts the p50 at **${floor.p50_ms} ms or more,
  ${floor.p50_ratio}×** one session's p50. The goal's ${json.goal_p50_ratio}× needs the median action to take at most
  **${budgetMs} ms** of CPU (1.5 × ${one.p50_ms} × ${cores} / ${SESSIONS}); per kind it takes ${KINDS.map((k) => `${k} ${r1(kindCpu(k))}`).join(', ')} ms alone.
- **The page alone**: loading /settings with plain WebDriver navigations and no eous (the same Chromium switches)
  takes ${page.cpu_ms_per_navigation} ms of CPU per navigation (${Object.entries(page.by_process).map(([k, v]) => `${k} ${v}`).join(', ')};
  ${page.wall_ms_per_navigation} ms wall each): **${pageShare}%** of the CPU a cycle of ${KINDS.length} actions took with ${SESSIONS} sessions
  is the page's own load, which no change to eous removes.

CPU per action (utime + stime from /proc; a browser tree is its chromedriver's process group, exited
children included through their reaper; a browser's start counts):

| sessions | eous ms | browser ms | browser ms after its start | eous + browser ms (after start) | site + clients ms | eous + browser cores busy | machine cores busy | others' cores busy | load average at start | at end |
|---|---|---|---|---|---|---|---|---|---|---|
${cpuRow(one)}
${cpuRow(many)}

Browser CPU by process (all sessions' trees, from each browser's start; seconds):
${[one, many].map((r) => `${r.sessions} session(s): ` + Object.entries(r.cpu.browser_by_process_s).map(([k, v]) => `${k} ${v}`).join(', ')).join('; ')}.

Per kind of action (CPU read before and after each call of the 1-session run, its first call, which
starts the browser, left out; what a page does after an answer falls to the next call):

| action | 1 session p50 ms | eous CPU ms | browser CPU ms | of which by process | ${SESSIONS} sessions p50 ms | ratio |
|---|---|---|---|---|---|---|
${KINDS.map(kindRow).join('\n')}

- RSS counts shared pages once per process (Chromium's processes share much); PSS divides them, so it is the fairer
  per-session cost. eous's own RSS is one process for all sessions, divided by the sessions.
- Leaks: each session typed its own marker into 'Project name' and saw it in its own results
  (${many.sessions_missing_own_marker} sessions did not); a leak is another session's marker in a session's results.
- Orphans: processes left in any session's driver process group after SIGTERM (eous exited ${many.exit_code}).
- Failed actions (timed, counted, not retried; the session starts its cycle again from navigate):
  ${[...one.error_samples, ...many.error_samples].map((e) => `\`${e}\``).join('; ') || 'none'}.
`;
writeFileSync(`${OUT}.md`, md);
process.stdout.write(md);

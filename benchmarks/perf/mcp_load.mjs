// benchmarks/perf/mcp_load.mjs — `eous mcp --port` under load: N concurrent
// sessions (MCP TypeScript SDK clients over Streamable HTTP) each running the
// same ACTIONS actions on the Playground, against one session alone.
// Measures per action (client wall time of tools/call) p50/p95 ms, RSS (and
// PSS) per session of the eous process and of each session's chromedriver +
// Chromium process group, cross-session leaks (each session types its own
// marker into 'Project name'; no other session's results may contain it, and
// its own must), and orphaned browsers after SIGTERM (processes left in any
// session's driver process group).  Writes OUT_PREFIX.{md,json}.
//   node mcp_load.mjs [--sessions 8] [--actions 50] [--out benchmarks/results/mcp_load]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SESSIONS = Number(arg('sessions', 8));
const ACTIONS = Number(arg('actions', 50));
const OUT = resolve(arg('out', join(root, 'benchmarks/results/mcp_load')));
const EOUS = resolve(process.env.EOUS || join(root, 'build/eous'));
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
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
const r1 = (x) => Math.round(x * 10) / 10;

function startSite() {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [join(root, 'benchmarks/site/serve.mjs'), '--port', '0', '--root',
      join(root, 'benchmarks/site/dist')], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.once('error', fail);
    p.stdout.once('data', (d) => ok({ p, url: String(d).trim() }));
  });
}

// One session's ACTIONS actions: navigate, set 'Project name' to its marker, snapshot, switch a tab,
// call a page WebMCP tool; again and again.
async function runSession(url, site, marker, times, results, errors) {
  const c = new Client({ name: 'mcp-load', version: '1' });
  const t = new StreamableHTTPClientTransport(new URL(url));
  await c.connect(t);
  const call = async (name, args) => {
    const t0 = performance.now();
    const r = await c.callTool({ name, arguments: args }, undefined, LONG);
    times.push(performance.now() - t0);
    results.push(JSON.stringify(r));
    if (r.isError) throw new Error(`${name}: ${r.content[0].text.split('\n')[0].slice(0, 200)}`);
    return r;
  };
  const text = (r) => r.content.filter((x) => x.type === 'text').map((x) => x.text).join('\n');
  let done = 0;
  while (done < ACTIONS) {
    const steps = [
      async () => call('browser_navigate', { url: `${site}/settings` }),
      async (v) => call('browser_call', { component: text(v).match(/\[(c\d+)\] input 'Project name'/)[1],
        tool: 'setValue', params: { text: marker } }),
      async () => call('browser_snapshot', {}),
      async (v) => call('browser_call', { component: v.structuredContent.components.find((x) => x.kind === 'tabs').id,
        tool: 'setTab', params: { key: 'members' } }),
      async () => call('browser_webmcp_call', { name: 'search_orders', arguments: { status: 'paid' } }),
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
  const srv = spawn(EOUS, ['mcp', '--port', '0', '--max-sessions', String(Math.max(16, n))], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, EOUS_LOG: 'info' } });
  let out = '', err = '';
  srv.stdout.on('data', (d) => { out += d; });
  srv.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((r) => srv.once('exit', (code, sig) => r(code ?? sig)));
  if (!(await until(() => out.includes('\n'), 60000))) throw new Error(`no URL: ${err}`);
  const url = out.trim();
  const markers = Array.from({ length: n }, (_, i) => `probe${i}x${Math.random().toString(36).slice(2, 10)}`);
  const times = markers.map(() => []), results = markers.map(() => []), errors = [];
  const stopAll = () => { if (srv.exitCode === null) srv.kill('SIGTERM'); site.p.kill('SIGTERM'); };
  process.once('exit', stopAll); // a crash here must not leave the server and its browsers behind
  const t0 = performance.now();
  const clients = await Promise.all(markers.map((m, i) => runSession(url, site.url, m, times[i], results[i], errors)));
  const wall = performance.now() - t0;
  // memory while every session's browser is still open
  const drivers = [...err.matchAll(/session (\w+): browser started \(chromedriver pid (\d+)\)/g)].map((x) => Number(x[2]));
  const trees = drivers.map((pid) => groupPids(pid));
  const mem = {
    eous_rss_kib: kib(srv.pid, 'VmRSS'), eous_pss_kib: kib(srv.pid, 'Pss'),
    tree_rss_kib: trees.map((ps) => ps.reduce((s, p) => s + kib(p, 'VmRSS'), 0)),
    tree_pss_kib: trees.map((ps) => ps.reduce((s, p) => s + kib(p, 'Pss'), 0)),
    tree_processes: trees.map((ps) => ps.length),
  };
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
    const all = results[i].join('\n');
    if (!all.includes(markers[i])) ownMissing++;
    for (let j = 0; j < n; j++) if (j !== i && all.includes(markers[j])) leaks++;
  }
  const flat = times.flat();
  return {
    sessions: n, actions_per_session: ACTIONS, actions: flat.length, wall_s: r1(wall / 1000), exit_code: code,
    p50_ms: r1(pct(flat, 50)), p95_ms: r1(pct(flat, 95)), mean_ms: r1(flat.reduce((s, x) => s + x, 0) / flat.length),
    session_p50_ms: times.map((ts) => r1(pct(ts, 50))), browsers: drivers.length, ...mem,
    leaks, sessions_missing_own_marker: ownMissing, orphaned_processes: orphans,
    errors: errors.length, error_samples: [...new Set(errors)].slice(0, 5),
  };
}

const one = await run(1);
process.stderr.write(`mcp_load: 1 session: p50 ${one.p50_ms} ms, p95 ${one.p95_ms} ms\n`);
const many = await run(SESSIONS);
process.stderr.write(`mcp_load: ${SESSIONS} sessions: p50 ${many.p50_ms} ms, p95 ${many.p95_ms} ms\n`);

const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD']).toString().trim();
const mib = (k) => r1(k / 1024);
const avg = (xs) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const json = {
  benchmark: 'mcp_load', commit, date: new Date().toISOString(), cpus: cpus().length,
  what: `${SESSIONS} concurrent MCP sessions over Streamable HTTP vs 1, ${ACTIONS} actions each on the Playground ` +
    '(navigate /settings, browser_call setValue of Project name, browser_snapshot, browser_call setTab, ' +
    'browser_webmcp_call search_orders, repeated); per action: the SDK client\'s wall time of tools/call',
  one, many, p50_ratio: Math.round((many.p50_ms / one.p50_ms) * 100) / 100, goal_p50_ratio: 1.5,
};
writeFileSync(`${OUT}.json`, JSON.stringify(json, null, 1) + '\n');
const row = (r) => `| ${r.sessions} | ${r.actions} | ${r.p50_ms} | ${r.p95_ms} | ${r.mean_ms} | ` +
  `${Math.min(...r.session_p50_ms)}–${Math.max(...r.session_p50_ms)} | ${r.wall_s} | ${mib(r.eous_rss_kib / r.sessions)} | ` +
  `${mib(avg(r.tree_rss_kib))} | ${mib(avg(r.tree_pss_kib))} | ${r.leaks} | ${r.orphaned_processes} | ${r.exit_code} | ${r.errors} |`;
const md = `## \`eous mcp --port\` under load (\`benchmarks/perf/mcp_load.sh\`)

Commit ${commit}, ${json.date.slice(0, 10)}, ${json.cpus} cores shared with other work (figures are what this
machine gave then, not a quiet machine's). ${json.what}. Each session is its own browser (chromedriver + Chromium).

| sessions | actions | p50 ms | p95 ms | mean ms | p50 range over sessions | wall s | eous RSS MiB / session | browser tree RSS MiB / session | browser tree PSS MiB / session | leaks | orphaned processes | exit | failed actions |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${row(one)}
${row(many)}

- p50 per action, ${SESSIONS} sessions vs 1: **${json.p50_ratio}×** (goal ≤ ${json.goal_p50_ratio}×).
- RSS counts shared pages once per process (Chromium's processes share much); PSS divides them, so it is the fairer
  per-session cost. eous's own RSS is one process for all sessions, divided by the sessions.
- Leaks: each session typed its own marker into 'Project name' and saw it in its own results
  (${many.sessions_missing_own_marker} sessions did not); a leak is another session's marker in a session's results.
- Orphans: processes left in any session's driver process group after SIGTERM (eous exited ${many.exit_code}).
- Failed actions (timed, counted, not retried; the session starts its cycle again from navigate):
  ${[...one.error_samples, ...many.error_samples].map((e) => `\`${e}\``).join('; ') || 'none'}.
- The machine's load average when it ended: ${loadavg().map((x) => r1(x)).join(', ')} (other work shares its ${json.cpus} cores).
`;
writeFileSync(`${OUT}.md`, md);
process.stdout.write(md);

// tests/mcp/mcp_http.test.mjs — `eous mcp --port 0` (Streamable HTTP) driven
// by the official MCP TypeScript SDK client (StreamableHTTPClientTransport)
// and by raw HTTP requests, against real Chromium on a loopback fixture page.
// Every server is started on a free loopback port and stopped by its PID.
// Run: EOUS_CLI=build/eous node --test tests/mcp/   (ctest does this)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EOUS, LONG, root, sdkUrl, serve, stopServers, text, track } from './support.mjs';

const { Client } = await import(sdkUrl('client/index.js'));
const { StreamableHTTPClientTransport } = await import(sdkUrl('client/streamableHttp.js'));
const { ElicitRequestSchema, LoggingMessageNotificationSchema } = await import(sdkUrl('types.js'));

const SECRET = 'http-S3cret-Value-5521';
let fixture;

function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie has exited
  } catch { return false; }
}
function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}
const gone = (pid) => !alive(pid) && !groupAlive(pid);

// The browser profile directories of the processes in a driver's process group.
function profileDirs(pgid) {
  const dirs = new Set();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      for (const arg of readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
        if (arg.startsWith('--user-data-dir=')) dirs.add(arg.slice(16));
    } catch { /* gone meanwhile */ }
  }
  return [...dirs];
}

async function until(cond, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

// `eous mcp --port 0 ARGS`: resolves once it printed the URL it bound.
async function startServer(args = [], env = {}) {
  const p = spawn(EOUS, ['mcp', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, EOUS_LOG: 'info', EOUS_SECRET_HTTP_TEST: SECRET, ...env },
  });
  track(p);
  let out = '', err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((r) => p.once('exit', (code, sig) => r(code ?? sig)));
  assert.ok(await until(() => out.includes('\n') || p.exitCode !== null, 60000), `no URL printed: ${err}`);
  const lines = out.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `stdout must be one line, the URL: ${out}`);
  assert.match(lines[0], /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  return {
    p, url: lines[0], exited, stdout: () => out, stderr: () => err,
    // chromedriver PIDs by session (the first 8 characters of its id), from the log
    drivers: () => [...err.matchAll(/session (\w+): browser started \(chromedriver pid (\d+)\)/g)]
      .map((m) => ({ session: m[1], pid: Number(m[2]) })),
    async stop() { if (p.exitCode === null) p.kill('SIGTERM'); return exited; },
  };
}

// One raw HTTP exchange (node:http, so Host can be set); the body is parsed when it is JSON.
function request(url, { method = 'POST', body, headers = {}, chunked = false, agent } = {}) {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method, agent, // agent false: a new connection
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      let d = '';
      res.on('data', (c) => { d += c; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(d); } catch { /* SSE or empty */ }
        ok({ status: res.statusCode, headers: res.headers, body: d, json });
      });
    });
    req.on('error', fail);
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    if (text !== undefined && chunked) {
      for (let i = 0; i < text.length; i += 1000) req.write(text.slice(i, i + 1000));
      req.end();
    } else {
      if (text !== undefined) req.setHeader('content-length', Buffer.byteLength(text));
      req.end(text);
    }
  });
}

const INIT = (id = 1) => ({ jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });

async function rawSession(url, headers = {}) {
  const r = await request(url, { body: INIT(), headers });
  assert.equal(r.status, 200, r.body);
  const sid = r.headers['mcp-session-id'];
  assert.match(sid, /^[0-9a-f]{32}$/);
  const n = await request(url, { body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25', ...headers } });
  assert.equal(n.status, 202);
  return sid;
}

const idOf = (view, re) => {
  const m = view.match(re);
  assert.ok(m, `${re} not in the view:\n${view}`);
  return m[1] ?? m[2];
};
// a form field in the hybrid view: its atomic line, or the native provider's triplet ([c7] textbox 'Full name')
const fieldRe = (label) => new RegExp(`(?:textbox \\[(\\d+)\\]|\\[(c\\d+)\\] textbox) '${label}'`);

async function sdkClient(url, capabilities = {}) {
  const t = new StreamableHTTPClientTransport(new URL(url));
  const c = new Client({ name: 'eous-http-test', version: '1.0.0' }, { capabilities });
  return { c, t };
}

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  fixture = await serve(join(root, 'tests/fixtures/actions'));
});

after(stopServers); // fixture servers and eous servers, by PID

test('SDK client over HTTP: two sessions, each its own browser; a value typed in one is not in the other; confirmation through elicitation', { timeout: 1500000 }, async () => {
  const srv = await startServer();
  const a = await sdkClient(srv.url, { elicitation: {} });
  const b = await sdkClient(srv.url);
  const asked = [];
  a.c.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  const logs = [];
  a.c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => { logs.push(n.params); });
  const results = [];
  const call = async (who, name, args = {}) => {
    const r = await who.c.callTool({ name, arguments: args }, undefined, LONG);
    results.push(JSON.stringify(r));
    return r;
  };
  try {
    await a.c.connect(a.t);
    await b.c.connect(b.t);
    assert.equal(a.c.getServerVersion().name, 'eous');
    assert.ok(a.c.getServerCapabilities().logging, 'logging capability not declared');
    assert.ok(a.t.sessionId && b.t.sessionId && a.t.sessionId !== b.t.sessionId, 'each client its own session');
    await a.c.setLoggingLevel('info');
    const names = (await a.c.listTools(undefined, LONG)).tools.map((x) => x.name);
    for (const n of ['browser_navigate', 'browser_snapshot', 'browser_type', 'browser_click', 'browser_call'])
      assert.ok(names.includes(n), `${n} missing from tools/list`);

    let r = await call(a, 'browser_navigate', { url: `${fixture}/index.html` });
    assert.equal(r.isError, false, text(r));
    assert.ok(logs.some((l) => l.data === 'browser started'), 'no notifications/message after logging/setLevel');
    const name = idOf(text(r), fieldRe('Full name'));
    const tax = idOf(text(r), fieldRe('Tax ID'));
    r = await call(a, 'browser_type', { ref: name, text: 'Ada Lovelace' });
    assert.equal(r.isError, false, text(r));
    r = await call(a, 'browser_type', { ref: tax, text: '{{secret:HTTP_TEST}}' }); // typed, never shown
    assert.equal(r.isError, false, text(r));
    const snapA = await call(a, 'browser_snapshot');
    assert.match(text(snapA), /'Full name' value: 'Ada Lovelace'/);
    assert.equal(snapA.structuredContent?.url, `${fixture}/index.html`, 'no structuredContent over HTTP');

    // B's browser is its own: not A's page, tab or typed value, before or after it loads the same page
    let snapB = text(await call(b, 'browser_snapshot'));
    assert.doesNotMatch(snapB, /Ada Lovelace|Actions fixture/, `session B sees session A's page:\n${snapB}`);
    assert.doesNotMatch(text(await call(b, 'browser_tabs', { action: 'list' })), /Actions fixture/);
    r = await call(b, 'browser_navigate', { url: `${fixture}/index.html` });
    assert.equal(r.isError, false, text(r));
    snapB = text(await call(b, 'browser_snapshot'));
    assert.match(snapB, fieldRe('Full name'));
    assert.doesNotMatch(snapB, /Ada Lovelace/, 'a value typed in one session shows in the other');
    assert.match(text(await call(a, 'browser_snapshot')), /'Full name' value: 'Ada Lovelace'/, 'B disturbed A');

    // progress over the call's event stream; a cancelled call stops, and the session serves the next one
    const progB = [];
    const ac = new AbortController();
    let inFlight;
    const started = new Promise((res) => { inFlight = res; });
    const waiting = b.c.callTool({ name: 'browser_wait_for', arguments: { time: 30 } }, undefined,
      { ...LONG, signal: ac.signal, onprogress: (p) => { progB.push(p); inFlight(); } });
    await started;
    assert.match(progB[0].message, /waiting 30/);
    ac.abort('changed my mind'); // the SDK sends notifications/cancelled
    await assert.rejects(waiting);
    assert.equal((await call(b, 'browser_snapshot')).isError, false);
    assert.ok(await until(() => /browser_wait_for cancelled by the client/.test(srv.stderr()), 20000),
      `the cancelled call was not stopped: ${srv.stderr()}`);
    const drivers = srv.drivers();
    assert.equal(drivers.length, 2, `expected one browser per session: ${srv.stderr()}`);
    assert.notEqual(drivers[0].pid, drivers[1].pid);
    assert.notEqual(drivers[0].session, drivers[1].session);

    // a confirmation asks the person through the client while the call streams (SSE)
    const buy = idOf(text(await call(a, 'browser_snapshot')), /button \[(\d+)\] 'Buy credits'/);
    r = await call(a, 'browser_click', { ref: buy });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /clicked/);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /Charges \$20 to your card/);

    // ending a session stops its browser and only its
    const pidA = drivers.find((d) => a.t.sessionId.startsWith(d.session)).pid;
    const pidB = drivers.find((d) => b.t.sessionId.startsWith(d.session)).pid;
    await a.t.terminateSession();
    assert.ok(await until(() => gone(pidA), 30000), 'DELETE left the session\'s browser running');
    assert.ok(alive(pidB), 'ending one session stopped another\'s browser');
    r = await call(b, 'browser_snapshot');
    assert.equal(r.isError, false);
  } finally {
    await a.c.close().catch(() => {});
    await b.c.close().catch(() => {});
  }
  assert.equal(await srv.stop(), 143);
  for (const d of srv.drivers()) assert.ok(gone(d.pid), `browser ${d.pid} outlived the server`);
  for (const s of [...results, srv.stderr(), srv.stdout()])
    assert.ok(!s.includes(SECRET), 'the secret value reached a tool result or the log');
});

test('HTTP: refusals are one-line JSON-RPC errors with the right status', { timeout: 600000 }, async () => {
  const srv = await startServer(['--max-body', '2048', '--allowed-origins', 'https://app.example']);
  const url = srv.url;
  try {
    // DNS rebinding: a foreign Host or Origin is refused before anything runs
    let r = await request(url, { body: INIT(), headers: { host: 'evil.example:80' } });
    assert.equal(r.status, 403);
    assert.match(r.json.error.message, /Host 'evil\.example:80' is not allowed/);
    r = await request(url, { body: INIT(), headers: { origin: 'http://evil.example' } });
    assert.equal(r.status, 403);
    assert.match(r.json.error.message, /Origin 'http:\/\/evil\.example' is not allowed/);
    r = await request(url, { body: INIT(), headers: { origin: 'http://localhost:5173' } });
    assert.equal(r.status, 200, 'a loopback Origin is allowed');
    r = await request(url, { body: INIT(), headers: { origin: 'https://app.example' } });
    assert.equal(r.status, 200, '--allowed-origins is honoured');

    const sid = await rawSession(url);
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    r = await request(url, { body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: h });
    assert.deepEqual([r.status, r.json.id, r.json.result], [200, 2, {}]);
    r = await request(url, { body: { jsonrpc: '2.0', id: 3, method: 'ping' },
      headers: { ...h, 'mcp-session-id': 'f'.repeat(32) } });
    assert.equal(r.status, 404);
    assert.match(r.json.error.message, /Session not found/);
    r = await request(url, { body: { jsonrpc: '2.0', id: 4, method: 'ping' } });
    assert.equal(r.status, 400);
    assert.match(r.json.error.message, /no Mcp-Session-Id/);
    r = await request(url, { body: '{"jsonrpc": "2.0", "id": 5, "method": ', headers: h });
    assert.deepEqual([r.status, r.json.id, r.json.error.code], [400, null, -32700]);
    r = await request(url, { body: [{ jsonrpc: '2.0', id: 6, method: 'ping' }], headers: h });
    assert.deepEqual([r.status, r.json.error.code], [400, -32600]);
    assert.match(r.json.error.message, /batches/);
    r = await request(url, { body: { jsonrpc: '2.0', id: 7, method: 'ping' },
      headers: { ...h, 'mcp-protocol-version': '1999-01-01' } });
    assert.equal(r.status, 400);
    assert.match(r.json.error.message, /MCP-Protocol-Version '1999-01-01' is not supported/);
    r = await request(url, { body: { jsonrpc: '2.0', id: 8, method: 'resources/list' }, headers: h });
    assert.deepEqual([r.status, r.json.error.code], [200, -32601]);
    r = await request(url, { body: { jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'loud' } },
      headers: h });
    assert.equal(r.json.error.code, -32602);
    r = await request(url, { body: { jsonrpc: '2.0', id: 10, method: 'logging/setLevel', params: { level: 'debug' } },
      headers: h });
    assert.deepEqual(r.json.result, {});
    // body over the cap, with a length and chunked
    const big = { jsonrpc: '2.0', id: 11, method: 'ping', params: { pad: 'x'.repeat(8000) } };
    r = await request(url, { body: big, headers: h });
    assert.equal(r.status, 413);
    assert.match(r.json.error.message, /larger than 2048 bytes/);
    r = await request(url, { body: big, headers: h, chunked: true });
    assert.equal(r.status, 413);
    assert.match(r.json.error.message, /larger than 2048 bytes/);
    r = await request(url, { body: { jsonrpc: '2.0', id: 12, method: 'ping' }, headers: { ...h, 'content-type': 'text/plain' } });
    assert.equal(r.status, 415);
    r = await request(url, { body: { jsonrpc: '2.0', id: 13, method: 'ping' }, headers: { ...h, accept: 'application/json' } });
    assert.equal(r.status, 406);
    r = await request(url, { method: 'GET', headers: { ...h, accept: 'text/event-stream' } });
    assert.equal(r.status, 405);
    r = await request(url.replace(/\/mcp$/, '/other'), { body: INIT() });
    assert.equal(r.status, 404);
    // the server still serves after all that
    r = await request(url, { body: { jsonrpc: '2.0', id: 14, method: 'tools/list' }, headers: h });
    assert.ok(r.json.result.tools.length > 10);
    r = await request(url, { method: 'DELETE', headers: h });
    assert.equal(r.status, 200);
    r = await request(url, { body: { jsonrpc: '2.0', id: 15, method: 'ping' }, headers: h });
    assert.equal(r.status, 404, 'a deleted session still answers');
  } finally {
    assert.equal(await srv.stop(), 143);
  }
  assert.doesNotMatch(srv.stderr(), /browser started/, 'refusals started a browser');
});

// A raw connection that sends `head` and then, every interval ms, one more byte of body (nothing when
// drip is false): resolves with what the server sent once it closed the connection.
function slowClient(url, head, drip) {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const sock = net.connect(Number(u.port), u.hostname);
    let got = '';
    let timer = null;
    sock.on('data', (d) => { got += d; });
    sock.on('error', () => {}); // a reset is the server closing too
    sock.on('close', () => { clearInterval(timer); ok(got); });
    sock.on('connect', () => {
      sock.write(head);
      if (drip) timer = setInterval(() => { if (!sock.destroyed) sock.write(' '); }, 300);
    });
    sock.setTimeout(120000, () => { sock.destroy(); fail(new Error('the server never closed a slow connection')); });
  });
}

test('HTTP: slow clients are cut off and others served meanwhile; --require-origin refuses a request without Origin', { timeout: 600000 }, async () => {
  const srv = await startServer(['--request-timeout', '2', '--require-origin']);
  try {
    let r = await request(srv.url, { body: INIT() });
    assert.equal(r.status, 403);
    assert.equal(r.json.error.code, -32000);
    assert.match(r.json.error.message, /no Origin header \(--require-origin/);
    const origin = { origin: 'http://127.0.0.1:5173' };
    const sid = await rawSession(srv.url, origin);
    const h = { ...origin, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const u = new URL(srv.url);
    const head = `POST /mcp HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: http://127.0.0.1\r\n` +
      'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n';
    // a body a byte at a time, and headers that never end: each connection is closed, with nothing served
    const dribbler = slowClient(srv.url, `${head}Content-Length: 4000\r\n\r\n{"jsonrpc": "2.0", `, true);
    const stalled = slowClient(srv.url, head, false);
    r = await request(srv.url, { body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: h });
    assert.deepEqual([r.status, r.json.result], [200, {}], 'a slow client kept another from being served');
    assert.equal(await dribbler, '', 'a dribbled body was answered');
    assert.equal(await stalled, '', 'stalled headers were answered');
    assert.ok(await until(() => /a request body took longer than 2 s to arrive/.test(srv.stderr()), 10000), srv.stderr());
    r = await request(srv.url, { body: { jsonrpc: '2.0', id: 3, method: 'ping' }, headers: h });
    assert.deepEqual([r.status, r.json.result], [200, {}]);
  } finally {
    assert.equal(await srv.stop(), 143);
  }
});

test('HTTP: --token needs the bearer token; --max-sessions refuses one more session with a JSON-RPC error', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-http-'));
  const tokenFile = join(dir, 'token');
  const TOKEN = 'tok-' + 'a1b2c3d4e5f6'.repeat(3);
  writeFileSync(tokenFile, TOKEN + '\n', { mode: 0o600 });
  const srv = await startServer(['--token', tokenFile, '--max-sessions', '1']);
  try {
    let r = await request(srv.url, { body: INIT() });
    assert.equal(r.status, 401);
    assert.equal(r.headers['www-authenticate'], 'Bearer');
    r = await request(srv.url, { body: INIT(), headers: { authorization: `Bearer ${TOKEN}x` } });
    assert.equal(r.status, 401);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const sid = await rawSession(srv.url, auth);
    r = await request(srv.url, { body: INIT(2), headers: auth });
    assert.equal(r.status, 200);
    assert.equal(r.json.id, 2);
    assert.equal(r.json.error.code, -32000);
    assert.match(r.json.error.message, /1 sessions are open, the most --max-sessions allows/);
    assert.equal(r.headers['mcp-session-id'], undefined);
    r = await request(srv.url, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': sid } });
    assert.equal(r.status, 200);
    await rawSession(srv.url, auth); // a slot is free again
  } finally {
    assert.equal(await srv.stop(), 143);
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(!srv.stderr().includes(TOKEN) && !srv.stdout().includes(TOKEN), 'the token reached the log');
});

test('HTTP: an idle session is closed and its browser stopped; SIGTERM with sessions open stops every browser, exit 143', { timeout: 900000 }, async () => {
  const srv = await startServer(['--idle-timeout', '3']);
  const open = async () => {
    const s = await sdkClient(srv.url);
    await s.c.connect(s.t);
    const r = await s.c.callTool({ name: 'browser_navigate', arguments: { url: `${fixture}/index.html` } }, undefined, LONG);
    assert.equal(r.isError, false, text(r));
    return s;
  };
  const idle = await open();
  const idlePid = srv.drivers()[0].pid;
  assert.ok(await until(() => gone(idlePid), 120000), 'an idle session kept its browser');
  const r = await request(srv.url, { body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    headers: { 'mcp-session-id': idle.t.sessionId } });
  assert.equal(r.status, 404, 'an idle-closed session still answers');
  // a call that runs longer than the idle timeout is not cut short, and its session stays
  const busy = await open();
  const w = await busy.c.callTool({ name: 'browser_wait_for', arguments: { time: 5 } }, undefined, LONG);
  assert.equal(w.isError, false, text(w));
  assert.match(text(w), /waited (?:[5-9]|\d\d)\.\d s/, 'the idle timeout cut a running call short');
  assert.equal((await busy.c.callTool({ name: 'browser_snapshot', arguments: {} }, undefined, LONG)).isError, false);

  // now sessions kept busy, and SIGTERM
  const srv2 = await startServer();
  const clients = [];
  for (let i = 0; i < 2; i++) {
    const s = await sdkClient(srv2.url);
    await s.c.connect(s.t);
    const res = await s.c.callTool({ name: 'browser_navigate', arguments: { url: `${fixture}/index.html` } }, undefined, LONG);
    assert.equal(res.isError, false, text(res));
    clients.push(s);
  }
  // one call in flight when the signal comes (its client is left to find out on its own); its first
  // progress notification says the wait is running on the server
  await new Promise((res) => {
    clients[0].c.callTool({ name: 'browser_wait_for', arguments: { time: 30 } }, undefined,
      { ...LONG, onprogress: res }).catch(() => {});
  });
  const pids = srv2.drivers().map((d) => d.pid);
  assert.equal(pids.length, 2);
  assert.ok(pids.every(alive));
  const dirs = pids.flatMap(profileDirs);
  assert.equal(dirs.length, 2, 'each browser has its own profile directory');
  assert.ok(dirs.every(existsSync));
  srv2.p.kill('SIGTERM');
  assert.equal(await srv2.exited, 143);
  for (const pid of pids) assert.ok(await until(() => gone(pid), 20000), `browser ${pid} outlived the server`);
  // stopped, not killed: a killed browser leaves its profile behind
  for (const d of dirs) assert.ok(!existsSync(d), `profile ${d} left behind`);
  for (const s of [idle, busy, ...clients]) await s.c.close().catch(() => {});
  await srv.stop();
});

test('HTTP: a client killed mid-call leaves nothing behind once its session times out', { timeout: 600000 }, async () => {
  const srv = await startServer(['--idle-timeout', '3']);
  const clientCode = `
    const { Client } = await import(${JSON.stringify(sdkUrl('client/index.js'))});
    const { StreamableHTTPClientTransport } = await import(${JSON.stringify(sdkUrl('client/streamableHttp.js'))});
    const t = new StreamableHTTPClientTransport(new URL(${JSON.stringify(srv.url)}));
    const c = new Client({ name: 'vanishing', version: '0' });
    await c.connect(t);
    await c.callTool({ name: 'browser_navigate', arguments: { url: ${JSON.stringify(`${fixture}/index.html`)} } }, undefined, { timeout: 240000 });
    // the first progress notification says the wait is running on the server
    let said = false;
    await c.callTool({ name: 'browser_wait_for', arguments: { time: 30 } }, undefined, { timeout: 240000,
      onprogress: () => { if (!said) { said = true; console.log('waiting'); } } });
    console.log('should not get here');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', clientCode], { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let out = '', err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((r) => child.once('exit', r));
  assert.ok(await until(() => /waiting/.test(out), 240000), `client never got going: ${out} ${err}`);
  const pid = srv.drivers()[0].pid;
  assert.ok(alive(pid));
  child.kill('SIGKILL'); // 'waiting' came from the wait's progress: the call is in flight
  await exited;
  assert.ok(await until(() => gone(pid), 120000), 'the killed client\'s browser outlived its session');
  // the server says so once the browser is stopped: the line can come a moment after the driver is gone
  assert.ok(await until(() => /session \w+: closed/.test(srv.stderr()), 30000), srv.stderr());
  // the server keeps serving others
  const s = await sdkClient(srv.url);
  await s.c.connect(s.t);
  assert.ok((await s.c.listTools()).tools.length > 10);
  await s.c.close();
  assert.equal(await srv.stop(), 143);
  assert.doesNotMatch(out, /should not get here/);
});

// ---- slow and hostile clients; processes left behind ----

// A connection from localAddress (any of 127/8 is loopback) that sends a request line and then one
// header byte every interval ms, never ending its headers. closed: the server closed it (or refused it).
function slowHeaders(url, localAddress, interval) {
  const u = new URL(url);
  const c = { connected: false, closed: false, got: '' };
  c.sock = net.connect({ port: Number(u.port), host: u.hostname, localAddress });
  let timer = null;
  c.sock.on('connect', () => {
    c.connected = true;
    c.sock.write(`POST /mcp HTTP/1.1\r\nHost: ${u.host}\r\nX-Slow: `);
    timer = setInterval(() => { if (!c.sock.destroyed) c.sock.write('a'); }, interval);
  });
  c.sock.on('data', (d) => { c.got += d; });
  c.sock.on('error', () => {}); // a reset is the server closing too
  c.sock.on('close', () => { clearInterval(timer); c.closed = true; });
  return c;
}

// the deadline's timer cleared once the promise settles: a pending one kept the test file's process alive
// to its end (60 s past the header-timeout test, half a minute of every CI run)
const within = (promise, ms, what) => {
  let timer;
  const deadline = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: nothing within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
};

test('HTTP: 260 slow-header clients from four other addresses: an authorised ping is answered; past --max-client-connections an address is closed at once', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-http-'));
  const tokenFile = join(dir, 'token');
  const TOKEN = 'tok-slow-' + 'f00dfeed'.repeat(4);
  writeFileSync(tokenFile, TOKEN + '\n', { mode: 0o600 });
  // a header deadline far beyond the test: only the per-address cap can free the slots
  const srv = await startServer(['--token', tokenFile, '--header-timeout', '600']);
  const slow = [];
  try {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const sid = await rawSession(srv.url, auth);
    for (let i = 0; i < 260; i++) slow.push(slowHeaders(srv.url, `127.0.0.${2 + (i % 4)}`, 1000));
    assert.ok(await until(() => slow.every((c) => c.connected || c.closed), 60000), 'the slow clients never connected');
    // without the cap they hold every one of the 256 slots, and a new connection is refused
    const r = await within(request(srv.url, { agent: false, body: { jsonrpc: '2.0', id: 7, method: 'ping' },
      headers: { ...auth, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } }), 10000, 'ping');
    assert.deepEqual([r.status, r.json.result], [200, {}], 'the slow clients kept an authorised ping from an answer');
    // 4 addresses x 32 held, the other 132 closed at once
    const cap = 32;
    assert.ok(await until(() => slow.filter((c) => c.closed).length >= 260 - 4 * cap, 30000),
      `${slow.filter((c) => c.closed).length} of 260 slow clients closed; expected at least ${260 - 4 * cap}`);
    assert.ok(slow.every((c) => c.got === ''), 'a slow client got an answer');
    for (let a = 2; a <= 5; a++) {
      const held = slow.filter((c) => !c.closed && c.sock.localAddress === `127.0.0.${a}`).length;
      assert.ok(held <= cap, `127.0.0.${a} holds ${held} connections, more than ${cap}`);
    }
    // libmicrohttpd says a line per refused connection: at most 20 in 10 s reach the log
    const lines = srv.stderr().split('\n').filter((l) => / mcp: http: /.test(l));
    assert.ok(lines.length <= 25, `${lines.length} log lines for the slow clients:\n${lines.slice(0, 5).join('\n')}`);
  } finally {
    for (const c of slow) c.sock.destroy();
    assert.equal(await srv.stop(), 143);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('HTTP: --header-timeout closes a client that trickles its headers a byte at a time', { timeout: 600000 }, async () => {
  const srv = await startServer(['--header-timeout', '2']);
  try {
    // a byte every 300 ms: libmicrohttpd's idle timeout (--request-timeout, 60 s) never fires
    const c = slowHeaders(srv.url, '127.0.0.2', 300);
    await within(new Promise((ok) => { const t = setInterval(() => { if (c.closed) { clearInterval(t); ok(); } }, 100); }),
      60000, 'the server closing a client that trickles its headers');
    assert.equal(c.got, '', 'the trickled headers were answered');
    assert.ok(await until(() => /1 connection\(s\) closed: headers not whole within 2 s of connecting/.test(srv.stderr()),
      10000), srv.stderr());
    const r = await request(srv.url, { body: INIT() });
    assert.equal(r.status, 200, 'the server stopped serving after closing a slow client');
  } finally {
    assert.equal(await srv.stop(), 143);
  }
});

// The children of pid, from /proc: [{pid, state, comm}].
function children(ppid) {
  const out = [];
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === ppid) out.push({ pid: Number(d), state: f[0], comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
    } catch { /* gone meanwhile */ }
  }
  return out;
}

// six sessions: a session that leaves one <defunct> child fails it; each more only costs a browser start
const SESSIONS = 6;
test(`HTTP: ${SESSIONS} sessions opened and ended leave the server no <defunct> children`, { timeout: 1500000 }, async () => {
  const srv = await startServer();
  try {
    let helpersSeen = 0; // children besides chromedriver (Chromium's crashpad handlers, reparented here)
    for (let i = 0; i < SESSIONS; i++) {
      const sid = await rawSession(srv.url);
      const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
      const r = await request(srv.url, { body: { jsonrpc: '2.0', id: 2, method: 'tools/call',
        params: { name: 'browser_navigate', arguments: { url: `${fixture}/index.html` } } }, headers: h });
      assert.equal(r.status, 200, r.body);
      assert.match(r.body, /"isError":false/, r.body);
      helpersSeen += children(srv.p.pid).filter((c) => c.comm !== 'chromedriver' && c.state !== 'Z').length;
      assert.equal((await request(srv.url, { method: 'DELETE', headers: h })).status, 200);
    }
    const pids = srv.drivers().map((d) => d.pid);
    assert.equal(pids.length, SESSIONS);
    for (const pid of pids) assert.ok(await until(() => gone(pid), 60000), `browser ${pid} outlived its session`);
    const defunct = () => children(srv.p.pid).filter((c) => c.state === 'Z');
    await until(() => defunct().length === 0, 10000);
    assert.deepEqual(defunct(), [], `<defunct> children of the server (${helpersSeen} helpers seen while sessions ran)`);
  } finally {
    assert.equal(await srv.stop(), 143);
  }
});

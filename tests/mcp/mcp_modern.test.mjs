// tests/mcp/mcp_modern.test.mjs — MCP 2026-07-28 beside the older versions:
// requests without initialize carry their version, capabilities and client in
// _meta, server/discover answers, no session is made; over stdio and over
// Streamable HTTP (raw JSON-RPC: the SDK does not speak 2026-07-28 yet),
// against real Chromium on a loopback fixture page.  Servers stopped by PID.
// Run: EOUS_CLI=build/eous node --test tests/mcp/   (ctest does this)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_SERVER } from './support.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EOUS = resolve(process.env.EOUS_CLI || join(root, 'build/eous'));
const V = '2026-07-28';
const helpers = [];
let fixture;

const meta = (extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern-test', version: '0' },
  ...extra,
});
const req = (id, method, params = {}, m = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(m) } });

function alive(pid) {
  try { return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
}
function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}
const gone = (pid) => !alive(pid) && !groupAlive(pid);
async function until(cond, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  fixture = await new Promise((ok, fail) => {
    const p = spawn(process.execPath, [PAGE_SERVER, '--port', '0', '--root',
      join(root, 'tests/fixtures/actions')], { stdio: ['ignore', 'pipe', 'inherit'] });
    helpers.push(p);
    p.once('error', fail);
    p.stdout.once('data', (d) => ok(String(d).trim()));
  });
});
after(() => { for (const p of helpers) if (p.exitCode === null) p.kill('SIGTERM'); });

test('stdio: 2026-07-28 requests without initialize; discover, unsupported version, per-request log level', { timeout: 600000 }, async () => {
  const p = spawn(EOUS, ['mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, EOUS_LOG: 'info' } });
  helpers.push(p);
  let buf = '', stderr = '';
  const msgs = [];
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { msgs.push(JSON.parse(buf.slice(0, i))); buf = buf.slice(i + 1); }
  });
  p.stderr.on('data', (d) => { stderr += d; });
  const send = (o) => p.stdin.write(JSON.stringify(o) + '\n');
  const answer = async (id) => {
    assert.ok(await until(() => msgs.some((m) => m.id === id), 300000), `no answer to ${id}: ${stderr}`);
    return msgs.find((m) => m.id === id);
  };

  send(req(1, 'server/discover'));
  let m = await answer(1);
  assert.deepEqual(m.result.supportedVersions, [V]);
  assert.equal(m.result.resultType, 'complete');
  assert.equal(m.result._meta['io.modelcontextprotocol/serverInfo'].name, 'eous');
  assert.ok(m.result.capabilities.tools, 'no tools capability');

  send({ ...req(2, 'ping'), params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } } });
  m = await answer(2);
  assert.equal(m.error.code, -32022);
  assert.deepEqual(m.error.data, { supported: [V], requested: '1900-01-01' });
  send({ jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': V } } });
  assert.match((await answer(3)).error.message, /clientCapabilities is required/);
  send(req(4, 'logging/setLevel', { level: 'debug' }));
  assert.equal((await answer(4)).error.code, -32601, 'logging/setLevel is gone in 2026-07-28 (logLevel in _meta)');

  // a tool call with logLevel in its _meta hears the browser start; tools/list is not to be cached
  send(req(5, 'tools/call', { name: 'browser_navigate', arguments: { url: `${fixture}/index.html` } },
    { 'io.modelcontextprotocol/logLevel': 'info' }));
  m = await answer(5);
  assert.equal(m.result.isError, false, JSON.stringify(m));
  assert.equal(m.result.resultType, 'complete');
  assert.ok(msgs.some((x) => x.method === 'notifications/message' && x.params.data === 'browser started'),
    'no notifications/message for a request that set logLevel');
  assert.ok(!msgs.some((x) => x.method === 'notifications/tools/list_changed'), '2026-07-28 has no unsolicited notifications');
  send(req(6, 'tools/list'));
  m = await answer(6);
  assert.equal(m.result.ttlMs, 0);
  assert.ok(m.result.tools.find((t) => t.name === 'browser_snapshot').outputSchema);
  send(req(7, 'tools/call', { name: 'browser_snapshot', arguments: {} }));
  m = await answer(7);
  assert.match(m.result.structuredContent.url, /index\.html$/);
  const logs = msgs.filter((x) => x.method === 'notifications/message').length;
  send(req(8, 'tools/call', { name: 'browser_close', arguments: {} }));
  await answer(8);
  assert.equal(msgs.filter((x) => x.method === 'notifications/message').length, logs,
    'a request without logLevel got log messages');
  const driverPid = Number(stderr.match(/chromedriver pid (\d+)/)[1]);
  p.stdin.end();
  assert.equal(await new Promise((r) => p.once('exit', r)), 0);
  // killed members wait for init to reap them (zombies still answer kill -0): give it time under load
  assert.ok(await until(() => gone(driverPid), 20000), 'the driver outlived the server');
});

// One POST; resolves with status, headers and the body (JSON, or SSE events as they come).
function post(url, body, headers = {}, { onEvent, signal } = {}) {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const r = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', signal, headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let d = '';
      const events = [];
      res.on('data', (c) => {
        d += c;
        let i;
        while ((i = d.indexOf('\n\n')) >= 0) {
          const block = d.slice(0, i);
          d = d.slice(i + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data) { const e = JSON.parse(data); events.push(e); onEvent?.(e); }
        }
      });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(d); } catch { /* SSE */ }
        ok({ status: res.statusCode, headers: res.headers, json: json ?? events.at(-1), events });
      });
      res.on('error', fail);
    });
    r.on('error', fail);
    r.end(JSON.stringify(body));
  });
}
const hdr = (method, name) => ({ 'mcp-protocol-version': V, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });

test('HTTP: 2026-07-28 beside 2025-11-25 sessions; header checks; closing a call\'s stream cancels it', { timeout: 900000 }, async () => {
  const p = spawn(EOUS, ['mcp', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, EOUS_LOG: 'info' } });
  helpers.push(p);
  let out = '', err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((r) => p.once('exit', (code, sig) => r(code ?? sig)));
  assert.ok(await until(() => out.includes('\n'), 60000), `no URL: ${err}`);
  const url = out.trim();
  try {
    let r = await post(url, req(1, 'server/discover'), hdr('server/discover'));
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.result.supportedVersions, [V]);
    assert.equal(r.headers['mcp-session-id'], undefined, '2026-07-28 has no sessions');

    // the headers must repeat the body
    r = await post(url, req(2, 'ping'), { 'mcp-protocol-version': V });
    assert.deepEqual([r.status, r.json.error.code], [400, -32020]);
    assert.match(r.json.error.message, /Mcp-Method header '\(missing\)'/);
    r = await post(url, req(3, 'ping'), { ...hdr('ping'), 'mcp-protocol-version': '2025-11-25' });
    assert.deepEqual([r.status, r.json.error.code], [400, -32020]);
    r = await post(url, req(4, 'tools/call', { name: 'browser_snapshot', arguments: {} }), hdr('tools/call', 'browser_tabs'));
    assert.deepEqual([r.status, r.json.error.code], [400, -32020]);
    assert.match(r.json.error.message, /Mcp-Name header 'browser_tabs' does not match the tool name 'browser_snapshot'/);
    const old = { ...req(5, 'ping'), params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } } };
    r = await post(url, old, { ...hdr('ping'), 'mcp-protocol-version': '1900-01-01' });
    assert.deepEqual([r.status, r.json.error.code, r.json.error.data.requested], [400, -32022, '1900-01-01']);
    r = await post(url, req(6, 'resources/list'), hdr('resources/list'));
    assert.deepEqual([r.status, r.json.error.code], [404, -32601]);

    // a tool call; Mcp-Name in its base64 form names the same tool
    r = await post(url, req(7, 'tools/call', { name: 'browser_navigate', arguments: { url: `${fixture}/index.html` } }),
      hdr('tools/call', 'browser_navigate'));
    assert.equal(r.status, 200);
    assert.equal(r.json.result.isError, false, JSON.stringify(r.json));
    assert.equal(r.json.result.resultType, 'complete');
    const b64 = `=?base64?${Buffer.from('browser_snapshot').toString('base64')}?=`;
    r = await post(url, req(8, 'tools/call', { name: 'browser_snapshot', arguments: {} }), hdr('tools/call', b64));
    assert.match(r.json.result.structuredContent.url, /index\.html$/, JSON.stringify(r.json).slice(0, 300));

    // an older client's session on the same server keeps working, with its own browser
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '0' } } };
    r = await post(url, init);
    assert.equal(r.json.result.protocolVersion, '2025-11-25');
    const sid = r.headers['mcp-session-id'];
    assert.match(sid, /^[0-9a-f]{32}$/);
    r = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_snapshot', arguments: {} } },
      { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
    assert.equal(r.json.result.isError, false);
    assert.doesNotMatch(r.json.result.content[0].text, /Full name/, 'the session shares the 2026-07-28 browser');
    assert.equal(r.json.result.resultType, undefined, 'a 2025-11-25 result carries resultType');

    // closing a call's stream is its cancellation: the wait stops and the next call is served
    const ac = new AbortController();
    const waiting = post(url, req(9, 'tools/call', { name: 'browser_wait_for', arguments: { time: 30 } },
      { progressToken: 'p9' }), hdr('tools/call', 'browser_wait_for'),
    { signal: ac.signal, onEvent: (e) => { if (e.method === 'notifications/progress') ac.abort(); } });
    await assert.rejects(waiting);
    assert.ok(await until(() => /browser_wait_for cancelled by the client/.test(err), 20000),
      `closing the stream did not cancel the call: ${err}`);
    r = await post(url, req(10, 'tools/call', { name: 'browser_snapshot', arguments: {} }), hdr('tools/call', 'browser_snapshot'));
    assert.equal(r.json.result.isError, false);
  } finally {
    if (p.exitCode === null) p.kill('SIGTERM');
  }
  assert.equal(await exited, 143);
  const pids = [...err.matchAll(/: browser started \(chromedriver pid (\d+)\)/g)].map((x) => Number(x[1]));
  assert.equal(pids.length, 2, `expected the 2026-07-28 browser and the session's: ${err}`);
  for (const pid of pids) assert.ok(await until(() => gone(pid), 20000), `browser ${pid} outlived the server`);
});

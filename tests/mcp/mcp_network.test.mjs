// tests/mcp/mcp_network.test.mjs — eous mcp --caps network (mcp/mcp_network.c): browser_route,
// browser_route_list, browser_unroute and browser_network_state_set with Playwright MCP's names
// and arguments, driven by the official MCP SDK client over stdio against real Chromium and a
// loopback server of this test's own (tests/fixtures/mcp_network/index.html, /api/users.json,
// /ads/banner.json, /api/echo answering the headers it got), which counts what reached it.
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_network.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EOUS, root, session as mcpSession, text } from './support.mjs';

const SECRET = 'net-S3cret-Token-5521';
const page = readFileSync(join(root, 'tests/fixtures/mcp_network/index.html'));
const hits = {}; // path -> requests that reached the server
let server, base;

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  server = http.createServer((req, res) => {
    const path = req.url.split('?')[0];
    hits[path] = (hits[path] || 0) + 1;
    const json = (o) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(o)); };
    if (path === '/' || path === '/index.html') { res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); }
    else if (path === '/api/users.json') json({ users: ['real'] });
    else if (path === '/ads/banner.json') json({ ad: 'real' });
    else if (path === '/api/echo') json({ client: req.headers['x-client'] || null, drop: req.headers['x-drop'] || null,
      added: req.headers['x-added'] || null });
    else { res.writeHead(404); res.end('no'); }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

const session = (args = []) => mcpSession(['--caps', 'network', ...args],
  { name: 'eous-network-test', env: { EOUS_SECRET_NET_TOKEN: SECRET } });

// the id of the button named name in the view
const button = (view, name) => {
  const m = view.match(new RegExp(`button \\[(\\d+)\\] '${name}'`));
  assert.ok(m, `no button '${name}' in the view:\n${view}`);
  return m[1];
};

test('tools/list: the routing tools only under --caps network', { timeout: 600000 }, async () => {
  const tools = ['browser_route', 'browser_route_list', 'browser_unroute', 'browser_network_state_set'];
  let s = await mcpSession([], { name: 'eous-network-test' });
  try {
    const names = await s.names();
    for (const t of tools) assert.ok(!names.includes(t), `${t} offered without --caps network`);
  } finally {
    await s.close();
  }
  s = await session();
  try {
    const names = await s.names();
    for (const t of tools) assert.ok(names.includes(t), `${t} missing under --caps network`);
  } finally {
    await s.close();
  }
});

test('browser_route: a pattern fulfilled with a body, another aborted, a third sent on with headers changed; listed, reported by browser_network_requests, removed; the document itself mocked, in a restarted browser too', { timeout: 600000 }, async () => {
  const s = await session();
  try {
    let view = await s.ok('browser_navigate', { url: `${base}/index.html` });
    let r = await s.call('browser_route', { pattern: '**/api/users.json', status: 201, contentType: 'application/json',
      body: `{"users":["mocked"],"token":"${SECRET}"}` });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /Route added for pattern: \*\*\/api\/users\.json/);
    await s.ok('browser_route', { pattern: '**/ads/*.{json,js}', abort: 'blockedbyclient' });
    await s.ok('browser_route', { pattern: '**/api/echo', headers: ['X-Added: yes'], removeHeaders: 'x-drop' });

    const before = hits['/api/users.json'] || 0;
    r = await s.call('browser_click', { ref: button(view, 'Load users') });
    assert.match(text(r), /api\/users\.json: 201 application\/json \{"users":\["mocked"\]/, 'the route did not answer');
    assert.equal(hits['/api/users.json'] || 0, before, 'a fulfilled request reached the server');
    r = await s.call('browser_click', { ref: button(view, 'Load ads') });
    assert.match(text(r), /ads\/banner\.json: failed \(TypeError\)/, 'the aborted request got an answer');
    assert.equal(hits['/ads/banner.json'] || 0, 0, 'an aborted request reached the server');
    r = await s.call('browser_click', { ref: button(view, 'Echo headers') });
    assert.match(text(r), /"client":"feeds","drop":null,"added":"yes"/, 'the headers were not changed on the way');

    r = await s.call('browser_route_list');
    assert.match(text(r), /1\. \*\*\/api\/users\.json \(status=201, body=.*contentType=application\/json, answered 1 request\)/);
    assert.match(text(r), /2\. \*\*\/ads\/\*\.\{json,js\} \(abort=BlockedByClient, answered 1 request\)/);
    assert.match(text(r), /3\. \*\*\/api\/echo \(addHeaders=\{"X-Added":"yes"\}, removeHeader=x-drop, answered 1 request\)/);
    r = await s.call('browser_network_requests');
    assert.match(text(r), /Answered by a route \(browser_route\):\n- GET http:\/\/127\.0\.0\.1:\d+\/api\/users\.json → 201 fulfilled by route \*\*\/api\/users\.json \((?:xhr|fetch)\)/);
    assert.match(text(r), /- GET \S+\/ads\/banner\.json → aborted \(BlockedByClient\) by route/);

    r = await s.call('browser_unroute', { pattern: '**/api/users.json' });
    assert.match(text(r), /Removed 1 route\(s\) for pattern: \*\*\/api\/users\.json/);
    view = await s.ok('browser_snapshot');
    r = await s.call('browser_click', { ref: button(view, 'Load users') });
    assert.match(text(r), /api\/users\.json: 200 application\/json \{"users":\["real"\]\}/, 'the removed route still answered');
    r = await s.call('browser_unroute');
    assert.match(text(r), /Removed all 2 route\(s\)/);
    assert.match(text(await s.call('browser_route_list')), /No active routes/);
    r = await s.call('browser_click', { ref: button(view, 'Load ads') });
    assert.match(text(r), /ads\/banner\.json: 200/);

    // a route made before the page loads answers the document itself
    await s.ok('browser_route', { pattern: `${base}/other.html`, contentType: 'text/html',
      body: '<title>Mocked</title><h1>Served by a route</h1>' });
    r = await s.call('browser_navigate', { url: `${base}/other.html` });
    assert.match(text(r), /Served by a route/);
    assert.equal(hits['/other.html'] || 0, 0);

    for (const [args, why] of [[{}, /expected \{pattern\}/], [{ pattern: '**/{a,{b}}' }, /unmatched or nested/],
      [{ pattern: '**/x', status: 99 }, /status: expected an HTTP status/], [{ pattern: '**/x', abort: 'nope' }, /abort 'nope'/],
      [{ pattern: '**/x', headers: ['NoColon'] }, /expected "Name: Value"/]]) {
      r = await s.call('browser_route', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), why);
    }
    assert.match(text(await s.call('browser_route_list')), /1\. \S+\/other\.html/, 'a refused route was added');
    // the routes outlive the browser: a new one routes from its first page
    await s.ok('browser_close');
    r = await s.call('browser_navigate', { url: `${base}/other.html` });
    assert.match(text(r), /Served by a route/, 'the route did not follow into the new browser');
    assert.equal(hits['/other.html'] || 0, 0);
  } finally {
    await s.close();
  }
});

test('browser_route: the secret in a route\'s body never reaches an answer; the policy refuses a route a rule denies; offline and online', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-net-'));
  writeFileSync(join(dir, 'policy.json'), JSON.stringify({ navigation: { allow: ['http://127.0.0.1:*'] },
    rules: [{ effect: 'deny', action: 'route', label: '*login*', reason: 'sign-in traffic is not mocked' }] }));
  const s = await session(['--policy', join(dir, 'policy.json')]);
  const all = [];
  const keep = (r) => { all.push(text(r)); return r; };
  try {
    const view = keep(await s.call('browser_navigate', { url: `${base}/index.html` }));
    keep(await s.call('browser_route', { pattern: '**/api/users.json', body: `{"users":["${SECRET}"]}` }));
    keep(await s.call('browser_route_list'));
    keep(await s.call('browser_click', { ref: button(text(view), 'Load users') }));
    const r = keep(await s.call('browser_network_requests'));
    assert.match(text(r), /api\/users\.json → 200 fulfilled/);
    for (const t of all) assert.ok(!t.includes(SECRET), `the secret reached an answer:\n${t}`);
    assert.match(all.join('\n'), /\[redacted\]|\*\*\*/, 'the secret was not shown redacted anywhere');

    const denied = await s.call('browser_route', { pattern: '**/login/**', status: 200, body: 'ok' });
    assert.equal(denied.isError, true, text(denied));
    assert.match(text(denied), /sign-in traffic is not mocked/);
    assert.doesNotMatch(text(await s.call('browser_route_list')), /login/);

    let o = await s.ok('browser_network_state_set', { state: 'offline' });
    assert.match(o, /Network is now offline/);
    const v = await s.ok('browser_snapshot');
    o = text(await s.call('browser_click', { ref: button(v, 'Load ads') }));
    assert.match(o, /ads\/banner\.json: failed/, 'offline, a request still went out');
    await s.ok('browser_network_state_set', { state: 'online' });
    o = text(await s.call('browser_click', { ref: button(v, 'Load ads') }));
    assert.match(o, /ads\/banner\.json: 200/);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

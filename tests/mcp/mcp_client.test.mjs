// tests/mcp/mcp_client.test.mjs — `eous mcp` driven by the official MCP
// TypeScript SDK client over stdio, against real Chromium on loopback pages:
// the Playground (benchmarks/grounds/playground/dist) and tests/fixtures/actions.
// Run: EOUS_CLI=build/eous node --test tests/mcp/   (ctest does this)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EOUS, LONG, PLAYGROUND_DIST, root, sdk, sdkUrl, serve, stopServers, text, track } from './support.mjs';

const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const { ElicitRequestSchema, ToolListChangedNotificationSchema } = await sdk('types.js');

const SECRET = 'mcp-S3cret-Value-7731';
let site, fixture;

function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat); // a zombie has exited
  } catch { return false; }
}

function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

async function until(cond, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

const idOf = (view, re) => {
  const m = view.match(re);
  assert.ok(m, `${re} not in the view:\n${view}`);
  return m[1] ?? m[2];
};
// a form field in the hybrid view: its atomic line, or the native provider's triplet ([c7] textbox 'Full name')
const fieldRe = (label) => new RegExp(`(?:textbox \\[(\\d+)\\]|\\[(c\\d+)\\] textbox) '${label}'`);

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  assert.ok(existsSync(join(PLAYGROUND_DIST, 'index.html')), 'Playground not built (scripts/build-site)');
  site = await serve(PLAYGROUND_DIST);
  fixture = await serve(join(root, 'tests/fixtures/actions'));
});

after(stopServers);

function transport(extraEnv = {}, args = ['mcp']) {
  const t = new StdioClientTransport({
    command: EOUS, args, stderr: 'pipe',
    env: { ...process.env, EOUS_LOG: 'info', EOUS_SECRET_MCP_TEST: SECRET, ...extraEnv },
  });
  let stderr = '';
  t.stderr.on('data', (d) => { stderr += d; });
  return { t, stderr: () => stderr };
}

test('SDK client: Playground, WebMCP tool, semantic call, secret, confirmation, close', { timeout: 1500000 }, async () => {
  const { t, stderr } = transport();
  const client = new Client({ name: 'eous-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked = [];
  let answer = 'decline';
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => { listChanged++; });
  await client.connect(t);
  const results = [];
  const call = async (name, args = {}) => {
    const r = await client.callTool({ name, arguments: args }, undefined, LONG).catch((e) => {
      throw new Error(`${name}: ${e.message}`);
    });
    results.push(JSON.stringify(r));
    return r;
  };
  try {
    assert.equal(client.getServerVersion().name, 'eous');
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    for (const n of ['browser_navigate', 'browser_snapshot', 'browser_click', 'browser_type', 'browser_select_option',
      'browser_hover', 'browser_press_key', 'browser_navigate_back', 'browser_tabs', 'browser_take_screenshot',
      'browser_wait_for', 'browser_close', 'browser_call', 'browser_webmcp_list', 'browser_webmcp_call'])
      assert.ok(names.includes(n), `${n} missing from tools/list`);

    // Playground: components as triplets, the page's WebMCP tools as MCP tools
    let r = await call('browser_navigate', { url: `${site}/settings` });
    assert.equal(r.isError, false, text(r));
    let view = text(r);
    assert.match(view, /\[c\d+\] tabs 'Settings sections'/);
    const started = stderr().match(/chromedriver pid (\d+)/);
    assert.ok(started, `no browser start line on stderr: ${stderr()}`);
    const driverPid = Number(started[1]);
    assert.ok(alive(driverPid));
    assert.ok(await until(() => listChanged > 0, 5000), 'no notifications/tools/list_changed after the page offered tools');
    const pageTools = (await client.listTools(undefined, LONG)).tools;
    const search = pageTools.find((x) => x.name === 'page_search_orders');
    assert.ok(search, `page tools not listed: ${pageTools.map((x) => x.name)}`);
    assert.equal(search.inputSchema.type, 'object');
    r = await call('page_search_orders', { status: 'paid' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /count/);
    r = await call('page_search_orders', { status: 'lost-in-the-mail' }); // checked against M, never reaches the page
    assert.equal(r.isError, true);
    assert.match(text(r), /pending/);

    // the same page tools through the two fixed tools (for clients that read tools/list once)
    r = await call('browser_webmcp_list');
    assert.equal(r.isError, false, text(r));
    const listed = r.structuredContent.tools.find((x) => x.name === 'search_orders');
    assert.ok(listed, `search_orders not listed: ${text(r)}`);
    assert.deepEqual(listed.inputSchema, search.inputSchema, 'browser_webmcp_list and page_search_orders differ');
    r = await call('browser_webmcp_call', { name: 'search_orders', arguments: { status: 'paid' } });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /count/);
    r = await call('browser_webmcp_call', { name: 'search_orders', arguments: { status: 'lost-in-the-mail' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /pending/);
    r = await call('browser_webmcp_call', { name: 'launch_rockets', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /no WebMCP tool 'launch_rockets' \(it has: .*search_orders/);

    // a semantic call through browser_call, validated first
    const tabs = idOf(view, /\[(c\d+)\] tabs 'Settings sections'/);
    r = await call('browser_call', { component: tabs, tool: 'setTab', params: { key: 'nowhere' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /general.*members.*security/);
    r = await call('browser_call', { component: tabs, tool: 'setTab', params: { key: 'security' } });
    assert.equal(r.isError, false, text(r));
    view = text(r);
    assert.match(view, /activeKey: 'security'/);
    assert.doesNotMatch(view, /whsec_4f1b9c2e7d8a/, 'data-agent-secret text shown');
    assert.doesNotMatch(view, /ignore all previous instructions/, 'data-agent-hidden text shown');

    // structuredContent: a client acts on components without parsing the text view
    const snapTool = (await client.listTools(undefined, LONG)).tools.find((x) => x.name === 'browser_snapshot');
    assert.equal(snapTool.outputSchema?.type, 'object', 'browser_snapshot has no outputSchema');
    r = await call('browser_snapshot'); // the SDK checks structuredContent against the outputSchema
    const sc = r.structuredContent;
    assert.ok(sc && Array.isArray(sc.components), `no structuredContent: ${JSON.stringify(r).slice(0, 300)}`);
    assert.match(sc.url, /\/settings$/);
    const tabsC = sc.components.find((c) => c.kind === 'tabs' && c.label === 'Settings sections');
    assert.ok(tabsC, `tabs not among ${sc.components.map((c) => `${c.kind} '${c.label}'`)}`);
    assert.equal(tabsC.id, tabs, 'the structured id is not the view id');
    assert.equal(tabsC.state.activeKey, 'security');
    const setTab = tabsC.tools.find((t) => t.name === 'setTab');
    assert.ok(setTab && setTab.params, `setTab and its params missing: ${JSON.stringify(tabsC.tools)}`);
    assert.ok(sc.components.some((c) => c.provider === 'webmcp' && c.key === 'search_orders'), 'WebMCP tool missing');
    assert.ok(!JSON.stringify(sc).includes('ignore all previous instructions'), 'data-agent-hidden in structuredContent');
    r = await call('browser_call', { component: tabsC.id, tool: 'setTab', params: { key: 'general' } });
    assert.equal(r.isError, false, text(r));
    assert.match(r.structuredContent.result, /setTab/);
    assert.equal(r.structuredContent.components.find((c) => c.key === tabsC.key).state.activeKey, 'general');

    // a secret typed by name, then a confirmation the person declines and then accepts
    r = await call('browser_navigate', { url: `${fixture}/index.html` });
    assert.equal(r.isError, false, text(r));
    view = text(r);
    const name = idOf(view, fieldRe('Full name'));
    r = await call('browser_type', { ref: name, text: '{{secret:MCP_TEST}}' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /typed \d+ characters/);
    // masked as the atomic line does it, or as the native triplet does (a secret field says only that it is filled)
    assert.match(text(r), /'Full name' (?:value: '\[redacted\]'|secret: true filled: true)/,
                 `the typed secret is not masked in the view:\n${text(r)}`);
    assert.ok(!text(r).includes(SECRET), 'the secret value is in the view');
    // deltas: on the same page an action answers with what changed, not the whole view again
    assert.match(text(r), /\(changes since the last observation\)/, `no delta after typing:\n${text(r)}`);
    assert.doesNotMatch(text(r), /'Buy credits'/, 'an unchanged line was sent again');
    const buy = idOf(view, /button \[(\d+)\] 'Buy credits'/);
    const whole = text(await call('browser_snapshot'));
    assert.doesNotMatch(whole, /changes since the last observation/, 'browser_snapshot must be the whole view');
    assert.match(whole, new RegExp(`button \\[${buy}\\] 'Buy credits'`), 'ids stay the same on the same page');
    r = await call('browser_click', { ref: buy });
    assert.equal(r.isError, true, 'a data-agent-confirm click went through without the person');
    assert.match(text(r), /said no/);
    assert.match(asked.at(-1), /Charges \$20 to your card/);
    answer = 'accept';
    r = await call('browser_click', { ref: buy });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /clicked/);
    assert.equal(asked.length, 2);

    r = await call('browser_take_screenshot');
    const img = r.content.find((c) => c.type === 'image');
    assert.ok(img && img.mimeType === 'image/png');
    assert.equal(Buffer.from(img.data, 'base64').subarray(1, 4).toString(), 'PNG');
    // a second tab: the view's header and the listing name both tabs (act_observe / act_tabs_read_urls)
    r = await call('browser_tabs', { action: 'new', url: `${site}/settings` });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /Tab 0: .*Tab 1 \(current\): /s);
    r = await call('browser_snapshot');
    assert.match(text(r), /Tab 0: .*Tab 1 \(current\): /s);
    r = await call('browser_tabs', { action: 'list' });
    assert.match(text(r), /^0: .* · http:\/\/127\.0\.0\.1:\d+\/.*\n1: \(current\) .* · http:\/\/127\.0\.0\.1:\d+\/settings\n$/s);

    r = await call('browser_close');
    assert.equal(r.isError, false);
    assert.ok(await until(() => !alive(driverPid) && !groupAlive(driverPid), 20000), 'browser_close left the driver');
  } finally {
    await client.close();
  }
  for (const s of [...results, stderr()])
    assert.ok(!s.includes(SECRET), 'the secret value reached a tool result or stderr');
});

test('--type keys: browser_type presses every key; the default puts the text in as one edit', { timeout: 600000 }, async () => {
  const bad = spawnSync(EOUS, ['mcp', '--type', 'letters'], { encoding: 'utf8', input: '' });
  assert.equal(bad.status, 2, bad.stderr);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  assert.match(bad.stderr, /--type 'letters': expected edit or keys/);
  const pages = await serve(join(root, 'tests/fixtures/pages'));
  // keys.html counts the field's keydowns: 'every key' once there were as many as characters
  for (const [args, verdict] of [[['mcp', '--type', 'keys'], 'every key'], [['mcp'], 'fewer keys than characters']]) {
    const { t } = transport({}, args);
    const client = new Client({ name: 'eous-test', version: '1.0.0' });
    await client.connect(t);
    try {
      let r = await client.callTool({ name: 'browser_navigate', arguments: { url: `${pages}/keys.html` } }, undefined, LONG);
      assert.equal(r.isError, false, text(r));
      const ref = idOf(text(r), fieldRe('Full name'));
      r = await client.callTool({ name: 'browser_type', arguments: { ref, text: 'Ada Lovelace' } }, undefined, LONG);
      assert.equal(r.isError, false, text(r));
      r = await client.callTool({ name: 'browser_snapshot', arguments: {} }, undefined, LONG);
      assert.ok(text(r).includes(verdict), `${args.join(' ')}: expected '${verdict}' in\n${text(r)}`);
      await client.callTool({ name: 'browser_close', arguments: {} }, undefined, LONG);
    } finally {
      await client.close();
    }
  }
});

// A bare JSON-lines client: what a broken or hostile client may send.
function rawServer() {
  const p = spawn(EOUS, ['mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, EOUS_LOG: 'info' } });
  track(p); // stopped in after() when a failed assertion leaves it running
  let buf = '', stderr = '';
  const lines = [], notes = [];
  const waiters = [];
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i));
      if (msg.method) notes.push(msg); // notifications (tools/list_changed, progress) kept aside
      else lines.push(msg);
      buf = buf.slice(i + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  p.stderr.on('data', (d) => { stderr += d; });
  const next = async () => { // the next response
    while (!lines.length) await new Promise((r) => waiters.push(r));
    return lines.shift();
  };
  const send = (o) => p.stdin.write((typeof o === 'string' ? o : JSON.stringify(o)) + '\n');
  const exited = new Promise((r) => p.once('exit', (code) => r(code)));
  return { p, next, send, exited, notes, stderr: () => stderr };
}

test('raw JSON-RPC: bad input gets JSON-RPC errors and the server keeps going', { timeout: 600000 }, async () => {
  const s = rawServer();
  s.send({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  let m = await s.next();
  assert.equal(m.result.protocolVersion, '2025-11-25', 'an unknown version is answered with the newest');
  s.send({ jsonrpc: '2.0', id: 2, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  m = await s.next();
  assert.equal(m.result.protocolVersion, '2025-06-18');
  s.send({ jsonrpc: '2.0', id: 20, method: 'tools/list' });
  m = await s.next();
  assert.ok(m.result.tools.find((t) => t.name === 'browser_call').outputSchema, 'no outputSchema at 2025-06-18');
  // outputSchema came with 2025-06-18: an older client never sees it
  s.send({ jsonrpc: '2.0', id: 21, method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  m = await s.next();
  assert.equal(m.result.protocolVersion, '2025-03-26');
  s.send({ jsonrpc: '2.0', id: 22, method: 'tools/list' });
  m = await s.next();
  assert.ok(m.result.tools.every((t) => !t.outputSchema), 'outputSchema sent to a 2025-03-26 client');
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

  s.send('{"jsonrpc": "2.0", "id": 3, "method": ');
  m = await s.next();
  assert.deepEqual([m.id, m.error.code], [null, -32700]);
  s.send({ jsonrpc: '2.0', id: 4, method: 'resources/list' });
  m = await s.next();
  assert.deepEqual([m.id, m.error.code], [4, -32601]);
  s.send({ jsonrpc: '1.0', id: 5, method: 'ping' });
  m = await s.next();
  assert.deepEqual([m.id, m.error.code], [5, -32600]);
  s.send('x'.repeat(5 * 1024 * 1024));
  m = await s.next();
  assert.equal(m.error.code, -32600);
  assert.match(m.error.message, /larger than/);
  s.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
  m = await s.next();
  assert.deepEqual([m.id, m.result], [6, {}]);
  s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'browser_teleport', arguments: {} } });
  m = await s.next();
  assert.deepEqual([m.id, m.error.code], [7, -32602]);
  s.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'browser_click', arguments: {} } });
  m = await s.next();
  assert.equal(m.result.isError, true);
  assert.match(m.result.content[0].text, /expected \{ref/);
  assert.doesNotMatch(s.stderr(), /browser started/, 'bad arguments started a browser');
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99, reason: 'gone' } });

  // without elicitation a confirmation is a result asking for a person, never a click
  s.send({ jsonrpc: '2.0', id: 9, method: 'tools/call',
    params: { name: 'browser_navigate', arguments: { url: `${fixture}/index.html` } } });
  m = await s.next();
  assert.equal(m.id, 9);
  assert.equal(m.result.isError, false, m.result.content[0].text);
  assert.ok(s.notes.some((n) => n.method === 'notifications/tools/list_changed'), 'page tools not announced');
  const buy = idOf(m.result.content[0].text, /button \[(\d+)\] 'Buy credits'/);
  s.send({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'browser_click', arguments: { ref: buy } } });
  m = await s.next();
  assert.equal(m.result.isError, true);
  assert.match(m.result.content[0].text, /Needs a person: Charges \$20 to your card/);
  s.send({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'browser_navigate', arguments: { url: 'file:///etc/passwd' } } });
  m = await s.next();
  assert.equal(m.result.isError, true);
  assert.match(m.result.content[0].text, /file: scheme is never allowed/);

  // progress for a call that asked (a progressToken), and a cancelled call stops without an answer:
  // were the wait still running, the next call would be refused as busy, or 40's answer would come first
  s.send({ jsonrpc: '2.0', id: 40, method: 'tools/call',
    params: { name: 'browser_wait_for', arguments: { time: 30 }, _meta: { progressToken: 'tok-40' } } });
  assert.ok(await until(() => s.notes.some((n) => n.method === 'notifications/progress'), 60000), 'no progress');
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 40, reason: 'changed my mind' } });
  s.send({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'browser_snapshot', arguments: {} } });
  m = await s.next();
  assert.equal(m.id, 41, `the cancelled call answered: ${JSON.stringify(m).slice(0, 200)}`);
  assert.equal(m.result.isError, false, JSON.stringify(m));
  s.send({ jsonrpc: '2.0', id: 42, method: 'tools/call',
    params: { name: 'browser_wait_for', arguments: { time: 1.5 }, _meta: { progressToken: 43 } } });
  m = await s.next();
  assert.equal(m.id, 42);
  const prog = s.notes.filter((n) => n.method === 'notifications/progress');
  assert.ok(prog.every((n) => n.params.progressToken === 'tok-40' || n.params.progressToken === 43));
  const p43 = prog.filter((n) => n.params.progressToken === 43).map((n) => n.params.progress);
  assert.ok(p43.length >= 2, `a 1.5 s wait sent ${p43.length} progress notifications`);
  assert.ok(p43.every((v, i) => i === 0 || v > p43[i - 1]), `progress must increase: ${p43}`);
  assert.match(s.stderr(), /browser_wait_for cancelled by the client/);
  // an id echoed as sent (1.0 is kept as its text) is still the call a requestId of equal value cancels
  s.send('{"jsonrpc": "2.0", "id": 1.0, "method": "tools/call", "params": {"name": "browser_wait_for", ' +
    '"arguments": {"time": 30}, "_meta": {"progressToken": "tok-1.0"}}}');
  assert.ok(await until(() => s.notes.some((n) => n.params?.progressToken === 'tok-1.0'), 60000), 'no progress');
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'changed my mind' } });
  s.send({ jsonrpc: '2.0', id: 44, method: 'tools/call', params: { name: 'browser_snapshot', arguments: {} } });
  m = await s.next();
  assert.equal(m.id, 44, `the call with id 1.0 answered: ${JSON.stringify(m).slice(0, 200)}`);
  assert.equal(m.result?.isError, false, `the call with id 1.0 was not cancelled: ${JSON.stringify(m).slice(0, 200)}`);

  const driverPid = Number(s.stderr().match(/chromedriver pid (\d+)/)[1]);
  s.p.stdin.end(); // the client disconnects
  assert.equal(await s.exited, 0);
  assert.ok(!alive(driverPid) && !groupAlive(driverPid), 'the driver outlived the server');
});

test('a client that vanishes mid-call leaves no eous, driver or browser behind', { timeout: 600000 }, async () => {
  // the client is its own process, killed with SIGKILL while a call is in flight
  const clientCode = `
    const { Client } = await import(${JSON.stringify(sdkUrl('client/index.js'))});
    const { StdioClientTransport } = await import(${JSON.stringify(sdkUrl('client/stdio.js'))});
    const t = new StdioClientTransport({ command: ${JSON.stringify(EOUS)}, args: ['mcp'], stderr: 'inherit',
      env: { ...process.env, EOUS_LOG: 'info' } });
    const c = new Client({ name: 'vanishing', version: '0' });
    await c.connect(t);
    console.log('eous pid ' + t.pid);
    await c.callTool({ name: 'browser_navigate', arguments: { url: ${JSON.stringify(`${fixture}/index.html`)} } }, undefined, { timeout: 240000 });
    // the first progress notification says the wait is running on the server
    let said = false;
    await c.callTool({ name: 'browser_wait_for', arguments: { time: 30 } }, undefined, { timeout: 240000,
      onprogress: () => { if (!said) { said = true; console.log('waiting'); } } });
    console.log('should not get here');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', clientCode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((r) => child.once('exit', r));
  assert.ok(await until(() => /waiting/.test(out), 240000), `client never got going: ${out} ${err}`);
  const eousPid = Number(out.match(/eous pid (\d+)/)[1]);
  const driverPid = Number(err.match(/chromedriver pid (\d+)/)[1]);
  assert.ok(alive(eousPid) && alive(driverPid));
  child.kill('SIGKILL'); // 'waiting' came from the wait's progress: the call is in flight
  await exited;
  assert.ok(await until(() => !alive(eousPid), 20000), 'eous outlived its client');
  assert.ok(await until(() => !alive(driverPid) && !groupAlive(driverPid), 20000), 'the driver or browser outlived eous');
  assert.doesNotMatch(out, /should not get here/);
});

// tests/mcp/mcp_latency.test.mjs — what makes an answer's view quick (benchmarks/results/step_latency_mcp.md):
// eous mcp reads the view's accessibility tree on its own DevTools connection (mcp/mcp_ax.c), not
// through chromedriver, in every tab it is on and in a page's child frames, and the view is the one
// the driver's path gives (tests/perception/test_perc_ax_read.c compares them byte for byte); an
// atomic action's clicks and keys go on that connection too, as the events the driver's actions give
// the page (tests/actions/test_act_input.c compares them event by event), the driver when it cannot,
// and so do the script that settles after it and reads the view (the driver's view), the prepare and
// hit test before it, and a CI4A call's script with the view's (the same answer; it acts once).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { join } from 'node:path';
import { LONG, PLAYGROUND_DIST, root, sdk, serve, startWiki, stopServers, text, EOUS } from './support.mjs';

const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
after(stopServers);

// one eous mcp (args after `mcp`) with EOUS_LOG=debug; log() answers its stderr so far
async function debugSession(args = []) {
  const t = new StdioClientTransport({ command: EOUS, args: ['mcp', ...args], stderr: 'pipe',
    env: { ...process.env, EOUS_LOG: 'debug' } });
  let stderr = '';
  t.stderr.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'eous-mcp-latency-test', version: '1.0.0' });
  await client.connect(t);
  const ok = async (tool, a = {}) => {
    const r = await client.callTool({ name: tool, arguments: a }, undefined, LONG);
    assert.equal(r.isError, false, `${tool}: ${text(r)}`);
    return text(r);
  };
  const call = (tool, a = {}) => client.callTool({ name: tool, arguments: a }, undefined, LONG);
  return { ok, call, log: () => stderr, close: () => client.close() };
}

const direct = (log) => (log.match(/AX tree of tab \S+ on eous's own DevTools connection/g) || []).length;
const ownTabs = (log, n) => (log.match(new RegExp(`open tabs: ${n} on eous's own DevTools connection`, 'g')) || []).length;
const tabLines = (v) => (v.split('\n').find((l) => /^Tab \d+/.test(l)) || '').split(' | ');
const directFrames = (log) => (log.match(/AX tree of tab \S+, frame \S+ on eous's own DevTools connection/g) || []).length;

test('the view\'s accessibility tree comes on eous\'s own DevTools connection, in each tab and child frame', LONG, async () => {
  const site = await serve(join(root, 'tests/fixtures/pages'));
  const s = await debugSession();
  try {
    let v = await s.ok('browser_navigate', { url: `${site}/form.html` });
    assert.match(v, /heading 'Sign up'/);
    assert.equal(direct(s.log()), 1, s.log());
    // a lone tab counted on the connection (no driver request); several listed by the driver, in its order
    assert.equal(ownTabs(s.log(), 1), 1, s.log());
    assert.deepEqual(tabLines(v), ['Tab 0 (current): Form fixture'], v);
    // a second tab: the connection attaches to it
    v = await s.ok('browser_tabs', { action: 'new', url: `${site}/frames.html` });
    assert.ok(ownTabs(s.log(), 2) >= 1, s.log());
    assert.equal(tabLines(v).length, 2, v);
    assert.match(tabLines(v)[1], /^Tab 1 \(current\): /, v);
    assert.match(v, /Same origin frame/);
    assert.match(v, /Second page/, 'the same-origin frame\'s content is in the view');
    assert.equal(direct(s.log()), 2, s.log());
    assert.ok(directFrames(s.log()) >= 1, `the child frame's tree came through the driver:\n${s.log()}`);
    // back to the first tab
    v = await s.ok('browser_tabs', { action: 'select', index: 0 });
    assert.match(v, /heading 'Sign up'/);
    assert.equal(direct(s.log()), 3, s.log());
    assert.doesNotMatch(s.log(), /not read directly/);
  } finally {
    await s.close();
  }
});

const ownInput = (log) => (log.match(/input: (\d+) of \1 events on eous's own DevTools connection/g) || []).length;
const ownElement = (log) => (log.match(/an element's script on eous's own DevTools connection/g) || []).length;

// the page's event log (input_log.html shows it in its last paragraph) from the view
const events = (v) => (v.match(/StaticText "((?:mousemove|keydown|focus)[^"]*)"/) || [])[1] || '';

test('an atomic action\'s clicks and keys go on eous\'s own DevTools connection, as the driver\'s events', LONG, async () => {
  const site = await serve(join(root, 'tests/fixtures/pages'));
  const seen = {};
  for (const [name, args] of [['own', ['--mode', 'atomic']], ['driver', ['--mode', 'atomic', '--w3c-only']]]) {
    const s = await debugSession(args);
    try {
      let v = await s.ok('browser_navigate', { url: `${site}/input_log.html` });
      const ref = (role, label) => v.match(new RegExp(`\\[(\\d+)\\] ${role} '${label}'`))[1];
      v = await s.ok('browser_type', { ref: ref('textbox', 'Field'), text: 'Ab 1' });
      v = await s.ok('browser_type', { ref: ref('textbox', 'Field'), text: 'xy', submit: true });
      v = await s.ok('browser_click', { ref: ref('button', 'Press'), element: 'Press' });
      // a dialog under a click on the own connection: reported at once, no wait for the click's answer
      const t0 = Date.now();
      const r = await s.call('browser_click', { ref: ref('button', 'Alert'), element: 'Alert' });
      assert.match(text(r), /clicked \[\d+\] button 'Alert'; the page opened alert "hello" \(dismissed\)/);
      seen[`${name} dialog`] = r.isError;
      assert.ok(Date.now() - t0 < 20000, `the click with a dialog took ${Date.now() - t0} ms`);
      v = await s.ok('browser_snapshot');
      seen[name] = events(v);
      assert.doesNotMatch(seen[name], /untrusted/, seen[name]);
      if (name === 'own') assert.equal(ownInput(s.log()), 5, s.log()); // two types' clicks and keys, one key's edit, two clicks
      else assert.equal(ownInput(s.log()), 0, s.log()); // W3C-only: the driver's actions
      // the prepare and hit test before each: on the own connection, the driver's in a W3C-only session
      assert.equal(ownElement(s.log()), name === 'own' ? 4 : 0, s.log());
    } finally {
      await s.close();
    }
  }
  // the keys as the driver's actions give them to the page (its Enter is the keypad's: tests/actions/
  // test_act_input.c compares every event, coordinates too); a W3C-only session types them by Element
  // Send Keys, whose Enter differs
  const keys = "keydown x/KeyX/88; keypress x/KeyX/120; beforeinput insertText 'x'; input insertText 'x'; " +
    "keyup x/KeyX/88; keydown y/KeyY/89; keypress y/KeyY/121; beforeinput insertText 'y'; input insertText 'y'; " +
    "keyup y/KeyY/89; keydown Enter/NumpadEnter/13; keypress Enter/NumpadEnter/13; beforeinput insertLineBreak 'null'; " +
    'keyup Enter/NumpadEnter/13; mousemove ';
  assert.ok(seen.own.includes(keys), seen.own);
  assert.ok(seen.driver.includes(keys.slice(0, 200)), seen.driver);
  assert.equal(seen['own dialog'], seen['driver dialog'], 'the dialog\'s click answers alike');
  assert.match(seen.own, /keydown Control\/ControlLeft\/17 C; keydown a\/KeyA\/65 C/);
  assert.match(seen.own, /beforeinput insertText 'Ab 1'/);
});

const ownSettle = (log) => (log.match(/settle's script on eous's own DevTools connection/g) || []).length;

test('the settle after an atomic action and its view\'s script go on eous\'s own DevTools connection: the view is the driver\'s', LONG, async () => {
  const site = await serve(PLAYGROUND_DIST);
  const s = await debugSession(['--mode', 'atomic', '--deltas', 'off']);
  try {
    let v = await s.ok('browser_navigate', { url: `${site}/users` });
    for (const word of ['grace', 'ada', 'alan']) {
      const ref = v.match(/\[(\d+)\] (?:textbox|searchbox) 'Search users'/)[1];
      const before = ownSettle(s.log()), typed = ownInput(s.log()), prepared = ownElement(s.log()), tabsBefore = ownTabs(s.log(), 1);
      v = await s.ok('browser_type', { ref, text: word });
      assert.equal(ownSettle(s.log()), before + 1, s.log());
      assert.equal(ownElement(s.log()), prepared + 1, s.log()); // the prepare and hit test
      assert.equal(ownTabs(s.log(), 1), tabsBefore + 1, s.log()); // the view's lone tab
      // the view it read found the field as the driver's would (its element ids): a click at its point
      assert.equal(ownInput(s.log()), typed + (word.length >= 4 ? 2 : 1), s.log());
      // each gesture's events at once (the click's three, Control+A's four; a key's down, edit and up)
      const trips = [...s.log().matchAll(/input: (\d+) of \1 events on eous's own DevTools connection, tab \S+, (\d+) round trips/g)]
        .slice(typed).map((m) => `${m[1]}/${m[2]}`);
      // (the first into an empty field: no Control+A; a short word key by key, after Control+A and Backspace)
      assert.deepEqual(trips, word === 'grace' ? ['3/1', '3/1'] : word.length >= 4 ? ['7/2', '3/1']
        : [`${7 + 2 + 2 * word.length}/${3 + word.length}`], s.log());
      assert.match(v, new RegExp(`StaticText '${word}'`, 'i'));
      // the snapshot reads the page again, its providers' script through the driver: the same view
      // (the same ids: the elements the page script answered became the driver's references)
      const snap = await s.ok('browser_snapshot');
      const body = (t) => t.slice(t.indexOf('\n[1] ')).replace(/^typed.*\n/, '');
      assert.equal(body(v), body(snap));
    }
    assert.doesNotMatch(s.log(), /(settle's|element's) script through the driver/);
  } finally {
    await s.close();
  }
});

const ownCall = (log) => (log.match(/a call's script on eous's own DevTools connection/g) || []).length;

test('a CI4A call\'s script and its view\'s go on eous\'s own DevTools connection: the view is the driver\'s, in a new document too', LONG, async () => {
  const site = await serve(PLAYGROUND_DIST);
  const s = await debugSession(['--deltas', 'off']);
  try {
    let v = await s.ok('browser_navigate', { url: `${site}/users` });
    for (const word of ['grace', 'ada', 'leave', 'alan']) {
      if (word === 'leave') { // another document: the compiled script went with the old one
        await s.ok('browser_navigate', { url: `${site}/settings` });
        v = await s.ok('browser_navigate', { url: `${site}/users` });
        continue;
      }
      const before = ownCall(s.log());
      const component = v.match(/\[(c\d+)\] input 'Search users'/)[1];
      v = await s.ok('browser_call', { component, tool: 'setValue', params: { text: word } });
      assert.equal(ownCall(s.log()), before + 1, s.log());
      assert.match(v, new RegExp(`\\[c\\d+\\] input 'Search users' value: '${word}'`));
      assert.match(v, new RegExp(`\\| ${word[0].toUpperCase()}${word.slice(1)} \\w+ \\|`), v);
      // the snapshot's providers' script goes through the driver: the same view
      const snap = await s.ok('browser_snapshot');
      const body = (t) => t.slice(t.indexOf('url: '));
      assert.equal(body(v), body(snap));
    }
    assert.doesNotMatch(s.log(), /call's script through the driver/, s.log());
  } finally {
    await s.close();
  }
  // W3C-only: the driver's execute, the same call
  const w = await debugSession(['--w3c-only']);
  try {
    const v = await w.ok('browser_navigate', { url: `${site}/users` });
    const component = (v.match(/\[(c\d+)\] input 'Search users'/) || [])[1];
    assert.ok(component, v);
    assert.match(await w.ok('browser_call', { component, tool: 'setValue', params: { text: 'ada' } }), /setValue: ok/);
    assert.equal(ownCall(w.log()), 0, w.log());
  } finally {
    await w.close();
  }
});

// A call acts: it must never run twice.  Its tool reloads the page under it: the DevTools answer is an
// error, and the call is not run again through the driver (whose execute runs a script again in the new
// document when the old one's context goes: the count went 1 -> 4 through it)
test('a CI4A call whose page reloads under it runs once on eous\'s own DevTools connection', LONG, async () => {
  const site = await serve(join(root, 'tests/fixtures/pages'));
  const s = await debugSession();
  try {
    let v = await s.ok('browser_navigate', { url: `${site}/call_reload.html` });
    const component = v.match(/\[(c\d+)\] counter 'Bumps'/)[1];
    v = await s.ok('browser_call', { component, tool: 'bump', params: {} });
    assert.match(v, /counter\.bump: ok; state \{"bumps":1\}/);
    const r = await s.call('browser_call', { component, tool: 'bumpAndReload', params: {} });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /counter\.bumpAndReload: .*navigated/, text(r));
    await new Promise((ok) => setTimeout(ok, 2000)); // the reloaded page's own timers
    assert.match(await s.ok('browser_snapshot'), /\[c\d+\] counter 'Bumps' bumps: 2 /);
    assert.equal(ownCall(s.log()), 1, s.log()); // bump on the connection; bumpAndReload's call failed there
  } finally {
    await s.close();
  }
});

// A click whose page leaves a moment later (late_nav.html: a timer sets location): the settle waits for
// that timer, and the document goes away while the settle's script awaits on eous's own connection
// ("Inspected target navigated or closed"); the settle and the view are taken again there, in the new
// document, not through the driver (CI at 3553a90 met this on DokuWiki: the settle went to the driver)
test('a settle whose document goes away under it is taken again on eous\'s own DevTools connection', LONG, async () => {
  const site = await serve(join(root, 'tests/fixtures/pages'));
  const s = await debugSession(['--mode', 'atomic', '--deltas', 'off']);
  try {
    let v = await s.ok('browser_navigate', { url: `${site}/late_nav.html` });
    v = await s.ok('browser_click', { ref: v.match(/\[(\d+)\] link 'Onward'/)[1], element: 'Onward' });
    assert.match(v, /url: \S*next\.html/, v.slice(0, 300));
    assert.match(v, /Second page/, v);
    assert.match(s.log(), /settle's script on eous's own DevTools connection[^\n]*\n(.|\n)*phases click/, s.log());
    assert.doesNotMatch(s.log(), /settle's script through the driver/, s.log());
  } finally {
    await s.close();
  }
});

// A form whose POST is answered 4.5 s later (a slow server: DokuWiki's first render of a page after a login,
// on a loaded machine): the navigation the click began holds the settle past its 3 s cap, as a page load would,
// so the answer's view is the new page's; before, the settle ended at its cap and the view was taken while the
// old document went away under it (CI at 8cd9efb: a DokuWiki login's view of the old form, nothing on screen)
test('a click whose form\'s answer is slower than the settle\'s cap is answered with the new page', LONG, async () => {
  const { createServer } = await import('node:http');
  const srv = createServer((req, res) => {
    if (req.method === 'POST') {
      req.resume();
      setTimeout(() => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<title>Received</title><h1>Order received</h1>'); }, 4500);
      return;
    }
    if (req.url === '/nothing') { res.writeHead(204); res.end(); return; }
    if (req.url === '/later') { // text a timer its script arms at load adds 400 ms on
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<title>Later</title><p>start</p><script>setTimeout(() => { const p = document.createElement("p"); ' +
        'p.textContent = ["after", "a", "timer"].join(" "); document.body.append(p); }, 400);</script>');
      return;
    }
    if (req.url === '/receipt') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="receipt.txt"' });
      res.end('receipt');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<title>Order</title><a href="/nothing">Nothing</a> <a href="/receipt">Receipt</a> <a href="/later">Later</a>' +
      '<form method="post" action="/send"><label>Item <input name="item" value="tea"></label><button>Send order</button></form>');
  });
  await new Promise((ok) => srv.listen(0, '127.0.0.1', ok));
  const s = await debugSession(['--mode', 'atomic', '--deltas', 'off']);
  try {
    let v = await s.ok('browser_navigate', { url: `http://127.0.0.1:${srv.address().port}/` });
    // navigations that leave the document where it is (no content, a download) end the wait at once
    for (const link of ['Nothing', 'Receipt']) {
      v = await s.ok('browser_click', { ref: v.match(new RegExp(`\\[(\\d+)\\] link '${link}'`))[1], element: link });
      assert.match(v, /url: \S*\/\n/, v);
      assert.match(v, /button 'Send order'/, v);
    }
    assert.doesNotMatch(s.log(), /settle: at the cap/, s.log());
    v = await s.ok('browser_click', { ref: v.match(/\[(\d+)\] button 'Send order'/)[1], element: 'Send order' });
    assert.match(v, /url: \S*\/send/, v);
    assert.match(v, /heading 'Order received'/, v);
    // a link to a page whose script arms a timer at load: the settle after the driver's wait counts what the
    // new document began since its start, however long the wait took
    v = await s.ok('browser_navigate', { url: `http://127.0.0.1:${srv.address().port}/` });
    v = await s.ok('browser_click', { ref: v.match(/\[(\d+)\] link 'Later'/)[1], element: 'Later' });
    assert.match(v, /url: \S*\/later/, v);
    assert.match(v, /after a timer/, v);
    assert.match(s.log(), /settle: [\d.]+ ms in the page/, s.log());
  } finally {
    await s.close();
    srv.close();
  }
});

// DokuWiki: a link's click loads another page under the settle (its compiled script goes with the old
// document and is compiled again in the new one; or it sees the navigation begin, the driver waits for it,
// and it runs again in the new one), and a page's view names some elements twice
test('on DokuWiki the settle after a link\'s click goes on eous\'s own DevTools connection too: the view is the driver\'s', LONG, async () => {
  const wiki = await startWiki();
  const s = await debugSession(['--mode', 'atomic', '--deltas', 'off']);
  try {
    let v = await s.ok('browser_navigate', { url: `${wiki.url}/doku.php?id=start` });
    const navBegan = (log) => (log.match(/settle: a navigation began; the driver waited/g) || []).length;
    for (const link of ['Aurora', 'Borealis']) {
      const before = ownSettle(s.log()), waits = navBegan(s.log());
      v = await s.ok('browser_click', { ref: v.match(new RegExp(`\\[(\\d+)\\] link '${link}'`))[1], element: link });
      assert.match(v, new RegExp(`url: \\S*id=\\S*${link.toLowerCase()}`, 'i'), v.slice(0, 300));
      assert.equal(ownSettle(s.log()), before + 1 + navBegan(s.log()) - waits, s.log());
      const snap = await s.ok('browser_snapshot');
      const body = (t) => t.slice(t.indexOf('\n['));
      assert.equal(body(v), body(snap));
      v = await s.ok('browser_navigate_back');
    }
    assert.doesNotMatch(s.log(), /settle's script through the driver/, s.log());
  } finally {
    await s.close();
    await wiki.stop();
  }
});

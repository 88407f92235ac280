// tests/mcp/mcp_devtools.test.mjs — eous mcp --caps devtools (mcp/mcp_highlight.c,
// mcp/mcp_video.c): browser_highlight / browser_hide_highlight and browser_start_video /
// browser_stop_video with Playwright MCP's names and arguments, driven by the official MCP SDK
// client over stdio against real Chromium on loopback pages (tests/fixtures/mcp_caps, served here).
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_devtools.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EOUS, root, serve, session as mcpSession, stopServers, text } from './support.mjs';

let fixture;
before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  fixture = await serve(join(root, 'tests/fixtures/mcp_caps'));
});
after(stopServers);

const session = (args = []) => mcpSession(args, { name: 'eous-devtools-test' });
const shot = async (s) => (await s.call('browser_take_screenshot')).content.find((c) => c.type === 'image').data;

function idIn(view, re) {
  const m = view.match(re);
  assert.ok(m, `${re} not in the view:\n${view}`);
  return m[1];
}

test('tools/list: the highlight and video tools only under --caps devtools', { timeout: 600000 }, async () => {
  const tools = ['browser_highlight', 'browser_hide_highlight'];
  let s = await session();
  try {
    const names = await s.names();
    for (const t of tools) assert.ok(!names.includes(t), `${t} offered without --caps devtools`);
  } finally {
    await s.close();
  }
  s = await session(['--caps', 'devtools']);
  try {
    const names = await s.names();
    for (const t of tools) assert.ok(names.includes(t), `${t} missing under --caps devtools`);
  } finally {
    await s.close();
  }
});

test('browser_highlight: a box over the element in the screenshot, not in the view; hidden again; an id not in the view and a style that loads something refused', { timeout: 600000 }, async () => {
  const s = await session(['--caps', 'devtools', '--mode', 'atomic']);
  try {
    const view = await s.ok('browser_navigate', { url: `${fixture}/vision.html` });
    const plain = await shot(s);
    const alpha = idIn(view, /\[(\d+)\] button 'Alpha'/);
    let t = await s.ok('browser_highlight', { element: 'Alpha', target: alpha, style: 'outline: 6px solid red' });
    assert.match(t, new RegExp(`Highlighted \\[${alpha}\\] button 'Alpha'`));
    assert.notEqual(await shot(s), plain, 'the screenshot shows no highlight');
    const after = await s.ok('browser_snapshot');
    const page = (v) => v.slice(v.indexOf('Tab 0'));
    assert.equal(page(after), page(view), 'the highlight changed the view');
    t = await s.ok('browser_hide_highlight', { target: alpha });
    assert.match(t, /Hid highlight for \[\d+\] button 'Alpha'/);
    assert.equal(await shot(s), plain, 'the highlight stayed after browser_hide_highlight');
    await s.ok('browser_highlight', { target: alpha });
    assert.match(await s.ok('browser_hide_highlight'), /Hid page highlight/);
    assert.equal(await shot(s), plain);

    let r = await s.call('browser_highlight', { target: alpha, style: 'background: url(http://127.0.0.1:9/x.png)' });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /style: 'url\(' is refused/);
    // the data-agent-hidden button is never in the view: its id from a view taken without the mark does not exist here
    r = await s.call('browser_highlight', { target: '9999' });
    assert.equal(r.isError, true);
    assert.match(text(r), /there is no \[9999\] in the current view/);
  } finally {
    await s.close();
  }
});

// tests/mcp/mcp_latency.test.mjs — what makes an answer's view quick (benchmarks/results/step_latency_mcp.md):
// eous mcp reads the view's accessibility tree on its own DevTools connection (mcp/mcp_ax.c), not
// through chromedriver, in every tab it is on and in a page's child frames, and the view is the one
// the driver's path gives (tests/perception/test_perc_ax_read.c compares them byte for byte).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { join } from 'node:path';
import { LONG, root, sdk, serve, stopServers, text, EOUS } from './support.mjs';

const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
after(stopServers);

// one eous mcp with EOUS_LOG=debug; log() answers its stderr so far
async function debugSession() {
  const t = new StdioClientTransport({ command: EOUS, args: ['mcp'], stderr: 'pipe',
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
  return { ok, log: () => stderr, close: () => client.close() };
}

const direct = (log) => (log.match(/AX tree of tab \S+ on eous's own DevTools connection/g) || []).length;
const directFrames = (log) => (log.match(/AX tree of tab \S+, frame \S+ on eous's own DevTools connection/g) || []).length;

test('the view\'s accessibility tree comes on eous\'s own DevTools connection, in each tab and child frame', LONG, async () => {
  const site = await serve(join(root, 'tests/fixtures/pages'));
  const s = await debugSession();
  try {
    let v = await s.ok('browser_navigate', { url: `${site}/form.html` });
    assert.match(v, /heading 'Sign up'/);
    assert.equal(direct(s.log()), 1, s.log());
    // a second tab: the connection attaches to it
    v = await s.ok('browser_tabs', { action: 'new', url: `${site}/frames.html` });
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

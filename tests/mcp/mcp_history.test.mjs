// tests/mcp/mcp_history.test.mjs — browser_history and browser_undo (issue 53
// item 2, ui-sdk's createHistory and undoSource), driven by the official MCP
// SDK client over stdio against real Chromium on loopback pages: the
// Playground's booking form (CI4A, benchmarks/grounds/playground/dist) with one page script
// added, a DokuWiki-like plain HTML edit form (native provider), a WebMCP
// page (the published polyfill), all served here on a free port, and the real
// DokuWiki (Debian's, scripts/wiki): its login, search and edit forms.
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_history.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EOUS, LONG, PLAYGROUND_DIST, root, serve, session as mcpSession, startWiki, stopServers, text } from './support.mjs';

const DIST = PLAYGROUND_DIST;
let fixtures, playground, siteDir;

// The page's own script on the Playground: once the agent has ticked Breakfast, the page sets Guests to 3 through
// the registry three seconds later (a group rate, say), long after the agent's call has returned.
const PAGE_SCRIPT = `<script>
  (function poll() {
    const r = window.__ci4a__;
    const s = r && r.getStatus();
    if (s && s['checkbox-breakfast'] && s['checkbox-breakfast'].state.checked) {
      setTimeout(() => { r.callTool('inputnumber-guests', 'setValue', { value: 3 });
        const d = document.createElement('p'); d.textContent = 'Group rate applied'; document.body.appendChild(d); }, 3000);
      return;
    }
    setTimeout(poll, 100);
  })();
</script>`;

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  assert.ok(existsSync(join(DIST, 'app.js')), 'benchmarks/grounds/playground/dist missing: bash scripts/build-site');
  siteDir = mkdtempSync(join(tmpdir(), 'eous-history-site-'));
  symlinkSync(join(DIST, 'app.js'), join(siteDir, 'app.js'));
  writeFileSync(join(siteDir, 'index.html'),
    readFileSync(join(DIST, 'index.html'), 'utf8').replace('</body>', `${PAGE_SCRIPT}\n</body>`));
  playground = await serve(siteDir);
  fixtures = await serve(join(root, 'tests/fixtures'));
});

after(() => {
  stopServers();
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
});

const session = (args = []) => mcpSession(args, { name: 'eous-history-test' });

const idOf = (view, re) => { const m = view.match(re); assert.ok(m, `${re} not in the view:\n${view}`); return m[1]; };

test('Playground booking (CI4A): the agent\'s changes listed by source, the page\'s later change kept, the rest put back through setValue', { timeout: 600000 }, async () => {
  const { client, ok, close } = await session();
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    assert.ok(names.includes('browser_history') && names.includes('browser_undo'), names.join(' '));
    const view = await ok('browser_navigate', { url: `${playground}/booking` });
    const name = idOf(view, /\[(c\d+)\] input 'Guest name'/);
    const guests = idOf(view, /\[(c\d+)\] inputnumber 'Guests'/);
    const breakfast = idOf(view, /\[(c\d+)\] checkbox 'Breakfast included'/);
    await ok('browser_call', { component: name, tool: 'setValue', params: { text: 'Ann Lee' } });
    await ok('browser_call', { component: guests, tool: 'setValue', params: { value: 4 } });
    await ok('browser_call', { component: breakfast, tool: 'check', params: {} });
    await ok('browser_wait_for', { text: 'Group rate applied' });

    let h = await ok('browser_history', {});
    assert.match(h, /- agent set Guest name to 'Ann Lee' \(was \(empty\)\) \[c\d+ input-guest-name value/, h);
    assert.match(h, /- agent set Guests to 4 \(was 2\) \[c\d+ inputnumber-guests value/, h);
    assert.match(h, /- agent set Breakfast included to true \(was false\)/, h);
    assert.match(h, /- page set Guests to 3 \(was 4\)/, h);
    const agentOnly = await ok('browser_history', { source: 'agent' });
    assert.doesNotMatch(agentOnly, /page set/, agentOnly);

    const u = await ok('browser_undo', { source: 'agent' });
    assert.match(u, /undo agent: 2 put back, 1 left/, u);
    assert.match(u, /- Guest name c\d+: back to \(empty\)/, u);
    assert.match(u, /- Breakfast included c\d+: back to false/, u);
    assert.match(u, /not put back:\n- Guests: left as it is: page set it to 3 after the agent's change/, u);
    assert.match(u, /Requests the page already sent are not reversed/, u);
    // the page shows it: the components' own state after the undo
    const v = await ok('browser_snapshot', {});
    assert.match(v, new RegExp(`\\[${guests}\\] inputnumber 'Guests'[^\\n]*value: 3`), v);
    assert.match(v, new RegExp(`\\[${breakfast}\\] checkbox 'Breakfast included'[^\\n]*checked: false`), v);
    assert.doesNotMatch(v, /Ann Lee/, v);
    // the undo itself is not recorded; the undone entries say so
    h = await ok('browser_history', {});
    assert.match(h, /agent set Guest name to 'Ann Lee'.*\(undone\)/, h);
    assert.match(h, /agent set Guests to 4 .*\(left by undo\)/, h);
    assert.doesNotMatch(h, /set Guest name to \(empty\)/, h);
    assert.match(await ok('browser_undo', { source: 'agent' }), /nothing to undo/);
  } finally {
    await close();
  }
});

test('native form (DokuWiki-like): typed, ticked and picked fields put back through the form\'s fill; a control that left the page and a secret field reported', { timeout: 600000 }, async () => {
  const { ok, close } = await session();
  try {
    let view = await ok('browser_navigate', { url: `${fixtures}/mcp_history/wiki.html` });
    const form = idOf(view, /\[(c\d+)\] form '([^']*)'/);
    await ok('browser_fill_form', { fields: [
      { ref: form, name: 'Edit summary', type: 'textbox', value: 'typo fixed' },
      { ref: form, name: 'Nickname', type: 'textbox', value: 'annie' },
      { ref: form, name: 'Password', type: 'textbox', value: 'hunter22' },
      { ref: form, name: 'Minor Changes', type: 'checkbox', value: true },
    ] });
    view = await ok('browser_snapshot', { mode: 'atomic' });
    await ok('browser_click', { ref: idOf(view, /\[(\d+)\] button 'Remove nickname'/) });
    await ok('browser_wait_for', { text: 'Section picked by the page' });
    const h = await ok('browser_history', {});
    assert.match(h, /- agent set Edit summary to 'typo fixed' \(was \(empty\)\)/, h);
    assert.match(h, /- agent set Minor Changes to true \(was false\)/, h);
    assert.match(h, /- agent changed Password \(a secret field: its value is not shown\)/, h);
    assert.match(h, /- page set Section to 'End' \(was 'Top'\)/, h);
    assert.doesNotMatch(h, /hunter22/, h);
    assert.doesNotMatch(h, /Internal note|merger plan/, h); // data-agent-hidden: never shown, not even as history

    const u = await ok('browser_undo', { source: 'agent' });
    assert.match(u, /undo agent: 2 put back, 2 left/, u);
    assert.match(u, /- Edit summary c\d+: back to \(empty\)/, u);
    assert.match(u, /- Minor Changes c\d+: back to false/, u);
    assert.match(u, /- Nickname: the control has left the page/, u);
    assert.match(u, /- Password: a secret field/, u);
    assert.doesNotMatch(u, /hunter22/, u);
    const v = await ok('browser_snapshot', { mode: 'atomic' });
    assert.match(v, /checkbox 'Minor Changes'[^\n]*checked: false/, v);
    assert.doesNotMatch(v, /typo fixed/, v);
    assert.match(v, /option 'End'[^\n]*selected: True/, v); // the page's own choice stays
  } finally {
    await close();
  }
});

// The real DokuWiki (native provider): its login form filled (a secret password among the fields) and its
// search field typed into atomically, then put back; logged in, the edit form's summary, minor-edit box and
// the editor itself (its replace tool) changed and put back, while the login form's values, sent with that
// page, are left and said to be.
test('DokuWiki (native): login, search and edit forms put back after the agent changed them; what a page sent is left', { timeout: 600000 }, async () => {
  const wiki = await startWiki();
  const { ok, close } = await session(['--secrets', wiki.secrets]);
  try {
    let view = await ok('browser_navigate', { url: `${wiki.url}/doku.php?id=start&do=login` });
    const login = idOf(view, /\[(c\d+)\] form 'Log In'/);
    await ok('browser_fill_form', { fields: [
      { ref: login, name: 'Username', type: 'textbox', value: 'mira' },
      { ref: login, name: 'Password', type: 'textbox', value: '{{secret:WIKI_PASSWORD}}' },
      { ref: login, name: 'Remember me', type: 'checkbox', value: true },
    ] });
    view = await ok('browser_snapshot', { mode: 'atomic' });
    await ok('browser_type', { ref: idOf(view, /\[(\d+)\] textbox '\[F\]'/), text: 'pump' });
    let h = await ok('browser_history', { source: 'agent' });
    assert.match(h, /- agent set Username to 'mira' \(was \(empty\)\)/, h);
    assert.match(h, /- agent set Remember me to true \(was false\)/, h);
    assert.match(h, /- agent set \[F\] to 'pump' \(was \(empty\)\)/, h);
    assert.match(h, /- agent changed Password \(a secret field: its value is not shown\)/, h);
    let u = await ok('browser_undo', { source: 'agent' });
    assert.match(u, /undo agent: 3 put back, 1 left/, u);
    assert.match(u, /- Username c\d+: back to \(empty\)/, u);
    assert.match(u, /- Remember me c\d+: back to false/, u);
    assert.match(u, /- \[F\] c\d+: back to \(empty\)/, u);
    assert.match(u, /- Password: a secret field/, u);
    view = await ok('browser_snapshot', { mode: 'atomic' });
    assert.match(view, /checkbox 'Remember me' checked: false/, view);
    assert.doesNotMatch(view, /'(mira|pump)'/, view);

    // logged in, the edit form: its fields and the editor's text, then the undo
    view = await ok('browser_snapshot', {}); // the hybrid view again: its ids are what the calls name
    await ok('browser_fill_form', { fields: [{ ref: login, name: 'Username', type: 'textbox', value: 'mira' }] });
    view = await ok('browser_call', { component: login, tool: 'submit', params: {} });
    assert.match(view, /Logged in as: Mira Okafor/, view);
    view = await ok('browser_navigate', { url: `${wiki.url}/doku.php?id=start&do=edit` });
    const edit = idOf(view, /\[(c\d+)\] form 'Save'/);
    const editor = idOf(view, /\[(c\d+)\] textbox '' multiline: true/);
    await ok('browser_fill_form', { fields: [
      { ref: edit, name: 'Edit summary', type: 'textbox', value: 'typo fixed' },
      { ref: edit, name: 'Minor Changes', type: 'checkbox', value: true },
    ] });
    await ok('browser_call', { component: editor, tool: 'replace', params: { find: 'lake ice', with: 'lake-ice' } });
    h = await ok('browser_history', { source: 'agent' });
    assert.match(h, /- agent set Edit summary to 'typo fixed' \(was \(empty\)\)/, h);
    assert.match(h, /- agent set Minor Changes to true \(was false\)/, h);
    // the editor's long text: the part that changed, not its head (the same before and after)
    assert.match(h, /- agent set wikitext to '…[^'\n]*lake-ice monitoring[^'\n]*…' \(was '…[^'\n]*lake ice monitoring[^'\n]*…'\)/, h);
    u = await ok('browser_undo', { source: 'agent' });
    assert.match(u, /- Edit summary c\d+: back to \(empty\)/, u);
    assert.match(u, /- Minor Changes c\d+: back to false/, u);
    assert.match(u, /- Username: changed on an earlier page: what that page sent stays sent/, u);
    assert.match(u, /Requests the page already sent are not reversed/, u);
    view = await ok('browser_snapshot', {});
    assert.match(view, /lake ice monitoring/, view);
    assert.doesNotMatch(view, /lake-ice|typo fixed/, view);
    assert.match(view, new RegExp(`\\[${edit}\\] form 'Save' →`), view); // no values left on the form's line
  } finally {
    await close();
    await wiki.stop();
  }
});

test('WebMCP page: fields the page\'s tools set for the agent and one the agent typed, put back; a data-agent-confirm form refuses', { timeout: 600000 }, async () => {
  const { ok, close } = await session();
  try {
    const view = await ok('browser_navigate', { url: `${fixtures}/mcp_history/webmcp.html` });
    const form = idOf(view, /\[(c\d+)\] form '([^']*)'/);
    await ok('browser_webmcp_call', { name: 'set_theme', arguments: { theme: 'Sepia' } });
    await ok('browser_webmcp_call', { name: 'share_data', arguments: {} });
    await ok('browser_fill_form', { fields: [{ ref: form, name: 'Display name', type: 'textbox', value: 'Bo' }] });
    const h = await ok('browser_history', { source: 'agent' });
    assert.match(h, /- agent set Theme to 'Sepia' \(was 'Light'\)/, h);
    assert.match(h, /- agent set Display name to 'Bo' \(was 'Ann'\)/, h);
    assert.match(h, /- agent set Share my data to true \(was false\)/, h);
    const u = await ok('browser_undo', { source: 'agent' });
    assert.match(u, /undo agent: 2 put back, 1 left/, u);
    // the restoring call goes through confirmation as any action: no elicitation here, so it is refused and said
    assert.match(u, /- Share my data c\d+: refused: Needs a person: Sharing settings need the account owner/, u);
    assert.match(u, /- Theme c\d+: back to 'Light'/, u);
    assert.match(u, /- Display name c\d+: back to 'Ann'/, u);
    const v = await ok('browser_snapshot', { mode: 'atomic' });
    assert.match(v, /option 'Light'[^\n]*selected: True/, v);
    assert.match(v, /textbox 'Display name'[^\n]*\n[^\n]*'Ann'/, v);
  } finally {
    await close();
  }
});

test('a change the page already sent (a saved form, a new page) stays listed and is left: the answer says so', { timeout: 600000 }, async () => {
  const { ok, close } = await session();
  try {
    const view = await ok('browser_navigate', { url: `${fixtures}/mcp_history/edit.html` });
    const form = idOf(view, /\[(c\d+)\] form 'Edit'/);
    await ok('browser_fill_form', { fields: [{ ref: form, name: 'Summary', type: 'textbox', value: 'first draft' }] });
    await ok('browser_call', { component: form, tool: 'submit', params: {} });
    await ok('browser_wait_for', { text: 'Saved with summary: first draft' });
    const h = await ok('browser_history', {});
    assert.match(h, /- agent set Summary to 'first draft' \(was \(empty\)\)/, h); // kept across the page load
    const u = await ok('browser_undo', { source: 'agent' });
    assert.match(u, /undo agent: 0 put back, 1 left/, u);
    assert.match(u, /- Summary: changed on an earlier page: what that page sent stays sent \(http:\/\/127\.0\.0\.1:\d+\/mcp_history\/edit\.html\)/, u);
    assert.match(u, /Requests the page already sent are not reversed/, u);
  } finally {
    await close();
  }
});

test('browser_undo and browser_history: bad input is one line naming what was expected', { timeout: 600000 }, async () => {
  const { call, close } = await session();
  try {
    let r = await call('browser_undo', {});
    assert.equal(r.isError, true);
    assert.match(text(r), /^browser_undo: expected \{source: "agent"\}/);
    r = await call('browser_history', { source: 'robot' });
    assert.equal(r.isError, true);
    assert.match(text(r), /^browser_history: source 'robot': expected agent, page or person/);
  } finally {
    await close();
  }
});

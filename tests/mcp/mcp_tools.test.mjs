// tests/mcp/mcp_tools.test.mjs — the tools eous mcp took from Playwright MCP
// (issue 53): browser_fill_form, browser_file_upload, browser_handle_dialog,
// driven by the official MCP SDK client over stdio against real Chromium on
// loopback pages (tests/fixtures/mcp_tools, served here on a free port).
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_tools.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EOUS, LONG, root, serve, session as mcpSession, stopServers, text } from './support.mjs';

let fixture;

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  fixture = await serve(join(root, 'tests/fixtures/mcp_tools'));
});

after(stopServers);

const session = (args = [], env = {}) => mcpSession(args, { name: 'eous-tools-test', env });

test('browser_fill_form: every field kind through the form\'s own setter, each read back; a refused field names itself', { timeout: 600000 }, async () => {
  const { client, call, close } = await session();
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    assert.ok(names.includes('browser_fill_form'), 'browser_fill_form missing from tools/list');
    let r = await call('browser_navigate', { url: `${fixture}/form.html` });
    assert.equal(r.isError, false, text(r));
    const form = text(r).match(/\[(c\d+)\] form 'Booking'/)?.[1];
    const closeForm = text(r).match(/\[(c\d+)\] form 'Close account'/)?.[1];
    assert.ok(form && closeForm, `forms not in the view:\n${text(r)}`);
    r = await call('browser_fill_form', { fields: [
      { ref: form, name: 'Full name', type: 'textbox', value: 'Ann Lee' },
      { ref: form, name: 'Day', type: 'date', value: '2027-03-04' },
      { ref: form, name: 'Guests', type: 'textbox', value: '12' }, // above the field's max: refused, the rest go on
      { ref: form, name: 'Noise', type: 'slider', value: '8' },
      { ref: form, name: 'Room', type: 'combobox', value: 'Terrace' },
      { ref: form, name: 'Meal', type: 'radio', value: 'Fish' },
      { ref: form, name: 'Send news', type: 'checkbox', value: 'true' },
      { ref: closeForm, name: 'I am sure', type: 'checkbox', value: true }, // data-agent-confirm, no elicitation
    ] });
    const out = text(r);
    assert.equal(r.isError, true, out);
    assert.match(out, /2 of 8 fields failed/);
    assert.match(out, /'Full name' c\d+: set, now 'Ann Lee'/);
    assert.match(out, /'Day' c\d+: set, now '2027-03-04'/);
    assert.match(out, /'Guests' c\d+: FAILED: .*Guests must be an integer within 1\.\.8/);
    assert.match(out, /'Noise' c\d+: set, now '8'/);
    assert.match(out, /'Room' c\d+: set, now 'Terrace'/);
    assert.match(out, /'Meal' c\d+: set, now 'Fish'/);
    assert.match(out, /'Send news' c\d+: set, now true/);
    assert.match(out, /'I am sure' c\d+: FAILED: Needs a person: Closing an account cannot be undone/);
    // the page's own form holds them: submitting sends each value
    r = await call('browser_call', { component: form, tool: 'submit', params: {} });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /sent: name=Ann\+Lee&day=2027-03-04&guests=&noise=8&room=out&meal=fish&news=on/, text(r));

    r = await call('browser_fill_form', { fields: [{ ref: form, type: 'textbox', value: 'x' }] });
    assert.equal(r.isError, true);
    assert.match(text(r), /expected \{ref, name, type/);
  } finally {
    await close();
  }
});

test('browser_fill_form in the atomic view: typed, selected, clicked as the atomic tools do, read back from the view', { timeout: 600000 }, async () => {
  const { call, close } = await session(['--mode', 'atomic']);
  try {
    let r = await call('browser_navigate', { url: `${fixture}/form.html` });
    const view = text(r);
    const id = (re) => { const m = view.match(re); assert.ok(m, `${re} not in:\n${view}`); return m[1]; };
    r = await call('browser_fill_form', { fields: [
      { ref: id(/\[(\d+)\] textbox 'Full name'/), name: 'Full name', type: 'textbox', value: 'Bo Chen' },
      { ref: id(/\[(\d+)\] Date 'Day'/), name: 'Day', type: 'date', value: '2027-05-06' },
      { ref: id(/\[(\d+)\] combobox 'Room'/), name: 'Room', type: 'combobox', value: 'Inside' },
      { ref: id(/\[(\d+)\] radio 'Vegetarian'/), name: 'Vegetarian', type: 'radio', value: true },
      { ref: id(/\[(\d+)\] checkbox 'Send news'/), name: 'Send news', type: 'checkbox', value: true },
      { ref: '9999', name: 'Ghost', type: 'textbox', value: 'boo' },
    ] });
    const out = text(r);
    assert.match(out, /1 of 6 fields failed/, out);
    assert.match(out, /'Full name' \d+: set, now \[\d+\] textbox 'Full name'.*shows 'Bo Chen'/);
    assert.match(out, /'Day' \d+: set, now \[\d+\] Date 'Day', shows '05' '\/' '06'.* '2027'/);
    assert.match(out, /'Room' \d+: set, now \[\d+\] combobox 'Room'.*shows 'Inside'/);
    assert.match(out, /'Vegetarian' \d+: set, now \[\d+\] radio 'Vegetarian' checked: true/);
    assert.match(out, /'Send news' \d+: set, now \[\d+\] checkbox 'Send news'.*checked: true/);
    assert.match(out, /'Ghost' 9999: FAILED: .*no \[9999\]/);
  } finally {
    await close();
  }
});

test('browser_file_upload: names in --files DIR reach the page; outside it, a symlink out or a control character are refused; no --files says so', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-files-'));
  const files = join(dir, 'files');
  try {
    writeFileSync(join(dir, 'outside.txt'), 'not for the page\n');
    mkdirSync(files);
    writeFileSync(join(files, 'a.txt'), 'receipt one\n');
    writeFileSync(join(files, 'b.txt'), 'receipt two\n');
    symlinkSync(join(dir, 'outside.txt'), join(files, 'link.txt'));
    for (const mode of ['hybrid', 'atomic']) {
      const { client, call, close } = await session(['--files', files, '--mode', mode]);
      try {
        const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
        assert.ok(names.includes('browser_file_upload'), 'browser_file_upload missing from tools/list');
        let r = await call('browser_navigate', { url: `${fixture}/upload.html` });
        assert.equal(r.isError, false, text(r));
        r = await call('browser_file_upload', { paths: ['a.txt', 'b.txt'] });
        assert.equal(r.isError, false, `${mode}: ${text(r)}`);
        assert.match(text(r), /uploaded 2 files/);
        assert.match(text(r), /got a\.txt: receipt one/, `${mode}: the page did not get a.txt:\n${text(r)}`);
        assert.match(text(r), /got b\.txt: receipt two/);
        for (const [bad, why] of [['../outside.txt', /outside the files folder/], [join(dir, 'outside.txt'), /outside the files folder/],
          ['link.txt', /leads outside the files folder .*a symlink/], ['a\nb.txt', /'a\\x0ab\.txt' holds a control character/],
          ['none.txt', /no file 'none\.txt'/]]) {
          r = await call('browser_file_upload', { paths: [bad] });
          assert.equal(r.isError, true, `${mode}: ${bad} was taken: ${text(r)}`);
          assert.match(text(r), why);
          assert.doesNotMatch(text(r), /not for the page/);
        }
      } finally {
        await close();
      }
    }
    const { call, close } = await session();
    try {
      await call('browser_navigate', { url: `${fixture}/upload.html` });
      const r = await call('browser_file_upload', { paths: ['a.txt'] });
      assert.equal(r.isError, true);
      assert.match(text(r), /^browser_file_upload: eous mcp was started without --files DIR; uploads take files only from there$/m);
    } finally {
      await close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('browser_handle_dialog: a dialog an action opens is named in its answer; an answer armed first or given while it is open reaches the page; a secret prompt answer is never shown', { timeout: 600000 }, async () => {
  const SECRET = 'dlg-S3cret-4471';
  const { client, call, close } = await session([], { EOUS_SECRET_MCP_DIALOG: SECRET });
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    assert.ok(names.includes('browser_handle_dialog'), 'browser_handle_dialog missing from tools/list');
    let r = await call('browser_navigate', { url: `${fixture}/dialog.html` });
    const view = text(r);
    const id = (label) => view.match(new RegExp(`button \\[(\\d+)\\] '${label}'`))?.[1];
    const [rename, del, later] = [id('Rename'), id('Delete'), id('Ask later')];
    assert.ok(rename && del && later, view);

    r = await call('browser_click', { ref: del }); // no answer armed: the driver dismisses it, the answer names it
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /the page opened confirm "Delete the draft\?" \(dismissed\)/);
    assert.match(text(r), /browser_handle_dialog/);
    assert.match(text(r), /draft kept/);

    r = await call('browser_handle_dialog', { accept: true, promptText: 'Plan B' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /the next one this page opens will be accepted with "Plan B"/);
    r = await call('browser_click', { ref: rename });
    assert.match(text(r), /prompt "New name for the draft\?" \(answered: accepted with "Plan B"\)/, text(r));
    assert.match(text(r), /renamed to Plan B/);

    r = await call('browser_handle_dialog', { accept: true });
    r = await call('browser_click', { ref: del });
    assert.match(text(r), /confirm "Delete the draft\?" \(answered: accepted\)/, text(r));
    assert.match(text(r), /draft deleted/);

    // a dialog a timer opens after the action stays open until the next call, which answers it
    r = await call('browser_click', { ref: later });
    await new Promise((ok) => setTimeout(ok, 2500));
    r = await call('browser_handle_dialog', { accept: true });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /answered the open dialog "Still there\?": accepted/, text(r));
    assert.match(text(r), /still there/);

    r = await call('browser_handle_dialog', { accept: true, promptText: '{{secret:MCP_DIALOG}}' });
    assert.equal(r.isError, false, text(r));
    r = await call('browser_click', { ref: rename });
    assert.match(text(r), /answered: accepted with "\[redacted\]"/, text(r));
    assert.ok(!JSON.stringify(r).includes(SECRET), `the secret is in the answer: ${text(r)}`);

    r = await call('browser_handle_dialog', { accept: 'yes' });
    assert.equal(r.isError, true);
    assert.match(text(r), /expected \{accept: true\|false/);
  } finally {
    await close();
  }
});

test('browser_console_messages, browser_network_requests: what the page logged and fetched since it loaded, by level, static resources left out, credentials redacted', { timeout: 600000 }, async () => {
  const { client, call, close } = await session();
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    for (const n of ['browser_console_messages', 'browser_network_requests'])
      assert.ok(names.includes(n), `${n} missing from tools/list`);
    let r = await call('browser_navigate', { url: `${fixture}/console.html` });
    assert.match(text(r), /3 orders/, text(r));
    r = await call('browser_console_messages');
    assert.equal(r.isError, false, text(r));
    assert.deepEqual(text(r).trim().split('\n'), [
      '[info] page started {"orders":3}', '[warning] slow answer from the server', '[error] could not load the avatar',
      `[error] Uncaught Error: boom in a timer (${fixture}/console.html:17)`]);
    r = await call('browser_console_messages', { level: 'error' });
    assert.equal(text(r).trim().split('\n').length, 2, text(r));
    assert.doesNotMatch(text(r), /slow answer/);
    r = await call('browser_console_messages', { level: 'debug' });
    assert.match(text(r), /^\[debug\] debug detail 41$/m);
    r = await call('browser_console_messages', { level: 'loud' });
    assert.equal(r.isError, true);
    assert.match(text(r), /level 'loud': expected error, warning, info or debug/);

    r = await call('browser_network_requests');
    assert.equal(r.isError, false, text(r));
    const lines = text(r).trim().split('\n');
    assert.equal(lines[0], `GET ${fixture}/console.html → 200 (document)`);
    assert.ok(lines.includes(`GET ${fixture}/data.json?token=[redacted]&page=2 → 200 (fetch)`), text(r));
    assert.ok(lines.some((l) => l.startsWith(`POST ${fixture}/missing-endpoint → 4`) && l.endsWith('(xhr)')), text(r));
    assert.doesNotMatch(text(r), /tok-9c1e5a77/);
    assert.doesNotMatch(text(r), /style\.css/);
    assert.match(text(r), /static resources left out/);
    r = await call('browser_network_requests', { includeStatic: true });
    assert.match(text(r), new RegExp(`GET ${fixture}/style\\.css → 200 \\(link\\)`));

    // a new page starts both records afresh
    r = await call('browser_click', { ref: text(await call('browser_snapshot')).match(/button \[(\d+)\] 'Log again'/)[1] });
    assert.match(text(await call('browser_console_messages')), /\[info\] clicked again/);
    await call('browser_navigate', { url: `${fixture}/find.html` });
    assert.match(text(await call('browser_console_messages')), /^no console messages at info or above since this page loaded$/m);
    r = await call('browser_network_requests');
    assert.equal(text(r).trim(), `GET ${fixture}/find.html → 200 (document)`);
  } finally {
    await close();
  }
});

test('browser_find: the lines of a long view that match, with ids and their heading; browser_resize: the page sees the new width', { timeout: 600000 }, async () => {
  const { client, call, close } = await session();
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    for (const n of ['browser_find', 'browser_resize']) assert.ok(names.includes(n), `${n} missing from tools/list`);
    let r = await call('browser_navigate', { url: `${fixture}/find.html` });
    const whole = text(r).length;
    r = await call('browser_find', { text: 'rusty' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /^under heading 'Section 27':\n {2}button \[\d+\] 'Delete the rusty anchor'$/m);
    assert.ok(text(r).length < whole / 20, `find answered ${text(r).length} of the view's ${whole} characters`);
    r = await call('browser_find', { role: 'link', name: 'details 3.4' });
    assert.match(text(r), /under heading 'Section 3':\n {2}link \[(\d+)\] 'details 3\.4'/);
    const id = text(r).match(/link \[(\d+)\]/)[1];
    r = await call('browser_click', { ref: id }); // the id found is the view's
    assert.match(text(r), /details 3\.4/);
    r = await call('browser_find', { text: 'Item 1' });
    assert.match(text(r), /more lines match: narrow the search/);
    r = await call('browser_find', { text: 'zebra' });
    assert.match(text(r), /no line of the view matches text 'zebra'/);

    r = await call('browser_find', { text: 'window' });
    assert.match(text(r), /wide window/);
    r = await call('browser_resize', { width: 480, height: 700 });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /the window is now 480 x 700/);
    assert.match(text(r), /narrow window/, text(r));
    r = await call('browser_resize', { width: 5, height: 700 });
    assert.equal(r.isError, true);
  } finally {
    await close();
  }
});

test('native WebMCP: a page tool that throws reaches the client with its own message, word for word (an Error and a string)', { timeout: 600000 }, async () => {
  const { call, close } = await session();
  try {
    let r = await call('browser_navigate', { url: `${fixture}/webmcp.html` });
    assert.equal(r.isError, false, text(r));
    r = await call('browser_console_messages');
    assert.match(text(r), /\[info\] webmcp: native/, 'this Chromium has no native WebMCP: the test needs it');
    r = await call('browser_webmcp_call', { name: 'book_sunday', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /^book_sunday\.book_sunday: the page's tool failed: the rooms are closed on Sundays \(rule 7\.2\)$/m);
    assert.doesNotMatch(text(r), /invocation failed/);
    r = await call('page_call_doctor', {});
    assert.equal(r.isError, true);
    assert.match(text(r), /^call_doctor\.call_doctor: the page's tool failed: no doctor on duty today: try ward B$/m);
  } finally {
    await close();
  }
});

// tests/mcp/mcp_caps.test.mjs — browser_drag, browser_pdf_save and the --caps
// storage, tracing and vision tools of eous mcp (issue 53, mcp/mcp_caps.c),
// driven by the official MCP SDK client over stdio against real Chromium on
// loopback pages (tests/fixtures/mcp_caps, served here on a free port).
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_caps.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EOUS, root, serve, session as mcpSession, stopServers, text } from './support.mjs';

const ALL_CAPS = 'pdf,storage,tracing,vision';
let fixture;

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  fixture = await serve(join(root, 'tests/fixtures/mcp_caps'));
});

after(stopServers);

const session = (args = []) => mcpSession(args, { name: 'eous-caps-test' });

// the id the view gives a line matching re (its first group)
function idIn(view, re) {
  const m = view.match(re);
  assert.ok(m, `${re} not in the view:\n${view}`);
  return m[1];
}

const CAP_TOOLS = {
  pdf: ['browser_pdf_save'],
  storage: ['browser_cookie_list', 'browser_cookie_get', 'browser_cookie_set', 'browser_cookie_delete',
    'browser_cookie_clear', 'browser_storage_state', 'browser_set_storage_state',
    ...['local', 'session'].flatMap((a) => ['list', 'get', 'set', 'delete', 'clear'].map((o) => `browser_${a}storage_${o}`))],
  tracing: ['browser_start_tracing', 'browser_stop_tracing'],
  vision: ['browser_mouse_move_xy', 'browser_mouse_click_xy', 'browser_mouse_drag_xy', 'browser_mouse_down',
    'browser_mouse_up', 'browser_mouse_wheel'],
};

test('tools/list: browser_drag always; each opt-in tool only under its --caps, and uncallable without it', { timeout: 600000 }, async () => {
  let s = await session();
  try {
    const names = await s.names();
    assert.ok(names.includes('browser_drag'), 'browser_drag missing from tools/list');
    for (const tools of Object.values(CAP_TOOLS))
      for (const t of tools) assert.ok(!names.includes(t), `${t} offered without its capability`);
    await assert.rejects(s.call('browser_cookie_list'), /Unknown tool: browser_cookie_list/);
  } finally {
    await s.close();
  }
  for (const [cap, tools] of Object.entries(CAP_TOOLS)) {
    s = await session(['--caps', cap]);
    try {
      const names = await s.names();
      for (const t of tools) assert.ok(names.includes(t), `${t} missing under --caps ${cap}`);
      for (const [other, more] of Object.entries(CAP_TOOLS))
        if (other !== cap) for (const t of more) assert.ok(!names.includes(t), `${t} offered under --caps ${cap}`);
    } finally {
      await s.close();
    }
  }
});

test('browser_drag: HTML5 drag and drop carries the card\'s data from dragstart to drop; a pointer sortable gets every move; role \'name\' in the hybrid view; a confirm-marked target is refused', { timeout: 600000 }, async () => {
  let s = await session(['--mode', 'atomic']);
  try {
    let r = await s.call('browser_navigate', { url: `${fixture}/dnd.html` });
    let view = text(r);
    r = await s.call('browser_drag', { startElement: 'Card A', startRef: idIn(view, /\[(\d+)\] generic 'Card A'/),
      endElement: 'Done', endRef: idIn(view, /\[(\d+)\] region 'Done'/) });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /moved Card A to Done/, 'the drop handler did not get the card from the DataTransfer');
    assert.match(text(r), /HTML5 drag and drop: the browser's own dragstart and drop/);
    // a card whose mousedown cancels the browser's drag: the sequence dispatched in the page moves it
    view = text(await s.call('browser_snapshot'));
    r = await s.call('browser_drag', { startRef: idIn(view, /\[(\d+)\] generic 'Card C'/),
      endRef: idIn(view, /\[(\d+)\] region 'Done'/) });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /moved Card C to Done \(dispatched\)/, 'no drop reached the page');
    assert.match(text(r), /dispatched in the page, the driver's pointer drag fired none/);
    // a target under data-agent-confirm needs a person: refused without elicitation, nothing moved
    view = text(await s.call('browser_snapshot'));
    r = await s.call('browser_drag', { startRef: idIn(view, /\[(\d+)\] generic 'Card B'/),
      endRef: idIn(view, /\[(\d+)\] region 'Archive'/) });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /Needs a person: Archived cards are deleted tonight/);
    view = text(await s.call('browser_snapshot'));
    assert.match(view, /moved Card C to Done/, `the refused drag moved something:\n${view}`);

    r = await s.call('browser_navigate', { url: `${fixture}/sortable.html` });
    view = text(r);
    r = await s.call('browser_drag', { startRef: idIn(view, /\[(\d+)\] StaticText 'Delta'/),
      endRef: idIn(view, /\[(\d+)\] StaticText 'Alpha'/) });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /pointer: pressed, moved in \d+ steps, released/);
    assert.match(text(r), /order: Delta, Alpha, Bravo, Charlie/, 'the sortable did not follow the pointer');

    r = await s.call('browser_drag', { startRef: '9999', endRef: '1' });
    assert.equal(r.isError, true);
    assert.match(text(r), /no \[9999\] in the current view/);
  } finally {
    await s.close();
  }
  s = await session();
  try {
    await s.call('browser_navigate', { url: `${fixture}/dnd.html` });
    const r = await s.call('browser_drag', { startRef: "generic 'Card B'", endRef: "region 'Done'" });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /moved Card B to Done/);
  } finally {
    await s.close();
  }
});

test('browser_pdf_save (--caps pdf): a PDF in --out DIR, the audit log\'s folder or the server\'s own, named in the answer; names outside the folder refused', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-caps-'));
  try {
    let s = await session(['--caps', 'pdf', '--audit', join(dir, 'audit.jsonl')]);
    try {
      await s.call('browser_navigate', { url: `${fixture}/vision.html` });
      let r = await s.call('browser_pdf_save', { filename: 'points.pdf' });
      assert.equal(r.isError, false, text(r));
      assert.match(text(r), new RegExp(`saved the page as PDF: ${join(dir, 'points.pdf')} \\(\\d+ bytes`));
      assert.equal(readFileSync(join(dir, 'points.pdf')).subarray(0, 5).toString(), '%PDF-');
      for (const [bad, why] of [['../out.pdf', /no folders/], ['sub/out.pdf', /no folders/], ['..', /a \. or \.\. part/],
        ['a\tb.pdf', /control character/]]) {
        r = await s.call('browser_pdf_save', { filename: bad });
        assert.equal(r.isError, true, `${bad} was taken: ${text(r)}`);
        assert.match(text(r), why);
      }
      assert.ok(!existsSync(join(dirname(dir), 'out.pdf')));
      symlinkSync('/dev/null', join(dir, 'link.pdf'));
      r = await s.call('browser_pdf_save', { filename: 'link.pdf' }); // replaced, never written through
      assert.equal(r.isError, false, text(r));
      assert.equal(readFileSync(join(dir, 'link.pdf')).subarray(0, 5).toString(), '%PDF-');
    } finally {
      await s.close();
    }
    s = await session(['--caps', 'pdf', '--out', join(dir, 'out'), '--audit', join(dir, 'audit.jsonl')]);
    try { // --out wins over the audit log's folder
      await s.call('browser_navigate', { url: `${fixture}/vision.html` });
      const r = await s.call('browser_pdf_save');
      assert.match(text(r), new RegExp(`saved the page as PDF: ${join(dir, 'out')}/page-[\\d-]+\\.pdf`), text(r));
    } finally {
      await s.close();
    }
    s = await session(['--caps', 'pdf']);
    try {
      await s.call('browser_navigate', { url: `${fixture}/vision.html` });
      const r = await s.call('browser_pdf_save');
      assert.equal(r.isError, false, text(r));
      const file = text(r).match(/saved the page as PDF: (\S+eous-mcp-\w+\/page-[\d-]+\.pdf)/)?.[1];
      assert.ok(file, text(r));
      assert.equal(readFileSync(file).subarray(0, 5).toString(), '%PDF-');
      rmSync(dirname(file), { recursive: true, force: true });
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--caps storage: a cookie-setting login listed, saved as a Playwright storageState, cleared and restored; cookie set/get/delete; a bad state file applies nothing', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-caps-'));
  const s = await session(['--caps', 'storage', '--audit', join(dir, 'audit.jsonl')]);
  try {
    let r = await s.call('browser_navigate', { url: `${fixture}/login.html` });
    const form = idIn(text(r), /\[(c\d+)\] form 'Sign in'/);
    r = await s.call('browser_call', { component: form, tool: 'fill', params: { User: 'ann' } });
    r = await s.call('browser_call', { component: form, tool: 'submit', params: {} });
    r = await s.call('browser_snapshot');
    assert.match(text(r), /signed in as ann, theme dark/, text(r));

    r = await s.call('browser_cookie_list');
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /- session=ann \(domain 127\.0\.0\.1, path \/, expires \d{4}-/);
    r = await s.call('browser_cookie_list', { domain: 'example.com' });
    assert.match(text(r), /^no cookies$/m);

    r = await s.call('browser_storage_state', { filename: 'ann.json' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), new RegExp(`saved the storage state to ${join(dir, 'ann.json')}: 1 cookies, localStorage of http://127\\.0\\.0\\.1:\\d+ \\(1 keys\\)`));
    const state = JSON.parse(readFileSync(join(dir, 'ann.json'), 'utf8'));
    assert.deepEqual(state.cookies.map((c) => [c.name, c.value, c.domain, c.path, c.sameSite]), [['session', 'ann', '127.0.0.1', '/', 'Lax']]);
    assert.deepEqual(state.origins, [{ origin: fixture, localStorage: [{ name: 'theme', value: 'dark' }] }]);

    // signed out: cookie and localStorage gone; the restore brings both back
    r = await s.call('browser_click', { ref: idIn(text(await s.call('browser_snapshot')), /button \[(\d+)\] 'Sign out'/) });
    assert.match(text(r), /signed out/);
    r = await s.call('browser_navigate', { url: 'about:blank' });
    // not a state file: one line, and nothing applied (the cookie set now stays)
    writeFileSync(join(dir, 'bad.json'), '{"cookies": [{"name": "x"}]}');
    r = await s.call('browser_cookie_set', { name: 'keep', value: 'me', domain: '127.0.0.1' });
    assert.equal(r.isError, false, text(r));
    for (const [file, why] of [['bad.json', /bad\.json: a cookie without its name, value or domain \(Playwright's storageState format\)/],
      ['none.json', /none\.json: no such file/], ['../ann.json', /no folders/]]) {
      r = await s.call('browser_set_storage_state', { filename: file });
      assert.equal(r.isError, true, text(r));
      assert.match(text(r), why);
    }
    assert.match(text(await s.call('browser_cookie_get', { name: 'keep' })), /- keep=me/);

    r = await s.call('browser_set_storage_state', { filename: 'ann.json' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /restored the storage state from .*ann\.json: 1 cookies \(the browser's others cleared\); localStorage of http:\/\/127\.0\.0\.1:\d+ \(1 keys\) set at its first page in this tab/);
    r = await s.call('browser_navigate', { url: `${fixture}/login.html` });
    assert.match(text(r), /signed in as ann, theme dark/, `the restored state did not reach the page:\n${text(r)}`);
    r = await s.call('browser_cookie_get', { name: 'keep' });
    assert.equal(r.isError, true, 'cookies from before the restore should be cleared');

    r = await s.call('browser_cookie_set', { name: 'session', value: 'bo' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /set cookie session for http:\/\/127\.0\.0\.1/);
    r = await s.call('browser_navigate', { url: `${fixture}/login.html` });
    assert.match(text(r), /signed in as bo/);
    r = await s.call('browser_cookie_delete', { name: 'session' });
    assert.match(text(r), /deleted cookie session/);
    r = await s.call('browser_cookie_get', { name: 'session' });
    assert.equal(r.isError, true);
    assert.match(text(r), /no cookie named 'session'/);
    await s.call('browser_cookie_set', { name: 'a', value: '1' });
    r = await s.call('browser_cookie_clear');
    assert.match(text(r), /cleared every cookie/);
    assert.match(text(await s.call('browser_cookie_list')), /^no cookies$/m);
    const audit = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
    assert.match(audit, /"action":"cookie_set"/);
    assert.match(audit, /"action":"storage_state_load"/);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--caps storage: the policy refuses a cookie for a site it does not allow and a rule denies cookie_clear', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-caps-'));
  writeFileSync(join(dir, 'policy.json'), JSON.stringify({ navigation: { allow: ['http://127.0.0.1:*'] },
    rules: [{ effect: 'deny', action: 'cookie_clear', reason: 'keep the sessions' }] }));
  const s = await session(['--caps', 'storage', '--policy', join(dir, 'policy.json')]);
  try {
    await s.call('browser_navigate', { url: `${fixture}/login.html` });
    let r = await s.call('browser_cookie_set', { name: 'x', value: '1', domain: 'evil.example' });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /cookie for evil\.example/);
    r = await s.call('browser_cookie_clear');
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /keep the sessions/);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--caps tracing: a trace of the browser, saved as JSON trace events in the output folder', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-caps-'));
  const s = await session(['--caps', 'tracing', '--audit', join(dir, 'audit.jsonl')]);
  try {
    let r = await s.call('browser_stop_tracing');
    assert.equal(r.isError, true);
    assert.match(text(r), /no trace is recording/);
    r = await s.call('browser_start_tracing');
    assert.equal(r.isError, false, text(r));
    const file = text(r).match(/writes it to (\S+\/trace-[\d-]+\.json)/)?.[1];
    assert.ok(file && file.startsWith(dir), text(r));
    r = await s.call('browser_start_tracing');
    assert.match(text(r), /already recording/);
    await s.call('browser_navigate', { url: `${fixture}/sortable.html` });
    r = await s.call('browser_stop_tracing');
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), new RegExp(`saved the trace \\(.*JSON trace events.*\\) to ${file}`));
    const trace = JSON.parse(readFileSync(file, 'utf8'));
    assert.ok(Array.isArray(trace.traceEvents) && trace.traceEvents.length > 10, 'no trace events');
    assert.ok(trace.traceEvents.some((e) => JSON.stringify(e).includes('sortable.html')), 'the page load is not in the trace');
    // again: a second trace in the same session
    r = await s.call('browser_start_tracing', { filename: 'second.json' });
    assert.equal(r.isError, false, text(r));
    r = await s.call('browser_stop_tracing');
    assert.equal(r.isError, false, text(r));
    assert.ok(existsSync(join(dir, 'second.json')));
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--caps vision: click, move and drag at viewport points answer with the view; what is under the point is checked as a click on it', { timeout: 600000 }, async () => {
  const s = await session(['--caps', 'vision']);
  try {
    await s.call('browser_navigate', { url: `${fixture}/vision.html` });
    let r = await s.call('browser_mouse_click_xy', { element: 'Alpha', x: 80, y: 40 });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /click at \(80, 40\) on \[\d+\] button 'Alpha': done/);
    assert.match(text(r), /clicked Alpha \(detail 1\)/);
    r = await s.call('browser_mouse_click_xy', { x: 260, y: 40, clickCount: 2 });
    assert.match(text(r), /clicked Beta \(detail 2\)/, text(r));
    r = await s.call('browser_mouse_move_xy', { x: 80, y: 40 });
    assert.match(text(r), /hovering Alpha/, text(r));
    r = await s.call('browser_mouse_drag_xy', { startX: 40, startY: 320, endX: 300, endY: 420 });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /drew from \(40,320\) to \(300,420\) through several moves/);
    // data-agent-confirm over the point: a person is needed; data-agent-hidden: refused; nothing clicked
    r = await s.call('browser_mouse_click_xy', { x: 80, y: 140 });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /Needs a person: Paying spends the card's money/);
    r = await s.call('browser_mouse_click_xy', { x: 260, y: 140 });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /click at \(260, 140\) on .* is refused: the target is inside data-agent-hidden/);
    r = await s.call('browser_mouse_click_xy', { x: 5000, y: 40 });
    assert.equal(r.isError, true);
    assert.match(text(r), /outside the viewport/);
    r = await s.call('browser_snapshot');
    assert.match(text(r), /drew from/, `a refused click reached the page:\n${text(r)}`);
  } finally {
    await s.close();
  }
});

test('--caps vision: browser_mouse_down, _up and _wheel where the mouse is; a press, a release and a wheel are checked as a click and a scroll on what is under the point', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eous-mcp-caps-'));
  writeFileSync(join(dir, 'policy.json'), JSON.stringify({ navigation: { allow: ['http://127.0.0.1:*'] }, rules: [
    { effect: 'deny', action: 'click', label: 'Beta', reason: 'Beta is for people' },
    { effect: 'deny', action: 'scroll', label: 'Locked list', reason: 'the locked list stays put' }] }));
  const s = await session(['--caps', 'vision', '--policy', join(dir, 'policy.json')]);
  try {
    await s.call('browser_navigate', { url: `${fixture}/vision.html` });
    let r = await s.call('browser_mouse_down');
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /browser_mouse_down: the mouse has no place yet/);
    // a drawing by hand: move, press, move (the button held), release
    await s.ok('browser_mouse_move_xy', { x: 40, y: 320 });
    r = await s.call('browser_mouse_down', {});
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /press left at \(40, 320\) on .*'Drawing pad': done/);
    await s.ok('browser_mouse_move_xy', { x: 300, y: 420 });
    r = await s.call('browser_mouse_down');
    assert.equal(r.isError, true, 'a second press of a held button');
    assert.match(text(r), /the left button is already down/);
    r = await s.call('browser_mouse_up', { button: 'left' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /drew from \(40,320\) to \(300,420\)/, 'the page saw no press, held move and release');
    r = await s.call('browser_mouse_up');
    assert.equal(r.isError, true);
    assert.match(text(r), /the left button is not down/);
    r = await s.call('browser_mouse_down', { button: 'back' });
    assert.match(text(r), /button 'back': expected left, middle or right/);
    // the wheel scrolls what is under the mouse
    await s.ok('browser_mouse_move_xy', { x: 560, y: 360 });
    r = await s.call('browser_mouse_wheel', { deltaY: 200 });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /wheel \(0, 200\) at \(560, 360\) on .*'News': done/);
    assert.match(text(r), /News scrolled to [1-9]\d*/, 'the list under the mouse did not scroll');
    // a rule on what is under the point refuses the press and the wheel; the hover there is allowed
    await s.ok('browser_mouse_move_xy', { x: 260, y: 40 });
    r = await s.call('browser_mouse_down');
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /Beta is for people/);
    await s.ok('browser_mouse_move_xy', { x: 560, y: 160 });
    r = await s.call('browser_mouse_wheel', { deltaY: 300 });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /the locked list stays put/);
    r = await s.call('browser_snapshot');
    assert.doesNotMatch(text(r), /Locked list scrolled|clicked Beta/, `a refused input reached the page:\n${text(r)}`);
    r = await s.call('browser_mouse_wheel', { deltaY: 'lots' });
    assert.match(text(r), /expected \{deltaX\?, deltaY\?\}/);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--caps storage: localStorage and sessionStorage items of the current page listed, read, set, deleted and cleared', { timeout: 600000 }, async () => {
  const s = await session(['--caps', 'storage']);
  try {
    await s.call('browser_navigate', { url: `${fixture}/login.html` });
    for (const area of ['local', 'session']) {
      let r = await s.call(`browser_${area}storage_set`, { key: 'k1', value: 'v1' });
      assert.equal(r.isError, false, text(r));
      assert.match(text(r), new RegExp(`set k1 in ${area}Storage of ${fixture}`));
      await s.call(`browser_${area}storage_set`, { key: 'k2', value: 'v2' });
      r = await s.call(`browser_${area}storage_list`);
      assert.match(text(r), /- k1=v1\n- k2=v2/, text(r));
      r = await s.call(`browser_${area}storage_get`, { key: 'k2' });
      assert.match(text(r), /^k2=v2$/m);
      r = await s.call(`browser_${area}storage_delete`, { key: 'k2' });
      r = await s.call(`browser_${area}storage_get`, { key: 'k2' });
      assert.equal(r.isError, true);
      assert.match(text(r), /has no key 'k2'/);
      r = await s.call(`browser_${area}storage_clear`);
      assert.match(text(r), new RegExp(`cleared ${area}Storage`));
      assert.match(text(await s.call(`browser_${area}storage_list`)), /\(empty\)/);
    }
    const r = await s.call('browser_localstorage_get', {});
    assert.equal(r.isError, true);
    assert.match(text(r), /browser_localstorage_get: expected \{key\}/);
  } finally {
    await s.close();
  }
});

// tests/mcp/mcp_testing.test.mjs — eous mcp --caps testing (mcp/mcp_testing.c):
// browser_verify_element_visible, browser_verify_text_visible, browser_verify_list_visible,
// browser_verify_value and browser_generate_locator with Playwright MCP's names and arguments,
// answered from eous's view, driven by the official MCP SDK client over stdio against real
// Chromium on a loopback page (tests/fixtures/mcp_testing, served here on a free port).
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_testing.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EOUS, PLAYGROUND_DIST, root, serve, session as mcpSession, stopServers, text } from './support.mjs';

const DIST = PLAYGROUND_DIST;
let fixture, playground;
before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  assert.ok(existsSync(join(DIST, 'app.js')), 'benchmarks/grounds/playground/dist missing: bash scripts/build-site');
  fixture = await serve(join(root, 'tests/fixtures/mcp_testing'));
  playground = await serve(DIST);
});
after(stopServers);

const session = (args = []) => mcpSession(args, { name: 'eous-testing-test' });
const TOOLS = ['browser_verify_element_visible', 'browser_verify_text_visible', 'browser_verify_list_visible',
  'browser_verify_value', 'browser_generate_locator'];

function idIn(view, re) {
  const m = view.match(re);
  assert.ok(m, `${re} not in the view:\n${view}`);
  return m[1];
}

// a call that must fail, its text matching why
async function fails(s, tool, args, why) {
  const r = await s.call(tool, args);
  assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)} passed: ${text(r)}`);
  assert.match(text(r), why);
  return text(r);
}

test('tools/list: the verify tools and browser_generate_locator only under --caps testing', { timeout: 600000 }, async () => {
  let s = await session();
  try {
    const names = await s.names();
    for (const t of TOOLS) assert.ok(!names.includes(t), `${t} offered without --caps testing`);
  } finally {
    await s.close();
  }
  s = await session(['--caps', 'testing']);
  try {
    const names = await s.names();
    for (const t of TOOLS) assert.ok(names.includes(t), `${t} missing under --caps testing`);
  } finally {
    await s.close();
  }
});

test('--caps testing: each check passes on what the view shows and fails clearly on what it does not (hidden regions, invisible text and secret values never confirmed)', { timeout: 600000 }, async () => {
  const s = await session(['--caps', 'testing', '--mode', 'atomic']);
  try {
    const view = await s.ok('browser_navigate', { url: `${fixture}/index.html` });
    // element by role and name
    let t = await s.ok('browser_verify_element_visible', { role: 'button', accessibleName: 'Pay now' });
    assert.match(t, /^Done: \[\d+\] button 'Pay now' is visible/);
    assert.match(await s.ok('browser_verify_element_visible', { role: 'heading', accessibleName: 'checkout' }),
      /Done: .*heading 'Checkout'/, 'a name is matched as getByRole does (case ignored)');
    t = await fails(s, 'browser_verify_element_visible', { role: 'button', accessibleName: 'Cancel' },
      /Element with role "button" and accessible name "Cancel" not found \(the page's buttons: 'Pay now', 'Save', 'Save'\)/);
    assert.doesNotMatch(t, /Refund/, 'a button under data-agent-hidden was named');
    await fails(s, 'browser_verify_element_visible', { role: 'button', accessibleName: 'Refund' }, /not found/);
    await fails(s, 'browser_verify_element_visible', { role: 'button' }, /expected \{role, accessibleName\}/);
    // text
    assert.match(await s.ok('browser_verify_text_visible', { text: 'oat  MILK' }), /Done: "oat  MILK" is visible/);
    await fails(s, 'browser_verify_text_visible', { text: 'Staff discount' }, /Text not found: "Staff discount"/);
    await fails(s, 'browser_verify_text_visible', { text: 'Invisible note' }, /Text not found/);
    await fails(s, 'browser_verify_text_visible', { text: 'hunter2' }, /Text not found/);
    // list
    const basket = idIn(view, /\[(\d+)\] list 'Basket'/);
    t = await s.ok('browser_verify_list_visible', { element: 'Basket', target: basket, items: ['Green tea', 'Rye bread'] });
    assert.match(t, /Done: \[\d+\] list 'Basket' shows all 2 items/);
    await fails(s, 'browser_verify_list_visible', { element: 'Basket', target: basket, items: ['Green tea', 'Butter'] },
      /Item "Butter" not found in \[\d+\] list 'Basket'/);
    await fails(s, 'browser_verify_list_visible', { target: '9999', items: ['x'] }, /there is no \[9999\] a person can see/);
    // value
    const name = idIn(view, /\[(\d+)\] textbox 'Name'/), gift = idIn(view, /\[(\d+)\] checkbox 'Gift wrap'/);
    const news = idIn(view, /\[(\d+)\] checkbox 'Newsletter'/), pw = idIn(view, /\[(\d+)\] textbox 'Password'/);
    assert.match(await s.ok('browser_verify_value', { type: 'textbox', element: 'Name', target: name, value: 'Ada Lovelace' }),
      /Done: \[\d+\] textbox 'Name' has value "Ada Lovelace"/);
    await fails(s, 'browser_verify_value', { type: 'textbox', target: name, value: 'Grace' },
      /Expected value "Grace", but got "Ada Lovelace"/);
    await s.ok('browser_verify_value', { type: 'checkbox', target: `[${gift}]`, value: 'true' });
    await fails(s, 'browser_verify_value', { type: 'checkbox', target: news, value: 'true' }, /Expected value "true", but got "false"/);
    t = await fails(s, 'browser_verify_value', { type: 'textbox', target: pw, value: 'hunter2-secret' },
      /a secret field's value is never compared/);
    await fails(s, 'browser_verify_value', { type: 'button', target: name, value: 'x' }, /expected \{type: textbox, checkbox/);
    // locators
    assert.equal((await s.ok('browser_generate_locator', { element: 'Pay', target: idIn(view, /\[(\d+)\] button 'Pay now'/) })).trim(),
      "getByRole('button', { name: 'Pay now', exact: true })");
    const saves = [...view.matchAll(/\[(\d+)\] button 'Save'/g)].map((x) => x[1]);
    assert.equal((await s.ok('browser_generate_locator', { target: saves[1] })).trim(),
      "getByRole('button', { name: 'Save', exact: true }).nth(1)");
  } finally {
    await s.close();
  }
});

test('--caps testing on the Playground (CI4A): a component id checked against its state, a locator for it', { timeout: 600000 }, async () => {
  const s = await session(['--caps', 'testing']);
  try {
    const view = await s.ok('browser_navigate', { url: `${playground}/booking` });
    const guests = idIn(view, /\[(c\d+)\] inputnumber 'Guests'/);
    const breakfast = idIn(view, /\[(c\d+)\] checkbox 'Breakfast included'/);
    assert.match(await s.ok('browser_verify_value', { type: 'textbox', element: 'Guests', target: guests, value: '2' }),
      new RegExp(`Done: .*'Guests' has value "2"`));
    await fails(s, 'browser_verify_value', { type: 'textbox', target: guests, value: '5' }, /Expected value "5", but got "2"/);
    await s.ok('browser_verify_value', { type: 'checkbox', target: breakfast, value: 'false' });
    await s.ok('browser_call', { component: breakfast, tool: 'check', params: {} });
    await s.ok('browser_verify_value', { type: 'checkbox', target: breakfast, value: 'true' });
    assert.match(await s.ok('browser_generate_locator', { target: guests }), /^getByRole\('\w+', \{ name: '[^']*Guests[^']*', exact: true \}\)/);
  } finally {
    await s.close();
  }
});

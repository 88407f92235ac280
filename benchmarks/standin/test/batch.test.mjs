// Batching: the allowed size from the request; value-setting steps may be
// followed, anything that navigates or changes the page ends the reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRequest } from '../lib/request.mjs';
import { userText, openaiBody, anthropicBody, decideOn, view, HYBRID_TOOLS } from './fixtures.mjs';

const OBJ = 'Apply as Ada Lovelace (ada@example.com, Ireland) and press Next';
const first = (mode) => userText({ objective: OBJ, observation: view(`apply.${mode}`) });
const ATOMIC = [
  { type: "textbox '* Full name'", text: 'Ada Lovelace' },
  { type: "textbox '* Email'", text: 'ada@example.com' },
  { click: "button 'Next'" },
  { stop: '' },
];
const task = (atomic_script, script = []) => [{ task_id: 1, intent: OBJ, script, atomic_script }];
const SYS3 = 'You may answer with several actions (at most 3) when …';

test('the batch size: parallel_tool_calls false or disable_parallel_tool_use → 1; else "at most N"; else 1', () => {
  const f = first('atomic');
  assert.equal(readRequest('openai', openaiBody({ first: f, system: SYS3 })).maxBatch, 3);
  assert.equal(readRequest('openai', openaiBody({ first: f, system: SYS3, parallel: false })).maxBatch, 1);
  assert.equal(readRequest('anthropic', anthropicBody({ first: f, system: SYS3 })).maxBatch, 3);
  assert.equal(readRequest('anthropic', anthropicBody({ first: f, system: SYS3, parallel: false })).maxBatch, 1);
  assert.equal(readRequest('openai', openaiBody({ first: f, system: 'no size said' })).maxBatch, 1);
});

test('type without enter may be followed; the click ends the reply; the stop is never batched', () => {
  const d = decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 8' }), task(ATOMIC));
  assert.deepEqual(d.calls.map((c) => c.name), ['type', 'type', 'click']);
  assert.deepEqual(d.calls[2].args, { id: '2721' });
  const one = decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 8', parallel: false }), task(ATOMIC));
  assert.equal(one.calls.length, 1);
  const cap = decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 2' }), task(ATOMIC));
  assert.equal(cap.calls.length, 2);
});

test('type with enter, a click, an antd select end the reply; a native select (hasPopup: menu) may be followed', () => {
  const enter = [{ type: "textbox '* Full name'", text: 'Ada Lovelace', enter: true }, ...ATOMIC.slice(1)];
  assert.equal(decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 8' }), task(enter)).calls.length, 1);
  const click = [{ click: "textbox '* Full name'" }, ...ATOMIC.slice(1)];
  assert.equal(decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 8' }), task(click)).calls.length, 1);
  const antd = [{ select: "combobox '* Country of residence'", option: 'Ireland' }, ...ATOMIC];
  assert.equal(decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 8' }), task(antd)).calls.length, 1);
  const native = "[1] RootWebArea 'f'\n\t[2] combobox 'Country' hasPopup: menu expanded: False\n\t[3] button 'Next'";
  const nat = [{ select: "combobox 'Country'", option: 'Ireland' }, { click: "button 'Next'" }];
  const d = decideOn('openai', openaiBody({ first: userText({ objective: OBJ, observation: native }), system: 'at most 8' }), task(nat));
  assert.deepEqual(d.calls.map((c) => c.name), ['select', 'click']);
});

test('a later step whose target the view does not show ends the batch (no stop)', () => {
  const missing = [ATOMIC[0], { type: "textbox 'Phone'", text: 'Ada Lovelace' }, ATOMIC[2]];
  const d = decideOn('openai', openaiBody({ first: first('atomic'), system: 'at most 8' }), task(missing));
  assert.deepEqual(d.calls.map((c) => c.name), ['type']);
});

test('hybrid: setValue on a form field may be followed, a click tool ends; a plan array is steps in order', () => {
  const script = [[
    { call: 'Full name', tool: 'setValue', params: { text: 'Ada Lovelace' } },
    { call: 'Email', tool: 'setValue', params: { text: 'ada@example.com' } },
  ], { call: 'Next', tool: 'click', params: {} }, { call: 'Country of residence', tool: 'setValue', params: { value: 'Ireland' } }];
  const d = decideOn('openai', openaiBody({ first: userText({ objective: OBJ, observation: view('apply-open.hybrid') }),
    system: 'at most 8', tools: HYBRID_TOOLS }), task([], script));
  assert.deepEqual(d.calls.map((c) => c.args.k), ['c4', 'c5', 'c7']);
  assert.match(d.text, /^step 1: input 'Full name' is \[c4\]; step 2: .*step 3: button 'Next' is \[c7\]/);
});

test("a form's fill() sets fields and may be followed (its submit button, in the same reply); submit() ends it", () => {
  const obs = "[c1] form 'Project' → fill(Project name?) submit(as in fill)\n\tbutton [7] 'Save'";
  const intent = 'Rename the project to "Atlas Portal".';
  const plan = (tool) => [{ task_id: 1, intent, atomic_script: [],
    script: [{ call: "form 'Project'", tool, params: { 'Project name': 'Atlas Portal' } }, { click: "button 'Save'" }, { stop: '' }] }];
  const fill = decideOn('openai', openaiBody({ first: userText({ objective: intent, observation: obs }), system: 'at most 8',
    tools: HYBRID_TOOLS }), plan('fill'));
  assert.deepEqual(fill.calls.map((c) => c.name), ['call', 'click']);
  const submit = decideOn('openai', openaiBody({ first: userText({ objective: intent, observation: obs }), system: 'at most 8',
    tools: HYBRID_TOOLS }), plan('submit'));
  assert.deepEqual(submit.calls.map((c) => c.name), ['call']);
});

test("a native field's value tools may be followed (a textarea's replace, then its form's submit); a combobox's select ends", () => {
  const obs = "[c1] form 'Save' → fill(wikitext?) submit(as in fill)\n\t[c2] textbox '' multiline: true → setValue(value) " +
    "clear() replace(find, ≥1 chars; with)\n\t\t| Status | paused |\n[c3] combobox 'Lang' → select(option)";
  const intent = 'Change the status to active.';
  const plan = (first) => [{ task_id: 1, intent, atomic_script: [], script: [first, { call: "form 'Save'", tool: 'submit' }, { stop: '' }] }];
  const ask = (p) => decideOn('openai', openaiBody({ first: userText({ objective: intent, observation: obs }), system: 'at most 8',
    tools: HYBRID_TOOLS }), p);
  const rep = ask(plan({ call: "textbox ''", tool: 'replace', params: { find: 'paused', with: 'active' } }));
  assert.deepEqual(rep.calls.map((c) => [c.args.k, c.args.tool]), [['c2', 'replace'], ['c1', 'submit']]);
  const combo = ask(plan({ call: "combobox 'Lang'", tool: 'select', params: { option: 'active' } }));
  assert.deepEqual(combo.calls.map((c) => c.args.k), ['c3']);
});

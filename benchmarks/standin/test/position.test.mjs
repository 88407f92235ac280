// Where in the plan: ok results of the first user message's PREVIOUS ACTIONS
// block plus ok tool results after it; a retry after one error, a stop after two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { userText, openaiBody, anthropicBody, decideOn } from './fixtures.mjs';

const OBJ = 'Fill A with alpha and B with beta, press Go, then answer done';
const OBS = `Tab 0 (current): Form
[1] RootWebArea 'Form'
	[2] textbox 'A'
	[3] textbox 'B'
	[4] button 'Go'`;
const TASK = { task_id: 1, intent: OBJ, script: [{ stop: 'done' }], atomic_script: [
  { type: "textbox 'A'", text: 'alpha' },
  { type: "textbox 'B'", text: 'beta' },
  { click: "button 'Go'" },
  { stop: 'done' },
] };
const first = (previous) => userText({ objective: OBJ, previous, observation: OBS });
const step = (p, body) => decideOn(p, body, [TASK]);

for (const provider of ['openai', 'anthropic']) {
  const build = provider === 'openai' ? openaiBody : anthropicBody;

  test(`${provider}: no previous actions → the first step`, () => {
    const d = step(provider, build({ first: first([]) }));
    assert.deepEqual(d.calls, [{ name: 'type', args: { id: '2', text: 'alpha', enter: false } }]);
    assert.equal(d.position, 0);
  });

  test(`${provider}: ok lines of PREVIOUS ACTIONS count, error and not-run lines do not`, () => {
    const d = step(provider, build({ first: first(["type [2] [alpha] [0] -> ok: typed 'alpha'",
      'click [9] -> error: no element with id [9]', 'click [4] -> not run: the batch stopped']) }));
    assert.equal(d.position, 1);
    assert.equal(d.calls[0].args.id, '3');
  });

  test(`${provider}: ok tool results after the first message count too`, () => {
    const d = step(provider, build({
      first: first(["type [2] [alpha] [0] -> ok: typed"]),
      turns: [{ calls: [{ name: 'type', args: { id: '3', text: 'beta' } }], results: ['ok: typed beta'], user: userText({ objective: OBJ, observation: OBS }) }],
    }));
    assert.equal(d.position, 2);
    assert.deepEqual(d.calls, [{ name: 'click', args: { id: '4' } }]);
  });

  test(`${provider}: a later user message's PREVIOUS ACTIONS block is not counted`, () => {
    const later = userText({ objective: OBJ, observation: OBS, previous: ['a -> ok: x', 'b -> ok: y', 'c -> ok: z'] });
    const d = step(provider, build({
      first: first([]),
      turns: [{ calls: [{ name: 'type', args: { id: '2', text: 'alpha' } }], results: ['ok: typed'], user: later }],
    }));
    assert.equal(d.position, 1);
  });

  test(`${provider}: after one error the same step again, after two a stop naming it`, () => {
    const errorTurn = { calls: [{ name: 'type', args: { id: '3', text: 'beta' } }], results: ['error: the field is disabled'],
      errors: [true], user: userText({ objective: OBJ, observation: OBS }) };
    const once = step(provider, build({ first: first(['type [2] [alpha] [0] -> ok: typed']), turns: [errorTurn] }));
    assert.equal(once.position, 1);
    assert.deepEqual(once.calls, [{ name: 'type', args: { id: '3', text: 'beta', enter: false } }]);
    const twice = step(provider, build({ first: first(['type [2] [alpha] [0] -> ok: typed', 'type [3] [beta] [0] -> error: the field is disabled']),
      turns: [errorTurn] }));
    assert.deepEqual(twice.calls, [{ name: 'stop', args: { answer: "cannot do type textbox 'B': the field is disabled" } }]);
  });
}

test('anthropic: is_error without an error: prefix is an error', () => {
  const d = step('anthropic', anthropicBody({
    first: first([]),
    turns: [{ calls: [{ name: 'type', args: { id: '2', text: 'alpha' } }], results: ['the page refused'], errors: [true],
      user: userText({ objective: OBJ, observation: OBS }) }],
  }));
  assert.equal(d.position, 0);
  assert.match(d.text, /again/);
});

test('an unknown objective answers a stop, not an HTTP error', () => {
  const d = step('openai', openaiBody({ first: userText({ objective: 'Something else', observation: OBS }) }));
  assert.deepEqual(d.calls, [{ name: 'stop', args: { answer: 'cannot see a task for this objective' } }]);
});

test('tools with call → the script (hybrid), without → atomic_script', () => {
  const d = step('openai', openaiBody({ first: first([]), tools: ['call', 'click', 'stop'] }));
  assert.equal(d.plan, 'script');
  assert.deepEqual(d.calls, [{ name: 'stop', args: { answer: 'done' } }]);
});

// Usage as the providers bill it: o200k tokens of the whole request with
// FRAME tokens per message/tool and PRIME for the reply; caching per the
// providers' published rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Caches, FRAME, PRIME, completionTokens, openaiTokens } from '../lib/usage.mjs';

const n = (s) => encode(s).length;
// a text of exactly k o200k tokens (" word" is one token each)
const words = (k, w = 'apple') => Array.from({ length: k }, () => ` ${w}`).join('');

test('the whole request is counted: tools, system, messages, tool calls and results, framing', () => {
  const tool = { type: 'function', function: { name: 'click', description: 'Click an element.',
    parameters: { type: 'object', properties: { id: { type: 'string', description: 'its id' },
      side: { type: 'string', enum: ['left', 'right'] } } } } };
  const body = { model: 'm', tools: [tool], messages: [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: [{ type: 'text', text: 'OBJECTIVE: x' }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"id":"3"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'ok: clicked' },
  ] };
  // OpenAI's published count for a function: 7, name:description (no final stop), 3 for the
  // properties, 3 + name:type:description each, an enum's items 3 + the item each (its own 3 dropped), 12 after
  const toolTokens = 7 + n('click:Click an element') + 3 + 3 + n('id:string:its id')
    + 3 + n('left') + 3 + n('right') + n('side:string:') + 12;
  const expected = toolTokens + FRAME + n('You are an agent.') + FRAME + n('OBJECTIVE: x')
    + FRAME + n('click') + n('{"id":"3"}') + FRAME + n('ok: clicked') + n('call_1') + PRIME;
  assert.equal(new Caches().openaiUsage(body).prompt_tokens, expected);
  assert.equal(FRAME, 3);
});

test('completion tokens: each call\'s name and JSON arguments, and the text', () => {
  const calls = [{ name: 'type', args: { id: '2', text: 'Ada', enter: false } }];
  assert.equal(completionTokens(calls, 'step 1: Name is [2]'),
    n('type') + n('{"id":"2","text":"Ada","enter":false}') + n('step 1: Name is [2]'));
});

test('OpenAI: the longest prefix shared with an earlier prompt, from 1024 tokens, in steps of 128', () => {
  const c = new Caches();
  const sys = words(1500);
  const a = { model: 'm', messages: [{ role: 'system', content: sys }, { role: 'user', content: 'first question' }] };
  const b = { model: 'm', messages: [{ role: 'system', content: sys }, { role: 'user', content: 'second' }] };
  assert.equal(c.openaiUsage(a).cached_tokens, 0);
  const shared = FRAME + 1500 + FRAME; // the user frame is shared, its text is not
  assert.equal(openaiTokens(b).slice(0, shared).join(), openaiTokens(a).slice(0, shared).join());
  assert.equal(c.openaiUsage(b).cached_tokens, 1024 + Math.floor((shared - 1024) / 128) * 128);
  // another model shares nothing; a prefix under 1024 tokens is not cached
  assert.equal(c.openaiUsage({ ...b, model: 'other' }).cached_tokens, 0);
  const short = { model: 's', messages: [{ role: 'system', content: words(900) }, { role: 'user', content: 'q' }] };
  c.openaiUsage(short);
  assert.equal(c.openaiUsage(short).cached_tokens, 0);
});

test('Anthropic: read and written only up to a cache_control breakpoint of ≥ 1024 tokens', () => {
  const c = new Caches();
  const sysText = words(1200, 'pear');
  const body = (q) => ({ model: 'claude', max_tokens: 10,
    system: [{ type: 'text', text: sysText, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: q }] });
  const bp = FRAME + 1200;
  const total = (q) => bp + FRAME + n(q) + PRIME;
  assert.deepEqual(c.anthropicUsage(body('one')),
    { input_tokens: total('one') - bp, cache_read_input_tokens: 0, cache_creation_input_tokens: bp });
  assert.deepEqual(c.anthropicUsage(body('two two')),
    { input_tokens: total('two two') - bp, cache_read_input_tokens: bp, cache_creation_input_tokens: 0 });
  // a second breakpoint later: the first is read, the part up to the second written
  const two = body('three');
  two.messages = [{ role: 'user', content: [{ type: 'text', text: words(50, 'plum'), cache_control: { type: 'ephemeral' } }] }];
  const bp2 = bp + FRAME + 50;
  assert.deepEqual(c.anthropicUsage(two),
    { input_tokens: bp2 + PRIME - bp2, cache_read_input_tokens: bp, cache_creation_input_tokens: bp2 - bp });
  // without a breakpoint nothing is cached, however long the prompt
  const none = { model: 'claude', max_tokens: 10, system: sysText, messages: [{ role: 'user', content: 'x' }] };
  c.anthropicUsage(none);
  assert.deepEqual(c.anthropicUsage(none), { input_tokens: FRAME + 1200 + FRAME + n('x') + PRIME,
    cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  // under 1024 tokens a breakpoint caches nothing
  const small = { model: 'claude', max_tokens: 10, system: [{ type: 'text', text: 'short', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: 'x' }] };
  c.anthropicUsage(small);
  assert.equal(c.anthropicUsage(small).cache_read_input_tokens, 0);
});

test('Anthropic: more than 4 breakpoints is refused', () => {
  const cc = { cache_control: { type: 'ephemeral' } };
  const body = { model: 'c', max_tokens: 1, system: [1, 2, 3, 4, 5].map((i) => ({ type: 'text', text: `b${i}`, ...cc })),
    messages: [{ role: 'user', content: 'x' }] };
  assert.throws(() => new Caches().anthropicUsage(body), /A maximum of 4 blocks with cache_control/);
});

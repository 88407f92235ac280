// The server over HTTP on a free loopback port: reply shapes of both APIs,
// their error shapes (401, 400, 404), the log (no headers, no key), SIGTERM.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userText, openaiBody, anthropicBody } from './fixtures.mjs';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'standin.mjs');
const KEY = 'sk-test-do-not-log-4242';
const INTENT = 'Open the Users page';
const OBS = "Tab 0 (current): Home\n\n[1] RootWebArea 'Home'\n\t[2] menuitem 'Users'";
let dir, child, base, logFile;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-'));
  fs.mkdirSync(path.join(dir, 'tasks'));
  fs.writeFileSync(path.join(dir, 'tasks', '1.json'), JSON.stringify({ task_id: 1, intent: INTENT,
    script: [{ stop: '' }], atomic_script: [{ click: "menuitem 'Users'" }, { stop: '' }] }));
  logFile = path.join(dir, 'log.jsonl');
  child = spawn(process.execPath, [SERVER, '--tasks', path.join(dir, 'tasks'), '--log', logFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /PORT (\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`standin exited with ${code}`)));
  });
  base = `http://127.0.0.1:${port}`;
});

after(() => {
  if (child && child.exitCode === null) child.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = async (p, body, headers = { authorization: `Bearer ${KEY}` }) => {
  const r = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};
const first = userText({ objective: INTENT, observation: OBS });

test('OpenAI: a chat.completion with tool_calls, finish_reason tool_calls, usage with cached_tokens', async () => {
  for (const p of ['/v1/chat/completions', '/chat/completions']) {
    const { status, json } = await post(p, openaiBody({ first }));
    assert.equal(status, 200);
    assert.equal(json.object, 'chat.completion');
    const choice = json.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.role, 'assistant');
    assert.match(choice.message.content, /^step 1: menuitem 'Users' is \[2\]/);
    assert.equal(choice.message.tool_calls[0].type, 'function');
    assert.equal(choice.message.tool_calls[0].function.name, 'click');
    assert.equal(typeof choice.message.tool_calls[0].function.arguments, 'string');
    assert.deepEqual(JSON.parse(choice.message.tool_calls[0].function.arguments), { id: '2' });
    assert.ok(json.usage.prompt_tokens > 0 && json.usage.completion_tokens > 0);
    assert.equal(json.usage.total_tokens, json.usage.prompt_tokens + json.usage.completion_tokens);
    assert.equal(json.usage.prompt_tokens_details.cached_tokens, 0);
  }
});

test('OpenAI: tool call ids are unique in a reply', async () => {
  const body = openaiBody({ first, system: 'at most 4' });
  body.messages[1].content = userText({ objective: INTENT, observation: OBS });
  const { json } = await post('/v1/chat/completions', body);
  const ids = json.choices[0].message.tool_calls.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
});

test('Anthropic: a message with tool_use blocks, stop_reason tool_use, usage with cache fields', async () => {
  const { status, json } = await post('/v1/messages', anthropicBody({ first }), { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
  assert.equal(status, 200);
  assert.equal(json.type, 'message');
  assert.equal(json.stop_reason, 'tool_use');
  const use = json.content.find((b) => b.type === 'tool_use');
  assert.deepEqual([use.name, use.input], ['click', { id: '2' }]);
  assert.deepEqual(Object.keys(json.usage).sort(),
    ['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens']);
  // tool_choice any: no text before the tool use, as the API prefills the turn
  assert.equal(json.content.filter((b) => b.type === 'text').length, 0);
  const auto = anthropicBody({ first });
  auto.tool_choice = { type: 'auto' };
  const r2 = await post('/v1/messages', auto, { 'x-api-key': KEY });
  assert.match(r2.json.content[0].text, /^step 1/);
});

test('401 without a key, in each provider\'s shape', async () => {
  const o = await post('/v1/chat/completions', openaiBody({ first }), {});
  assert.equal(o.status, 401);
  assert.equal(o.json.error.type, 'invalid_request_error');
  assert.equal(o.json.error.code, 'invalid_api_key');
  const a = await post('/v1/messages', anthropicBody({ first }), {});
  assert.equal(a.status, 401);
  assert.deepEqual(a.json, { type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } });
});

test('400 invalid_request_error: malformed JSON, no model, no messages, no tools', async () => {
  const o = await post('/v1/chat/completions', '{"model": ');
  assert.equal(o.status, 400);
  assert.equal(o.json.error.type, 'invalid_request_error');
  const noModel = openaiBody({ first });
  delete noModel.model;
  assert.equal((await post('/v1/chat/completions', noModel)).json.error.param, 'model');
  const a = await post('/v1/messages', { model: 'c', max_tokens: 5 }, { 'x-api-key': KEY });
  assert.equal(a.status, 400);
  assert.equal(a.json.error.type, 'invalid_request_error');
  const noTools = openaiBody({ first });
  delete noTools.tools;
  const t = await post('/v1/chat/completions', noTools);
  assert.equal(t.status, 400);
  assert.match(t.json.error.message, /needs tool calling/);
});

test('404 for unknown paths', async () => {
  const o = await post('/v1/completions', {});
  assert.equal(o.status, 404);
  assert.equal(o.json.error.type, 'invalid_request_error');
  const a = await post('/v1/messages/batches', {}, { 'x-api-key': KEY });
  assert.equal(a.status, 404);
  assert.equal(a.json.error.type, 'not_found_error');
});

test('the log: one JSON line per request with path, size, tokens, decision, reason; never the key', async () => {
  await post('/v1/chat/completions', openaiBody({ first }));
  const text = fs.readFileSync(logFile, 'utf8');
  assert.ok(!text.includes(KEY));
  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.ok(lines.every((l) => !('headers' in l)));
  const last = JSON.parse(text.trimEnd().split('\n').pop());
  assert.equal(last.path, '/v1/chat/completions');
  assert.ok(last.bytes > 0);
  assert.ok(last.usage.prompt_tokens > 0);
  assert.deepEqual(last.decision, [{ name: 'click', args: { id: '2' } }]);
  assert.match(last.reason, /menuitem 'Users' is \[2\]/);
});

test('bad arguments: one line naming the input, exit 2', () => {
  const r = spawnSync(process.execPath, [SERVER, '--port', 'x', '--tasks', dir], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'standin: --port x: expected a port number 0..65535\n');
  const r2 = spawnSync(process.execPath, [SERVER, '--tasks', path.join(dir, 'nope')], { encoding: 'utf8' });
  assert.equal(r2.status, 2);
  assert.match(r2.stderr, /^standin: --tasks .*nope: expected a readable directory/);
  // a plan step that names nothing is refused before any request
  const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-bad-'));
  fs.writeFileSync(path.join(bad, '1.json'), JSON.stringify({ intent: 'x', script: [{ click: 'button \'Go\'' }, { click: '' }] }));
  const r3 = spawnSync(process.execPath, [SERVER, '--tasks', bad], { encoding: 'utf8' });
  assert.equal(r3.status, 2);
  assert.equal(r3.stderr, `standin: ${path.join(bad, '1.json')}: script[1]: click names no target; expected e.g. `
    + '{"click": "role \'name\'"} or a component\'s label\n');
  fs.writeFileSync(path.join(bad, '1.json'), JSON.stringify({ intent: 'x', atomic_script: [[{ wait: 1 }]] }));
  const r4 = spawnSync(process.execPath, [SERVER, '--tasks', bad], { encoding: 'utf8' });
  assert.equal(r4.status, 2);
  assert.match(r4.stderr, /atomic_script\[0\.0\]: a step that names nothing; expected one of call, click/);
  fs.rmSync(bad, { recursive: true });
});

test('SIGTERM: exit 0', async () => {
  const code = await new Promise((resolve) => {
    child.once('exit', (c) => resolve(c));
    child.kill('SIGTERM');
  });
  assert.equal(code, 0);
});

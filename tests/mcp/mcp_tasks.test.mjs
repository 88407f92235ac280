// tests/mcp/mcp_tasks.test.mjs — eous mcp --caps tasks (issue 51 item 4): an MCP client as the agent of
// a Playground task, driven by the official MCP SDK client over stdio against real Chromium and the
// Playground served here on a free loopback port: task_list, task_start (the intent and the view),
// browser_* tools in the task's mode, task_submit (the verdict per evaluator), results.jsonl that
// `eous compare` reads; bad input (an unknown task id, a submit before a start, the tools absent
// without --caps tasks).
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_tasks.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EOUS, LONG, PLAYGROUND_DIST, root, serve, session as mcpSession, stopServers, TASKS as TASK_SETS, text } from './support.mjs';

const TASKS = join(TASK_SETS, 'playground');
let site, work;

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  assert.ok(existsSync(join(PLAYGROUND_DIST, 'index.html')), 'the Playground is built (scripts/build-site)');
  site = await serve(PLAYGROUND_DIST);
  work = mkdtempSync(join(tmpdir(), 'eous-mcp-tasks-'));
});

after(() => {
  stopServers();
  if (work) rmSync(work, { recursive: true, force: true });
});

// its Playground is the one served here
const session = (args = []) => mcpSession(args, { name: 'eous-tasks-test', env: { EOUS_SITE_PLAYGROUND: site } });

test('task_start / task_submit: a Playground task scored by its evaluator, each verdict recorded for eous compare', { timeout: 900000 }, async () => {
  const out = join(work, 'run');
  const { client, call, close } = await session(['--caps', 'tasks', '--out', out]);
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    for (const n of ['task_list', 'task_start', 'task_submit']) assert.ok(names.includes(n), `${n} missing`);

    let r = await call('task_list', { path: TASKS });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /^102 task\(s\) in /);
    assert.match(text(r), /^- 15 \(.*015\.json\): Open the travel booking page\.$/m);

    // bad input: a submit with no task open, a task id the file does not have
    r = await call('task_submit', { answer: '' });
    assert.equal(r.isError, true);
    assert.match(text(r), /task_submit: no task is open \(start one with task_start\)/);
    r = await call('task_start', { file: join(TASKS, '015.json'), task_id: 999 });
    assert.equal(r.isError, true);
    assert.match(text(r), /task_start: no task '999' in .*015\.json \(its tasks: 15\)/);

    // task 15 (url_match): submitted where it starts, it fails; after going to the booking page it passes
    r = await call('task_start', { file: join(TASKS, '015.json'), task_id: 15, mode: 'atomic' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /^Task 15 started in atomic mode\. Objective: Open the travel booking page\./);
    assert.match(text(r), new RegExp(`^url: ${site}/`, 'm'));
    r = await call('task_start', { file: join(TASKS, '012.json'), task_id: 12 });
    assert.equal(r.isError, true, 'a second task while one is open');
    assert.match(text(r), /task 15 \(atomic\) is still open: task_submit it first/);
    r = await call('task_submit', { answer: '' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /^Task 15 \(atomic\): failed, score 0\.$/m);
    assert.match(text(r), /^- url_match: failed/m);

    r = await call('task_start', { file: TASKS, task_id: '15', mode: 'hybrid' });
    assert.equal(r.isError, false, text(r));
    r = await call('browser_navigate', { url: `${site}/booking` });
    assert.equal(r.isError, false, text(r));
    r = await call('task_submit', { answer: '' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /^Task 15 \(hybrid\): passed, score 1\.$/m);
    assert.match(text(r), /^- url_match: passed/m);

    // task 12 (string_match): the answer is what is scored
    r = await call('task_start', { file: join(TASKS, '012.json'), task_id: 12, mode: 'hybrid' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /How many room types can be chosen/);
    r = await call('task_submit', { answer: '8' });
    assert.match(text(r), /^Task 12 \(hybrid\): passed, score 1\.$/m);
    assert.match(text(r), /^- string_match: passed/m);

    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.task_id, l.mode, l.status, l.planner]),
      [['15', 'atomic', 'failed', 'mcp'], ['15', 'hybrid', 'passed', 'mcp'], ['12', 'hybrid', 'passed', 'mcp']]);
    assert.equal(lines[2].answer, '8');
    assert.deepEqual(lines[1].evaluators.map((e) => [e.evaluator, e.status]), [['url_match', 'passed']]);
  } finally {
    await close();
  }
  // eous compare reads the folder like a bench's: each task x mode as its last line says
  const cmp = spawnSync(EOUS, ['compare', out, out, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(cmp.status, 0, cmp.stderr);
  assert.match(cmp.stdout, /"15"/, cmp.stdout);
});

test('without --caps tasks the task tools are absent', { timeout: 600000 }, async () => {
  const { client, call, close } = await session([]);
  try {
    const names = (await client.listTools(undefined, LONG)).tools.map((x) => x.name);
    assert.ok(!names.some((n) => n.startsWith('task_')), `task tools offered: ${names.join(', ')}`);
    await assert.rejects(call('task_start', { file: join(TASKS, '015.json'), task_id: 15 }), /Unknown tool: task_start/);
  } finally {
    await close();
  }
});

// tests/mcp/mcp_record.test.mjs — `eous mcp --record DIR` (issue 52: record once, replay without a
// model): an agent's session through the official MCP SDK client, on the Playground served here,
// kept as a run folder; `eous distill DIR` makes it a plain job whose steps name what the views
// printed; `eous run JOB --planner script` replays it with no model and no client, the secret the
// agent typed as {{secret:NAME}} kept by name and never written. Bad input: --record naming a file.
// Run: EOUS_CLI=build/eous node --test tests/mcp/mcp_record.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EOUS, PLAYGROUND_DIST, serve, session, stopServers } from './support.mjs';

const SECRET = 'Zelda Quartermain'; // the secret's value: never in the record, the job or the replay's files
let site, dir;

before(async () => {
  assert.ok(existsSync(EOUS), `${EOUS} missing: build first`);
  site = await serve(PLAYGROUND_DIST);
  dir = mkdtempSync(join(tmpdir(), 'eous-mcp-record-'));
  writeFileSync(join(dir, 'secrets.env'), `GUEST=${SECRET}\n`, { mode: 0o600 });
});

after(() => {
  stopServers();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// eous with args: {code, stdout, stderr}
const eous = (args) => new Promise((ok) => {
  execFile(EOUS, args, { timeout: 300000 }, (e, stdout, stderr) => ok({ code: e ? e.code : 0, stdout, stderr }));
});

// every file under d, read whole
const allText = (d) => readdirSync(d, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
  .map((e) => readFileSync(join(e.parentPath ?? e.path, e.name), 'utf8')).join('\n');

test('a recorded session distils to a job that replays with the script planner; its secret stays a name', { timeout: 600000 }, async () => {
  const rec = join(dir, 'record');
  const s = await session(['--record', rec, '--secrets', join(dir, 'secrets.env')]);
  try {
    const view = await s.ok('browser_navigate', { url: `${site}/booking` });
    const name = view.match(/\[(c\d+)\] input 'Guest name'/)[1];
    const breakfast = view.match(/\[(c\d+)\] checkbox 'Breakfast included'/)[1];
    const guests = view.match(/\[(c\d+)\] inputnumber 'Guests'/)[1];
    await s.ok('browser_call', { component: name, tool: 'setValue', params: { text: '{{secret:GUEST}}' } });
    await s.ok('browser_call', { component: breakfast, tool: 'check', params: {} });
    const r = await s.call('browser_call', { component: guests, tool: 'setValue', params: { value: 99 } });
    assert.equal(r.isError, true, 'a refused call is recorded as failed, and distil drops it');
  } finally {
    await s.close();
  }
  const results = readFileSync(join(rec, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(results.length, 1, 'one session, one line');
  assert.equal(results[0].status, 'recorded');
  assert.match(results[0].task_id, /^mcp-\d{8}T\d{6}Z-\d+-\d+$/);
  const trace = readFileSync(join(rec, 'trace', `${results[0].task_id}-hybrid.jsonl`), 'utf8');
  assert.equal(trace.trim().split('\n').length, 4, trace);
  assert.match(trace, /"error":/, 'the refused call is in the trace with its error');

  const job = join(dir, 'job.json');
  const d = await eous(['distill', rec, '-o', job]);
  assert.equal(d.code, 0, d.stderr);
  const j = JSON.parse(readFileSync(job, 'utf8'));
  assert.equal(j.start_url, `${site}/booking`);
  assert.ok(!j.steps[0].goto && !j.atomic_steps[0].goto, `the job opens start_url itself: ${JSON.stringify(j.steps[0])}`);
  const calls = j.steps.filter((x) => x.call);
  assert.deepEqual(calls.map((x) => [x.call, x.tool]), [["input 'Guest name'", 'setValue'], ["checkbox 'Breakfast included'", 'check']],
    JSON.stringify(j.steps));
  assert.equal(calls[0].params.text, '{{secret:GUEST}}');
  assert.ok(j.atomic_steps.some((x) => x.type === 'Guest name'), JSON.stringify(j.atomic_steps));

  // no model, no client: the job alone, in hybrid and as its atomic steps
  for (const mode of ['hybrid', 'atomic']) {
    const out = join(dir, `replay-${mode}`);
    const run = await eous(['run', job, '--planner', 'script', '--mode', mode, '--secrets', join(dir, 'secrets.env'),
      '--out', out]);
    assert.equal(run.code, 0, `${mode}: ${run.stdout}\n${run.stderr}`);
    const res = JSON.parse(readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n')[0]);
    assert.equal(res.status, 'passed', JSON.stringify(res));
    assert.ok(!allText(out).includes(SECRET), `${mode}: the secret's value is in the replay's files`);
  }
  assert.ok(!allText(rec).includes(SECRET), 'the secret\'s value is in the record');
  assert.ok(!readFileSync(job, 'utf8').includes(SECRET), 'the secret\'s value is in the job');
});

test('--record naming a file is bad input: one line, exit 2, before a browser starts', { timeout: 60000 }, async () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  const r = await eous(['mcp', '--record', file]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^eous mcp: --record .*a-file: expected a folder to keep sessions in \(it is a file\)\n$/);
});

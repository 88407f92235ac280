// benchmarks/perf/own_agent.mjs — own_agent.{md,json} from benchmarks/perf/own_agent.sh's runs:
//
//   node benchmarks/perf/own_agent.mjs OUT_DIR RESULTS_DIR
//
// OUT_DIR holds llm/<ground>, exec/<ground> and exec4/<ground> (eous bench --out folders), commit, load
// and wall.jsonl.  Three findings:
//   1. pass counts and round trips of --planner exec (the Python reference agent) beside --planner llm,
//      task by task where they differ, with each side's stop reason and error;
//   2. the protocol's own cost per step, from the trace lines' agent_ms (agent/loop.c): the agent's
//      line read → its first browser command, and the last settle → the next observation line written
//      with the WebDriver waits (perceiving) taken out, median / p95 / max;
//   3. the --workers 4 run: every trace's agent_line, in order, is a line the agent started for that
//      task wrote (its stderr, trace/<task>-<mode>.agent.stderr: "agent.py: task T step S: LINE").
// Exit 1 when the runs differ or a line reached another task, 2 on bad input.
import fs from 'node:fs';
import path from 'node:path';

const [outDir, resultsDir] = process.argv.slice(2);
if (!outDir || !resultsDir) {
  console.error('usage: node benchmarks/perf/own_agent.mjs OUT_DIR RESULTS_DIR');
  process.exit(2);
}
if (!fs.existsSync(path.join(outDir, 'commit'))) {
  console.error(`own_agent: ${outDir}: expected own_agent.sh's output folder (no commit file)`);
  process.exit(2);
}
const read = (f) => fs.readFileSync(f, 'utf8');
const jsonl = (f) => (fs.existsSync(f) ? read(f).split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
const commit = read(path.join(outDir, 'commit')).trim();
const load = read(path.join(outDir, 'load')).trim().split(/\s+/);
const wall = jsonl(path.join(outDir, 'wall.jsonl'));
const GROUNDS = ['playground', 'dokuwiki'];
const MODES = ['hybrid', 'pruned', 'atomic', 'html'];

// results.jsonl as {task/mode: line}, the last line of a task × mode counting (a resumed run appends)
function results(run, ground) {
  const m = new Map();
  for (const r of jsonl(path.join(outDir, run, ground, 'results.jsonl'))) m.set(`${r.task_id}/${r.mode}`, r);
  return m;
}

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const stats = (xs) => ({ n: xs.length, median: pct(xs, 50), p95: pct(xs, 95), max: xs.length ? Math.max(...xs) : null });
const ms = (v) => (v == null ? '—' : v < 10 ? v.toFixed(2) : v.toFixed(0));
const trio = (s) => `${ms(s.median)} / ${ms(s.p95)} / ${ms(s.max)}`;

// The failed actions a trace holds ("step N: error"), what explains a round trip more (a page that did not
// answer in time on the loaded machine is retried by both planners)
function traceErrors(run, ground, task, mode) {
  const f = path.join(outDir, run, ground, 'trace', `${task}-${mode}.jsonl`);
  return jsonl(f).filter((l) => l.error || l.parse_error || l.agent_error)
    .map((l) => `step ${l.step}: ${String(l.error || l.parse_error || l.agent_error).replace(/\s+/g, ' ').slice(0, 120)}`);
}

// ---- 1. llm vs exec ----------------------------------------------------------------------------
// on the task x mode jobs both ran (a run cut short or made on a slice covers fewer); where a ground has no
// --workers 2 exec run, the --workers 4 one stands in
const side = [];
const diffs = [];
for (const ground of GROUNDS) {
  const a = results('llm', ground);
  const execRun = results('exec', ground).size ? 'exec' : 'exec4';
  const b = results(execRun, ground);
  if (!a.size || !b.size) continue;
  for (const mode of MODES) {
    const both = [...b.keys()].filter((k) => k.endsWith(`/${mode}`) && a.has(k));
    // an infra end (the browser did not answer) is the machine's, not a planner's: left out, counted
    const keys = both.filter((k) => a.get(k).status !== 'infra' && b.get(k).status !== 'infra');
    if (!keys.length) continue;
    const llmJobs = [...a.keys()].filter((k) => k.endsWith(`/${mode}`)).length;
    const row = { ground, mode, tasks: keys.length, llm_jobs: llmJobs, exec_run: execRun, infra: both.length - keys.length,
      llm: { passed: 0, trips: 0 }, exec: { passed: 0, trips: 0 }, differ: 0 };
    for (const k of keys) {
      const x = a.get(k), y = b.get(k);
      for (const [name, r] of [['llm', x], ['exec', y]]) {
        if (!r) continue;
        row[name].passed += r.status === 'passed';
        row[name].trips += r.plan_calls || 0;
      }
      if (!x || !y || x.status !== y.status || x.plan_calls !== y.plan_calls) {
        row.differ++;
        const say = (r) => (r ? { status: r.status, round_trips: r.plan_calls, stop_reason: r.stop_reason,
          error: (r.error || r.eval_detail || '').replace(/\s+/g, ' ').slice(0, 160) } : null);
        const task = k.split('/')[0];
        diffs.push({ ground, mode, task, llm: say(x), exec: say(y),
          why: { llm: traceErrors('llm', ground, task, mode), exec: traceErrors(execRun, ground, task, mode) } });
      }
    }
    side.push(row);
  }
}

// ---- 2. the protocol's cost per step, from the traces ---------------------------------------------
function traces(run, ground) {
  const dir = path.join(outDir, run, ground, 'trace');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f));
}
const cost = [];
const all = { line_to_browser: [], own: [], obs_line: [], settle_to_obs: [] };
for (const run of ['exec', 'exec4']) {
  for (const ground of GROUNDS) {
    for (const mode of MODES) {
      const c = { line_to_browser: [], own: [], obs_line: [], settle_to_obs: [] };
      for (const f of traces(run, ground).filter((f) => f.endsWith(`-${mode}.jsonl`))) {
        for (const l of jsonl(f)) {
          const t = l.agent_ms;
          if (!t) continue;
          if (t.line_to_browser != null) c.line_to_browser.push(t.line_to_browser);
          if (t.obs_line != null) c.obs_line.push(t.obs_line);
          if (t.settle_to_obs != null) {
            c.settle_to_obs.push(t.settle_to_obs);
            c.own.push(Math.max(0, t.settle_to_obs - t.settle_to_obs_browser));
          }
        }
      }
      if (!c.obs_line.length) continue;
      for (const k of Object.keys(all)) all[k].push(...c[k]);
      cost.push({ run, ground, mode, replies: c.obs_line.length, line_to_browser: stats(c.line_to_browser),
        own: stats(c.own), obs_line: stats(c.obs_line), settle_to_obs: stats(c.settle_to_obs) });
    }
  }
}
const total = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, stats(v)]));

// ---- 3. --workers 4: whose lines reached which task -------------------------------------------------
const cross = { traces: 0, lines: 0, mismatches: [] };
for (const ground of GROUNDS) {
  for (const f of traces('exec4', ground)) {
    const base = path.basename(f, '.jsonl');
    const [task, mode] = [base.slice(0, base.lastIndexOf('-')), base.slice(base.lastIndexOf('-') + 1)];
    const got = jsonl(f).filter((l) => l.agent_line != null).map((l) => l.agent_line);
    const errf = f.replace(/\.jsonl$/, '.agent.stderr');
    const wrote = [];
    const who = new Set();
    for (const l of fs.existsSync(errf) ? read(errf).split('\n') : []) {
      const m = /^agent\.py: task (.+?) step (\d+): (.*)$/.exec(l);
      if (!m) continue;
      who.add(m[1]);
      wrote.push(m[3].slice(0, 4096));
    }
    cross.traces++;
    cross.lines += got.length;
    const bad = (why) => cross.mismatches.push({ ground, task, mode, why });
    if (who.size !== 1 || !who.has(task)) bad(`the agent started for it says task ${[...who].join(', ') || '(none)'}`);
    // every line eous read is the agent's next line; the agent's last may go unread (a stop ends the task)
    got.forEach((g, i) => { if (wrote[i] !== g) bad(`reply ${i + 1} is not the line its agent wrote: ${g.slice(0, 80)}`); });
    if (wrote.length < got.length) bad(`${got.length} lines read, the agent wrote ${wrote.length}`);
  }
}
const x2 = results('exec', 'playground'), x4 = results('exec4', 'playground');
const same4 = { tasks: 0, differ: [] };
for (const ground of GROUNDS) {
  const p = results('exec', ground), q = results('exec4', ground);
  for (const [k, r] of q) {
    same4.tasks++;
    const o = p.get(k);
    if (!o || o.status !== r.status || o.plan_calls !== r.plan_calls)
      same4.differ.push({ ground, key: k, workers2: o ? `${o.status} ${o.plan_calls}` : 'absent', workers4: `${r.status} ${r.plan_calls}` });
  }
}
void x2; void x4;

// ---- the files --------------------------------------------------------------------------------------
const out = { commit, load: { start: Number(load[0]), cores: Number(load[1]), end: Number(load[2]) }, side, differences: diffs,
  cost, cost_all_exec: total, workers4: { ...cross, same_as_workers2: same4 }, wall };
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(path.join(resultsDir, 'own_agent.json'), JSON.stringify(out, null, 1) + '\n');

const L = [];
L.push('# Your own agent, measured: the Python reference agent through `--planner exec`', '');
L.push(`Commit ${commit}, ${new Date().toISOString()}. Produced by \`benchmarks/perf/own_agent.sh\` (runs) and ` +
  '`benchmarks/perf/own_agent.mjs` (this file). Both planners run on the stand-in model (`benchmarks/standin/`) at the ' +
  'same endpoint and the same settings (`eous bench` defaults: --history full, deltas on, --max-batch 8, --workers 2): ' +
  '`--planner llm --llm openai:standin` is eous\'s own prompt and loop; `--planner exec --agent \'python3 ' +
  'examples/agents/agent.py\'` is the reference agent (standard library Python, its own conversation) speaking ' +
  `protocol 1. 1-minute load average ${load[0]} at the start, ${load[2] ?? '?'} at the end, ${load[1]} cores, shared ` +
  'with other work: milliseconds are loaded figures.', '');
// how the runs were made when not in one own_agent.sh run (OUT_DIR/notes.md, written by whoever merged them)
const notes = path.join(outDir, 'notes.md');
if (fs.existsSync(notes)) L.push(read(notes).trim(), '');
L.push('## Pass counts and round trips, side by side', '');
L.push('| ground | mode | exec run | tasks compared | infra, left out | passed (llm) | passed (exec) | round trips/task (llm) | round trips/task (exec) | tasks that differ |');
L.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of side)
  L.push(`| ${r.ground} | ${r.mode} | ${r.exec_run === 'exec4' ? '--workers 4' : '--workers 2'} | ${r.tasks} (llm ran ${r.llm_jobs}) | ` +
    `${r.infra} | ${r.llm.passed} | ${r.exec.passed} | ${(r.llm.trips / r.tasks).toFixed(2)} | ${(r.exec.trips / r.tasks).toFixed(2)} | ${r.differ} |`);
L.push('', 'Compared: the task × mode jobs both planners ran, each by the last line results.jsonl holds for it. A job ' +
  'whose last attempt on either side ended infra (the browser did not answer in time on the loaded machine, after ' +
  'the bench\'s retries) is the machine\'s outcome, not a planner\'s: it is left out and counted.');
L.push('');
if (diffs.length) {
  L.push('Tasks where the two differ (status, round trips, stop reason, error):', '');
  for (const d of diffs) {
    const s = (r) => (r ? `${r.status}, ${r.round_trips} round trips, ${r.stop_reason}${r.error ? `: ${r.error}` : ''}` : 'not run');
    const w = (e) => (e.length ? e.join('; ') : 'no failed action');
    L.push(`- ${d.ground} ${d.mode} task ${d.task}: llm ${s(d.llm)}; exec ${s(d.exec)}. Failed actions: llm ${w(d.why.llm)}; ` +
      `exec ${w(d.why.exec)}`);
  }
  const unexplained = diffs.filter((d) => !d.why.llm.length && !d.why.exec.length && !d.llm.error && !d.exec.error);
  const equal = side.reduce((n, r) => n + r.tasks, 0) - diffs.length;
  L.push('', `${equal} of ${equal + diffs.length} compared jobs have the same status and round trips under both planners. ` +
    (unexplained.length ? `${unexplained.length} difference(s) have no failed action or error on either side: ` +
      unexplained.map((d) => `${d.ground} ${d.task}`).join(', ') + '.'
      : 'Every difference has a page that did not answer in time (a page tool past 5 s, or perceiving past its bound) ' +
        'on the side with more round trips or the failure: the loaded machine, not the planner.'));
} else if (side.length) {
  L.push('Every task × mode has the same status and the same round trips under both planners.');
}
L.push('', '## The protocol\'s own cost per step', '');
L.push('From each reply\'s first trace line (`agent_ms`, written by `agent/loop.c` for `--planner exec`), ms as ' +
  'median / p95 / max over the replies. The protocol\'s own cost is two figures: **line → browser**, eous\'s time from ' +
  'the agent\'s line read to the start of its first WebDriver command (the line parsed into actions, the batch, the ' +
  'policy, the action\'s own set-up), and **observation line**, the observation message made, redacted and written to ' +
  'the agent\'s stdin. For context, **settle → observation, eous\'s own** is the whole time from the last action\'s ' +
  'settle to that line written less the WebDriver requests in it: besides the line it holds perceiving\'s own CPU ' +
  'work (the view assembled from what the browser returned, its delta and o200k count, the evidence files), which ' +
  '`--planner llm` spends the same way before its request; **settle → observation, all** keeps the WebDriver ' +
  'requests in. A task\'s first observation follows the start page, not a settle: it has no settle figure. Goal ' +
  '(issue 51): ≤ 2 ms per step.', '');
L.push('| run | ground | mode | replies | line → browser | settle → observation, eous\'s own | observation line | settle → observation, all |');
L.push('|---|---|---|---:|---:|---:|---:|---:|');
for (const c of cost)
  L.push(`| ${c.run === 'exec4' ? 'exec, --workers 4' : 'exec'} | ${c.ground} | ${c.mode} | ${c.replies} | ${trio(c.line_to_browser)} | ` +
    `${trio(c.own)} | ${trio(c.obs_line)} | ${trio(c.settle_to_obs)} |`);
L.push(`| **all** | | | ${total.obs_line.n} | **${trio(total.line_to_browser)}** | **${trio(total.own)}** | ` +
  `**${trio(total.obs_line)}** | ${trio(total.settle_to_obs)} |`);
const proto = [total.line_to_browser, total.obs_line];
L.push('', `Over all ${total.obs_line.n} replies: line → browser median ${ms(total.line_to_browser.median)} ms, ` +
  `p95 ${ms(total.line_to_browser.p95)} ms; observation line median ${ms(total.obs_line.median)} ms, p95 ` +
  `${ms(total.obs_line.p95)} ms: the goal (≤ 2 ms) is ${proto.every((x) => x.median != null && x.median <= 2) ? 'met at the median' : 'missed at the median'}` +
  `${proto.every((x) => x.p95 != null && x.p95 <= 2) ? ' and at p95' : ', not at p95 (a loaded machine\'s scheduling: see the load average above)'}.`);
L.push('', '## --workers 4: no agent\'s lines reach another\'s task', '');
const ids4 = [...new Set(GROUNDS.flatMap((g) => [...results('exec4', g).values()].map((r) => `${g} ${r.task_id}`)))];
L.push(`The exec run again with --workers 4 (four tasks and four agents at a time; ${same4.tasks} task × mode jobs: ` +
  `${ids4.length > 12 ? `${ids4.slice(0, 3).join(', ')} … ${ids4.slice(-2).join(', ')}` : ids4.join(', ')}). Each trace quotes every line eous ` +
  `read from its agent (\`agent_line\`); the reference agent logs every line it writes with its task id to its ` +
  `stderr, which eous keeps beside the trace. ${cross.traces} traces, ${cross.lines} lines read: ` +
  (cross.mismatches.length ? `**${cross.mismatches.length} mismatches**:` :
    'every line a task read is, in order, a line written by the agent started for that task, and each agent ' +
    'logged that one task only.'));
for (const m of cross.mismatches) L.push(`- ${m.ground} ${m.task} ${m.mode}: ${m.why}`);
L.push('', same4.differ.length
  ? `Against the --workers 2 run, ${same4.differ.length} of ${same4.tasks} task × mode results differ: ` +
    same4.differ.map((d) => `${d.ground} ${d.key} (${d.workers2} vs ${d.workers4})`).join('; ') + '.'
  : `All ${same4.tasks} task × mode results (status and round trips) equal the --workers 2 run's.`);
L.push('', '## Wall time', '');
L.push('| run | ground | workers | seconds |', '|---|---|---:|---:|');
for (const w of wall) L.push(`| ${w.run} | ${w.ground} | ${w.workers} | ${w.seconds} |`);
L.push('', 'The exec runs start one Python process per task × mode and the agent\'s own HTTP client, so their wall ' +
  'time is not the protocol\'s cost (that is the table above).', '');
fs.writeFileSync(path.join(resultsDir, 'own_agent.md'), L.join('\n'));
console.log(`own_agent: ${path.join(resultsDir, 'own_agent.md')}`);
process.exit(diffs.length || cross.mismatches.length ? 1 : 0);

// benchmarks/perf/batch_delta.mjs — aggregates the two runs of batch_delta.sh
// (results.jsonl of --max-batch 8 and of --max-batch 1, both --deltas on)
// into batch_delta.{md,json}: per mode and tier, plan calls (model round
// trips), actions and observation tokens per task, full views and deltas.
//   node batch_delta.mjs B8.jsonl B1.jsonl OUT_PREFIX
import fs from 'node:fs';

const [b8Path, b1Path, outPrefix] = process.argv.slice(2);
if (!outPrefix) {
  process.stderr.write('usage: node batch_delta.mjs B8_RESULTS.jsonl B1_RESULTS.jsonl OUT_PREFIX\n');
  process.exit(2);
}
const read = (p) => fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const runs = { b8: read(b8Path), b1: read(b1Path) };
const tiers = ['short', 'medium', 'long', 'all'];
const modes = ['hybrid', 'atomic'];

function agg(rows) {
  const n = rows.length || 1;
  const sum = (k) => rows.reduce((s, r) => s + (r[k] || 0), 0);
  return {
    tasks: rows.length,
    passed: rows.filter((r) => r.status === 'passed').length,
    plan_calls: sum('plan_calls') / n,
    actions: sum('steps') / n,
    not_run: sum('actions_not_run') / n,
    obs_tokens_full: sum('obs_tokens') / n,
    obs_tokens_delta: sum('obs_tokens_sent') / n,
  };
}
const table = {};
for (const [run, rows] of Object.entries(runs))
  for (const m of modes)
    for (const t of tiers)
      table[`${run}.${m}.${t}`] = agg(rows.filter((r) => r.mode === m && (t === 'all' || r.tier === t)));

const r2 = (x) => Math.round(x * 100) / 100;
const ratio = (a, b) => (b ? r2(a / b) : null);
const goals = {};
for (const t of tiers) {
  const h8 = table[`b8.hybrid.${t}`], a1 = table[`b1.atomic.${t}`];
  goals[t] = {
    round_trips_hybrid_batched_vs_atomic_one: ratio(h8.plan_calls, a1.plan_calls),
    obs_tokens_hybrid_batched_deltas_vs_atomic_one_full: ratio(h8.obs_tokens_delta, a1.obs_tokens_full),
  };
}
const json = {
  benchmark: 'batch_delta', commit: process.env.COMMIT || '', date: new Date().toISOString(),
  slice: `every ${process.env.STEP || 3}th Playground task (${process.env.N_TASKS || '?'} tasks), script planner`,
  measured: {
    plan_calls: 'plans asked for per task: with the script planner a batch of steps one view shows; for a model, its round trips',
    actions: 'actions run per task',
    obs_tokens_full: 'o200k tokens of every observation a planner was given, as full views',
    obs_tokens_delta: 'the same observations as deltas against the previous one (perception/delta.c; full after navigation, every 5 steps, or when the delta is over half the view)',
  },
  table, goals,
  targets: { round_trips_all: 0.40, round_trips_long: 0.30, obs_tokens_all: 0.25 },
};
fs.writeFileSync(`${outPrefix}.json`, JSON.stringify(json, null, 1) + '\n');

const f0 = (x) => Math.round(x).toLocaleString('en-US');
let md = `## Batched actions and observation deltas (\`benchmarks/perf/batch_delta.sh\`)\n\n`;
md += `Commit ${json.commit}, ${json.date.slice(0, 10)}. ${json.slice}; hybrid and atomic; each mode run with ` +
  `\`--max-batch 8\` (batched; modes: ${process.env.B8_MODES || 'hybrid,atomic'}) and \`--max-batch 1\` (one action per plan; modes: ${process.env.B1_MODES || 'hybrid,atomic'}), both with \`--deltas on\`.\n\n`;
md += `What is measured: **round trips** — plans asked for per task (the script planner's batches: consecutive steps ` +
  `whose targets the current view shows, as a model could plan them; with a model each is one round trip); ` +
  `**actions** — actions run per task; **obs tokens** — o200k tokens per task of the observations the planner was ` +
  `given, as full views and as deltas (perception/delta.c). Tokens and plans only: no model was called, nothing is timed.\n\n`;
md += `| run | mode | tier | tasks | passed | round trips/task | actions/task | obs tokens/task (full) | obs tokens/task (deltas) |\n`;
md += `|---|---|---|---|---|---|---|---|---|\n`;
for (const run of ['b8', 'b1'])
  for (const m of modes)
    for (const t of tiers) {
      const a = table[`${run}.${m}.${t}`];
      if (!a.tasks) continue;
      md += `| ${run === 'b8' ? 'batched' : 'one action'} | ${m} | ${t} | ${a.tasks} | ${a.passed} | ${r2(a.plan_calls)} | ` +
        `${r2(a.actions)} | ${f0(a.obs_tokens_full)} | ${f0(a.obs_tokens_delta)} |\n`;
    }
md += `\nGoals (hybrid batched vs atomic one action per plan):\n\n| tier | round trips (goal ≤ 0.40, long ≤ 0.30) | obs tokens, hybrid deltas vs atomic full (goal ≤ 0.25) |\n|---|---|---|\n`;
for (const t of tiers)
  md += `| ${t} | ${goals[t].round_trips_hybrid_batched_vs_atomic_one}× | ${goals[t].obs_tokens_hybrid_batched_deltas_vs_atomic_one_full}× |\n`;
fs.writeFileSync(`${outPrefix}.md`, md);

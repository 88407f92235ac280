// benchmarks/perf/suite_script.mjs — turns one `eous bench` run of a whole suite with the script
// planner (make demo's out/script, or any --out DIR) into benchmarks/results/<name>.{md,json}:
// eous's own summary.md, then per-task figures from results.jsonl (actions, plans = model round
// trips a batching planner needs, o200k observation tokens), then the hybrid/atomic ratios.
//
// usage: node benchmarks/perf/suite_script.mjs RUN_DIR COMMIT [NAME] [NOTE]
//   NAME defaults to suite_script; NOTE is a sentence on how the run was made (machine, load);
//   the heading is $TITLE.
// Exit 2 on bad input (a run directory without summary.md, summary.json or results.jsonl).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [run, commit, name = 'suite_script', note = ''] = process.argv.slice(2);
if (!run || !commit) {
  console.error('usage: node benchmarks/perf/suite_script.mjs RUN_DIR COMMIT [NAME] [NOTE]');
  process.exit(2);
}
for (const f of ['summary.md', 'summary.json', 'results.jsonl']) {
  if (!existsSync(join(run, f))) {
    console.error(`suite_script: ${join(run, f)}: expected the output of eous bench --out ${run}`);
    process.exit(2);
  }
}

// the last line per task x mode counts (a --resume rerun appends)
const last = new Map();
for (const line of readFileSync(join(run, 'results.jsonl'), 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  last.set(`${r.task_id}\t${r.mode}`, r);
}
const byMode = new Map();
for (const r of last.values()) {
  if (!byMode.has(r.mode)) byMode.set(r.mode, []);
  byMode.get(r.mode).push(r);
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const n2 = (x) => x.toFixed(2);
const n0 = (x) => Math.round(x).toLocaleString('en-US');
const per = {};
const rows = ['| mode | passed | plan steps (actions) | plans (round trips) | observation tokens (o200k) |',
  '|---|---|---|---|---|'];
for (const [mode, rs] of byMode) {
  per[mode] = {
    tasks: rs.length,
    passed: rs.filter((r) => r.status === 'passed').length,
    actions: mean(rs.map((r) => r.steps)),
    plans: mean(rs.map((r) => r.plan_calls)),
    obs_tokens: mean(rs.map((r) => r.obs_tokens)),
  };
  const p = per[mode];
  rows.push(`| ${mode} | ${p.passed}/${p.tasks} | ${n2(p.actions)} | ${n2(p.plans)} | ${n0(p.obs_tokens)} |`);
}
let ratios = '';
if (per.hybrid && per.atomic) {
  const h = per.hybrid, a = per.atomic;
  ratios = `\nHybrid vs atomic, both batched as the script planner batches: plan steps ${n2(h.actions / a.actions)}×, ` +
    `plans (round trips) ${n2(h.plans / a.plans)}×, observation tokens ${n2(h.obs_tokens / a.obs_tokens)}×; ` +
    `hybrid batched vs atomic one action per plan (${n2(a.actions)} round trips): ${n2(h.plans / a.actions)}×.\n`;
}
const summary = readFileSync(join(run, 'summary.md'), 'utf8').trim();
const title = process.env.TITLE || `eous bench with the script planner (${name})`;
const md = `## ${title}

${summary}

Binary and tasks: commit ${commit}. Recorded ${new Date().toISOString().slice(0, 10)}.${note ? ' ' + note : ''}

Per task (from \`results.jsonl\` of the same run; a task rerun by --resume counts by its last line):

${rows.join('\n')}
${ratios}`;
const out = resolve(here, '../results');
writeFileSync(join(out, `${name}.md`), md);
const json = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
json.commit = commit;
json.per_task = per;
writeFileSync(join(out, `${name}.json`), JSON.stringify(json, null, 1) + '\n');
console.log(`wrote ${join(out, name)}.{md,json}`);

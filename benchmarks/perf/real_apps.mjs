// benchmarks/perf/real_apps.mjs — real_apps.md from the runs of real_apps.sh: per mode, tasks
// passed, plan steps, round trips (model requests) and billed input tokens, as medians over the
// tasks every mode passed (with the spread, min..max), and the ratios the goals name.
//   node benchmarks/perf/real_apps.mjs OUT_DIR RESULTS_DIR
import fs from 'node:fs';
import path from 'node:path';

const [out, results] = process.argv.slice(2);
if (!out || !results) { console.error('usage: real_apps.mjs OUT_DIR RESULTS_DIR'); process.exit(2); }
const MODES = ['hybrid', 'pruned', 'atomic'];
const rows = {};
for (const m of MODES) {
  const f = path.join(out, m, 'results.jsonl');
  rows[m] = fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : [];
}
const by = m => new Map(rows[m].map(r => [r.task_id, r]));
const maps = Object.fromEntries(MODES.map(m => [m, by(m)]));
const all = [...new Set(MODES.flatMap(m => rows[m].map(r => r.task_id)))].sort((a, b) => Number(a) - Number(b));
const common = all.filter(t => MODES.every(m => maps[m].get(t)?.status === 'passed'));
const median = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
const sum = xs => xs.reduce((a, b) => a + b, 0);
const stat = (m, f, tasks) => { const xs = tasks.map(t => f(maps[m].get(t))); return {med: median(xs), min: Math.min(...xs), max: Math.max(...xs), sum: sum(xs)}; };
const F = {steps: r => r.steps, trips: r => r.plan_calls, input: r => r.prompt_tokens};
const fmt = s => `${Number.isInteger(s.med) ? s.med : s.med.toFixed(1)} (${s.min}..${s.max})`;
const commit = fs.readFileSync(path.join(out, 'commit'), 'utf8').trim();
// form tasks: the ones that go through a form (search, login, and the edits after a login)
const form = common.filter(t => /search the wiki|log in/i.test(maps.hybrid.get(t).intent));
const lines = [];
lines.push('# Real applications: DokuWiki with the native provider', '');
lines.push(`Commit ${commit}. Produced by \`benchmarks/perf/real_apps.sh\` (this file by \`real_apps.mjs\`): DokuWiki`);
lines.push('(Debian\'s package, `scripts/wiki`, no registry: every triplet in its hybrid view is the native');
lines.push('provider\'s) through the view-bound stand-in model (`benchmarks/standin`, the model path), each mode');
lines.push('from the seeded wiki, at the defaults (`--history full`, deltas on, `--max-batch 8`). Round trips are');
lines.push('model requests; billed input tokens are the requests\' prompt tokens as the stand-in counts them (o200k).', '');
lines.push('| mode | passed | plan steps, median (min..max) | round trips | billed input tokens | input tokens, sum |');
lines.push('|---|---|---|---|---|---|');
for (const m of MODES) {
  const passed = rows[m].filter(r => r.status === 'passed').length;
  lines.push(`| ${m} | ${passed}/${rows[m].length} | ${fmt(stat(m, F.steps, common))} | ${fmt(stat(m, F.trips, common))} | ${fmt(stat(m, F.input, common))} | ${stat(m, F.input, common).sum} |`);
}
lines.push('', `Medians over the ${common.length} tasks every mode passed.`, '');
const ratio = (a, b, f, tasks) => tasks.length ? (sum(tasks.map(t => f(maps[a].get(t)))) / sum(tasks.map(t => f(maps[b].get(t))))).toFixed(2) : 'n/a';
lines.push('| goal | measured |', '|---|---|');
lines.push(`| form tasks (${form.length}): hybrid ≤ 0.7× pruned's plan steps | ${ratio('hybrid', 'pruned', F.steps, form)}× |`);
lines.push(`| every task: hybrid ≤ 0.9× pruned's tokens per task | ${ratio('hybrid', 'pruned', F.input, common)}× |`);
lines.push(`| hybrid vs atomic round trips (all common tasks) | ${ratio('hybrid', 'atomic', F.trips, common)}× |`);
lines.push('');
const failed = MODES.flatMap(m => rows[m].filter(r => r.status !== 'passed').map(r => `- ${m} task ${r.task_id}: ${r.status}${r.error ? ' — ' + r.error : ''}${r.answer ? ' (answered "' + String(r.answer).slice(0, 120) + '")' : ''}`));
if (failed.length) lines.push('Tasks that did not pass:', ...failed, '');
lines.push('Not measured here: the Playground with CI4A off (`?ci4a=off`). Its tasks\' hybrid plans are written');
lines.push('for CI4A components; with the registry off they would need plans re-grounded to the native view.', '');
fs.mkdirSync(results, {recursive: true});
fs.writeFileSync(path.join(results, 'real_apps.md'), lines.join('\n'));
console.log(lines.join('\n'));

// benchmarks/perf/test_pool.mjs — renders test_pool.sh's rows (WORK/rows.tsv, WORK/stamp.tsv) into
// RESULTS/test_pool.{json,md}: per binary and mode the median wall seconds and range, and the tests
// passed in every run; the sum of medians over the binaries.
//   node test_pool.mjs WORK RESULTS
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [work, results] = process.argv.slice(2);
if (!work || !results) { console.error('usage: test_pool.mjs WORK RESULTS'); process.exit(2); }
const stamp = Object.fromEntries(readFileSync(join(work, 'stamp.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t')));
const rows = readFileSync(join(work, 'rows.tsv'), 'utf8').trim().split('\n').map((l) => {
  const [round, bin, mode, secs, rc, syn] = l.split('\t');
  const m = /Tested: (\d+) \| Passing: (\d+)/.exec(syn || '');
  return { round: +round, bin, mode, secs: +secs, rc: +rc, tested: m ? +m[1] : 0, passing: m ? +m[2] : 0 };
});
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const modes = ['shared', 'launched'];
const bins = [...new Set(rows.map((r) => r.bin))];
const table = bins.map((bin) => {
  const out = { bin };
  for (const mode of modes) {
    const rs = rows.filter((r) => r.bin === bin && r.mode === mode);
    const s = rs.map((r) => r.secs);
    out[mode] = { median: median(s), min: Math.min(...s), max: Math.max(...s), runs: rs.length,
      passed_runs: rs.filter((r) => r.rc === 0).length, tests: Math.max(...rs.map((r) => r.tested)) };
  }
  return out;
});
const total = Object.fromEntries(modes.map((m) => [m, table.reduce((a, t) => a + t[m].median, 0)]));
const json = { commit: stamp.commit, load_at_start: +stamp.load, cores: +stamp.cores, rounds: Math.max(...rows.map((r) => r.round)), binaries: table, sum_of_medians_s: total };
writeFileSync(join(results, 'test_pool.json'), JSON.stringify(json, null, 2) + '\n');
const f = (x) => x.toFixed(1);
let md = `# Browser suites: one shared Chromium per job against one launched per test\n\n`;
md += `Commit ${stamp.commit}, ${stamp.cores} cores, load ${stamp.load} at the start; ${json.rounds} round(s), the two set-ups alternating per binary. `;
md += `Each binary runs as ctest runs it in \`make test\` (ASan+UBSan, \`--jobs 2\`). Wall seconds, median (range). `;
md += `"shared": tests/pool/browser_pool.c; "launched": \`EOUS_TEST_BROWSERS=off\`, a browser per test as before. `;
md += `Made by \`benchmarks/perf/test_pool.sh\`.\n\n`;
md += `| binary | tests | shared s | launched s | shared / launched | runs passed (shared, launched) |\n|---|---:|---:|---:|---:|---|\n`;
for (const t of table) {
  md += `| ${t.bin} | ${t.shared.tests} | ${f(t.shared.median)} (${f(t.shared.min)}–${f(t.shared.max)}) | ${f(t.launched.median)} (${f(t.launched.min)}–${f(t.launched.max)}) | ${(t.shared.median / t.launched.median).toFixed(2)}× | ${t.shared.passed_runs}/${t.shared.runs}, ${t.launched.passed_runs}/${t.launched.runs} |\n`;
}
md += `| **sum of medians** | | **${f(total.shared)}** | **${f(total.launched)}** | **${(total.shared / total.launched).toFixed(2)}×** | |\n`;
writeFileSync(join(results, 'test_pool.md'), md);
console.log(md);

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
  const [round, bin, mode, secs, rc, syn, cpu] = l.split('\t');
  const m = /Tested: (\d+) \| Passing: (\d+)/.exec(syn || '');
  return { round: +round, bin, mode, secs: +secs, rc: +rc, tested: m ? +m[1] : 0, passing: m ? +m[2] : 0,
    cpu: cpu ? +cpu : null };
});
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const modes = ['shared', 'launched'];
const bins = [...new Set(rows.map((r) => r.bin))];
const table = bins.map((bin) => {
  const out = { bin };
  for (const mode of modes) {
    const rs = rows.filter((r) => r.bin === bin && r.mode === mode);
    const s = rs.map((r) => r.secs), c = rs.map((r) => r.cpu).filter((x) => x !== null);
    out[mode] = { median: median(s), min: Math.min(...s), max: Math.max(...s), runs: rs.length,
      cpu_median: c.length ? median(c) : null,
      passed_runs: rs.filter((r) => r.rc === 0).length, tests: Math.max(...rs.map((r) => r.tested)) };
  }
  return out;
});
const total = Object.fromEntries(modes.map((m) => [m, table.reduce((a, t) => a + t[m].median, 0)]));
const cpuTotal = Object.fromEntries(modes.map((m) => [m, table.reduce((a, t) => a + (t[m].cpu_median ?? NaN), 0)]));
const hasCpu = modes.every((m) => Number.isFinite(cpuTotal[m]));
const json = { commit: stamp.commit, load_at_start: +stamp.load, cores: +stamp.cores, rounds: Math.max(...rows.map((r) => r.round)), binaries: table, sum_of_medians_s: total,
  sum_of_cpu_medians_s: hasCpu ? cpuTotal : null };
writeFileSync(join(results, 'test_pool.json'), JSON.stringify(json, null, 2) + '\n');
const f = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(1));
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : '—');
let md = `# Browser suites: shared Chromiums against one launched per test\n\n`;
md += `Commit ${stamp.commit}, ${stamp.cores} cores, load ${stamp.load} at the start; ${json.rounds} round(s), the two set-ups alternating per binary. `;
md += `Each binary runs as ctest runs it in \`make test\` (\`--jobs 2\`; the build is the BUILD the script was given). Wall seconds, median (range); `;
md += `CPU seconds of the binary and all it started (cgroup cpuacct), median. `;
md += `"shared": tests/pool/browser_pool.c, two browsers for the binary (run alone, not under ctest's run-wide pool); "launched": \`EOUS_TEST_BROWSERS=off\`, a browser per test. `;
md += `Made by \`benchmarks/perf/test_pool.sh\`.\n\n`;
md += `| binary | tests | shared s | launched s | shared / launched | shared CPU s | launched CPU s | CPU shared / launched | runs passed (shared, launched) |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n`;
for (const t of table) {
  md += `| ${t.bin} | ${t.shared.tests} | ${f(t.shared.median)} (${f(t.shared.min)}–${f(t.shared.max)}) | ${f(t.launched.median)} (${f(t.launched.min)}–${f(t.launched.max)}) | ${ratio(t.shared.median, t.launched.median)} | ${f(t.shared.cpu_median)} | ${f(t.launched.cpu_median)} | ${ratio(t.shared.cpu_median, t.launched.cpu_median)} | ${t.shared.passed_runs}/${t.shared.runs}, ${t.launched.passed_runs}/${t.launched.runs} |\n`;
}
md += `| **sum of medians** | | **${f(total.shared)}** | **${f(total.launched)}** | **${ratio(total.shared, total.launched)}** | **${hasCpu ? f(cpuTotal.shared) : '—'}** | **${hasCpu ? f(cpuTotal.launched) : '—'}** | **${hasCpu ? ratio(cpuTotal.shared, cpuTotal.launched) : '—'}** | |\n`;
writeFileSync(join(results, 'test_pool.md'), md);
console.log(md);

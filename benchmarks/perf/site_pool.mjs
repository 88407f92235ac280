// benchmarks/perf/site_pool.mjs — site_pool.{md,json} from benchmarks/perf/site_pool.sh's runs.
//   node site_pool.mjs OUT_DIR RESULTS_DIR WORKERS ROUNDS
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, resultsDir, workersArg, roundsArg] = process.argv.slice(2);
const workers = Number(workersArg), rounds = Number(roundsArg);
const RUNS = ['default', 'baseline'];
const read = (p, d = '') => (existsSync(p) ? readFileSync(p, 'utf8') : d);
// the commit and load model_path.sh noted for the first run
const first = join(outDir, 'round1-wikis1');
const commit = read(join(first, 'commit'), 'unknown').trim();
const [load, cores] = read(join(first, 'load'), '? ?').trim().split(/\s+/);
const median = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };

// one set-up's run: each bench's wall time (eous bench's last line), its jobs, passes and site time
function oneRun(dir) {
  const run = { seconds: 0, jobs: 0, passed: 0, site_s: 0, complete: true, benches: {} };
  for (const r of RUNS) {
    const ran = read(join(dir, `${r}-dokuwiki.log`)).match(/ran (\d+) job\(s\) in ([\d.]+) s/);
    if (!ran) { run.complete = false; continue; }
    const lines = read(join(dir, r, 'dokuwiki', 'results.jsonl')).split('\n').filter(Boolean).map(l => JSON.parse(l));
    const passed = lines.filter(l => l.status === 'passed').length;
    const site = lines.reduce((a, l) => a + (l.site_ms || 0), 0) / 1000;
    run.benches[r] = { seconds: Number(ran[2]), jobs: Number(ran[1]), passed, site_s: site };
    run.seconds += Number(ran[2]);
    run.jobs += Number(ran[1]);
    run.passed += passed;
    run.site_s += site;
  }
  return run;
}

const setups = [1, workers].map(wikis => {
  const runs = [];
  for (let r = 1; r <= rounds; r++) runs.push(oneRun(join(outDir, `round${r}-wikis${wikis}`)));
  const done = runs.filter(x => x.complete);
  const secs = done.map(x => x.seconds);
  return { wikis, runs, median_s: median(secs), min_s: Math.min(...secs), max_s: Math.max(...secs),
    median_site_s: median(done.map(x => x.site_s)) };
});
const [one, pool] = setups;
const ratio = pool.median_s / one.median_s;
const f1 = x => (Number.isFinite(x) ? x.toFixed(1) : '–');
const md = [];
md.push('# DokuWiki on one copy against one copy per worker\n');
md.push(`Commit ${commit}. Produced by \`benchmarks/perf/site_pool.sh\` (runs) and \`benchmarks/perf/site_pool.mjs\` `
  + `(this file). Each run is \`benchmarks/perf/model_path.sh\` on DokuWiki alone, as \`make demo\` runs it: the `
  + `stand-in model, the default run (hybrid, pruned, atomic) and the one-action baseline (atomic), ${workers} workers; `
  + `with WIKIS=1 every worker uses one wiki, so a task that resets it (require_reset: 8 of 24 tasks, in every mode) `
  + `waits for every other task on it; with WIKIS=${workers} each worker has its own copy (webarena/site_pool.h). `
  + `${rounds} rounds, the two set-ups alternating within each. The machine: ${cores} cores, 1-minute load average `
  + `${load} when the runs began.\n`);
md.push('| wiki copies | workers | runs | seconds (default + baseline), median | range | jobs passed per run | '
  + 'site lock + reset, seconds summed over jobs (median) |');
md.push('|---:|---:|---:|---:|---:|---|---:|');
for (const s of setups) {
  const done = s.runs.filter(x => x.complete);
  md.push(`| ${s.wikis} | ${workers} | ${done.length} | ${f1(s.median_s)} | ${f1(s.min_s)}–${f1(s.max_s)} | `
    + `${done.map(x => `${x.passed}/${x.jobs}`).join(', ')} | ${f1(s.median_site_s)} |`);
}
md.push(`\n${workers} copies against 1: **${Number.isFinite(ratio) ? ratio.toFixed(2) : '–'}×** the wall time (medians).\n`);
md.push('Per run and bench (seconds):\n');
md.push('| round | wiki copies | default | baseline | site lock + reset (default · baseline) |');
md.push('|---:|---:|---:|---:|---|');
for (let r = 0; r < rounds; r++)
  for (const s of setups) {
    const b = s.runs[r].benches;
    md.push(`| ${r + 1} | ${s.wikis} | ${f1(b.default?.seconds)} | ${f1(b.baseline?.seconds)} | `
      + `${f1(b.default?.site_s)} · ${f1(b.baseline?.site_s)} |`);
  }
writeFileSync(join(resultsDir, 'site_pool.md'), md.join('\n') + '\n');
writeFileSync(join(resultsDir, 'site_pool.json'), JSON.stringify({ commit, load: Number(load), cores: Number(cores),
  workers, rounds, setups, ratio }, null, 2) + '\n');
process.stdout.write(md.join('\n') + '\n');
if (setups.some(s => s.runs.some(x => !x.complete))) process.exit(1);

#!/usr/bin/env bash
# benchmarks/perf/bench_w3c.sh — the same Playground tasks through CDP and
# through plain W3C WebDriver (`--w3c-only`: tree, marks and providers from one
# in-page script, actions by its ids), hybrid and atomic: pass counts, steps,
# observation tokens and per-step perceive / act / settle time.
# Runs every STRIDE-th task (default 8: 13 tasks) on WORKERS workers (default 2),
# RUNS times (default 3: one run of both paths takes minutes), the paths
# alternating within each run so load drifts hit both alike.  Per-step times
# are the median and p95 over every step of every run; the W3C/CDP ratio is
# taken per run (its median and range).
# Writes benchmarks/results/bench_w3c.{md,json} with the commit and load average.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${EOUS:-$ROOT/build/eous}"
STRIDE="${STRIDE:-8}"
WORKERS="${WORKERS:-2}"
RUNS="${RUNS:-3}"
OUT="$(mktemp -d /tmp/eous-w3c-XXXXXX)"
trap 'kill "${SITE_PID:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT
[[ -x "$EOUS" ]] || { echo "bench_w3c: $EOUS is not built (make build)" >&2; exit 2; }
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "bench_w3c: RUNS '$RUNS': expected a whole number >= 1" >&2; exit 2; }
commit="$(git -C "$ROOT" rev-parse --short HEAD)"

mkdir -p "$OUT/slice"
mapfile -t all_tasks < <(printf '%s\n' "$ROOT"/benchmarks/grounds/tasks/playground/*.json | sort -V)
for ((i = 0; i < ${#all_tasks[@]}; i += STRIDE)); do ln -s "${all_tasks[$i]}" "$OUT/slice/"; done
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

: > "$OUT/load"
for ((run = 1; run <= RUNS; run++)); do
  for path in cdp w3c; do
    flag=""; [[ $path == w3c ]] && flag="--w3c-only"
    echo "bench_w3c: run $run/$RUNS $path ..." >&2
    cut -d' ' -f1 /proc/loadavg >> "$OUT/load"
    "$EOUS" bench "$OUT/slice" --modes hybrid,atomic --workers "$WORKERS" $flag --out "$OUT/$path-$run" \
        >"$OUT/$path-$run.out" 2>"$OUT/$path-$run.log" || true
  done
done

node - "$OUT" "$ROOT/benchmarks/results" "$STRIDE" "$WORKERS" "$RUNS" "$commit" <<'EOF'
const fs = require('fs');
const [out, results, stride, workers, runsArg, commit] = process.argv.slice(2);
const runs = Number(runsArg);
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] : NaN; };
const loads = fs.readFileSync(`${out}/load`, 'utf8').split('\n').filter(Boolean).map(Number);
const rows = [];
const perRun = {}; // path/mode -> [{perceive, act, settle}] mean ms per step of each run
for (const path of ['cdp', 'w3c']) {
  for (const mode of ['hybrid', 'atomic']) {
    const steps = { perceive: [], act: [], settle: [] };
    let jobs = 0, passed = 0, infra = 0, nSteps = 0, obsTokens = 0;
    const passes = [];
    perRun[`${path}/${mode}`] = [];
    for (let run = 1; run <= runs; run++) {
      const all = fs.readFileSync(`${out}/${path}-${run}/results.jsonl`, 'utf8').split('\n').filter(Boolean)
        .map(JSON.parse).filter((r) => r.mode === mode);
      // results.jsonl keeps every attempt: a job counts by its last; infra counts every attempt that was infra
      const last = new Map();
      for (const r of all) last.set(r.task_id, r);
      const lines = [...last.values()];
      jobs += lines.length;
      const p = lines.filter((r) => r.status === 'passed').length;
      passed += p; passes.push(p);
      infra += all.filter((r) => r.status === 'infra').length;
      const mine = { perceive: [], act: [], settle: [] };
      const dir = `${out}/${path}-${run}/trace`;
      for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(`-${mode}.jsonl`))) {
        for (const l of fs.readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter(Boolean)) {
          const s = JSON.parse(l);
          nSteps++; obsTokens += s.obs_tokens || 0;
          for (const k of ['perceive', 'act', 'settle']) {
            const v = (s.ms && s.ms[k]) || 0;
            steps[k].push(v); mine[k].push(v);
          }
        }
      }
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
      perRun[`${path}/${mode}`].push({ perceive: mean(mine.perceive), act: mean(mine.act), settle: mean(mine.settle) });
    }
    const r = { path, mode, runs, jobs, passed, passes_per_run: passes, infra, avg_steps: nSteps / (jobs || 1),
                obs_tokens_per_step: Math.round(obsTokens / (nSteps || 1)), steps: nSteps };
    for (const k of ['perceive', 'act', 'settle']) { r[`${k}_ms_median`] = q(steps[k], 0.5); r[`${k}_ms_p95`] = q(steps[k], 0.95); }
    rows.push(r);
  }
}
const ratios = {};
for (const mode of ['hybrid', 'atomic'])
  for (const k of ['perceive', 'act', 'settle']) {
    const xs = perRun[`w3c/${mode}`].map((w, i) => w[k] / perRun[`cdp/${mode}`][i][k]);
    ratios[`${mode}/${k}`] = { median: q(xs, 0.5), min: Math.min(...xs), max: Math.max(...xs), per_run: xs };
  }
const f = (x) => x.toFixed(0);
const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
let md = `## CDP vs plain W3C WebDriver (\`--w3c-only\`), every ${stride}th Playground task, ${workers} workers\n\n` +
  `Commit ${commit}, ${date}: ${runs} runs (a run of both paths takes minutes, so 3 rather than 5), the paths ` +
  `alternating within each run; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} ` +
  `(2 cores shared with other work).  Per-step times: median (p95) over every step of every run.\n\n` +
  '| path | mode | passed (per run) | infra attempts | avg steps | obs tokens/step | perceive ms/step | act ms/step | settle ms/step |\n' +
  '|---|---|---:|---:|---:|---:|---:|---:|---:|\n';
for (const r of rows)
  md += `| ${r.path} | ${r.mode} | ${r.passed}/${r.jobs} (${r.passes_per_run.join(', ')}) | ${r.infra} | ${r.avg_steps.toFixed(1)} | ` +
        `${r.obs_tokens_per_step} | ${f(r.perceive_ms_median)} (${f(r.perceive_ms_p95)}) | ${f(r.act_ms_median)} (${f(r.act_ms_p95)}) | ` +
        `${f(r.settle_ms_median)} (${f(r.settle_ms_p95)}) |\n`;
md += '\nW3C / CDP, the ratio of each run\'s mean ms per step: median (range over the runs).\n\n' +
  '| mode | perceive | act | settle |\n|---|---:|---:|---:|\n';
for (const mode of ['hybrid', 'atomic'])
  md += `| ${mode} | ` + ['perceive', 'act', 'settle'].map((k) => { const r = ratios[`${mode}/${k}`];
    return `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`; }).join(' | ') + ' |\n';
fs.writeFileSync(`${results}/bench_w3c.md`, md);
fs.writeFileSync(`${results}/bench_w3c.json`, JSON.stringify({ commit, date, runs, stride: Number(stride), workers: Number(workers),
  load_average: loads, rows, w3c_over_cdp: ratios }, null, 1) + '\n');
process.stdout.write(md);
EOF

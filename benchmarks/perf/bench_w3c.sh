#!/usr/bin/env bash
# benchmarks/perf/bench_w3c.sh — the same Playground tasks through CDP and
# through plain W3C WebDriver (`--w3c-only`: tree, marks and providers from one
# in-page script, actions by its ids), hybrid and atomic: pass counts, steps,
# observation tokens and per-step perceive / act / settle time.
# Runs every STRIDE-th task (default 8: 13 tasks) on WORKERS workers (default 2).
# Writes benchmarks/results/bench_w3c.{md,json}.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${EOUS:-$ROOT/build/eous}"
STRIDE="${STRIDE:-8}"
WORKERS="${WORKERS:-2}"
OUT="$(mktemp -d /tmp/eous-w3c-XXXXXX)"
trap 'kill "${SITE_PID:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT
[[ -x "$EOUS" ]] || { echo "bench_w3c: $EOUS is not built (make build)" >&2; exit 2; }

mkdir -p "$OUT/slice"
mapfile -t all_tasks < <(printf '%s\n' "$ROOT"/benchmarks/tasks/playground/*.json | sort -V)
for ((i = 0; i < ${#all_tasks[@]}; i += STRIDE)); do ln -s "${all_tasks[$i]}" "$OUT/slice/"; done
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

for path in cdp w3c; do
  flag=""; [[ $path == w3c ]] && flag="--w3c-only"
  echo "bench_w3c: $path ..." >&2
  "$EOUS" bench "$OUT/slice" --modes hybrid,atomic --workers "$WORKERS" $flag --out "$OUT/$path" \
      >"$OUT/$path.out" 2>"$OUT/$path.log" || true
done

node - "$OUT" "$ROOT/benchmarks/results" "$STRIDE" "$WORKERS" <<'EOF'
const fs = require('fs');
const [out, results, stride, workers] = process.argv.slice(2);
const rows = [];
for (const path of ['cdp', 'w3c']) {
  const lines = fs.readFileSync(`${out}/${path}/results.jsonl`, 'utf8').split('\n').filter(Boolean).map(JSON.parse);
  for (const mode of ['hybrid', 'atomic']) {
    const rs = lines.filter((r) => r.mode === mode);
    const sum = (k) => rs.reduce((a, r) => a + (r[k] || 0), 0);
    const steps = sum('steps') || 1;
    rows.push({ path, mode, jobs: rs.length, passed: rs.filter((r) => r.status === 'passed').length,
                infra: rs.filter((r) => r.status === 'infra').length, avg_steps: sum('steps') / (rs.length || 1),
                obs_tokens_per_step: Math.round(sum('obs_tokens') / steps),
                perceive_ms_per_step: sum('perceive_ms') / steps, act_ms_per_step: sum('act_ms') / steps,
                settle_ms_per_step: sum('settle_ms') / steps });
  }
}
const f = (x) => x.toFixed(0);
let md = `## CDP vs plain W3C WebDriver (\`--w3c-only\`), every ${stride}th Playground task, ${workers} workers\n\n` +
  '| path | mode | passed | infra | avg steps | obs tokens/step | perceive ms/step | act ms/step | settle ms/step |\n' +
  '|---|---|---:|---:|---:|---:|---:|---:|---:|\n';
for (const r of rows)
  md += `| ${r.path} | ${r.mode} | ${r.passed}/${r.jobs} | ${r.infra} | ${r.avg_steps.toFixed(1)} | ` +
        `${r.obs_tokens_per_step} | ${f(r.perceive_ms_per_step)} | ${f(r.act_ms_per_step)} | ${f(r.settle_ms_per_step)} |\n`;
fs.writeFileSync(`${results}/bench_w3c.md`, md);
fs.writeFileSync(`${results}/bench_w3c.json`, JSON.stringify(rows, null, 1) + '\n');
process.stdout.write(md);
EOF

#!/usr/bin/env bash
# benchmarks/perf/bench_scaling.sh — suite wall time, tasks/min and peak RSS of
# the eous process with 1, 2 and 4 workers, locally and through Selenium Grid.
# Peak RSS is eous's own (getrusage RUSAGE_SELF, printed by `eous bench`);
# GNU time's figure is kept beside it: it counts the reaped browsers too.
# Runs a fixed slice (first N tasks, hybrid + atomic) so runs are comparable.
# Writes benchmarks/results/bench_scaling.{md,json}.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${EOUS:-$ROOT/build/eous}"
N="${N:-20}"
OUT="$(mktemp -d /tmp/eous-scaling-XXXXXX)"
trap 'kill "${SITE_PID:-}" 2>/dev/null || true; [[ -n "${GRID_DIR:-}" ]] && bash "$ROOT/scripts/grid" stop "$GRID_DIR" || true; rm -rf "$OUT"' EXIT
command -v /usr/bin/time >/dev/null || { echo "bench_scaling: /usr/bin/time missing (apt-get install time)" >&2; exit 3; }

mkdir -p "$OUT/slice"
mapfile -t all_tasks < <(printf '%s\n' "$ROOT"/benchmarks/tasks/playground/*.json | sort -V)
for f in "${all_tasks[@]:0:$N}"; do ln -s "$f" "$OUT/slice/"; done
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

results_md="$ROOT/benchmarks/results/bench_scaling.md"
results_json="$ROOT/benchmarks/results/bench_scaling.json"
echo "| where | workers | jobs | wall s | tasks/min | passed | eous peak RSS (MiB) | incl. reaped children (MiB) |" > "$results_md"
echo "|---|---|---|---|---|---|---|---|" >> "$results_md"
echo "[" > "$results_json"
first=1
run() { # where workers [webdriver]
  local where="$1" w="$2" wd="${3:-}"
  local dir="$OUT/$where-$w"
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$dir.rss" "$EOUS" bench "$OUT/slice" --modes hybrid,atomic --workers "$w" \
      ${wd:+--webdriver "$wd"} --out "$dir" >"$dir.out" 2>"$dir.log" || true
  t1=$(date +%s.%N)
  local wall jobs passed rss self
  wall=$(echo "$t1 - $t0" | bc)
  jobs=$(wc -l < "$dir/results.jsonl")
  passed=$(grep -c '"status":"passed"' "$dir/results.jsonl" || true)
  rss=$(( $(tail -1 "$dir.rss") / 1024 ))
  self=$(grep -o 'eous peak RSS [0-9.]*' "$dir.out" | grep -o '[0-9.]*$' || echo 0)
  printf "| %s | %d | %d | %.1f | %.1f | %d | %.1f | %d |\n" "$where" "$w" "$jobs" "$wall" "$(echo "$jobs * 60 / $wall" | bc -l)" "$passed" "$self" "$rss" >> "$results_md"
  [[ $first == 1 ]] || echo "," >> "$results_json"; first=0
  printf '{"where":"%s","workers":%d,"jobs":%d,"wall_s":%.1f,"passed":%d,"eous_peak_rss_mib":%s,"with_children_peak_rss_mib":%d}' "$where" "$w" "$jobs" "$wall" "$passed" "$self" "$rss" >> "$results_json"
  echo "bench_scaling: $where workers=$w wall=${wall}s passed=$passed/$jobs eous rss=${self}MiB (with children ${rss}MiB)" >&2
}
for w in 1 2 4; do run local "$w"; done
GRID_DIR="$OUT/grid"
GRID_URL="$(bash "$ROOT/scripts/grid" start --sessions 4 --dir "$GRID_DIR")"
for w in 1 2 4; do run grid "$w" "$GRID_URL"; done
echo "]" >> "$results_json"
cat "$results_md"

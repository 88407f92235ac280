#!/usr/bin/env bash
# benchmarks/perf/batch_delta.sh — model round trips, actions and observation
# tokens per task with batched actions and observation deltas (issue 19).
#
# Runs a fixed slice of the Playground suite (every STEP-th task, sorted) with
# the script planner in hybrid and atomic mode twice: --max-batch 8 (script
# steps grouped into one batch per view, agent/batch.h) and --max-batch 1 (one
# action per plan), both with --deltas on, so each run's results carry the
# full views' tokens (obs_tokens) and what deltas would send (obs_tokens_sent).
# The script planner stands in for a model that plans everything one view
# shows: a plan call here is one model round trip there.  benchmarks/perf/
# batch_delta.mjs turns the results into benchmarks/results/batch_delta.{md,json}.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${EOUS:-$ROOT/build/eous}"
STEP="${STEP:-3}"
WORKERS="${WORKERS:-2}"
# B1_MODES: the modes of the one-action run (the goals need only atomic there);
# REUSE_B8: a results.jsonl of an earlier --max-batch 8 run of the same slice and commit
B1_MODES="${B1_MODES:-hybrid,atomic}"
B8_MODES="${B8_MODES:-hybrid,atomic}"
REUSE_B8="${REUSE_B8:-}"
OUT="$(mktemp -d /tmp/eous-batch-delta-XXXXXX)"
trap 'kill "${SITE_PID:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

mkdir -p "$OUT/slice"
mapfile -t all_tasks < <(printf '%s\n' "$ROOT"/benchmarks/grounds/tasks/playground/*.json | sort -V)
for ((i = 0; i < ${#all_tasks[@]}; i += STEP)); do ln -s "${all_tasks[$i]}" "$OUT/slice/"; done
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

if [[ -n "$REUSE_B8" ]]; then mkdir -p "$OUT/b8"; cp "$REUSE_B8" "$OUT/b8/results.jsonl"; fi
for b in 8 1; do
  modes="$B8_MODES"; [[ $b == 1 ]] && modes="$B1_MODES"
  [[ $b == 8 && -n "$REUSE_B8" ]] && continue
  "$EOUS" bench "$OUT/slice" --modes "$modes" --workers "$WORKERS" --max-batch "$b" --deltas on \
      --out "$OUT/b$b" >"$OUT/b$b.out" 2>"$OUT/b$b.log" || true
  echo "batch_delta: --max-batch $b: $(grep -c '"status":"passed"' "$OUT/b$b/results.jsonl" || true)/$(wc -l < "$OUT/b$b/results.jsonl") passed" >&2
done
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)" B1_MODES="$B1_MODES" B8_MODES="$B8_MODES" STEP="$STEP" N_TASKS="$(ls "$OUT/slice" | wc -l)" \
  node "$ROOT/benchmarks/perf/batch_delta.mjs" "$OUT/b8/results.jsonl" "$OUT/b1/results.jsonl" \
  "$ROOT/benchmarks/results/batch_delta"
cat "$ROOT/benchmarks/results/batch_delta.md"

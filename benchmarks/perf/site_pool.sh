#!/usr/bin/env bash
# benchmarks/perf/site_pool.sh — DokuWiki's suite on the model path (as `make demo` runs it: the
# stand-in, CONFIGS "default baseline", WORKERS workers) with one wiki for every worker against one
# copy per worker (webarena/site_pool.h), side by side: ROUNDS rounds (default 2), the two set-ups
# alternating within each, so load drifts hit them alike.  Each run is benchmarks/perf/model_path.sh
# with GROUNDS=dokuwiki and WIKIS=1 or WIKIS=$WORKERS.  site_pool.mjs writes site_pool.{md,json}
# (wall seconds per set-up and run: median and range, jobs passed, the time tasks held or waited
# for the site's lock and reset) with the commit and load the first run noted.
#
#   benchmarks/perf/site_pool.sh [OUT_DIR] [RESULTS_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-$ROOT/out/site_pool}"
RESULTS="${2:-$ROOT/benchmarks/results}"
WORKERS="${WORKERS:-$(($(nproc) + 1))}"
ROUNDS="${ROUNDS:-2}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "site_pool: ROUNDS '$ROUNDS': expected a whole number >= 1" >&2; exit 2; }
[[ "$WORKERS" =~ ^[1-9][0-9]*$ && "$WORKERS" -ge 2 ]] ||
  { echo "site_pool: WORKERS '$WORKERS': expected a whole number >= 2 (one copy against several)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
rc=0
for ((r = 1; r <= ROUNDS; r++)); do
  for wikis in 1 "$WORKERS"; do
    dir="$OUT/round$r-wikis$wikis"
    echo "site_pool: round $r, $wikis wiki cop$( ((wikis == 1)) && echo y || echo ies)"
    set +e
    GROUNDS=dokuwiki WIKIS="$wikis" WORKERS="$WORKERS" CONFIGS="default baseline" \
      bash "$ROOT/benchmarks/perf/model_path.sh" "$dir" "$dir/report" >"$dir.log" 2>&1
    brc=$?
    set -e
    ((brc == 0)) || { echo "site_pool: model_path.sh exited $brc; see $dir.log" >&2; rc=$brc; }
  done
done
mkdir -p "$RESULTS"
node "$ROOT/benchmarks/perf/site_pool.mjs" "$OUT" "$RESULTS" "$WORKERS" "$ROUNDS" || rc=$?
exit $rc

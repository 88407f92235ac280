#!/usr/bin/env bash
# benchmarks/fuzz/run_all.sh — runs every libFuzzer target for SECONDS each
# (default 600) and writes benchmarks/results/fuzz.{md,json}: runs, execs/s,
# edge coverage (cov) and features (ft) at the end, and whether it crashed,
# leaked or timed out.  New inputs go to a scratch corpus, so the repo's seed
# corpora stay small; a crash file is kept in the scratch dir for triage.
#   benchmarks/fuzz/run_all.sh [SECONDS] [TARGET...]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SECS="${1:-600}"; shift || true
BUILD="$ROOT/build-fuzz"
if [[ ! -x "$BUILD/fuzz_perc" ]]; then
  CC=clang cmake -S "$ROOT" -B "$BUILD" -DEOUS_FUZZ=ON -DEOUS_TESTS=OFF >/dev/null
fi
cmake --build "$BUILD" -j2 >/dev/null
targets=("$@")
((${#targets[@]})) || targets=(fuzz_act_parse fuzz_cassette fuzz_validate fuzz_perc fuzz_task)
SCRATCH="$(mktemp -d /tmp/eous-fuzz-XXXXXX)"
OUT_JSON="$ROOT/benchmarks/results/fuzz.json"; OUT_MD="$ROOT/benchmarks/results/fuzz.md"
rows=()
for t in "${targets[@]}"; do
  mkdir -p "$SCRATCH/$t"
  log="$SCRATCH/$t.log"
  set +e
  ( cd "$SCRATCH" && "$BUILD/$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$SCRATCH/$t-" \
      "$SCRATCH/$t" "$ROOT/tests/fuzz/corpus/$t" ) >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  eps=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  verdict=ok
  grep -q 'ERROR: AddressSanitizer\|runtime error\|ERROR: libFuzzer' "$log" && verdict=crash
  grep -q 'ERROR: LeakSanitizer' "$log" && verdict=leak
  grep -q 'ALARM: working on the last Unit' "$log" && verdict=timeout
  [[ $rc -ne 0 && $verdict == ok ]] && verdict="exit $rc"
  echo "fuzz: $t runs=$runs execs/s=$eps cov=${cov:-?} ft=${ft:-?} peak_rss=${peak}MB -> $verdict (log $log)" >&2
  rows+=("{\"target\":\"$t\",\"seconds\":$SECS,\"runs\":$runs,\"execs_per_s\":$eps,\"cov\":${cov:-0},\"ft\":${ft:-0},\"peak_rss_mb\":$peak,\"verdict\":\"$verdict\"}")
done
{ echo "["; (IFS=,; echo "${rows[*]}"); echo "]"; } >"$OUT_JSON.tmp" && mv "$OUT_JSON.tmp" "$OUT_JSON"
{
  echo "# Fuzzing (libFuzzer + ASan/UBSan, clang $(clang --version | head -1 | grep -o '[0-9][0-9.]*' | head -1))"
  echo
  echo "Each target ran ${SECS} s on one core, seeded from tests/fuzz/corpus/<target>; $(date -u +%F)."
  echo "cov = edges covered, ft = coverage features (libFuzzer's final status line)."
  echo
  echo "| target | runs | execs/s | cov | ft | peak RSS MB | result |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  for r in "${rows[@]}"; do
    python3 -c 'import json,sys; r=json.loads(sys.argv[1]); k=("target","runs","execs_per_s","cov","ft","peak_rss_mb","verdict"); print("| " + " | ".join(str(r[x]) for x in k) + " |")' "$r"
  done
} >"$OUT_MD.tmp" && mv "$OUT_MD.tmp" "$OUT_MD"
echo "fuzz: wrote $OUT_MD; scratch corpora in $SCRATCH" >&2

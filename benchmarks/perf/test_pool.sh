#!/usr/bin/env bash
# benchmarks/perf/test_pool.sh — the browser suites with one shared Chromium per Criterion job
# (tests/pool/browser_pool.c) against a Chromium launched per test (EOUS_TEST_BROWSERS=off), side by
# side: each binary of CMakeLists.txt's EOUS_BROWSER_POOL_TESTS runs as ctest runs it (--jobs 2,
# under ASan in BUILD, default build-asan/ as `make test` does) ROUNDS times (default 2) in each
# mode, the two modes alternating per binary so load drifts hit them alike.  test_pool.mjs writes
# test_pool.{md,json}: wall seconds per binary and mode (median and range), and where the cgroup v1
# cpuacct controller is writable (root) the CPU seconds of the binary and everything it started
# (browsers, drivers, the CLI: the machine's real cost, which the wall time of a loaded machine
# hides), tests passed, with the commit and the load as the run started.
#
#   [BUILD=DIR] [ROUNDS=N] [SKIP=REGEX] benchmarks/perf/test_pool.sh [RESULTS_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
RESULTS="${1:-$ROOT/benchmarks/results}"
BUILD="${BUILD:-$ROOT/build-asan}"
ROUNDS="${ROUNDS:-2}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "test_pool: ROUNDS '$ROUNDS': expected a whole number >= 1" >&2; exit 2; }
[[ -x "$BUILD/eous" ]] || { echo "test_pool: BUILD '$BUILD': no eous there (make build-asan)" >&2; exit 2; }
mapfile -t bins < <(sed -n '/set(EOUS_BROWSER_POOL_TESTS/,/)/p' "$ROOT/CMakeLists.txt" | tr ' ()' '\n\n\n' | grep '^test_')
# SKIP: a regex of binaries left out (the release stage's long suites, say)
if [[ -n "${SKIP:-}" ]]; then mapfile -t bins < <(printf '%s\n' "${bins[@]}" | grep -Ev "$SKIP"); fi
((${#bins[@]})) || { echo "test_pool: no EOUS_BROWSER_POOL_TESTS in CMakeLists.txt" >&2; exit 2; }
CGROOT=/sys/fs/cgroup/cpuacct
WORK="$(mktemp -d /tmp/eous-test-pool-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
rows="$WORK/rows.tsv"
printf 'commit\t%s\nload\t%s\ncores\t%s\n' "$(git -C "$ROOT" rev-parse --short HEAD)" \
  "$(cut -d' ' -f1 /proc/loadavg)" "$(nproc)" > "$WORK/stamp.tsv"
for ((r = 1; r <= ROUNDS; r++)); do
  for b in "${bins[@]}"; do
    for mode in shared launched; do
      pool=""; [[ $mode == launched ]] && pool=off
      log="$WORK/$b.$mode.$r.log"
      cg=""
      if [[ -w "$CGROOT" ]]; then cg="$CGROOT/eous-test-pool-$$-$r-$mode"; mkdir -p "$cg"; fi
      t0=$(date +%s.%N)
      set +e
      (if [[ -n "$cg" ]]; then echo "$BASHPID" > "$cg/tasks"; fi
       cd "$BUILD" && EOUS_TEST_BROWSERS="$pool" EOUS_CLI="$BUILD/eous" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 exec "./$b" --jobs 2) >"$log" 2>&1
      rc=$?
      set -e
      t1=$(date +%s.%N)
      cpu=""
      if [[ -n "$cg" ]]; then
        sleep 0.5 # the browsers' last exits
        cpu=$(echo "scale=2; $(cat "$cg/cpuacct.usage") / 1000000000" | bc)
        rmdir "$cg" 2>/dev/null || true # a process still in it (a test's leak) keeps it: left, named by the PID
      fi
      syn="$(grep -o 'Tested: [0-9]* | Passing: [0-9]*' "$log" | tail -1)"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$b" "$mode" "$(echo "$t1 - $t0" | bc)" "$rc" "$syn" "$cpu" >> "$rows"
      echo "test_pool: round $r $b $mode: rc $rc, $syn${cpu:+, $cpu CPU-s}"
    done
  done
done
mkdir -p "$RESULTS"
node "$ROOT/benchmarks/perf/test_pool.mjs" "$WORK" "$RESULTS"

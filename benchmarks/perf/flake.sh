#!/usr/bin/env bash
# benchmarks/perf/flake.sh — the flake hunt: every ctest test of a build
# (default build/, the release build; TESTS narrows it by ctest regex) run N
# times in a row (default 3), one at a time.  Writes
# benchmarks/results/flake.{json,md} with the commit: per test its passes,
# failures and, for each failure, the first failed assertion (Criterion's
# "Assertion Failed" message, or the output's last line) so a flake is
# explained or reproduced, never averaged away.
#   N=3 TESTS='.' BUILD=build benchmarks/perf/flake.sh
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"; N="${N:-3}"; TESTS="${TESTS:-.}"
commit="$(git -C "$ROOT" rev-parse --short HEAD)"
[[ -d "$BUILD" ]] || { echo "flake: $BUILD: no such build directory (make build)" >&2; exit 2; }
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "flake: N '$N': expected a whole number of rounds >= 1" >&2; exit 2; }
WORK="$(mktemp -d /tmp/eous-flake-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
mapfile -t tests < <(cd "$BUILD" && ctest -N -R "$TESTS" | awk '/Test +#/ {print $3}')
((${#tests[@]})) || { echo "flake: no test matches '$TESTS' in $BUILD" >&2; exit 2; }
: > "$WORK/runs.jsonl"
t0=$SECONDS
for ((round = 1; round <= N; round++)); do
  for t in "${tests[@]}"; do
    log="$WORK/$t.$round.log"
    s=$SECONDS
    (cd "$BUILD" && ctest -R "^${t}\$" --output-on-failure >"$log" 2>&1) && rc=0 || rc=$?
    python3 - "$t" "$round" "$rc" "$((SECONDS - s))" "$log" >> "$WORK/runs.jsonl" <<'PY'
import json, sys
t, rnd, rc, secs, log = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
why = ""
if rc:
    lines = open(log, errors="replace").read().splitlines()
    for i, l in enumerate(lines):
        if "Assertion Failed" in l or "[FAIL]" in l or "not ok" in l:
            ctx = [x.replace("[----]", "").strip() for x in lines[max(0, i - 1):i + 4]]
            why = " ".join(x for x in ctx if x)[:300]
            break
    why = why or (lines[-1][:300] if lines else "no output")
print(json.dumps({"test": t, "round": rnd, "passed": rc == 0, "seconds": secs, "why": why}))
PY
    echo "flake: round $round/$N $t: $([[ $rc == 0 ]] && echo passed || echo FAILED) ($((SECONDS - s)) s)" >&2
  done
done
python3 - "$WORK/runs.jsonl" "$commit" "$N" "$ROOT/benchmarks/results/flake" "$((SECONDS - t0))" "$TESTS" <<'PY'
import json, sys, datetime, collections
runs = [json.loads(l) for l in open(sys.argv[1])]
commit, n, base, wall, sel = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
by = collections.OrderedDict()
for r in runs:
    by.setdefault(r["test"], []).append(r)
date = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
json.dump({"commit": commit, "date": date, "rounds": n, "tests": sel, "wall_s": wall, "runs": runs},
          open(base + ".json", "w"), indent=1)
flaky = [t for t, rs in by.items() if any(not r["passed"] for r in rs)]
with open(base + ".md", "w") as f:
    f.write("# Flake hunt (benchmarks/perf/flake.sh)\n\n")
    f.write("Commit %s, %s: every test matching `%s` run %d times in a row, one at a time (%d s). "
            "%d of %d tests passed every round.\n\n" % (commit, date, sel, n, wall, len(by) - len(flaky), len(by)))
    f.write("| test | passed | failed | median s |\n|---|---:|---:|---:|\n")
    for t, rs in by.items():
        secs = sorted(r["seconds"] for r in rs)
        f.write("| %s | %d | %d | %d |\n" % (t, sum(r["passed"] for r in rs), sum(not r["passed"] for r in rs),
                                          secs[len(secs) // 2]))
    if flaky:
        f.write("\n## Failures\n\n")
        for t in flaky:
            for r in by[t]:
                if not r["passed"]:
                    f.write("- %s, round %d: %s\n" % (t, r["round"], r["why"].replace("|", "\\|")))
PY
cat "$ROOT/benchmarks/results/flake.md"

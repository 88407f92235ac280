#!/usr/bin/env bash
# benchmarks/perf/flake.sh — the flake hunt: every ctest test of a build
# (default build/, the release build; TESTS narrows it by ctest regex) run N
# times in a row (default 3), one at a time.  Writes
# benchmarks/results/flake.{json,md} with the commit: per test its passes,
# failures and, for each failure, the first failed assertion (Criterion's
# "Assertion Failed" message, or the output's last line) so a flake is
# explained or reproduced, never averaged away.  The 1-minute load average is
# sampled as each run starts (the machine is shared).
#   N=3 TESTS='.' BUILD=build benchmarks/perf/flake.sh
# MERGE=1 keeps the tests of the existing flake.json that this selection does
# not run (a rerun of the tests that failed replaces only their rows; each row
# says the commit it ran at).  Runs are appended to
# benchmarks/results/tmp/flake-runs.jsonl as they end, so a hunt that is
# stopped keeps its rounds: RENDER=FILE writes flake.{json,md} from such a
# file without running anything.  benchmarks/results/flake.fixed.md, when
# present, is the "What was fixed" section (written by hand).  FLAKE_BESIDE
# says what else ran on the machine; it is printed beside the load.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"; N="${N:-3}"; TESTS="${TESTS:-.}"; MERGE="${MERGE:-0}"; RENDER="${RENDER:-}"
commit="$(git -C "$ROOT" rev-parse --short HEAD)"
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "flake: N '$N': expected a whole number of rounds >= 1" >&2; exit 2; }
mkdir -p "$ROOT/benchmarks/results/tmp"
runs="$ROOT/benchmarks/results/tmp/flake-runs.jsonl"
t0=$SECONDS
if [[ -n "$RENDER" ]]; then
  [[ -s "$RENDER" ]] || { echo "flake: RENDER '$RENDER': no such runs file" >&2; exit 2; }
  runs="$RENDER"
else
  [[ -d "$BUILD" ]] || { echo "flake: $BUILD: no such build directory (make build)" >&2; exit 2; }
  WORK="$(mktemp -d /tmp/eous-flake-XXXXXX)"
  trap 'rm -rf "$WORK"' EXIT
  mapfile -t tests < <(cd "$BUILD" && ctest -N -R "$TESTS" | awk '/Test +#/ {print $3}')
  ((${#tests[@]})) || { echo "flake: no test matches '$TESTS' in $BUILD" >&2; exit 2; }
  : > "$runs"
  for ((round = 1; round <= N; round++)); do
    for t in "${tests[@]}"; do
      log="$WORK/$t.$round.log"
      load="$(cut -d' ' -f1 /proc/loadavg)"
      s=$SECONDS
      (cd "$BUILD" && ctest -R "^${t}\$" --output-on-failure >"$log" 2>&1) && rc=0 || rc=$?
      python3 - "$t" "$round" "$rc" "$((SECONDS - s))" "$log" "$commit" "$load" >> "$runs" <<'PY'
import json, sys, datetime
t, rnd, rc, secs, log, commit, load = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], float(sys.argv[7])
why = ""
if rc:
    lines = open(log, errors="replace").read().splitlines()
    for i, l in enumerate(lines):
        if "Assertion Failed" in l or "[FAIL]" in l or "not ok" in l:
            ctx = [x.replace("[----]", "").strip() for x in lines[max(0, i - 1):i + 4]]
            why = " ".join(x for x in ctx if x)[:300]
            break
    why = why or (lines[-1][:300] if lines else "no output")
print(json.dumps({"test": t, "round": rnd, "passed": rc == 0, "seconds": secs, "why": why, "commit": commit,
                  "load": load, "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")}))
PY
      echo "flake: round $round/$N $t: $([[ $rc == 0 ]] && echo passed || echo FAILED) ($((SECONDS - s)) s, load $load)" >&2
    done
  done
fi
python3 - "$runs" "$commit" "$N" "$ROOT/benchmarks/results/flake" "$((SECONDS - t0))" "$TESTS" "$MERGE" <<'PY'
import json, sys, os, datetime, collections
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
commit, n, base, wall, sel, merge = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7] == "1"
fresh = {r["test"] for r in runs}
if merge and os.path.exists(base + ".json"):
    old = json.load(open(base + ".json"))
    runs = [r for r in old.get("runs", []) if r["test"] not in fresh] + runs
by = collections.OrderedDict()
for r in sorted(runs, key=lambda r: r.get("order", 0)):
    by.setdefault(r["test"], []).append(r)
date = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
loads = sorted(r["load"] for r in runs if "load" in r)
json.dump({"commit": commit, "date": date, "rounds": n, "tests": sel, "wall_s": wall, "runs": runs},
          open(base + ".json", "w"), indent=1)
flaky = [t for t, rs in by.items() if any(not r["passed"] for r in rs)]
three = [t for t, rs in by.items() if len(rs) >= 3 and all(r["passed"] for r in rs[-3:])]
commits = sorted({r.get("commit", "?") for r in runs})
with open(base + ".md", "w") as f:
    f.write("# Flake hunt (benchmarks/perf/flake.sh)\n\n")
    f.write("Written %s from runs at commit%s %s: every test run up to %d times in a row (the passed and failed "
            "columns count its rounds), one at a time, on the release build (RelWithDebInfo, -Werror, as `make "
            "build`). %d of %d tests passed every round they ran; %d passed their last 3 rounds in a row. "
            "1-minute load average as each run started: median %.1f, range %.1f–%.1f%s.\n\n"
            % (date, "s" if len(commits) > 1 else "", ", ".join(commits), n, len(by) - len(flaky), len(by), len(three),
               loads[len(loads) // 2] if loads else -1, loads[0] if loads else -1, loads[-1] if loads else -1,
               " (" + os.environ["FLAKE_BESIDE"] + ")" if os.environ.get("FLAKE_BESIDE") else ""))
    f.write("| test | passed | failed | last 3 in a row | median s | commit |\n|---|---:|---:|---|---:|---|\n")
    for t, rs in by.items():
        secs = sorted(r["seconds"] for r in rs)
        f.write("| %s | %d | %d | %s | %d | %s |\n" % (t, sum(r["passed"] for r in rs), sum(not r["passed"] for r in rs),
                "yes" if t in three else "no", secs[len(secs) // 2], ", ".join(sorted({r.get("commit", "?") for r in rs}))))
    if flaky:
        f.write("\n## Failures\n\n")
        for t in flaky:
            for r in by[t]:
                if not r["passed"]:
                    f.write("- %s, round %d (commit %s): %s\n" % (t, r["round"], r.get("commit", "?"),
                                                              r["why"].replace("|", "\\|")))
    fixed = base + ".fixed.md"
    if os.path.exists(fixed):
        f.write("\n## What was fixed\n\n" + open(fixed).read())
PY
cat "$ROOT/benchmarks/results/flake.md"

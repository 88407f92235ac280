#!/usr/bin/env bash
# benchmarks/perf/bench_scaling.sh — suite wall time, tasks/min and peak RSS of
# the eous process with 1, 2 and 4 workers, locally and through Selenium Grid.
# Peak RSS is eous's own (getrusage RUSAGE_SELF, printed by `eous bench`);
# GNU time's figure is kept beside it: it counts the reaped browsers too.
# Runs a fixed slice (first N tasks, default 8, hybrid + atomic) so runs are
# comparable, RUNS times (default 3: one run of the six set-ups takes 5 to 30
# minutes on this machine, by load and N), the set-ups interleaved within each run so load drifts
# hit them alike.  Reports the median and p95 (the slowest of 3) of wall time
# and tasks/min per set-up, and each worker count's speedup over 1 worker per
# run (its median and range).
# Writes benchmarks/results/bench_scaling.{md,json} with the commit and load average.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${EOUS:-$ROOT/build/eous}"
N="${N:-8}"
RUNS="${RUNS:-3}"
OUT="$(mktemp -d /tmp/eous-scaling-XXXXXX)"
cleanup() { kill "${SITE_PID:-}" 2>/dev/null || true; [[ -n "${GRID_DIR:-}" ]] && bash "$ROOT/scripts/grid" stop "$GRID_DIR" || true; rm -rf "$OUT"; }
trap cleanup EXIT
trap 'exit 143' INT TERM   # a stopped run still stops its site and Grid (EXIT runs cleanup)
command -v /usr/bin/time >/dev/null || { echo "bench_scaling: /usr/bin/time missing (apt-get install time)" >&2; exit 3; }
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "bench_scaling: RUNS '$RUNS': expected a whole number >= 1" >&2; exit 2; }
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "bench_scaling: N '$N': expected a whole number of tasks >= 1" >&2; exit 2; }
commit="$(git -C "$ROOT" rev-parse --short HEAD)"

mkdir -p "$OUT/slice"
mapfile -t all_tasks < <(printf '%s\n' "$ROOT"/benchmarks/grounds/tasks/playground/*.json | sort -V)
for f in "${all_tasks[@]:0:$N}"; do ln -s "$f" "$OUT/slice/"; done
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

: > "$OUT/runs.jsonl"
run() { # where workers run [webdriver]
  local where="$1" w="$2" r="$3" wd="${4:-}"
  local dir="$OUT/$where-$w-$r"
  local t0 t1 load
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$dir.rss" "$EOUS" bench "$OUT/slice" --modes hybrid,atomic --workers "$w" \
      ${wd:+--webdriver "$wd"} --out "$dir" >"$dir.out" 2>"$dir.log" || true
  t1=$(date +%s.%N)
  local wall jobs passed rss self attempts
  wall=$(echo "$t1 - $t0" | bc)
  # results.jsonl keeps every attempt: a job counts by its last, the others are reported beside it
  read -r jobs passed attempts < <(python3 -c '
import json, sys
last, bad = {}, 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    last[(r["task_id"], r["mode"])] = r
    bad += r["status"] != "passed"
passed = sum(r["status"] == "passed" for r in last.values())
print(len(last), passed, bad - (len(last) - passed))' "$dir/results.jsonl")
  rss=$(( $(tail -1 "$dir.rss") / 1024 ))
  self=$(grep -o 'eous peak RSS [0-9.]*' "$dir.out" | grep -o '[0-9.]*$' || echo 0)
  printf '{"where":"%s","workers":%d,"run":%d,"jobs":%d,"wall_s":%.1f,"passed":%d,"retried_attempts":%d,"eous_peak_rss_mib":%s,"with_children_peak_rss_mib":%d,"load_average":%s}\n' \
      "$where" "$w" "$r" "$jobs" "$wall" "$passed" "$attempts" "$self" "$rss" "$load" >> "$OUT/runs.jsonl"
  echo "bench_scaling: run $r/$RUNS $where workers=$w wall=${wall}s passed=$passed/$jobs (+$attempts attempts that did not pass) eous rss=${self}MiB (with children ${rss}MiB)" >&2
}
GRID_DIR="$OUT/grid"
GRID_URL="$(bash "$ROOT/scripts/grid" start --sessions 4 --dir "$GRID_DIR")"
for ((r = 1; r <= RUNS; r++)); do
  for w in 1 2 4; do run local "$w" "$r"; done
  for w in 1 2 4; do run grid "$w" "$r" "$GRID_URL"; done
done

python3 - "$OUT/runs.jsonl" "$ROOT/benchmarks/results/bench_scaling" "$commit" "$N" "$RUNS" <<'PY'
import json, sys, math, datetime
runs = [json.loads(l) for l in open(sys.argv[1])]
base, commit, n, nruns = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
def q(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(p * len(s)) - 1))]
date = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
loads = [r["load_average"] for r in runs]
rows = []
for where in ("local", "grid"):
    for w in (1, 2, 4):
        rs = [r for r in runs if r["where"] == where and r["workers"] == w]
        one = {r["run"]: r["wall_s"] for r in runs if r["where"] == where and r["workers"] == 1}
        walls = [r["wall_s"] for r in rs]
        tpm = [r["jobs"] * 60 / r["wall_s"] for r in rs]
        speed = [one[r["run"]] / r["wall_s"] for r in rs]
        rows.append({"where": where, "workers": w, "runs": len(rs), "jobs": rs[0]["jobs"],
                     "passed": sum(r["passed"] for r in rs), "jobs_total": sum(r["jobs"] for r in rs),
                     "retried_attempts": sum(r["retried_attempts"] for r in rs),
                     "wall_s_median": q(walls, .5), "wall_s_p95": q(walls, .95),
                     "tasks_per_min_median": q(tpm, .5), "tasks_per_min_p95": q(tpm, .05),
                     "speedup_over_1_median": q(speed, .5), "speedup_over_1_min": min(speed), "speedup_over_1_max": max(speed),
                     "eous_peak_rss_mib_median": q([r["eous_peak_rss_mib"] for r in rs], .5),
                     "eous_peak_rss_mib_max": max(r["eous_peak_rss_mib"] for r in rs),
                     "with_children_peak_rss_mib_median": q([r["with_children_peak_rss_mib"] for r in rs], .5)})
json.dump({"commit": commit, "date": date, "tasks": n, "runs": nruns, "load_average": loads, "rows": rows, "each_run": runs},
          open(base + ".json", "w"), indent=1)
with open(base + ".md", "w") as f:
    f.write("## Suite scaling: 1, 2 and 4 workers, local and through Selenium Grid\n\n")
    f.write("Commit %s, %s: the first %d Playground tasks, hybrid + atomic (%d jobs), %d runs (one run of the six "
            "set-ups takes 5 to 30 minutes here, so 3 rather than 5), set-ups interleaved within each run; load "
            "average %.1f–%.1f at the start of each (2 cores shared with other work).  Wall time and tasks/min: "
            "median (p95, the slowest run); speedup: each run's 1-worker wall time over this one's, median (range).  "
            "eous peak RSS is eous's own (getrusage); the last column is GNU time's, which counts the reaped "
            "browsers too (through the Grid they are the Grid's).\n\n"
            % (commit, date, n, rows[0]["jobs"], nruns, min(loads), max(loads)))
    f.write("Passed: jobs by their last attempt over all runs; attempts retried: earlier attempts that did not pass "
            "(the bench retries infrastructure failures), in the wall time.\n\n")
    f.write("| where | workers | passed | attempts retried | wall s | tasks/min | speedup over 1 worker | eous peak RSS (MiB) | incl. reaped children (MiB) |\n")
    f.write("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        f.write("| %s | %d | %d/%d | %d | %.1f (%.1f) | %.1f (%.1f) | %.2f× (%.2f–%.2f) | %.1f | %d |\n" % (
            r["where"], r["workers"], r["passed"], r["jobs_total"], r["retried_attempts"], r["wall_s_median"], r["wall_s_p95"],
            r["tasks_per_min_median"], r["tasks_per_min_p95"], r["speedup_over_1_median"], r["speedup_over_1_min"],
            r["speedup_over_1_max"], r["eous_peak_rss_mib_median"], r["with_children_peak_rss_mib_median"]))
print(open(base + ".md").read())
PY

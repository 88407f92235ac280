#!/usr/bin/env bash
# benchmarks/perf/soak.sh — a long `eous bench`: N task runs (default 500; the
# Playground suite repeated, each copy under its own task id) in one eous
# process with one worker, --restart-browser-every R (default 100) and
# --fail-on any-attempt (an earlier failed attempt fails the exit code too).
# Every SAMPLE tasks (default 50) it samples eous's own RSS (VmRSS of the eous
# pid), the memory of the browsers and drivers under it (Pss over its process tree) and
# eous's open fds.  Writes benchmarks/results/soak.{md,json} with the commit,
# the samples, the RSS growth from the first sample to the last (target <= 5%)
# and every attempt that did not pass, with its reason.  MINUTES (default 0: no limit) bounds the run: eous gets
# SIGTERM then, finishes as an interrupted bench, and the report says how far
# it came.
#   N=500 SAMPLE=50 RESTART=100 MINUTES=0 benchmarks/perf/soak.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${EOUS:-$ROOT/build/eous}"
commit="$(git -C "$ROOT" rev-parse --short HEAD)" # at the start: the tree the binary was built from
N="${N:-500}"; SAMPLE="${SAMPLE:-50}"; RESTART="${RESTART:-100}"; MINUTES="${MINUTES:-0}"
OUT="$(mktemp -d /tmp/eous-soak-XXXXXX)"
trap 'kill "${SITE_PID:-}" 2>/dev/null || true; [[ -n "${EOUS_PID:-}" ]] && kill "$EOUS_PID" 2>/dev/null; rm -rf "$OUT"' EXIT

# N task files: the suite repeated, each copy with its own task id ("s00042-17"),
# so every run is its own line in the reports and no failure hides behind a copy
mkdir -p "$OUT/tasks"
python3 - "$ROOT/benchmarks/grounds/tasks/playground" "$OUT/tasks" "$N" <<'PY'
import json, os, re, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
key = lambda f: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", f)]
suite = sorted((f for f in os.listdir(src) if f.endswith(".json")), key=key)
for i in range(n):
    task = json.load(open(os.path.join(src, suite[i % len(suite)])))
    task["task_id"] = "s%05d-%s" % (i, task["task_id"])
    json.dump(task, open(os.path.join(dst, "%05d.json" % i), "w"))
PY
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

"$EOUS" bench "$OUT/tasks" --workers 1 --restart-browser-every "$RESTART" --fail-on any-attempt --out "$OUT/run" \
    >"$OUT/bench.out" 2>"$OUT/bench.log" & EOUS_PID=$!
# KiB of memory of every process under pid (its browsers and drivers), pid itself excluded: the sum of
# their proportional set sizes (Pss), so pages chromium's processes share are counted once, not per process
tree_rss() {
  local kids
  kids=$(ps -eo pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2 }
    END { for (p in parent) { q = parent[p]; while (q && q != root && q in parent) q = parent[q];
          if (q == root && p != root) print p } }')
  local sum=0 k v
  for k in $kids; do
    v=$(awk '/^Pss:/ {print $2}' "/proc/$k/smaps_rollup" 2>/dev/null || true)
    sum=$(( sum + ${v:-0} ))
  done
  echo "$sum"
}
samples=()
next="$SAMPLE"
deadline=$(( MINUTES > 0 ? SECONDS + MINUTES * 60 : 0 )); stopped=0
while kill -0 "$EOUS_PID" 2>/dev/null; do
  if (( deadline && SECONDS >= deadline && !stopped )); then
    kill -TERM "$EOUS_PID" 2>/dev/null || true; stopped=1
    echo "soak: the ${MINUTES}-minute budget is spent; eous stops as an interrupted bench" >&2
  fi
  # results.jsonl appears with the first finished job; until then 0
  # results.jsonl grows one line per attempt; close enough to tasks done for a sampling cadence
  done_n=0; [[ -f "$OUT/run/results.jsonl" ]] && done_n=$(wc -l < "$OUT/run/results.jsonl")
  if (( done_n >= next )); then
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$EOUS_PID/status" 2>/dev/null || echo 0)
    fds=$(ls "/proc/$EOUS_PID/fd" 2>/dev/null | wc -l || true)
    brss=$(tree_rss "$EOUS_PID")
    samples+=("{\"tasks\":$done_n,\"rss_kib\":$rss,\"browser_rss_kib\":$brss,\"fds\":$fds}"); rec_n=$done_n
    echo "soak: $done_n tasks, eous RSS ${rss} KiB, browsers ${brss} KiB, ${fds} fds" >&2
    next=$(( (done_n / SAMPLE + 1) * SAMPLE ))
  elif (( done_n > 0 )); then
    # the latest reading, kept so the run's end is sampled too (the process is gone after the last job)
    last_rss=$(awk '/^VmRSS/ {print $2}' "/proc/$EOUS_PID/status" 2>/dev/null || echo 0)
    last_fds=$(ls "/proc/$EOUS_PID/fd" 2>/dev/null | wc -l || true)
    last_brss=$(tree_rss "$EOUS_PID")
    [[ "$last_rss" != 0 ]] && { last="{\"tasks\":$done_n,\"rss_kib\":$last_rss,\"browser_rss_kib\":$last_brss,\"fds\":$last_fds}"; last_n=$done_n; }
  fi
  sleep 0.5
done
# the run's end, sampled while eous writes its reports from every result line: shown, not counted as growth
if [[ -n "${last:-}" ]] && (( last_n > ${rec_n:-0} )); then samples+=("${last%\}},\"phase\":\"end\"}"); fi
wait "$EOUS_PID" && code=0 || code=$?
EOUS_PID=""
cp "$OUT/run/results.jsonl" "$OUT/results.jsonl"

json="$(printf '%s,' "${samples[@]}")"; json="[${json%,}]"
python3 - "$json" "$N" "$RESTART" "$OUT/results.jsonl" "$code" "$commit" "$ROOT/benchmarks/results/soak" "$MINUTES" "$stopped" <<'PY'
import json, sys, datetime
samples = json.loads(sys.argv[1]); n, restart = int(sys.argv[2]), int(sys.argv[3]); code = int(sys.argv[5])
commit, base = sys.argv[6:8]
minutes, stopped = int(sys.argv[8]), int(sys.argv[9])
rows = [json.loads(l) for l in open(sys.argv[4]) if l.strip()]
last = {}
for r in rows:  # each task counted by its last attempt; every other attempt stays listed
    last[(r["task_id"], r["mode"])] = r
jobs = len(last); passed = sum(r["status"] == "passed" for r in last.values())
not_passed = [r for r in rows if r["status"] != "passed"]
growth = None
during = [x for x in samples if x.get("phase") != "end"]  # the end sample is the report phase, not the run
if len(during) >= 2 and during[0]["rss_kib"]:
    growth = (during[-1]["rss_kib"] - during[0]["rss_kib"]) / during[0]["rss_kib"] * 100
fd_delta = samples[-1]["fds"] - samples[0]["fds"] if len(samples) >= 2 else None
bgrowth = None
if len(samples) >= 2 and samples[0].get("browser_rss_kib"):
    bgrowth = (samples[-1]["browser_rss_kib"] - samples[0]["browser_rss_kib"]) / samples[0]["browser_rss_kib"] * 100
res = {"commit": commit, "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), "tasks_asked": n,
       "tasks_run": jobs, "passed": passed, "attempts": len(rows), "failed_attempts": len(not_passed),
       "not_passed": [{k: r.get(k) for k in ("task_id", "mode", "attempt", "status", "stop_reason", "error")}
                      for r in not_passed],
       "exit": code, "restart_browser_every": restart, "samples": samples, "browser_rss_growth_pct": bgrowth,
       "rss_growth_pct_first_to_last_sample": growth, "fd_delta_first_to_last_sample": fd_delta,
       "stopped_by_time_budget_minutes": minutes if stopped else None}
json.dump(res, open(base + ".json", "w"), indent=1)
with open(base + ".md", "w") as f:
    f.write("# Soak: one `eous bench` process, %d task runs asked, %d/%d passed · %d attempts did not pass, exit %d\n\n"
            % (n, passed, jobs, len(not_passed), code))
    f.write("Commit %s, %s; one worker, `--restart-browser-every %d`, `--fail-on any-attempt`; each copy of a task "
            "has its own id; eous's VmRSS, the memory of its browsers and drivers (Pss summed over its process tree) "
            "and eous's open fds sampled.\n\n" % (commit, res["date"], restart))
    if stopped:
        f.write("The run was stopped by its %d-minute budget (SIGTERM) after %d task runs; the figures cover those.\n\n" % (minutes, jobs))
    f.write("| tasks | eous RSS (KiB) | browsers' Pss (KiB) | open fds |\n|---:|---:|---:|---:|\n")
    for s in samples:
        f.write("| %s | %d | %d | %d |\n" % ("%d (end: writing the reports)" % s["tasks"] if s.get("phase") == "end"
                                              else s["tasks"], s["rss_kib"], s.get("browser_rss_kib", 0), s["fds"]))
    f.write("\neous RSS growth first→last sample during the run: %s (target ≤ 5%%); browsers' Pss: %s (a fresh browser every %d "
            "tasks); fd change: %s.\n" %
            ("%.1f%%" % growth if growth is not None else "n/a", "%+.1f%%" % bgrowth if bgrowth is not None else "n/a",
             restart, fd_delta if fd_delta is not None else "n/a"))
    f.write("\n## Every attempt that did not pass\n\n")
    if not not_passed:
        f.write("None.\n")
    else:
        f.write("| task | mode | attempt | status | stop reason | error |\n|---|---|---:|---|---|---|\n")
        for r in not_passed:
            f.write("| %s | %s | %s | %s | %s | %s |\n" % (r["task_id"], r["mode"], r.get("attempt", ""), r["status"],
                    r.get("stop_reason", ""), (r.get("error") or "").replace("|", "\\|")[:200]))
PY
cat "$ROOT/benchmarks/results/soak.md"

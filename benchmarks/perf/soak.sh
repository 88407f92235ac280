#!/usr/bin/env bash
# benchmarks/perf/soak.sh — a long `eous bench`: N task runs (default 500; the
# Playground suite repeated) in one eous process with one worker and
# --restart-browser-every R (default 100).  Every SAMPLE tasks (default 50)
# it samples eous's own RSS (VmRSS of the eous pid, not its browsers) and its
# open fds (/proc/PID/fd).  Writes benchmarks/results/soak.{md,json} with the
# commit, the samples and the RSS growth from the first sample to the last
# (target <= 5%).  MINUTES (default 0: no limit) bounds the run: eous gets
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

# N task files: the suite repeated, each copy under its own name
mkdir -p "$OUT/tasks"
mapfile -t suite < <(printf '%s\n' "$ROOT"/benchmarks/tasks/playground/*.json | sort -V)
for ((i = 0; i < N; i++)); do
  ln -s "${suite[$((i % ${#suite[@]}))]}" "$OUT/tasks/$(printf '%05d' "$i").json"
done
fifo="$OUT/site.fifo"; mkfifo "$fifo"
bash "$ROOT/scripts/serve-site" --port 0 >"$fifo" & SITE_PID=$!
read -r EOUS_SITE_PLAYGROUND <"$fifo"; export EOUS_SITE_PLAYGROUND

"$EOUS" bench "$OUT/tasks" --workers 1 --restart-browser-every "$RESTART" --out "$OUT/run" \
    >"$OUT/bench.out" 2>"$OUT/bench.log" & EOUS_PID=$!
samples=()
next="$SAMPLE"
deadline=$(( MINUTES > 0 ? SECONDS + MINUTES * 60 : 0 )); stopped=0
while kill -0 "$EOUS_PID" 2>/dev/null; do
  if (( deadline && SECONDS >= deadline && !stopped )); then
    kill -TERM "$EOUS_PID" 2>/dev/null || true; stopped=1
    echo "soak: the ${MINUTES}-minute budget is spent; eous stops as an interrupted bench" >&2
  fi
  # results.jsonl appears with the first finished job; until then 0
  done_n=0; [[ -f "$OUT/run/results.jsonl" ]] && done_n=$(wc -l < "$OUT/run/results.jsonl")
  if (( done_n >= next )); then
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$EOUS_PID/status" 2>/dev/null || echo 0)
    fds=$(ls "/proc/$EOUS_PID/fd" 2>/dev/null | wc -l || true)
    samples+=("{\"tasks\":$done_n,\"rss_kib\":$rss,\"fds\":$fds}"); rec_n=$done_n
    echo "soak: $done_n tasks, eous RSS ${rss} KiB, ${fds} fds" >&2
    next=$(( (done_n / SAMPLE + 1) * SAMPLE ))
  elif (( done_n > 0 )); then
    # the latest reading, kept so the run's end is sampled too (the process is gone after the last job)
    last_rss=$(awk '/^VmRSS/ {print $2}' "/proc/$EOUS_PID/status" 2>/dev/null || echo 0)
    last_fds=$(ls "/proc/$EOUS_PID/fd" 2>/dev/null | wc -l || true)
    [[ "$last_rss" != 0 ]] && { last="{\"tasks\":$done_n,\"rss_kib\":$last_rss,\"fds\":$last_fds}"; last_n=$done_n; }
  fi
  sleep 0.5
done
if [[ -n "${last:-}" ]] && (( last_n > ${rec_n:-0} )); then samples+=("$last"); fi
wait "$EOUS_PID" && code=0 || code=$?
EOUS_PID=""
jobs=$(wc -l < "$OUT/run/results.jsonl" || echo 0)
passed=$(grep -c '"status":"passed"' "$OUT/run/results.jsonl" || true)

json="$(printf '%s,' "${samples[@]}")"; json="[${json%,}]"
python3 - "$json" "$N" "$RESTART" "$jobs" "$passed" "$code" "$commit" "$ROOT/benchmarks/results/soak" "$MINUTES" "$stopped" <<'PY'
import json, sys, datetime
samples = json.loads(sys.argv[1]); n, restart, jobs, passed, code = map(int, sys.argv[2:7]); commit, base = sys.argv[7:9]
minutes, stopped = int(sys.argv[9]), int(sys.argv[10])
growth = None
if len(samples) >= 2 and samples[0]["rss_kib"]:
    growth = (samples[-1]["rss_kib"] - samples[0]["rss_kib"]) / samples[0]["rss_kib"] * 100
fd_delta = samples[-1]["fds"] - samples[0]["fds"] if len(samples) >= 2 else None
res = {"commit": commit, "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), "tasks_asked": n,
       "tasks_run": jobs, "passed": passed, "exit": code, "restart_browser_every": restart, "samples": samples,
       "rss_growth_pct_first_to_last_sample": growth, "fd_delta_first_to_last_sample": fd_delta,
       "stopped_by_time_budget_minutes": minutes if stopped else None}
json.dump(res, open(base + ".json", "w"), indent=1)
with open(base + ".md", "w") as f:
    f.write("# Soak: one `eous bench` process, %d task runs asked, %d run (%d passed), exit %d\n\n" % (n, jobs, passed, code))
    f.write("Commit %s, %s; one worker, `--restart-browser-every %d`; eous's own VmRSS and open fds sampled.\n\n" % (commit, res["date"], restart))
    if stopped:
        f.write("The run was stopped by its %d-minute budget (SIGTERM) after %d task runs; the figures cover those.\n\n" % (minutes, jobs))
    f.write("| tasks | eous RSS (KiB) | open fds |\n|---:|---:|---:|\n")
    for s in samples:
        f.write("| %d | %d | %d |\n" % (s["tasks"], s["rss_kib"], s["fds"]))
    f.write("\nRSS growth first→last sample: %s (target ≤ 5%%); fd change: %s.\n" %
            ("%.1f%%" % growth if growth is not None else "n/a", fd_delta if fd_delta is not None else "n/a"))
PY
cat "$ROOT/benchmarks/results/soak.md"

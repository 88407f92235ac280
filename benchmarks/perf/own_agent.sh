#!/usr/bin/env bash
# benchmarks/perf/own_agent.sh — your own agent, measured (issue 51 item 5): the Python reference agent
# (examples/agents/agent.py) through `--planner exec` beside `--planner llm`, both on the stand-in model
# (benchmarks/standin), on the Playground and DokuWiki at the same settings; then
# benchmarks/perf/own_agent.mjs writes own_agent.{md,json} (pass counts and round trips side by side, the
# protocol's own cost per step from the traces' agent_ms, and the --workers 4 run's lines checked whose
# they were).
#
#   benchmarks/perf/own_agent.sh [OUT_DIR] [RESULTS_DIR]
#
# Runs, each on both grounds with --modes $MODES (default hybrid,pruned,atomic), the defaults otherwise
# (--history full, deltas on, --max-batch 8):
#   llm     --planner llm --llm openai:standin, --workers 2
#   exec    --planner exec --agent 'python3 examples/agents/agent.py', --workers 2
#   exec4   the same with --workers 4 (grounds: $GROUNDS4, default playground; modes: $MODES4, default $MODES)
# GROUNDS="playground" one ground; RUNS="exec" some of the runs (default llm exec exec4); TASKS_PLAYGROUND /
# TASKS_DOKUWIKI other task dirs (a slice).  Runs made apart (on a loaded machine, side by side) can be put in
# one OUT_DIR and read by own_agent.mjs alone.
# Services run on loopback free ports and are stopped by PID on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
EOUS="$BUILD/eous"
OUT="${1:-$ROOT/out/own_agent}"
RESULTS="${2:-$ROOT/benchmarks/results}"
MODES="${MODES:-hybrid,pruned,atomic}"
GROUNDS="${GROUNDS:-playground dokuwiki}"
GROUNDS4="${GROUNDS4:-playground}"
MODES4="${MODES4:-$MODES}"
RUNS=" ${RUNS:-llm exec exec4} "
TASKS_PLAYGROUND="${TASKS_PLAYGROUND:-$ROOT/benchmarks/grounds/tasks/playground}"
TASKS_DOKUWIKI="${TASKS_DOKUWIKI:-$ROOT/benchmarks/grounds/tasks/dokuwiki}"
AGENT="python3 $ROOT/examples/agents/agent.py"

[[ -x "$EOUS" ]] || { echo "own_agent: $EOUS not built (run make build)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "own_agent: python3 not on PATH (the reference agent needs it)" >&2; exit 2; }
[[ -f "$ROOT/benchmarks/grounds/playground/dist/index.html" ]] || bash "$ROOT/scripts/build-site"
[[ -d "$ROOT/benchmarks/standin/node_modules" ]] ||
  { echo "own_agent: benchmarks/standin/node_modules missing (run scripts/setup)" >&2; exit 2; }
for g in $GROUNDS $GROUNDS4; do
  case "$g" in playground|dokuwiki) ;; *) echo "own_agent: GROUNDS: unknown ground '$g' (expected playground, dokuwiki)" >&2; exit 2 ;; esac
done

WIKI_DIR=""
source "$ROOT/benchmarks/perf/lib/services.sh"
cleanup() {
  services_stop
  [[ -z "$WIKI_DIR" ]] || bash "$ROOT/scripts/wiki" stop "$WIKI_DIR" || true
}
trap cleanup EXIT
services_start
# what the reference agent reads: the same model at the same endpoint
export OPENAI_BASE_URL="$STANDIN_URL" OPENAI_MODEL=standin

WIKI_URL=""
if [[ " $GROUNDS $GROUNDS4 " == *" dokuwiki "* ]]; then
  WIKI_DIR="$OUT/wiki"
  if WIKI_URL="$(bash "$ROOT/scripts/wiki" start --dir "$WIKI_DIR" --secrets "$OUT/wiki-secrets.env")"; then
    export EOUS_SITE_DOKUWIKI="$WIKI_URL" EOUS_SITE_DOKUWIKI_RESET="$ROOT/scripts/wiki reset $WIKI_DIR"
  else
    echo "own_agent: DokuWiki did not start; its suite is skipped" >&2
    WIKI_URL=""
  fi
fi

echo "own_agent: Playground $EOUS_SITE_PLAYGROUND, stand-in $STANDIN_URL, DokuWiki ${WIKI_URL:-none}"
rc=0
# one bench: run name, ground, workers, planner args
bench() {
  local run="$1" ground="$2" workers="$3" modes="$4" tasks more=()
  shift 4
  [[ "$RUNS" == *" $run "* ]] || return 0
  if [[ "$ground" == dokuwiki ]]; then
    [[ -n "$WIKI_URL" ]] || return 0
    tasks="$TASKS_DOKUWIKI" more=(--secrets "$OUT/wiki-secrets.env")
  else
    tasks="$TASKS_PLAYGROUND"
  fi
  echo "own_agent: $run on $ground ($(date -u +%H:%M:%S))"
  local start=$SECONDS brc
  set +e
  "$EOUS" bench "$tasks" --modes "$modes" --workers "$workers" --out "$OUT/$run/$ground" "$@" "${more[@]}" \
    >"$OUT/$run-$ground.log" 2>&1
  brc=$?
  set -e
  echo "{\"run\":\"$run\",\"ground\":\"$ground\",\"workers\":$workers,\"seconds\":$((SECONDS - start))}" >>"$OUT/wall.jsonl"
  # 1 is "some task failed": own_agent.mjs compares the runs task by task
  ((brc <= 1)) || { echo "own_agent: eous bench ($run, $ground) exited $brc; see $OUT/$run-$ground.log" >&2; rc=$brc; }
}
for ground in $GROUNDS; do
  bench llm "$ground" 2 "$MODES" --planner llm --llm openai:standin --llm-base-url "$STANDIN_URL"
  bench exec "$ground" 2 "$MODES" --planner exec --agent "$AGENT"
done
for ground in $GROUNDS4; do
  bench exec4 "$ground" 4 "$MODES4" --planner exec --agent "$AGENT"
done
echo "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/load"
mkdir -p "$RESULTS"
set +e
node "$ROOT/benchmarks/perf/own_agent.mjs" "$OUT" "$RESULTS"
mrc=$?
set -e
((rc != 0)) || rc=$mrc
exit $rc

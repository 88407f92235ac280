#!/usr/bin/env bash
# benchmarks/perf/step_latency.sh — what one step costs (perceive · act · settle) on the Playground
# and DokuWiki, with the settle by its rule and with the old fixed quiet (--settle quiet:150), and
# where a task's time goes besides its steps (the site's lock and reset, the start page, scoring);
# then benchmarks/perf/step_latency.mjs writes step_latency.{md,json}.
#
#   benchmarks/perf/step_latency.sh [OUT_DIR] [RESULTS_DIR]
#
# The script planner runs the tasks' own scripts (the RPA path: no model, so a step is the browser's
# work alone and plan time is nil), --workers 1, one run at a time, hybrid and atomic, --max-batch 1
# (every action has its own perceive, so a step is perceive + act + settle as the trace times it).
# Then DokuWiki on the model path (the stand-in, hybrid; MODEL_PATH=0 skips it) under "model", and
# benchmarks/perf/step_latency_mcp.mjs (MCP=0 skips it): `eous mcp` and Playwright MCP doing the
# same actions, MCP_ACTIONS (default 60) per ground.
# TASKS_PLAYGROUND (default: the first 12 Playground tasks) and TASKS_DOKUWIKI (all 24) are task
# files or directories; SETTLES (default "rule quiet:150") the settles compared.
# Services run on loopback free ports and are stopped by PID on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
EOUS="$BUILD/eous"
OUT="${1:-$ROOT/out/step_latency}"
RESULTS="${2:-$ROOT/benchmarks/results}"
SETTLES="${SETTLES:-rule quiet:150}"
MODES="${MODES:-hybrid,atomic}"
if [[ -z "${TASKS_PLAYGROUND:-}" ]]; then
  all=("$ROOT"/benchmarks/grounds/tasks/playground/*.json)
  TASKS_PLAYGROUND="${all[*]:0:12}"
fi
TASKS_DOKUWIKI="${TASKS_DOKUWIKI:-$ROOT/benchmarks/grounds/tasks/dokuwiki}"

[[ -x "$EOUS" ]] || { echo "step_latency: $EOUS not built (run make build)" >&2; exit 2; }
[[ -f "$ROOT/benchmarks/grounds/playground/dist/index.html" ]] || bash "$ROOT/scripts/build-site"

SITE_PID="" WIKI_DIR="" STANDIN_PID=""
tmp="$(mktemp -d)"
cleanup() {
  [[ -z "$SITE_PID" ]] || kill "$SITE_PID" 2>/dev/null || true
  [[ -z "$STANDIN_PID" ]] || kill "$STANDIN_PID" 2>/dev/null || true
  [[ -z "$WIKI_DIR" ]] || bash "$ROOT/scripts/wiki" stop "$WIKI_DIR" || true
  rm -rf "$tmp"
}
trap cleanup EXIT

mkfifo "$tmp/site"
bash "$ROOT/scripts/serve-site" --port 0 >"$tmp/site" &
SITE_PID=$!
read -r -t 60 EOUS_SITE_PLAYGROUND <"$tmp/site" || { echo "step_latency: the Playground did not start" >&2; exit 3; }
export EOUS_SITE_PLAYGROUND
rm -rf "$OUT"
mkdir -p "$OUT"
git -C "$ROOT" rev-parse --short HEAD >"$OUT/commit" 2>/dev/null || echo unknown >"$OUT/commit"
[[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]] ||
  sed -i 's/$/ (with uncommitted changes)/' "$OUT/commit"
cut -d' ' -f1 /proc/loadavg >"$OUT/load_start"

WIKI_DIR="$OUT/wiki-instance"
if WIKI_URL="$(bash "$ROOT/scripts/wiki" start --dir "$WIKI_DIR" --secrets "$OUT/wiki-secrets.env")"; then
  export EOUS_SITE_DOKUWIKI="$WIKI_URL" EOUS_SITE_DOKUWIKI_RESET="$ROOT/scripts/wiki reset $WIKI_DIR"
else
  echo "step_latency: DokuWiki did not start; its runs are skipped" >&2
  WIKI_DIR=""
fi

rc=0
for settle in $SETTLES; do
  for ground in playground dokuwiki; do
    more=()
    if [[ "$ground" == dokuwiki ]]; then
      [[ -n "$WIKI_DIR" ]] || continue
      # shellcheck disable=SC2206
      tasks=($TASKS_DOKUWIKI) more=(--secrets "$OUT/wiki-secrets.env")
    else
      # shellcheck disable=SC2206
      tasks=($TASKS_PLAYGROUND)
    fi
    dir="$OUT/${settle/:/-}/$ground"
    echo "step_latency: --settle $settle on $ground"
    set +e
    "$EOUS" bench "${tasks[@]}" --modes "$MODES" --planner script --workers 1 --max-batch 1 --settle "$settle" \
      --out "$dir" "${more[@]}" >"$OUT/${settle/:/-}-$ground.log" 2>&1
    brc=$?
    set -e
    ((brc <= 1)) || { echo "step_latency: eous bench ($settle, $ground) exited $brc; see the log" >&2; rc=$brc; }
  done
done
# DokuWiki on the model path as `make demo` runs it (the stand-in model, hybrid, default settings),
# for what a step costs there besides perceive, act and settle: the plan (the model's round trip)
if [[ "${MODEL_PATH:-1}" == 1 && -n "$WIKI_DIR" && -d "$ROOT/benchmarks/standin/node_modules" ]]; then
  mkfifo "$tmp/standin"
  node "$ROOT/benchmarks/standin/standin.mjs" --tasks "$TASKS_DOKUWIKI" --log "$OUT/standin.jsonl" >"$tmp/standin" &
  STANDIN_PID=$!
  read -r -t 60 port <"$tmp/standin" || { echo "step_latency: the stand-in did not start" >&2; exit 3; }
  echo "step_latency: the model path (stand-in) on dokuwiki"
  # shellcheck disable=SC2206
  tasks=($TASKS_DOKUWIKI)
  set +e
  OPENAI_API_KEY=standin-local-key "$EOUS" bench "${tasks[@]}" --modes hybrid --planner llm --llm openai:standin \
    --llm-base-url "http://127.0.0.1:${port#PORT }" --workers 1 --secrets "$OUT/wiki-secrets.env" \
    --out "$OUT/model/dokuwiki" >"$OUT/model-dokuwiki.log" 2>&1
  set -e
  kill "$STANDIN_PID" 2>/dev/null || true
  STANDIN_PID=""
fi
# the same kind of actions through `eous mcp` and Playwright MCP, one server at a time
if [[ "${MCP:-1}" == 1 && -d "$ROOT/benchmarks/compare/node_modules/@playwright/mcp" ]]; then
  echo "step_latency: eous mcp and Playwright MCP"
  node "$ROOT/benchmarks/perf/step_latency_mcp.mjs" "$OUT" "${MCP_ACTIONS:-60}" >"$OUT/mcp.log" 2>&1 ||
    echo "step_latency: the MCP comparison failed; see $OUT/mcp.log" >&2
fi
cut -d' ' -f1 /proc/loadavg >"$OUT/load_end"
mkdir -p "$RESULTS"
node "$ROOT/benchmarks/perf/step_latency.mjs" "$OUT" "$RESULTS" "$SETTLES model"
exit $rc

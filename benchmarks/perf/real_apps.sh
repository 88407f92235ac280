#!/usr/bin/env bash
# benchmarks/perf/real_apps.sh — DokuWiki (a real application, no registry: what the hybrid view
# shows there is the native provider's) through the view-bound stand-in model, hybrid vs pruned vs
# atomic at the defaults (--history full, deltas on, --max-batch 8); then the Playground with CI4A
# off (?ci4a=off: no registry, no data-cid; tasks copied by real_apps.mjs --ci4a-off) in hybrid vs
# atomic (PLAYGROUND_MODES), the hybrid tasks that did not pass re-grounded once more against the
# views their first run printed (real_apps.mjs --reground)
# and run again; then benchmarks/perf/real_apps.mjs writes RESULTS_DIR/real_apps.md
# with the commit.  MediaWiki (Debian's package, scripts/mediawiki: OOUI widgets) runs as DokuWiki does,
# each mode from the installed wiki.  PLAYGROUND=0 skips the Playground (real_apps.md keeps the Playground
# section it held, with the commit that measured it), DOKUWIKI=0 DokuWiki, MEDIAWIKI=0 MediaWiki
# (real_apps.md then says which part was not measured).
#
#   benchmarks/perf/real_apps.sh [OUT_DIR] [RESULTS_DIR]
#
# Services run on loopback free ports and are stopped by PID on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
EOUS="$BUILD/eous"
OUT="${1:-$ROOT/out/real_apps}"
RESULTS="${2:-$ROOT/benchmarks/results}"
WORKERS="${WORKERS:-2}"
TASKS="${TASKS_DOKUWIKI:-$ROOT/benchmarks/grounds/tasks/dokuwiki}"
TASKS_PLAYGROUND="${TASKS_PLAYGROUND:-$ROOT/benchmarks/grounds/tasks/playground}"
PLAYGROUND="${PLAYGROUND:-1}"
DOKUWIKI="${DOKUWIKI:-1}"
MEDIAWIKI="${MEDIAWIKI:-1}"
TASKS_MEDIAWIKI="${TASKS_MEDIAWIKI:-$ROOT/benchmarks/grounds/tasks/mediawiki}"
PLAYGROUND_MODES="${PLAYGROUND_MODES:-hybrid atomic}"

[[ -x "$EOUS" ]] || { echo "real_apps: $EOUS not built (run make build)" >&2; exit 2; }
[[ -d "$ROOT/benchmarks/standin/node_modules" ]] ||
  { echo "real_apps: benchmarks/standin/node_modules missing (run scripts/setup)" >&2; exit 2; }

STANDIN_PID="" STANDIN2_PID="" WIKI_DIR="" SITE_PID="" MW_DIR=""
tmp="$(mktemp -d)"
cleanup() {
  [[ -z "$STANDIN_PID" ]] || kill "$STANDIN_PID" 2>/dev/null || true
  [[ -z "$STANDIN2_PID" ]] || kill "$STANDIN2_PID" 2>/dev/null || true
  [[ -z "$SITE_PID" ]] || kill "$SITE_PID" 2>/dev/null || true
  [[ -z "$WIKI_DIR" ]] || bash "$ROOT/scripts/wiki" stop "$WIKI_DIR" || true
  [[ -z "$MW_DIR" ]] || bash "$ROOT/scripts/mediawiki" stop "$MW_DIR" || true
  rm -rf "$tmp"
}
trap cleanup EXIT

rm -rf "$OUT"
mkdir -p "$OUT"
git -C "$ROOT" rev-parse --short HEAD >"$OUT/commit" 2>/dev/null || echo unknown >"$OUT/commit"
[[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]] ||
  sed -i 's/$/ (with uncommitted changes)/' "$OUT/commit"
mkfifo "$tmp/standin"
standin_tasks=()
[[ "$DOKUWIKI" == 0 ]] || standin_tasks+=(--tasks "$TASKS")
if [[ "$MEDIAWIKI" != 0 ]]; then
  # the stand-in plays what a model can send: a task whose plans hold a script-only step (wait) is left
  # out of the model path (named in mediawiki-left-out.txt; the script planner runs it in test_mediawiki_site)
  mkdir -p "$OUT/mediawiki-tasks"
  node -e 'const fs = require("fs"), path = require("path"), [src, dst, out] = process.argv.slice(1), left = [];
    for (const f of fs.readdirSync(src).filter(f => /^\d+\.json$/.test(f))) {
      const t = JSON.parse(fs.readFileSync(path.join(src, f), "utf8"));
      if ([...t.script, ...t.atomic_script].flat().some(s => "wait" in s)) left.push(t.task_id);
      else fs.copyFileSync(path.join(src, f), path.join(dst, f));
    }
    fs.writeFileSync(out, left.map(id => id + "\n").join(""));' "$TASKS_MEDIAWIKI" "$OUT/mediawiki-tasks" "$OUT/mediawiki-left-out.txt"
  TASKS_MEDIAWIKI="$OUT/mediawiki-tasks"
  standin_tasks+=(--tasks "$TASKS_MEDIAWIKI")
fi
if [[ "$PLAYGROUND" != 0 ]]; then
  [[ -f "$ROOT/benchmarks/grounds/playground/dist/index.html" ]] || bash "$ROOT/scripts/build-site"
  mkfifo "$tmp/site"
  bash "$ROOT/scripts/serve-site" --port 0 >"$tmp/site" &
  SITE_PID=$!
  read -r -t 60 line <"$tmp/site" || { echo "real_apps: the Playground did not start" >&2; exit 3; }
  export EOUS_SITE_PLAYGROUND="$line"
  # the hybrid view of every start page with CI4A off: what nativePlan re-grounds the plans against
  mkdir -p "$OUT/playground-views"
  for screen in home booking users settings orders apply; do
    page="$screen"; [[ "$screen" != home ]] || page=""
    "$EOUS" observe "$EOUS_SITE_PLAYGROUND/$page?ci4a=off" --mode hybrid >"$OUT/playground-views/$screen.txt" ||
      { echo "real_apps: eous observe $page?ci4a=off failed" >&2; exit 3; }
  done
  node "$ROOT/benchmarks/perf/real_apps.mjs" --ci4a-off "$TASKS_PLAYGROUND" "$OUT/playground-tasks" "$OUT/playground-views"
  standin_tasks+=(--tasks "$OUT/playground-tasks")
fi
node "$ROOT/benchmarks/standin/standin.mjs" "${standin_tasks[@]}" --log "$OUT/standin.jsonl" >"$tmp/standin" &
STANDIN_PID=$!
read -r -t 60 line <"$tmp/standin" || { echo "real_apps: the stand-in did not start" >&2; exit 3; }
STANDIN_URL="http://127.0.0.1:${line#PORT }"
# the stand-in checks that a key is sent, as the providers do; it is not a secret
export OPENAI_API_KEY=standin-local-key
rc=0
if [[ "$DOKUWIKI" != 0 ]]; then
WIKI_DIR="$OUT/wiki-instance"
WIKI_URL="$(bash "$ROOT/scripts/wiki" start --dir "$WIKI_DIR" --secrets "$OUT/wiki-secrets.env")" ||
  { echo "real_apps: DokuWiki did not start" >&2; WIKI_DIR=""; exit 3; }
export EOUS_SITE_DOKUWIKI="$WIKI_URL" EOUS_SITE_DOKUWIKI_RESET="$ROOT/scripts/wiki reset $WIKI_DIR"
echo "real_apps: DokuWiki $WIKI_URL, stand-in $STANDIN_URL"
for mode in hybrid pruned atomic; do
  # every mode starts from the seeded wiki
  bash "$ROOT/scripts/wiki" reset "$WIKI_DIR" >/dev/null
  set +e
  "$EOUS" bench "$TASKS" --modes "$mode" --planner llm --llm openai:standin --llm-base-url "$STANDIN_URL" \
    --workers "$WORKERS" --secrets "$OUT/wiki-secrets.env" --out "$OUT/$mode" >"$OUT/$mode.log" 2>&1
  brc=$?
  set -e
  ((brc <= 1)) || { echo "real_apps: eous bench ($mode) exited $brc; see $OUT/$mode.log" >&2; rc=$brc; }
done
fi
if [[ "$MEDIAWIKI" != 0 ]]; then
  MW_DIR="$OUT/mediawiki-instance"
  MW_URL="$(bash "$ROOT/scripts/mediawiki" start --dir "$MW_DIR" --secrets "$OUT/mediawiki-secrets.env")" ||
    { echo "real_apps: MediaWiki did not start" >&2; MW_DIR=""; exit 3; }
  export EOUS_SITE_MEDIAWIKI="$MW_URL" EOUS_SITE_MEDIAWIKI_RESET="$ROOT/scripts/mediawiki reset $MW_DIR"
  echo "real_apps: MediaWiki $MW_URL, stand-in $STANDIN_URL"
  for mode in hybrid pruned atomic; do
    # every mode starts from the installed wiki
    bash "$ROOT/scripts/mediawiki" reset "$MW_DIR" >/dev/null
    set +e
    "$EOUS" bench "$TASKS_MEDIAWIKI" --modes "$mode" --planner llm --llm openai:standin --llm-base-url "$STANDIN_URL" \
      --workers "$WORKERS" --secrets "$OUT/mediawiki-secrets.env" --out "$OUT/mediawiki/$mode" >"$OUT/mediawiki-$mode.log" 2>&1
    brc=$?
    set -e
    ((brc <= 1)) || { echo "real_apps: eous bench (MediaWiki, $mode) exited $brc; see $OUT/mediawiki-$mode.log" >&2; rc=$brc; }
  done
fi
if [[ "$PLAYGROUND" != 0 ]]; then
  echo "real_apps: the Playground with CI4A off, $EOUS_SITE_PLAYGROUND"
  for mode in $PLAYGROUND_MODES; do
    set +e
    "$EOUS" bench "$OUT/playground-tasks" --modes "$mode" --planner llm --llm openai:standin \
      --llm-base-url "$STANDIN_URL" --workers "$WORKERS" --out "$OUT/playground/$mode" >"$OUT/playground-$mode.log" 2>&1
    brc=$?
    set -e
    ((brc <= 1)) || { echo "real_apps: eous bench (Playground, $mode) exited $brc; see $OUT/playground-$mode.log" >&2; rc=$brc; }
    [[ "$mode" == hybrid ]] || continue
    # the second pass: plans re-grounded against what the first run's views printed, on a stand-in of their own
    node "$ROOT/benchmarks/perf/real_apps.mjs" --reground "$OUT/playground-tasks" "$OUT/playground/hybrid" \
      "$OUT/playground-views" "$OUT/playground-tasks-reground"
    compgen -G "$OUT/playground-tasks-reground/*.json" >/dev/null || continue
    mkfifo "$tmp/standin2"
    node "$ROOT/benchmarks/standin/standin.mjs" --tasks "$OUT/playground-tasks-reground" \
      --log "$OUT/standin-reground.jsonl" >"$tmp/standin2" &
    STANDIN2_PID=$!
    read -r line <"$tmp/standin2" || { echo "real_apps: the second stand-in did not start" >&2; exit 3; }
    set +e
    "$EOUS" bench "$OUT/playground-tasks-reground" --modes hybrid --planner llm --llm openai:standin \
      --llm-base-url "http://127.0.0.1:${line#PORT }" --workers "$WORKERS" --out "$OUT/playground/hybrid-reground" \
      >"$OUT/playground-hybrid-reground.log" 2>&1
    brc=$?
    set -e
    kill "$STANDIN2_PID" 2>/dev/null || true
    STANDIN2_PID=""
    ((brc <= 1)) || { echo "real_apps: eous bench (Playground, hybrid, re-grounded) exited $brc; see $OUT/playground-hybrid-reground.log" >&2; rc=$brc; }
  done
fi
node "$ROOT/benchmarks/perf/real_apps.mjs" "$OUT" "$RESULTS"
exit $rc

#!/usr/bin/env bash
# benchmarks/perf/model_path.sh — the suites on the model path: `eous bench --planner llm` with
# the view-bound stand-in model (benchmarks/standin) as the model, on the Playground and DokuWiki,
# at equal settings per mode, then benchmarks/perf/model_path.mjs writes model_path.{md,json}.
#
#   benchmarks/perf/model_path.sh [OUT_DIR] [RESULTS_DIR]
#
# Runs (each on both grounds, --workers $WORKERS, default 2):
#   default    hybrid, pruned, atomic — the defaults: --history full, deltas on, --max-batch 8
#   one        hybrid, atomic — --max-batch 1 (atomic here is the one-action-per-reply baseline)
#   stateless  hybrid, pruned, atomic — --history stateless (deltas off), --max-batch 8
#   baseline   atomic only, --max-batch 1 (the one-action-per-reply baseline, without the rest of "one")
# CONFIGS="default baseline" runs a subset (make demo's); GROUNDS="dokuwiki" one ground (default both); TASKS_PLAYGROUND / TASKS_DOKUWIKI point at other task dirs
# (e.g. a slice).  WIKIS=N runs DokuWiki as N copies (webarena/site_pool.h: worker k on copy k, so a task
# that resets the wiki waits for no task on another copy); the default is one, because on 2 cores the
# copies made the wiki's runs slower, 1.10x (benchmarks/results/site_pool.md at 7938a93: the waits they
# remove left cores to the other workers).  Services run on loopback free ports and are stopped by PID on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
EOUS="$BUILD/eous"
OUT="${1:-$ROOT/out/model}"
RESULTS="${2:-$ROOT/benchmarks/results}"
WORKERS="${WORKERS:-2}"
WIKIS="${WIKIS:-1}"
GROUNDS="${GROUNDS:-playground dokuwiki}"
CONFIGS="${CONFIGS:-default one stateless}"
TASKS_PLAYGROUND="${TASKS_PLAYGROUND:-$ROOT/benchmarks/grounds/tasks/playground}"
TASKS_DOKUWIKI="${TASKS_DOKUWIKI:-$ROOT/benchmarks/grounds/tasks/dokuwiki}"

[[ -x "$EOUS" ]] || { echo "model_path: $EOUS not built (run make build)" >&2; exit 2; }
[[ -f "$ROOT/benchmarks/grounds/playground/dist/index.html" ]] || bash "$ROOT/scripts/build-site"
[[ -d "$ROOT/benchmarks/standin/node_modules" ]] ||
  { echo "model_path: benchmarks/standin/node_modules missing (run scripts/setup)" >&2; exit 2; }
# A progress line on stderr every tenth job and at the last (the bench's own per-job lines stay in its
# log): jobs done of all, passes, elapsed and an estimate of the rest, so a run is never silent for long.
progress_lines() {
  local tag="$1" start=$SECONDS line n t passed=0 el
  while IFS= read -r line; do
    [[ "$line" =~ ^eous\ bench:\ ([0-9]+)/([0-9]+)\ task\ [^\ ]+\ [^\ ]+\ ([a-z]+) ]] || continue
    n=${BASH_REMATCH[1]} t=${BASH_REMATCH[2]}
    [[ "${BASH_REMATCH[3]}" == passed ]] && passed=$((passed + 1))
    if ((n % 10 == 0 || n == t)); then
      el=$((SECONDS - start))
      echo "model_path: progress $tag: $n/$t jobs, $passed passed, ${el}s, about $((el * (t - n) / n))s left" >&2
    fi
  done
}

for c in $CONFIGS; do
  case "$c" in default|one|stateless|baseline) ;; *) echo "model_path: CONFIGS: unknown run '$c' (expected default, one, stateless, baseline)" >&2; exit 2 ;; esac
done
for g in $GROUNDS; do
  case "$g" in playground|dokuwiki) ;; *) echo "model_path: GROUNDS: unknown ground '$g' (expected playground, dokuwiki)" >&2; exit 2 ;; esac
done

[[ "$WIKIS" =~ ^[1-9][0-9]*$ ]] || { echo "model_path: WIKIS: expected a count of DokuWiki copies (1 or more), got '$WIKIS'" >&2; exit 2; }

WIKI_DIRS=()
source "$ROOT/benchmarks/perf/lib/services.sh"
cleanup() {
  services_stop
  local d
  for d in "${WIKI_DIRS[@]+"${WIKI_DIRS[@]}"}"; do bash "$ROOT/scripts/wiki" stop "$d" || true; done
}
trap cleanup EXIT
services_start

# the wiki's copies, built side by side (the first makes the secrets file the others read)
wiki_start() {
  bash "$ROOT/scripts/wiki" start --dir "$OUT/wiki-$1" --secrets "$OUT/wiki-secrets.env" >"$tmp/wiki-$1.url"
}
WIKI_URL="" WIKI_RESET=""
WIKI_DIRS=()
[[ " $GROUNDS " == *" dokuwiki "* ]] && WIKI_DIRS=("$OUT/wiki-1")
if ((${#WIKI_DIRS[@]})) && wiki_start 1; then
  pids=()
  for ((k = 2; k <= WIKIS; k++)); do
    WIKI_DIRS+=("$OUT/wiki-$k")
    wiki_start "$k" &
    pids+=($!)
  done
  started=1
  for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" || started=0; done
  if ((started)); then
    for ((k = 1; k <= WIKIS; k++)); do
      WIKI_URL+="${WIKI_URL:+ }$(cat "$tmp/wiki-$k.url")"
      WIKI_RESET+="${WIKI_RESET:+;}$ROOT/scripts/wiki reset $OUT/wiki-$k"
    done
    export EOUS_SITE_DOKUWIKI="$WIKI_URL" EOUS_SITE_DOKUWIKI_RESET="$WIKI_RESET"
  fi
fi
if [[ -z "$WIKI_URL" ]] && ((${#WIKI_DIRS[@]})); then
  echo "model_path: DokuWiki did not start; its suite is skipped" >&2
  for d in "${WIKI_DIRS[@]}"; do bash "$ROOT/scripts/wiki" stop "$d" || true; done
  WIKI_DIRS=()
fi

echo "model_path: Playground $EOUS_SITE_PLAYGROUND, stand-in $STANDIN_URL, DokuWiki ${WIKI_URL:-none}"
rc=0
for c in $CONFIGS; do
  modes=hybrid,pruned,atomic
  case "$c" in
    default) extra=() ;;
    one) extra=(--max-batch 1) modes=hybrid,atomic ;;
    stateless) extra=(--history stateless) ;;
    baseline) extra=(--max-batch 1) modes=atomic ;;
  esac
  for ground in $GROUNDS; do
    if [[ "$ground" == dokuwiki ]]; then
      [[ -n "$WIKI_URL" ]] || continue
      tasks="$TASKS_DOKUWIKI" more=(--secrets "$OUT/wiki-secrets.env")
    else
      tasks="$TASKS_PLAYGROUND" more=()
    fi
    echo "model_path: $c on $ground"
    set +e
    # the stand-in bills at gpt-4.1's list prices (model_path.mjs's first price): report.html's cost
    "$EOUS" bench "$tasks" --modes "$modes" --planner llm --llm openai:standin \
      --prices "$ROOT/benchmarks/standin/prices.json" --known-limits "$ROOT/benchmarks/known_limits.json" --llm-base-url "$STANDIN_URL" --workers "$WORKERS" --out "$OUT/$c/$ground" "${extra[@]}" "${more[@]}" \
      2>&1 | tee "$OUT/$c-$ground.log" | progress_lines "$c $ground"
    brc=${PIPESTATUS[0]}
    set -e
    # 1 is "some task failed": model_path.mjs below fails the run for a failure no known limit explains
    ((brc <= 1)) || { echo "model_path: eous bench ($c, $ground) exited $brc; see $OUT/$c-$ground.log" >&2; rc=$brc; }
  done
done
mkdir -p "$RESULTS"
set +e
node "$ROOT/benchmarks/perf/model_path.mjs" "$OUT" "$RESULTS" "$CONFIGS"
mrc=$?
set -e
((rc != 0)) || rc=$mrc
exit $rc

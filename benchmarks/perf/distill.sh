#!/usr/bin/env bash
# benchmarks/perf/distill.sh — every passed task x mode of a `--planner llm` run distilled
# (`eous distill`) and replayed with `--planner script`: in the mode it was recorded in, and a
# hybrid recording in atomic mode too; a Markdown table on stdout: per recorded -> replayed mode,
# passes distilled, replays passed, steps and wall time of the model run against the replay, and
# each task that did not distil or replay with why.
#
#   benchmarks/perf/distill.sh MODEL_RUN_DIR OUT_DIR [TASKS_DIR]
#
# A hybrid recording's job holds atomic_steps (its calls as atomic steps where they are known),
# which atomic mode runs.  Without TASKS_DIR the distilled plain jobs replay as they are (passed:
# every step ran).  With the suite's TASKS_DIR each job replays as its task's config with the
# distilled steps as its plan, its parameters and its intent (the task's, with a value the model
# counted said, e.g. a check-out date): the task's own evaluator scores the replay, and a
# site with a reset command is reset before every task (DokuWiki's reads too: each replay starts
# from a fresh site).  The sites the model run used must still be up (EOUS_SITE_* and
# EOUS_SITE_*_RESET as for the run: a distilled job holds the URLs the run saw); SECRETS=FILE as
# the run's --secrets; LEGS="hybrid-atomic ..." replays only those recorded -> replayed pairs.
# Needs python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${BUILD:-$ROOT/build}/eous"
RUN="${1:?usage: distill.sh MODEL_RUN_DIR OUT_DIR [TASKS_DIR]}"
OUT="${2:?usage: distill.sh MODEL_RUN_DIR OUT_DIR [TASKS_DIR]}"
TASKS="${3:-}"
WORKERS="${WORKERS:-2}"
[[ -f "$RUN/results.jsonl" ]] || { echo "distill.sh: $RUN/results.jsonl missing" >&2; exit 2; }
[[ -z "$TASKS" || -d "$TASKS" ]] || { echo "distill.sh: TASKS_DIR $TASKS is not a folder of task configs" >&2; exit 2; }
SECRET_ARGS=()
[[ -z "${SECRETS:-}" ]] || SECRET_ARGS=(--secrets "$SECRETS")
rm -rf "$OUT"
mkdir -p "$OUT"
: >"$OUT/distill-errors.txt"
# each passed task x mode into OUT/jobs-MODE/TASK.json; what could not distil, with why
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("status") == "passed":
        print(r["task_id"], r["mode"])' "$RUN/results.jsonl" | while read -r task mode; do
  mkdir -p "$OUT/jobs-$mode"
  "$EOUS" distill "$RUN" --task "$task" --mode "$mode" -o "$OUT/jobs-$mode/$task.json" 2>"$OUT/err" ||
    echo "$task $mode $(tail -1 "$OUT/err")" >>"$OUT/distill-errors.txt"
done
# what each folder replays: plain jobs, or (TASKS_DIR) each task's config with the distilled plan
for d in "$OUT"/jobs-*; do
  mode="${d##*/jobs-}"
  [[ -n "$TASKS" ]] || continue
  python3 - "$TASKS" "$d" "$OUT/scored-$mode" <<'EOF'
import json, os, sys
tasks, jobs, out = sys.argv[1:4]
os.makedirs(out)
by_id = {}
for f in sorted(os.listdir(tasks)):
    if f.endswith(".json"):
        c = json.load(open(os.path.join(tasks, f)))
        by_id[str(c["task_id"])] = c
for f in sorted(os.listdir(jobs)):
    job = json.load(open(os.path.join(jobs, f)))
    c = dict(by_id[f[:-len(".json")]])
    c["script"] = job["steps"]
    c["atomic_script"] = job.get("atomic_steps", job["steps"])
    if "params" in job:
        c["params"] = job["params"]
    if "intent" in job:  # the task's, its values as parameters, with what the model counted said
        c["intent"] = job["intent"]
    # each replay from a fresh start: a site with a reset command is reset before every task, so a
    # replay that failed to change a page as it should leaves nothing for the next one to read
    c["require_reset"] = True
    json.dump(c, open(os.path.join(out, f), "w"), indent=1)
EOF
done
# recorded mode -> the modes it replays in: its own; a hybrid recording in atomic too (LEGS: a subset)
LEGS="${LEGS:-hybrid-hybrid hybrid-atomic atomic-atomic}"
replay() {
  local rec="$1" mode="$2" src="$OUT/jobs-$1"
  [[ " $LEGS " == *" $rec-$mode "* ]] || return 0
  [[ -z "$TASKS" ]] || src="$OUT/scored-$1"
  [[ -d "$src" ]] || return 0
  "$EOUS" bench "$src" --modes "$mode" --planner script --workers "$WORKERS" --out "$OUT/replay-$rec-$mode" \
    "${SECRET_ARGS[@]+"${SECRET_ARGS[@]}"}" >"$OUT/replay-$rec-$mode.log" 2>&1 || true
}
for d in "$OUT"/jobs-*; do
  mode="${d##*/jobs-}"
  replay "$mode" "$mode"
  [[ "$mode" != hybrid ]] || replay hybrid atomic
done
python3 - "$RUN" "$OUT" "${TASKS:+scored}" <<'EOF'
import json, os, sys
run, out, scored = sys.argv[1], sys.argv[2], sys.argv[3]
model = {}
for l in open(os.path.join(run, "results.jsonl")):
    r = json.loads(l)
    model[(r["task_id"], r["mode"])] = r
errors = [l.rstrip("\n") for l in open(os.path.join(out, "distill-errors.txt")) if l.strip()]
print("replays scored by " + ("each task's evaluator" if scored else "their own steps (plain jobs, no evaluator)"))
print()
print("| recorded -> replayed | model passes | distilled | replays passed | model steps | replay steps | model wall s | replay wall s |")
print("|---|---|---|---|---|---|---|---|")
fails = []
for mode in sorted({m for _, m in model}):
    passes = [k for k, r in model.items() if k[1] == mode and r["status"] == "passed"]
    for to in [mode] + (["atomic"] if mode == "hybrid" else []):
        path = os.path.join(out, f"replay-{mode}-{to}", "results.jsonl")
        if not os.path.exists(path):  # a leg LEGS left out
            continue
        replays = [json.loads(l) for l in open(path)]
        ok = [r for r in replays if r["status"] == "passed"]
        # a plain job's id is TASK-MODE-distilled, a scored config's the task's own
        tid = lambda r: r["task_id"].rsplit("-", 2)[0] if r["task_id"].endswith("-distilled") else r["task_id"]
        ids = {tid(r) for r in ok}
        ms = sum(model[(t, mode)]["steps"] for t in ids)
        mw = sum(model[(t, mode)]["wall_ms"] for t in ids) / 1000
        rs = sum(r["steps"] for r in ok)
        rw = sum(r["wall_ms"] for r in ok) / 1000
        print(f"| {mode} -> {to} | {len(passes)} | {len(replays)} | {len(ok)} | {ms} | {rs} | {mw:.1f} | {rw:.1f} |")
        fails += [f"- replay {mode} -> {to} {tid(r)}: {r['status']}: {r.get('error', '')}"
                  for r in replays if r["status"] != "passed"]
print()
for e in errors:
    print(f"- not distilled: {e}")
for f in fails:
    print(f)
EOF

#!/usr/bin/env bash
# benchmarks/perf/distill.sh — every passed task x mode of a `--planner llm` run distilled
# (`eous distill`) and replayed with `--planner script` in the mode it was recorded in; a
# Markdown table on stdout: per mode, passes distilled, replays passed, steps and wall time of
# the model run against the replay, and each task that did not distil or replay with why.
#
#   benchmarks/perf/distill.sh MODEL_RUN_DIR OUT_DIR
#
# The sites the model run used must still be up (EOUS_SITE_* as for the run: a distilled job
# holds the URLs the run saw).  Needs python3 for the table.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EOUS="${BUILD:-$ROOT/build}/eous"
RUN="${1:?usage: distill.sh MODEL_RUN_DIR OUT_DIR}"
OUT="${2:?usage: distill.sh MODEL_RUN_DIR OUT_DIR}"
WORKERS="${WORKERS:-2}"
[[ -f "$RUN/results.jsonl" ]] || { echo "distill.sh: $RUN/results.jsonl missing" >&2; exit 2; }
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
for d in "$OUT"/jobs-*; do
  mode="${d##*/jobs-}"
  "$EOUS" bench "$d" --modes "$mode" --planner script --workers "$WORKERS" --out "$OUT/replay-$mode" \
    >"$OUT/replay-$mode.log" 2>&1 || true
done
python3 - "$RUN" "$OUT" <<'EOF'
import json, os, sys
run, out = sys.argv[1], sys.argv[2]
model = {}
for l in open(os.path.join(run, "results.jsonl")):
    r = json.loads(l)
    model[(r["task_id"], r["mode"])] = r
errors = [l.rstrip("\n") for l in open(os.path.join(out, "distill-errors.txt")) if l.strip()]
print("| mode | model passes | distilled | replays passed | model steps | replay steps | model wall s | replay wall s |")
print("|---|---|---|---|---|---|---|---|")
fails = []
for mode in sorted({m for _, m in model}):
    passes = [k for k, r in model.items() if k[1] == mode and r["status"] == "passed"]
    path = os.path.join(out, "replay-" + mode, "results.jsonl")
    replays = [json.loads(l) for l in open(path)] if os.path.exists(path) else []
    ok = [r for r in replays if r["status"] == "passed"]
    ids = {r["task_id"].rsplit("-", 2)[0] for r in ok}
    ms = sum(model[(t, mode)]["steps"] for t in ids)
    mw = sum(model[(t, mode)]["wall_ms"] for t in ids) / 1000
    rs = sum(r["steps"] for r in ok)
    rw = sum(r["wall_ms"] for r in ok) / 1000
    print(f"| {mode} | {len(passes)} | {len(replays)} | {len(ok)} | {ms} | {rs} | {mw:.1f} | {rw:.1f} |")
    fails += [f"- replay {r['task_id']}: {r['status']}: {r.get('error', '')}" for r in replays if r["status"] != "passed"]
print()
for e in errors:
    print(f"- not distilled: {e}")
for f in fails:
    print(f)
EOF

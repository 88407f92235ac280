#!/usr/bin/env bash
# benchmarks/perf/chaos.sh — chaos over a long run: TASKS Playground tasks
# (default 150; copies beyond the suite get their own ids) × hybrid,atomic
# through scripts/faults, which kills a chromedriver or a browser KILLS times
# (default 24, about 2% of the run's steps) spread SPACING seconds apart, and
# kill -9s `eous bench` itself twice, resuming it with --resume each time.
# Writes benchmarks/results/chaos.{json,md} with the commit: lost, duplicated
# and orphaned (targets 0), and every killed task retried or infra.
#   TASKS=150 KILLS=24 SPACING=5,25 WORKERS=2 benchmarks/perf/chaos.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
commit="$(git -C "$ROOT" rev-parse --short HEAD)"
TASKS="${TASKS:-150}"; KILLS="${KILLS:-24}"; SPACING="${SPACING:-5,25}"; WORKERS="${WORKERS:-2}"
rec="$(mktemp /tmp/eous-chaos-XXXXXX.json)"
trap 'rm -f "$rec"' EXIT
rc=0
bash "$ROOT/scripts/faults" --tasks "$TASKS" --modes hybrid,atomic --workers "$WORKERS" --kills "$KILLS" \
  --spacing "$SPACING" --bench-kills 2 --max-wall 7200 --json-out "$rec" || rc=$?
python3 - "$rec" "$commit" "$ROOT/benchmarks/results/chaos" "$rc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); commit, base, rc = sys.argv[2], sys.argv[3], int(sys.argv[4])
r["commit"] = commit; r["faults_exit"] = rc
json.dump(r, open(base + ".json", "w"), indent=1)
kinds = ", ".join("%d %s" % (v, k) for k, v in sorted(r["kill_kinds"].items()))
with open(base + ".md", "w") as f:
    f.write("# Chaos over a long run (benchmarks/perf/chaos.sh)\n\n")
    f.write("Commit %s, %s: %d Playground tasks × %s on %d workers; %d kills (%s), eous bench itself "
            "kill -9'd %d times and resumed with --resume.\n\n" % (commit, r["date"], r["tasks"], r["modes"],
            r["workers"], r["kills"], kinds, r.get("bench_kills", 0)))
    f.write("| tasks × modes | with a result | lost | duplicated attempts | orphaned processes | attempts | passed | "
            "failed | infra | wall s | ok |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
    f.write("| %d | %d | %d | %d | %d (of %d process groups seen) | %d | %d | %d | %d | %.0f | %s |\n" % (
        r["jobs"], r["lines"], r["lost"], r["duplicates"], r["orphans"], r["groups_seen"], r["attempts"],
        r["passed"], r["failed"], r["infra"], r["wall_s"], "yes" if r["ok"] else "**no**"))
    f.write("\nEvery kill:\n\n")
    for k in r["kill_log"]: f.write("- %s\n" % k)
    f.write("\nTask attempts retried on a fresh session after an infra failure: %d\n" % r.get("task_retries", 0))
    for c, n in r.get("task_retry_causes", {}).items():
        f.write("- %d × %s\n" % (n, c.replace("|", "\\|")))
    if r["not_passed"]:
        f.write("\nAttempts other than passed, earlier ones included (count, status: error or evaluator detail):\n\n")
        for e in r["not_passed"]: f.write("- %d × %s\n" % (e["n"], e["what"].replace("|", "\\|")))
PY
cat "$ROOT/benchmarks/results/chaos.md"
exit "$rc"

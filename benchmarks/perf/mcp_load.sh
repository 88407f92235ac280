#!/usr/bin/env bash
# benchmarks/perf/mcp_load.sh — `eous mcp --port` under load (issue 28): 8
# concurrent sessions × 50 actions on the Playground against 1 session, per
# action p50/p95 ms, RSS/PSS per session, cross-session leaks, orphaned
# browsers; writes benchmarks/results/mcp_load.{md,json} with the commit.
# Needs build/eous and the Playground built (make site).
#   benchmarks/perf/mcp_load.sh [SESSIONS] [ACTIONS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
[[ -f "$ROOT/benchmarks/grounds/playground/dist/index.html" ]] || { echo "mcp_load: the Playground is not built (make site)" >&2; exit 2; }
EOUS="${EOUS:-$ROOT/build/eous}" exec node "$ROOT/benchmarks/perf/mcp_load.mjs" --sessions "${1:-8}" \
  --actions "${2:-50}" --out "$ROOT/benchmarks/results/mcp_load"

#!/usr/bin/env bash
# tests/mcp/conformance/run.sh — the official MCP conformance suite (npm
# @modelcontextprotocol/conformance, on the Node 22 of npm `node`) against
# `eous mcp --port 0`, with expected-failures.yml as the baseline: exit 0 when
# every scenario not listed there passes and every listed one still fails.
# The server is started on a free loopback port and stopped by its PID.
# Usage: tests/mcp/conformance/run.sh [EOUS]   (ctest mcp_conformance)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
eous="${1:-${EOUS_CLI:-$here/../../../build/eous}}"
node22="$here/node_modules/.bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[[ -x "$node22" && -f "$suite" ]] || { echo "run.sh: npm packages missing in $here (scripts/setup installs them)" >&2; exit 2; }
work="$(mktemp -d)"
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# the suite opens a session per scenario and never ends them: room for all of them
EOUS_LOG=warn "$eous" mcp --port 0 --max-sessions 64 >"$work/url" 2>"$work/stderr" &
pid=$!
for _ in $(seq 1 300); do [[ -s "$work/url" ]] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
url="$(head -1 "$work/url")"
[[ "$url" == http://127.0.0.1:*/mcp ]] || { echo "run.sh: eous printed no URL: $(cat "$work/stderr")" >&2; exit 1; }
rc=0
(cd "$work" && "$node22" "$suite" server --url "$url" --suite all --expected-failures "$here/expected-failures.yml") || rc=$?
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
pid=""
[[ $code -eq 143 ]] || { echo "run.sh: eous mcp exited $code on SIGTERM (expected 143): $(cat "$work/stderr")" >&2; exit 1; }
exit $rc

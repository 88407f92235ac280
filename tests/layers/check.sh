#!/usr/bin/env bash
# tests/layers/check.sh — the layout's arrows hold: a module includes only
# its own headers and those of modules below it (README "Contributing"), and
# its page scripts include only scripts of modules below it.
# One line per include that points the wrong way; exit 1 if any.
#   tests/layers/check.sh [SOURCE_DIR]
set -uo pipefail
ROOT="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
# each module and the modules it may include (besides itself).  Three libraries, one
# direction: the runtime (core … agent), the harness (webarena, runs, bench, under
# benchmarks/harness/), the MCP server (mcp); the CLI on all three.  No runtime module
# includes the harness or the server.
declare -A may=(
  [core]=""
  [webdriver]="core"
  [perception]="core webdriver"
  [actions]="core webdriver perception"
  [llm]="core webdriver perception actions"
  [agent]="core webdriver perception actions llm"
  [runs]="core"
  [webarena]="core webdriver perception actions llm agent"
  [bench]="core webdriver perception actions llm agent webarena runs"
  [mcp]="core webdriver perception actions llm agent webarena runs bench"
  [cli]="core webdriver perception actions llm agent webarena runs bench mcp"
)
# where each module's folder is (README "Architecture")
declare -A dir=(
  [webarena]=benchmarks/harness/webarena
  [runs]=benchmarks/harness/runs
  [bench]=benchmarks/harness/bench
)
bad=0
for m in "${!may[@]}"; do
  d="${dir[$m]:-$m}"
  [[ -d "$ROOT/$d" ]] || { echo "layers: $ROOT/$d: no such module directory" >&2; exit 2; }
  while IFS= read -r hit; do
    file="${hit%%:*}"; rest="${hit#*:}"; line="${rest%%:*}"
    inc="$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$rest")"
    [[ "$inc" == "$m" || " ${may[$m]} " == *" $inc "* ]] && continue
    echo "layers: ${file#"$ROOT"/}:$line: $m includes $inc/, which is not below it" >&2
    bad=1
  done < <(grep -Hn '^#include "[a-z_]*/' "$ROOT/$d"/*.[ch] 2>/dev/null)
  # page scripts too: "// @include module/x.js" (CMakeLists.txt's rule)
  while IFS= read -r hit; do
    file="${hit%%:*}"; rest="${hit#*:}"; line="${rest%%:*}"
    inc="$(sed -E 's|.*// @include ([a-z_]+)/.*|\1|' <<<"$rest")"
    [[ "$inc" == "$m" || " ${may[$m]} " == *" $inc "* ]] && continue
    echo "layers: ${file#"$ROOT"/}:$line: $m's page script includes $inc/, which is not below it" >&2
    bad=1
  done < <(grep -Hn '^// @include [a-z_]*/' "$ROOT/$d"/*.js 2>/dev/null)
done
# every library module is listed above: the runtime's at the root, the harness's under benchmarks/harness/
for d in "$ROOT"/*/ "$ROOT"/benchmarks/harness/*/; do
  [[ -d "$d" ]] || continue
  d="$(basename "$d")"
  [[ -n "${may[$d]+x}" ]] && continue
  compgen -G "$ROOT/$d/*.c" >/dev/null || compgen -G "$ROOT/benchmarks/harness/$d/*.c" >/dev/null || continue
  case "$d" in tests|benchmarks|scripts|examples|build*|out|data) continue ;; esac
  echo "layers: $d/ holds C sources but is not in tests/layers/check.sh's table" >&2
  bad=1
done
((bad == 0)) && echo "layers: every include points down"
exit $bad

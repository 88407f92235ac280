#!/usr/bin/env bash
# tests/layers/check.sh — the layout's arrows hold: a module includes only
# its own headers and those of modules below it (README "Contributing"), and
# its page scripts include only scripts of modules below it.
# One line per include that points the wrong way; exit 1 if any.
#   tests/layers/check.sh [SOURCE_DIR]
set -uo pipefail
ROOT="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
# each module and the modules it may include (besides itself)
declare -A may=(
  [core]=""
  [webdriver]="core"
  [perception]="core webdriver"
  [actions]="core webdriver perception"
  [llm]="core webdriver perception actions"
  [webarena]="core webdriver perception actions llm"
  [agent]="core webdriver perception actions llm webarena runs"
  [mcp]="core webdriver perception actions llm webarena runs agent"
  [runs]="core"
  [cli]="core webdriver perception actions llm webarena agent mcp runs"
)
bad=0
for m in "${!may[@]}"; do
  [[ -d "$ROOT/$m" ]] || { echo "layers: $ROOT/$m: no such module directory" >&2; exit 2; }
  while IFS= read -r hit; do
    file="${hit%%:*}"; rest="${hit#*:}"; line="${rest%%:*}"
    inc="$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$rest")"
    [[ "$inc" == "$m" || " ${may[$m]} " == *" $inc "* ]] && continue
    echo "layers: ${file#"$ROOT"/}:$line: $m includes $inc/, which is not below it" >&2
    bad=1
  done < <(grep -Hn '^#include "[a-z_]*/' "$ROOT/$m"/*.[ch] 2>/dev/null)
  # page scripts too: "// @include module/x.js" (CMakeLists.txt's rule)
  while IFS= read -r hit; do
    file="${hit%%:*}"; rest="${hit#*:}"; line="${rest%%:*}"
    inc="$(sed -E 's|.*// @include ([a-z_]+)/.*|\1|' <<<"$rest")"
    [[ "$inc" == "$m" || " ${may[$m]} " == *" $inc "* ]] && continue
    echo "layers: ${file#"$ROOT"/}:$line: $m's page script includes $inc/, which is not below it" >&2
    bad=1
  done < <(grep -Hn '^// @include [a-z_]*/' "$ROOT/$m"/*.js 2>/dev/null)
done
# every library module is listed above
for d in "$ROOT"/*/; do
  d="$(basename "$d")"
  [[ -n "${may[$d]+x}" ]] && continue
  ls "$ROOT/$d"/*.c >/dev/null 2>&1 || continue
  case "$d" in tests|benchmarks|scripts|examples|build*|out|data) continue ;; esac
  echo "layers: $d/ holds C sources but is not in tests/layers/check.sh's table" >&2
  bad=1
done
((bad == 0)) && echo "layers: every include points down"
exit $bad

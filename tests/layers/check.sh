#!/usr/bin/env bash
# tests/layers/check.sh — the layout's arrows hold: a module includes only
# its own headers and those of modules below it (README "Contributing"), and
# its page scripts include only scripts of modules below it.
# One line per include that points the wrong way; exit 1 if any.
#   tests/layers/check.sh [SOURCE_DIR]
set -uo pipefail
ROOT="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
# each module, its folder and the modules it may include besides itself: modules.txt, the table
# the build reads too.  Three libraries, one direction: the runtime (core … agent), the harness
# (webarena, runs, bench, under benchmarks/harness/), the MCP server (mcp); the CLI on all three.
TABLE="$ROOT/modules.txt"
[[ -f "$TABLE" ]] || { echo "layers: $TABLE: no such file" >&2; exit 2; }
declare -A may=() dir=()
while read -r m lib folder below; do
  [[ -z "$m" || "$m" == \#* ]] && continue
  may[$m]="$below"
  dir[$m]="$folder"
done <"$TABLE"
((${#may[@]} > 0)) || { echo "layers: $TABLE lists no module" >&2; exit 2; }
bad=0
for m in "${!may[@]}"; do
  d="${dir[$m]}"
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
# every folder holding C sources is a module in the table: the runtime's at the root, the harness's under benchmarks/harness/
for d in "$ROOT"/*/ "$ROOT"/benchmarks/harness/*/; do
  [[ -d "$d" ]] || continue
  d="${d%/}"; d="${d#"$ROOT"/}"
  listed=0
  for m in "${!dir[@]}"; do [[ "${dir[$m]}" == "$d" ]] && listed=1; done
  ((listed)) && continue
  compgen -G "$ROOT/$d/*.c" >/dev/null || continue
  case "$d" in tests|benchmarks|scripts|examples|build*|out|data) continue ;; esac
  echo "layers: $d/ holds C sources but is not a module in modules.txt" >&2
  bad=1
done
((bad == 0)) && echo "layers: every include points down"
exit $bad

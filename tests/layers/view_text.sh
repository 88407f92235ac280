#!/usr/bin/env bash
# tests/layers/view_text.sh — no view text parsed outside perception: the view's
# format ("[c5] kind 'label' value: a | b → tool(params)") belongs to perception,
# which writes it (view_*.c) and reads it back into lines (perception/view_lines.c,
# perc_lines_read); every other module reads those lines, never the text.  This
# fails, one line each, when a .c file outside perception/ (the runtime's other
# modules, benchmarks/harness/, mcp/, cli/, examples/) searches a string for a
# piece of the view's syntax with strstr, strncmp, memcmp and their kin: an id's
# close "] ", the tools' arrow (" → ", "\xe2\x86\x92"), " options: ", " value: ",
# "checked: ", a list's " | " or a delta's "(changes since".
#   tests/layers/view_text.sh [SOURCE_DIR]
set -uo pipefail
ROOT="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
# every module's folder but perception's (modules.txt), and the examples
[[ -f "$ROOT/modules.txt" ]] || { echo "view_text: $ROOT/modules.txt: no such file" >&2; exit 2; }
mapfile -t DIRS < <(awk '/^[a-z]/ && $1 != "perception" { print $3 } END { print "examples" }' "$ROOT/modules.txt")
for d in "${DIRS[@]}"; do
  [[ -d "$ROOT/$d" ]] || { echo "view_text: $ROOT/$d: no such module directory" >&2; exit 2; }
done
cd "$ROOT" || exit 2
mapfile -t files < <(for d in "${DIRS[@]}"; do [[ -d "$d" ]] && find "$d" -name '*.c' -not -path '*/node_modules/*'; done | sort)
((${#files[@]} > 0)) || { echo "view_text: no sources under $ROOT" >&2; exit 2; }
# a search call, then on the same line a string literal (read from the line's start, so
# literals pair) holding a piece of the view's syntax
hits=$(perl -ne '
  BEGIN { $syntax = qr/\] |\\xe2\\x86\\x92|\x{e2}\x{86}\x{92}| options: | value: |checked: | \| |\(changes since/ }
  next unless /\b(?:strstr|strcasestr|strncmp|strncasecmp|memcmp|memmem)\s*\(/;
  my $code = $_;
  while ($code =~ /"((?:[^"\\]|\\.)*)"/g) {
    if ($1 =~ $syntax) { chomp; print $ARGV, ":", $., ": ", $_, "\n"; last; }
  }
} continue { close ARGV if eof' "${files[@]}") || { echo "view_text: perl failed reading the sources" >&2; exit 2; }
bad=0
while IFS= read -r hit; do
  [[ -n "$hit" ]] || continue
  echo "view_text: ${hit:0:220}" >&2
  echo "  (view text is parsed by perception alone: read perc_lines_read's lines, or add a reader to perception/view_lines.c)" >&2
  bad=$((bad + 1))
done <<<"$hits"
((bad == 0)) || { echo "view_text: $bad search(es) of view text outside perception" >&2; exit 1; }
echo "view_text: ${#files[@]} files outside perception search no view text"

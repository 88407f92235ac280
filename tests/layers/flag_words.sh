#!/usr/bin/env bash
# tests/layers/flag_words.sh — the libraries speak their own words: no string
# in a library source (the runtime's modules and benchmarks/harness/, not cli/
# nor mcp/) names a command-line flag such as --files or --llm.  An embedder
# calling the library has no flags; the CLI adds its flag to a library's
# message where it knows which flag gave the value (cli/*.c).
# A string that is one flag alone ("--no-sandbox", "--port=%d") is an argument
# eous passes to a program it starts (Chromium, chromedriver), not a message.
# Flags named in tests/layers/flag-words-allowed (one line each: the file, the
# flag, then why) pass; any other fails, one line each.
#   tests/layers/flag_words.sh [SOURCE_DIR]
set -uo pipefail
ROOT="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
# the runtime's and the harness's folders (modules.txt): the libraries an embedder calls
[[ -f "$ROOT/modules.txt" ]] || { echo "flag_words: $ROOT/modules.txt: no such file" >&2; exit 2; }
mapfile -t DIRS < <(awk '/^[a-z]/ && ($2 == "eous" || $2 == "eous_bench") { print $3 }' "$ROOT/modules.txt")
for d in "${DIRS[@]}"; do
  [[ -d "$ROOT/$d" ]] || { echo "flag_words: $ROOT/$d: no such module directory" >&2; exit 2; }
done
allowed="$ROOT/tests/layers/flag-words-allowed"
[[ -f "$allowed" ]] || { echo "flag_words: $allowed: no such file" >&2; exit 2; }
mapfile -t files < <(cd "$ROOT" && find "${DIRS[@]}" -name '*.[ch]' | sort)
((${#files[@]} > 0)) || { echo "flag_words: no sources under $ROOT" >&2; exit 2; }
# each string literal outside comments (a lexer of C's comments, strings and
# character constants), then its flags
cd "$ROOT" && awk -v allowed="$allowed" '
  BEGIN {
    while ((getline l < allowed) > 0)
      if (l !~ /^#/ && split(l, a, " ") >= 2)
        ok[a[1] " " a[2]] = 1
  }
  FNR == 1 { state = "" }
  function check(lit, line,   rest, flag) {
    if (lit ~ /^--[a-z][a-z0-9-]*(=.*)?$/) # an argument of a program eous starts
      return
    rest = " " lit
    while (match(rest, /[^A-Za-z0-9_-]--[a-z][a-z0-9-]*/)) {
      flag = substr(rest, RSTART + 1, RLENGTH - 1)
      rest = substr(rest, RSTART + RLENGTH)
      if ((FILENAME " " flag) in ok)
        continue
      printf "flag_words: %s:%d: \"%s\" names the flag %s (say the thing in the library'"'"'s words; the CLI adds its flag)\n", FILENAME, line, lit, flag > "/dev/stderr"
      bad++
    }
  }
  {
    s = $0; n = length(s); i = 1
    if (state == "str") state = "" # a string never spans lines here
    while (i <= n) {
      c = substr(s, i, 1); two = substr(s, i, 2)
      if (state == "comment") { if (two == "*/") { state = ""; i += 2 } else i++; continue }
      if (state == "str") {
        if (c == "\\") { lit = lit two; i += 2; continue }
        if (c == "\"") { state = ""; check(lit, start); i++; continue }
        lit = lit c; i++; continue
      }
      if (state == "chr") { if (c == "\\") i += 2; else { if (c == "'"'"'") state = ""; i++ }; continue }
      if (two == "/*") { state = "comment"; i += 2; continue }
      if (two == "//") break
      if (c == "\"") { state = "str"; lit = ""; start = FNR; i++; continue }
      if (c == "'"'"'") { state = "chr"; i++; continue }
      i++
    }
  }
  END { exit bad ? 1 : 0 }
' "${files[@]}"

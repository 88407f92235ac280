#!/usr/bin/env bash
# tests/layers/circles.sh — no circle of calls between the files of a module
# (README "Contributing").  Reads the library's object files: which file
# defines each global symbol and which symbols each file uses; a file A
# calls B when A uses a symbol B defines.  A circle is a set of files of one
# module that reach each other.  Circles named in tests/layers/circles-allowed
# (one line each: the files, then why) pass; any other fails, one line each.
#   tests/layers/circles.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
BUILD="${1:?usage: circles.sh BUILD_DIR SOURCE_DIR}"
ROOT="${2:?usage: circles.sh BUILD_DIR SOURCE_DIR}"
# the three libraries' object files (CMakeLists.txt: eous, eous_bench, eous_mcp)
OBJS=("$BUILD/CMakeFiles/eous.dir" "$BUILD/CMakeFiles/eous_bench.dir" "$BUILD/CMakeFiles/eous_mcp.dir")
for OBJ in "${OBJS[@]}"; do
  [[ -d "$OBJ" ]] || { echo "circles: $OBJ: no such directory (build the libraries first)" >&2; exit 2; }
done
command -v nm >/dev/null || { echo "circles: nm not found (binutils)" >&2; exit 2; }
tmp="$(mktemp)"; trap 'rm -f "$tmp"' EXIT
n=0
while IFS= read -r o; do
  src="${o#"$BUILD"/CMakeFiles/*.dir/}"; src="${src%.o}"
  [[ -f "$ROOT/$src" ]] || continue # a stale object from a file since moved
  nm "$o" | awk -v f="$src" '$2 ~ /^[TDBR]$/ {print "D", f, $3} $1 == "U" {print "U", f, $2}' >>"$tmp"
  n=$((n + 1))
done < <(find "${OBJS[@]}" -name '*.c.o' | sort)
((n > 0)) || { echo "circles: no object files under $OBJ" >&2; exit 2; }
allowed="$ROOT/tests/layers/circles-allowed"
awk -v allowed="$allowed" '
  $1 == "D" { owner[$3] = $2; files[$2] = 1; next }
  $1 == "U" { use[++nu] = $2 SUBSEP $3 }
  END {
    for (i = 1; i <= nu; i++) {
      split(use[i], p, SUBSEP); a = p[1]; g = owner[p[2]]
      if (g == "" || g == a) continue
      # the module of a file is its folder (core/x.c: core; benchmarks/harness/runs/x.c: runs)
      ma = a; mg = g; sub(/\/[^\/]*$/, "", ma); sub(/\/[^\/]*$/, "", mg)
      if (ma == mg) reach[a, g] = 1
    }
    # transitive closure, module by module (a few dozen files each)
    for (k in files) for (i in files) if ((i, k) in reach) for (j in files) if ((k, j) in reach) reach[i, j] = 1
    while ((getline line < allowed) > 0) if (line !~ /^#/ && line != "") { split(line, w, " "); ok[w[1]] = 1 }
    bad = 0
    for (i in files) {
      if (i in seen) continue
      c = i; m = 1
      for (j in files) if (j != i && (i, j) in reach && (j, i) in reach) { c = c " " j; seen[j] = 1; m++ }
      if (m == 1) continue
      n = split(c, arr, " ")
      for (x = 2; x <= n; x++) { v = arr[x]; for (y = x - 1; y >= 1 && arr[y] > v; y--) arr[y + 1] = arr[y]; arr[y + 1] = v }
      key = arr[1]; for (x = 2; x <= n; x++) key = key "," arr[x]
      if (key in ok) continue
      print "circles: " key " call each other (cut it, or name it in tests/layers/circles-allowed with why)" > "/dev/stderr"
      bad = 1
    }
    exit bad
  }' "$tmp" && echo "circles: none beyond tests/layers/circles-allowed ($n files)"

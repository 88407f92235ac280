# benchmarks/perf/lib/services.sh — sourced by the perf scripts that run the suites on the stand-in
# model (model_path.sh, own_agent.sh), after they set ROOT, OUT, TASKS_PLAYGROUND and TASKS_DOKUWIKI.
# services_start serves the Playground and starts the stand-in (its requests logged to
# OUT/standin.jsonl) on free loopback ports, empties OUT and writes OUT/commit and OUT/load; it sets
# SITE_PID, STANDIN_PID, EOUS_SITE_PLAYGROUND, STANDIN_URL and OPENAI_API_KEY.  services_stop, for
# the script's EXIT trap, stops both by PID and removes $tmp (a scratch folder the script may use).
TAG="$(basename "$0" .sh)" # the script's name, in its messages
SITE_PID="" STANDIN_PID=""
tmp="$(mktemp -d)"

services_stop() {
  [[ -z "$SITE_PID" ]] || kill "$SITE_PID" 2>/dev/null || true
  [[ -z "$STANDIN_PID" ]] || kill "$STANDIN_PID" 2>/dev/null || true
  rm -rf "$tmp"
}

# a line from a background service's stdout (its first), or fail
first_line() {
  local fifo="$1" line
  read -r -t 60 line <"$fifo" || { echo "$TAG: $2 did not start" >&2; exit 3; }
  printf '%s' "$line"
}

services_start() {
  local port
  mkfifo "$tmp/site" "$tmp/standin"
  bash "$ROOT/scripts/serve-site" --port 0 >"$tmp/site" &
  SITE_PID=$!
  # assigned apart from export, so a Playground that did not start stops the script (set -e)
  EOUS_SITE_PLAYGROUND="$(first_line "$tmp/site" "the Playground")"
  export EOUS_SITE_PLAYGROUND
  rm -rf "$OUT"
  mkdir -p "$OUT"
  # the figures belong to this commit ($TAG.mjs prints it)
  git -C "$ROOT" rev-parse --short HEAD >"$OUT/commit" 2>/dev/null || echo unknown >"$OUT/commit"
  [[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]] ||
    sed -i 's/$/ (with uncommitted changes)/' "$OUT/commit"
  # what the wall times ran beside: the 1-minute load average and the cores
  echo "$(cut -d' ' -f1 /proc/loadavg) $(nproc)" >"$OUT/load"
  node "$ROOT/benchmarks/standin/standin.mjs" --tasks "$TASKS_PLAYGROUND" --tasks "$TASKS_DOKUWIKI" \
    --log "$OUT/standin.jsonl" >"$tmp/standin" &
  STANDIN_PID=$!
  port="$(first_line "$tmp/standin" "the stand-in")"
  # shellcheck disable=SC2034 # read by the sourcing script
  STANDIN_URL="http://127.0.0.1:${port#PORT }"
  # the stand-in checks that a key is sent, as the providers do; it is not a secret
  export OPENAI_API_KEY=standin-local-key
}

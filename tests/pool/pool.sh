#!/bin/bash
# tests/pool/pool.sh — the ctest fixture around eous_test_browser_hold N DIR (CMakeLists.txt):
#   pool.sh start DIR N HOLD   starts it in its own session, waits until DIR/browsers is written
#   pool.sh stop DIR           stops it by the PID in DIR/pid (SIGTERM: it stops its browsers), removes DIR
# A C test binary whose EOUS_TEST_POOL_DIR names DIR uses those browsers (tests/pool/browser_pool.c).
set -u
cmd=${1:-}; dir=${2:-}
[[ -n "$dir" ]] || { echo "usage: pool.sh start DIR N HOLD | stop DIR" >&2; exit 2; }
stop_hold() {
    [[ -f "$dir/pid" ]] || return 0
    local pid; pid=$(cat "$dir/pid")
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
}
case "$cmd" in
start)
    n=${3:?N}; hold=${4:?HOLD}
    stop_hold; rm -rf "$dir"; mkdir -p "$dir"
    setsid "$hold" "$n" "$dir" < /dev/null > "$dir/log" 2>&1 &
    for _ in $(seq 600); do
        [[ -f "$dir/browsers" ]] && { echo "browser pool: $(cat "$dir/browsers")"; exit 0; }
        kill -0 $! 2>/dev/null || { echo "browser pool: did not start: $(cat "$dir/log")" >&2; exit 1; }
        sleep 0.1
    done
    echo "browser pool: not started within 60 s" >&2; stop_hold; exit 1 ;;
stop)
    stop_hold; rm -rf "$dir" ;;
*)
    echo "pool.sh: unknown command '$cmd' (expected start or stop)" >&2; exit 2 ;;
esac

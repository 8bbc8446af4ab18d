#!/usr/bin/env bash
# server-bench.sh [ROUNDS=5] [PEERS=nginx-w2 nginx-w2:9211]
#
# The HTTP1 server against nginx, side by side (../shared/bench, see its README):
#   1. builds Tests/Performance/ServerBenchmark in release (a fixed 1 KiB JSON body answered
#      from respondImmediately, 2 event-loop threads, 127.0.0.1:$PORT);
#   2. runs bench-all.sh ROUNDS PEERS ext:$PORT (interleaved rounds, wrk 64 connections, 10 s):
#      nginx-w2 is nginx (2 workers) answering proxy_cache hits, nginx-w2:9211 the same nginx
#      serving the static 1 KiB file (its ceiling);
#   3. holds 10,000 idle keep-alive connections on a fresh server and reports its RSS;
#   4. stops the servers it started (by PID).
# Needs nginx, varnish and wrk (apt-get install -y nginx varnish wrk). Env: PORT [8080],
# BENCH_DIR [../shared/bench next to the repository], IDLE [10000], HUMMINGBIRD_BIN [unset]:
# the HBStatic binary of ../shared/bench/peers/hummingbird-static built in a writable copy
# (`swift build -c release` there); when set it runs on 127.0.0.1:9203 and joins the rounds.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BENCH_DIR="${BENCH_DIR:-$(cd "$ROOT/.." && pwd)/shared/bench}"
PORT="${PORT:-8080}"
IDLE="${IDLE:-10000}"
ROUNDS="${1:-5}"; shift || true
PEERS=("$@"); [[ ${#PEERS[@]} -gt 0 ]] || PEERS=(nginx-w2 nginx-w2:9211)

swift build -c release -Xswiftc -warnings-as-errors --package-path "$HERE/ServerBenchmark"
BINARY="$HERE/ServerBenchmark/.build/release/ServerBenchmark"

start_server() {
  "$BINARY" "$PORT" 2 >/dev/null &
  SERVER_PID=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && return 0; sleep 0.1; done
  echo "ServerBenchmark did not start" >&2; return 1
}
stop_server() { kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; }
trap stop_server EXIT

start_server
EXT=("ext:$PORT"); PIDS="$SERVER_PID"
if [[ -n "${HUMMINGBIRD_BIN:-}" ]]; then
  "$HUMMINGBIRD_BIN" 9203 127.0.0.1 >/dev/null 2>&1 &
  HB_PID=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:9203/items/1" && break; sleep 0.1; done
  EXT+=("ext:9203"); PIDS="$PIDS,$HB_PID"
fi
EXT_PIDS="$PIDS" "$BENCH_DIR/bench-all.sh" "$ROUNDS" "${PEERS[@]}" "${EXT[@]}"
stop_server
[[ -z "${HB_PID:-}" ]] || { kill -TERM "$HB_PID" 2>/dev/null || true; wait "$HB_PID" 2>/dev/null || true; }

start_server
ulimit -n "$(ulimit -Hn)"
timeout 120 python3 "$HERE/idle_connections.py" "$SERVER_PID" "$PORT" "$IDLE" 5

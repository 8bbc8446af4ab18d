#!/usr/bin/env bash
# gateway-bench.sh [ROUNDS=5] [PEERS=nginx-w2]
#
# rds-gateway against nginx, side by side (../shared/bench, see its README):
#   1. builds rds-gateway in release and starts it on 127.0.0.1:$PORT with bench-gateway.json
#      (GET /items/{id} -> the bench upstream http://127.0.0.1:9100/items/{id}, following its
#      Cache-Control: max-age=60); its stderr (one JSON line per request) goes to $GATEWAY_LOG;
#   2. starts the bench upstream unless one already listens on 9100;
#   3. waits until no other wrk or bench-all.sh runs (numbers taken under another load are worthless);
#   4. bench-all.sh ROUNDS PEERS ext:$PORT: interleaved rounds, wrk 64 connections, 10 s, cycling
#      /items/1..100 (cache hits after the warm-up); summary table at the end;
#   5. coalesce.sh: 200 concurrent requests on one cold key (the upstream sleeps 200 ms);
#   6. restarts the gateway and runs cold_miss.py: the median latency a cold miss adds to the
#      upstream's own (200 distinct keys), the first miss of the fresh gateway (connect) apart;
#   7. stops the gateway it started (by PID), and the upstream if it started it.
# Needs nginx, varnish and wrk (apt-get install -y nginx varnish wrk).
# Env: PORT [8080], BENCH_DIR [../shared/bench next to the repository], BENCH_RUN
# [/tmp/bench-run-perf], GATEWAY_LOG [/dev/null], KEYS_COLD [200], WAIT_FOR_WRK [1800] seconds.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BENCH_DIR="${BENCH_DIR:-$(cd "$ROOT/.." && pwd)/shared/bench}"
export BENCH_RUN="${BENCH_RUN:-/tmp/bench-run-perf}"
PORT="${PORT:-8080}"
GATEWAY_LOG="${GATEWAY_LOG:-/dev/null}"
KEYS_COLD="${KEYS_COLD:-200}"
WAIT_FOR_WRK="${WAIT_FOR_WRK:-1800}"
ROUNDS="${1:-5}"; shift || true
PEERS=("$@"); [[ ${#PEERS[@]} -gt 0 ]] || PEERS=(nginx-w2)

swift build -c release -Xswiftc -warnings-as-errors --package-path "$ROOT" --product rds-gateway
BINARY="$ROOT/.build/release/rds-gateway"

GATEWAY_PID=""
start_gateway() {
  RDS_PORT="$PORT" "$BINARY" --config "$HERE/bench-gateway.json" 2>>"$GATEWAY_LOG" >/dev/null &
  GATEWAY_PID=$!
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && return 0; sleep 0.1; done
  echo "rds-gateway did not start on 127.0.0.1:$PORT" >&2; return 1
}
stop_gateway() {
  [[ -n "$GATEWAY_PID" ]] || return 0
  kill -TERM "$GATEWAY_PID" 2>/dev/null || true
  wait "$GATEWAY_PID" 2>/dev/null || true
  GATEWAY_PID=""
}
STARTED_UPSTREAM=""
cleanup() {
  stop_gateway
  [[ -z "$STARTED_UPSTREAM" ]] || "$BENCH_DIR/peers.sh" stop upstream
}
trap cleanup EXIT

# The upstream: one already serving 9100 (recorded so peers.sh, called by bench-all.sh, sees
# it running; never stopped from here), or ours through peers.sh, stopped at the end so that
# another team's peers.sh finds the port free.
mkdir -p "$BENCH_RUN"
if curl -sf -o /dev/null "http://127.0.0.1:9100/__count"; then
  pid="$(ss -Hltnp 'sport = :9100' | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)"
  [[ -n "$pid" ]] && echo "$pid" >"$BENCH_RUN/upstream.pid"
  echo "using the upstream already on 127.0.0.1:9100 (pid ${pid:-?})"
else
  "$BENCH_DIR/peers.sh" start upstream
  STARTED_UPSTREAM=1
fi

busy() { pgrep -x wrk >/dev/null || pgrep -f 'bench-all\.sh|run-load\.sh|coalesce\.py' >/dev/null; }
wait_for_quiet() {
  local waited=0
  while busy; do
    ((waited == 0)) && echo "another benchmark is running; waiting: $(pgrep -af 'wrk|bench-all' | head -1)"
    ((waited >= WAIT_FOR_WRK)) && { echo "still busy after ${WAIT_FOR_WRK}s, giving up" >&2; return 1; }
    sleep 5; waited=$((waited + 5))
  done
}

start_gateway
wait_for_quiet
EXT_PIDS="$GATEWAY_PID" "$BENCH_DIR/bench-all.sh" "$ROUNDS" "${PEERS[@]}" "ext:$PORT"

echo; echo "## coalescing: 200 concurrent requests on a cold key (upstream sleeps 200 ms)"
wait_for_quiet
"$BENCH_DIR/coalesce.sh" "http://127.0.0.1:$PORT"

echo; echo "## cold miss: latency added to the upstream's own, $KEYS_COLD distinct keys, fresh gateway"
stop_gateway
start_gateway
wait_for_quiet
python3 "$HERE/cold_miss.py" --gateway "http://127.0.0.1:$PORT" --keys "$KEYS_COLD" --fresh-gateway

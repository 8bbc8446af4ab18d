#!/usr/bin/env bash
# outbox-bench.sh: the durable write outbox (issue 11 §3), on this machine. Prints numbers;
# asserts nothing about timing.
#   1. builds rds-gateway in release and starts it with a read-write repository `notes` in front
#      of the embedded demo upstream, writes.queue on, its journal in a fresh temporary folder;
#   2. makes the demo answer 503 and runs wrk for $DURATION s: PUTs over 256 notes, each answered
#      202 once journaled and fsync'ed: acknowledged queued writes per second;
#   3. keeps writing until $RECORDS writes are queued, stops the gateway, starts it again on the
#      same folder (the demo starts healthy): the time until /health answers is the recovery of
#      a $RECORDS-record journal (an empty journal's start-up is printed beside it);
#   4. the restarted gateway replays everything to the healthy demo: replay throughput.
# Needs wrk and curl. Env: PORT [18190], DURATION [10], RECORDS [100000], CONNECTIONS [32].
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PORT="${PORT:-18190}"
SECONDS_RUN="${DURATION:-10}"
RECORDS="${RECORDS:-100000}"
CONNECTIONS="${CONNECTIONS:-32}"
BASE="http://127.0.0.1:$PORT"

swift build -c release -Xswiftc -warnings-as-errors --package-path "$ROOT" --product rds-gateway >/dev/null
BINARY="$ROOT/.build/release/rds-gateway"
WORK="$(mktemp -d /tmp/outbox-bench.XXXXXX)"
cat >"$WORK/gateway.json" <<JSON
{"server": {"port": $PORT, "limits": {"maxConnections": 1024}},
 "cache": {"disk": {"path": "$WORK/cache"}},
 "services": {"demo": {"baseURL": "embedded:demo"}},
 "repositories": {"notes": {"route": "/notes/{id}", "service": "demo", "methods": ["GET", "PUT"],
   "writes": {"queue": {"maxPending": 1000000, "maxAge": 86400, "parallelKeys": 16, "retryBase": 0.5, "retryMax": 1}}}}}
JSON
cat >"$WORK/put.lua" <<'LUA'
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("PUT", "/notes/n" .. (counter % 256), {["Content-Type"] = "application/json"},
    '{"n":' .. counter .. ',"items":["milk","eggs","bread"]}')
end
LUA

GATEWAY_PID=""
STARTUP=""
start_gateway() {  # sets GATEWAY_PID and STARTUP (seconds until /health answers)
  local started
  started=$(date +%s.%N)
  RDS_LOG_LEVEL=warning "$BINARY" --config "$WORK/gateway.json" 2>>"$WORK/gateway.log" >/dev/null &
  GATEWAY_PID=$!
  for _ in $(seq 6000); do
    if curl -sf -o /dev/null "$BASE/health"; then
      STARTUP=$(echo "$(date +%s.%N) - $started" | bc)
      return 0
    fi
    sleep 0.01
  done
  echo "rds-gateway did not start on $BASE" >&2
  return 1
}
stop_gateway() { kill "$GATEWAY_PID"; wait "$GATEWAY_PID" 2>/dev/null || true; }
depth() { curl -s "$BASE/metrics" | awk '/^rds_gateway_write_queue_depth\{repository="notes"\}/ { print $2 }'; }
trap 'kill "$GATEWAY_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

start_gateway
empty_start=$STARTUP
curl -s -X POST "$BASE/__demo/fail?status=503&for=86400" >/dev/null
echo "== acknowledged queued writes (202 after fsync), $CONNECTIONS connections, ${SECONDS_RUN} s"
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s "$WORK/put.lua" "$BASE" | grep -E "Requests/sec|Latency|Non-2xx|requests in"
while [ "$(depth)" -lt "$RECORDS" ]; do
  wrk -t2 -c"$CONNECTIONS" -d5s -s "$WORK/put.lua" "$BASE" >/dev/null
done
queued=$(depth)
stop_gateway
echo "== recovery: start-up with an empty journal ${empty_start} s; with $queued pending writes:"
start_gateway
echo "   ${STARTUP} s until /health answers ($(stat -c %s "$WORK/cache/notes.writes/journal") journal bytes)"
echo "== replay of $queued writes to the healthy demo (16 resources at once)"
began=$(date +%s.%N)
while [ "$(depth)" -gt 0 ]; do sleep 0.2; done
took=$(echo "$(date +%s.%N) - $began" | bc)
echo "   $took s, $(echo "$queued / $took" | bc) writes/s"
stop_gateway

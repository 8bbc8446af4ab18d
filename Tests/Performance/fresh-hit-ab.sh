#!/usr/bin/env bash
# fresh-hit-ab.sh [ROUNDS=5] — fresh-hit throughput of this branch against main, side by side.
#
# Builds both in release (main from `git archive main`, separate scratch paths), starts a tiny
# Python upstream on 127.0.0.1:19100 (1 KiB JSON, Cache-Control: max-age=600), one gateway each
# (bench-gateway.json, ports 18081 = main, 18082 = branch), warms /items/1..100, then runs
# interleaved wrk rounds (2 threads, 32 connections, 4 s, ../shared/bench/keys.lua) and prints
# Requests/sec and latency per round. Stops what it started (by PID). Needs wrk and python3.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${1:-5}"
WORK="${WORK:-/tmp/fresh-hit-ab}"
mkdir -p "$WORK/main-src"
git -C "$ROOT" archive main | tar -x -C "$WORK/main-src"
nice -n 19 swift build -c release --package-path "$ROOT" --scratch-path "$WORK/branch" --product rds-gateway >/dev/null
nice -n 19 swift build -c release --package-path "$WORK/main-src" --scratch-path "$WORK/main" --product rds-gateway >/dev/null
python3 - <<'PY' &
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
BODY = json.dumps({"id": 1, "name": "x" * 900}).encode()
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200)
        for name, value in (("Content-Type", "application/json"), ("Cache-Control", "max-age=600"),
                            ("ETag", '"v1"'), ("Content-Length", str(len(BODY)))):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(BODY)
    def log_message(self, *args): pass
ThreadingHTTPServer(("127.0.0.1", 19100), H).serve_forever()
PY
UPSTREAM=$!
PIDS=("$UPSTREAM")
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT
sleep 0.5
for side in main branch; do
  port=$([ "$side" = main ] && echo 18081 || echo 18082)
  UPSTREAM_URL=http://127.0.0.1:19100 RDS_LOG_LEVEL=error RDS_PORT=$port \
    "$WORK/$side/release/rds-gateway" --config "$HERE/bench-gateway.json" >/dev/null 2>&1 &
  PIDS+=("$!")
done
sleep 1
for port in 18081 18082; do for k in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/items/$k"; done; done
for round in $(seq "$ROUNDS"); do
  order="18081 18082"; [ $((round % 2)) = 0 ] && order="18082 18081"
  for port in $order; do
    side=$([ "$port" = 18081 ] && echo main || echo branch)
    printf 'round %s %-6s ' "$round" "$side"
    KEYS=100 wrk -t2 -c32 -d4s -s "$ROOT/../shared/bench/keys.lua" "http://127.0.0.1:$port" 2>&1 \
      | grep -E "Requests/sec|Latency" | tr -s ' ' | tr '\n' ' '
    echo
  done
done

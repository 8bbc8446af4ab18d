#!/usr/bin/env bash
# Runs the gateway (debug build, default config with its embedded demo upstream) on a loopback
# port, makes requests that fill every kind of series (hits, misses, 404s, upstream calls), then
# checks GET /metrics with `promtool check metrics` (Prometheus' own parser and linter).
# Fails on any promtool complaint, a missing metric family, or a missing tool.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
fail() { echo "promtool-check: FAILED: $*" >&2; exit 1; }
for tool in promtool curl swift; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (see .ci/run)"
done

# The same flags as the README's test command, so that `swift test` reuses this build.
(cd "$repo" && swift build --product rds-gateway -Xswiftc -warnings-as-errors) || fail "debug build failed"
binary="$(cd "$repo" && swift build --show-bin-path)/rds-gateway"

work="$(mktemp -d)"
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
RDS_CONFIG="$repo/Config/gateway.json" RDS_HOST=127.0.0.1 RDS_PORT=0 RDS_CACHE_DIR="$work/cache" \
    RDS_LOG_LEVEL=info "$binary" 2>"$work/gateway.log" &
pid=$!
# The port comes from the start-up event: {"time":…,"event":"started","address":"http://127.0.0.1:PORT",…}
port=""
for _ in $(seq 1 150); do
    port="$(sed -n 's/.*"event":"started".*"address":"http:\/\/[^"]*:\([0-9][0-9]*\)".*/\1/p' "$work/gateway.log")"
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/gateway.log" >&2; fail "the gateway exited at start-up"; }
    sleep 0.2
done
[ -n "$port" ] || { cat "$work/gateway.log" >&2; fail "no started event with an address within 30 s"; }
base="http://127.0.0.1:$port"
curl -fsS "$base/health" >/dev/null || { cat "$work/gateway.log" >&2; fail "/health did not answer within 30 s"; }

for path in /weather/paris /weather/paris /weather/atlantis "/locations?name=par" /health/ready /no/such/route; do
    curl -sS -o /dev/null "$base$path" || fail "GET $path failed"
done
curl -fsS "$base/metrics" >"$work/metrics.txt" || fail "GET /metrics failed"

if ! promtool check metrics <"$work/metrics.txt" >"$work/promtool.txt" 2>&1 || [ -s "$work/promtool.txt" ]; then
    cat "$work/promtool.txt" >&2
    fail "promtool check metrics rejected the output"
fi
for family in rds_gateway_http_requests_total rds_gateway_http_request_duration_seconds_bucket \
    rds_gateway_cache_lookups_total rds_gateway_upstream_requests_total \
    rds_gateway_upstream_request_duration_seconds_bucket rds_gateway_cache_entries rds_gateway_open_connections rds_gateway_disk_degraded \
    rds_gateway_disk_write_failures_total; do
    grep -q "^$family[{ ]" "$work/metrics.txt" || fail "/metrics has no $family sample"
done

kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
[ "$status" = 0 ] || fail "the gateway exited with status $status after SIGTERM"
echo "promtool-check: PASSED ($(grep -c '^rds_gateway_' "$work/metrics.txt") samples in $(grep -c '^# TYPE' "$work/metrics.txt") families)"

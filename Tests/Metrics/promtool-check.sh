#!/usr/bin/env bash
# Runs the gateway (debug build, default config with its embedded demo upstream) on a loopback
# port, makes requests that fill every kind of series (hits, misses, 404s, upstream calls), then
# checks GET /metrics with `promtool check metrics` (Prometheus' own parser and linter).
# Fails on any promtool complaint, a missing metric family, or a missing tool.
set -euo pipefail

fail() { echo "promtool-check: FAILED: $*" >&2; exit 1; }
for tool in promtool curl swift; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (see .ci/run)"
done
# shellcheck source=../Support/gateway-process.sh
source "$(dirname "$0")/../Support/gateway-process.sh"
gateway_start

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

gateway_stop
echo "promtool-check: PASSED ($(grep -c '^rds_gateway_' "$work/metrics.txt") samples in $(grep -c '^# TYPE' "$work/metrics.txt") families)"

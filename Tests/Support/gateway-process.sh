# Sourced by the CI check scripts: builds the gateway (debug, the README's test flags so that
# `swift test` reuses the build) and runs it on a free loopback port with the default config
# and its embedded demo upstream. The caller defines `fail MESSAGE` before sourcing this file.
# After `gateway_start`: $pid, $port, $base (http://127.0.0.1:PORT) and $work (a temp folder,
# removed on exit with the process) are set; `gateway_stop` sends SIGTERM and checks the exit.

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
pid=""
gateway_cleanup() {
    if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap gateway_cleanup EXIT

gateway_start() {
    (cd "$repo" && swift build --product rds-gateway -Xswiftc -warnings-as-errors) || fail "debug build failed"
    local binary
    binary="$(cd "$repo" && swift build --show-bin-path)/rds-gateway"
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
}

gateway_stop() {
    kill -TERM "$pid"
    local status=0
    wait "$pid" || status=$?
    pid=""
    [ "$status" = 0 ] || fail "the gateway exited with status $status after SIGTERM"
}

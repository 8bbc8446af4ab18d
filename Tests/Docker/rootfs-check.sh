#!/usr/bin/env bash
# Proves the Dockerfile's runtime stage without a Docker engine.
#
# 1. Builds the release binary exactly as the Dockerfile's build stage does.
# 2. Makes a minimal Debian bookworm root (debootstrap --variant=minbase) holding only the
#    Dockerfile's RUNTIME_PACKAGES, cached as a tarball under $RDS_ROOTFS_CACHE
#    (default /var/cache/rds-gateway-rootfs) keyed by a hash of the package list.
# 3. Replays the Dockerfile's user set-up inside it, copies in the binary and Config/.
# 4. Runs the gateway there with chroot as the non-root user and checks: /health, a repository
#    request through the embedded demo upstream (miss, then hit), the disk cache written by that
#    user, `rds-gateway healthcheck` (0 while up, 1 once stopped), /metrics, and a SIGTERM that
#    ends the process with status 0.
#
# Needs root, debootstrap, curl and the network to a Debian mirror on a cold cache.
# Any missing piece or failed check stops the script with a message and a non-zero status.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
dockerfile="$repo/Dockerfile"
cache_root="${RDS_ROOTFS_CACHE:-/var/cache/rds-gateway-rootfs}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
suite=bookworm
script_start=$SECONDS

fail() { echo "rootfs-check: FAILED: $*" >&2; exit 1; }
step() { echo "rootfs-check: [$((SECONDS - script_start))s] $*"; }

[ "$(id -u)" = 0 ] || fail "must run as root (debootstrap and chroot need it)"
for tool in debootstrap chroot curl sha256sum tar swift mount; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (see .ci/run)"
done
[ -f "$dockerfile" ] || fail "no Dockerfile at $dockerfile"
[ -f "$repo/Config/gateway.json" ] || fail "no Config/gateway.json to copy into the image"

# --- What the Dockerfile says -------------------------------------------------------------------
build_command='swift build -c release --static-swift-stdlib --product rds-gateway'
grep -qF "RUN $build_command" "$dockerfile" || fail "the Dockerfile no longer builds with: $build_command"
grep -qF 'install -D -s -m 0755' "$dockerfile" || fail "the Dockerfile no longer installs the binary stripped"
packages="$(sed -n 's/^ARG RUNTIME_PACKAGES="\(.*\)"$/\1/p' "$dockerfile")"
[ -n "$packages" ] || fail "no ARG RUNTIME_PACKAGES=\"…\" line in the Dockerfile"
# The RUN instruction starting with `useradd`, continuation lines joined.
user_setup="$(awk '/^RUN useradd /{on=1} on{print} on && !/\\$/{exit}' "$dockerfile" \
    | sed -e 's/^RUN //' -e 's/\\$//' | tr '\n' ' ')"
[ -n "$user_setup" ] || fail "no 'RUN useradd …' instruction in the Dockerfile"
user="$(sed -n 's/^USER \([a-z_][a-z0-9_-]*\):\([a-z_][a-z0-9_-]*\)$/\1:\2/p' "$dockerfile")"
[ -n "$user" ] || fail "no 'USER name:group' instruction in the Dockerfile"
step "runtime packages: $packages; user: $user"

# --- 1. The release binary ----------------------------------------------------------------------
step "building: $build_command"
(cd "$repo" && $build_command) || fail "release build failed"
binary="$(cd "$repo" && swift build -c release --show-bin-path)/rds-gateway"
[ -x "$binary" ] || fail "no binary at $binary"
step "binary: $(du -h "$binary" | cut -f1) before strip, links: $(readelf -d "$binary" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"

# --- 2. The cached root filesystem --------------------------------------------------------------
key="$(printf '%s\n' "debootstrap $suite minbase v1" $(printf '%s\n' $packages | sort) | sha256sum | cut -c1-16)"
if ! mkdir -p "$cache_root" 2>/dev/null || [ ! -w "$cache_root" ]; then
    cache_root="$(mktemp -d)"
    echo "rootfs-check: cannot write the shared cache; using $cache_root for this run only" >&2
fi
tarball="$cache_root/$suite-minbase-$key.tar"
exec 9>"$cache_root/.lock"
flock 9
if [ ! -f "$tarball" ]; then
    step "no cached root for this package list: debootstrap $suite (minbase + ${packages// /,})"
    staging="$(mktemp -d "$cache_root/staging.XXXXXX")"
    debootstrap --variant=minbase --include="${packages// /,}" "$suite" "$staging" "$mirror" \
        >"$cache_root/debootstrap-$key.log" 2>&1 \
        || { tail -20 "$cache_root/debootstrap-$key.log" >&2; rm -rf "$staging"; fail "debootstrap failed"; }
    # As the Dockerfile does after apt-get install: no package lists, no downloaded .debs.
    rm -rf "$staging"/var/lib/apt/lists/* "$staging"/var/cache/apt/archives/*.deb
    tar -C "$staging" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$staging"
    step "cached $(du -h "$tarball" | cut -f1) at $tarball"
else
    step "cached root: $tarball"
fi
flock -u 9

# --- 3. The image's file system -----------------------------------------------------------------
root="$(mktemp -d "$cache_root/run.XXXXXX")"
log="$(mktemp)"
gateway_pid=""
cleanup() {
    if [ -n "$gateway_pid" ]; then kill -KILL "$gateway_pid" 2>/dev/null || true; fi
    if mountpoint -q "$root/proc"; then umount "$root/proc" || umount -l "$root/proc" || true; fi
    if ! mountpoint -q "$root/proc"; then rm -rf "$root"; fi
    rm -f "$log"
}
trap cleanup EXIT
fail_with_log() { echo "--- gateway log ---" >&2; cat "$log" >&2; fail "$@"; }
tar -C "$root" -xf "$tarball"
chmod 0755 "$root" # mktemp made it 0700; an image's / is world-readable
for package in $packages; do
    chroot "$root" dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || fail "$package is not installed in the root filesystem"
done
chroot "$root" /bin/sh -c "$user_setup" || fail "the Dockerfile's user set-up failed: $user_setup"
install -D -s -m 0755 "$binary" "$root/usr/local/bin/rds-gateway" # stripped, as the build stage does
cp -R "$repo/Config" "$root/app/Config"
mount -t proc proc "$root/proc" || fail "cannot mount /proc in the root filesystem"
missing="$(chroot "$root" ldd /usr/local/bin/rds-gateway | grep 'not found' || true)"
[ -z "$missing" ] || fail "libraries missing from the runtime packages: $missing"
step "root filesystem ready: $(du -sh --exclude=proc "$root" | cut -f1)"

# --- 4. Run it as the image would ---------------------------------------------------------------
image_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/app RDS_CONFIG=/app/Config/gateway.json
    RDS_HOST=127.0.0.1 RDS_PORT=0 RDS_CACHE_DIR=/var/cache/rds-gateway RDS_LOG_LEVEL=info)
in_image() { chroot --userspec="$user" "$root" "${image_env[@]}" "$@"; }
# A simple command in the background, so that $! is the gateway itself (chroot, env and sh exec).
chroot --userspec="$user" "$root" "${image_env[@]}" /bin/sh -c 'cd /app && exec rds-gateway' 2>"$log" &
gateway_pid=$!
# The port comes from the start-up event: {"time":…,"event":"started","address":"http://127.0.0.1:PORT",…}
port=""
for _ in $(seq 1 150); do
    port="$(sed -n 's/.*"event":"started".*"address":"http:\/\/[^"]*:\([0-9][0-9]*\)".*/\1/p' "$log")"
    [ -n "$port" ] && break
    kill -0 "$gateway_pid" 2>/dev/null || fail_with_log "the gateway exited at start-up"
    sleep 0.2
done
[ -n "$port" ] || fail_with_log "no started event with an address within 30 s"
base="http://127.0.0.1:$port"
health="$(curl -fsS "$base/health")" || fail_with_log "/health did not answer"
[[ "$health" == *'"ok"'* ]] || fail "/health answered $health"
step "/health: $health"

headers="$(mktemp)"
curl -fsS -D "$headers" -o /dev/null "$base/weather/paris" || fail "GET /weather/paris failed"
grep -qi '^X-Request-ID: ' "$headers" || fail "no X-Request-ID on the response"
first="$(sed -n 's/^[Xx]-[Cc]ache: *\([A-Z]*\).*/\1/p' "$headers")"
curl -fsS -D "$headers" -o /dev/null "$base/weather/paris" || fail "second GET /weather/paris failed"
second="$(sed -n 's/^[Xx]-[Cc]ache: *\([A-Z]*\).*/\1/p' "$headers")"
rm -f "$headers"
[ "$first" = MISS ] && [ "$second" = HIT ] || fail "expected X-Cache MISS then HIT, got '$first' then '$second'"
step "repository request through the demo upstream: $first, then $second"

# The disk level is written through after the answer: give it a moment. The user is looked up
# inside the image, where it exists.
uid="$(chroot "$root" id -u "${user%%:*}")" || fail "no user ${user%%:*} in the root filesystem"
cached=0
for _ in $(seq 1 50); do
    cached="$( (find "$root/var/cache/rds-gateway" -type f -uid "$uid" 2>/dev/null || true) | wc -l)"
    [ "$cached" -gt 0 ] && break
    sleep 0.1
done
[ "$cached" -gt 0 ] || fail_with_log "nothing written to the disk cache volume by ${user%%:*}: $(ls -laR "$root/var/cache/rds-gateway" 2>&1 | head -20)"
step "disk cache: $cached file(s) owned by ${user%%:*}"

in_image env "RDS_PORT=$port" rds-gateway healthcheck || fail "'rds-gateway healthcheck' failed against a healthy gateway"
step "healthcheck: 0 while the gateway runs"

metrics="$(curl -fsS "$base/metrics")" || fail "GET /metrics failed"
grep -q '^rds_gateway_http_requests_total{' <<<"$metrics" || fail "/metrics lacks rds_gateway_http_requests_total"
step "/metrics: $(grep -c '^rds_gateway_' <<<"$metrics") samples"

kill -TERM "$gateway_pid"
status=0
wait "$gateway_pid" || status=$?
gateway_pid=""
[ "$status" = 0 ] || fail_with_log "SIGTERM ended the gateway with status $status, not 0"
grep -q '"event":"request"' "$log" || fail_with_log "no JSON request log line on stderr"
step "SIGTERM: exit status 0"
if in_image env "RDS_PORT=$port" rds-gateway healthcheck 2>/dev/null; then
    fail "'rds-gateway healthcheck' succeeded after the gateway stopped"
fi
step "healthcheck: 1 once the gateway has stopped"
step "PASSED in $((SECONDS - script_start)) s"

#!/usr/bin/env bash
# callgrind-paths.sh [GATEWAY_BIN] — instructions per request of the gateway's paths, counted by
# callgrind: independent of the machine's load, so comparable between runs on a busy machine.
#
# Starts the origin of paths-bench.sh (nginx, 127.0.0.1:9300) and the gateway (release build, or
# GATEWAY_BIN) under `valgrind --tool=callgrind --instr-atstart=no` with paths-gateway.json, warms
# the keys with instrumentation off, then for each path counts the instructions of N sequential
# keep-alive requests (one client, paths/seqclient.py) and prints instructions per request, with
# the reference-counting calls and mallocs per request (paths/refcounts.py: how many objects a
# path touches and makes, which the instruction total does not tell apart from plain work):
#   hit   /hit/{1..100}   fresh 1 KB hits                          (N = 2000)
#   pass  /pass/{1..100}  no-store at the origin: every request goes upstream (N = 1000)
#   reval /reval/{1..200} max-age=1 at the origin, filled 2 s before: every request revalidates
#                         an expired entry (304 from the origin) and stores it again (N = 200); the
#                         disk level writes none of these renewals, each fresh for less than
#                         FileDatastore.revalidationWriteInterval (60 s), as in paths-bench.sh
#   disk  /zipf/{1..3000} 4 KB, filled before: the memory level is given 10 MB here (2 MB per
#                         repository, ~400 such entries), so every request misses it and is
#                         answered from the disk level, promoted and evicts one entry (N = 2000)
#   miss  /zipf/{3001..5000} never asked before: every request is a cold miss, fetched from the
#                         origin and stored in both levels (the disk write on its queue counted too) (N = 2000)
# Profiles stay in $RUN/cg-*.out (callgrind_annotate them). Needs valgrind, gcc, nginx, python3.
# Env: RUN [/tmp/callgrind-paths], PORT [8091] (the gateway's), PORT_OFFSET [0] (added to the origin's 9300).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
RUN="${RUN:-/tmp/callgrind-paths}"
PORT="${PORT:-8091}"
if [[ -z "${1:-}" ]]; then
  swift build -c release -Xswiftc -warnings-as-errors --package-path "$ROOT" --product rds-gateway >&2
fi
BIN="${1:-$ROOT/.build/release/rds-gateway}"
rm -rf "$RUN" && mkdir -p "$RUN/docroot" "$RUN/logs"
python3 "$HERE/paths/make_docroot.py" "$RUN/docroot"
gcc -shared -fPIC -O2 "$HERE/paths/dispatch_main_shim.c" -o "$RUN/shim.so" \
  -L/opt/swift/usr/lib/swift/linux -Wl,-rpath,/opt/swift/usr/lib/swift/linux -ldispatch
# The origin's port moved by PORT_OFFSET (as in paths-bench.sh), in copies of the configurations.
ORIGIN=$((9300 + ${PORT_OFFSET:-0}))
sed "s/127\.0\.0\.1:9300/127.0.0.1:$ORIGIN/" "$HERE/paths/nginx-origin.conf" >"$RUN/nginx-origin.conf"
nginx -e "$RUN/logs/origin-error.log" -c "$RUN/nginx-origin.conf" -p "$RUN/"
# paths-gateway.json with a 10 MB memory level (the hit, pass and reval keys still fit in it).
sed -e 's/"maxBytes": 1048576000/"maxBytes": 10485760/' -e "s/127\.0\.0\.1:9300/127.0.0.1:$ORIGIN/" \
  "$HERE/paths/paths-gateway.json" >"$RUN/gateway.json"
PATHS_DISK="$RUN/disk" RDS_PORT="$PORT" LD_PRELOAD="$RUN/shim.so" valgrind --tool=callgrind --instr-atstart=no \
  --callgrind-out-file="$RUN/callgrind.%p" "$BIN" --config "$RUN/gateway.json" \
  >/dev/null 2>"$RUN/gateway.log" &
VPID=$!
trap 'kill -TERM $VPID 2>/dev/null || true; kill -TERM "$(cat "$RUN/logs/origin.pid")" 2>/dev/null || true' EXIT
for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 1; done
CLIENT=(python3 "$HERE/paths/seqclient.py" "http://127.0.0.1:$PORT")
"${CLIENT[@]}" /hit/ 300 >/dev/null
"${CLIENT[@]}" /pass/ 100 >/dev/null
count() {  # NAME PREFIX N [KEYS] [FIRST]
  callgrind_control -i on "$VPID" >/dev/null 2>&1
  "${CLIENT[@]}" "$2" "$3" "${4:-100}" "${5:-1}" >"$RUN/$1.txt"
  callgrind_control -i off "$VPID" >/dev/null 2>&1
  callgrind_control -d "$1" "$VPID" >/dev/null 2>&1
  sleep 1
  mv "$(ls -t "$RUN"/callgrind."$VPID".* | head -1)" "$RUN/cg-$1.out"
  read -r refcounts allocations < <(python3 "$HERE/paths/refcounts.py" "$RUN/cg-$1.out" "$3")
  printf '%-7s %8s instructions/request  %5s retains+releases  %5s mallocs  (%s requests: %s)\n' "$1" \
    "$(awk -v n="$3" '/^totals:/ {printf "%.0f", $2 / n}' "$RUN/cg-$1.out")" "$refcounts" "$allocations" \
    "$3" "$(head -1 "$RUN/$1.txt" | cut -d'}' -f1)}"
}
count hit /hit/ 2000
count pass /pass/ 1000
"${CLIENT[@]}" /reval/ 200 200 >/dev/null
sleep 2
count reval /reval/ 200 200
"${CLIENT[@]}" /zipf/ 3000 3000 >/dev/null
count disk /zipf/ 2000 3000
count miss /zipf/ 2000 2000 3001

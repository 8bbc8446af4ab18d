#!/usr/bin/env bash
# paths-bench.sh [ROUNDS=3] [SECONDS=8] — every path of issue 14, rds-gateway against nginx and
# Varnish, side by side in interleaved rounds (the peer order rotates per round), one table at the end.
#
# Servers (all on 127.0.0.1, started and stopped by PID here; configs in paths/):
#   origin   nginx, 1 worker, :9300 (nginx-origin.conf): static 1 KB / 4 KB / 1 MB JSON with ETag,
#            Last-Modified and 304 on If-None-Match; Cache-Control per path (see the config);
#   nginx    nginx, 2 workers, :9310 (nginx-proxy.conf): proxy_cache on disk, proxy_pass with a
#            keep-alive upstream pool, proxy_cache_revalidate;
#   varnish  Varnish, :9320 (varnish-paths.vcl): file storage of VARNISH_STORAGE (holds every key),
#            /pass/ passed, expired objects kept for conditional revalidation, no grace;
#   gateway  rds-gateway (release), :8090 (paths-gateway.json): one repository per path, memory
#            level 1000 MB shared by 5 repositories (200 MB each), disk level on;
#   gateway-idle  a second rds-gateway, :8092 (idle-gateway.json: one repository, 16 MB memory
#            level, no disk), started for the idle-10k row only, so its RSS is the connections'
#            and the runtime's, not a cache the earlier rows filled.
# Rows (wrk, 1 thread; each run is preceded by a warm-up on the same keys):
#   hit-1k    /hit/{1..100}, 64 connections: fresh hits of 1 KB
#   big-1m    /big/{1..20}, 16 connections: fresh hits of 1 MB (throughput in MB/s; RSS before/after)
#   zipf-4k   /zipf/{Zipf over ZIPF_KEYS}, 64 connections: 4 KB bodies, 800 MB of keys (200,000) for
#             a 200 MB memory level (gateway) / the disk cache (nginx) / file storage (Varnish).
#             Before round 1 every peer is filled with every key once, in order (paths/fill.lua),
#             so the row measures the memory and disk levels, not misses to the origin (those
#             are the pass rows); ZIPF_FILL=0 skips the fill (cold caches, as before 2026-11-26 21:00)
#   pass-8, pass-64  /pass/{1..100}, no-store at the origin: every request goes upstream;
#             origin-8 is the origin alone, for the latency the proxies add (p50 - origin p50)
#   reval     /reval/{1..REVAL_KEYS} in order, 16 connections, max-age=1: before round 1 every peer
#             is filled with every key once (paths/fill.lua); before each run a 2.2 s pause, so that
#             every request finds its entry expired and revalidates (304 from the origin). REVAL_KEYS is large
#             enough that no peer comes back to a key within 2 s (100,000 keys at up to ~45k req/s):
#             with 20,000 keys (before 2026-11-27) the fastest peer met its own renewals still
#             fresh and served most requests as hits (nginx: 39 % revalidations); the upstream/req
#             column shows the share
#   idle-10k  IDLE idle keep-alive connections held open while 100 active ones load /hit/:
#             gateway-idle against nginx; RSS is the whole process tree while holding them
# Each measured run follows a `sync` (since 2026-11-27 11:30): writeback of the fills or of another
# peer's cache files no longer stalls whichever peer runs next.
# Varnish runs the rows in VARNISH_ROWS (all but idle-10k); PEERS=... leaves peers out.
# Columns (one line per row and peer): req/s (median of the rounds; MB/s for big-1m), ratios
# against nginx and against Varnish, p50 and p99 (ms), server CPU µs per request (the proxy's
# process tree, the origin's excluded), RSS before → after the run, upstream requests per request
# (the origin's stub_status counter around the run: ~0 for hits, 1 for pass-through and reval).
# Needs nginx, varnish and wrk (apt-get install -y nginx varnish wrk) and python3.
# Env: RUN [/tmp/paths-bench], GATEWAY_BIN [build it], ROWS [all of the above], PEERS
#      [gateway nginx varnish], VARNISH_ROWS [hit-1k big-1m zipf-4k pass-8 pass-64 reval],
#      ZIPF_KEYS [200000], ZIPF_FILL [1], REVAL_KEYS [100000], IDLE [10000], VARNISH_STORAGE [3G],
#      PORT_OFFSET [0]: added to every port above, so that two benches can run side by side.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${1:-3}"
SECS="${2:-8}"
RUN="${RUN:-/tmp/paths-bench}"
ZIPF_KEYS="${ZIPF_KEYS:-200000}"
ZIPF_FILL="${ZIPF_FILL:-1}"
REVAL_KEYS="${REVAL_KEYS:-100000}"
IDLE="${IDLE:-10000}"
ROWS="${ROWS:-hit-1k big-1m zipf-4k pass-8 pass-64 reval idle-10k}"
PEERS="${PEERS:-gateway nginx varnish}"
VARNISH_ROWS="${VARNISH_ROWS:-hit-1k big-1m zipf-4k pass-8 pass-64 reval}"
VARNISH_STORAGE="${VARNISH_STORAGE:-3G}"
PORT_OFFSET="${PORT_OFFSET:-0}"
GW=$((8090 + PORT_OFFSET)) GW_IDLE=$((8092 + PORT_OFFSET)) NGINX=$((9310 + PORT_OFFSET))
VARNISH=$((9320 + PORT_OFFSET)) ORIGIN=$((9300 + PORT_OFFSET))
ulimit -n "$(ulimit -Hn)"
has_peer() { [[ " $PEERS " == *" $1 "* ]]; }
has_row() { [[ " $ROWS " == *" $1 "* ]]; }

if [[ -z "${GATEWAY_BIN:-}" ]]; then
  swift build -c release -Xswiftc -warnings-as-errors --package-path "$ROOT" --product rds-gateway >&2
  GATEWAY_BIN="$ROOT/.build/release/rds-gateway"
fi

rm -rf "$RUN" && mkdir -p "$RUN/docroot" "$RUN/logs" "$RUN/gateway-disk" "$RUN/varnish" "$RUN/conf"
python3 "$HERE/paths/make_docroot.py" "$RUN/docroot"
# The configurations with every port moved by PORT_OFFSET (a copy in $RUN/conf, even at 0).
for file in "$HERE"/paths/*.conf "$HERE"/paths/*.json "$HERE"/paths/*.vcl; do
  sed -e "s/127\.0\.0\.1:9300/127.0.0.1:$ORIGIN/; s/127\.0\.0\.1:9310/127.0.0.1:$NGINX/" \
    -e "s/\"9300\"/\"$ORIGIN\"/" "$file" >"$RUN/conf/$(basename "$file")"
done
CONF="$RUN/conf"

GATEWAY_PID="" IDLE_PID=""
descendants() { local c; echo "$1"; for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do descendants "$c"; done; }
pid_file() { cat "$RUN/logs/$1.pid"; }
stop_gateway() { [[ -z "$1" ]] || { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }; }
stop_all() {
  stop_gateway "$GATEWAY_PID"; stop_gateway "$IDLE_PID"
  for name in proxy origin varnish; do
    [[ -s "$RUN/logs/$name.pid" ]] && kill -TERM "$(pid_file "$name")" 2>/dev/null || true
  done
}
trap stop_all EXIT
wait_port() { for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0; sleep 0.1; done; return 1; }

nginx -e "$RUN/logs/origin-error.log" -c "$CONF/nginx-origin.conf" -p "$RUN/"
wait_port "$ORIGIN" || { echo "the origin did not start" >&2; exit 1; }
if has_peer nginx; then
  nginx -e "$RUN/logs/proxy-error.log" -c "$CONF/nginx-proxy.conf" -p "$RUN/"
  wait_port "$NGINX" || { echo "nginx did not start" >&2; exit 1; }
fi
if has_peer varnish; then
  varnishd -a "127.0.0.1:$VARNISH" -f "$CONF/varnish-paths.vcl" -s "file,$RUN/varnish/storage.bin,$VARNISH_STORAGE" \
    -n "$RUN/varnish/work" -P "$RUN/logs/varnish.pid" >"$RUN/logs/varnish.log" 2>&1
  wait_port "$VARNISH" || { echo "varnish did not start" >&2; exit 1; }
fi
if has_peer gateway; then
  PATHS_DISK="$RUN/gateway-disk" RDS_PORT="$GW" "$GATEWAY_BIN" --config "$CONF/paths-gateway.json" \
    2>/dev/null >/dev/null &
  GATEWAY_PID=$!
  wait_port "$GW" || { echo "the gateway did not start" >&2; exit 1; }
fi

pids_of() {  # the process tree of a peer, comma-separated
  case "$1" in
    gateway) echo "$GATEWAY_PID" ;;
    gateway-idle) echo "$IDLE_PID" ;;
    nginx) descendants "$(pid_file proxy)" | paste -sd, ;;
    varnish) descendants "$(pid_file varnish)" | paste -sd, ;;
    origin) descendants "$(pid_file origin)" | paste -sd, ;;
  esac
}
port_of() {
  case "$1" in gateway) echo "$GW" ;; gateway-idle) echo "$GW_IDLE" ;; nginx) echo "$NGINX" ;;
    varnish) echo "$VARNISH" ;; origin) echo "$ORIGIN" ;; esac
}
cpu_ticks() { local p t=0 a; for p in ${1//,/ }; do
  [[ -r /proc/$p/stat ]] || continue; read -r -a a <<<"$(sed 's/^.*) //' "/proc/$p/stat")"; t=$((t + a[11] + a[12])); done
  echo "$t"; }
rss_kib() { ps -o rss= -p "$1" | awk '{s += $1} END {print s + 0}'; }
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n *= 1; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }

RESULTS="$RUN/results.tsv"
printf 'row\tpeer\tround\trps\tp50_ms\tp99_ms\trequests\terrors\tcpu_us\trss_before_kib\trss_after_kib\tidle_pct\tupstream_per_request\tresident_pct\n' >"$RESULTS"
# resident_pct PEER: how much of the peer's Zipf cache files the page cache holds right now, in %
# (fincore over 2,000 sampled files: the gateway's zipf folder, nginx's files of a 4 KB body;
# Varnish: its storage file against the keys' 4 KB bodies). This machine's kernel pages out file
# pages left unused for about a minute (a kdamond with a pageout scheme), so a disk cache's files
# filled earlier are read back from the disk in part.
resident_pct() {
  local files
  case "$1" in
    gateway | nginx)
      if [[ "$1" == gateway ]]; then files="$(find "$RUN/gateway-disk/zipf" -type f)"
      else files="$(find "$RUN/cache" -type f -size +4096c -size -8193c)"; fi
      shuf -n 2000 <<<"$files" | xargs -r fincore -n -b -o RES,SIZE |
        awk '{r += $1; s += int(($2 + 4095) / 4096) * 4096} END {printf "%.0f", (s > 0 ? 100 * r / s : -1)}' ;;
    varnish)
      fincore -n -b -o RES "$RUN/varnish/storage.bin" |
        awk -v keys="$ZIPF_KEYS" '{v = 100 * $1 / (keys * 4096); printf "%.0f", (v > 100 ? 100 : v)}' ;;
    *) echo -1 ;;
  esac
}
# origin_requests: the origin's count of requests so far (stub_status), its own request included.
origin_requests() { curl -s "http://127.0.0.1:$ORIGIN/requests" | awk 'NR == 3 {print $3}'; }

# wrk_run ROW PEER ROUND PREFIX CONNS SCRIPT KEYS [WARMUP_SECS]: one measured run, a line in results.tsv.
wrk_run() {
  local row=$1 peer=$2 round=$3 prefix=$4 conns=$5 script=$6 keys=$7 warm=${8:-2}
  local port pids url out t0 t1 s0 s1 rss0
  port="$(port_of "$peer")"; pids="$(pids_of "$peer")"; url="http://127.0.0.1:$port"
  export KEYS="$keys" KEY_PREFIX="$prefix"
  ((warm > 0)) && wrk -t1 -c"$conns" -d"${warm}s" -s "$script" "$url" >/dev/null
  # Dirty pages of earlier runs (the fills, another peer's cache files) written out now, not in this run.
  sync
  [[ "$row" == reval ]] && sleep 2.2   # every entry stored or renewed before is expired now (max-age=1)
  local u0 u1 resident=""
  [[ "$row" == zipf-4k ]] && resident="$(resident_pct "$peer")"
  rss0="$(rss_kib "$pids")"; t0="$(cpu_ticks "$pids")"; s0="$(head -1 /proc/stat)"; u0="$(origin_requests)"
  out="$(wrk -t1 -c"$conns" -d"${SECS}s" --timeout 2s --latency -s "$script" "$url")"
  t1="$(cpu_ticks "$pids")"; s1="$(head -1 /proc/stat)"; u1="$(origin_requests)"
  local rps p50 p99 total errors idle
  rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
  p50="$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")"
  p99="$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")"
  total="$(awk '/requests in/ {print $1}' <<<"$out")"
  errors="$(awk -F'[ ,]+' '/Non-2xx/ {s += $NF} /Socket errors:/ {for (i = 1; i < NF; i++) if ($i ~ /^(connect|read|write|timeout)$/) s += $(i+1)} END {print s + 0}' <<<"$out")"
  idle="$(awk -v a="$s0" -v b="$s1" 'BEGIN { n = split(a, x, " "); split(b, y, " "); t = 0
    for (i = 2; i <= n; i++) t += y[i] - x[i]; printf "%.0f", (t > 0 ? 100 * (y[5] - x[5]) / t : 0) }')"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$peer" "$round" "$rps" "$p50" "$p99" "$total" \
    "$errors" "$(awk -v a="$t0" -v b="$t1" -v n="$total" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", (n > 0 ? (b - a) / hz * 1e6 / n : 0)}')" \
    "$rss0" "$(rss_kib "$pids")" "$idle" \
    "$(awk -v a="$u0" -v b="$u1" -v n="$total" -v own="$([[ "$peer" == origin ]] && echo 1 || echo 0)" \
      'BEGIN {printf "%.3f", (n > 0 && a != "" && b != "" ? (b - a - 1 - own * n) / n : -1)}')" "$resident" >>"$RESULTS"
  echo "  $row $peer round $round: $rps req/s, p50 $p50 ms, p99 $p99 ms, $errors errors${resident:+, cache files $resident % in the page cache}" >&2
}

# fill PEER PREFIX KEYS: requests every key once, in order (paths/fill.lua), before the rounds.
fill() {
  local done="$RUN/fill-$1.done" out="$RUN/fill-$1.log" started=$SECONDS
  rm -f "$done"
  KEYS="$3" KEY_PREFIX="$2" FILL_DONE="$done" wrk -t1 -c64 -d3600s -s "$HERE/paths/fill.lua" "http://127.0.0.1:$(port_of "$1")" \
    >"$out" 2>&1 &
  local filler=$!
  while [[ ! -e "$done" ]] && kill -0 "$filler" 2>/dev/null && ((SECONDS - started < 1800)); do sleep 0.2; done
  kill -INT "$filler" 2>/dev/null || true
  wait "$filler" || true
  echo "  filled $1 with $3 keys of $2 in $((SECONDS - started)) s ($(awk '/^Requests\/sec:/ {print $2}' "$out") req/s)" >&2
}

# idle_run PEER ROUND: IDLE idle connections held while 100 connections load /hit/.
idle_run() {
  local peer=$1 round=$2 port; port="$(port_of "$peer")"
  timeout 120 python3 "$HERE/idle_connections.py" "$(pids_of "$peer")" "$port" "$IDLE" $((SECS + 8)) /hit/1 \
    >"$RUN/idle-$peer-$round.log" 2>&1 &
  local holder=$!
  # Once the server holds them all (the holder prints only at the end):
  for _ in $(seq 120); do
    (($(ss -Htn state established "( sport = :$port )" | wc -l) >= IDLE)) && break
    sleep 0.5
  done
  wrk_run idle-10k "$peer" "$round" /hit/ 100 "$KEYS_LUA" 100 0
  wait "$holder" || true
}

# peers_of ROW: the peers that run ROW.
peers_of() {
  local peer
  for peer in $PEERS; do
    [[ "$peer" == varnish && " $VARNISH_ROWS " != *" $1 "* ]] && continue
    [[ "$peer" == varnish && "$1" == idle-10k ]] && continue
    [[ "$peer" == gateway && "$1" == idle-10k ]] && peer=gateway-idle
    echo "$peer"
  done
}

KEYS_LUA="$ROOT/../shared/bench/keys.lua"
if has_row idle-10k && has_peer gateway; then
  RDS_PORT="$GW_IDLE" "$GATEWAY_BIN" --config "$CONF/idle-gateway.json" 2>/dev/null >/dev/null &
  IDLE_PID=$!
  wait_port "$GW_IDLE" || { echo "the idle gateway did not start" >&2; exit 1; }
fi
if has_row zipf-4k && ((ZIPF_FILL)); then
  echo "filling every peer with the $ZIPF_KEYS Zipf keys ($(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  for peer in $(peers_of zipf-4k); do fill "$peer" /zipf/ "$ZIPF_KEYS"; done
fi
if has_row reval; then
  for peer in $(peers_of reval); do fill "$peer" /reval/ "$REVAL_KEYS"; done
fi
for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS ($(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  for row in $ROWS; do
    mapfile -t peers < <(peers_of "$row")
    # The order rotates by one each round, so that no peer always runs first or last.
    for ((i = 0; i < ${#peers[@]}; i++)); do
      peer="${peers[$(((i + round - 1) % ${#peers[@]}))]}"
      case "$row" in
        hit-1k) wrk_run "$row" "$peer" "$round" /hit/ 64 "$KEYS_LUA" 100 ;;
        big-1m) wrk_run "$row" "$peer" "$round" /big/ 16 "$KEYS_LUA" 20 ;;
        zipf-4k) wrk_run "$row" "$peer" "$round" /zipf/ 64 "$HERE/paths/zipf.lua" "$ZIPF_KEYS" 4 ;;
        pass-8) wrk_run "$row" "$peer" "$round" /pass/ 8 "$KEYS_LUA" 100 ;;
        pass-64) wrk_run "$row" "$peer" "$round" /pass/ 64 "$KEYS_LUA" 100 ;;
        reval) wrk_run "$row" "$peer" "$round" /reval/ 16 "$KEYS_LUA" "$REVAL_KEYS" 0 ;;
        idle-10k) idle_run "$peer" "$round" ;;
      esac
    done
    [[ "$row" == pass-8 ]] && wrk_run origin-8 origin "$round" /pass/ 8 "$KEYS_LUA" 100
  done
done

echo
echo "## paths-bench $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), $ROUNDS rounds × ${SECS} s"
python3 "$HERE/paths/table.py" "$RESULTS"

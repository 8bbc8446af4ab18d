#!/usr/bin/env bash
# Builds the fuzz target (libFuzzer + AddressSanitizer) and runs it for SECONDS seconds.
# Usage: [FUZZ_TARGET=connection] Tests/Fuzz/run-fuzz.sh SECONDS [extra libFuzzer flags]
# The default target checks the parsers; FUZZ_TARGET=connection drives a real HTTPConnection
# (HTTPConnectionHarness: fuzzer-chosen bytes, read boundaries, answer path and client ending),
# seeded from corpus-connection/.
# New inputs go to .build/fuzz-work[-connection]/corpus (the committed seeds stay as they are);
# crashing inputs go to .build/fuzz-work[-connection]/artifacts/ and the script then exits non-zero.
set -euo pipefail
seconds="${1:?usage: run-fuzz.sh SECONDS [libFuzzer flags]}"
shift
cd "$(dirname "$0")"
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
target="${FUZZ_TARGET:-parser}"
work=.build/fuzz-work
seeds=corpus
timeout=10
if [ "$target" = connection ]; then
    # Real sockets and threads: a generous per-input timeout, so a machine busy elsewhere
    # (a run under nice) is not reported as a hang.
    work=.build/fuzz-work-connection
    seeds=corpus-connection
    timeout=120
fi
mkdir -p "$work/corpus" "$work/artifacts"
if ! swift build "${flags[@]}" >"$work/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$work/build.log" >&2
    exit 1
fi
binary="$(swift build "${flags[@]}" --show-bin-path)/HTTP1Fuzz"
# The Swift backtracer is off: libFuzzer reports the crash, and ASan flags the backtracer's own reads.
FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no exec "$binary" "$work/corpus" "$seeds" -dict=http.dict \
    -max_len=4096 -timeout="$timeout" -rss_limit_mb=2048 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@"

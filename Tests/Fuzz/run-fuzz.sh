#!/usr/bin/env bash
# Builds the parser fuzz target (libFuzzer + AddressSanitizer) and runs it for SECONDS seconds.
# Usage: Tests/Fuzz/run-fuzz.sh SECONDS [extra libFuzzer flags]
# New inputs go to .build/fuzz-work/corpus (the seeds in corpus/ stay as committed); crashing
# inputs go to .build/fuzz-work/artifacts/ and the script then exits non-zero.
set -euo pipefail
seconds="${1:?usage: run-fuzz.sh SECONDS [libFuzzer flags]}"
shift
cd "$(dirname "$0")"
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
work=.build/fuzz-work
mkdir -p "$work/corpus" "$work/artifacts"
if ! swift build "${flags[@]}" >"$work/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$work/build.log" >&2
    exit 1
fi
binary="$(swift build "${flags[@]}" --show-bin-path)/HTTP1Fuzz"
exec "$binary" "$work/corpus" corpus -dict=http.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@"

#!/bin/sh
# Peak RSS of the release gateway under slow readers, concurrent large misses and idle SSE
# subscribers, each beside its goal (see memory.py). Usage: Tests/Robustness/memory.sh [memory.py flags]
set -eu
cd "$(dirname "$0")/../.."
[ -x .build/release/rds-gateway ] || nice -n 19 swift build -c release --product rds-gateway
exec nice -n 19 python3 Tests/Robustness/memory.py --binary .build/release/rds-gateway "$@"

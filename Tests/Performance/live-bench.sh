#!/bin/sh
# Live repositories (issue 10): webhook to 1,000 subscribers, fan-out to 10,000, idle CPU of
# 100,000 followed keys, each beside its goal (see live_bench.py). Usage: Tests/Performance/live-bench.sh [flags]
set -eu
cd "$(dirname "$0")/../.."
[ -x .build/release/rds-gateway ] || nice -n 19 swift build -c release --product rds-gateway
exec nice -n 19 python3 Tests/Performance/live_bench.py --binary .build/release/rds-gateway "$@"

#!/usr/bin/env bash
# Builds the datastore benchmark in release mode and runs it. Prints numbers; asserts nothing
# about timing. Usage: Tests/Performance/datastore-bench.sh
set -euo pipefail
cd "$(dirname "$0")/DatastoreBenchmark"
swift build -c release -Xswiftc -warnings-as-errors
"$(swift build -c release --show-bin-path)/DatastoreBenchmark"

#!/usr/bin/env bash
# Runs the gateway (debug build, default config with its embedded demo upstream) on a loopback
# port and checks it against its own description, GET /admin/openapi.json, with schemathesis
# (PyPI, in a virtual environment): its stateless checks of status codes, content types and
# response schemas, over every operation (the gateway's own endpoints and the repository routes).
# Fails on any schemathesis failure or error, if the gateway stops, or if a tool is missing.
set -euo pipefail

fail() { echo "schemathesis-check: FAILED: $*" >&2; exit 1; }
for tool in python3 curl swift; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (see .ci/run)"
done
# shellcheck source=../Support/gateway-process.sh
source "$(dirname "$0")/../Support/gateway-process.sh"

venv="${SCHEMATHESIS_VENV:-$repo/.build/schemathesis-venv}"
if [ ! -x "$venv/bin/schemathesis" ]; then
    python3 -m venv "$venv" || fail "python3 -m venv failed (python3-venv, see .ci/run)"
    "$venv/bin/pip" install --quiet "schemathesis==4.32.5" || fail "pip could not install schemathesis"
fi

gateway_start
if ! (cd "$work" && "$venv/bin/schemathesis" run "$base/admin/openapi.json" \
    --checks status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples 30 --seed 1 --no-color --request-timeout 10 >"$work/schemathesis.txt" 2>&1); then
    cat "$work/schemathesis.txt" >&2
    tail -20 "$work/gateway.log" >&2
    fail "schemathesis found responses that do not match the description"
fi
kill -0 "$pid" 2>/dev/null || fail "the gateway stopped during the run"
gateway_stop
summary="$(grep -E '^ +[0-9]+ generated' "$work/schemathesis.txt" | tr -s ' ')"
echo "schemathesis-check: PASSED (${summary# })"

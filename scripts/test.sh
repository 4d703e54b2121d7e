#!/usr/bin/env bash
# `npm test`: every suite. Python engine tests first, then Vitest (unit, CDK assertions, local-runtime
# integration, browser), whose summary line ends the output.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-chromium.sh

echo "== Python detection engine tests (unittest)"
python3 -m unittest discover -s tests/engine -p 'test_*.py' -t . 2>&1

echo "== Vitest"
exec npx vitest run "$@"

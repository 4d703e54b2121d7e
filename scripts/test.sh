#!/usr/bin/env bash
# `npm test`: every suite. Python engine tests first, then Vitest (unit, CDK assertions, local-runtime
# integration, browser), whose summary line ends the output.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-chromium.sh

# The engine's tests run on the Python the engine's Lambda declares (infra/runtimes.ts PYTHON_RUNTIME; a test
# holds the two together): `pythonX.Y` on the PATH, else a pyenv version of it, else the machine's python3.
ENGINE_PYTHON_VERSION=3.13
engine_python() {
  local name="python$ENGINE_PYTHON_VERSION" found
  if command -v "$name" >/dev/null 2>&1 && "$name" -c '' >/dev/null 2>&1; then echo "$name"; return; fi
  if command -v pyenv >/dev/null 2>&1; then
    found=$(pyenv versions --bare 2>/dev/null | grep -E "^${ENGINE_PYTHON_VERSION//./\\.}(\.|$)" | tail -n 1)
    if [ -n "$found" ] && [ -x "$(pyenv root)/versions/$found/bin/$name" ]; then echo "$(pyenv root)/versions/$found/bin/$name"; return; fi
  fi
  echo "python$ENGINE_PYTHON_VERSION (the engine's Lambda runtime) is not installed: the engine's tests run on $(python3 --version)" >&2
  echo python3
}
ENGINE_PYTHON=$(engine_python)
echo "== Python detection engine tests (unittest, $("$ENGINE_PYTHON" --version))"
"$ENGINE_PYTHON" -m unittest discover -s tests/engine -p 'test_*.py' -t . 2>&1

echo "== Vitest"
exec npx vitest run "$@"

#!/usr/bin/env bash
# CI of the Python SDK: a fresh venv under target/, the package installed as a
# user installs it (with its pinned test extras), then ruff (lint and format),
# mypy --strict, and the tests against the real binary with --check-frames in
# every spawn. Prints its wall time; exits non-zero on any failure.
#
#   MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/dir bash sdks/python/ci.sh
set -euo pipefail
started=$SECONDS
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/target/sdk-python"

: "${MCPTEST_BIN:?set MCPTEST_BIN to the absolute path of the mcptest binary under test}"
: "${MCPTEST_FIXTURES:?set MCPTEST_FIXTURES to the directory holding the fixture servers}"
MCPTEST_BIN="$(cd "$(dirname "$MCPTEST_BIN")" && pwd)/$(basename "$MCPTEST_BIN")"
MCPTEST_FIXTURES="$(cd "$MCPTEST_FIXTURES" && pwd)"
export MCPTEST_BIN MCPTEST_FIXTURES
# Every spawn checks every frame against the schema (the tests set it too).
export MCPTEST_CHECK_FRAMES=1
# Nothing lands in the source tree: bytecode and tool caches live under target/.
export PYTHONPYCACHEPREFIX="$out/pycache"
export RUFF_CACHE_DIR="$out/ruff-cache"
export PIP_DISABLE_PIP_VERSION_CHECK=1

step() { printf '\n==> %s\n' "$*"; }
trap 'echo "sdk-python ci wall time: $((SECONDS - started)) s"' EXIT

mkdir -p "$out"
step "venv at ${out#"$repo"/}/venv"
# Debian's python3 needs python3-venv for `-m venv`; install it only if missing.
if ! python3 -m venv --clear "$out/venv" >/dev/null 2>&1; then
  apt-get update
  apt-get install -y --no-install-recommends python3-venv
  python3 -m venv --clear "$out/venv"
fi
py="$out/venv/bin/python"
"$py" --version

step "pip install ./sdks/python[test]"
"$py" -m pip install --quiet "$here[test]"

cd "$here"
step "ruff check"
"$out/venv/bin/ruff" check .
step "ruff format --check"
"$out/venv/bin/ruff" format --check .
step "mypy --strict"
"$out/venv/bin/mypy" --cache-dir "$out/mypy-cache"

step "pytest (MCPTEST_BIN=$MCPTEST_BIN)"
"$py" -m pytest -o cache_dir="$out/pytest-cache" -ra

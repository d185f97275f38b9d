#!/usr/bin/env bash
# CI tier of the Go SDK: installs Go 1.19 (and gcc for -race) from Debian
# if missing, then gofmt, go vet and the tests against the real binary with
# --check-frames on in every spawn. Caches live under target/ of the
# repository; the Go proxy is never used (the module has no dependency).
#
#   MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/fixtures bash sdks/go/ci.sh
set -euo pipefail
SECONDS=0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

: "${MCPTEST_BIN:?set MCPTEST_BIN to the absolute path of the mcptest binary}"
: "${MCPTEST_FIXTURES:?set MCPTEST_FIXTURES to the directory holding fixture-everything and fixture-chaos}"

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
command -v go >/dev/null || apt_install golang-go
# The race detector needs cgo, hence a C compiler and libc headers.
command -v gcc >/dev/null && [ -e /usr/include/stdio.h ] || apt_install gcc libc6-dev

unset GOFLAGS
export GOPROXY=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1
export GOCACHE="$root/target/go/cache" GOPATH="$root/target/go/path"
export GOMODCACHE="$GOPATH/pkg/mod" GOTMPDIR="$root/target/go/tmp"
export MCPTEST_CHECK_FRAMES=1
mkdir -p "$GOCACHE" "$GOMODCACHE" "$GOTMPDIR"
cd "$here"
go version

unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
  echo "gofmt -l: these files are not formatted:"
  echo "$unformatted"
  exit 1
fi
go vet ./...

log="$root/target/go/test.log"
status=0
go test -race -count=1 -v ./... >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  cat "$log"
else
  grep -E '^(ok|FAIL|---)|^\?' "$log" || true
fi
passed=$(grep -cE '^ *--- PASS' "$log" || true)
failed=$(grep -cE '^ *--- FAIL' "$log" || true)
skipped=$(grep -cE '^ *--- SKIP' "$log" || true)
echo "sdks/go: ci.sh took ${SECONDS}s"
echo "go: $passed passed, $failed failed, $skipped skipped"
exit "$status"

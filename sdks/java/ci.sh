#!/usr/bin/env bash
# sdks/java/ci.sh: builds and tests the Java SDK (a JUnit 5 extension) against a real mcptest
# binary. Compiles main, tests and bench with `javac -Xlint:all -Werror --release 17` against
# Debian's jars (Maven Central is not reachable), packages the SDK with `jar`, checks its API
# docs with `javadoc -Xdoclint`, and runs the tests with the JUnit console launcher,
# --check-frames on in every spawn. Fails on any failed
# test and on any aborted test not listed in src/test/expected-aborts.txt. Everything it makes
# lands in target/sdk-java/ of the repository.
#
#   MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/dir bash sdks/java/ci.sh
set -euo pipefail
started=$(date +%s)

sdk="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$sdk/../.." && pwd)"
out="$root/target/sdk-java"

: "${MCPTEST_BIN:?set MCPTEST_BIN to the mcptest binary to test against}"
: "${MCPTEST_FIXTURES:?set MCPTEST_FIXTURES to the directory holding fixture-everything}"
[ -x "$MCPTEST_BIN" ] || { echo "java: MCPTEST_BIN=$MCPTEST_BIN is not executable" >&2; exit 1; }
[ -x "$MCPTEST_FIXTURES/fixture-everything" ] || {
  echo "java: no fixture-everything in MCPTEST_FIXTURES=$MCPTEST_FIXTURES" >&2; exit 1; }
MCPTEST_BIN="$(cd "$(dirname "$MCPTEST_BIN")" && pwd)/$(basename "$MCPTEST_BIN")"
MCPTEST_FIXTURES="$(cd "$MCPTEST_FIXTURES" && pwd)"

# Debian's packages: the JDK, JUnit 5 (api, engine, launcher, console) and Jackson databind;
# python3 runs the fake binaries of the tests.
J=/usr/share/java
main_jars=(jackson-databind jackson-core jackson-annotations junit-jupiter-api
  junit-platform-commons opentest4j apiguardian-api)
test_jars=(junit-platform-launcher junit-platform-engine)
console="$J/junit-platform-console-standalone.jar"
packages=()
command -v javac >/dev/null || packages+=(openjdk-17-jdk-headless)
command -v python3 >/dev/null || packages+=(python3)
for jar in "${main_jars[@]}" "${test_jars[@]}" junit-platform-console-standalone; do
  if [ ! -f "$J/$jar.jar" ]; then
    packages+=(junit5 libjackson2-databind-java)
    break
  fi
done
if [ ${#packages[@]} -gt 0 ]; then
  echo "java: installing ${packages[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 "${packages[@]}" >/dev/null
fi
classpath() { local cp=""; for jar in "$@"; do cp+="${cp:+:}$J/$jar.jar"; done; echo "$cp"; }
main_cp=$(classpath "${main_jars[@]}")
test_cp=$(classpath "${test_jars[@]}")

version=$(sed -n 's/.*String SDK_VERSION = "\(.*\)";/\1/p' "$sdk/src/main/java/dev/mcptest/McpClient.java")
sdk_jar="$out/mcptest-junit5-$version.jar"
rm -rf "$out"
mkdir -p "$out/classes" "$out/test-classes" "$out/bench-classes" "$out/javadoc" "$out/tmp"

echo "java: compiling (javac $(javac -version 2>&1 | cut -d' ' -f2), -Xlint:all -Werror)"
lint=(-Xlint:all -Werror --release 17 -encoding UTF-8)
javac "${lint[@]}" -d "$out/classes" -cp "$main_cp" $(find "$sdk/src/main/java" -name '*.java')
jar --create --file "$sdk_jar" -C "$out/classes" .
echo "java: checking the API docs (javadoc -Xdoclint:all,-missing -Werror)"
javadoc -quiet -Xdoclint:all,-missing -Werror -d "$out/javadoc" -cp "$main_cp" \
  $(find "$sdk/src/main/java" -name '*.java')
javac "${lint[@]}" -d "$out/test-classes" -cp "$sdk_jar:$main_cp:$test_cp" \
  $(find "$sdk/src/test/java" -name '*.java')
cp -R "$sdk/src/test/resources/." "$out/test-classes/"
javac "${lint[@]}" -d "$out/bench-classes" -cp "$sdk_jar:$main_cp" "$sdk"/bench/*.java

echo "java: testing against $MCPTEST_BIN"
cd "$root"
set +e
MCPTEST_BIN="$MCPTEST_BIN" MCPTEST_FIXTURES="$MCPTEST_FIXTURES" MCPTEST_CHECK_FRAMES=1 \
  PATH="$MCPTEST_FIXTURES:$PATH" TMPDIR="$out/tmp" \
  java -Dmcptest.repo="$root" -Dmcptest.abortLedger="$out/aborted.tsv" \
  -jar "$console" \
  --class-path "$out/test-classes:$sdk_jar:$main_cp:$test_cp" \
  --scan-class-path "$out/test-classes" \
  --exclude-tag launched \
  --fail-if-no-tests --disable-banner --disable-ansi-colors \
  --details=tree --details-theme=ascii \
  --reports-dir "$out/reports" >"$out/console.txt" 2>&1
status=$?
set -e
cat "$out/console.txt"

count() { sed -n "s/^\[ *\([0-9]*\) tests $1 *\]$/\1/p" "$out/console.txt" | tail -1; }
passed=$(count successful)
failed=$(count failed)
aborted=$(count aborted)
skipped=$(count skipped)
if [ -z "$passed" ] || [ -z "$failed" ]; then
  echo "java: the console launcher printed no summary (exit $status)" >&2
  exit 1
fi

touch "$out/aborted.tsv"
unexpected=$(comm -13 <(sort "$sdk/src/test/expected-aborts.txt") <(cut -f1 "$out/aborted.tsv" | sort))
absent=$(comm -23 <(sort "$sdk/src/test/expected-aborts.txt") <(cut -f1 "$out/aborted.tsv" | sort))
if [ -n "$unexpected" ] || [ -n "$absent" ]; then
  echo "java: aborted tests differ from src/test/expected-aborts.txt" >&2
  [ -z "$unexpected" ] || printf 'aborted unexpectedly:\n%s\n' "$unexpected" >&2
  [ -z "$absent" ] || printf 'expected to abort, but did not:\n%s\n' "$absent" >&2
  [ "$status" -ne 0 ] || status=1
fi
[ "$failed" -eq 0 ] || [ "$status" -ne 0 ] || status=1
# What the tests wrote is kept for a look when something failed.
[ "$status" -ne 0 ] || rm -rf "$out/scratch" "$out/tmp"

echo "java: wall time $(( $(date +%s) - started ))s"
echo "java: $passed passed, $failed failed, $(( aborted + skipped )) skipped"
exit "$status"

#!/usr/bin/env bash
# sdks/java/bench/run.sh: times mcp.call round trips through the Java SDK (see RoundTrip.java).
# Needs the classes ci.sh built in target/sdk-java; MCPTEST_BIN and MCPTEST_FIXTURES as for ci.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
out="$root/target/sdk-java"
J=/usr/share/java
cp="$out/bench-classes:$(ls "$out"/mcptest-junit5-*.jar)"
for jar in jackson-databind jackson-core jackson-annotations junit-jupiter-api \
  junit-platform-commons opentest4j apiguardian-api; do
  cp+=":$J/$jar.jar"
done
: "${MCPTEST_FIXTURES:?set MCPTEST_FIXTURES to the directory holding fixture-everything}"
exec java -cp "$cp" RoundTrip "$MCPTEST_FIXTURES/fixture-everything" "${1:-1000}"

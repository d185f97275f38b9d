#!/usr/bin/env bash
# The TypeScript SDK's CI: installs the locked dev dependencies from the npm
# registry, type-checks and builds with tsc (strict), then runs the tests
# under node:test and under vitest against the real mcptest binary, with
# --check-frames on in every spawn. Prints its wall time and one closing
# count line; exits non-zero on any failure.
#
#   MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/fixtures-dir bash sdks/typescript/ci.sh
#
# Everything it creates lives under the repository's target/sdk-typescript
# (npm's cache, reports) or in this folder's git-ignored node_modules, dist
# and dist-test.
set -euo pipefail

started=$(date +%s%N)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="$repo/target/sdk-typescript"

: "${MCPTEST_BIN:?set MCPTEST_BIN to the absolute path of the mcptest binary}"
: "${MCPTEST_FIXTURES:?set MCPTEST_FIXTURES to the absolute path of the folder holding fixture-everything and fixture-chaos}"
for f in "$MCPTEST_BIN" "$MCPTEST_FIXTURES/fixture-everything" "$MCPTEST_FIXTURES/fixture-chaos"; do
  [[ -x "$f" ]] || { echo "ci.sh: $f is not an executable file" >&2; exit 2; }
done

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "ci.sh: node or npm missing: installing Debian's nodejs and npm"
  apt-get update && apt-get install -y --no-install-recommends nodejs npm
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if (( major < 20 )); then
  echo "ci.sh: Node.js $(node --version) is too old: @mcptest/sdk and its tests need Node.js 20 or newer" >&2
  exit 2
fi

mkdir -p "$work"
cd "$here"
echo "== npm ci (node $(node --version), npm $(npm --version))"
# No install scripts run: esbuild's platform binary arrives as an optional
# dependency; its postinstall only re-checks it.
npm ci --ignore-scripts --no-audit --no-fund --cache "$work/npm-cache" --prefer-offline

echo "== tsc --strict: the package (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes) -> dist/"
rm -rf dist dist-test
npx --no-install tsc -p tsconfig.json
echo "== tsc --strict: the tests, against the emitted declarations -> dist-test/"
npx --no-install tsc -p tsconfig.test.json

echo "== the packed package installs alone and imports through its exports"
rm -rf "$work/pack" && mkdir -p "$work/pack/consumer"
npm pack --ignore-scripts --silent --pack-destination "$work/pack" >/dev/null
(
  cd "$work/pack/consumer"
  echo '{"name":"consumer","private":true,"type":"module"}' > package.json
  npm install --ignore-scripts --no-audit --no-fund --offline --cache "$work/npm-cache" ../mcptest-sdk-*.tgz >/dev/null
  node --input-type=module -e '
    import { readFileSync } from "node:fs";
    const sdk = await import("@mcptest/sdk");
    const pkg = JSON.parse(readFileSync("node_modules/@mcptest/sdk/package.json", "utf8"));
    if (sdk.PROTOCOL_VERSION !== 3 || typeof sdk.registerSuite !== "function") throw new Error("bad exports");
    if (Object.keys(pkg.dependencies ?? {}).length !== 0) throw new Error("runtime dependencies: " + Object.keys(pkg.dependencies));
    const installed = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;
    if (Object.keys(installed).length !== 2) throw new Error("more than the package was installed");
    console.log("ok: @mcptest/sdk " + pkg.version + ", " + Object.keys(sdk).length + " exports, no runtime dependency");
  '
)

export MCPTEST_CHECK_FRAMES=1
status=0

echo "== node --test"
node scripts/node-test.mjs \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$work/node-test.tap" || status=1

echo "== vitest run"
npx --no-install vitest run --reporter=default --reporter=json --outputFile.json="$work/vitest.json" || status=1

# One closing count line over both runners.
node - "$work/node-test.tap" "$work/vitest.json" <<'JS' || status=1
const { readFileSync, existsSync } = require("node:fs");
const [tap, json] = process.argv.slice(2);
let passed = 0, failed = 0, skipped = 0;
if (existsSync(tap)) {
  const text = readFileSync(tap, "utf8");
  const count = (key) => Number((text.match(new RegExp(`^# ${key} (\\d+)$`, "m")) ?? [0, 0])[1]);
  passed += count("pass"); failed += count("fail") + count("cancelled"); skipped += count("skipped") + count("todo");
  console.log(`node:test -> pass ${count("pass")}, fail ${count("fail")}, cancelled ${count("cancelled")}, skipped ${count("skipped")}`);
} else { failed += 1; console.log("node:test wrote no report"); }
if (existsSync(json)) {
  const r = JSON.parse(readFileSync(json, "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests + (r.numFailedTestSuites ?? 0); skipped += r.numPendingTests + r.numTodoTests;
  console.log(`vitest -> pass ${r.numPassedTests}, fail ${r.numFailedTests}, failed files ${r.numFailedTestSuites}, skipped ${r.numPendingTests}`);
} else { failed += 1; console.log("vitest wrote no report"); }
if (passed === 0) { failed += 1; console.log("no test passed: nothing ran"); }
console.log(`typescript: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed === 0 ? 0 : 1;
JS

elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
echo "sdks/typescript/ci.sh wall time: $((elapsed / 1000)).$(printf '%03d' $((elapsed % 1000))) s"
exit $status

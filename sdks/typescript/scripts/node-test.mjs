/**
 * Runs the compiled tests under node:test: every `*.test.js` below
 * dist-test/test except the vitest-only folder. Node 20's `--test` takes
 * files, not globs, so they are listed here.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tests = join(root, "dist-test", "test");
if (!existsSync(tests)) {
  console.error("dist-test/test does not exist: run `npm run build && npm run build:test` first");
  process.exit(2);
}
const files = readdirSync(tests, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".test.js") && !f.startsWith("vitest/") && !f.startsWith("child/"))
  .sort()
  .map((f) => relative(root, join(tests, f)));
if (files.length === 0) {
  console.error("no compiled test files below dist-test/test");
  process.exit(2);
}
const run = spawnSync(process.execPath, ["--test", ...process.argv.slice(2), ...files], { cwd: root, stdio: "inherit" });
process.exit(run.status ?? 1);

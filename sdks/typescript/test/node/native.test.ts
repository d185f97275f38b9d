/**
 * The README's node:test usage, run as written with node:test's own
 * functions: `useMcp` with `{ beforeEach, afterEach }` and with
 * `{ before, after }`, and `registerSuite` on the project's passing corpus.
 *
 * @module
 */

import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, test } from "node:test";

import { registerSuite, useMcp } from "@mcptest/sdk";

import { BIN, CRATE, EVERYTHING, FrameChecker } from "../harness.js";

const checker = new FrameChecker();
const options = { binary: BIN, checkFrames: true, onFrame: checker.tap };

describe("a client per test", () => {
  const mcp = useMcp({ beforeEach, afterEach }, { ...options, argv: [EVERYTHING] });
  let first: number | undefined;

  test("adds", async () => {
    first = mcp().pid;
    const verdict = await mcp().call("add", { a: 2, b: 3 });
    assert.equal(verdict.success, true);
    assert.equal(verdict.text, "5");
  });

  test("gets a fresh binary, with --check-frames", () => {
    assert.notEqual(mcp().pid, first);
    assert.ok(mcp().command.includes("--check-frames"));
  });
});

describe("one client per file", () => {
  const mcp = useMcp({ before, after }, { ...options, argv: [EVERYTHING] });
  let first: number | undefined;

  test("echoes", async () => {
    first = mcp().pid;
    assert.equal((await mcp().call("echo", { message: "hi" })).text, "hi");
  });

  test("shares the binary", () => assert.equal(mcp().pid, first));
});

registerSuite(
  "suites/pass",
  { test, describe, after },
  {
    ...options,
    binaryCwd: CRATE,
    server: [EVERYTHING, "--root", "{{fixture}}"],
    fixture: "suites/fixtures",
  },
);

after(() => assert.ok(checker.count > 0, "no frame was checked against the schema"));

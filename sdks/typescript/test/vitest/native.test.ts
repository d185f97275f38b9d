/**
 * The README's vitest usage, run as written with vitest's own functions:
 * `useMcp` with `{ beforeEach, afterEach }` and with `{ beforeAll,
 * afterAll }`, and `registerSuite` on the project's passing corpus.
 *
 * @module
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";

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
    expect(verdict.success).toBe(true);
    expect(verdict.text).toBe("5");
  });

  test("gets a fresh binary, with --check-frames", () => {
    expect(mcp().pid).not.toBe(first);
    expect(mcp().command).toContain("--check-frames");
  });
});

describe("one client per file", () => {
  const mcp = useMcp({ beforeAll, afterAll }, { ...options, argv: [EVERYTHING] });
  let first: number | undefined;

  test("echoes", async () => {
    first = mcp().pid;
    expect((await mcp().call("echo", { message: "hi" })).text).toBe("hi");
  });

  test("shares the binary", () => expect(mcp().pid).toBe(first));
});

registerSuite(
  "suites/pass",
  { test, describe, afterAll },
  {
    ...options,
    binaryCwd: CRATE,
    server: [EVERYTHING, "--root", "{{fixture}}"],
    fixture: "suites/fixtures",
  },
);

afterAll(() => expect(checker.count).toBeGreaterThan(0));

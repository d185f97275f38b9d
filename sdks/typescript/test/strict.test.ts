/**
 * Strict frames and a misbehaving binary, with fake binaries: an unknown
 * field in a verdict, an envelope, a server message or a test listing
 * fails loudly, naming the field and the method (and the JSON Schema
 * rejects the same frame); garbage, a wrong id, a binary that never
 * answers or dies mid-call each fail the call with what happened, and the
 * binary is gone afterwards.
 *
 * @module
 */

import assert from "node:assert/strict";

import { BinaryExitedError, BinaryTimeoutError, FrameError, type McpClient, McpTestError, start } from "@mcptest/sdk";

import { FAKE, FrameChecker, processState, test, withEnv } from "./harness.js";

/** A client of the fake in `scenario`, whose frames a recording checker sees. */
async function fake(scenario: string, more: { callTimeoutMs?: number; marginMs?: number } = {}) {
  const checker = new FrameChecker(false);
  const mcp = await withEnv({ FAKE_MCPTEST: scenario }, () =>
    start({ binary: FAKE, argv: ["server"], checkFrames: true, onFrame: checker.tap, ...more }),
  );
  return { mcp, checker };
}

async function closed(mcp: McpClient): Promise<void> {
  const pid = mcp.pid;
  await mcp.close();
  assert.ok(pid !== undefined);
  assert.equal(processState(pid), undefined, `the binary ${pid} is still in the process table`);
}

for (const [scenario, path, field] of [
  ["verdict-extra", "$.result.confidence", "confidence"],
  ["envelope-extra", "$.trace", "trace"],
  ["message-extra", "$.result.messages[0].seq", "seq"],
] as const) {
  test(`an unknown field fails the call: ${scenario}`, async () => {
    const { mcp, checker } = await fake(scenario);
    try {
      const error = await mcp.call("echo", { message: "hi" }).catch((e: unknown) => e);
      assert.ok(error instanceof FrameError, String(error));
      assert.equal(error.method, "mcp.call");
      assert.equal(error.path, path);
      assert.match(error.message, new RegExp(`unknown field \`${field}\``));
      assert.match(error.message, /the mcptest binary's answer to mcp\.call broke coprocess v3/);
      // The schema refuses the same frame: the SDK and the schema agree.
      assert.equal(checker.violations.length, 1, checker.violations.join("\n"));
      assert.match(checker.violations[0]!, /receive/);
    } finally {
      await closed(mcp);
    }
  });
}

test("an unknown field in a test listing fails suite.list, naming it", async () => {
  const { mcp, checker } = await fake("listing-extra");
  try {
    await assert.rejects(mcp.suiteList(["evals"]), (e: unknown) => {
      assert.ok(e instanceof FrameError);
      assert.equal(e.method, "suite.list");
      assert.equal(e.path, "$.result.tests[0].timeout_ms");
      return true;
    });
    assert.equal(checker.violations.length, 1, checker.violations.join("\n"));
  } finally {
    await closed(mcp);
  }
});

test("a line that is not JSON breaks the channel and says so", async () => {
  const { mcp } = await fake("not-json");
  try {
    await assert.rejects(mcp.call("echo"), (e: unknown) => {
      assert.ok(e instanceof FrameError);
      assert.match(e.message, /the line is not JSON: a string "this is not json"/);
      return true;
    });
    assert.equal(mcp.isOpen, false);
    await assert.rejects(mcp.call("echo"), FrameError, "a broken channel refuses further calls with the same error");
  } finally {
    await closed(mcp);
  }
});

test("an answer with the wrong id breaks the channel", async () => {
  const { mcp } = await fake("wrong-id");
  try {
    await assert.rejects(mcp.call("echo"), /at \$\.id: expected 2 \(the id of mcp\.call\), got a number 102/);
  } finally {
    await closed(mcp);
  }
});

test("a binary that never answers fails the call after its deadline, then is killed", async () => {
  const { mcp } = await fake("hang", { callTimeoutMs: 300, marginMs: 200 });
  const started = Date.now();
  try {
    await assert.rejects(mcp.call("echo"), (e: unknown) => {
      assert.ok(e instanceof BinaryTimeoutError);
      assert.equal(e.method, "mcp.call");
      assert.equal(e.timeoutMs, 500);
      assert.match(e.message, /did not answer mcp\.call within 500 ms; it was killed/);
      return true;
    });
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  } finally {
    await closed(mcp);
  }
});

test("a binary that dies mid-call fails it with the exit code and its stderr", async () => {
  const { mcp } = await fake("exit");
  try {
    await assert.rejects(mcp.call("echo"), (e: unknown) => {
      assert.ok(e instanceof BinaryExitedError, String(e));
      assert.equal(e.exitCode, 3);
      assert.match(e.message, /exited with code 3 while mcp\.call was pending/);
      assert.match(e.stderrTail, /fatal: the engine fell over/);
      return true;
    });
  } finally {
    await closed(mcp);
  }
});

test("the binary's stderr is drained: 8 MiB of it do not block the channel", async () => {
  const { mcp } = await fake("stderr-flood");
  try {
    assert.equal((await mcp.call("echo")).text, "hi");
    // stderr and stdout are two pipes: the last stderr line may trail the answer.
    for (let i = 0; i < 100 && !mcp.stderrTail().endsWith("the last stderr line"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const tail = mcp.stderrTail();
    assert.ok(tail.endsWith("the last stderr line"), tail.slice(-200));
    assert.ok(tail.length <= 8 * 1024, `the tail is bounded: ${tail.length}`);
  } finally {
    await closed(mcp);
  }
});

test("calls after close are refused; close twice is fine", async () => {
  const { mcp } = await fake("ok");
  await closed(mcp);
  await mcp.close();
  await assert.rejects(mcp.call("echo"), McpTestError);
});

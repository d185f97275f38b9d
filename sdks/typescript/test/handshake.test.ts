/**
 * The handshake and the pin: the real binary speaks the pinned version;
 * fake binaries of other versions (older, newer, v1, one refusing the v3
 * command line) fail the start before any other request, with the
 * contract's words; a missing binary says how to install one.
 *
 * @module
 */

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  BinaryExitedError,
  BinaryNotFoundError,
  BinaryTimeoutError,
  FrameError,
  McpClient,
  PROTOCOL_VERSION,
  ProtocolMismatchError,
  SDK_VERSION,
  findBinary,
  start,
} from "@mcptest/sdk";

import { BIN, EVERYTHING, FAKE, FrameChecker, PACKAGE, after, engine, processState, skippedTest, test, withEnv } from "./harness.js";

const checker = new FrameChecker();
after(() => assert.ok(checker.count > 0, "no frame was checked against the schema"));

test("the pin is 3 and the real binary speaks it", async () => {
  assert.equal(PROTOCOL_VERSION, 3);
  const mcp = await McpClient.start(engine(checker, { argv: [EVERYTHING] }));
  try {
    assert.equal(mcp.binary.protocolVersion, PROTOCOL_VERSION);
    assert.match(mcp.binary.binaryVersion, /^\d+\.\d+\.\d+/);
    for (const method of [
      "coprocess/handshake",
      "mcp.initialize",
      "mcp.call",
      "mcp.listTools",
      "mcp.listPrompts",
      "mcp.listResources",
      "mcp.listResourceTemplates",
      "mcp.readResource",
      "mcp.callPrompt",
      "mcp.messages",
      "suite.list",
      "suite.run",
      "mcp.reporter.record",
      "mcp.shutdown",
    ]) {
      assert.ok(mcp.binary.methods.includes(method), `the binary does not serve ${method}: ${mcp.binary.methods.join(", ")}`);
    }
    assert.ok(mcp.command.includes("--check-frames"), mcp.command.join(" "));
    assert.deepEqual(mcp.command.slice(-2), ["--", EVERYTHING]);
  } finally {
    await mcp.close();
  }
});

test("SDK_VERSION is the package's version", () => {
  const pkg = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { version: string };
  assert.equal(SDK_VERSION, pkg.version);
});

/** Starts the fake binary in `scenario`; returns the error and the requests it saw. */
async function fakeStart(scenario: string): Promise<{ error: unknown; requests: string[]; argv: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-"));
  const log = join(dir, "log.jsonl");
  try {
    const error = await withEnv({ FAKE_MCPTEST: scenario, FAKE_MCPTEST_LOG: log }, () =>
      start({ binary: FAKE, argv: ["server"], checkFrames: true, startTimeoutMs: 2_000 }).then(
        async (mcp) => {
          await mcp.close();
          return undefined;
        },
        (e: unknown) => e,
      ),
    );
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { argv?: string[]; request?: string });
    return {
      error,
      requests: entries.flatMap((e) => (e.request === undefined ? [] : [JSON.parse(e.request).method as string])),
      argv: entries[0]?.argv ?? [],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("an older binary's mismatch shows its message and nothing else is sent", async () => {
  const { error, requests } = await fakeStart("v2");
  assert.ok(error instanceof ProtocolMismatchError, String(error));
  assert.equal(
    error.message,
    "coprocess protocol version mismatch: this mcptest binary speaks v2, the typescript SDK sent v3. " +
      "Upgrade the mcptest binary (or pin the SDK to the matching release).",
  );
  assert.deepEqual(error.binaryVersions, [2]);
  assert.equal(error.sdkVersion, 3);
  assert.deepEqual(requests, ["coprocess/handshake"]);
});

test("a newer binary's mismatch names the range and says to upgrade the SDK", async () => {
  const { error, requests } = await fakeStart("v4");
  assert.ok(error instanceof ProtocolMismatchError, String(error));
  assert.match(error.message, /speaks v4 to v5, the typescript SDK sent v3\. Upgrade the typescript SDK/);
  assert.deepEqual(error.binaryVersions, [4, 5]);
  assert.deepEqual(requests, ["coprocess/handshake"]);
});

test("a v1 binary (-32601 on the handshake) is told apart", async () => {
  const { error, requests } = await fakeStart("v1");
  assert.ok(error instanceof ProtocolMismatchError, String(error));
  assert.match(error.message, /^mcptest binary speaks coprocess v1; this SDK needs v3\. Upgrade the mcptest binary/);
  assert.match(error.message, /cargo install --path mcptest-cli/);
  assert.deepEqual(requests, ["coprocess/handshake"]);
});

test("a handshake answered with another version fails", async () => {
  const { error, requests } = await fakeStart("answers-v4");
  assert.ok(error instanceof ProtocolMismatchError, String(error));
  assert.match(error.message, /answered the handshake with coprocess v4; this SDK needs v3\. Upgrade @mcptest\/sdk/);
  assert.deepEqual(requests, ["coprocess/handshake"]);
});

test("a binary that refuses the v3 command line is an older binary, said so", async () => {
  const { error, argv } = await fakeStart("usage");
  assert.ok(error instanceof ProtocolMismatchError, String(error));
  assert.match(error.message, /refused the coprocess v3 command line/);
  assert.match(error.message, /unexpected argument '--check-frames'/, "the binary's stderr is shown");
  assert.ok(argv.includes("--check-frames"));
});

test("the argv, env and cwd reach the binary as flags, never as a shell string", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-"));
  const log = join(dir, "log.jsonl");
  try {
    const mcp = await withEnv({ FAKE_MCPTEST: "ok", FAKE_MCPTEST_LOG: log }, () =>
      start({
        binary: FAKE,
        argv: ["python3", "my server.py", "--flag=a b", "$HOME"],
        env: { API_KEY: "k=v", EMPTY: "" },
        cwd: "/tmp",
        callTimeoutMs: 1_500,
        checkFrames: true,
      }),
    );
    await mcp.close();
    const { argv } = JSON.parse(readFileSync(log, "utf8").split("\n")[0]!) as { argv: string[] };
    assert.deepEqual(argv, [
      "exec",
      "--connection-server",
      "--call-timeout",
      "1500ms",
      "--check-frames",
      "--server-env",
      "API_KEY=k=v",
      "--server-env",
      "EMPTY=",
      "--server-cwd",
      "/tmp",
      "--",
      "python3",
      "my server.py",
      "--flag=a b",
      "$HOME",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bad server specs are refused before anything is spawned", async () => {
  await assert.rejects(start({ binary: FAKE, argv: [] }), /argv must be a non-empty array of strings/);
  await assert.rejects(start({ binary: FAKE, argv: ["a"], url: "http://127.0.0.1:1/mcp" }), /not both/);
  await assert.rejects(start({ binary: FAKE, argv: ["a"], env: { "A=B": "c" } }), /env key "A=B" is not a variable name/);
  await assert.rejects(start({ binary: FAKE, callTimeoutMs: 0 }), /callTimeoutMs must be a positive integer/);
});

test("a missing binary says how to install one", async () => {
  await assert.rejects(start({ binary: "/nonexistent/mcptest" }), (e: unknown) => {
    assert.ok(e instanceof BinaryNotFoundError);
    assert.match(e.message, /the `binary` option names "\/nonexistent\/mcptest", which is not an executable file/);
    assert.match(e.message, /cargo install --path mcptest-cli/);
    return true;
  });
  assert.throws(() => findBinary(undefined, { MCPTEST_BIN: "/nonexistent/mcptest" }), /MCPTEST_BIN names "\/nonexistent\/mcptest"/);
  assert.throws(
    () => findBinary(undefined, { PATH: "/nonexistent:/also-not" }),
    (e: unknown) => {
      assert.ok(e instanceof BinaryNotFoundError);
      assert.match(e.message, /MCPTEST_BIN is not set and no `mcptest` is on PATH\. Install it with `cargo install --path mcptest-cli`/);
      return true;
    },
  );
  assert.equal(findBinary(undefined, { MCPTEST_BIN: BIN }), BIN);
  const { dirname } = await import("node:path");
  assert.equal(findBinary(undefined, { PATH: `/nonexistent:${dirname(BIN)}` }), join(dirname(BIN), "mcptest"));
});

test("a binary that exits before the handshake shows its exit code and stderr", async () => {
  const { error } = await fakeStart("die-early");
  assert.ok(error instanceof BinaryExitedError, String(error));
  assert.equal(error.exitCode, 3);
  assert.match(error.message, /the mcptest binary exited with code 3 while coprocess\/handshake was pending/);
  assert.match(error.message, /fatal: the engine could not start/);
  const refused = await withEnv({ FAKE_MCPTEST: "usage" }, () => start({ binary: FAKE, checkFrames: false }).catch((e: unknown) => e));
  assert.ok(refused instanceof ProtocolMismatchError);
  assert.ok(refused.cause instanceof BinaryExitedError);
  assert.equal(refused.cause.exitCode, 2);
});

test("a server program that does not exist is the binary's usage error, its reason first", async () => {
  const e = await start({ binary: BIN, argv: ["/nonexistent/server"], checkFrames: true }).catch((e: unknown) => e);
  assert.ok(e instanceof BinaryExitedError, String(e));
  assert.equal(e.exitCode, 2);
  assert.match(e.message, /^the mcptest binary refused its command line \(exit code 2\): .*\/nonexistent\/server.*not found/);
});

test("a handshake result with an unknown field fails, naming it", async () => {
  const { error } = await fakeStart("handshake-extra");
  assert.ok(error instanceof FrameError, String(error));
  assert.equal(error.method, "coprocess/handshake");
  assert.equal(error.path, "$.result.color");
  assert.match(error.message, /unknown field `color`/);
});

const V2 = process.env["MCPTEST_V2_BIN"];
if (V2 === undefined || V2 === "") {
  skippedTest("a real v2 binary answers the v3 handshake with its mismatch", "set MCPTEST_V2_BIN to a v2 mcptest binary");
} else {
  test("a real v2 binary answers the v3 handshake with its mismatch", async () => {
    // v2 knows neither `--` argv nor --check-frames: a URL server and no frame checks reach its handshake.
    const e = await start({ binary: V2, url: "http://127.0.0.1:9/mcp", checkFrames: false }).catch((e: unknown) => e);
    assert.ok(e instanceof ProtocolMismatchError, String(e));
    assert.match(e.message, /this mcptest binary speaks v2, the typescript SDK sent v3\. Upgrade the mcptest binary/);
    const refused = await start({ binary: V2, argv: [EVERYTHING], checkFrames: true }).catch((e: unknown) => e);
    assert.ok(refused instanceof ProtocolMismatchError, String(refused));
    assert.match(refused.message, /refused the coprocess v3 command line/);
  });
}

test("a start that times out kills the binary and leaves no process behind", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-"));
  const log = join(dir, "log.jsonl");
  try {
    const started = Date.now();
    await withEnv({ FAKE_MCPTEST: "hang-handshake", FAKE_MCPTEST_LOG: log }, () =>
      // Long enough for a loaded machine to start the fake (it logs its pid first).
      assert.rejects(start({ binary: FAKE, startTimeoutMs: 3_000 }), (e: unknown) => {
        assert.ok(e instanceof BinaryTimeoutError);
        assert.match(e.message, /did not answer coprocess\/handshake within 3000 ms; it was killed/);
        return true;
      }),
    );
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    const { pid } = JSON.parse(readFileSync(log, "utf8").split("\n")[0]!) as { pid: number };
    assert.equal(processState(pid), undefined, `the fake binary ${pid} is still in the process table`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

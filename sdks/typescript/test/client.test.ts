/**
 * The client against the real binary and `fixture-everything`: every
 * method, typed results, upstream errors (-32000, -32001 from a crashing
 * `fixture-chaos`), the binary's call timeout, the server's argv, env and
 * cwd, reporting, and no process left behind after close.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import {
  CallTimeoutError,
  ConnectionDroppedError,
  CoprocessError,
  McpClient,
  UpstreamError,
  start,
} from "@mcptest/sdk";

import { CHAOS, EVERYTHING, FrameChecker, PACKAGE, SUITES, after, descendants, engine, processState, test } from "./harness.js";

const checker = new FrameChecker();
after(() => assert.ok(checker.count > 0, "no frame was checked against the schema"));

/** A client of fixture-everything for one test, always closed. */
async function withEverything(fn: (mcp: McpClient) => Promise<void>, more: Parameters<typeof engine>[1] = {}): Promise<void> {
  const mcp = await McpClient.start(engine(checker, { argv: [EVERYTHING], ...more }));
  try {
    await fn(mcp);
  } finally {
    await mcp.close();
  }
}

test("initialize reports the server", () =>
  withEverything(async (mcp) => {
    const info = await mcp.initialize();
    assert.equal(typeof info.serverInfo.name, "string");
    assert.ok(info.serverInfo.name.length > 0);
    assert.match(info.protocolVersion, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(info.capabilities !== null && "tools" in info.capabilities, JSON.stringify(info.capabilities));
  }));

test("call returns the verdict: text, content, timing", () =>
  withEverything(async (mcp) => {
    const echo = await mcp.call("echo", { message: "hello" });
    assert.equal(echo.success, true);
    assert.equal(echo.text, "hello");
    assert.equal(echo.error, null);
    assert.equal(echo.data, null);
    assert.deepEqual(echo.content, [{ type: "text", text: "hello" }]);
    assert.ok(Number.isInteger(echo.durationMs) && echo.durationMs >= 0);
    assert.equal((await mcp.call("add", { a: 2, b: 3 })).text, "5");
  }));

test("a tool error is a verdict, not an exception", () =>
  withEverything(async (mcp) => {
    const failed = await mcp.call("fail");
    assert.equal(failed.success, false);
    assert.equal(failed.error, "the tool failed on purpose");
    assert.equal(failed.text, "the tool failed on purpose");
  }));

test("structured content is the verdict's data; passthrough gives the result verbatim", () =>
  withEverything(async (mcp) => {
    const weather = await mcp.call("weather", { city: "Paris" });
    assert.deepEqual(weather.data, { city: "Paris", temperature: 21.5, conditions: (weather.data as { conditions: string }).conditions });
    const raw = await mcp.callPassthrough("weather", { city: "Paris" });
    assert.equal(raw.success, true);
    assert.deepEqual(raw.result.structuredContent, weather.data);
    assert.ok(Array.isArray(raw.result.content));
    const failed = await mcp.callPassthrough("fail");
    assert.equal(failed.success, false);
    assert.equal(failed.result.isError, true);
  }));

test("logs and messages sent during a call come with its verdict", () =>
  withEverything(async (mcp) => {
    const v = await mcp.call("log", { level: "warning", message: "careful", count: 2 });
    assert.equal(v.success, true, v.text);
    assert.deepEqual(
      v.logs.map((l) => [l.level, l.data]),
      [
        ["warning", "careful"],
        ["warning", "careful"],
      ],
    );
    assert.deepEqual(
      v.messages.map((m) => m.method),
      ["notifications/message", "notifications/message"],
    );
    const later = await mcp.messages();
    assert.deepEqual(later, { messages: [], logs: [] }, "what a call saw is not reported again");
  }));

test("progress notifications and the server's own requests come in arrival order", () =>
  withEverything(async (mcp) => {
    const progress = await mcp.call("progress", { steps: 3, delay_ms: 1 });
    assert.equal(progress.text, "done after 3 steps");
    assert.deepEqual(
      progress.messages.map((m) => [m.method, (m.params as { progress: number }).progress]),
      [
        ["notifications/progress", 1],
        ["notifications/progress", 2],
        ["notifications/progress", 3],
      ],
    );
    assert.deepEqual(progress.logs, []);
    // The server asks the client for a completion: a request, with its id and the client's reply.
    const sample = await mcp.call("sample", { prompt: "hi" });
    const request = sample.messages.find((m) => m.method === "sampling/createMessage");
    assert.ok(request !== undefined, JSON.stringify(sample.messages));
    assert.ok("id" in request && "reply" in request, JSON.stringify(request));
  }));

test("listings: tools, prompts, resources, templates (every page)", () =>
  withEverything(async (mcp) => {
    const tools = (await mcp.listTools()).map((t) => t.name);
    for (const name of ["echo", "add", "fail", "weather", "log", "slow", "env", "cwd"]) assert.ok(tools.includes(name), name);
    assert.ok(tools.length > 5, "more than one page of 5");
    const prompts = (await mcp.listPrompts()).map((p) => p.name);
    assert.deepEqual([...prompts].sort(), ["code_review", "greeting", "simple"]);
    const resources = (await mcp.listResources()).map((r) => r.uri);
    assert.ok(resources.includes("fixture://static/text"), resources.join(", "));
    const templates = (await mcp.listResourceTemplates()).map((t) => t.uriTemplate);
    assert.ok(templates.includes("fixture://items/{id}"), templates.join(", "));
  }));

test("readResource and getPrompt return the server's results", () =>
  withEverything(async (mcp) => {
    const read = await mcp.readResource("fixture://items/42");
    assert.equal(read.contents[0]?.uri, "fixture://items/42");
    assert.equal(read.contents[0]?.["text"], "item 42");
    const prompt = await mcp.getPrompt("greeting", { name: "Ada", style: "formal" });
    assert.equal(prompt.messages[0]?.role, "user");
    assert.match(JSON.stringify(prompt.messages[0]?.content), /Good day, Ada\./);
  }));

test("an MCP error is an UpstreamError that keeps the server's code and message", () =>
  withEverything(async (mcp) => {
    const e = await mcp.call("rpc_error").catch((e: unknown) => e);
    assert.ok(e instanceof UpstreamError, String(e));
    assert.equal(e.code, -32000);
    assert.equal(e.method, "mcp.call");
    assert.equal(e.tool, "rpc_error");
    assert.equal(e.upstream?.code, -32603);
    assert.equal(e.upstream?.message, "rpc_error always fails");
    assert.match(e.message, /^mcp\.call\("rpc_error"\) failed: the MCP server answered with error -32603: rpc_error always fails/);
    const missing = await mcp.readResource("fixture://nope").catch((e: unknown) => e);
    assert.ok(missing instanceof UpstreamError, String(missing));
    assert.match(missing.message, /^mcp\.readResource\("fixture:\/\/nope"\) failed/);
    assert.equal((await mcp.call("echo", { message: "still here" })).text, "still here", "the session goes on");
  }));

test("a server that dies mid-call is a ConnectionDroppedError with its exit code and stderr", async () => {
  const mcp = await start(engine(checker, { argv: [CHAOS, "--exit-mid-call"] }));
  try {
    const e = await mcp.call("poke").catch((e: unknown) => e);
    assert.ok(e instanceof ConnectionDroppedError, String(e));
    assert.equal(e.code, -32001);
    assert.equal(e.exitCode, 7);
    assert.match(e.message, /^mcp\.call\("poke"\) failed: the connection to the MCP server dropped \(exit code 7\)/);
  } finally {
    await mcp.close();
  }
});

test("a server that never comes up is a ConnectionDroppedError", async () => {
  const mcp = await start(engine(checker, { argv: [CHAOS, "--exit-before-initialize"] }));
  try {
    await assert.rejects(mcp.initialize(), ConnectionDroppedError);
  } finally {
    await mcp.close();
  }
});

test("a tool over the binary's --call-timeout is a CallTimeoutError, and the session goes on", async () => {
  await withEverything(
    async (mcp) => {
      const started = Date.now();
      const e = await mcp.call("slow", { ms: 5_000 }).catch((e: unknown) => e);
      assert.ok(e instanceof CallTimeoutError, String(e));
      assert.equal(e.code, -32603);
      assert.equal(e.timeoutMs, 400);
      // Well under the 5 s the tool would take, so the limit cut it.
      assert.ok(Date.now() - started < 4_500, `took ${Date.now() - started} ms`);
      assert.equal((await mcp.call("echo", { message: "after" })).text, "after");
    },
    { callTimeoutMs: 400 },
  );
});

test("a server that hangs is bounded by the call timeout", async () => {
  const mcp = await start(engine(checker, { argv: [CHAOS, "--never-answer"], callTimeoutMs: 400 }));
  try {
    await assert.rejects(mcp.call("poke"), CallTimeoutError);
  } finally {
    await mcp.close();
  }
});

test("the server gets its argv, env and cwd", async () => {
  const cwd = join(SUITES, "fixtures");
  const mcp = await start(engine(checker, { argv: [EVERYTHING, "--root", "."], env: { MCPTEST_SDK_PROBE: "a b=c" }, cwd }));
  try {
    assert.equal((await mcp.call("env", { name: "MCPTEST_SDK_PROBE" })).text, "a b=c");
    assert.equal((await mcp.call("cwd")).text, cwd);
    const file = await mcp.call("read_file", { path: "hello.txt" });
    assert.equal(file.success, true, file.text);
  } finally {
    await mcp.close();
  }
});

test("a session without a server refuses MCP calls, naming the fix", async () => {
  const mcp = await start(engine(checker));
  try {
    const e = await mcp.call("echo").catch((e: unknown) => e);
    assert.ok(e instanceof CoprocessError, String(e));
    assert.equal(e.code, -32602);
    assert.match(e.message, /no server under test/);
  } finally {
    await mcp.close();
  }
});

test("close shuts the binary and the server down: both leave the process table", async () => {
  const mcp = await start(engine(checker, { argv: [EVERYTHING] }));
  await mcp.call("echo", { message: "up" });
  const pid = mcp.pid!;
  const children = descendants(pid);
  assert.ok(children.length >= 1, "the server runs under the binary");
  assert.equal(processState(pid) !== undefined, true);
  await mcp.close();
  assert.equal(processState(pid), undefined, `the binary ${pid} is still in the process table`);
  for (const child of children) {
    // The server is the binary's child: once the binary is reaped it is gone or orphaned; it must be gone.
    for (let i = 0; i < 50 && processState(child) !== undefined; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(processState(child), undefined, `the server ${child} outlived the binary`);
  }
});

test("a test process killed mid-call leaves no binary or server behind", async () => {
  // The child starts a client, reports the binary's pid, and hangs in a call; then it is SIGKILLed,
  // so no hook of the SDK runs: the binary must end on its own (end of stdin, after its call timeout).
  const script = `
    import { start } from ${JSON.stringify(pathToFileURL(join(PACKAGE, "dist", "index.js")).href)};
    const mcp = await start({ binary: process.env.MCPTEST_BIN, argv: [${JSON.stringify(CHAOS)}, "--never-answer"], callTimeoutMs: 1000, checkFrames: true });
    await mcp.initialize();
    console.log(JSON.stringify({ pid: mcp.pid }));
    await mcp.call("poke");
  `;
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const pid = await new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding("utf8");
    child.stdout.once("data", (line: string) => resolve((JSON.parse(line) as { pid: number }).pid));
    child.once("exit", (code) => reject(new Error(`the child exited (${code}) before starting a client`)));
  });
  const server = descendants(pid);
  assert.ok(server.length >= 1, "the server runs under the binary");
  child.kill("SIGKILL");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && [pid, ...server].some((p) => processState(p) !== undefined && processState(p) !== "Z")) {
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const p of [pid, ...server]) {
    const state = processState(p);
    assert.ok(state === undefined || state === "Z", `process ${p} is still running (${state}) 10 s after its test process died`);
  }
});

test("the SDK's own results reach the report and its upload", async () => {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  try {
    await withEverything(async (mcp) => {
      await mcp.call("echo", { message: "counted" });
      await mcp.record({ name: "my own check", status: "fail", durationMs: 12, message: "it broke", file: "a.test.ts", line: 3 });
      await mcp.setUpload(`http://127.0.0.1:${address.port}/report`, "secret");
      const flushed = await mcp.flush();
      assert.equal(flushed.uploaded, true);
      assert.equal(flushed.status, 201);
      assert.equal(flushed.results, 2);
    });
    assert.equal(bodies.length, 1);
    assert.match(bodies[0]!, /my own check/);
    assert.match(bodies[0]!, /it broke/);
  } finally {
    server.close();
  }
});

test("a cassette records the traffic and replays it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-"));
  const tape = join(dir, "echo.json");
  try {
    await withEverything(async (mcp) => {
      assert.deepEqual(await mcp.cassette("record", tape), { mode: "record", path: tape });
      assert.equal((await mcp.call("echo", { message: "taped" })).text, "taped");
    });
    await withEverything(async (mcp) => {
      await mcp.cassette("replay", tape);
      assert.equal((await mcp.call("echo", { message: "taped" })).text, "taped");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

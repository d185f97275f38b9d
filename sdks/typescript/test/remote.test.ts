/**
 * Servers reached at a URL with credentials: a bearer-protected legacy
 * HTTP+SSE `fixture-everything` through the real binary (the token read
 * from a variable the binary inherits, never on its command line nor in
 * any error), as the session's server and as a suite test's server, and
 * the checks of every new server field.
 *
 * @module
 */

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { ConnectionDroppedError, McpClient, type ServerSpec } from "@mcptest/sdk";

import { EVERYTHING, FAKE, FrameChecker, after, engine, test, withEnv } from "./harness.js";

const TOKEN = "sdk-typescript-secret-5c1e";
const checker = new FrameChecker();

/** fixture-everything on HTTP+SSE demanding `Bearer TOKEN`, for `fn`; always stopped. */
async function withProtectedSse(fn: (url: string) => Promise<void>): Promise<void> {
  const child = spawn(EVERYTHING, ["--sse", "--bearer", TOKEN], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("fixture-everything --sse printed no URL within 30 s")), 30_000);
      lines.once("line", (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      child.once("error", reject);
    });
    // Keep draining so the server never blocks on a full pipe.
    lines.on("line", () => undefined);
    assert.ok(first.startsWith("listening on "), `unexpected first line ${JSON.stringify(first)}`);
    await fn(first.slice("listening on ".length).trim());
  } finally {
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** `add(2, 3)` on `server` through a fresh client, always closed. */
async function add(server: ServerSpec): Promise<string | undefined> {
  const mcp = await McpClient.start(engine(checker, server));
  try {
    const verdict = await mcp.call("add", { a: 2, b: 3 });
    assert.ok(verdict.success);
    return verdict.text;
  } finally {
    await mcp.close();
  }
}

async function refused(server: ServerSpec): Promise<void> {
  const error = await add(server).then(
    () => assert.fail("the protected server answered without the right credentials"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ConnectionDroppedError, `expected ConnectionDroppedError, got ${String(error)}`);
  assert.match(error.message, /HTTP 401/);
  assert.ok(!String(error.stack).includes(TOKEN), "the token is in the error");
}

test("a bearer variable reaches the protected SSE server", async () => {
  await withProtectedSse(async (sse) => {
    const text = await withEnv({ SDK_TS_MCP_TOKEN: TOKEN }, () => add({ sse, bearerEnv: "SDK_TS_MCP_TOKEN" }));
    assert.equal(text, "5");
  });
});

test("a header naming a variable reaches the protected SSE server", async () => {
  await withProtectedSse(async (sse) => {
    const headers = { Authorization: "Bearer ${SDK_TS_MCP_TOKEN}" };
    const text = await withEnv({ SDK_TS_MCP_TOKEN: TOKEN }, () => add({ sse, headers }));
    assert.equal(text, "5");
  });
});

test("without credentials the session fails with HTTP 401, and no token shows", async () => {
  await withProtectedSse(async (sse) => {
    await refused({ sse });
    await withEnv({ SDK_TS_MCP_TOKEN: `${TOKEN}-wrong` }, () => refused({ sse, bearerEnv: "SDK_TS_MCP_TOKEN" }));
  });
});

test("a suite test runs against the protected SSE server with the token from a variable, and fails with HTTP 401 without", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-"));
  try {
    const file = join(dir, "add.yaml");
    writeFileSync(file, 'name: add over sse\nassert:\n  tool: add\n  args: {a: 2, b: 3}\n  expect:\n    equals: "5"\n');
    await withProtectedSse(async (sse) => {
      await withEnv({ SDK_TS_MCP_TOKEN: TOKEN }, async () => {
        const mcp = await McpClient.start(engine(checker));
        try {
          const [listed, ...more] = await mcp.suiteList([file]);
          assert.ok(listed !== undefined && more.length === 0, "the file holds one test");
          const passed = await mcp.suiteRun(listed.id, { server: { sse, bearerEnv: "SDK_TS_MCP_TOKEN" } });
          assert.equal(passed.status, "pass", passed.failure ?? "");
          const failed = await mcp.suiteRun(listed.id, { server: { sse } });
          assert.equal(failed.status, "fail");
          assert.match(failed.failure ?? "", /HTTP 401/);
          assert.ok(!JSON.stringify([passed, failed]).includes(TOKEN), "the token is in a verdict");
        } finally {
          await mcp.close();
        }
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every credential reaches the binary as its flag", async () => {
  const mcp = await withEnv({ FAKE_MCPTEST: "ok" }, () =>
    McpClient.start({
      binary: FAKE,
      checkFrames: false,
      url: "https://mcp.example/mcp",
      headers: { "X-Api-Key": "${API_KEY}" },
      bearerEnv: "MCP_TOKEN",
      clientId: "ci",
      clientSecretEnv: "MCP_SECRET",
      tokenUrl: "https://auth.example/token",
    }),
  );
  try {
    assert.deepEqual(mcp.command.slice(mcp.command.indexOf("--server-url")), [
      "--server-url",
      "https://mcp.example/mcp",
      "--header",
      "X-Api-Key: ${API_KEY}",
      "--bearer-env",
      "MCP_TOKEN",
      "--client-id",
      "ci",
      "--client-secret-env",
      "MCP_SECRET",
      "--token-url",
      "https://auth.example/token",
    ]);
  } finally {
    await mcp.close();
  }
});

test("a bad server spec is a TypeError naming the field, before any spawn", async () => {
  const cases: [ServerSpec, RegExp][] = [
    [{ argv: [EVERYTHING], bearerEnv: "T" }, /bearerEnv is for a server given by `url` or `sse`, not for a process server/],
    [{ argv: [EVERYTHING], headers: { A: "b" } }, /headers is for a server given by `url` or `sse`/],
    [{ url: "http://x/mcp", sse: "http://x/sse" }, /give the server as `url` or as `sse`, not both/],
    [{ sse: "ws://x/sse" }, /sse "ws:\/\/x\/sse" is not an http:\/\/ or https:\/\/ URL/],
    [{ url: "file:///mcp" }, /url "file:\/\/\/mcp" is not an http:\/\/ or https:\/\/ URL/],
    [{ sse: "http://x/sse", argv: [EVERYTHING] }, /give the server as `argv` \(with `env`, `cwd`\) or as `sse`, not both/],
    [{ url: "http://x/mcp", clientId: "ci" }, /clientId and clientSecretEnv go together/],
    [{ url: "http://x/mcp", tokenUrl: "http://x/token" }, /tokenUrl needs clientId and clientSecretEnv/],
    [{ url: "http://x/mcp", bearerEnv: "A=B" }, /bearerEnv "A=B" is not an environment variable name/],
    [{ url: "http://x/mcp", headers: { "Bad Name": "v" } }, /headers\.Bad Name is not a header name/],
  ];
  for (const [server, message] of cases) {
    await assert.rejects(McpClient.start(engine(checker, server)), (e: unknown) => {
      assert.ok(e instanceof TypeError, `expected TypeError for ${JSON.stringify(server)}, got ${String(e)}`);
      assert.match(e.message, message);
      return true;
    });
  }
});

after(() => assert.ok(checker.count > 0, "no frame was checked against the schema"));

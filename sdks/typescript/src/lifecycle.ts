/**
 * A client that follows the framework's lifecycle: `useMcp(hooks, spec)`
 * starts a client in one "before" hook and closes it in the matching "after"
 * hook (which both frameworks run also when a test fails), and returns a
 * getter for the current client.
 *
 * `{ beforeEach, afterEach }` gives every test a fresh server and binary
 * (the same names in node:test and vitest); `{ before, after }` (node:test)
 * or `{ beforeAll, afterAll }` (vitest) shares one per file.
 *
 * @module
 */

import { McpClient, type StartOptions } from "./client.js";
import { McpTestError } from "./errors.js";

type Hook = (fn: () => Promise<void>) => unknown;

/**
 * The hooks `useMcp` takes: one pair, from node:test or vitest.
 *
 * @example
 * ```ts
 * import { beforeEach, afterEach } from "vitest";
 * const hooks: LifecycleHooks = { beforeEach, afterEach };
 * ```
 */
export interface LifecycleHooks {
  beforeEach?(fn: () => Promise<void>): unknown;
  afterEach?(fn: () => Promise<void>): unknown;
  before?(fn: () => Promise<void>): unknown;
  after?(fn: () => Promise<void>): unknown;
  beforeAll?(fn: () => Promise<void>): unknown;
  afterAll?(fn: () => Promise<void>): unknown;
}

function pair(hooks: LifecycleHooks): { start: Hook; stop: Hook } {
  const pairs = [
    ["beforeEach", "afterEach"],
    ["before", "after"],
    ["beforeAll", "afterAll"],
  ] as const;
  const given = pairs.filter(([b, a]) => hooks[b] !== undefined || hooks[a] !== undefined);
  const [only] = given;
  if (given.length !== 1 || only === undefined || hooks[only[0]] === undefined || hooks[only[1]] === undefined) {
    const names = Object.keys(hooks).join(", ") || "none";
    throw new TypeError(
      `useMcp needs exactly one pair of hooks: { beforeEach, afterEach } (a client per test), ` +
        `{ before, after } (node:test, one per file) or { beforeAll, afterAll } (vitest, one per file); got ${names}`,
    );
  }
  const start = hooks[only[0]] as Hook;
  const stop = hooks[only[1]] as Hook;
  return { start: (fn) => start.call(hooks, fn), stop: (fn) => stop.call(hooks, fn) };
}

/**
 * Starts a client before each test (or each file) and closes it after;
 * returns a getter for the current one.
 *
 * @example
 * ```ts
 * import { test, beforeEach, afterEach } from "node:test";
 * const mcp = useMcp({ beforeEach, afterEach }, { argv: ["python3", "server.py"] });
 * test("adds", async () => assert.equal((await mcp().call("add", { a: 2, b: 3 })).text, "5"));
 * ```
 */
export function useMcp(hooks: LifecycleHooks, options: StartOptions): () => McpClient {
  const { start, stop } = pair(hooks);
  let current: McpClient | undefined;
  start(async () => {
    current = await McpClient.start(options);
  });
  stop(async () => {
    const client = current;
    current = undefined;
    await client?.close();
  });
  return () => {
    if (current === undefined) {
      throw new McpTestError("useMcp: no client here: call the getter inside a test (the client starts in the before hook)");
    }
    return current;
  };
}

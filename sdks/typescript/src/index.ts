/**
 * `@mcptest/sdk`: test MCP servers from node:test or vitest. The SDK never
 * speaks MCP: it spawns the `mcptest` binary (`mcptest exec`), speaks the
 * coprocess protocol v3 with it, and turns what comes back into typed
 * results and errors, or into the framework's own tests (`registerSuite`).
 *
 * @example
 * ```ts
 * import { test } from "node:test";
 * import assert from "node:assert/strict";
 * import { McpClient } from "@mcptest/sdk";
 *
 * test("adds", async () => {
 *   const mcp = await McpClient.start({ argv: ["python3", "server.py"] });
 *   try {
 *     assert.equal((await mcp.call("add", { a: 2, b: 3 })).text, "5");
 *   } finally {
 *     await mcp.close();
 *   }
 * });
 * ```
 *
 * @module
 */

export { findBinary } from "./binary.js";
export type { FrameTap } from "./channel.js";
export {
  McpClient,
  start,
  type EngineOptions,
  type RecordedResult,
  type ServerSpec,
  type StartOptions,
  type SuiteRunOptions,
} from "./client.js";
export {
  BinaryExitedError,
  BinaryNotFoundError,
  BinaryTimeoutError,
  CallTimeoutError,
  ConnectionDroppedError,
  CoprocessError,
  FrameError,
  McpTestError,
  ProtocolMismatchError,
  SuiteLoadError,
  SuiteTestFailure,
  UpstreamError,
} from "./errors.js";
export { useMcp, type LifecycleHooks } from "./lifecycle.js";
export {
  PROTOCOL_VERSION,
  SDK_VERSION,
  type BinaryInfo,
  type CallVerdict,
  type ContentBlock,
  type GetPromptResult,
  type InitializeResult,
  type JsonObject,
  type LogEntry,
  type LogLevel,
  type PassthroughResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerMessage,
  type ServerMessages,
  type SuiteSkip,
  type SuiteTest,
  type TestVerdict,
  type Tool,
} from "./protocol.js";
export {
  listSuite,
  registerSuite,
  type RegisteredSuite,
  type SkipContext,
  type SuiteOptions,
  type TestFramework,
} from "./suite.js";

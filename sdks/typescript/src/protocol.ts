/**
 * Coprocess protocol v3 as this SDK reads it: the version pin, the typed
 * shapes of every answer, and the strict readers that turn a frame into
 * them. A field the contract does not name fails loudly (a {@link FrameError}
 * naming the field and the method); nothing is defaulted.
 *
 * Upstream MCP objects (content blocks, tools, resources, prompts) are the
 * server's own and evolve with MCP: they are passed through as they came,
 * typed by their well-known members only.
 *
 * @module
 */

import { FrameError } from "./errors.js";

/**
 * The coprocess protocol version this SDK speaks: the one pin, checked by
 * the handshake before any other request.
 *
 * @example
 * ```ts
 * import { PROTOCOL_VERSION } from "@mcptest/sdk";
 * assert.equal(PROTOCOL_VERSION, 3);
 * ```
 */
export const PROTOCOL_VERSION = 3;

/**
 * This package's version, sent in the handshake (`sdk_version`).
 *
 * @example
 * ```ts
 * console.log(`@mcptest/sdk ${SDK_VERSION}`);
 * ```
 */
export const SDK_VERSION = "0.1.0";

/** The SDK's name in the handshake (`sdk`); the binary names it in mismatch messages. */
export const SDK_NAME = "typescript";

/** A JSON object as it came from the wire. */
export type JsonObject = { [key: string]: unknown };

/**
 * What the binary said about itself in the handshake.
 *
 * @example
 * ```ts
 * if (!mcp.binary.lanes.includes("sampling")) console.log("no sampling lane here");
 * ```
 */
export interface BinaryInfo {
  /** Always {@link PROTOCOL_VERSION} once a client exists. */
  readonly protocolVersion: number;
  /** The mcptest binary's own version, e.g. `0.1.0`. */
  readonly binaryVersion: string;
  /** Every method the binary serves. */
  readonly methods: readonly string[];
  /** The suite lanes `suite.run` drives over this channel. */
  readonly lanes: readonly string[];
  /** Optional capabilities (`argv`, `suites`, `check-frames`, ...). */
  readonly features: readonly string[];
}

/**
 * One upstream content block, verbatim (`type` tells which kind).
 *
 * @example
 * ```ts
 * const texts = verdict.content.filter((b) => b.type === "text").map((b) => b["text"]);
 * ```
 */
export interface ContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

/**
 * A notification or request the server sent during a call (or on its own).
 * Requests also carry their `id` and the `reply` the binary sent back.
 *
 * @example
 * ```ts
 * const progress = verdict.messages.filter((m) => m.method === "notifications/progress");
 * ```
 */
export interface ServerMessage {
  readonly method: string;
  readonly params: unknown;
  /** A request's id as the server sent it (requests only, with `reply`). */
  readonly id?: string | number | null;
  /** What the client answered a request with, null until it answered (requests only, with `id`). */
  readonly reply?: unknown;
}

/** The syslog severities of MCP logging. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/**
 * One MCP log severity.
 *
 * @example
 * ```ts
 * const level: LogLevel = "warning";
 * ```
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A `notifications/message` log line, as `{level, logger?, data}`.
 *
 * @example
 * ```ts
 * assert.deepEqual(verdict.logs.map((l) => l.level), ["info"]);
 * ```
 */
export interface LogEntry {
  readonly level: LogLevel;
  readonly logger?: string;
  readonly data: unknown;
}

/**
 * The verdict of one `mcp.call`.
 *
 * @example
 * ```ts
 * const v = await mcp.call("add", { a: 2, b: 3 });
 * assert.equal(v.success, true);
 * assert.equal(v.text, "5");
 * ```
 */
export interface CallVerdict {
  /** The tool answered with a result whose `isError` is not true. */
  readonly success: boolean;
  /** The text blocks joined by "\n". */
  readonly text: string;
  /** `structuredContent`, or null. */
  readonly data: unknown;
  /** The text when `isError` is true, else null. */
  readonly error: string | null;
  /** How long the call took, in milliseconds. */
  readonly durationMs: number;
  /** The upstream content blocks, verbatim. */
  readonly content: readonly ContentBlock[];
  /** What the server sent from the call's start to its answer, in order. */
  readonly messages: readonly ServerMessage[];
  /** The log notifications among `messages`. */
  readonly logs: readonly LogEntry[];
}

/**
 * An upstream `tools/call` result, verbatim (`mcp.call` with `passthrough`),
 * with `success` derived from `isError`.
 *
 * @example
 * ```ts
 * const { success, result } = await mcp.callPassthrough("weather", { city: "Paris" });
 * console.log(result.structuredContent);
 * ```
 */
export interface PassthroughResult {
  /** `isError` is not true. */
  readonly success: boolean;
  /** The result as the server sent it. */
  readonly result: {
    readonly content: readonly ContentBlock[];
    readonly structuredContent?: unknown;
    readonly isError?: boolean;
    readonly _meta?: unknown;
    readonly [key: string]: unknown;
  };
}

/**
 * What `mcp.initialize` reports about the server.
 *
 * @example
 * ```ts
 * const info = await mcp.initialize();
 * assert.equal(info.serverInfo.name, "fixture-everything");
 * ```
 */
export interface InitializeResult {
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly protocolVersion: string;
  /** The server's capabilities as it sent them (null when it sent none). */
  readonly capabilities: JsonObject | null;
}

/**
 * A tool as the server listed it.
 *
 * @example
 * ```ts
 * const names = (await mcp.listTools()).map((t) => t.name);
 * ```
 */
export interface Tool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly [key: string]: unknown;
}

/**
 * A prompt as the server listed it.
 *
 * @example
 * ```ts
 * const names = (await mcp.listPrompts()).map((p) => p.name);
 * ```
 */
export interface Prompt {
  readonly name: string;
  readonly description?: string;
  readonly arguments?: readonly { readonly name: string; readonly [key: string]: unknown }[];
  readonly [key: string]: unknown;
}

/**
 * A resource as the server listed it.
 *
 * @example
 * ```ts
 * const uris = (await mcp.listResources()).map((r) => r.uri);
 * ```
 */
export interface Resource {
  readonly uri: string;
  readonly name: string;
  readonly [key: string]: unknown;
}

/**
 * A resource template as the server listed it.
 *
 * @example
 * ```ts
 * const templates = (await mcp.listResourceTemplates()).map((t) => t.uriTemplate);
 * ```
 */
export interface ResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly [key: string]: unknown;
}

/**
 * A `resources/read` result, verbatim.
 *
 * @example
 * ```ts
 * const { contents } = await mcp.readResource("fixture://static/text");
 * console.log(contents[0]?.["text"]);
 * ```
 */
export interface ReadResourceResult {
  readonly contents: readonly { readonly uri: string; readonly [key: string]: unknown }[];
  readonly [key: string]: unknown;
}

/**
 * A `prompts/get` result, verbatim.
 *
 * @example
 * ```ts
 * const { messages } = await mcp.getPrompt("greeting", { name: "Ada" });
 * ```
 */
export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown; readonly [key: string]: unknown }[];
  readonly [key: string]: unknown;
}

/**
 * What the server sent on its own since the last call (`mcp.messages`).
 *
 * @example
 * ```ts
 * const { messages, logs } = await mcp.messages();
 * ```
 */
export interface ServerMessages {
  readonly messages: readonly ServerMessage[];
  readonly logs: readonly LogEntry[];
}

/**
 * Why a listed suite test will not run here.
 *
 * @example
 * ```ts
 * if (t.skip?.command) console.log(`run it with: ${t.skip.command}`);
 * ```
 */
export interface SuiteSkip {
  readonly reason: string;
  /** The command line that runs it, when another command does. */
  readonly command?: string;
}

/**
 * One test of a suite, as `suite.list` gave it.
 *
 * @example
 * ```ts
 * for (const t of await mcp.suiteList(["evals"])) console.log(`${t.file}:${t.line} ${t.name}`);
 * ```
 */
export interface SuiteTest {
  /** Opaque and stable while the file keeps the test: pass it to `suite.run`. */
  readonly id: string;
  readonly name: string;
  /** The suite file, relative to the binary's working directory when it was given so. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The kind of test (`tool`, `resources`, `sampling`, `cases`, ...). */
  readonly lane: string;
  /** Why it will not run here, or null. */
  readonly skip: SuiteSkip | null;
}

/**
 * The verdict of one suite test (`suite.run`).
 *
 * @example
 * ```ts
 * const v = await mcp.suiteRun(test.id, { fixture: "tests/fixtures" });
 * if (v.status === "fail") console.log(v.failure);
 * ```
 */
export interface TestVerdict {
  readonly id: string;
  readonly name: string;
  readonly status: "pass" | "fail" | "skip";
  readonly durationMs: number;
  /** `file:line:column`. */
  readonly location: string;
  /** The engine's failure text for a failed test, exactly as `mcptest run` prints it. */
  readonly failure: string | null;
  readonly skipReason: string | null;
  readonly properties: Readonly<Record<string, string>>;
}

/**
 * Reads one frame's parts for one method; every failure names the method,
 * the JSON path and what was wrong.
 */
export class Reader {
  constructor(
    /** The coprocess method whose answer is read. */
    readonly method: string,
    /** Builds the error, adding what the caller knows (stderr tail, ...). */
    private readonly fail: (message: string, method: string, path: string) => FrameError = (m, method, path) =>
      new FrameError(m, { method, path }),
  ) {}

  /** Throws the frame error for `path`. */
  broken(path: string, what: string): never {
    throw this.fail(
      `the mcptest binary's answer to ${this.method} broke coprocess v${PROTOCOL_VERSION} at ${path}: ${what}. ` +
        `This SDK and the binary disagree on the protocol: use an mcptest binary and an @mcptest/sdk of matching releases.`,
      this.method,
      path,
    );
  }

  /**
   * `value` as an object holding every `required` key and no key outside
   * `required` and `optional` (a closed shape of the contract).
   */
  closed(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): JsonObject {
    const object = this.object(value, path);
    for (const key of Object.keys(object)) {
      if (!required.includes(key) && !optional.includes(key)) {
        this.broken(
          `${path}.${key}`,
          `unknown field \`${key}\` (the contract names ${[...required, ...optional].map((k) => `\`${k}\``).join(", ")})`,
        );
      }
    }
    for (const key of required) {
      if (!(key in object)) this.broken(`${path}.${key}`, `missing field \`${key}\``);
    }
    return object;
  }

  object(value: unknown, path: string): JsonObject {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.broken(path, `expected an object, got ${describe(value)}`);
    }
    return value as JsonObject;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== "string") this.broken(path, `expected a string, got ${describe(value)}`);
    return value;
  }

  integer(value: unknown, path: string): number {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      this.broken(path, `expected an integer, got ${describe(value)}`);
    }
    return value;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value !== "boolean") this.broken(path, `expected a boolean, got ${describe(value)}`);
    return value;
  }

  array(value: unknown, path: string): readonly unknown[] {
    if (!Array.isArray(value)) this.broken(path, `expected an array, got ${describe(value)}`);
    return value;
  }

  strings(value: unknown, path: string): readonly string[] {
    return this.array(value, path).map((item, i) => this.string(item, `${path}[${i}]`));
  }

  nullableString(value: unknown, path: string): string | null {
    return value === null ? null : this.string(value, path);
  }

  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
    const text = this.string(value, path);
    if (!(allowed as readonly string[]).includes(text)) {
      this.broken(path, `expected one of ${allowed.join(", ")}, got ${JSON.stringify(text)}`);
    }
    return text as T;
  }
}

/** A short description of a JSON value for an error message. */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return `${kind} ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

/** The handshake's result (`coprocess/handshake`). */
export function readHandshake(r: Reader, value: unknown): BinaryInfo {
  const o = r.closed(value, "$.result", ["protocol_version", "binary_version", "methods", "lanes", "features"]);
  return {
    protocolVersion: r.integer(o["protocol_version"], "$.result.protocol_version"),
    binaryVersion: r.string(o["binary_version"], "$.result.binary_version"),
    methods: r.strings(o["methods"], "$.result.methods"),
    lanes: r.strings(o["lanes"], "$.result.lanes"),
    features: r.strings(o["features"], "$.result.features"),
  };
}

/** One item of `messages` (in a verdict or `mcp.messages`). */
function readMessage(r: Reader, value: unknown, path: string): ServerMessage {
  const o = r.closed(value, path, ["method", "params"], ["id", "reply"]);
  const method = r.string(o["method"], `${path}.method`);
  if (("id" in o) !== ("reply" in o)) {
    r.broken(path, "a request the server sent carries both `id` and `reply`, a notification neither");
  }
  if (!("id" in o)) return { method, params: o["params"] };
  const id = o["id"];
  if (id !== null && typeof id !== "string" && typeof id !== "number") {
    r.broken(`${path}.id`, `expected a string, a number or null, got ${describe(id)}`);
  }
  return { method, params: o["params"], id, reply: o["reply"] };
}

/** One item of `logs`. */
function readLog(r: Reader, value: unknown, path: string): LogEntry {
  const o = r.closed(value, path, ["level", "data"], ["logger"]);
  const level = r.oneOf(o["level"], `${path}.level`, LOG_LEVELS);
  if (!("logger" in o)) return { level, data: o["data"] };
  return { level, logger: r.string(o["logger"], `${path}.logger`), data: o["data"] };
}

function readMessagesAndLogs(r: Reader, o: JsonObject, path: string): ServerMessages {
  return {
    messages: r.array(o["messages"], `${path}.messages`).map((m, i) => readMessage(r, m, `${path}.messages[${i}]`)),
    logs: r.array(o["logs"], `${path}.logs`).map((l, i) => readLog(r, l, `${path}.logs[${i}]`)),
  };
}

function readContent(r: Reader, value: unknown, path: string): readonly ContentBlock[] {
  return r.array(value, path).map((block, i) => {
    const o = r.object(block, `${path}[${i}]`);
    r.string(o["type"], `${path}[${i}].type`);
    return o as ContentBlock;
  });
}

/** The verdict of `mcp.call` (closed). */
export function readVerdict(r: Reader, value: unknown): CallVerdict {
  const p = "$.result";
  const o = r.closed(value, p, ["success", "text", "data", "error", "duration_ms", "content", "messages", "logs"]);
  const { messages, logs } = readMessagesAndLogs(r, o, p);
  return {
    success: r.boolean(o["success"], `${p}.success`),
    text: r.string(o["text"], `${p}.text`),
    data: o["data"],
    error: r.nullableString(o["error"], `${p}.error`),
    durationMs: r.integer(o["duration_ms"], `${p}.duration_ms`),
    content: readContent(r, o["content"], `${p}.content`),
    messages,
    logs,
  };
}

/**
 * The result of `mcp.call` with `passthrough: true`: recognised by having no
 * `success` member and a `content` array; its other members are the
 * server's own.
 */
export function readPassthrough(r: Reader, value: unknown): PassthroughResult {
  const p = "$.result";
  const o = r.object(value, p);
  if ("success" in o) {
    r.broken(`${p}.success`, "a passthrough result has no `success` (this is the verdict shape, not the server's result)");
  }
  readContent(r, o["content"], `${p}.content`);
  if ("isError" in o && o["isError"] !== undefined) r.boolean(o["isError"], `${p}.isError`);
  return { success: o["isError"] !== true, result: o as PassthroughResult["result"] };
}

/** `mcp.initialize`. */
export function readInitialize(r: Reader, value: unknown): InitializeResult {
  const p = "$.result";
  const o = r.closed(value, p, ["serverInfo", "protocolVersion", "capabilities"]);
  const info = r.closed(o["serverInfo"], `${p}.serverInfo`, ["name", "version"]);
  return {
    serverInfo: {
      name: r.string(info["name"], `${p}.serverInfo.name`),
      version: r.string(info["version"], `${p}.serverInfo.version`),
    },
    protocolVersion: r.string(o["protocolVersion"], `${p}.protocolVersion`),
    capabilities: o["capabilities"] === null ? null : r.object(o["capabilities"], `${p}.capabilities`),
  };
}

/**
 * A listing `{key: [...]}` (closed wrapper); each item is the server's own
 * object, checked for the members its type names.
 */
export function readListing<T>(r: Reader, value: unknown, key: string, members: readonly string[]): T[] {
  const p = "$.result";
  const o = r.closed(value, p, [key]);
  return r.array(o[key], `${p}.${key}`).map((item, i) => {
    const at = `${p}.${key}[${i}]`;
    const entry = r.object(item, at);
    for (const member of members) {
      if (!(member in entry)) r.broken(`${at}.${member}`, `missing field \`${member}\``);
    }
    return entry as T;
  });
}

/** `mcp.readResource`: the server's `resources/read` result. */
export function readResourceResult(r: Reader, value: unknown): ReadResourceResult {
  const o = r.object(value, "$.result");
  r.array(o["contents"], "$.result.contents").forEach((c, i) => {
    r.string(r.object(c, `$.result.contents[${i}]`)["uri"], `$.result.contents[${i}].uri`);
  });
  return o as ReadResourceResult;
}

/** `mcp.callPrompt`: the server's `prompts/get` result. */
export function readPromptResult(r: Reader, value: unknown): GetPromptResult {
  const o = r.object(value, "$.result");
  r.array(o["messages"], "$.result.messages").forEach((m, i) => {
    r.string(r.object(m, `$.result.messages[${i}]`)["role"], `$.result.messages[${i}].role`);
  });
  return o as GetPromptResult;
}

/** `mcp.messages` (closed). */
export function readServerMessages(r: Reader, value: unknown): ServerMessages {
  return readMessagesAndLogs(r, r.closed(value, "$.result", ["messages", "logs"]), "$.result");
}

/** `suite.list` (closed, every test listing closed). */
export function readSuiteList(r: Reader, value: unknown): SuiteTest[] {
  const o = r.closed(value, "$.result", ["tests"]);
  return r.array(o["tests"], "$.result.tests").map((item, i) => {
    const p = `$.result.tests[${i}]`;
    const t = r.closed(item, p, ["id", "name", "file", "line", "column", "lane", "skip"]);
    let skip: SuiteSkip | null = null;
    if (t["skip"] !== null) {
      const s = r.closed(t["skip"], `${p}.skip`, ["reason"], ["command"]);
      skip = { reason: r.string(s["reason"], `${p}.skip.reason`) };
      if ("command" in s) skip = { ...skip, command: r.string(s["command"], `${p}.skip.command`) };
    }
    return {
      id: r.string(t["id"], `${p}.id`),
      name: r.string(t["name"], `${p}.name`),
      file: r.string(t["file"], `${p}.file`),
      line: r.integer(t["line"], `${p}.line`),
      column: r.integer(t["column"], `${p}.column`),
      lane: r.string(t["lane"], `${p}.lane`),
      skip,
    };
  });
}

/** `suite.run`: the test verdict (closed). */
export function readTestVerdict(r: Reader, value: unknown): TestVerdict {
  const p = "$.result";
  const o = r.closed(value, p, [
    "id",
    "name",
    "status",
    "duration_ms",
    "location",
    "failure",
    "skip_reason",
    "properties",
  ]);
  return {
    id: r.string(o["id"], `${p}.id`),
    name: r.string(o["name"], `${p}.name`),
    status: r.oneOf(o["status"], `${p}.status`, ["pass", "fail", "skip"] as const),
    durationMs: r.integer(o["duration_ms"], `${p}.duration_ms`),
    location: r.string(o["location"], `${p}.location`),
    failure: r.nullableString(o["failure"], `${p}.failure`),
    skipReason: r.nullableString(o["skip_reason"], `${p}.skip_reason`),
    properties: readProperties(r, o["properties"], `${p}.properties`),
  };
}

function readProperties(r: Reader, value: unknown, path: string): Record<string, string> {
  const o = r.object(value, path);
  for (const [key, v] of Object.entries(o)) r.string(v, `${path}.${key}`);
  return o as Record<string, string>;
}

/** An empty result `{}` (closed), for methods that answer nothing. */
export function readEmpty(r: Reader, value: unknown): void {
  r.closed(value, "$.result", []);
}

/**
 * The promise-based client: one mcptest binary per client, the handshake
 * first, then typed MCP calls, suite listing and running, and reporting.
 *
 * @module
 */

import { type Answer, Channel, type FrameTap } from "./channel.js";
import { findBinary } from "./binary.js";
import {
  BinaryExitedError,
  CallTimeoutError,
  McpTestError,
  ConnectionDroppedError,
  CoprocessError,
  FrameError,
  ProtocolMismatchError,
  SuiteLoadError,
  UpstreamError,
} from "./errors.js";
import {
  type BinaryInfo,
  type CallVerdict,
  type GetPromptResult,
  type InitializeResult,
  type JsonObject,
  type PassthroughResult,
  PROTOCOL_VERSION,
  type Prompt,
  type ReadResourceResult,
  Reader,
  type Resource,
  type ResourceTemplate,
  SDK_NAME,
  SDK_VERSION,
  type ServerMessages,
  type SuiteTest,
  type TestVerdict,
  type Tool,
  readEmpty,
  readHandshake,
  readInitialize,
  readListing,
  readPassthrough,
  readPromptResult,
  readResourceResult,
  readServerMessages,
  readSuiteList,
  readTestVerdict,
  readVerdict,
} from "./protocol.js";

/**
 * The MCP server under test: a program and its arguments (never a shell
 * string) with its environment and working directory, or a Streamable HTTP
 * or legacy HTTP+SSE URL with the credentials the binary sends. A secret is
 * never given here, only the name of the variable that holds it (the binary
 * inherits this process's environment).
 *
 * @example
 * ```ts
 * const server: ServerSpec = { argv: ["python3", "server.py"], env: { API_KEY: "test" }, cwd: "examples" };
 * const remote: ServerSpec = { sse: "http://127.0.0.1:3001/sse", bearerEnv: "MCP_TOKEN" };
 * ```
 */
export interface ServerSpec {
  /** The server's argv, exactly as given: program first. */
  readonly argv?: readonly string[];
  /** A Streamable HTTP server's URL, instead of `argv` (`--server-url`). */
  readonly url?: string;
  /** A legacy HTTP+SSE server's event-stream URL, instead of `argv` or `url` (`--server-sse`). */
  readonly sse?: string;
  /** Variables added to the server's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** The server's working directory. */
  readonly cwd?: string;
  /** Headers sent to a URL server (`--header "NAME: VALUE"`); a value may say `${VAR}`, read by the binary. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The variable holding a bearer token for a URL server (`--bearer-env`). */
  readonly bearerEnv?: string;
  /** The client id of the client-credentials grant (`--client-id`); needs `clientSecretEnv`. */
  readonly clientId?: string;
  /** The variable holding the client secret (`--client-secret-env`); needs `clientId`. */
  readonly clientSecretEnv?: string;
  /** The token endpoint (`--token-url`); default: found in the server's protected-resource metadata. */
  readonly tokenUrl?: string;
}

const CREDENTIALS = ["headers", "bearerEnv", "clientId", "clientSecretEnv", "tokenUrl"] as const;

function httpUrl(value: unknown, name: string, where: string): string {
  if (typeof value !== "string" || !/^https?:\/\//.test(value)) {
    throw new TypeError(`${where}: ${name} ${JSON.stringify(value)} is not an http:// or https:// URL`);
  }
  return value;
}

function variableName(value: unknown, name: string, where: string): string {
  if (typeof value !== "string" || value === "" || value.includes("=") || value.includes("\0")) {
    throw new TypeError(`${where}: ${name} ${JSON.stringify(value)} is not an environment variable name`);
  }
  return value;
}

/** The flags naming a URL server and its credentials (each field checked). */
function remoteFlags(server: ServerSpec, where: string): string[] {
  if (server.url !== undefined && server.sse !== undefined) {
    throw new TypeError(`${where}: give the server as \`url\` or as \`sse\`, not both`);
  }
  const key = server.url !== undefined ? "url" : "sse";
  if (server.argv !== undefined || server.env !== undefined || server.cwd !== undefined) {
    throw new TypeError(`${where}: give the server as \`argv\` (with \`env\`, \`cwd\`) or as \`${key}\`, not both`);
  }
  const flags = [key === "url" ? "--server-url" : "--server-sse", httpUrl(server[key], key, where)];
  for (const [name, value] of Object.entries(server.headers ?? {})) {
    if (name === "" || /[:\s]/.test(name) || typeof value !== "string" || /[\r\n]/.test(value)) {
      throw new TypeError(
        `${where}: headers.${name} is not a header name (no ':' or whitespace) with a one-line string value`,
      );
    }
    flags.push("--header", `${name}: ${value}`);
  }
  if (server.bearerEnv !== undefined) flags.push("--bearer-env", variableName(server.bearerEnv, "bearerEnv", where));
  if ((server.clientId === undefined) !== (server.clientSecretEnv === undefined)) {
    throw new TypeError(`${where}: clientId and clientSecretEnv go together (the client-credentials grant needs both)`);
  }
  if (server.clientId !== undefined) {
    if (typeof server.clientId !== "string" || server.clientId === "") {
      throw new TypeError(`${where}: clientId must be a non-empty string`);
    }
    flags.push("--client-id", server.clientId);
    flags.push("--client-secret-env", variableName(server.clientSecretEnv, "clientSecretEnv", where));
  }
  if (server.tokenUrl !== undefined) {
    if (server.clientId === undefined) throw new TypeError(`${where}: tokenUrl needs clientId and clientSecretEnv`);
    flags.push("--token-url", httpUrl(server.tokenUrl, "tokenUrl", where));
  }
  return flags;
}

/**
 * How to run the binary; every field has a default.
 *
 * @example
 * ```ts
 * const options: EngineOptions = { callTimeoutMs: 5_000, checkFrames: true };
 * ```
 */
export interface EngineOptions {
  /** The mcptest binary; default `MCPTEST_BIN`, then `mcptest` on PATH. */
  readonly binary?: string;
  /** The binary's working directory, against which suite paths resolve; default the current one. */
  readonly binaryCwd?: string;
  /** How long one upstream call may take (the binary's `--call-timeout`); default 30 000. */
  readonly callTimeoutMs?: number;
  /** What the SDK waits beyond the binary's own limit before it gives up on the binary; default 5 000. */
  readonly marginMs?: number;
  /** How long the SDK waits for the handshake; default 10 000. */
  readonly startTimeoutMs?: number;
  /** How long the SDK waits for one suite test that names no timeout; default 120 000. */
  readonly runTimeoutMs?: number;
  /** How long a shutdown may take before the binary is killed; default 2 000. */
  readonly graceMs?: number;
  /** Run the binary with `--check-frames`; default: the env var `MCPTEST_CHECK_FRAMES` is `1`. */
  readonly checkFrames?: boolean;
  /** The binary's `--max-line-bytes`. */
  readonly maxLineBytes?: number;
  /** Sees every frame sent and received (see {@link FrameTap}). */
  readonly onFrame?: FrameTap;
}

/**
 * What {@link McpClient.start} takes: the server under test (optional: a
 * session that only runs suites needs none) and how to run the binary.
 *
 * @example
 * ```ts
 * const mcp = await McpClient.start({ argv: ["python3", "server.py"], callTimeoutMs: 5_000 });
 * ```
 */
export interface StartOptions extends ServerSpec, EngineOptions {}

/**
 * Where a suite test gets its server and fixture, for {@link McpClient.suiteRun}.
 *
 * @example
 * ```ts
 * await mcp.suiteRun(id, { fixture: "tests/fixtures", server: { argv: ["node", "server.js", "{{fixture}}"] } });
 * ```
 */
export interface SuiteRunOptions {
  /** The directory copied afresh for the test (`mcptest run --fixture`). */
  readonly fixture?: string;
  /** The server for files that name none; default the session's server. */
  readonly server?: ServerSpec;
  /** The test's time limit, overriding the file's. */
  readonly timeoutMs?: number;
  /** What a wire-schema violation does: fail the test, warn, or nothing. */
  readonly wireSchema?: "fail" | "warn" | "off";
}

/**
 * One result the SDK reports itself (`mcp.reporter.record`).
 *
 * @example
 * ```ts
 * await mcp.record({ name: "my check", status: "pass", durationMs: 12 });
 * ```
 */
export interface RecordedResult {
  readonly name: string;
  readonly status: "pass" | "fail" | "skip";
  readonly durationMs?: number;
  readonly message?: string;
  readonly file?: string;
  readonly line?: number;
}

/** The defaults of {@link EngineOptions}. */
export const DEFAULTS = {
  callTimeoutMs: 30_000,
  marginMs: 5_000,
  startTimeoutMs: 10_000,
  runTimeoutMs: 120_000,
  graceMs: 2_000,
} as const;

/** `--call-timeout` takes a duration with a unit. */
function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function positive(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new TypeError(`${name} must be a positive integer of milliseconds, got ${String(value)}`);
  }
}

/**
 * The binary and its command line for `options` (every option checked).
 */
export function engineCommand(
  options: StartOptions,
  where: string,
): { binary: string; args: string[]; callTimeoutMs: number } {
  for (const key of ["callTimeoutMs", "marginMs", "startTimeoutMs", "runTimeoutMs", "graceMs", "maxLineBytes"] as const) {
    positive(options[key], `${where}: ${key}`);
  }
  const binary = findBinary(options.binary);
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULTS.callTimeoutMs;
  const checkFrames = options.checkFrames ?? process.env["MCPTEST_CHECK_FRAMES"] === "1";
  const args = ["exec", "--connection-server", "--call-timeout", duration(callTimeoutMs)];
  if (checkFrames) args.push("--check-frames");
  if (options.maxLineBytes !== undefined) args.push("--max-line-bytes", String(options.maxLineBytes));
  args.push(...serverFlags(options, where));
  return { binary, args, callTimeoutMs };
}

/** Checks a server spec and turns it into the binary's flags. */
export function serverFlags(server: ServerSpec, where: string): string[] {
  if (server.url !== undefined || server.sse !== undefined) return remoteFlags(server, where);
  const given = CREDENTIALS.find((key) => server[key] !== undefined);
  if (given !== undefined) {
    throw new TypeError(`${where}: ${given} is for a server given by \`url\` or \`sse\`, not for a process server`);
  }
  const flags: string[] = [];
  for (const [key, value] of Object.entries(server.env ?? {})) {
    if (key === "" || key.includes("=") || key.includes("\0")) {
      throw new TypeError(`${where}: env key ${JSON.stringify(key)} is not a variable name`);
    }
    if (typeof value !== "string") {
      throw new TypeError(`${where}: env.${key} must be a string, got ${typeof value}`);
    }
    flags.push("--server-env", `${key}=${value}`);
  }
  if (server.cwd !== undefined) flags.push("--server-cwd", server.cwd);
  if (server.argv !== undefined) {
    if (!Array.isArray(server.argv) || server.argv.length === 0 || server.argv.some((a) => typeof a !== "string")) {
      throw new TypeError(`${where}: argv must be a non-empty array of strings (program first), got ${JSON.stringify(server.argv)}`);
    }
    flags.push("--", ...server.argv);
  }
  return flags;
}

/**
 * The `server` param of `suite.run`: an argv, or a `url` or `sse` server
 * with its credentials under suite.run's names (the variables are named,
 * never read here: the binary reads them).
 */
function serverParam(server: ServerSpec): JsonObject {
  serverFlags(server, "suiteRun"); // the same checks as for a client's server
  if (server.url !== undefined || server.sse !== undefined) {
    const param: JsonObject = server.url !== undefined ? { url: server.url } : { sse: server.sse as string };
    if (server.headers !== undefined) param["headers"] = { ...server.headers };
    if (server.bearerEnv !== undefined) param["bearer_env"] = server.bearerEnv;
    if (server.clientId !== undefined) param["client_id"] = server.clientId;
    if (server.clientSecretEnv !== undefined) param["client_secret_env"] = server.clientSecretEnv;
    if (server.tokenUrl !== undefined) param["token_url"] = server.tokenUrl;
    return param;
  }
  if (server.argv === undefined) throw new TypeError("suiteRun: the server needs `argv`, `url` or `sse`");
  const param: JsonObject = { argv: [...server.argv] };
  if (server.env !== undefined) param["env"] = { ...server.env };
  if (server.cwd !== undefined) param["cwd"] = server.cwd;
  return param;
}

function field(data: unknown, key: string): unknown {
  return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as JsonObject)[key] : undefined;
}

/** The typed error for a JSON-RPC error the binary answered `call` with. */
export function coprocessError(call: string, method: string, answer: Extract<Answer, { ok: false }>): CoprocessError {
  const base = { code: answer.code, method, rawMessage: answer.message, data: answer.data };
  if (answer.code === -32000) {
    const upstream = field(answer.data, "upstream");
    const tool = field(answer.data, "tool");
    const common = { ...base, tool: typeof tool === "string" ? tool : undefined };
    if (typeof field(upstream, "code") !== "number") {
      // The server answered, but not with a JSON-RPC error (e.g. a result that breaks the MCP schema).
      return new UpstreamError(`${call} failed: the MCP server's answer was refused: ${answer.message}`, {
        ...common,
        upstream: undefined,
      });
    }
    const u = { code: field(upstream, "code") as number, message: String(field(upstream, "message") ?? "") } as {
      code: number;
      message: string;
      data?: unknown;
    };
    const data = field(upstream, "data");
    if (data !== undefined && data !== null) u.data = data;
    const shown = u.data === undefined ? "" : `\n  data: ${JSON.stringify(u.data)}`;
    return new UpstreamError(`${call} failed: the MCP server answered with error ${u.code}: ${u.message}${shown}`, {
      ...common,
      upstream: u,
    });
  }
  if (answer.code === -32001) {
    const exitCode = field(answer.data, "exit_code");
    const tail = field(answer.data, "stderr_tail");
    const serverStderrTail = typeof tail === "string" ? tail : "";
    const code = typeof exitCode === "number" ? ` (exit code ${exitCode})` : "";
    const stderr = serverStderrTail === "" ? "" : `\n--- server stderr (tail) ---\n${serverStderrTail.trimEnd()}`;
    return new ConnectionDroppedError(`${call} failed: the connection to the MCP server dropped${code}: ${answer.message}${stderr}`, {
      ...base,
      exitCode: typeof exitCode === "number" ? exitCode : undefined,
      serverStderrTail,
    });
  }
  const limit = field(answer.data, "timeout_ms");
  if (answer.code === -32603 && typeof limit === "number") {
    return new CallTimeoutError(`${call} timed out: ${answer.message} (the binary's --call-timeout is ${limit} ms)`, {
      ...base,
      timeoutMs: limit,
    });
  }
  const data = answer.data === undefined ? "" : `\n  data: ${JSON.stringify(answer.data)}`;
  return new CoprocessError(`${call} failed: the mcptest binary answered with error ${answer.code}: ${answer.message}${data}`, base);
}

/** Reads a `binary` data member of a mismatch: `3`, or `[2, 3]` for a range. */
function versions(data: unknown): number[] {
  const binary = field(data, "binary");
  if (typeof binary === "number") return [binary];
  if (Array.isArray(binary) && binary.every((v) => typeof v === "number")) return binary as number[];
  return [];
}

const UPGRADE =
  "Upgrade the mcptest binary (`cargo install --path mcptest-cli` from a clone of the mcptest repository), " +
  "or pin @mcptest/sdk to the release that matches the binary.";

/**
 * A connected mcptest binary: call the server's tools, list and read what it
 * offers, run suite tests, report results; then {@link McpClient.close}.
 *
 * @example
 * ```ts
 * const mcp = await McpClient.start({ argv: ["python3", "server.py"] });
 * try {
 *   const v = await mcp.call("add", { a: 2, b: 3 });
 *   assert.equal(v.text, "5");
 * } finally {
 *   await mcp.close();
 * }
 * ```
 */
export class McpClient {
  /** What the binary said in the handshake. */
  readonly binary: BinaryInfo;
  private readonly channel: Channel;
  private readonly callDeadline: number;
  private readonly runTimeoutMs: number;
  private readonly marginMs: number;
  private readonly graceMs: number;

  private constructor(channel: Channel, binary: BinaryInfo, options: Required<Omit<EngineOptions, "binary" | "binaryCwd" | "checkFrames" | "maxLineBytes" | "onFrame" | "startTimeoutMs">>) {
    this.channel = channel;
    this.binary = binary;
    this.callDeadline = options.callTimeoutMs + options.marginMs;
    this.runTimeoutMs = options.runTimeoutMs;
    this.marginMs = options.marginMs;
    this.graceMs = options.graceMs;
  }

  /**
   * Spawns the binary (`mcptest exec --connection-server`), performs the
   * handshake and returns the client. Fails before any other request when
   * the binary speaks another protocol version.
   *
   * @throws {BinaryNotFoundError} no binary.
   * @throws {ProtocolMismatchError} the binary speaks another version.
   * @throws {BinaryExitedError} the binary exited before answering.
   * @example
   * ```ts
   * const mcp = await McpClient.start({ argv: ["node", "server.js"], env: { DEBUG: "1" } });
   * ```
   */
  static async start(options: StartOptions = {}): Promise<McpClient> {
    const { binary, args, callTimeoutMs } = engineCommand(options, "McpClient.start");
    const channel = Channel.spawn({
      binary,
      args,
      ...(options.binaryCwd !== undefined ? { cwd: options.binaryCwd } : {}),
      ...(options.onFrame !== undefined ? { onFrame: options.onFrame } : {}),
    });
    const graceMs = options.graceMs ?? DEFAULTS.graceMs;
    try {
      const info = await handshake(channel, options.startTimeoutMs ?? DEFAULTS.startTimeoutMs);
      return new McpClient(channel, info, {
        callTimeoutMs,
        marginMs: options.marginMs ?? DEFAULTS.marginMs,
        runTimeoutMs: options.runTimeoutMs ?? DEFAULTS.runTimeoutMs,
        graceMs,
      });
    } catch (error) {
      await channel.close(graceMs, false);
      throw error;
    }
  }

  /** The binary's process id. */
  get pid(): number | undefined {
    return this.channel.pid;
  }

  /** Whether the binary still takes requests (not closed, killed after a timeout, or exited). */
  get isOpen(): boolean {
    return this.channel.isOpen;
  }

  /** The binary's command line, binary first. */
  get command(): readonly string[] {
    return this.channel.command;
  }

  /** The last lines the binary wrote to stderr. */
  stderrTail(): string {
    return this.channel.stderrTail();
  }

  private async request<T>(
    method: string,
    call: string,
    params: JsonObject | undefined,
    read: (r: Reader, result: unknown) => T,
    deadline = this.callDeadline,
  ): Promise<T> {
    const answer = await this.channel.request(method, params, deadline);
    if (!answer.ok) throw coprocessError(call, method, answer);
    const stderrTail = this.channel.stderrTail();
    const r = new Reader(method, (message, m, path) => new FrameError(message, { method: m, path, stderrTail }));
    return read(r, answer.result);
  }

  /**
   * Connects to the server (if not yet) and reports what it said.
   *
   * @example
   * ```ts
   * const { serverInfo, capabilities } = await mcp.initialize();
   * ```
   */
  initialize(): Promise<InitializeResult> {
    return this.request("mcp.initialize", "mcp.initialize", undefined, readInitialize);
  }

  /**
   * Calls a tool and returns the verdict. A tool error is a verdict with
   * `success: false`; an MCP error is an {@link UpstreamError}.
   *
   * @example
   * ```ts
   * const v = await mcp.call("echo", { message: "hi" });
   * assert.equal(v.text, "hi");
   * ```
   */
  call(tool: string, args?: JsonObject): Promise<CallVerdict> {
    const params: JsonObject = { tool };
    if (args !== undefined) params["arguments"] = args;
    return this.request("mcp.call", `mcp.call(${JSON.stringify(tool)})`, params, readVerdict);
  }

  /**
   * Calls a tool and returns the server's `tools/call` result verbatim.
   *
   * @example
   * ```ts
   * const { success, result } = await mcp.callPassthrough("weather", { city: "Paris" });
   * ```
   */
  callPassthrough(tool: string, args?: JsonObject): Promise<PassthroughResult> {
    const params: JsonObject = { tool, passthrough: true };
    if (args !== undefined) params["arguments"] = args;
    return this.request("mcp.call", `mcp.call(${JSON.stringify(tool)}, passthrough)`, params, readPassthrough);
  }

  /**
   * Every tool the server lists (all pages).
   *
   * @example
   * ```ts
   * assert.ok((await mcp.listTools()).some((t) => t.name === "echo"));
   * ```
   */
  listTools(): Promise<Tool[]> {
    return this.request("mcp.listTools", "mcp.listTools", undefined, (r, v) => readListing<Tool>(r, v, "tools", ["name", "inputSchema"]));
  }

  /**
   * Every prompt the server lists (all pages).
   *
   * @example
   * ```ts
   * const names = (await mcp.listPrompts()).map((p) => p.name);
   * ```
   */
  listPrompts(): Promise<Prompt[]> {
    return this.request("mcp.listPrompts", "mcp.listPrompts", undefined, (r, v) => readListing<Prompt>(r, v, "prompts", ["name"]));
  }

  /**
   * Every resource the server lists (all pages).
   *
   * @example
   * ```ts
   * const uris = (await mcp.listResources()).map((r) => r.uri);
   * ```
   */
  listResources(): Promise<Resource[]> {
    return this.request("mcp.listResources", "mcp.listResources", undefined, (r, v) =>
      readListing<Resource>(r, v, "resources", ["uri", "name"]),
    );
  }

  /**
   * Every resource template the server lists (all pages).
   *
   * @example
   * ```ts
   * const templates = (await mcp.listResourceTemplates()).map((t) => t.uriTemplate);
   * ```
   */
  listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.request("mcp.listResourceTemplates", "mcp.listResourceTemplates", undefined, (r, v) =>
      readListing<ResourceTemplate>(r, v, "resourceTemplates", ["uriTemplate", "name"]),
    );
  }

  /**
   * Reads a resource: the server's `resources/read` result.
   *
   * @example
   * ```ts
   * const { contents } = await mcp.readResource("fixture://static/text");
   * ```
   */
  readResource(uri: string): Promise<ReadResourceResult> {
    return this.request("mcp.readResource", `mcp.readResource(${JSON.stringify(uri)})`, { uri }, readResourceResult);
  }

  /**
   * Gets a prompt: the server's `prompts/get` result.
   *
   * @example
   * ```ts
   * const { messages } = await mcp.getPrompt("greeting", { name: "Ada" });
   * ```
   */
  getPrompt(name: string, args?: Readonly<Record<string, string>>): Promise<GetPromptResult> {
    const params: JsonObject = { name };
    if (args !== undefined) params["arguments"] = { ...args };
    return this.request("mcp.callPrompt", `mcp.callPrompt(${JSON.stringify(name)})`, params, readPromptResult);
  }

  /**
   * What the server sent on its own since the last call or the last
   * `messages()`; each is reported once.
   *
   * @example
   * ```ts
   * const { messages } = await mcp.messages();
   * ```
   */
  messages(): Promise<ServerMessages> {
    return this.request("mcp.messages", "mcp.messages", {}, readServerMessages);
  }

  /**
   * Lists the tests of suite files or directories (resolved against the
   * binary's working directory).
   *
   * @throws {SuiteLoadError} a file did not load.
   * @example
   * ```ts
   * const tests = await mcp.suiteList(["evals"]);
   * ```
   */
  async suiteList(paths: readonly string[], filter?: string): Promise<SuiteTest[]> {
    const params: JsonObject = { paths: [...paths] };
    if (filter !== undefined) params["filter"] = filter;
    try {
      return await this.request("suite.list", `suite.list(${JSON.stringify(paths)})`, params, readSuiteList);
    } catch (error) {
      throw suiteLoadError(error) ?? error;
    }
  }

  /**
   * Runs one listed suite test through the engine's runner and returns its
   * verdict.
   *
   * @example
   * ```ts
   * const v = await mcp.suiteRun(tests[0].id, { fixture: "tests/fixtures" });
   * ```
   */
  suiteRun(id: string, options: SuiteRunOptions = {}): Promise<TestVerdict> {
    positive(options.timeoutMs, "timeoutMs");
    const params: JsonObject = { id };
    if (options.fixture !== undefined) params["fixture"] = options.fixture;
    if (options.server !== undefined) params["server"] = serverParam(options.server);
    if (options.timeoutMs !== undefined) params["timeout_ms"] = options.timeoutMs;
    if (options.wireSchema !== undefined) params["wire_schema"] = options.wireSchema;
    const deadline = (options.timeoutMs ?? this.runTimeoutMs) + this.marginMs;
    return this.request("suite.run", `suite.run(${JSON.stringify(id)})`, params, readTestVerdict, deadline);
  }

  /** How long {@link suiteRun} waits for a test, at most (for a framework's own test timeout). */
  runDeadline(timeoutMs?: number): number {
    return (timeoutMs ?? this.runTimeoutMs) + this.marginMs;
  }

  /**
   * Adds a result of the SDK's own to the session's report.
   *
   * @example
   * ```ts
   * await mcp.record({ name: "login works", status: "fail", message: "401" });
   * ```
   */
  record(result: RecordedResult): Promise<void> {
    const params: JsonObject = { name: result.name, status: result.status };
    if (result.durationMs !== undefined) params["duration_ms"] = result.durationMs;
    if (result.message !== undefined) params["message"] = result.message;
    if (result.file !== undefined) params["file"] = result.file;
    if (result.line !== undefined) params["line"] = result.line;
    return this.request("mcp.reporter.record", `mcp.reporter.record(${JSON.stringify(result.name)})`, params, readEmpty);
  }

  /**
   * Where {@link flush} uploads the session's report.
   *
   * @example
   * ```ts
   * await mcp.setUpload("http://127.0.0.1:8080/reports", "token");
   * ```
   */
  setUpload(url: string, token?: string): Promise<void> {
    const params: JsonObject = { url };
    if (token !== undefined) params["token"] = token;
    return this.request("mcp.reporter.setUpload", "mcp.reporter.setUpload", params, readEmpty);
  }

  /**
   * Uploads the session's report (every call, suite test and recorded result).
   *
   * @example
   * ```ts
   * const { status, results } = await mcp.flush();
   * ```
   */
  flush(): Promise<{ uploaded: true; status: number; results: number }> {
    return this.request("mcp.reporter.flush", "mcp.reporter.flush", undefined, (r, v) => {
      const o = r.closed(v, "$.result", ["uploaded", "status", "results"]);
      if (o["uploaded"] !== true) r.broken("$.result.uploaded", `expected true, got ${JSON.stringify(o["uploaded"])}`);
      return {
        uploaded: true,
        status: r.integer(o["status"], "$.result.status"),
        results: r.integer(o["results"], "$.result.results"),
      };
    });
  }

  /**
   * Records the server's traffic to a cassette, or replays it (the next
   * connection uses it; the current one is closed).
   *
   * @example
   * ```ts
   * await mcp.cassette("record", "tests/cassettes/echo.json");
   * ```
   */
  cassette(mode: "record" | "replay" | "auto" | "off", path: string): Promise<{ mode: string; path: string }> {
    return this.tape("mcp.cassette.set_mode", mode, path);
  }

  /**
   * The same store as a cache: `read`, `write`, `readwrite` or `off`.
   *
   * @example
   * ```ts
   * await mcp.cache("readwrite");
   * ```
   */
  cache(mode: "read" | "write" | "readwrite" | "off", path?: string): Promise<{ mode: string; path: string }> {
    return this.tape("mcp.cache.set_mode", mode, path);
  }

  private tape(method: string, mode: string, path: string | undefined): Promise<{ mode: string; path: string }> {
    const params: JsonObject = { mode };
    if (path !== undefined) params["path"] = path;
    return this.request(method, `${method}(${JSON.stringify(mode)})`, params, (r, v) => {
      const o = r.closed(v, "$.result", ["mode", "path"]);
      return { mode: r.string(o["mode"], "$.result.mode"), path: r.string(o["path"], "$.result.path") };
    });
  }

  /**
   * Shuts the binary down (`mcp.shutdown`, then a kill after the grace
   * period) and waits until its process is gone. Safe to call twice.
   *
   * @example
   * ```ts
   * await mcp.close();
   * ```
   */
  close(): Promise<void> {
    return this.channel.close(this.graceMs);
  }
}

/**
 * Spawns a client: the same as {@link McpClient.start}.
 *
 * @example
 * ```ts
 * const mcp = await start({ argv: ["python3", "server.py"] });
 * ```
 */
export function start(options: StartOptions = {}): Promise<McpClient> {
  return McpClient.start(options);
}

/** The handshake's params: the pin, and who is asking. */
export const HANDSHAKE_PARAMS: JsonObject = { protocol_version: PROTOCOL_VERSION, sdk: SDK_NAME, sdk_version: SDK_VERSION };

/** The handshake on a running channel: the pin sent, the answer checked before anything else. */
async function handshake(channel: Channel, timeoutMs: number): Promise<BinaryInfo> {
  let answer: Answer;
  try {
    answer = await channel.request("coprocess/handshake", HANDSHAKE_PARAMS, timeoutMs);
  } catch (error) {
    throw olderBinary(error, channel.command) ?? error;
  }
  return checkHandshake(answer, channel.stderrTail());
}

/**
 * A binary that exits with a usage error before the handshake: an older one
 * that does not know the v3 command line (a version mismatch, said as one),
 * or a v3 one refusing the server (its reason first).
 */
export function olderBinary(error: unknown, command: readonly string[]): McpTestError | undefined {
  if (!(error instanceof BinaryExitedError) || error.exitCode !== 2) return undefined;
  if (/unexpected argument/i.test(error.stderrTail)) {
    return new ProtocolMismatchError(
      `the mcptest binary refused the coprocess v${PROTOCOL_VERSION} command line (${command.slice(1).join(" ")}); ` +
        `a binary older than v${PROTOCOL_VERSION} does not know \`exec -- PROGRAM ARG...\` or \`--check-frames\`. ${UPGRADE}`,
      { binaryVersions: [], sdkVersion: PROTOCOL_VERSION, stderrTail: error.stderrTail, cause: error },
    );
  }
  // A usage error of a v3 binary: the server program not found, a bad --server-cwd, ...
  const reason = error.stderrTail.trim().split("\n").at(-1) ?? "";
  return new BinaryExitedError(`the mcptest binary refused its command line (exit code 2): ${reason}`, {
    exitCode: 2,
    signal: null,
    stderrTail: error.stderrTail,
    cause: error,
  });
}

/** Checks the handshake's answer: the version first, then the closed shape. */
export function checkHandshake(answer: Answer, stderrTail: string): BinaryInfo {
  if (!answer.ok) {
    if (answer.code === -32601) {
      throw new ProtocolMismatchError(`mcptest binary speaks coprocess v1; this SDK needs v${PROTOCOL_VERSION}. ${UPGRADE}`, {
        binaryVersions: [1],
        sdkVersion: PROTOCOL_VERSION,
        stderrTail,
      });
    }
    if (answer.code === -32602) {
      throw new ProtocolMismatchError(answer.message, {
        binaryVersions: versions(answer.data),
        sdkVersion: PROTOCOL_VERSION,
        stderrTail,
      });
    }
    throw coprocessError("coprocess/handshake", "coprocess/handshake", answer);
  }
  const spoken = field(answer.result, "protocol_version");
  if (spoken !== PROTOCOL_VERSION) {
    throw new ProtocolMismatchError(
      `the mcptest binary answered the handshake with coprocess v${String(spoken)}; this SDK needs v${PROTOCOL_VERSION}. ` +
        (typeof spoken === "number" && spoken > PROTOCOL_VERSION
          ? "Upgrade @mcptest/sdk (or pin the mcptest binary to the matching release)."
          : UPGRADE),
      { binaryVersions: typeof spoken === "number" ? [spoken] : [], sdkVersion: PROTOCOL_VERSION, stderrTail },
    );
  }
  const r = new Reader("coprocess/handshake", (message, method, path) => new FrameError(message, { method, path, stderrTail }));
  return readHandshake(r, answer.result);
}

/** A `suite.list` -32602 naming a file becomes the collection error of that file. */
export function suiteLoadError(error: unknown): SuiteLoadError | undefined {
  if (!(error instanceof CoprocessError) || error.code !== -32602) return undefined;
  const file = field(error.data, "file");
  if (typeof file !== "string") return undefined;
  const line = field(error.data, "line");
  const column = field(error.data, "column");
  const what = error.rawMessage.includes(file) ? "the suite file" : `the suite file ${file}`;
  return new SuiteLoadError(`${what} did not load: ${error.rawMessage}`, {
    file,
    line: typeof line === "number" ? line : undefined,
    column: typeof column === "number" ? column : undefined,
  });
}

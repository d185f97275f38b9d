/**
 * Suite files as native tests: `registerSuite` asks the binary for the
 * list of tests (`suite.list`) and registers one test per suite test with
 * the framework's own `test` (and `describe`, one block per file), so the
 * same call serves node:test and vitest. Each test runs through the binary
 * (`suite.run`); a failure throws the engine's failure text.
 *
 * Listing is synchronous, at module load: a short-lived binary answers the
 * handshake, `suite.list` and `mcp.shutdown`. Both frameworks collect tests
 * while the test file loads, and a synchronous call cannot lose tests to a
 * forgotten `await`. The tests themselves share one binary per
 * `registerSuite`, started by the first test that runs and shut down by the
 * framework's `after`/`afterAll` hook.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { type Answer, type FrameTap, readResponse } from "./channel.js";
import {
  DEFAULTS,
  type EngineOptions,
  McpClient,
  type ServerSpec,
  type SuiteRunOptions,
  HANDSHAKE_PARAMS,
  checkHandshake,
  coprocessError,
  engineCommand,
  olderBinary,
  suiteLoadError,
} from "./client.js";
import { BinaryExitedError, BinaryTimeoutError, FrameError, McpTestError, SuiteTestFailure } from "./errors.js";
import { type BinaryInfo, type JsonObject, Reader, type SuiteTest, readSuiteList } from "./protocol.js";

/**
 * A test framework's context, as far as a suite test uses it: node:test's
 * `t` and vitest's `ctx` both have `skip(reason)`.
 */
export interface SkipContext {
  skip(reason?: string): unknown;
}

/**
 * The functions `registerSuite` needs from a framework: node:test's and
 * vitest's fit as they are. Pass `after` (node:test) or `afterAll` (vitest)
 * so the suite's binary is shut down when the file's tests are done.
 *
 * @example
 * ```ts
 * import { test, describe, after } from "node:test";
 * registerSuite("evals", { test, describe, after });
 * ```
 */
export interface TestFramework {
  test(name: string, options: { timeout?: number }, fn: (context: SkipContext) => Promise<void>): unknown;
  describe?(name: string, fn: () => void): unknown;
  after?(fn: () => Promise<void>): unknown;
  afterAll?(fn: () => Promise<void>): unknown;
}

/**
 * The options of {@link registerSuite}.
 *
 * @example
 * ```ts
 * registerSuite("evals", { test, describe, after }, {
 *   server: ["python3", "server.py", "--root", "{{fixture}}"],
 *   fixture: "tests/fixtures",
 * });
 * ```
 */
export interface SuiteOptions extends EngineOptions {
  /** The directory copied afresh for every test (`mcptest run --fixture`). */
  readonly fixture?: string | URL;
  /** The server for files that name none: an argv, or a full spec. */
  readonly server?: readonly string[] | ServerSpec;
  /** Only tests whose name matches (the binary's `suite.list` filter). */
  readonly filter?: string;
  /** Every test's time limit, overriding the files' own. */
  readonly timeoutMs?: number;
  /** What a wire-schema violation does in a test. */
  readonly wireSchema?: "fail" | "warn" | "off";
  /** Group the tests in one `describe` per file (default: when `describe` is given). */
  readonly groupByFile?: boolean;
}

/**
 * What {@link registerSuite} registered, and a handle on its binary.
 *
 * @example
 * ```ts
 * const suite = registerSuite("evals", { test, after });
 * console.log(suite.tests.length, suite.binary.lanes);
 * ```
 */
export interface RegisteredSuite {
  /** The listed tests, in order. */
  readonly tests: readonly SuiteTest[];
  /** What the binary that listed them said in the handshake. */
  readonly binary: BinaryInfo;
  /** The process id of the binary running the tests, while one runs. */
  readonly pid: number | undefined;
  /** Shuts the running binary down (the `after` hook calls it). */
  close(): Promise<void>;
}

function pathOf(path: string | URL): string {
  return path instanceof URL ? fileURLToPath(path) : path;
}

/** The `suite.run` options shared by every test of one `registerSuite`. */
function runOptions(options: SuiteOptions): SuiteRunOptions {
  const run: { -readonly [K in keyof SuiteRunOptions]: SuiteRunOptions[K] } = {};
  if (options.fixture !== undefined) run.fixture = pathOf(options.fixture);
  if (options.server !== undefined) {
    run.server = Array.isArray(options.server) ? { argv: options.server as readonly string[] } : (options.server as ServerSpec);
  }
  if (options.timeoutMs !== undefined) run.timeoutMs = options.timeoutMs;
  if (options.wireSchema !== undefined) run.wireSchema = options.wireSchema;
  return run;
}

/** The reason a listed test is skipped here, or undefined when it runs. */
export function skipReason(test: SuiteTest, lanes: readonly string[]): string | undefined {
  if (test.skip !== null) {
    return test.skip.command === undefined ? test.skip.reason : `${test.skip.reason}; run it with: ${test.skip.command}`;
  }
  if (!lanes.includes(test.lane)) {
    return (
      `the \`${test.lane}\` lane is not driven over the coprocess by this mcptest binary ` +
      `(it drives ${lanes.join(", ")}); run it with: mcptest run ${test.file}`
    );
  }
  return undefined;
}

/**
 * Lists suite tests synchronously: one binary answers the handshake,
 * `suite.list` and `mcp.shutdown`, and exits.
 *
 * @throws {SuiteLoadError} a file did not load.
 * @throws {ProtocolMismatchError} the binary speaks another protocol version.
 * @example
 * ```ts
 * const { tests } = listSuite(["evals"]);
 * ```
 */
export function listSuite(
  paths: readonly (string | URL)[],
  options: EngineOptions & { readonly filter?: string } = {},
): { binary: BinaryInfo; tests: SuiteTest[] } {
  const { binary, args, callTimeoutMs } = engineCommand(options, "registerSuite");
  const command = [binary, ...args];
  const listParams: JsonObject = { paths: paths.map(pathOf) };
  if (options.filter !== undefined) listParams["filter"] = options.filter;
  const requests: JsonObject[] = [
    { jsonrpc: "2.0", id: 1, method: "coprocess/handshake", params: HANDSHAKE_PARAMS },
    { jsonrpc: "2.0", id: 2, method: "suite.list", params: listParams },
    { jsonrpc: "2.0", id: 3, method: "mcp.shutdown" },
  ];
  const tap: FrameTap | undefined = options.onFrame;
  for (const request of requests) tap?.("send", request);
  const timeoutMs =
    (options.startTimeoutMs ?? DEFAULTS.startTimeoutMs) + callTimeoutMs + (options.marginMs ?? DEFAULTS.marginMs);
  const ran = spawnSync(binary, args, {
    input: requests.map((r) => `${JSON.stringify(r)}\n`).join(""),
    encoding: "utf8",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
    maxBuffer: 256 * 1024 * 1024,
    ...(options.binaryCwd !== undefined ? { cwd: options.binaryCwd } : {}),
  });
  const stderrTail = (ran.stderr ?? "").trimEnd().split("\n").slice(-40).join("\n");
  if (ran.error !== undefined) {
    const timedOut = (ran.error as NodeJS.ErrnoException).code === "ETIMEDOUT";
    if (timedOut) {
      throw new BinaryTimeoutError(`the mcptest binary did not list the suite within ${timeoutMs} ms; it was killed`, {
        method: "suite.list",
        timeoutMs,
        stderrTail,
      });
    }
    throw new BinaryExitedError(`the mcptest binary ${binary} could not be started: ${ran.error.message}`, {
      exitCode: null,
      signal: null,
      cause: ran.error,
    });
  }
  const lines = (ran.stdout ?? "").split("\n").filter((line) => line.trim() !== "");
  const exited = () =>
    new BinaryExitedError(
      `the mcptest binary ${ran.signal !== null ? `was killed by ${ran.signal}` : `exited with code ${ran.status}`} before answering`,
      { exitCode: ran.status, signal: ran.signal, stderrTail },
    );
  const answer = (index: number, method: string): Answer => {
    const line = lines[index];
    if (line === undefined) throw exited();
    const r: Reader = new Reader(method, (message, m, path) => new FrameError(message, { method: m, path, stderrTail }));
    const response = readResponse(r, line, index + 1, tap);
    if ("tapError" in response) throw response.tapError;
    return response.answer;
  };
  let info: BinaryInfo;
  try {
    info = checkHandshake(answer(0, "coprocess/handshake"), stderrTail);
  } catch (error) {
    throw olderBinary(error, command) ?? error;
  }
  const listed = answer(1, "suite.list");
  if (!listed.ok) {
    const error = coprocessError(`suite.list(${JSON.stringify(listParams["paths"])})`, "suite.list", listed);
    throw suiteLoadError(error) ?? error;
  }
  const r = new Reader("suite.list", (message, m, path) => new FrameError(message, { method: m, path, stderrTail }));
  const tests = readSuiteList(r, listed.result);
  if (lines.length > 2) answer(2, "mcp.shutdown");
  return { binary: info, tests };
}

/** One binary for the tests of one `registerSuite`, started when first needed. */
class SuiteSession {
  private client: Promise<McpClient> | undefined;
  /** The client last started, once it has started. */
  current: McpClient | undefined;
  private closed = false;

  constructor(private readonly options: EngineOptions) {}

  async get(): Promise<McpClient> {
    if (this.closed) throw new McpTestError("the suite's binary was shut down (its `after` hook ran) before this test");
    if (this.client !== undefined) {
      const client = await this.client.catch(() => undefined);
      if (client?.isOpen) return client;
      // A binary that failed (killed after a timeout, exited) is replaced.
      await client?.close();
    }
    this.client = McpClient.start(this.options);
    this.current = await this.client;
    return this.current;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = await this.client?.catch(() => undefined);
    await client?.close();
  }
}

/**
 * Registers one test per suite test with the framework's own functions.
 * The test is named after the suite test, grouped in a `describe` per file;
 * it fails with the engine's failure text and the test's `file:line:column`;
 * a test that will not run here is skipped with its reason, naming the
 * command that runs it.
 *
 * @throws {SuiteLoadError} a file did not load (the framework reports it as
 *   a collection error of the test file).
 * @example
 * ```ts
 * import { test, describe, after } from "node:test";
 * import { registerSuite } from "@mcptest/sdk";
 *
 * registerSuite("evals", { test, describe, after }, { server: ["python3", "server.py"] });
 * ```
 */
export function registerSuite(
  paths: string | URL | readonly (string | URL)[],
  framework: TestFramework,
  options: SuiteOptions = {},
): RegisteredSuite {
  if (typeof framework?.test !== "function") {
    throw new TypeError("registerSuite: the second argument must hold the framework's `test` function, e.g. { test, describe, after }");
  }
  if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new TypeError(`registerSuite: timeoutMs must be a positive integer of milliseconds, got ${String(options.timeoutMs)}`);
  }
  const list = Array.isArray(paths) ? (paths as readonly (string | URL)[]) : [paths as string | URL];
  if (list.length === 0) throw new TypeError("registerSuite: no suite paths given");
  const { tests, binary } = listSuite(list, options);
  if (tests.length === 0) {
    throw new McpTestError(
      `registerSuite: ${list.map(pathOf).join(", ")} holds no suite test${options.filter !== undefined ? ` matching ${JSON.stringify(options.filter)}` : ""}`,
    );
  }
  const engine: EngineOptions = { ...options };
  const session = new SuiteSession(engine);
  const run = runOptions(options);
  const cwd = options.binaryCwd ?? process.cwd();
  const timeout =
    (options.startTimeoutMs ?? DEFAULTS.startTimeoutMs) +
    (options.timeoutMs ?? options.runTimeoutMs ?? DEFAULTS.runTimeoutMs) +
    (options.marginMs ?? DEFAULTS.marginMs) +
    1_000;

  const register = (test: SuiteTest) => {
    const skip = skipReason(test, binary.lanes);
    framework.test(test.name, { timeout }, async (context) => {
      if (skip !== undefined) return skipWith(context, skip);
      const client = await session.get();
      const verdict = await client.suiteRun(test.id, run);
      if (verdict.status === "fail") {
        throw new SuiteTestFailure({
          id: test.id,
          name: test.name,
          location: verdict.location,
          absoluteLocation: resolve(cwd, verdict.location),
          failure: verdict.failure ?? "the engine reported a failure without a text",
        });
      }
      if (verdict.status === "skip") return skipWith(context, verdict.skipReason ?? "skipped by the engine");
    });
  };

  const grouped = options.groupByFile ?? framework.describe !== undefined;
  if (grouped && framework.describe === undefined) {
    throw new TypeError("registerSuite: groupByFile needs the framework's `describe`");
  }
  if (grouped) {
    const files = new Map<string, SuiteTest[]>();
    for (const test of tests) files.set(test.file, [...(files.get(test.file) ?? []), test]);
    for (const [file, inFile] of files) framework.describe?.(file, () => inFile.forEach(register));
  } else {
    tests.forEach(register);
  }
  const hook = framework.after ?? framework.afterAll;
  hook?.call(framework, () => session.close());

  return {
    tests,
    binary,
    get pid() {
      return session.current?.pid;
    },
    close: () => session.close(),
  } satisfies RegisteredSuite;
}

function skipWith(context: SkipContext, reason: string): void {
  if (typeof context?.skip !== "function") {
    throw new McpTestError(`skipped: ${reason} (this framework's test context has no skip())`);
  }
  context.skip(reason);
}

/**
 * The errors of the SDK, one class per way a test can go wrong, so a test
 * can tell them apart with `instanceof` and read what came back.
 *
 * Three layers stay apart: the binary could not be used at all
 * ({@link BinaryNotFoundError}, {@link ProtocolMismatchError},
 * {@link BinaryExitedError}, {@link BinaryTimeoutError}, {@link FrameError}),
 * the binary answered a request with an error ({@link CoprocessError} and its
 * kinds {@link UpstreamError}, {@link ConnectionDroppedError},
 * {@link CallTimeoutError}), and a suite did not load or a suite test failed
 * ({@link SuiteLoadError}, {@link SuiteTestFailure}).
 *
 * @module
 */

/**
 * The base of every error this SDK throws.
 *
 * @example
 * ```ts
 * try { await mcp.call("echo", { message: "hi" }); }
 * catch (e) { if (e instanceof McpTestError) console.error(e.message); }
 * ```
 */
export class McpTestError extends Error {
  /** The tail of the mcptest binary's stderr when the error happened ("" if none). */
  readonly stderrTail: string;

  constructor(message: string, options: { stderrTail?: string; cause?: unknown } = {}) {
    const tail = options.stderrTail ?? "";
    super(tail === "" ? message : `${message}\n--- mcptest stderr (tail) ---\n${tail}`, {
      cause: options.cause,
    });
    this.stderrTail = tail;
    this.name = new.target.name;
  }
}

/**
 * No mcptest binary: `MCPTEST_BIN` is unset and `mcptest` is not on PATH, or
 * `MCPTEST_BIN` names a file that cannot be run.
 *
 * @example
 * ```ts
 * await assert.rejects(start({ binary: "/nope/mcptest" }), BinaryNotFoundError);
 * ```
 */
export class BinaryNotFoundError extends McpTestError {}

/**
 * The binary speaks another coprocess protocol version: the handshake was
 * refused (-32602, the binary's message names both versions and which side
 * to upgrade), unknown (-32601, a v1 binary), answered with another version,
 * or the binary refused the v3 command line.
 *
 * @example
 * ```ts
 * const e = await start({ argv }).catch((e) => e);
 * if (e instanceof ProtocolMismatchError) console.log(e.binaryVersions, e.sdkVersion);
 * ```
 */
export class ProtocolMismatchError extends McpTestError {
  /** The versions the binary said it speaks, when it said so. */
  readonly binaryVersions: readonly number[];
  /** The version this SDK speaks (the pin). */
  readonly sdkVersion: number;

  constructor(
    message: string,
    details: { binaryVersions: readonly number[]; sdkVersion: number; stderrTail?: string; cause?: unknown },
  ) {
    super(message, details);
    this.binaryVersions = details.binaryVersions;
    this.sdkVersion = details.sdkVersion;
  }
}

/**
 * The binary exited (or closed its stdout) while the SDK waited for it.
 *
 * @example
 * ```ts
 * if (e instanceof BinaryExitedError) console.log(e.exitCode, e.signal, e.stderrTail);
 * ```
 */
export class BinaryExitedError extends McpTestError {
  /** The exit code, or null when a signal ended it (or it has not exited yet). */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: string | null;

  constructor(
    message: string,
    details: { exitCode: number | null; signal: string | null; stderrTail?: string; cause?: unknown },
  ) {
    super(message, details);
    this.exitCode = details.exitCode;
    this.signal = details.signal;
  }
}

/**
 * The binary did not answer a request within the SDK's own deadline (the
 * binary's `--call-timeout` plus a margin); the binary was killed.
 *
 * @example
 * ```ts
 * if (e instanceof BinaryTimeoutError) console.log(e.method, e.timeoutMs);
 * ```
 */
export class BinaryTimeoutError extends McpTestError {
  /** The coprocess method that got no answer. */
  readonly method: string;
  /** How long the SDK waited, in milliseconds. */
  readonly timeoutMs: number;

  constructor(message: string, details: { method: string; timeoutMs: number; stderrTail?: string }) {
    super(message, details);
    this.method = details.method;
    this.timeoutMs = details.timeoutMs;
  }
}

/**
 * A frame from the binary broke the v3 contract: not JSON, an unknown field
 * in an envelope, a verdict or a test listing, a missing or mistyped field,
 * or an answer to a request nobody sent. The SDK never guesses defaults.
 *
 * @example
 * ```ts
 * if (e instanceof FrameError) console.log(e.method, e.path);
 * ```
 */
export class FrameError extends McpTestError {
  /** The coprocess method whose answer broke the contract ("" if none was pending). */
  readonly method: string;
  /** Where in the frame, as a JSON path such as `$.result.messages[0].id`. */
  readonly path: string;

  constructor(message: string, details: { method: string; path: string; stderrTail?: string }) {
    super(message, details);
    this.method = details.method;
    this.path = details.path;
  }
}

/**
 * The binary answered a request with a JSON-RPC error. The kinds a test
 * most often meets have subclasses: {@link UpstreamError} (-32000),
 * {@link ConnectionDroppedError} (-32001) and {@link CallTimeoutError}
 * (-32603 with a time limit).
 *
 * @example
 * ```ts
 * if (e instanceof CoprocessError) console.log(e.code, e.method, e.data);
 * ```
 */
export class CoprocessError extends McpTestError {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The coprocess method that was called, e.g. `mcp.call`. */
  readonly method: string;
  /** The binary's own message. */
  readonly rawMessage: string;
  /** The error's `data`, verbatim (undefined when absent). */
  readonly data: unknown;

  constructor(
    message: string,
    details: { code: number; method: string; rawMessage: string; data: unknown; stderrTail?: string },
  ) {
    super(message, details);
    this.code = details.code;
    this.method = details.method;
    this.rawMessage = details.rawMessage;
    this.data = details.data;
  }
}

/**
 * The MCP server answered with a JSON-RPC error (coprocess -32000); its code,
 * message and data are kept. `upstream` is undefined when the server's
 * answer was refused for another reason (a result that breaks the MCP schema).
 *
 * @example
 * ```ts
 * const e = await mcp.call("rpc_error").catch((e) => e);
 * assert.ok(e instanceof UpstreamError);
 * assert.equal(e.upstream?.code, -32603);
 * ```
 */
export class UpstreamError extends CoprocessError {
  /** The MCP server's error: code, message, data (undefined when it sent none). */
  readonly upstream: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined;
  /** The tool that was called, when the call was `mcp.call`. */
  readonly tool: string | undefined;

  constructor(
    message: string,
    details: ConstructorParameters<typeof CoprocessError>[1] & {
      upstream: { code: number; message: string; data?: unknown } | undefined;
      tool: string | undefined;
    },
  ) {
    super(message, details);
    this.upstream = details.upstream;
    this.tool = details.tool;
  }
}

/**
 * The connection to the MCP server dropped or never came up (coprocess
 * -32001): the server's exit code and the tail of its stderr are kept.
 *
 * @example
 * ```ts
 * const e = await mcp.call("poke").catch((e) => e);
 * assert.ok(e instanceof ConnectionDroppedError);
 * console.log(e.exitCode, e.serverStderrTail);
 * ```
 */
export class ConnectionDroppedError extends CoprocessError {
  /** The MCP server's exit code, when it exited with one. */
  readonly exitCode: number | undefined;
  /** The tail of the MCP server's stderr ("" if none). */
  readonly serverStderrTail: string;

  constructor(
    message: string,
    details: ConstructorParameters<typeof CoprocessError>[1] & {
      exitCode: number | undefined;
      serverStderrTail: string;
    },
  ) {
    super(message, details);
    this.exitCode = details.exitCode;
    this.serverStderrTail = details.serverStderrTail;
  }
}

/**
 * An upstream call took longer than the binary's `--call-timeout`
 * (coprocess -32603 with `data.timeout_ms`).
 *
 * @example
 * ```ts
 * const e = await mcp.call("slow", { ms: 5000 }).catch((e) => e);
 * assert.ok(e instanceof CallTimeoutError);
 * ```
 */
export class CallTimeoutError extends CoprocessError {
  /** The binary's limit, in milliseconds. */
  readonly timeoutMs: number;

  constructor(message: string, details: ConstructorParameters<typeof CoprocessError>[1] & { timeoutMs: number }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
  }
}

/**
 * A suite file did not load: the loader's message with its file, line and
 * column. `registerSuite` throws it while the test file is collected, which
 * each framework reports as a collection error of that test file.
 *
 * @example
 * ```ts
 * assert.throws(() => registerSuite("evals/broken.yaml", { test }), SuiteLoadError);
 * ```
 */
export class SuiteLoadError extends McpTestError {
  /** The suite file that did not load. */
  readonly file: string;
  /** Its line (1-based), when the loader knows it. */
  readonly line: number | undefined;
  /** Its column (1-based), when the loader knows it. */
  readonly column: number | undefined;

  constructor(
    message: string,
    details: { file: string; line: number | undefined; column: number | undefined; stderrTail?: string },
  ) {
    super(message, details);
    this.file = details.file;
    this.line = details.line;
    this.column = details.column;
  }
}

/**
 * A suite test failed: the message is the engine's failure text, exactly
 * what `mcptest run` prints for it, which opens with the test's
 * `file:line:column`; the stack points at the suite file so editors and
 * reporters open it there.
 *
 * @example
 * ```ts
 * if (e instanceof SuiteTestFailure) console.log(e.location, e.failure);
 * ```
 */
export class SuiteTestFailure extends McpTestError {
  /** The test's id, as `suite.list` gave it. */
  readonly id: string;
  /** `file:line:column` of the test. */
  readonly location: string;
  /** The engine's failure text, verbatim. */
  readonly failure: string;

  constructor(details: { id: string; name: string; location: string; absoluteLocation: string; failure: string }) {
    // The engine's text names the location on its first line; one that does not gets it appended.
    super(details.failure.includes(details.location) ? details.failure : `${details.failure}\n    at ${details.location}`);
    this.id = details.id;
    this.location = details.location;
    this.failure = details.failure;
    // The frames of the SDK say nothing about the failure: point at the test.
    this.stack = `${this.name}: ${this.message}\n    at ${details.name} (${details.absoluteLocation})`;
  }
}

/**
 * One mcptest binary process and its newline-delimited JSON-RPC channel:
 * requests strictly one at a time, each with a deadline; the closed
 * envelope checked on every answer; stderr drained into a bounded tail;
 * shutdown by `mcp.shutdown`, then a kill after a grace period.
 *
 * The process and its pipes are unreferenced: a client a test forgot to
 * close does not keep the test process alive, and when that process ends
 * the binary reads end-of-file on stdin and exits on its own. A binary
 * still busy with a request when the test process exits is killed.
 *
 * @module
 */

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

import { BinaryExitedError, BinaryTimeoutError, FrameError, McpTestError } from "./errors.js";
import { type JsonObject, Reader, describe } from "./protocol.js";

/**
 * Sees every frame on the channel, as sent and as received, before the SDK
 * acts on it. A tap that throws fails the request with its error (tests use
 * it to check frames against the JSON Schema).
 *
 * @example
 * ```ts
 * const onFrame: FrameTap = (direction, frame) => console.log(direction, JSON.stringify(frame));
 * ```
 */
export type FrameTap = (direction: "send" | "receive", frame: unknown) => void;

/** A JSON-RPC error as the binary sent it. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data: unknown;
}

/** The answer to one request. */
export type Answer = { readonly ok: true; readonly result: unknown } | ({ readonly ok: false } & RpcError);

interface Pending {
  readonly id: number;
  readonly method: string;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Reads one response line: JSON, the closed envelope, the id of the
 * request it answers (or null on an error about an unreadable request).
 */
export function readResponse(r: Reader, line: string, id: number, tap?: FrameTap): { answer: Answer; tapError?: unknown } {
  let frame: unknown;
  try {
    frame = JSON.parse(line);
  } catch {
    r.broken("$", `the line is not JSON: ${describe(line)}`);
  }
  // The tap sees every frame, also one the checks below refuse.
  let tapError: unknown;
  try {
    tap?.("receive", frame);
  } catch (error) {
    tapError = error ?? new Error("the frame tap threw");
  }
  const answer = readEnvelope(r, frame, id);
  return tapError === undefined ? { answer } : { answer, tapError };
}

function readEnvelope(r: Reader, frame: unknown, id: number): Answer {
  const envelope = r.closed(frame, "$", ["jsonrpc", "id"], ["result", "error"]);
  if (envelope["jsonrpc"] !== "2.0") r.broken("$.jsonrpc", `expected "2.0", got ${describe(envelope["jsonrpc"])}`);
  const hasResult = "result" in envelope;
  if (hasResult === ("error" in envelope)) r.broken("$", "a response holds exactly one of `result` and `error`");
  if (envelope["id"] !== id && !(!hasResult && envelope["id"] === null)) {
    r.broken("$.id", `expected ${id} (the id of ${r.method}), got ${describe(envelope["id"])}`);
  }
  if (hasResult) return { ok: true, result: envelope["result"] };
  const error = r.closed(envelope["error"], "$.error", ["code", "message"], ["data"]);
  return {
    ok: false,
    code: r.integer(error["code"], "$.error.code"),
    message: r.string(error["message"], "$.error.message"),
    data: error["data"],
  };
}

/** Keeps the last `limit` characters of a stream, as it arrives. */
class Tail {
  private text = "";
  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.limit) this.text = this.text.slice(-this.limit);
  }

  /** The last `limit` characters, starting at a line boundary when there is one. */
  value(): string {
    let text = this.text.length > this.limit ? this.text.slice(-this.limit) : this.text;
    if (text.length === this.limit) {
      const newline = text.indexOf("\n");
      if (newline >= 0 && newline < text.length - 1) text = text.slice(newline + 1);
    }
    return text.trimEnd();
  }
}

/** Channels whose process may still run; see the module doc for why. */
const live = new Set<Channel>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const channel of live) channel.abandon();
  });
}

/** How to start one binary. */
export interface ChannelSpec {
  readonly binary: string;
  readonly args: readonly string[];
  /** The binary's working directory (suite paths resolve against it). */
  readonly cwd?: string;
  readonly onFrame?: FrameTap;
}

/**
 * A running mcptest binary.
 *
 * @example
 * ```ts
 * const channel = Channel.spawn({ binary, args: ["exec", "--connection-server"] });
 * const answer = await channel.request("coprocess/handshake", { protocol_version: 3 }, 10_000);
 * await channel.close(2_000);
 * ```
 */
export class Channel {
  /** The binary's process id. */
  readonly pid: number | undefined;
  /** The command line it was started with (binary first). */
  readonly command: readonly string[];

  private readonly child: ChildProcessWithoutNullStreams;
  private readonly onFrame: FrameTap | undefined;
  private readonly stderr = new Tail(8 * 1024);
  private partial: string[] = [];
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  /** Why the channel cannot be used any more, once it cannot. */
  private broken: Error | undefined;
  private closing: Promise<void> | undefined;
  private exit: { code: number | null; signal: string | null } | undefined;
  private readonly exited: Promise<void>;

  private constructor(spec: ChannelSpec) {
    this.command = [spec.binary, ...spec.args];
    this.onFrame = spec.onFrame;
    this.child = spawn(spec.binary, [...spec.args], {
      cwd: spec.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.pid = this.child.pid;
    live.add(this);
    installExitHook();
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.receive(chunk));
    this.child.stderr.on("data", (chunk: string) => this.stderr.push(chunk));
    // A write after the binary died fails with EPIPE; the exit says why.
    this.child.stdin.on("error", () => {});
    let spawnError: Error | undefined;
    this.exited = new Promise<void>((resolve) => {
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        live.delete(this);
        this.fail(this.exitError(spawnError));
        resolve();
      };
      this.child.on("error", (error) => {
        // Spawning failed (ENOENT, EACCES): there will be no "exit".
        spawnError = error;
        if (this.child.pid === undefined) {
          this.exit = { code: null, signal: null };
          settle();
        }
      });
      this.child.on("exit", (code, signal) => {
        this.exit = { code, signal };
        // "close" follows once stdout and stderr are drained; do not wait
        // forever for it if a grandchild holds the pipes open.
        setTimeout(settle, 500).unref();
      });
      this.child.on("close", settle);
    });
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      (stream as unknown as { unref?: () => void }).unref?.();
    }
  }

  /**
   * Starts the binary.
   *
   * @example
   * ```ts
   * const channel = Channel.spawn({ binary: "/usr/local/bin/mcptest", args: ["exec", "--connection-server"] });
   * ```
   */
  static spawn(spec: ChannelSpec): Channel {
    return new Channel(spec);
  }

  /** The last lines the binary wrote to stderr. */
  stderrTail(): string {
    return this.stderr.value();
  }

  /** Whether requests can still be sent (not broken, closing or exited). */
  get isOpen(): boolean {
    return this.broken === undefined && this.closing === undefined && this.exit === undefined;
  }

  /** Whether the binary's process has ended. */
  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /**
   * Sends one request and waits, at most `timeoutMs`, for its answer.
   * Requests wait for each other: the channel carries one at a time.
   */
  request(method: string, params: JsonObject | undefined, timeoutMs: number): Promise<Answer> {
    const run = this.queue.then(() => this.send(method, params, timeoutMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private send(method: string, params: JsonObject | undefined, timeoutMs: number): Promise<Answer> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    if (this.closing !== undefined && method !== "mcp.shutdown") {
      return Promise.reject(new McpTestError(`${method} was called after the client was closed`));
    }
    const id = this.nextId++;
    const frame: JsonObject = { jsonrpc: "2.0", id, method };
    if (params !== undefined) frame["params"] = params;
    try {
      this.onFrame?.("send", frame);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new BinaryTimeoutError(
          `the mcptest binary did not answer ${method} within ${timeoutMs} ms; it was killed`,
          { method, timeoutMs, stderrTail: this.stderrTail() },
        );
        this.breakWith(error);
      }, timeoutMs);
      this.pending = { id, method, resolve, reject, timer };
      this.child.stdin.write(`${JSON.stringify(frame)}\n`);
    });
  }

  private receive(chunk: string): void {
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline >= 0; newline = chunk.indexOf("\n", start)) {
      this.partial.push(chunk.slice(start, newline));
      const line = this.partial.join("");
      this.partial = [];
      start = newline + 1;
      if (line.trim() !== "") this.answer(line);
    }
    if (start < chunk.length) this.partial.push(chunk.slice(start));
  }

  private answer(line: string): void {
    const pending = this.pending;
    const method = pending?.method ?? "(no request)";
    const r: Reader = new Reader(method, (message, _method, path) =>
      new FrameError(message, { method, path, stderrTail: this.stderrTail() }),
    );
    let response: { answer: Answer; tapError?: unknown };
    try {
      if (pending === undefined) {
        r.broken("$", `an answer arrived while no request was pending: ${describe(line)}`);
      }
      response = readResponse(r, line, pending.id, this.onFrame);
    } catch (error) {
      // The stream can no longer be trusted to pair answers with requests.
      this.breakWith(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.pending = undefined;
    clearTimeout(pending.timer);
    if ("tapError" in response) {
      const error = response.tapError;
      pending.reject(error instanceof Error ? error : new Error(String(error)));
    } else {
      pending.resolve(response.answer);
    }
  }

  /** Marks the channel unusable, fails the pending request and kills the binary. */
  private breakWith(error: Error): void {
    this.fail(error);
    this.child.kill("SIGKILL");
  }

  private fail(error: Error): void {
    this.broken ??= error;
    const pending = this.pending;
    if (pending !== undefined) {
      this.pending = undefined;
      clearTimeout(pending.timer);
      pending.reject(this.broken);
    }
  }

  private exitError(spawnError: Error | undefined): Error {
    if (spawnError !== undefined && this.child.pid === undefined) {
      return new BinaryExitedError(`the mcptest binary ${this.command[0]} could not be started: ${spawnError.message}`, {
        exitCode: null,
        signal: null,
        cause: spawnError,
      });
    }
    const exit = this.exit ?? { code: null, signal: null };
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const during = this.pending !== undefined ? ` while ${this.pending.method} was pending` : "";
    return new BinaryExitedError(`the mcptest binary ${how}${during}`, {
      exitCode: exit.code,
      signal: exit.signal,
      stderrTail: this.stderrTail(),
    });
  }

  /**
   * Stops the binary: `mcp.shutdown` and end of stdin, then a kill if it has
   * not exited after `graceMs`. A request still pending is abandoned (the
   * binary is killed at once). Resolves once the process is reaped.
   * `request: false` skips `mcp.shutdown` (end of stdin alone stops the
   * binary): after a failed handshake nothing more is sent.
   */
  close(graceMs: number, request = true): Promise<void> {
    this.closing ??= this.shutDown(graceMs, request);
    return this.closing;
  }

  private async shutDown(graceMs: number, request: boolean): Promise<void> {
    if (this.pending !== undefined) {
      this.breakWith(new McpTestError(`the client was closed while ${this.pending.method} was pending`));
    } else if (request && this.broken === undefined && this.exit === undefined) {
      try {
        await this.send("mcp.shutdown", undefined, graceMs);
      } catch {
        // Whatever the binary answered, it is stopped below.
      }
    }
    this.child.stdin.end();
    if (!(await this.waitExit(graceMs))) {
      this.child.kill("SIGKILL");
      await this.waitExit(10_000);
    }
  }

  private async waitExit(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([this.exited.then(() => true as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** At the test process's exit: a binary still busy is killed (an idle one reads end-of-file and exits). */
  abandon(): void {
    if (this.pending !== undefined && this.exit === undefined) this.child.kill("SIGKILL");
  }
}

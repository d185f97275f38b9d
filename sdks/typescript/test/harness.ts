/**
 * What every test file shares, so one file runs under both node:test and
 * vitest: the runner's own `test`/`describe`/hooks (picked by the runner
 * that loaded the file), the binary and fixture paths from the environment,
 * the JSON Schema check of every frame (ajv), fake binaries, and process
 * table probes.
 *
 * @module
 */

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Ajv2020 } from "ajv/dist/2020.js";
import type { FrameTap, StartOptions } from "@mcptest/sdk";

const vitest = process.env["VITEST"] !== undefined ? await import("vitest") : undefined;
const nodeTest = vitest === undefined ? await import("node:test") : undefined;

/** Which runner loaded this file. */
export const RUNNER: "vitest" | "node:test" = vitest !== undefined ? "vitest" : "node:test";

type Body = () => Promise<void> | void;

/** Registers a test with the runner that loaded the file. */
export function test(name: string, fn: Body, timeoutMs = 30_000): void {
  if (vitest !== undefined) vitest.test(name, { timeout: timeoutMs }, fn);
  else void nodeTest!.test(name, { timeout: timeoutMs }, fn);
}

/** A test this runner reports as skipped, with why. */
export function skippedTest(name: string, reason: string): void {
  if (vitest !== undefined) vitest.test(name, (ctx) => ctx.skip(reason));
  else void nodeTest!.test(name, { skip: reason }, () => {});
}

/** Groups tests. */
export function describe(name: string, fn: () => void): void {
  if (vitest !== undefined) vitest.describe(name, fn);
  else void nodeTest!.describe(name, fn);
}

/** Runs after every test of the file. */
export function after(fn: Body): void {
  if (vitest !== undefined) vitest.afterAll(fn);
  else nodeTest!.after(fn);
}

/** The runner's own functions, as a framework hands them to the SDK. */
export const FRAMEWORK =
  vitest !== undefined
    ? { test: vitest.test, describe: vitest.describe, afterAll: vitest.afterAll, beforeEach: vitest.beforeEach, afterEach: vitest.afterEach }
    : { test: nodeTest!.test, describe: nodeTest!.describe, after: nodeTest!.after, beforeEach: nodeTest!.beforeEach, afterEach: nodeTest!.afterEach };

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") {
    throw new Error(
      `${name} is not set: the tests run against the real mcptest binary and the project's fixture servers ` +
        "(MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/dir/of/fixture-binaries bash sdks/typescript/ci.sh)",
    );
  }
  return value;
}

function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !readFileSync(join(dir, "package.json"), "utf8").includes('"@mcptest/sdk"')) {
    const up = dirname(dir);
    if (up === dir) throw new Error("the @mcptest/sdk package root was not found above the test file");
    dir = up;
  }
  return dir;
}

/** The SDK package's folder. */
export const PACKAGE = packageRoot();
/** The repository's root (the SDK lives in sdks/typescript). */
export const REPO = dirname(dirname(PACKAGE));
/** The mcptest binary under test. */
export const BIN = required("MCPTEST_BIN");
/** The folder holding the fixture servers. */
export const FIXTURES = required("MCPTEST_FIXTURES");
export const EVERYTHING = join(FIXTURES, "fixture-everything");
export const CHAOS = join(FIXTURES, "fixture-chaos");
/** The project's suite corpora. */
export const SUITES = join(REPO, "tests", "suites");
/**
 * The test crate's folder: the corpora are written for its test run, which
 * works there (relative paths in suite files resolve against it) with
 * cargo's CARGO_PKG_NAME set (a suite file expands it in a server's env);
 * the binaries spawned here inherit this process's environment.
 */
export const CRATE = join(REPO, "tests");
process.env["CARGO_PKG_NAME"] ??= "mcptest-tests";
/** The fake binary (see test/fakes/fake-mcptest.mjs). */
export const FAKE = join(PACKAGE, "test", "fakes", "fake-mcptest.mjs");

for (const [what, path] of [
  ["MCPTEST_BIN", BIN],
  ["fixture-everything", EVERYTHING],
  ["fixture-chaos", CHAOS],
  ["the suite corpora", SUITES],
] as const) {
  if (!existsSync(path)) throw new Error(`${what} not found at ${path}`);
}

/** Where the coprocess JSON Schema is: MCPTEST_SCHEMA, the repository's copy, or beside the binary. */
function schemaPath(): string {
  const candidates = [
    process.env["MCPTEST_SCHEMA"],
    join(REPO, "mcptest-coprocess", "coprocess.schema.json"),
    join(dirname(BIN), "coprocess.schema.json"),
  ].filter((p): p is string => p !== undefined && p !== "");
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) {
    throw new Error(`the coprocess JSON Schema was not found (looked at ${candidates.join(", ")}); set MCPTEST_SCHEMA`);
  }
  return found;
}

const schema = JSON.parse(readFileSync(schemaPath(), "utf8")) as { $id: string };
// The schema's method maps are not schemas themselves (its description says so): strict mode off.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(schema);

function validator(pointer: string) {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${pointer}`);
  if (validate === undefined) throw new Error(`the schema has no #/$defs/${pointer}`);
  return validate;
}

function pointer(method: string): string {
  return method.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Checks every frame of a channel against the schema: requests against
 * `request/<method>`, responses against `response` and their result against
 * `result/<method>`. `strict` throws on a violation (failing the request);
 * otherwise violations are collected for the test to inspect.
 */
export class FrameChecker {
  /** Frames checked. */
  count = 0;
  /** What broke the schema, one line per frame. */
  readonly violations: string[] = [];
  private readonly methods = new Map<unknown, string>();

  constructor(private readonly strict = true) {}

  readonly tap: FrameTap = (direction, frame) => {
    this.count++;
    const f = frame as { id?: unknown; method?: string; result?: unknown; error?: unknown };
    const problems: string[] = [];
    const check = (ptr: string, value: unknown, label: string) => {
      const validate = validator(ptr);
      if (!validate(value)) problems.push(`${label}: ${ajv.errorsText(validate.errors)}`);
    };
    if (direction === "send") {
      const method = String(f.method);
      this.methods.set(f.id, method);
      check("envelope", frame, "request envelope");
      if (ajv.getSchema(`${schema.$id}#/$defs/request/${pointer(method)}`) === undefined) {
        problems.push(`request: the schema names no method ${method}`);
      } else {
        check(`request/${pointer(method)}`, frame, `request ${method}`);
      }
    } else {
      const method = this.methods.get(f.id) ?? [...this.methods.values()][0] ?? "?";
      this.methods.delete(f.id);
      check("response", frame, `response to ${method}`);
      if ("result" in f) check(`result/${pointer(method)}`, f.result, `result of ${method}`);
    }
    if (problems.length > 0) {
      const line = `${direction} ${JSON.stringify(frame).slice(0, 300)}\n  ${problems.join("\n  ")}`;
      this.violations.push(line);
      if (this.strict) throw new Error(`a frame broke the coprocess JSON Schema:\n${line}`);
    }
  };
}

/**
 * The options every real-binary client of the tests uses: the binary from
 * MCPTEST_BIN, `--check-frames`, and the schema tap of `checker`.
 */
export function engine(checker: FrameChecker, more: StartOptions = {}): StartOptions {
  return { binary: BIN, checkFrames: true, onFrame: checker.tap, ...more };
}

/** Runs `fn` with `FAKE_MCPTEST` (and other variables) set, restoring them after. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    // The binary is spawned synchronously inside fn's first step; the env is read then.
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The process's state letter in the process table, or undefined once it is gone (reaped). */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** Every live descendant of `pid`, from the process table. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // It exited while the table was read.
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

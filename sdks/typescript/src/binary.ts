/**
 * Finding the mcptest binary: an explicit path, then `MCPTEST_BIN`, then
 * `mcptest` on PATH; otherwise an error that says how to install it.
 *
 * @module
 */

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

import { BinaryNotFoundError } from "./errors.js";

const INSTALL =
  "Install it with `cargo install --path mcptest-cli` from a clone of the mcptest repository, " +
  "then put it on PATH or set MCPTEST_BIN to its absolute path.";

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The mcptest binary to spawn: `explicit` if given, else `MCPTEST_BIN`, else
 * the first `mcptest` on PATH.
 *
 * @throws {BinaryNotFoundError} when none is found or the named file cannot be run.
 * @example
 * ```ts
 * const bin = findBinary(); // e.g. "/usr/local/bin/mcptest"
 * ```
 */
export function findBinary(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const named = explicit ?? (env["MCPTEST_BIN"] === "" ? undefined : env["MCPTEST_BIN"]);
  if (named !== undefined) {
    const source = explicit !== undefined ? "the `binary` option" : "MCPTEST_BIN";
    const path = isAbsolute(named) ? named : resolve(named);
    if (!runnable(path)) {
      throw new BinaryNotFoundError(
        `${source} names ${JSON.stringify(named)}, which is not an executable file. ${INSTALL}`,
      );
    }
    return path;
  }
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, "mcptest");
    if (runnable(candidate)) return candidate;
  }
  throw new BinaryNotFoundError(`the mcptest binary was not found: MCPTEST_BIN is not set and no \`mcptest\` is on PATH. ${INSTALL}`);
}

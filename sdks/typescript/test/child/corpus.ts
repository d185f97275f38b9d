/**
 * What both child test files register: one failing, one skipped and one
 * passing suite file of the project's corpora, with the framework they were
 * loaded by. Every frame, both ways, is appended to `CHILD_FRAMES`: the
 * parent test checks them against the schema and compares what the
 * framework reported with what the engine said.
 *
 * @module
 */

import { appendFileSync } from "node:fs";
import { join } from "node:path";

import { registerSuite, type TestFramework } from "@mcptest/sdk";

/** The suite files the child runs, relative to the test crate (`CHILD_CWD`). */
export const CHILD_FILES = ["suites/fail/equals.yaml", "suites/pass/skip.yaml", "suites/pass/echo_text_checks.yaml"];

export function registerCorpus(framework: TestFramework): void {
  const cwd = process.env["CHILD_CWD"]!;
  const frames = process.env["CHILD_FRAMES"]!;
  registerSuite(CHILD_FILES, framework, {
    binary: process.env["MCPTEST_BIN"]!,
    checkFrames: true,
    binaryCwd: cwd,
    server: [join(process.env["MCPTEST_FIXTURES"]!, "fixture-everything"), "--root", "{{fixture}}"],
    fixture: "suites/fixtures",
    onFrame: (direction, frame) => appendFileSync(frames, `${JSON.stringify({ direction, frame })}\n`),
  });
}

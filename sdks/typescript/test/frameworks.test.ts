/**
 * What a person sees: the child corpus (a failing, a skipped and a passing
 * suite test) run by the same framework in a child process, through its
 * reporter. The failing test is reported failed with the engine's failure
 * text and location, the skipped one as skipped (under node:test with the
 * engine's reason), the passing one as passed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { CRATE, FrameChecker, PACKAGE, RUNNER, test } from "./harness.js";

interface Verdict {
  name: string;
  status: string;
  failure: string | null;
  skip_reason: string | null;
  location: string;
}

function runChild(): { output: string; status: number | null; verdicts: Map<string, Verdict>; report: string } {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-child-"));
  const frames = join(dir, "frames.jsonl");
  const report = join(dir, "report.json");
  try {
    // The child is a fresh run, not a worker of this one.
    const env: NodeJS.ProcessEnv = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_TEST_CONTEXT"),
    );
    Object.assign(env, { CHILD_CWD: CRATE, CHILD_FRAMES: frames });
    const args =
      RUNNER === "node:test"
        ? ["--test", "--test-reporter=tap", join(PACKAGE, "dist-test", "test", "child", "corpus.node.test.js")]
        : [
            join(PACKAGE, "node_modules", "vitest", "vitest.mjs"),
            "run",
            "--config",
            "test/child/vitest.config.ts",
            "--reporter=json",
            `--outputFile=${report}`,
          ];
    const ran = spawnSync(process.execPath, args, { cwd: PACKAGE, env, encoding: "utf8", timeout: 120_000 });
    // The child's frames, checked against the schema here.
    const checker = new FrameChecker();
    const verdicts = new Map<string, Verdict>();
    for (const line of existsSync(frames) ? readFileSync(frames, "utf8").trim().split("\n") : []) {
      const { direction, frame } = JSON.parse(line) as { direction: "send" | "receive"; frame: { result?: Verdict } };
      checker.tap(direction, frame);
      const result = frame.result;
      if (direction === "receive" && result?.status !== undefined && "skip_reason" in result) verdicts.set(result.name, result);
    }
    assert.ok(checker.count >= 6, `the child's frames were not recorded:\n${ran.stdout}\n${ran.stderr}`);
    return {
      output: `${ran.stdout}\n${ran.stderr}`,
      status: ran.status,
      verdicts,
      report: existsSync(report) ? readFileSync(report, "utf8") : "",
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  `${RUNNER} reports the suite's failure, skip and pass as its own`,
  () => {
    const { output, status, verdicts, report } = runChild();
    assert.equal(status, 1, `the child run fails because one test fails:\n${output}`);
    const failed = verdicts.get("equals fails");
    assert.ok(failed !== undefined && failed.status === "fail" && failed.failure !== null, `no failing verdict:\n${output}`);
    const passed = verdicts.get("echo passes every text check");
    assert.equal(passed?.status, "pass", output);
    assert.equal(verdicts.has("skipped on purpose"), false, "a listed skip never reaches suite.run");
    if (RUNNER === "node:test") {
      assert.match(output, /^ *not ok \d+ - equals fails$/m, output);
      assert.match(output, /^ *ok \d+ - echo passes every text check$/m, output);
      assert.match(output, /^ *ok \d+ - skipped on purpose # SKIP \S.*$/m, output);
      // TAP shows the error as YAML: every line of the engine's text is there.
      for (const line of failed.failure.split("\n").filter((l) => l.trim() !== "")) {
        assert.ok(output.includes(line.trim()), `missing from the report: ${line}\n${output}`);
      }
    } else {
      const results = (JSON.parse(report) as { testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] })
        .testResults.flatMap((f) => f.assertionResults);
      const by = (title: string) => results.find((r) => r.title === title);
      assert.equal(by("equals fails")?.status, "failed", report);
      assert.ok(by("equals fails")?.failureMessages[0]?.includes(failed.failure), report);
      assert.equal(by("echo passes every text check")?.status, "passed", report);
      assert.equal(by("skipped on purpose")?.status, "skipped", report);
    }
  },
  180_000,
);

/**
 * `registerSuite`: with a fake binary, the exact shape of what is
 * registered (names, one describe per file, skips naming the CLI command,
 * lanes the binary does not drive, run-time skips, failures carrying the
 * engine's text and the test's location, collection errors); with the real
 * binary, the project's corpora: `tests/suites/pass` all pass and
 * `tests/suites/fail` all fail with the engine's own failure text.
 *
 * @module
 */

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  FrameError,
  ProtocolMismatchError,
  SuiteLoadError,
  SuiteTestFailure,
  registerSuite,
  type SuiteOptions,
} from "@mcptest/sdk";

import { BIN, CRATE, EVERYTHING, FAKE, FrameChecker, after, processState, test, withEnv } from "./harness.js";
import { type Outcome, Recorder } from "./recorder.js";

const checker = new FrameChecker();
after(() => assert.ok(checker.count > 0, "no frame was checked against the schema"));

/** registerSuite on the fake binary in `scenario`, with a recording framework. */
function fakeSuite(scenario: string, options: SuiteOptions = {}) {
  const recorder = new Recorder();
  const suite = withEnvSync({ FAKE_MCPTEST: scenario }, () =>
    registerSuite("evals", recorder.framework, { binary: FAKE, checkFrames: true, binaryCwd: "/tmp", ...options }),
  );
  return { recorder, suite };
}

function withEnvSync<T>(vars: Record<string, string>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

async function runAll(recorder: Recorder, scenario: string): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  await withEnv({ FAKE_MCPTEST: scenario }, async () => {
    for (const t of recorder.tests) outcomes.set(`${t.groups.join(" > ")} > ${t.name}`, await recorder.run(t));
  });
  return outcomes;
}

test("one test per listed test, named after it, in one describe per file", () => {
  const { recorder, suite } = fakeSuite("suite");
  assert.equal(suite.tests.length, 6);
  assert.deepEqual(
    recorder.tests.map((t) => [t.groups, t.name]),
    [
      [["evals/a.yaml"], "passes"],
      [["evals/a.yaml"], "fails"],
      [["evals/b.yaml"], "samples"],
      [["evals/b.yaml"], "elsewhere"],
      [["evals/b.yaml"], "off"],
      [["evals/b.yaml"], "later"],
    ],
  );
  assert.ok(recorder.tests.every((t) => t.timeout !== undefined && t.timeout > 120_000), "the framework's timeout outlasts the SDK's");
  assert.equal(recorder.afterHooks.length, 1, "the binary is shut down by the framework's after hook");
  const flat = new Recorder();
  withEnvSync({ FAKE_MCPTEST: "suite" }, () => registerSuite("evals", { test: flat.framework.test }, { binary: FAKE }));
  assert.deepEqual(
    flat.tests.map((t) => t.groups.length),
    [0, 0, 0, 0, 0, 0],
    "without describe, tests are flat",
  );
});

test("verdicts become passes, failures with the engine's text, and skips naming the command", async () => {
  const { recorder, suite } = fakeSuite("suite-no-sampling");
  try {
    const outcomes = await runAll(recorder, "suite-no-sampling");
    assert.deepEqual(outcomes.get("evals/a.yaml > passes"), { status: "pass" });
    const failed = outcomes.get("evals/a.yaml > fails");
    assert.equal(failed?.status, "fail");
    const error = (failed as { error: unknown }).error;
    assert.ok(error instanceof SuiteTestFailure, String(error));
    assert.equal(error.message, 'expected text to contain "Paris"\n  text: "London"\n    at evals/a.yaml:9:3');
    assert.equal(error.failure, 'expected text to contain "Paris"\n  text: "London"');
    assert.equal(error.location, "evals/a.yaml:9:3");
    assert.match(error.stack ?? "", /\n {4}at fails \(\/tmp\/evals\/a\.yaml:9:3\)$/);
    assert.deepEqual(outcomes.get("evals/b.yaml > samples"), {
      status: "skip",
      reason:
        "the `sampling` lane is not driven over the coprocess by this mcptest binary " +
        "(it drives tool, resources, prompts, completion, logging, notifications, trajectory, cases); " +
        "run it with: mcptest run evals/b.yaml",
    });
    assert.deepEqual(outcomes.get("evals/b.yaml > elsewhere"), {
      status: "skip",
      reason: "the `agents:` lane is not drivable over the coprocess; run it with: mcptest intercept --server CMD",
    });
    assert.deepEqual(outcomes.get("evals/b.yaml > off"), { status: "skip", reason: "skip: true in the file" });
    assert.deepEqual(outcomes.get("evals/b.yaml > later"), { status: "skip", reason: "MCPTEST_TOKEN is unset" });
  } finally {
    await recorder.finish();
  }
  assert.equal(suite.pid !== undefined, true);
  assert.equal(processState(suite.pid!), undefined, "the suite's binary left the process table after the hook");
});

test("one binary runs every test of a registerSuite", async () => {
  const { recorder, suite } = fakeSuite("suite");
  try {
    await withEnv({ FAKE_MCPTEST: "suite" }, async () => {
      await recorder.run(recorder.tests[0]!);
      const first = suite.pid;
      await recorder.run(recorder.tests[1]!);
      assert.equal(suite.pid, first);
    });
  } finally {
    await recorder.finish();
  }
});

test("a suite's default server at an SSE URL reaches suite.run with its credentials by name", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcptest-sdk-"));
  const log = join(dir, "log.jsonl");
  const env = { FAKE_MCPTEST: "suite", FAKE_MCPTEST_LOG: log };
  const recorder = new Recorder();
  withEnvSync(env, () =>
    registerSuite("evals", recorder.framework, {
      binary: FAKE,
      checkFrames: true,
      binaryCwd: "/tmp",
      server: { sse: "http://127.0.0.1:9/sse", bearerEnv: "MCP_TOKEN", headers: { "X-Api-Key": "${API_KEY}" } },
    }),
  );
  try {
    await withEnv(env, () => recorder.run(recorder.tests[0]!));
  } finally {
    await recorder.finish();
  }
  try {
    const runs = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { request?: string })
      .flatMap((entry) => (entry.request === undefined ? [] : [JSON.parse(entry.request) as { method: string; params: unknown }]))
      .filter((request) => request.method === "suite.run");
    assert.equal(runs.length, 1);
    assert.deepEqual((runs[0]!.params as { server: unknown }).server, {
      sse: "http://127.0.0.1:9/sse",
      headers: { "X-Api-Key": "${API_KEY}" },
      bearer_env: "MCP_TOKEN",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a file that does not load is a collection error naming file:line:column", () => {
  assert.throws(
    () => fakeSuite("load-error"),
    (e: unknown) => {
      assert.ok(e instanceof SuiteLoadError, String(e));
      assert.equal(e.file, "evals/broken.yaml");
      assert.equal(e.line, 3);
      assert.equal(e.column, 7);
      assert.equal(
        e.message,
        "the suite file did not load: evals/broken.yaml:3:7: unknown key `asert` (did you mean `assert`?)",
      );
      return true;
    },
  );
});

test("listing fails loudly on an unknown field, a mismatch, or nothing to run", () => {
  assert.throws(() => fakeSuite("listing-extra"), (e: unknown) => e instanceof FrameError && e.path === "$.result.tests[0].timeout_ms");
  assert.throws(() => fakeSuite("v1"), (e: unknown) => e instanceof ProtocolMismatchError && /speaks coprocess v1/.test(e.message));
  assert.throws(() => fakeSuite("suite", { filter: "zzz" }), /holds no suite test matching "zzz"/);
});

// The real binary and the project's corpora.

/** How the project's own tests run the corpora: fixture-everything rooted in a fresh fixture copy. */
const corpus = (): SuiteOptions => ({
  binary: BIN,
  checkFrames: true,
  onFrame: checker.tap,
  binaryCwd: CRATE,
  server: [EVERYTHING, "--root", "{{fixture}}"],
  fixture: "suites/fixtures",
});

test(
  "tests/suites/pass: every test passes (skips only where the file says so)",
  async () => {
    const recorder = new Recorder();
    const suite = registerSuite("suites/pass", recorder.framework, corpus());
    assert.ok(suite.tests.length >= 30, `only ${suite.tests.length} tests listed`);
    const outcomes: [string, Outcome][] = [];
    try {
      for (const t of recorder.tests) outcomes.push([`${t.groups.join(" > ")} > ${t.name}`, await recorder.run(t)]);
    } finally {
      await recorder.finish();
    }
    const failed = outcomes.filter(([, o]) => o.status === "fail");
    assert.deepEqual(
      failed.map(([name, o]) => `${name}: ${String((o as { error: unknown }).error)}`),
      [],
    );
    const skipped = outcomes.filter(([, o]) => o.status === "skip").map(([name]) => name);
    const expected = suite.tests
      .filter((t) => t.file.endsWith("/skip.yaml") || t.file.endsWith("/skip_unless_env.yaml") || !suite.binary.lanes.includes(t.lane))
      .map((t) => `${t.file} > ${t.name}`);
    assert.deepEqual(skipped.sort(), expected.sort());
    assert.ok(skipped.length >= 2 && skipped.length < outcomes.length / 4, `skipped: ${skipped.join(", ")}`);
  },
  300_000,
);

test("a real file that does not load: the loader's message, file, line and column", () => {
  assert.throws(
    () => registerSuite(["suites/pass/echo_text_checks.yaml", "suites/invalid/unknown_key.yaml"], new Recorder().framework, corpus()),
    (e: unknown) => {
      assert.ok(e instanceof SuiteLoadError, String(e));
      assert.equal(e.file, "suites/invalid/unknown_key.yaml");
      assert.equal(e.line, 6);
      assert.equal(e.column, 5);
      assert.match(e.message, /^the suite file did not load: suites\/invalid\/unknown_key\.yaml:6:5: unknown key `contians` in `expect`; did you mean `contains`\?/);
      return true;
    },
  );
});

test(
  "tests/suites/fail: every test fails, with the engine's failure text and location",
  async () => {
    const failures = new Map<string, { failure: string; location: string }>();
    const verdicts: FrameChecker["tap"] = (direction, frame) => {
      checker.tap(direction, frame);
      const result = (frame as { result?: { status?: string; id?: string; failure?: string; location?: string } }).result;
      if (direction === "receive" && result?.status === "fail") {
        failures.set(result.id!, { failure: result.failure!, location: result.location! });
      }
    };
    const recorder = new Recorder();
    const suite = registerSuite("suites/fail", recorder.framework, { ...corpus(), onFrame: verdicts });
    assert.ok(suite.tests.length >= 40, `only ${suite.tests.length} tests listed`);
    const problems: string[] = [];
    try {
      for (const [i, t] of recorder.tests.entries()) {
        const listed = suite.tests[i]!;
        const outcome = await recorder.run(t);
        if (outcome.status !== "fail") {
          problems.push(`${listed.file} > ${t.name}: ${outcome.status}`);
          continue;
        }
        const engine = failures.get(listed.id);
        if (!(outcome.error instanceof SuiteTestFailure) || engine === undefined) {
          problems.push(`${listed.file} > ${t.name}: ${String(outcome.error)}`);
          continue;
        }
        assert.ok(engine.failure.trim().length > 0, `${listed.id}: empty failure text`);
        // The engine's text opens with the location; the error's message is that text, verbatim.
        assert.ok(engine.failure.startsWith(`${engine.location}: \`${t.name}\` failed\n`), engine.failure);
        assert.equal(outcome.error.message, engine.failure);
        assert.ok(engine.location.startsWith(`${listed.file}:`), `${engine.location} is not in ${listed.file}`);
      }
    } finally {
      await recorder.finish();
    }
    assert.deepEqual(problems, []);
  },
  300_000,
);

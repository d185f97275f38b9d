#!/usr/bin/env node
/**
 * A fake mcptest binary for the failure paths: it speaks just enough of the
 * coprocess channel to misbehave the way `FAKE_MCPTEST` names (one scenario
 * per run), and appends its argv and every request line to `FAKE_MCPTEST_LOG`
 * when that is set.
 *
 * @module
 */

import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const scenario = process.env.FAKE_MCPTEST ?? "ok";
const log = process.env.FAKE_MCPTEST_LOG;
const note = (entry) => log && appendFileSync(log, `${JSON.stringify(entry)}\n`);
note({ argv: process.argv.slice(2), scenario, pid: process.pid });

if (scenario === "die-early") {
  process.stderr.write("fatal: the engine could not start\n");
  process.exit(3);
}
if (scenario === "stderr-flood") {
  // 8 MiB on stderr before anything else: a client that does not drain it deadlocks.
  const line = `${"x".repeat(1023)}\n`;
  for (let i = 0; i < 8 * 1024; i++) process.stderr.write(line);
  process.stderr.write("the last stderr line\n");
}

if (scenario === "usage") {
  // An older binary refusing the v3 command line, as clap reports it.
  process.stderr.write("error: unexpected argument '--check-frames' found\n\nUsage: mcptest exec [OPTIONS]\n");
  process.exit(2);
}

const LANES = ["tool", "resources", "prompts", "completion", "logging", "notifications", "trajectory", "cases"];
const HANDSHAKE = {
  protocol_version: 3,
  binary_version: "0.0.0-fake",
  methods: ["coprocess/handshake", "mcp.call", "suite.list", "suite.run", "mcp.shutdown"],
  lanes: LANES,
  features: ["argv", "suites"],
};
const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
const result = (id, value) => send({ jsonrpc: "2.0", id, result: value });
const error = (id, code, message, data) =>
  send({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });

const verdict = {
  success: true,
  text: "hi",
  data: null,
  error: null,
  duration_ms: 1,
  content: [{ type: "text", text: "hi" }],
  messages: [],
  logs: [],
};

const SUITE_TESTS = [
  { id: "evals/a.yaml::passes", name: "passes", file: "evals/a.yaml", line: 1, column: 1, lane: "tool", skip: null },
  { id: "evals/a.yaml::fails", name: "fails", file: "evals/a.yaml", line: 9, column: 3, lane: "tool", skip: null },
  { id: "evals/b.yaml::samples", name: "samples", file: "evals/b.yaml", line: 2, column: 1, lane: "sampling", skip: null },
  {
    id: "evals/b.yaml::elsewhere",
    name: "elsewhere",
    file: "evals/b.yaml",
    line: 12,
    column: 1,
    lane: "tool",
    skip: { reason: "the `agents:` lane is not drivable over the coprocess", command: "mcptest intercept --server CMD" },
  },
  { id: "evals/b.yaml::off", name: "off", file: "evals/b.yaml", line: 20, column: 1, lane: "tool", skip: { reason: "skip: true in the file" } },
  { id: "evals/b.yaml::later", name: "later", file: "evals/b.yaml", line: 30, column: 1, lane: "tool", skip: null },
];

function runVerdict(id) {
  const test = SUITE_TESTS.find((t) => t.id === id);
  const base = { id, name: test?.name ?? "?", duration_ms: 2, location: `${test?.file}:${test?.line}:${test?.column}`, properties: {} };
  if (id.endsWith("::fails")) {
    return { ...base, status: "fail", failure: "expected text to contain \"Paris\"\n  text: \"London\"", skip_reason: null };
  }
  if (id.endsWith("::later")) return { ...base, status: "skip", failure: null, skip_reason: "MCPTEST_TOKEN is unset" };
  return { ...base, status: "pass", failure: null, skip_reason: null };
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  note({ request: line });
  const { id, method, params } = JSON.parse(line);
  if (method === "coprocess/handshake") {
    switch (scenario) {
      case "v1":
        return error(id, -32601, "unknown method `coprocess/handshake`");
      case "v2":
        return error(
          id,
          -32602,
          `coprocess protocol version mismatch: this mcptest binary speaks v2, the ${params.sdk} SDK sent v${params.protocol_version}. Upgrade the mcptest binary (or pin the SDK to the matching release).`,
          { binary: 2, sdk: params.protocol_version },
        );
      case "v4":
        return error(
          id,
          -32602,
          `coprocess protocol version mismatch: this mcptest binary speaks v4 to v5, the ${params.sdk} SDK sent v${params.protocol_version}. Upgrade the ${params.sdk} SDK (or pin the mcptest binary to the matching release).`,
          { binary: [4, 5], sdk: params.protocol_version },
        );
      case "answers-v4":
        return result(id, { ...HANDSHAKE, protocol_version: 4 });
      case "handshake-extra":
        return result(id, { ...HANDSHAKE, color: "red" });
      case "hang-handshake":
        return undefined;
      case "suite-no-sampling":
        return result(id, { ...HANDSHAKE, lanes: LANES.filter((l) => l !== "sampling") });
      default:
        return result(id, HANDSHAKE);
    }
  }
  if (method === "mcp.shutdown") {
    result(id, {});
    return process.exit(0);
  }
  switch (scenario) {
    case "hang":
      return undefined;
    case "exit":
      process.stderr.write("fatal: the engine fell over\n");
      return process.exit(3);
    case "verdict-extra":
      return result(id, { ...verdict, confidence: 0.9 });
    case "envelope-extra":
      return send({ jsonrpc: "2.0", id, result: verdict, trace: "abc" });
    case "message-extra":
      return result(id, { ...verdict, messages: [{ method: "notifications/progress", params: {}, seq: 1 }] });
    case "not-json":
      return process.stdout.write("this is not json\n");
    case "wrong-id":
      return result(id + 100, verdict);
    case "listing-extra":
      return result(id, { tests: [{ ...SUITE_TESTS[0], timeout_ms: 100 }] });
    case "load-error":
      return error(id, -32602, "evals/broken.yaml:3:7: unknown key `asert` (did you mean `assert`?)", {
        file: "evals/broken.yaml",
        line: 3,
        column: 7,
      });
    default:
      break;
  }
  if (method === "suite.list") {
    return result(id, { tests: SUITE_TESTS.filter((t) => params.filter === undefined || t.name.includes(params.filter)) });
  }
  if (method === "suite.run") return result(id, runVerdict(params.id));
  if (method === "mcp.call") return result(id, verdict);
  return error(id, -32601, `unknown method \`${method}\``);
});
lines.on("close", () => process.exit(0));

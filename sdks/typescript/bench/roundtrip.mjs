/**
 * Measures one `mcp.call` round trip through the SDK: `echo` on
 * fixture-everything, a warm-up, then N sequential calls; prints the mean,
 * median and 99th percentile. Run after `npm run build`:
 *
 *   MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/fixtures node bench/roundtrip.mjs [N]
 *
 * Not part of the test run.
 *
 * @module
 */

import { join } from "node:path";

import { McpClient } from "../dist/index.js";

const calls = Number(process.argv[2] ?? 2000);
const warmup = 200;
const bin = process.env.MCPTEST_BIN;
const fixtures = process.env.MCPTEST_FIXTURES;
if (!bin || !fixtures) {
  console.error("set MCPTEST_BIN and MCPTEST_FIXTURES");
  process.exit(2);
}
const checkFrames = process.env.MCPTEST_CHECK_FRAMES === "1";

const mcp = await McpClient.start({ binary: bin, argv: [join(fixtures, "fixture-everything")], checkFrames });
try {
  for (let i = 0; i < warmup; i++) await mcp.call("echo", { message: "warm" });
  const times = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    const v = await mcp.call("echo", { message: "ping" });
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
    if (v.text !== "ping") throw new Error(`unexpected answer ${v.text}`);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(
    `mcp.call echo round trip over ${calls} calls (after ${warmup} warm-up, check-frames ${checkFrames ? "on" : "off"}): ` +
      `mean ${mean.toFixed(1)} µs, median ${at(0.5).toFixed(1)} µs, p99 ${at(0.99).toFixed(1)} µs`,
  );
} finally {
  await mcp.close();
}

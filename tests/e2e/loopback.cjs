// Preloaded into a Node MCP server (`node --require loopback.cjs ...`) for
// mcptest's e2e tests: every server socket it opens listens on 127.0.0.1
// only, whatever host the server asks for, and stdout carries exactly one
// line, `listening on http://127.0.0.1:<port>/mcp`, once the first one
// listens (everything else the server prints goes to stderr). With PORT=0
// the OS picks the port.
"use strict";
const net = require("net");

const stdoutWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);

let announced = false;
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const callback = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
  let options;
  if (args.length > 0 && typeof args[0] === "object" && args[0] !== null) {
    options = { ...args[0], host: "127.0.0.1" };
  } else {
    options = { port: args.length > 0 ? Number(args[0]) || 0 : 0, host: "127.0.0.1" };
  }
  this.once("listening", () => {
    const address = this.address();
    if (!announced && address && typeof address === "object") {
      announced = true;
      stdoutWrite(`listening on http://127.0.0.1:${address.port}/mcp\n`);
    }
  });
  return callback ? listen.call(this, options, callback) : listen.call(this, options);
};

// Stop when stdin ends, as the test harness closes it to stop a server.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

#!/usr/bin/env node
// An mcptest check plugin in Node: `words_at_most` passes when the text of a
// tool result has at most `args.max` words, `words_at_least` when it has at
// least `args.min`. A check plugin receives {result, request, args} and
// answers {pass, message, actual}.
"use strict";

const readline = require("node:readline");

function text(result) {
  const content = (result && Array.isArray(result.content)) ? result.content : [];
  return content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

function countWords(params) {
  const words = text(params.result).split(/\s+/).filter((w) => w.length > 0);
  return words.length;
}

const methods = {
  words_at_most(params) {
    const n = countWords(params);
    const max = params.args.max;
    return { pass: n <= max, message: `${n} words, at most ${max} allowed`, actual: n };
  },
  words_at_least(params) {
    const n = countWords(params);
    const min = params.args.min;
    return { pass: n >= min, message: `${n} words, at least ${min} required`, actual: n };
  },
};

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    process.stdout.write(JSON.stringify({ id: null, error: { code: -32700, message: String(error) } }) + "\n");
    return;
  }
  const method = methods[request.method];
  let answer;
  if (!method) {
    answer = { id: request.id, error: { code: -32601, message: `method not found: ${request.method}` } };
  } else if (!request.params || typeof request.params.args !== "object" || request.params.args === null) {
    answer = { id: request.id, error: { code: -32602, message: "params.args is required" } };
  } else {
    answer = { id: request.id, result: method(request.params) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});

/**
 * vitest's configuration: the shared test files plus the vitest-only ones
 * (test/node holds node:test-only files; test/child is run by a test).
 *
 * @module
 */

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/node/**", "test/child/**", "node_modules/**", "dist/**", "dist-test/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});

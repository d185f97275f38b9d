/**
 * vitest's configuration for the child corpus alone.
 *
 * @module
 */

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/child/*.vitest.test.ts"],
    testTimeout: 60_000,
  },
});

/**
 * The child corpus under vitest (run by test/frameworks.test.ts).
 *
 * @module
 */

import { afterAll, describe, test } from "vitest";

import { registerCorpus } from "./corpus.js";

registerCorpus({ test, describe, afterAll });

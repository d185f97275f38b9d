/**
 * The child corpus under node:test (run by test/frameworks.test.ts).
 *
 * @module
 */

import { after, describe, test } from "node:test";

import { registerCorpus } from "./corpus.js";

registerCorpus({ test, describe, after });

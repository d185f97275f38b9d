/**
 * A test framework that records what `registerSuite` registers and runs
 * the bodies on demand, so a test can check names, grouping, skips and
 * failures exactly, including a corpus where every test fails.
 *
 * @module
 */

import type { SkipContext, TestFramework } from "@mcptest/sdk";

/** One registered test. */
export interface Registered {
  readonly name: string;
  /** The describe blocks around it, outermost first. */
  readonly groups: readonly string[];
  readonly timeout: number | undefined;
  readonly fn: (context: SkipContext) => Promise<void>;
}

/** How a recorded test ended. */
export type Outcome = { status: "pass" } | { status: "skip"; reason: string } | { status: "fail"; error: unknown };

/** A framework that records, and runs the recorded tests. */
export class Recorder {
  readonly tests: Registered[] = [];
  readonly afterHooks: (() => Promise<void>)[] = [];
  private readonly groups: string[] = [];

  readonly framework: TestFramework & { describe: NonNullable<TestFramework["describe"]> } = {
    test: (name, options, fn) => {
      this.tests.push({ name, groups: [...this.groups], timeout: options.timeout, fn });
    },
    describe: (name, fn) => {
      this.groups.push(name);
      try {
        fn();
      } finally {
        this.groups.pop();
      }
    },
    after: (fn) => {
      this.afterHooks.push(fn);
    },
  };

  /** Runs one recorded test as a framework would. */
  async run(test: Registered): Promise<Outcome> {
    let skipped: string | undefined;
    const context: SkipContext = {
      skip: (reason?: string) => {
        skipped = reason ?? "";
      },
    };
    try {
      await test.fn(context);
    } catch (error) {
      return { status: "fail", error };
    }
    return skipped === undefined ? { status: "pass" } : { status: "skip", reason: skipped };
  }

  /** Runs the `after` hooks, as a framework does when the file's tests are done. */
  async finish(): Promise<void> {
    for (const hook of this.afterHooks) await hook();
  }
}

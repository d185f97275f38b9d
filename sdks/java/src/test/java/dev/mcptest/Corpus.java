/*
 * Corpus: how the repository's suite corpora run (tests/suites, as the Rust integration
 * tests run them): fixture-everything rooted in a fresh copy of suites/fixtures, the binary in
 * tests/.
 */
package dev.mcptest;

import java.nio.file.Path;

/** Suite options for the repository's corpora. */
final class Corpus {
    private Corpus() {}

    /** Where failing tests keep their fixture copies (removed by the tests that fail them). */
    static Path kept() {
        return TestBed.scratch("kept");
    }

    /** The options every corpus run uses. */
    static SuiteOptions options() {
        Path tests = TestBed.repo().resolve("tests");
        return SuiteOptions.defaults()
                .fixture(tests.resolve("suites/fixtures"))
                .server(TestBed.fixture("fixture-everything", "--root", "{{fixture}}"))
                .client(TestBed.options()
                        .cwd(tests)
                        // server_env_go_forms.yaml expands it, as cargo sets it for the Rust run.
                        .env("CARGO_PKG_NAME", "mcptest-tests")
                        .env("MCPTEST_KEPT_DIR", kept().toString())
                        // The engine's snapshots were taken with fresh copies in /tmp, and one
                        // counts the bytes of the copy's path; the binary removes those copies.
                        .env("TMPDIR", "/tmp"));
    }
}

/*
 * SuiteTest: one test of a suite file, as the binary lists it (suite.list).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * One test of a suite file, as the binary lists it. The SDK never reads the file itself.
 *
 * <pre>{@code
 * List<SuiteTest> tests = client.listSuite(List.of("tests/evals"), null);
 * SuiteTest first = tests.get(0);   // first.file() + ":" + first.line()
 * }</pre>
 *
 * @param id the test's id, opaque (give it back to {@code suite.run} as it is)
 * @param name the test's name
 * @param file the file it is in, as the binary names it (relative to the binary's directory)
 * @param line the 1-based line where it starts
 * @param column the 1-based column where it starts
 * @param lane the kind of test, such as {@code tool} or {@code prompts}
 * @param skip why it will not run here, or {@code null}
 */
public record SuiteTest(
        @JsonProperty(value = "id", required = true) String id,
        @JsonProperty(value = "name", required = true) String name,
        @JsonProperty(value = "file", required = true) String file,
        @JsonProperty(value = "line", required = true) int line,
        @JsonProperty(value = "column", required = true) int column,
        @JsonProperty(value = "lane", required = true) String lane,
        @JsonProperty(value = "skip", required = true) Skip skip) {
    /** Checks the required members. */
    public SuiteTest {
        Objects.requireNonNull(id, "id is null");
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(file, "file is null");
        Objects.requireNonNull(lane, "lane is null");
    }

    /**
     * Why a test will not run here, and the command that runs it when there is one.
     *
     * <pre>{@code assertEquals("mcptest audit --server CMD", test.skip().command()); }</pre>
     *
     * @param reason why it is skipped
     * @param command the CLI command that runs it, or {@code null}
     */
    public record Skip(
            @JsonProperty(value = "reason", required = true) String reason,
            @JsonProperty("command") String command) {
        /** Checks the reason. */
        public Skip {
            Objects.requireNonNull(reason, "reason is null");
        }
    }
}

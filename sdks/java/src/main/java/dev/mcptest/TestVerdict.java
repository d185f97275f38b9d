/*
 * TestVerdict: the outcome of one suite test (suite.run).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The outcome of one suite test, as the binary's runner reached it: the same verdict and
 * failure text as {@code mcptest run}.
 *
 * <pre>{@code
 * TestVerdict v = client.runSuiteTest(test.id(), SuiteRun.defaults());
 * assertEquals(TestVerdict.Status.PASS, v.status(), v.failure());
 * }</pre>
 *
 * @param id the test's id
 * @param name the test's name
 * @param status pass, fail or skip
 * @param durationMs how long it took, in milliseconds
 * @param location where it is, as {@code file:line:column}
 * @param failure the runner's failure text for a failed test, else {@code null}
 * @param skipReason why it was skipped, else {@code null}
 * @param properties what the runner reports beside the verdict (an object)
 */
public record TestVerdict(
        @JsonProperty(value = "id", required = true) String id,
        @JsonProperty(value = "name", required = true) String name,
        @JsonProperty(value = "status", required = true) Status status,
        @JsonProperty(value = "duration_ms", required = true) long durationMs,
        @JsonProperty(value = "location", required = true) String location,
        @JsonProperty(value = "failure", required = true) String failure,
        @JsonProperty(value = "skip_reason", required = true) String skipReason,
        @JsonProperty(value = "properties", required = true) JsonNode properties) {
    /** Checks the required members. */
    public TestVerdict {
        Objects.requireNonNull(id, "id is null");
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(status, "status is null");
        Objects.requireNonNull(location, "location is null");
        Objects.requireNonNull(properties, "properties is missing");
    }

    /**
     * A suite test's status.
     *
     * <pre>{@code if (v.status() == TestVerdict.Status.FAIL) fail(v.failure()); }</pre>
     */
    public enum Status {
        /** The test passed. */
        @JsonProperty("pass")
        PASS,
        /** The test failed: {@link TestVerdict#failure()} says how. */
        @JsonProperty("fail")
        FAIL,
        /** The test did not run: {@link TestVerdict#skipReason()} says why. */
        @JsonProperty("skip")
        SKIP
    }
}

/*
 * SuiteOptions: how suite files are listed and run (McpSuite, McpClient.runSuiteTest).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How suite files are listed and run. Immutable; every {@code with} method returns a new value.
 *
 * <pre>{@code
 * SuiteOptions options = SuiteOptions.defaults()
 *         .fixture(Path.of("tests/fixtures"))
 *         .server(Server.argv("python3", "server.py", "--root", "{{fixture}}"));
 * }</pre>
 *
 * @param fixture the directory copied afresh for each test ({@code mcptest run --fixture}), or
 *     {@code null}
 * @param server the server of files that name none, or {@code null}
 * @param timeout the limit of one test (sent as {@code timeout_ms}), or {@code null} for the
 *     runner's default; the SDK waits this plus the client's margin, or {@link #DEFAULT_WAIT}
 * @param wireSchema what a server message that breaks the MCP schema does: {@code fail},
 *     {@code warn} or {@code off}; {@code null} for the runner's default
 * @param filter only tests whose name or file contains this text, or {@code null} for all
 * @param client how the binary is started (its {@code cwd} is where suite paths resolve)
 */
public record SuiteOptions(Path fixture, Server server, Duration timeout, String wireSchema,
        String filter, ClientOptions client) {
    /** How long the SDK waits for one test when no {@link #timeout} is set. */
    public static final Duration DEFAULT_WAIT = Duration.ofMinutes(5);

    private static final Set<String> WIRE_SCHEMA = Set.of("fail", "warn", "off");

    /** Checks the wire-schema mode and the client options. */
    public SuiteOptions {
        Objects.requireNonNull(client, "client");
        if (wireSchema != null && !WIRE_SCHEMA.contains(wireSchema)) {
            throw new IllegalArgumentException(
                    "wireSchema is fail, warn or off, not \"" + wireSchema + "\"");
        }
        if (timeout != null && (timeout.isNegative() || timeout.toMillis() == 0)) {
            throw new IllegalArgumentException("a test timeout is at least 1 ms, not " + timeout);
        }
    }

    /**
     * No fixture, no default server, the runner's timeouts, every test, the default client.
     *
     * <pre>{@code SuiteOptions options = SuiteOptions.defaults(); }</pre>
     *
     * @return the defaults
     */
    public static SuiteOptions defaults() {
        return new SuiteOptions(null, null, null, null, null, ClientOptions.defaults());
    }

    /**
     * These options with a fixture directory, copied afresh for each test.
     *
     * <pre>{@code SuiteOptions.defaults().fixture(Path.of("tests/fixtures")) }</pre>
     *
     * @param dir the directory
     * @return the new options
     */
    public SuiteOptions fixture(Path dir) {
        return new SuiteOptions(dir, server, timeout, wireSchema, filter, client);
    }

    /**
     * These options with a server for the files that name none ({@code {{fixture}}} in its
     * argv stands for the test's fixture copy).
     *
     * <pre>{@code SuiteOptions.defaults().server(Server.argv("my-server", "--stdio")) }</pre>
     *
     * @param defaultServer the server
     * @return the new options
     */
    public SuiteOptions server(Server defaultServer) {
        return new SuiteOptions(fixture, defaultServer, timeout, wireSchema, filter, client);
    }

    /**
     * These options with a limit for each test.
     *
     * <pre>{@code SuiteOptions.defaults().timeout(Duration.ofSeconds(10)) }</pre>
     *
     * @param limit the limit
     * @return the new options
     */
    public SuiteOptions timeout(Duration limit) {
        return new SuiteOptions(fixture, server, limit, wireSchema, filter, client);
    }

    /**
     * These options with a wire-schema mode: {@code fail}, {@code warn} or {@code off}.
     *
     * <pre>{@code SuiteOptions.defaults().wireSchema("warn") }</pre>
     *
     * @param mode the mode
     * @return the new options
     */
    public SuiteOptions wireSchema(String mode) {
        return new SuiteOptions(fixture, server, timeout, mode, filter, client);
    }

    /**
     * These options listing only the tests whose name or file contains {@code text}.
     *
     * <pre>{@code SuiteOptions.defaults().filter("echo") }</pre>
     *
     * @param text the text
     * @return the new options
     */
    public SuiteOptions filter(String text) {
        return new SuiteOptions(fixture, server, timeout, wireSchema, text, client);
    }

    /**
     * These options with other client options (binary, cwd, frame checks).
     *
     * <pre>{@code SuiteOptions.defaults().client(ClientOptions.defaults().cwd(Path.of("tests"))) }</pre>
     *
     * @param options the client options
     * @return the new options
     */
    public SuiteOptions client(ClientOptions options) {
        return new SuiteOptions(fixture, server, timeout, wireSchema, filter, options);
    }

    /** The params of {@code suite.run} for test {@code id}. */
    ObjectNode runParams(String id) {
        ObjectNode params = Frames.object();
        params.put("id", id);
        if (fixture != null) {
            params.put("fixture", fixture.toString());
        }
        if (server != null) {
            params.set("server", server.param());
        }
        if (timeout != null) {
            params.put("timeout_ms", timeout.toMillis());
        }
        if (wireSchema != null) {
            params.put("wire_schema", wireSchema);
        }
        return params;
    }

    /** How long the SDK waits for one {@code suite.run}. */
    Duration runWait() {
        return timeout == null ? DEFAULT_WAIT : timeout.plus(client.margin());
    }
}

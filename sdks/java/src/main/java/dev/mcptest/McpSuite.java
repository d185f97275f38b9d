/*
 * McpSuite: suite files as JUnit 5 dynamic tests, listed and run by the binary.
 */
package dev.mcptest;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Turns suite files (mcp-assert and MCP Cases YAML) into JUnit 5 dynamic tests. The binary
 * lists the tests ({@code suite.list}) and runs each one ({@code suite.run}) through the runner
 * behind {@code mcptest run}; the SDK never reads the files. Each test becomes one
 * {@link DynamicTest} named after it and located at its file:line (grouped in one container per
 * file); a failure is an {@link AssertionFailedError} carrying the runner's failure text; a
 * skipped test, or one of a lane this channel does not drive, is aborted with the reason and the
 * command that runs it. One binary serves the whole stream and is shut down when JUnit closes
 * it.
 *
 * <pre>{@code
 * class EvalsTest {
 *     @TestFactory
 *     Stream<DynamicNode> evals() {
 *         return McpSuite.tests(List.of("tests/evals"), SuiteOptions.defaults()
 *                 .fixture(Path.of("tests/fixtures"))
 *                 .server(Server.argv("python3", "server.py", "--root", "{{fixture}}")));
 *     }
 * }
 * }</pre>
 */
public final class McpSuite {
    private McpSuite() {}

    /**
     * The tests of suite files, with the default options.
     *
     * <pre>{@code @TestFactory Stream<DynamicNode> evals() { return McpSuite.tests("tests/evals"); } }</pre>
     *
     * @param paths files or directories (every .yaml/.yml below)
     * @return one container per file, holding one dynamic test per test
     */
    public static Stream<DynamicNode> tests(String... paths) {
        return tests(List.of(paths), SuiteOptions.defaults());
    }

    /**
     * The tests of suite files.
     *
     * <pre>{@code
     * return McpSuite.tests(List.of("tests/evals"),
     *         SuiteOptions.defaults().fixture(Path.of("tests/fixtures")));
     * }</pre>
     *
     * @param paths files or directories (every .yaml/.yml below), relative to the binary's
     *     working directory ({@code options.client().cwd()}, by default this process's)
     * @param options the fixture, default server, timeouts, filter and client options
     * @return one container per file, holding one dynamic test per test; a file that does not
     *     load is one failing test located at the problem
     * @throws BinaryNotFoundException when there is no binary to start
     * @throws ProtocolMismatchException when the binary speaks another protocol version
     */
    public static Stream<DynamicNode> tests(List<String> paths, SuiteOptions options) {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("McpSuite.tests needs at least one path");
        }
        Path base = (options.client().cwd() == null ? Path.of("") : options.client().cwd())
                .toAbsolutePath();
        McpClient session = McpClient.start(options.client());
        List<SuiteTest> tests;
        try {
            tests = session.listSuite(paths, options.filter());
        } catch (SuiteLoadException e) {
            session.close();
            String at = e.file() + (e.line().isPresent() ? ":" + e.line().getAsInt() : "");
            return Stream.of(DynamicTest.dynamicTest("does not load: " + at,
                    location(base, e.file(), e.line().orElse(0), e.column().orElse(0)),
                    () -> {
                        throw e;
                    }));
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        if (tests.isEmpty()) {
            session.close();
            // A suite that lists nothing must not pass as if it had checked something.
            return Stream.of(DynamicTest.dynamicTest("no tests in " + paths, () -> {
                throw new AssertionFailedError("the binary lists no tests in " + paths
                        + (options.filter() == null ? "" : " matching `" + options.filter() + "`")
                        + " (relative to " + base + ")");
            }));
        }
        Set<String> lanes = Set.copyOf(session.handshake().lanes());
        Map<String, List<SuiteTest>> byFile = new LinkedHashMap<>();
        for (SuiteTest test : tests) {
            byFile.computeIfAbsent(test.file(), f -> new java.util.ArrayList<>()).add(test);
        }
        Stream<DynamicNode> nodes = byFile.entrySet().stream().map(file ->
                DynamicContainer.dynamicContainer(file.getKey(), location(base, file.getKey(), 0, 0),
                        file.getValue().stream().map(test -> DynamicTest.dynamicTest(test.name(),
                                location(base, test.file(), test.line(), test.column()),
                                () -> run(session, test, lanes, options)))));
        return nodes.onClose(session::close);
    }

    /** Runs one test; returns on a pass, throws what JUnit reads as a failure or an abort. */
    static void run(McpClient session, SuiteTest test, Set<String> lanes, SuiteOptions options) {
        if (test.skip() != null) {
            throw new TestAbortedException(skipText(test.skip().reason(), test.skip().command()));
        }
        if (!lanes.contains(test.lane())) {
            throw new TestAbortedException(skipText("this mcptest binary does not drive the `"
                    + test.lane() + "` lane over the coprocess channel", "mcptest run "
                    + test.file()));
        }
        TestVerdict verdict = session.runSuiteTest(test.id(), options);
        switch (verdict.status()) {
            case PASS:
                return;
            case FAIL:
                throw new AssertionFailedError(verdict.failure() != null
                        ? verdict.failure()
                        : "`" + test.name() + "` failed (" + verdict.location()
                                + "), and the binary gave no failure text");
            case SKIP:
                throw new TestAbortedException("skipped: " + (verdict.skipReason() != null
                        ? verdict.skipReason()
                        : "the binary gave no reason"));
            default:
                throw new IllegalStateException("unknown status " + verdict.status());
        }
    }

    private static String skipText(String reason, String command) {
        return "skipped: " + reason + (command == null ? "" : " (run it with: " + command + ")");
    }

    /** A file URI JUnit reads as a FileSource, with the position when there is one. */
    static URI location(Path base, String file, int line, int column) {
        URI uri = base.resolve(file).normalize().toUri();
        if (line <= 0) {
            return uri;
        }
        return URI.create(uri + "?line=" + line + (column > 0 ? "&column=" + column : ""));
    }
}

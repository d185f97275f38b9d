/*
 * ExtensionTest: the JUnit extension as JUnit runs it: one client per test, closed after it
 * whatever the outcome, clear errors for a missing or malformed @McpServer, the stderr tail on
 * failures, @McpTest and @Nested classes.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.engine.TestExecutionResult.Status;

class ExtensionTest {
    /** Three tests, two of which fail; each records its binary's pid. */
    @Tag("launched")
    @McpServer(argv = {"fixture-everything"})
    static class Lifecycle {
        static final List<Long> PIDS = Collections.synchronizedList(new ArrayList<>());

        @Test
        void passes(McpClient client) {
            PIDS.add(client.pid());
            assertEquals("hi", client.call("echo", Map.of("message", "hi")).text());
        }

        @Test
        void fails_an_assertion(McpClient client) {
            PIDS.add(client.pid());
            client.call("echo", Map.of("message", "hi"));
            fail("on purpose");
        }

        @Test
        void throws_an_upstream_error(McpClient client) {
            PIDS.add(client.pid());
            client.call("rpc_error");
        }
    }

    @Test
    void each_test_gets_its_own_client_and_every_binary_is_gone_after_it() {
        Lifecycle.PIDS.clear();
        var outcomes = Launch.run(Lifecycle.class);
        assertEquals(Status.SUCCESSFUL, Launch.test(outcomes, "passes(McpClient)").status());
        Launch.Outcome failed = Launch.test(outcomes, "fails_an_assertion(McpClient)");
        assertEquals(Status.FAILED, failed.status());
        assertEquals("on purpose", failed.message());
        Launch.Outcome upstream = Launch.test(outcomes, "throws_an_upstream_error(McpClient)");
        assertEquals(Status.FAILED, upstream.status());
        assertInstanceOf(UpstreamException.class, upstream.thrown());
        assertEquals(3, Lifecycle.PIDS.size());
        assertEquals(3, Lifecycle.PIDS.stream().distinct().count(), "one binary per test");
        for (long pid : Lifecycle.PIDS) {
            assertTrue(TestBed.gone(pid, Duration.ofSeconds(5)), "binary " + pid + " still runs");
        }
    }

    @Tag("launched")
    @ExtendWith(McpExtension.class)
    static class NoServer {
        @Test
        void needs_a_server(McpClient client) {
            client.initialize();
        }
    }

    @Test
    void a_client_without_mcp_server_is_a_resolution_error_saying_what_to_write() {
        var outcomes = Launch.run(NoServer.class);
        Launch.Outcome o = Launch.test(outcomes, "needs_a_server(McpClient)");
        assertEquals(Status.FAILED, o.status());
        assertInstanceOf(ParameterResolutionException.class, o.thrown());
        assertTrue(o.message().contains("an McpClient parameter needs a server: annotate the test"
                + " method dev.mcptest.ExtensionTest$NoServer#needs_a_server or its class with"
                + " @McpServer(argv = {\"program\", \"arg\"})"), o.message());
    }

    @Tag("launched")
    static class Malformed {
        @Test
        @McpServer(argv = {"fixture-everything"}, url = "http://127.0.0.1:9/mcp")
        void both(McpClient client) {
            client.initialize();
        }

        @Test
        @McpServer(argv = {"fixture-everything"}, env = {"NO_EQUALS_SIGN"})
        void bad_env(McpClient client) {
            client.initialize();
        }
    }

    @Test
    void a_malformed_annotation_names_the_problem() {
        var outcomes = Launch.run(Malformed.class);
        Launch.Outcome both = Launch.test(outcomes, "both(McpClient)");
        assertInstanceOf(ParameterResolutionException.class, both.thrown());
        assertTrue(both.message().contains("names both argv and url: give exactly one"),
                both.message());
        Launch.Outcome env = Launch.test(outcomes, "bad_env(McpClient)");
        assertInstanceOf(ParameterResolutionException.class, env.thrown());
        assertTrue(env.message().contains("an environment entry is KEY=VALUE, not"
                + " \"NO_EQUALS_SIGN\""), env.message());
    }

    @Tag("launched")
    static class Composed {
        @McpTest
        @McpServer(argv = {"fixture-everything"})
        void with_mcp_test(McpClient client) {
            assertEquals("5", client.call("add", Map.of("a", 2, "b", 3)).text());
        }
    }

    @Tag("launched")
    @McpServer(argv = {"fixture-everything"})
    static class Outer {
        @Nested
        class Inner {
            @Test
            void inherits_the_enclosing_server(McpClient client) {
                assertEquals("fixture-everything", client.initialize().serverInfo().name());
            }
        }
    }

    @Test
    void mcp_test_and_nested_classes_get_a_client() {
        var outcomes = Launch.run(Composed.class, Outer.class);
        Launch.Outcome composed = Launch.test(outcomes, "with_mcp_test(McpClient)");
        assertEquals(Status.SUCCESSFUL, composed.status(), composed.message());
        Launch.Outcome nested = Launch.test(outcomes, "inherits_the_enclosing_server(McpClient)");
        assertEquals(Status.SUCCESSFUL, nested.status(), nested.message());
    }

    @Tag("launched")
    @McpServer(argv = {"fixture-everything"})
    static class FailsWithStderr {
        @Test
        void fails(McpClient client) throws InterruptedException {
            // stderr is drained on its own thread: let it catch up with what the fake wrote.
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (client.stderrTail().isBlank() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            fail("on purpose, with the binary's stderr attached");
        }
    }

    @Test
    void a_failing_test_carries_the_binarys_stderr_tail() {
        // The fake (mode "ok") says which mode it is in on stderr.
        var outcomes = Launch.run(Map.of(McpExtension.BIN_PARAMETER, TestBed.fake().toString(),
                McpExtension.CHECK_FRAMES_PARAMETER, "true"), FailsWithStderr.class);
        Launch.Outcome o = Launch.test(outcomes, "fails(McpClient)");
        assertEquals(Status.FAILED, o.status());
        Throwable[] suppressed = o.thrown().getSuppressed();
        assertEquals(1, suppressed.length);
        assertEquals("mcptest stderr (last lines):\nfake mcptest: mode ok",
                suppressed[0].getMessage());
    }
}

/*
 * TimeoutTest: a binary that never answers fails the test with a message in bounded time, and
 * is gone afterwards; a server that hangs is the binary's -32603 and the session goes on.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeoutTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void a_binary_that_never_answers_the_handshake_fails_the_start() {
        BinaryTimeoutException e = assertTimeoutPreemptively(BOUND, () -> assertThrows(
                BinaryTimeoutException.class,
                () -> McpClient.start(TestBed.fake("silent")
                        .startTimeout(Duration.ofMillis(1500)))));
        assertEquals("coprocess/handshake", e.method());
        assertTrue(e.getMessage().startsWith("mcptest did not answer the handshake"),
                e.getMessage());
        assertTrue(TestBed.gone(e.pid(), Duration.ofSeconds(5)), "the silent fake still runs");
    }

    @Test
    void a_binary_that_stops_answering_fails_the_call_and_the_client_is_closed() {
        ClientOptions options = TestBed.fake("silent-after-handshake")
                .callTimeout(Duration.ofMillis(300))
                .margin(Duration.ofMillis(300));
        McpClient client = McpClient.start(TestBed.fixture("fixture-everything"), options);
        long pid = client.pid();
        BinaryTimeoutException e = assertTimeoutPreemptively(BOUND,
                () -> assertThrows(BinaryTimeoutException.class, () -> client.call("echo")));
        assertEquals("mcp.call", e.method());
        assertEquals(Duration.ofMillis(600), e.waited());
        assertTrue(e.getMessage().contains("within 600 ms"), e.getMessage());
        assertTrue(TestBed.gone(pid, Duration.ofSeconds(5)), "the fake still runs");
        client.close();
    }

    @Test
    void a_binary_that_stops_reading_cannot_block_a_large_request() {
        ClientOptions options = TestBed.fake("no-read")
                .callTimeout(Duration.ofMillis(300))
                .margin(Duration.ofMillis(300));
        McpClient client = McpClient.start(TestBed.fixture("fixture-everything"), options);
        // Far bigger than a pipe buffer: writing it blocks for as long as nobody reads.
        String big = "x".repeat(4 * 1024 * 1024);
        assertTimeoutPreemptively(BOUND, () -> assertThrows(BinaryTimeoutException.class,
                () -> client.call("echo", Map.of("message", big))));
        assertTrue(TestBed.gone(client.pid(), Duration.ofSeconds(5)), "the fake still runs");
        client.close();
    }

    @Test
    void an_interrupted_wait_stops_the_binary() throws Exception {
        McpClient client = McpClient.start(TestBed.fixture("fixture-everything"),
                TestBed.fake("silent-after-handshake").callTimeout(Duration.ofSeconds(60)));
        var thrown = new java.util.concurrent.atomic.AtomicReference<Throwable>();
        Thread caller = new Thread(() -> {
            try {
                client.call("echo");
            } catch (RuntimeException e) {
                thrown.set(e);
            }
        });
        caller.start();
        Thread.sleep(300);
        caller.interrupt();
        caller.join(BOUND.toMillis());
        assertTrue(!caller.isAlive(), "the interrupted call still waits");
        assertTrue(thrown.get() instanceof McpTestException, String.valueOf(thrown.get()));
        assertTrue(thrown.get().getMessage().startsWith("interrupted while waiting for mcptest to"
                + " answer mcp.call `echo`; the binary was stopped"), thrown.get().getMessage());
        assertTrue(TestBed.gone(client.pid(), Duration.ofSeconds(5)), "the fake still runs");
        client.close();
    }

    @Test
    void a_binary_that_ignores_sigterm_is_killed_with_what_it_started() {
        ClientOptions options = TestBed.fake("stubborn")
                .callTimeout(Duration.ofMillis(200))
                .margin(Duration.ofMillis(200));
        McpClient client = McpClient.start(TestBed.fixture("fixture-everything"), options);
        long pid = client.pid();
        var children = TestBed.descendants(pid);
        assertEquals(1, children.size(), "the stubborn fake starts one child: " + children);
        BinaryTimeoutException e = assertTimeoutPreemptively(BOUND,
                () -> assertThrows(BinaryTimeoutException.class, () -> client.call("echo")));
        assertTrue(e.stderrTail().contains("child pid " + children.get(0)), e.stderrTail());
        client.close();
        assertTrue(TestBed.gone(pid, Duration.ofSeconds(5)), "the fake still runs");
        assertTrue(TestBed.gone(children.get(0), Duration.ofSeconds(5)),
                "the fake's child still runs");
    }

    @Test
    void a_hanging_tool_is_the_binarys_call_timeout_and_the_session_goes_on() {
        ClientOptions options = TestBed.options().callTimeout(Duration.ofMillis(500));
        try (McpClient client = McpClient.start(TestBed.fixture("fixture-everything"), options)) {
            UpstreamTimeoutException e = assertTimeoutPreemptively(BOUND, () -> assertThrows(
                    UpstreamTimeoutException.class,
                    () -> client.call("slow", Map.of("ms", 10_000))));
            assertEquals(Duration.ofMillis(500), e.timeout());
            assertTrue(e.getMessage().startsWith("mcp.call `slow`: the server did not answer"
                    + " within 500 ms"), e.getMessage());
            assertEquals("still here", client.call("echo", Map.of("message", "still here"))
                    .text());
        }
    }
}

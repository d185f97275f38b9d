/*
 * StderrTest: the binary's stderr is drained while it runs (a flood cannot block it) and its
 * tail shows in failures.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class StderrTest {
    @Test
    void a_stderr_flood_before_the_handshake_does_not_block_it() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (McpClient client = McpClient.start(TestBed.fake("stderr-flood"))) {
                assertEquals("hi", client.call("echo", Map.of("message", "hi")).text());
                assertTrue(client.stderrTail().endsWith("FLOOD-END"),
                        Frames.clip(client.stderrTail(), 200));
                assertTrue(client.stderrTail().lines().count() <= StderrTail.LINES);
            }
        });
    }

    @Test
    void a_binary_that_exits_shows_its_exit_code_and_stderr() {
        try (McpClient client = McpClient.start(TestBed.fake("exit-after-handshake"))) {
            BinaryExitedException e = assertThrows(BinaryExitedException.class,
                    () -> client.call("echo"));
            assertEquals(OptionalInt.of(3), e.exitCode());
            assertTrue(e.getMessage().startsWith("mcptest closed its output before answering"
                    + " mcp.call `echo` (exit code 3)"), e.getMessage());
            assertTrue(e.getMessage().endsWith("\nmcptest stderr (last lines):\nfake mcptest: mode"
                    + " exit-after-handshake\nfake: dying on purpose"), e.getMessage());
            assertTrue(e.stderrTail().endsWith("fake: dying on purpose"), e.stderrTail());
        }
    }

    @Test
    void the_tail_keeps_whole_last_lines() {
        var bytes = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 5000; i++) {
            bytes.writeBytes(("line " + i + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        StderrTail tail = new StderrTail(new java.io.ByteArrayInputStream(bytes.toByteArray()),
                "test-tail");
        tail.awaitEnd(5000);
        String text = tail.tail();
        assertEquals(StderrTail.LINES, text.lines().count());
        assertTrue(text.startsWith("line " + (5000 - StderrTail.LINES) + "\n"), text);
        assertTrue(text.endsWith("line 4999"), text);
    }
}

/*
 * LeakTest: after close, the binary and the server it started are gone from the process table.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeakTest {
    @Test
    void closing_a_client_ends_the_binary_and_its_server() {
        McpClient client = McpClient.start(TestBed.fixture("fixture-everything"),
                TestBed.options());
        client.call("echo", Map.of("message", "start the server"));
        long pid = client.pid();
        List<Long> started = TestBed.descendants(pid);
        assertFalse(started.isEmpty(), "the binary started no server");
        assertTrue(TestBed.alive(pid));
        client.close();
        assertTrue(TestBed.gone(pid, Duration.ofSeconds(5)), "the binary " + pid + " still runs");
        for (long server : started) {
            assertTrue(TestBed.gone(server, Duration.ofSeconds(5)),
                    "the server " + server + " still runs");
        }
        client.close();
    }

    @Test
    void a_closed_client_refuses_requests_with_a_reason() {
        McpClient client = McpClient.start(TestBed.fixture("fixture-everything"),
                TestBed.options());
        client.close();
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class, () -> client.call("echo"));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
}

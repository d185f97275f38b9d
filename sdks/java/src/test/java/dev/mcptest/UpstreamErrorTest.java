/*
 * UpstreamErrorTest: -32000 (the server's JSON-RPC error) and -32001 (the server's connection
 * dropped) as typed exceptions that say what was called and what came back.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class UpstreamErrorTest {
    @Test
    void a_json_rpc_error_keeps_its_code_message_and_data() {
        try (McpClient client = McpClient.start(TestBed.fixture("fixture-everything"),
                TestBed.options())) {
            UpstreamException e = assertThrows(UpstreamException.class,
                    () -> client.call("rpc_error"));
            assertEquals(-32000, e.code());
            assertEquals(OptionalInt.of(-32603), e.upstreamCode());
            assertEquals("rpc_error always fails", e.upstreamMessage());
            assertEquals("on purpose", e.upstreamData().path("reason").asText());
            assertEquals("tools/call", e.upstreamMethod());
            assertTrue(e.getMessage().startsWith("mcp.call `rpc_error`: the server answered with"
                    + " JSON-RPC error -32603 \"rpc_error always fails\" (data: "),
                    e.getMessage());
            // The session goes on.
            assertEquals("ok", client.call("echo", Map.of("message", "ok")).text());
        }
    }

    @Test
    void a_server_that_exits_mid_call_is_a_dropped_connection_with_its_exit_code() {
        try (McpClient client = McpClient.start(TestBed.fixture("fixture-chaos", "--exit-mid-call"),
                TestBed.options())) {
            ConnectionDroppedException e = assertThrows(ConnectionDroppedException.class,
                    () -> client.call("poke"));
            assertEquals(-32001, e.code());
            assertEquals(OptionalInt.of(7), e.exitCode());
            assertTrue(e.getMessage().startsWith("mcp.call `poke`: the connection to the server"
                    + " dropped (exit code 7)"), e.getMessage());
        }
    }

    @Test
    void a_server_that_never_comes_up_is_a_dropped_connection() {
        try (McpClient client = McpClient.start(
                TestBed.fixture("fixture-chaos", "--exit-before-initialize"), TestBed.options())) {
            ConnectionDroppedException e = assertThrows(ConnectionDroppedException.class,
                    client::initialize);
            assertEquals("mcp.initialize", e.method());
            assertEquals(OptionalInt.of(3), e.exitCode());
        }
    }
}

/*
 * HandshakeTest: the pin against the real binary, and what reaches the binary's command line.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandshakeTest {
    /** Every coprocess method this SDK sends; the binary must serve each one. */
    private static final List<String> SENT = List.of("coprocess/handshake", "mcp.initialize",
            "mcp.call", "mcp.listTools", "mcp.listPrompts", "mcp.listResources",
            "mcp.listResourceTemplates", "mcp.readResource", "mcp.callPrompt", "mcp.messages",
            "suite.list", "suite.run", "mcp.reporter.setUpload", "mcp.reporter.record",
            "mcp.reporter.flush", "mcp.cassette.set_mode", "mcp.cache.set_mode", "mcp.shutdown");

    @Test
    void the_pin_is_the_version_the_real_binary_speaks() {
        try (McpClient client = McpClient.start(TestBed.options())) {
            assertEquals(3, McpClient.PROTOCOL_VERSION);
            assertEquals(McpClient.PROTOCOL_VERSION, client.handshake().protocolVersion());
            assertTrue(client.handshake().features().contains("check-frames"),
                    client.handshake().features().toString());
            assertTrue(client.handshake().lanes().contains("tool"),
                    client.handshake().lanes().toString());
            assertTrue(!client.handshake().binaryVersion().isBlank());
        }
    }

    @Test
    void the_real_binary_serves_every_method_this_sdk_sends() {
        try (McpClient client = McpClient.start(TestBed.options())) {
            List<String> missing = SENT.stream()
                    .filter(m -> !client.handshake().methods().contains(m))
                    .toList();
            assertEquals(List.of(), missing, "methods the binary does not list");
        }
    }

    @Test
    void frames_are_checked_by_the_binary_in_this_run() {
        assertEquals("1", System.getenv(ClientOptions.CHECK_FRAMES_VARIABLE),
                "run the tests with MCPTEST_CHECK_FRAMES=1 (ci.sh does), so clients the"
                        + " extension starts check frames too");
        assertTrue(ClientOptions.defaults().checkFrames());
        try (McpClient client = McpClient.start(ClientOptions.defaults())) {
            assertTrue(client.command().contains("--check-frames"), client.command().toString());
        }
    }

    @Test
    void argv_env_and_cwd_reach_the_binary_as_separate_arguments() throws Exception {
        Path scratch = TestBed.scratch("argv");
        Path args = scratch.resolve("args.json");
        Server server = Server.argv("my server", "two words", "$HOME", "a'b\"c")
                .withEnv("B", "2 two")
                .withEnv("A", "1")
                .withCwd(scratch);
        try (McpClient client = McpClient.start(server,
                TestBed.fake("ok").env("FAKE_MCPTEST_ARGS", args.toString())
                        .callTimeout(java.time.Duration.ofMillis(1500)))) {
            assertEquals(TestBed.fake().toString(), client.command().get(0));
        }
        List<?> got = new ObjectMapper().readValue(Files.readString(args), List.class);
        assertEquals(List.of("exec", "--connection-server", "--call-timeout", "1500ms",
                "--check-frames", "--server-env", "A=1", "--server-env", "B=2 two",
                "--server-cwd", scratch.toString(), "--", "my server", "two words", "$HOME",
                "a'b\"c"), got);
        TestBed.remove(scratch);
    }

    @Test
    void a_url_server_is_passed_as_server_url() throws Exception {
        Path scratch = TestBed.scratch("url");
        Path args = scratch.resolve("args.json");
        try (McpClient client = McpClient.start(Server.url("http://127.0.0.1:9/mcp"),
                TestBed.fake("ok").env("FAKE_MCPTEST_ARGS", args.toString()))) {
            assertEquals(McpClient.PROTOCOL_VERSION, client.handshake().protocolVersion());
        }
        List<?> got = new ObjectMapper().readValue(Files.readString(args), List.class);
        assertEquals(List.of("exec", "--connection-server", "--call-timeout", "30s",
                "--check-frames", "--server-url", "http://127.0.0.1:9/mcp"), got);
        TestBed.remove(scratch);
    }
}

/*
 * ClientTest: every MCP method through the real binary against fixture-everything, with the
 * client from the JUnit extension (fixture-everything is found on PATH: ci.sh puts
 * MCPTEST_FIXTURES there).
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@McpServer(argv = {"fixture-everything"})
class ClientTest {
    private long beforeEachPid;

    @BeforeEach
    void remember(McpClient client) {
        beforeEachPid = client.pid();
    }

    @Test
    void before_each_and_the_test_share_one_client(McpClient client) {
        assertEquals(beforeEachPid, client.pid());
    }

    @Test
    void initialize_reports_the_server(McpClient client) {
        ServerInfo info = client.initialize();
        assertEquals("fixture-everything", info.serverInfo().name());
        assertFalse(info.protocolVersion().isBlank());
        assertTrue(info.capabilities().has("tools"), info.capabilities().toString());
    }

    @Test
    void a_call_returns_the_verdict(McpClient client) {
        CallResult r = client.call("add", Map.of("a", 2, "b", 3));
        assertTrue(r.success(), r.error());
        assertEquals("5", r.text());
        assertNull(r.error());
        assertTrue(r.data().isNull());
        assertEquals("text", r.content().get(0).path("type").asText());
        assertTrue(r.durationMs() >= 0);
    }

    @Test
    void a_tool_error_is_a_verdict_not_an_exception(McpClient client) {
        CallResult r = client.call("fail");
        assertFalse(r.success());
        assertEquals("the tool failed on purpose", r.error());
    }

    @Test
    void structured_content_is_the_data(McpClient client) {
        CallResult r = client.call("weather", Map.of("city", "Paris"));
        assertTrue(r.success(), r.error());
        assertEquals("Paris", r.data().path("city").asText());
        assertEquals("sunny", r.data().path("conditions").asText());
    }

    @Test
    void non_text_content_comes_verbatim(McpClient client) {
        CallResult r = client.call("image");
        assertEquals("image", r.content().get(0).path("type").asText());
        assertEquals("image/png", r.content().get(0).path("mimeType").asText());
    }

    @Test
    void progress_notifications_come_with_the_verdict(McpClient client) {
        CallResult r = client.call("progress", Map.of("steps", 3, "delay_ms", 1));
        assertTrue(r.success(), r.error());
        List<ServerMessage> progress = r.messages().stream()
                .filter(m -> m.method().equals("notifications/progress"))
                .toList();
        assertEquals(3, progress.size(), r.messages().toString());
        assertFalse(progress.get(0).isRequest());
        // The verdict took them: mcp.messages does not return them again.
        assertEquals(List.of(), client.messages().messages());
    }

    @Test
    void log_messages_are_logs(McpClient client) {
        CallResult r = client.call("log", Map.of("level", "warning", "message", "careful",
                "count", 2));
        assertTrue(r.success(), r.error());
        assertEquals(2, r.logs().size(), r.logs().toString());
        assertEquals("warning", r.logs().get(0).level());
        assertEquals("fixture", r.logs().get(0).logger());
        assertEquals("careful", r.logs().get(0).data().asText());
    }

    @Test
    void lists_tools(McpClient client) {
        List<Tool> tools = client.listTools();
        Tool echo = tools.stream().filter(t -> t.name().equals("echo")).findFirst().orElseThrow();
        assertEquals("Returns the message unchanged.", echo.description());
        assertEquals("object", echo.inputSchema().path("type").asText());
        assertTrue(tools.stream().anyMatch(t -> t.name().equals("add")));
    }

    @Test
    void lists_prompts(McpClient client) {
        List<Prompt> prompts = client.listPrompts();
        assertEquals(List.of("simple", "greeting", "code_review"),
                prompts.stream().map(Prompt::name).toList());
        Prompt greeting = prompts.get(1);
        assertTrue(greeting.arguments().stream()
                .anyMatch(a -> a.name().equals("name") && a.required()));
    }

    @Test
    void lists_every_page_of_resources(McpClient client) {
        List<Resource> resources = client.listResources();
        assertEquals(15, resources.size());
        assertEquals("fixture://static/text", resources.get(0).uri());
        assertEquals("text/plain", resources.get(0).mimeType());
    }

    @Test
    void lists_resource_templates(McpClient client) {
        List<ResourceTemplate> templates = client.listResourceTemplates();
        assertEquals(1, templates.size());
        assertEquals("fixture://items/{id}", templates.get(0).uriTemplate());
    }

    @Test
    void reads_a_resource(McpClient client) {
        ResourceRead read = client.readResource("fixture://static/text");
        assertEquals("Hello from fixture-everything.", read.contents().get(0).text());
        ResourceRead blob = client.readResource("fixture://static/blob");
        assertEquals("AAECA/8=", blob.contents().get(0).blob());
    }

    @Test
    void gets_a_prompt(McpClient client) {
        PromptResult p = client.getPrompt("greeting", Map.of("name", "Ada", "style", "pirate"));
        assertEquals("user", p.messages().get(0).role());
        assertEquals("Ahoy, Ada!", p.messages().get(0).text());
        assertEquals("This is a simple prompt.", client.getPrompt("simple").messages().get(0)
                .text());
    }

    @Test
    void messages_between_calls_have_the_v3_shape(McpClient client) {
        client.call("echo", Map.of("message", "x"));
        ServerMessages since = client.messages();
        assertEquals(List.of(), since.messages());
        assertEquals(List.of(), since.logs());
    }

    @Test
    void passthrough_returns_the_server_result_verbatim(McpClient client) {
        Passthrough failed = client.callPassthrough("fail", Map.of());
        assertFalse(failed.success());
        assertTrue(failed.json().path("isError").asBoolean());
        Passthrough weather = client.callPassthrough("weather", Map.of("city", "Oslo"));
        assertTrue(weather.success());
        assertEquals("Oslo", weather.structuredContent().path("city").asText());
    }

    @Test
    void recording_an_sdk_result_is_accepted(McpClient client) {
        client.record("a java test", TestVerdict.Status.PASS, Duration.ofMillis(12), null,
                "ClientTest.java", 170);
        client.record("another", TestVerdict.Status.FAIL, null, "it broke", null, 0);
    }

    @Test
    void upload_settings_are_checked_by_the_binary(McpClient client) {
        // With --check-frames the schema refuses the URL before the method sees it.
        CoprocessException e = assertThrows(CoprocessException.class,
                () -> client.setUpload("ftp://example.invalid/", null));
        assertEquals(-32600, e.code());
        assertTrue(e.binaryMessage().startsWith("the request broke the coprocess schema at"
                + " /params/url"), e.binaryMessage());
        CoprocessException flush = assertThrows(CoprocessException.class, client::flush);
        assertEquals("mcp.reporter.flush", flush.method());
    }

    @Test
    void the_cassette_mode_is_taken(McpClient client) {
        Path scratch = TestBed.scratch("cassette");
        TapeMode mode = client.setCassetteMode("record", scratch.resolve("tape.json"));
        assertEquals("record", mode.mode());
        assertEquals("hi", client.call("echo", Map.of("message", "hi")).text());
        assertEquals("off", client.setCassetteMode("off", scratch.resolve("tape.json")).mode());
        TestBed.remove(scratch);
    }

    @Test
    @McpServer(argv = {"fixture-everything"}, env = {"GREETING=hello there", "EMPTY="},
            cwd = "sdks/java")
    void env_and_cwd_reach_the_server(McpClient client) {
        assertEquals("hello there", client.call("env", Map.of("name", "GREETING")).text());
        assertEquals("", client.call("env", Map.of("name", "EMPTY")).text());
        assertEquals(Path.of("sdks/java").toAbsolutePath().toString(), client.call("cwd").text());
    }

    @Test
    void an_unknown_tool_is_an_upstream_error_naming_the_tool(McpClient client) {
        UpstreamException e = assertThrows(UpstreamException.class,
                () -> client.call("no_such_tool"));
        assertTrue(e.getMessage().startsWith("mcp.call `no_such_tool`: the server answered with"
                + " JSON-RPC error"), e.getMessage());
    }
}

/*
 * StrictFramesTest: a frame that breaks the v3 shape fails loudly, naming the field and the
 * method, and the channel is not trusted after it.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictFramesTest {
    private static McpClient fake(String mode) {
        return McpClient.start(TestBed.fixture("fixture-everything"), TestBed.fake(mode));
    }

    /** The frame error of one call in {@code mode}; the client refuses anything after it. */
    private static FrameException callFails(String mode) {
        McpClient client = fake(mode);
        FrameException e;
        try {
            e = assertThrows(FrameException.class,
                    () -> client.call("echo", Map.of("message", "hi")));
            assertEquals("mcp.call", e.method());
            McpTestException after = assertThrows(McpTestException.class,
                    () -> client.call("echo", Map.of("message", "again")));
            assertTrue(after.getMessage().contains("the channel to mcptest is unusable"),
                    after.getMessage());
        } finally {
            client.close();
        }
        assertTrue(TestBed.gone(client.pid(), Duration.ofSeconds(5)), "the fake still runs");
        return e;
    }

    @Test
    void the_fake_in_order_answers_a_verdict() {
        try (McpClient client = fake("ok")) {
            CallResult r = client.call("echo", Map.of("message", "hi"));
            assertTrue(r.success());
            assertEquals("hi", r.text());
        }
    }

    @Test
    void an_unknown_field_in_a_verdict_names_the_field_and_the_method() {
        FrameException e = callFails("verdict-extra");
        assertEquals("$.result.surprise", e.path());
        assertTrue(e.getMessage().startsWith("mcptest's response to mcp.call broke the coprocess"
                + " v3 frame at $.result.surprise: unknown field `surprise` in a CallResult"),
                e.getMessage());
    }

    @Test
    void an_unknown_top_level_field_of_a_response_fails() {
        FrameException e = callFails("envelope-extra");
        assertEquals("$.extra", e.path());
        assertTrue(e.getMessage().contains("unknown top-level field `extra`"), e.getMessage());
    }

    @Test
    void an_unknown_field_deep_in_a_verdict_names_its_path() {
        FrameException e = callFails("nested-extra");
        assertEquals("$.result.messages[0].extra", e.path());
        assertTrue(e.getMessage().contains("unknown field `extra` in a ServerMessage (known: id,"
                + " method, params, reply)"), e.getMessage());
    }

    @Test
    void a_missing_member_of_a_verdict_fails_rather_than_defaulting() {
        FrameException e = callFails("missing-field");
        assertTrue(e.getMessage().contains("'logs'"), e.getMessage());
    }

    @Test
    void a_number_sent_as_a_string_is_not_coerced() {
        FrameException e = callFails("string-duration");
        assertEquals("$.result.duration_ms", e.path());
    }

    @Test
    void an_answer_with_another_id_fails() {
        FrameException e = callFails("wrong-id");
        assertEquals("$.id", e.path());
    }

    @Test
    void a_line_that_is_not_json_fails() {
        FrameException e = callFails("garbage");
        assertTrue(e.getMessage().contains("not one JSON value"), e.getMessage());
    }

    @Test
    void an_unknown_field_in_a_test_listing_fails() {
        try (McpClient client = McpClient.start(TestBed.fake("listing-extra"))) {
            FrameException e = assertThrows(FrameException.class,
                    () -> client.listSuite(List.of("suites"), null));
            assertEquals("suite.list", e.method());
            assertEquals("$.result.tests[0].tags", e.path());
        }
    }

    @Test
    void an_unknown_field_in_the_handshake_fails_at_start() {
        FrameException e = assertThrows(FrameException.class,
                () -> McpClient.start(TestBed.fake("handshake-extra")));
        assertEquals("coprocess/handshake", e.method());
        assertEquals("$.result.shiny", e.path());
    }

    @Test
    void a_verdict_where_a_passthrough_was_asked_for_is_refused() {
        try (McpClient client = fake("ok")) {
            FrameException e = assertThrows(FrameException.class,
                    () -> client.callPassthrough("echo", Map.of("message", "hi")));
            assertEquals("$.result.success", e.path());
        }
    }

    @Test
    void the_passthrough_shape_is_recognised_by_its_members() {
        var mapper = Frames.MAPPER;
        Passthrough raw = Passthrough.read(mapper.createObjectNode()
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("content",
                        mapper.createArrayNode().add(mapper.createObjectNode()
                                .put("type", "text").put("text", "x")))
                .put("isError", true)
                .put("futureField", 1), "mcp.call");
        assertFalse(raw.success());
        assertEquals(1, raw.content().size());
        assertEquals(1, raw.json().path("futureField").asInt());
        FrameException e = assertThrows(FrameException.class,
                () -> Passthrough.read(mapper.createObjectNode().put("text", "x"), "mcp.call"));
        assertEquals("$.result.content", e.path());
    }
}

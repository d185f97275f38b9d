/*
 * PromptResult: what getting one prompt returned (mcp.callPrompt).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What the server answered to {@code prompts/get}: the prompt's messages. The whole result is
 * in {@link #json()}.
 *
 * <pre>{@code
 * PromptResult p = client.getPrompt("greeting", Map.of("name", "Ada"));
 * assertTrue(p.messages().get(0).text().contains("Ada"));
 * }</pre>
 *
 * @param description the prompt's description, or {@code null}
 * @param messages its messages, in order
 * @param json the whole result, as the server sent it
 */
public record PromptResult(String description, List<Message> messages, JsonNode json) {
    /** Freezes the message list. */
    public PromptResult {
        messages = List.copyOf(messages);
    }

    /**
     * One message of a prompt: a role and one content block.
     *
     * <pre>{@code assertEquals("user", p.messages().get(0).role()); }</pre>
     *
     * @param role {@code user} or {@code assistant}
     * @param content the content block, verbatim
     */
    public record Message(String role, JsonNode content) {
        /**
         * The content's text when it is a text block, else {@code null}.
         *
         * <pre>{@code assertEquals("Hello!", message.text()); }</pre>
         *
         * @return the text, or {@code null}
         */
        public String text() {
            return content.path("type").asText().equals("text")
                    ? content.path("text").asText(null)
                    : null;
        }
    }

    static PromptResult read(JsonNode result) {
        String m = "mcp.callPrompt";
        OpenJson.object(result, m, "$.result");
        return new PromptResult(OpenJson.optionalText(result, "description", m, "$.result"),
                OpenJson.list(result, "messages", m, "$.result", (node, at) -> {
                    OpenJson.object(node, m, at);
                    return new Message(OpenJson.text(node, "role", m, at),
                            OpenJson.object(node.get("content"), m, at + ".content"));
                }), result);
    }
}

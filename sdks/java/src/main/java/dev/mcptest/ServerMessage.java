/*
 * ServerMessage: one notification or request the server sent on its own.
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.Objects;

/**
 * One message the server under test sent during a call (or since the last
 * {@link McpClient#messages()}): a notification, or a request with its id and the reply the
 * client gave.
 *
 * <pre>{@code
 * CallResult r = client.call("progress", Map.of("steps", 3));
 * assertEquals("notifications/progress", r.messages().get(0).method());
 * }</pre>
 *
 * @param method the MCP method, such as {@code notifications/progress}
 * @param params its params ({@code NullNode} when it had none)
 * @param id a request's id as the server sent it, possibly null ({@code MissingNode} for a
 *     notification)
 * @param reply what the client answered a request ({@code NullNode} until it answered;
 *     {@code MissingNode} for a notification)
 */
public record ServerMessage(
        @JsonProperty(value = "method", required = true) String method,
        @JsonProperty(value = "params", required = true) JsonNode params,
        @JsonProperty("id") JsonNode id,
        @JsonProperty("reply") JsonNode reply) {
    /** Checks the required members and fills absent ones with {@code MissingNode}. */
    public ServerMessage {
        Objects.requireNonNull(method, "method is null");
        Objects.requireNonNull(params, "params is missing");
        id = id == null ? MissingNode.getInstance() : id;
        reply = reply == null ? MissingNode.getInstance() : reply;
    }

    /**
     * Whether this was a request (it has an id), not a notification.
     *
     * <pre>{@code assertTrue(message.isRequest()); // sampling/createMessage }</pre>
     *
     * @return whether it has an id
     */
    public boolean isRequest() {
        return !id.isMissingNode();
    }
}

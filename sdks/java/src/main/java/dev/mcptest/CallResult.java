/*
 * CallResult: the verdict of one tool call (mcp.call).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * The verdict of one tool call, as the binary judged it: a tool error ({@code isError}) is a
 * result with {@code success() == false}; a JSON-RPC error is an {@link UpstreamException}
 * instead.
 *
 * <pre>{@code
 * CallResult r = client.call("add", Map.of("a", 2, "b", 3));
 * assertTrue(r.success(), r.error());
 * assertEquals("5", r.text());
 * }</pre>
 *
 * @param success whether the tool answered without {@code isError: true}
 * @param text the text blocks of the content, joined by newlines
 * @param data the structured content, or {@code NullNode} when there is none
 * @param error the text of a tool error, or {@code null} on success
 * @param durationMs how long the call took, in milliseconds
 * @param content the content blocks, verbatim
 * @param messages every notification and request the server sent during the call, in order
 * @param logs the log messages among them
 */
public record CallResult(
        @JsonProperty(value = "success", required = true) boolean success,
        @JsonProperty(value = "text", required = true) String text,
        @JsonProperty(value = "data", required = true) JsonNode data,
        @JsonProperty(value = "error", required = true) String error,
        @JsonProperty(value = "duration_ms", required = true) long durationMs,
        @JsonProperty(value = "content", required = true) List<JsonNode> content,
        @JsonProperty(value = "messages", required = true) List<ServerMessage> messages,
        @JsonProperty(value = "logs", required = true) List<LogEntry> logs) {
    /** Checks the members the verdict always has and freezes the lists. */
    public CallResult {
        Objects.requireNonNull(text, "text is null");
        Objects.requireNonNull(data, "data is missing");
        content = List.copyOf(Objects.requireNonNull(content, "content is null"));
        messages = List.copyOf(Objects.requireNonNull(messages, "messages is null"));
        logs = List.copyOf(Objects.requireNonNull(logs, "logs is null"));
    }
}

/*
 * LogEntry: one notifications/message (MCP logging) the server sent.
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One log message the server sent ({@code notifications/message}).
 *
 * <pre>{@code
 * CallResult r = client.call("log", Map.of("level", "info", "message", "hello"));
 * assertEquals("hello", r.logs().get(0).data().asText());
 * }</pre>
 *
 * @param level the syslog level, such as {@code info}
 * @param logger the logger's name, or {@code null} when the server named none
 * @param data what was logged (any JSON)
 */
public record LogEntry(
        @JsonProperty(value = "level", required = true) String level,
        @JsonProperty("logger") String logger,
        @JsonProperty(value = "data", required = true) JsonNode data) {
    /** Checks the required members. */
    public LogEntry {
        Objects.requireNonNull(level, "level is null");
        Objects.requireNonNull(data, "data is missing");
    }
}

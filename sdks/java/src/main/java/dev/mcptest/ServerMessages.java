/*
 * ServerMessages: what the server sent on its own between calls (mcp.messages).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * What the server sent on its own since the last call or the last {@link McpClient#messages()}
 * (each message is returned once).
 *
 * <pre>{@code
 * client.call("toggle_tool");
 * ServerMessages later = client.messages();
 * }</pre>
 *
 * @param messages every notification and request, in arrival order
 * @param logs the log messages among them
 */
public record ServerMessages(
        @JsonProperty(value = "messages", required = true) List<ServerMessage> messages,
        @JsonProperty(value = "logs", required = true) List<LogEntry> logs) {
    /** Checks the required members and freezes the lists. */
    public ServerMessages {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages is null"));
        logs = List.copyOf(Objects.requireNonNull(logs, "logs is null"));
    }
}

/*
 * ServerInfo: what the server said about itself when it connected (mcp.initialize).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What the server under test said about itself in the MCP handshake.
 *
 * <pre>{@code
 * ServerInfo info = client.initialize();
 * assertEquals("fixture-everything", info.serverInfo().name());
 * }</pre>
 *
 * @param serverInfo the server's name and version
 * @param protocolVersion the MCP revision agreed on, such as {@code 2025-11-25}
 * @param capabilities the capabilities it declared
 */
public record ServerInfo(
        @JsonProperty(value = "serverInfo", required = true) Implementation serverInfo,
        @JsonProperty(value = "protocolVersion", required = true) String protocolVersion,
        @JsonProperty(value = "capabilities", required = true) JsonNode capabilities) {
    /** Checks the required members. */
    public ServerInfo {
        Objects.requireNonNull(serverInfo, "serverInfo is null");
        Objects.requireNonNull(protocolVersion, "protocolVersion is null");
        Objects.requireNonNull(capabilities, "capabilities is missing");
    }

    /**
     * A server's name and version.
     *
     * <pre>{@code assertEquals("0.1.0", info.serverInfo().version()); }</pre>
     *
     * @param name the server's name
     * @param version its version
     */
    public record Implementation(
            @JsonProperty(value = "name", required = true) String name,
            @JsonProperty(value = "version", required = true) String version) {
        /** Checks the required members. */
        public Implementation {
            Objects.requireNonNull(name, "name is null");
            Objects.requireNonNull(version, "version is null");
        }
    }
}

/*
 * Handshake: what the binary said about itself (coprocess/handshake).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * The binary's answer to the handshake: its protocol version (always
 * {@link McpClient#PROTOCOL_VERSION} once a client started), its own version, and what it
 * serves.
 *
 * <pre>{@code
 * Handshake h = client.handshake();
 * assertTrue(h.lanes().contains("tool"));
 * }</pre>
 *
 * @param protocolVersion the coprocess protocol version the binary speaks on this channel
 * @param binaryVersion the binary's version
 * @param methods every coprocess method it serves
 * @param lanes the suite lanes {@code suite.run} drives over this channel
 * @param features the features it has, such as {@code check-frames}
 */
public record Handshake(
        @JsonProperty(value = "protocol_version", required = true) int protocolVersion,
        @JsonProperty(value = "binary_version", required = true) String binaryVersion,
        @JsonProperty(value = "methods", required = true) List<String> methods,
        @JsonProperty(value = "lanes", required = true) List<String> lanes,
        @JsonProperty(value = "features", required = true) List<String> features) {
    /** Checks the required members and freezes the lists. */
    public Handshake {
        Objects.requireNonNull(binaryVersion, "binary_version is null");
        methods = List.copyOf(Objects.requireNonNull(methods, "methods is null"));
        lanes = List.copyOf(Objects.requireNonNull(lanes, "lanes is null"));
        features = List.copyOf(Objects.requireNonNull(features, "features is null"));
    }
}

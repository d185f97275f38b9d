/*
 * TapeMode: the cassette or cache mode the binary took (mcp.cassette.set_mode, mcp.cache.set_mode).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * The recording mode the binary took for the next connection, and the store it uses.
 *
 * <pre>{@code
 * TapeMode m = client.setCassetteMode("record", Path.of("target/weather.cassette.json"));
 * assertEquals("record", m.mode());
 * }</pre>
 *
 * @param mode the mode, as sent
 * @param path the store's file, as the binary names it
 */
public record TapeMode(
        @JsonProperty(value = "mode", required = true) String mode,
        @JsonProperty(value = "path", required = true) String path) {
    /** Checks the required members. */
    public TapeMode {
        Objects.requireNonNull(mode, "mode is null");
        Objects.requireNonNull(path, "path is null");
    }
}

/*
 * UpstreamTimeoutException: the server under test did not answer within the call timeout.
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * The MCP server under test did not answer within the binary's call timeout
 * ({@link ClientOptions#callTimeout}); the binary gave up on the call (-32603) and the session
 * goes on.
 *
 * <pre>{@code
 * var e = assertThrows(UpstreamTimeoutException.class,
 *         () -> client.call("slow", Map.of("ms", 10_000)));
 * assertEquals(Duration.ofMillis(500), e.timeout());
 * }</pre>
 */
public final class UpstreamTimeoutException extends CoprocessException {
    private static final long serialVersionUID = 1L;

    UpstreamTimeoutException(String method, String what, String message, JsonNode data,
            String tail) {
        super(what + ": the server did not answer within " + data.path("timeout_ms").asLong()
                + " ms (the call timeout): " + message,
                method, INTERNAL_ERROR, message, data, tail);
    }

    /**
     * The limit the call ran into.
     *
     * <pre>{@code assertEquals(Duration.ofMillis(500), e.timeout()); }</pre>
     *
     * @return the call timeout
     */
    public Duration timeout() {
        return Duration.ofMillis(data().path("timeout_ms").asLong());
    }
}

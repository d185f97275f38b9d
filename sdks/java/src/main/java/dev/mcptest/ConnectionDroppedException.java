/*
 * ConnectionDroppedException: the connection to the server under test dropped (-32001).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;

/**
 * The connection to the MCP server under test dropped, or never came up: the server exited,
 * crashed or closed its output. The binary reports the exit code and the tail of the server's
 * stderr; the next request starts the server afresh.
 *
 * <pre>{@code
 * ConnectionDroppedException e =
 *         assertThrows(ConnectionDroppedException.class, () -> client.call("poke"));
 * assertEquals(OptionalInt.of(7), e.exitCode());
 * }</pre>
 */
public final class ConnectionDroppedException extends CoprocessException {
    private static final long serialVersionUID = 1L;

    ConnectionDroppedException(String method, String what, String message, JsonNode data,
            String tail) {
        super(what + ": the connection to the server dropped"
                + (data.path("exit_code").isIntegralNumber()
                        ? " (exit code " + data.path("exit_code").asInt() + ")"
                        : "")
                + ": " + message
                + (data.path("stderr_tail").asText("").isBlank()
                        ? ""
                        : "\nthe server's stderr ended with:\n"
                                + data.path("stderr_tail").asText().stripTrailing()),
                method, UPSTREAM_DROPPED, message, data, tail);
    }

    /**
     * The server's exit code, when it exited and the binary saw it.
     *
     * <pre>{@code assertEquals(OptionalInt.of(7), e.exitCode()); }</pre>
     *
     * @return the exit code, or empty
     */
    public OptionalInt exitCode() {
        JsonNode code = data().path("exit_code");
        return code.isIntegralNumber() ? OptionalInt.of(code.asInt()) : OptionalInt.empty();
    }

    /**
     * The last lines the server wrote to its stderr, as the binary reported them ("" if none).
     *
     * <pre>{@code assertTrue(e.serverStderr().contains("panicked")); }</pre>
     *
     * @return the server's stderr tail
     */
    public String serverStderr() {
        return data().path("stderr_tail").asText("");
    }
}

/*
 * FrameException: a frame from the binary that breaks the v3 shape.
 */
package dev.mcptest;

/**
 * A frame from the mcptest binary broke the coprocess shape this SDK reads: an unknown or
 * missing member, a wrong type, a wrong id, text that is not JSON. The message names the method,
 * the JSON path and the rule. The SDK never guesses past such a frame.
 *
 * <pre>{@code
 * FrameException e = assertThrows(FrameException.class, () -> client.call("echo"));
 * assertEquals("mcp.call", e.method());
 * }</pre>
 */
public final class FrameException extends McpTestException {
    private static final long serialVersionUID = 1L;

    /** The method whose response broke the shape. */
    private final String method;

    /** Where in the response, as {@code $.result.member[0]}. */
    private final String path;

    FrameException(String method, String path, String detail) {
        super("mcptest's response to " + method + " broke the coprocess v"
                + McpClient.PROTOCOL_VERSION + " frame at " + path + ": " + detail, "");
        this.method = method;
        this.path = path;
    }

    /**
     * The coprocess method whose response broke the shape.
     *
     * <pre>{@code assertEquals("mcp.call", e.method()); }</pre>
     *
     * @return the method name
     */
    public String method() {
        return method;
    }

    /**
     * The JSON path of the offending member, such as {@code $.result.surprise}.
     *
     * <pre>{@code assertEquals("$.result.surprise", e.path()); }</pre>
     *
     * @return the path
     */
    public String path() {
        return path;
    }
}

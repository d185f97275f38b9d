/*
 * CoprocessException: the binary answered a request with a JSON-RPC error.
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * The mcptest binary answered a request with a JSON-RPC error. The codes the server under test
 * causes have subclasses of their own: {@link UpstreamException} (-32000),
 * {@link ConnectionDroppedException} (-32001), {@link UpstreamTimeoutException} (-32603 over
 * the call timeout) and {@link SuiteLoadException} (a suite file that does not load).
 *
 * <pre>{@code
 * CoprocessException e = assertThrows(CoprocessException.class, () -> client.readResource("x:/"));
 * assertEquals(-32000, e.code());
 * }</pre>
 */
public class CoprocessException extends McpTestException {
    private static final long serialVersionUID = 1L;

    /** JSON-RPC code of an upstream MCP error. */
    static final int UPSTREAM_ERROR = -32000;
    /** JSON-RPC code of a dropped (or never established) upstream connection. */
    static final int UPSTREAM_DROPPED = -32001;
    /** JSON-RPC code of an internal failure, also of an upstream call over the time limit. */
    static final int INTERNAL_ERROR = -32603;
    /** JSON-RPC code of invalid params, also of a version mismatch or a file that does not load. */
    static final int INVALID_PARAMS = -32602;
    /** JSON-RPC code of an unknown method (a v1 binary answers the handshake with it). */
    static final int METHOD_NOT_FOUND = -32601;

    private final String method;
    private final int code;
    private final String binaryMessage;
    private final transient JsonNode data;

    CoprocessException(String summary, String method, int code, String binaryMessage,
            JsonNode data, String stderrTail) {
        super(summary, stderrTail);
        this.method = method;
        this.code = code;
        this.binaryMessage = binaryMessage;
        this.data = data == null ? NullNode.getInstance() : data;
    }

    /**
     * The coprocess method that failed, such as {@code mcp.call}.
     *
     * <pre>{@code assertEquals("mcp.call", e.method()); }</pre>
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * The JSON-RPC error code the binary answered with.
     *
     * <pre>{@code assertEquals(-32602, e.code()); }</pre>
     *
     * @return the code
     */
    public int code() {
        return code;
    }

    /**
     * The binary's own error message, verbatim.
     *
     * <pre>{@code assertTrue(e.binaryMessage().contains("unknown tool")); }</pre>
     *
     * @return the message
     */
    public String binaryMessage() {
        return binaryMessage;
    }

    /**
     * The error's {@code data} member ({@code NullNode} when it had none).
     *
     * <pre>{@code assertEquals("tools/call", e.data().path("method").asText()); }</pre>
     *
     * @return the data
     */
    public JsonNode data() {
        return data;
    }

    /**
     * The exception for one error answer, typed by code and data.
     *
     * @param what the call as a person reads it, such as {@code mcp.call `echo`}
     */
    static CoprocessException of(String method, String what, int code, String message,
            JsonNode data, String stderrTail) {
        JsonNode d = data == null ? NullNode.getInstance() : data;
        if (code == UPSTREAM_ERROR) {
            return new UpstreamException(method, what, message, d, stderrTail);
        }
        if (code == UPSTREAM_DROPPED) {
            return new ConnectionDroppedException(method, what, message, d, stderrTail);
        }
        if (code == INTERNAL_ERROR && d.path("timeout_ms").isIntegralNumber()) {
            return new UpstreamTimeoutException(method, what, message, d, stderrTail);
        }
        if (code == INVALID_PARAMS && method.equals("suite.list") && d.path("file").isTextual()) {
            return new SuiteLoadException(method, message, d, stderrTail);
        }
        return new CoprocessException(what + " failed: mcptest answered " + code + ": " + message,
                method, code, message, d, stderrTail);
    }
}

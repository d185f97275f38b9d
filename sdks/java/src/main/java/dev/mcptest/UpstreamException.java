/*
 * UpstreamException: the server under test answered with a JSON-RPC error (-32000).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The MCP server under test answered a request with a JSON-RPC error; the binary passed it on
 * as -32000 with the server's code, message and data. A tool that reports {@code isError} is
 * not this: that is a {@link CallResult} with {@code success() == false}.
 *
 * <pre>{@code
 * UpstreamException e = assertThrows(UpstreamException.class, () -> client.call("rpc_error"));
 * assertEquals(-32603, e.upstreamCode());
 * }</pre>
 */
public final class UpstreamException extends CoprocessException {
    private static final long serialVersionUID = 1L;

    UpstreamException(String method, String what, String message, JsonNode data, String tail) {
        super(what + ": the server answered with JSON-RPC error "
                + data.path("upstream").path("code").asText("?") + " \""
                + data.path("upstream").path("message").asText(message) + "\""
                + (data.path("upstream").has("data")
                        ? " (data: " + Frames.clip(data.path("upstream").path("data").toString(), 500) + ")"
                        : ""),
                method, UPSTREAM_ERROR, message, data, tail);
    }

    /**
     * The server's JSON-RPC error code.
     *
     * <pre>{@code assertEquals(-32602, e.upstreamCode()); }</pre>
     *
     * @return the code
     */
    public int upstreamCode() {
        return data().path("upstream").path("code").asInt();
    }

    /**
     * The server's error message.
     *
     * <pre>{@code assertEquals("rpc_error always fails", e.upstreamMessage()); }</pre>
     *
     * @return the message
     */
    public String upstreamMessage() {
        return data().path("upstream").path("message").asText();
    }

    /**
     * The server's error data ({@code MissingNode} when it sent none).
     *
     * <pre>{@code assertEquals("on purpose", e.upstreamData().path("reason").asText()); }</pre>
     *
     * @return the data
     */
    public JsonNode upstreamData() {
        return data().path("upstream").path("data");
    }

    /**
     * The MCP method that failed upstream, such as {@code tools/call}.
     *
     * <pre>{@code assertEquals("tools/call", e.upstreamMethod()); }</pre>
     *
     * @return the method, or "" when the binary did not say
     */
    public String upstreamMethod() {
        return data().path("method").asText("");
    }
}

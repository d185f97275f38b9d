/*
 * UpstreamException: the server under test answered with a JSON-RPC error (-32000).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;

/**
 * The MCP server under test answered a request with a JSON-RPC error; the binary passed it on
 * as -32000 with the server's code, message and data. A tool that reports {@code isError} is
 * not this: that is a {@link CallResult} with {@code success() == false}.
 *
 * <pre>{@code
 * UpstreamException e = assertThrows(UpstreamException.class, () -> client.call("rpc_error"));
 * assertEquals(OptionalInt.of(-32603), e.upstreamCode());
 * }</pre>
 */
public final class UpstreamException extends CoprocessException {
    private static final long serialVersionUID = 1L;

    UpstreamException(String method, String what, String message, JsonNode data, String tail) {
        super(what + (data.path("upstream").isObject()
                ? ": the server answered with JSON-RPC error "
                        + data.path("upstream").path("code").asText("?") + " \""
                        + data.path("upstream").path("message").asText() + "\""
                        + (data.path("upstream").path("data").isMissingNode()
                                || data.path("upstream").path("data").isNull()
                                ? ""
                                : " (data: " + Frames.clip(
                                        data.path("upstream").path("data").toString(), 500) + ")")
                : ": the server's answer failed: " + message),
                method, UPSTREAM_ERROR, message, data, tail);
    }

    /**
     * The server's JSON-RPC error code, when the server answered with an error (empty when the
     * answer failed otherwise, such as a result that breaks the MCP schema).
     *
     * <pre>{@code assertEquals(OptionalInt.of(-32602), e.upstreamCode()); }</pre>
     *
     * @return the code, or empty
     */
    public OptionalInt upstreamCode() {
        JsonNode code = data().path("upstream").path("code");
        return code.isIntegralNumber() ? OptionalInt.of(code.asInt()) : OptionalInt.empty();
    }

    /**
     * The server's error message ("" when it answered with no error object).
     *
     * <pre>{@code assertEquals("rpc_error always fails", e.upstreamMessage()); }</pre>
     *
     * @return the message
     */
    public String upstreamMessage() {
        return data().path("upstream").path("message").asText("");
    }

    /**
     * The server's error data ({@code MissingNode} or {@code NullNode} when it sent none).
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

/*
 * Passthrough: the upstream tools/call result, verbatim (mcp.call with passthrough).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The server's {@code tools/call} result exactly as it sent it, for checks the verdict does not
 * carry ({@code _meta}, fields of a newer MCP revision). Recognised by its shape: a
 * {@code content} array and no {@code success} member.
 *
 * <pre>{@code
 * Passthrough raw = client.callPassthrough("fail", Map.of());
 * assertFalse(raw.success());
 * assertEquals(true, raw.json().path("isError").asBoolean());
 * }</pre>
 *
 * @param content the content blocks
 * @param structuredContent the structured content ({@code MissingNode} when absent)
 * @param isError whether the server flagged a tool error
 * @param json the whole result
 */
public record Passthrough(List<JsonNode> content, JsonNode structuredContent, boolean isError,
        JsonNode json) {
    /** Freezes the content list. */
    public Passthrough {
        content = List.copyOf(content);
    }

    /**
     * Whether the tool succeeded: {@code isError} is not true.
     *
     * <pre>{@code assertTrue(client.callPassthrough("echo", args).success()); }</pre>
     *
     * @return whether it succeeded
     */
    public boolean success() {
        return !isError;
    }

    static Passthrough read(JsonNode result, String method) {
        OpenJson.object(result, method, "$.result");
        if (result.has("success")) {
            throw new FrameException(method, "$.result.success",
                    "a passthrough result was asked for, but the binary sent a verdict (it has"
                            + " `success`)");
        }
        List<JsonNode> content = OpenJson.list(result, "content", method, "$.result",
                (node, path) -> node);
        boolean isError = OpenJson.flag(result, "isError", method, "$.result");
        return new Passthrough(content, result.path("structuredContent"), isError, result);
    }
}

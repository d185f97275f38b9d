/*
 * ResourceRead: what reading one resource returned (mcp.readResource).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What the server answered to {@code resources/read}: one or more contents, each text or a
 * base64 blob. The whole result is in {@link #json()}.
 *
 * <pre>{@code
 * ResourceRead read = client.readResource("fixture://static/text");
 * assertEquals("Hello from a fixture resource.", read.contents().get(0).text());
 * }</pre>
 *
 * @param contents the contents
 * @param json the whole result, as the server sent it
 */
public record ResourceRead(List<Contents> contents, JsonNode json) {
    /** Freezes the contents list. */
    public ResourceRead {
        contents = List.copyOf(contents);
    }

    /**
     * One content of a read resource: {@code text} or {@code blob} (base64) is set.
     *
     * <pre>{@code assertNull(read.contents().get(0).blob()); }</pre>
     *
     * @param uri the content's URI
     * @param mimeType its MIME type, or {@code null}
     * @param text its text, or {@code null} for a blob
     * @param blob its bytes in base64, or {@code null} for text
     * @param json the whole content object
     */
    public record Contents(String uri, String mimeType, String text, String blob,
            JsonNode json) {}

    static ResourceRead read(JsonNode result) {
        String m = "mcp.readResource";
        OpenJson.object(result, m, "$.result");
        return new ResourceRead(OpenJson.list(result, "contents", m, "$.result", (node, at) -> {
            OpenJson.object(node, m, at);
            return new Contents(OpenJson.text(node, "uri", m, at),
                    OpenJson.optionalText(node, "mimeType", m, at),
                    OpenJson.optionalText(node, "text", m, at),
                    OpenJson.optionalText(node, "blob", m, at), node);
        }), result);
    }
}

/*
 * Resource: one resource the server lists (mcp.listResources).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One resource the server lists. The whole definition is in {@link #json()}.
 *
 * <pre>{@code
 * Resource first = client.listResources().get(0);
 * assertEquals("text/plain", first.mimeType());
 * }</pre>
 *
 * @param uri the resource's URI
 * @param name its name
 * @param title its display title, or {@code null}
 * @param description its description, or {@code null}
 * @param mimeType its MIME type, or {@code null}
 * @param json the whole definition, as the server sent it
 */
public record Resource(String uri, String name, String title, String description,
        String mimeType, JsonNode json) {
    static Resource read(JsonNode node, String path) {
        String m = "mcp.listResources";
        OpenJson.object(node, m, path);
        return new Resource(OpenJson.text(node, "uri", m, path),
                OpenJson.text(node, "name", m, path),
                OpenJson.optionalText(node, "title", m, path),
                OpenJson.optionalText(node, "description", m, path),
                OpenJson.optionalText(node, "mimeType", m, path), node);
    }
}

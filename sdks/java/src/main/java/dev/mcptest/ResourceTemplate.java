/*
 * ResourceTemplate: one resource template the server lists (mcp.listResourceTemplates).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One resource template the server lists (an RFC 6570 URI template). The whole definition is in
 * {@link #json()}.
 *
 * <pre>{@code
 * ResourceTemplate items = client.listResourceTemplates().get(0);
 * assertEquals("fixture://items/{id}", items.uriTemplate());
 * }</pre>
 *
 * @param uriTemplate the URI template
 * @param name its name
 * @param title its display title, or {@code null}
 * @param description its description, or {@code null}
 * @param mimeType the MIME type of what it names, or {@code null}
 * @param json the whole definition, as the server sent it
 */
public record ResourceTemplate(String uriTemplate, String name, String title,
        String description, String mimeType, JsonNode json) {
    static ResourceTemplate read(JsonNode node, String path) {
        String m = "mcp.listResourceTemplates";
        OpenJson.object(node, m, path);
        return new ResourceTemplate(OpenJson.text(node, "uriTemplate", m, path),
                OpenJson.text(node, "name", m, path),
                OpenJson.optionalText(node, "title", m, path),
                OpenJson.optionalText(node, "description", m, path),
                OpenJson.optionalText(node, "mimeType", m, path), node);
    }
}

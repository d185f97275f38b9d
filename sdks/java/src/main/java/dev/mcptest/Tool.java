/*
 * Tool: one tool the server lists (mcp.listTools).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool the server lists. MCP keeps tool definitions open, so everything it holds is in
 * {@link #json()}; the common members are typed.
 *
 * <pre>{@code
 * Tool echo = client.listTools().stream().filter(t -> t.name().equals("echo")).findFirst().get();
 * assertEquals("object", echo.inputSchema().path("type").asText());
 * }</pre>
 *
 * @param name the tool's name
 * @param title its display title, or {@code null}
 * @param description its description, or {@code null}
 * @param inputSchema the JSON Schema of its arguments
 * @param outputSchema the JSON Schema of its structured content ({@code MissingNode} if none)
 * @param json the whole definition, as the server sent it
 */
public record Tool(String name, String title, String description, JsonNode inputSchema,
        JsonNode outputSchema, JsonNode json) {
    static Tool read(JsonNode node, String path) {
        String m = "mcp.listTools";
        OpenJson.object(node, m, path);
        return new Tool(OpenJson.text(node, "name", m, path),
                OpenJson.optionalText(node, "title", m, path),
                OpenJson.optionalText(node, "description", m, path),
                OpenJson.object(node.get("inputSchema"), m, path + ".inputSchema"),
                node.path("outputSchema"), node);
    }
}

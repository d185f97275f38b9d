/*
 * Prompt: one prompt the server lists (mcp.listPrompts).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One prompt the server lists, with its arguments. The whole definition is in {@link #json()}.
 *
 * <pre>{@code
 * Prompt greeting = client.listPrompts().get(1);
 * assertEquals("name", greeting.arguments().get(0).name());
 * }</pre>
 *
 * @param name the prompt's name
 * @param title its display title, or {@code null}
 * @param description its description, or {@code null}
 * @param arguments the arguments it takes (empty when none)
 * @param json the whole definition, as the server sent it
 */
public record Prompt(String name, String title, String description, List<Argument> arguments,
        JsonNode json) {
    /** Freezes the argument list. */
    public Prompt {
        arguments = List.copyOf(arguments);
    }

    /**
     * One argument of a prompt.
     *
     * <pre>{@code assertTrue(prompt.arguments().get(0).required()); }</pre>
     *
     * @param name the argument's name
     * @param description its description, or {@code null}
     * @param required whether the prompt needs it
     */
    public record Argument(String name, String description, boolean required) {}

    static Prompt read(JsonNode node, String path) {
        String m = "mcp.listPrompts";
        OpenJson.object(node, m, path);
        List<Argument> arguments = node.has("arguments") && !node.get("arguments").isNull()
                ? OpenJson.list(node, "arguments", m, path, (arg, at) -> {
                    OpenJson.object(arg, m, at);
                    return new Argument(OpenJson.text(arg, "name", m, at),
                            OpenJson.optionalText(arg, "description", m, at),
                            OpenJson.flag(arg, "required", m, at));
                })
                : List.of();
        return new Prompt(OpenJson.text(node, "name", m, path),
                OpenJson.optionalText(node, "title", m, path),
                OpenJson.optionalText(node, "description", m, path), arguments, node);
    }
}

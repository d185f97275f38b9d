/*
 * OpenJson: typed reads of the MCP objects the binary passes on verbatim.
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Reads members of MCP objects (tools, prompts, resources, contents), which the binary passes on
 * verbatim and which MCP keeps open: unknown members are kept in the object's {@code json()},
 * while a member the SDK types must have its type, or the read fails naming it.
 */
final class OpenJson {
    private OpenJson() {}

    /** The object at {@code path}, or a frame error. */
    static JsonNode object(JsonNode node, String method, String path) {
        if (node == null || !node.isObject()) {
            throw new FrameException(method, path, "expected an object, got "
                    + (node == null ? "nothing" : node.getNodeType()));
        }
        return node;
    }

    /** A string member that must be there. */
    static String text(JsonNode node, String name, String method, String path) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw new FrameException(method, path + "." + name, "expected a string, got "
                    + (value == null ? "nothing" : value.getNodeType()));
        }
        return value.asText();
    }

    /** A string member that may be missing or null ({@code null} then). */
    static String optionalText(JsonNode node, String name, String method, String path) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new FrameException(method, path + "." + name,
                    "expected a string, got " + value.getNodeType());
        }
        return value.asText();
    }

    /** A boolean member that may be missing ({@code false} then). */
    static boolean flag(JsonNode node, String name, String method, String path) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new FrameException(method, path + "." + name,
                    "expected a boolean, got " + value.getNodeType());
        }
        return value.asBoolean();
    }

    /** An array member that must be there, each element read by {@code item}. */
    static <T> List<T> list(JsonNode node, String name, String method, String path,
            BiFunction<JsonNode, String, T> item) {
        JsonNode value = node.get(name);
        if (value == null || !value.isArray()) {
            throw new FrameException(method, path + "." + name, "expected an array, got "
                    + (value == null ? "nothing" : value.getNodeType()));
        }
        var out = new ArrayList<T>(value.size());
        for (int i = 0; i < value.size(); i++) {
            out.add(item.apply(value.get(i), path + "." + name + "[" + i + "]"));
        }
        return List.copyOf(out);
    }

    /** A member that may be missing, as a node ({@code MissingNode} then). */
    static JsonNode member(JsonNode node, String name) {
        return node.path(name);
    }
}

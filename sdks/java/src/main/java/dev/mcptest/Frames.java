/*
 * Frames: the one strict JSON reader and writer of the coprocess channel.
 *
 * Every frame the binary sends is read here: an unknown member, a missing required member,
 * a duplicate key, a scalar of the wrong type or trailing text fails loudly with a
 * FrameException naming the method and the JSON path, never misparses into defaults.
 */
package dev.mcptest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;

/** The strict JSON reader and writer behind every frame (Jackson, configured to refuse). */
final class Frames {
    /** The mapper every frame goes through; strict in every way Jackson can be. */
    static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                    .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                    .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                    .build();

    private Frames() {}

    /** A fresh JSON object to fill in as request params. */
    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** One request line (without its newline); Jackson escapes every control character. */
    static String write(JsonNode frame) {
        try {
            return MAPPER.writeValueAsString(frame);
        } catch (IOException e) {
            // A tree of our own making always serialises.
            throw new IllegalStateException("cannot serialise a request frame: " + e, e);
        }
    }

    /** Any value (a Map, a List, a record) as a JSON tree, for request params. */
    static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** One response line as a tree; text that is not one JSON value is a frame error. */
    static JsonNode parse(String line, String method) {
        try {
            return MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            throw new FrameException(
                    method,
                    "$",
                    "the response line is not one JSON value ("
                            + e.getOriginalMessage()
                            + "): "
                            + clip(line, 200));
        }
    }

    /**
     * Binds {@code node} (found at {@code path} in the response to {@code method}) to a closed
     * record type: an unknown or missing member names itself.
     */
    static <T> T bind(JsonNode node, Class<T> type, String method, String path) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new FrameException(
                    method,
                    path + pathOf(e.getPath()),
                    "unknown field `"
                            + e.getPropertyName()
                            + "` in "
                            + describe(e.getReferringClass() == null ? type : e.getReferringClass())
                            + " (known: "
                            + String.join(", ", known(e))
                            + "); this SDK reads coprocess v"
                            + McpClient.PROTOCOL_VERSION
                            + " frames strictly, so a binary that adds fields needs a newer SDK");
        } catch (JsonMappingException e) {
            throw new FrameException(
                    method,
                    path + pathOf(e.getPath()),
                    describe(type) + " does not fit the v" + McpClient.PROTOCOL_VERSION
                            + " shape: " + firstLine(e.getOriginalMessage()));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new FrameException(method, path, describe(type) + ": " + e.getMessage());
        }
    }

    private static List<String> known(UnrecognizedPropertyException e) {
        return e.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
    }

    private static String describe(Class<?> type) {
        return "a " + type.getSimpleName();
    }

    /** A Jackson reference path as {@code .member[index]} text. */
    private static String pathOf(List<JsonMappingException.Reference> refs) {
        var out = new StringBuilder();
        for (var ref : refs) {
            if (ref.getFieldName() != null) {
                out.append('.').append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int at = text.indexOf('\n');
        return at < 0 ? text : text.substring(0, at);
    }

    /** At most {@code max} characters of {@code text}, marked when cut. */
    static String clip(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }
}

/*
 * SuiteLoadException: a suite file that the binary could not load.
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;

/**
 * A suite file did not load: its YAML is broken or a key is wrong. The message is the loader's,
 * starting with {@code file:line:column}.
 *
 * <pre>{@code
 * var e = assertThrows(SuiteLoadException.class,
 *         () -> client.listSuite(List.of("suites/invalid/syntax.yaml"), null));
 * assertEquals("suites/invalid/syntax.yaml", e.file());
 * }</pre>
 */
public final class SuiteLoadException extends CoprocessException {
    private static final long serialVersionUID = 1L;

    SuiteLoadException(String method, String message, JsonNode data, String tail) {
        super("a suite file does not load: " + message, method, INVALID_PARAMS, message, data,
                tail);
    }

    /**
     * The file that did not load, as the binary names it.
     *
     * <pre>{@code assertEquals("suites/invalid/syntax.yaml", e.file()); }</pre>
     *
     * @return the file
     */
    public String file() {
        return data().path("file").asText();
    }

    /**
     * The line of the problem, when the loader knows it.
     *
     * <pre>{@code assertEquals(OptionalInt.of(3), e.line()); }</pre>
     *
     * @return the 1-based line, or empty
     */
    public OptionalInt line() {
        JsonNode line = data().path("line");
        return line.isIntegralNumber() ? OptionalInt.of(line.asInt()) : OptionalInt.empty();
    }

    /**
     * The column of the problem, when the loader knows it.
     *
     * <pre>{@code assertEquals(OptionalInt.of(1), e.column()); }</pre>
     *
     * @return the 1-based column, or empty
     */
    public OptionalInt column() {
        JsonNode column = data().path("column");
        return column.isIntegralNumber() ? OptionalInt.of(column.asInt()) : OptionalInt.empty();
    }
}

/*
 * McpTestException: the root of every failure this SDK raises.
 */
package dev.mcptest;

/**
 * A failure of the mcptest SDK: the binary, the channel or the server under test. Its message
 * says what was called and what came back, and ends with the tail of the binary's stderr when
 * there is one.
 *
 * <pre>{@code
 * try {
 *     client.call("echo", Map.of("message", "hi"));
 * } catch (McpTestException e) {
 *     System.err.println(e.getMessage()); // what was called, what came back, stderr tail
 * }
 * }</pre>
 */
public class McpTestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The tail of the binary's stderr when the failure happened ("" when it printed nothing). */
    private final String stderrTail;

    McpTestException(String message, String stderrTail, Throwable cause) {
        this(message, stderrTail, cause, true);
    }

    McpTestException(String message, String stderrTail, Throwable cause, boolean appendTail) {
        super(appendTail ? withTail(message, stderrTail) : message, cause);
        this.stderrTail = stderrTail == null ? "" : stderrTail;
    }

    McpTestException(String message, String stderrTail) {
        this(message, stderrTail, null);
    }

    /**
     * The last lines the mcptest binary wrote to stderr before this failure, or "".
     *
     * <pre>{@code
     * assertTrue(e.stderrTail().contains("panicked"));
     * }</pre>
     *
     * @return the tail, possibly empty
     */
    public String stderrTail() {
        return stderrTail;
    }

    private static String withTail(String message, String tail) {
        if (tail == null || tail.isBlank()) {
            return message;
        }
        return message + "\nmcptest stderr (last lines):\n" + tail.stripTrailing();
    }
}

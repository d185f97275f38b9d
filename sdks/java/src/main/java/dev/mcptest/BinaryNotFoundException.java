/*
 * BinaryNotFoundException: no mcptest binary where the SDK looked.
 */
package dev.mcptest;

/**
 * No mcptest binary was found: {@code MCPTEST_BIN} is unset (or names no executable file) and
 * no {@code mcptest} is on {@code PATH}. The message says how to install one.
 *
 * <pre>{@code
 * assertThrows(BinaryNotFoundException.class,
 *         () -> McpClient.start(server, ClientOptions.defaults().binary(Path.of("/nowhere"))));
 * }</pre>
 */
public final class BinaryNotFoundException extends McpTestException {
    private static final long serialVersionUID = 1L;

    BinaryNotFoundException(String message) {
        super(message, "");
    }
}

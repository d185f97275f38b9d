/*
 * ProtocolMismatchException: the handshake found a binary of another protocol version.
 */
package dev.mcptest;

/**
 * The mcptest binary does not speak this SDK's coprocess protocol version
 * ({@link McpClient#PROTOCOL_VERSION}). Raised by the handshake, before any test traffic; the
 * message names both versions and which side to upgrade (the binary's own words when it sent
 * them).
 *
 * <pre>{@code
 * try (var client = McpClient.start(server)) {
 *     // ...
 * } catch (ProtocolMismatchException e) {
 *     System.err.println(e.getMessage()); // "... Upgrade the mcptest binary ..."
 * }
 * }</pre>
 */
public final class ProtocolMismatchException extends McpTestException {
    private static final long serialVersionUID = 1L;

    ProtocolMismatchException(String message, String stderrTail) {
        // The versions are the whole story: the message stays the binary's own words.
        super(message, stderrTail, null, false);
    }
}

/*
 * BinaryExitedException: the binary closed its output or exited mid-session.
 */
package dev.mcptest;

import java.util.OptionalInt;

/**
 * The mcptest binary closed its stdout (it exited, crashed or refused its command line) before
 * answering a request. The message ends with its stderr, which usually says why.
 *
 * <pre>{@code
 * var e = assertThrows(BinaryExitedException.class, () -> client.call("echo"));
 * assertEquals(OptionalInt.of(2), e.exitCode());
 * }</pre>
 */
public final class BinaryExitedException extends McpTestException {
    private static final long serialVersionUID = 1L;

    private final Integer exitCode;

    BinaryExitedException(String what, Integer exitCode, String tail) {
        super("mcptest closed its output before answering " + what
                + (exitCode == null ? "" : " (exit code " + exitCode + ")")
                + (exitCode != null && exitCode == 2
                        ? "; exit code 2 means it refused its command line (its stderr says"
                                + " why; a binary older than coprocess v"
                                + McpClient.PROTOCOL_VERSION
                                + " does not take `-- PROGRAM ARG...`: upgrade it)"
                        : ""),
                tail);
        this.exitCode = exitCode;
    }

    /**
     * The binary's exit code, when it had exited by the time the SDK looked.
     *
     * <pre>{@code assertEquals(OptionalInt.of(2), e.exitCode()); }</pre>
     *
     * @return the exit code, or empty
     */
    public OptionalInt exitCode() {
        return exitCode == null ? OptionalInt.empty() : OptionalInt.of(exitCode);
    }
}

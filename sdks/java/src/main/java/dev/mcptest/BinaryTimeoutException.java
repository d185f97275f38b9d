/*
 * BinaryTimeoutException: the binary itself did not answer in time.
 */
package dev.mcptest;

import java.time.Duration;

/**
 * The mcptest binary did not answer a request within the SDK's own limit (the call timeout plus
 * {@link ClientOptions#margin}). The binary was stopped: a channel that missed an answer cannot
 * be trusted again, so the client is closed.
 *
 * <pre>{@code
 * var e = assertThrows(BinaryTimeoutException.class, () -> client.call("echo"));
 * assertEquals("mcp.call", e.method());
 * }</pre>
 */
public final class BinaryTimeoutException extends McpTestException {
    private static final long serialVersionUID = 1L;

    private final String method;
    private final Duration waited;
    private final long pid;

    BinaryTimeoutException(String what, String method, Duration waited, long pid, String tail) {
        super("mcptest did not answer " + what + " within " + waited.toMillis()
                + " ms; the binary (pid " + pid + ") was stopped and this client is closed",
                tail);
        this.method = method;
        this.waited = waited;
        this.pid = pid;
    }

    /**
     * The process id of the binary that was stopped.
     *
     * <pre>{@code assertFalse(ProcessHandle.of(e.pid()).isPresent()); }</pre>
     *
     * @return the pid
     */
    public long pid() {
        return pid;
    }

    /**
     * The coprocess method that got no answer.
     *
     * <pre>{@code assertEquals("coprocess/handshake", e.method()); }</pre>
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * How long the SDK waited.
     *
     * <pre>{@code assertTrue(e.waited().toMillis() >= 500); }</pre>
     *
     * @return the wait
     */
    public Duration waited() {
        return waited;
    }
}

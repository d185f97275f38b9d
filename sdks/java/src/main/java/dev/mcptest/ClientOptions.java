/*
 * ClientOptions: how the SDK starts and drives one mcptest binary.
 */
package dev.mcptest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How one mcptest binary is started and driven. Immutable; every {@code with} method returns a
 * new value. {@link #defaults()} reads {@code MCPTEST_CHECK_FRAMES}; the binary itself is found
 * when a client starts ({@code MCPTEST_BIN}, then {@code mcptest} on {@code PATH}) unless
 * {@link #binary(Path)} names it.
 *
 * <pre>{@code
 * ClientOptions options = ClientOptions.defaults()
 *         .callTimeout(Duration.ofSeconds(5))
 *         .checkFrames(true);
 * try (McpClient client = McpClient.start(Server.argv("my-server"), options)) { ... }
 * }</pre>
 *
 * @param binary the mcptest binary, or {@code null} to look it up when a client starts
 * @param callTimeout how long one upstream call may take (the binary's {@code --call-timeout})
 * @param margin how much longer the SDK waits for any answer before it stops the binary
 * @param startTimeout how long the binary may take to answer the handshake
 * @param grace how long a closing binary may take to exit before it is killed
 * @param checkFrames whether the binary checks every frame against the schema
 *     ({@code --check-frames}); on in every test run of this SDK
 * @param cwd the binary's working directory (suite paths resolve against it), or {@code null}
 *     for this process's
 * @param env variables added to the binary's environment (not the server's: see
 *     {@link Server#withEnv})
 * @param maxLineBytes the longest request line the binary accepts, or 0 for its default
 */
public record ClientOptions(
        Path binary,
        Duration callTimeout,
        Duration margin,
        Duration startTimeout,
        Duration grace,
        boolean checkFrames,
        Path cwd,
        Map<String, String> env,
        long maxLineBytes) {

    /** The variable that turns {@code --check-frames} on by default ({@code 1} or {@code true}). */
    public static final String CHECK_FRAMES_VARIABLE = "MCPTEST_CHECK_FRAMES";

    /** Checks that every duration is positive and copies the environment. */
    public ClientOptions {
        positive(callTimeout, "callTimeout");
        positive(margin, "margin");
        positive(startTimeout, "startTimeout");
        positive(grace, "grace");
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        if (maxLineBytes < 0) {
            throw new IllegalArgumentException("maxLineBytes is 0 (the default) or more");
        }
    }

    /**
     * The defaults: a 30 s call timeout, a 5 s margin, a 30 s start, a 2 s grace, frames
     * checked when {@code MCPTEST_CHECK_FRAMES} is {@code 1} or {@code true}.
     *
     * <pre>{@code ClientOptions options = ClientOptions.defaults(); }</pre>
     *
     * @return the defaults
     */
    public static ClientOptions defaults() {
        String flag = System.getenv(CHECK_FRAMES_VARIABLE);
        boolean check = flag != null
                && (flag.equals("1") || flag.toLowerCase(Locale.ROOT).equals("true"));
        return new ClientOptions(null, Duration.ofSeconds(30), Duration.ofSeconds(5),
                Duration.ofSeconds(30), Duration.ofSeconds(2), check, null, Map.of(), 0);
    }

    /**
     * These options with the binary named outright (no lookup).
     *
     * <pre>{@code ClientOptions.defaults().binary(Path.of("/opt/mcptest/bin/mcptest")) }</pre>
     *
     * @param path the binary
     * @return the new options
     */
    public ClientOptions binary(Path path) {
        return new ClientOptions(path, callTimeout, margin, startTimeout, grace, checkFrames, cwd,
                env, maxLineBytes);
    }

    /**
     * These options with another call timeout (passed to the binary as {@code --call-timeout}).
     *
     * <pre>{@code ClientOptions.defaults().callTimeout(Duration.ofMillis(500)) }</pre>
     *
     * @param timeout the limit of one upstream call
     * @return the new options
     */
    public ClientOptions callTimeout(Duration timeout) {
        return new ClientOptions(binary, timeout, margin, startTimeout, grace, checkFrames, cwd,
                env, maxLineBytes);
    }

    /**
     * These options with another margin: how much longer than the call timeout the SDK waits for
     * the binary before it gives up on it.
     *
     * <pre>{@code ClientOptions.defaults().margin(Duration.ofSeconds(1)) }</pre>
     *
     * @param extra the margin
     * @return the new options
     */
    public ClientOptions margin(Duration extra) {
        return new ClientOptions(binary, callTimeout, extra, startTimeout, grace, checkFrames, cwd,
                env, maxLineBytes);
    }

    /**
     * These options with another limit for the handshake answer.
     *
     * <pre>{@code ClientOptions.defaults().startTimeout(Duration.ofSeconds(5)) }</pre>
     *
     * @param timeout the limit
     * @return the new options
     */
    public ClientOptions startTimeout(Duration timeout) {
        return new ClientOptions(binary, callTimeout, margin, timeout, grace, checkFrames, cwd,
                env, maxLineBytes);
    }

    /**
     * These options with another grace period between asking the binary to stop and killing it.
     *
     * <pre>{@code ClientOptions.defaults().grace(Duration.ofMillis(500)) }</pre>
     *
     * @param period the grace period
     * @return the new options
     */
    public ClientOptions grace(Duration period) {
        return new ClientOptions(binary, callTimeout, margin, startTimeout, period, checkFrames,
                cwd, env, maxLineBytes);
    }

    /**
     * These options with frame checking by the binary on or off ({@code --check-frames}).
     *
     * <pre>{@code ClientOptions.defaults().checkFrames(true) }</pre>
     *
     * @param on whether the binary checks every frame against the schema
     * @return the new options
     */
    public ClientOptions checkFrames(boolean on) {
        return new ClientOptions(binary, callTimeout, margin, startTimeout, grace, on, cwd, env,
                maxLineBytes);
    }

    /**
     * These options with the binary run in another working directory.
     *
     * <pre>{@code ClientOptions.defaults().cwd(Path.of("tests")) }</pre>
     *
     * @param dir the directory
     * @return the new options
     */
    public ClientOptions cwd(Path dir) {
        return new ClientOptions(binary, callTimeout, margin, startTimeout, grace, checkFrames,
                dir, env, maxLineBytes);
    }

    /**
     * These options with one more variable in the binary's environment.
     *
     * <pre>{@code ClientOptions.defaults().env("RUST_LOG", "debug") }</pre>
     *
     * @param key the variable's name
     * @param value its value
     * @return the new options
     */
    public ClientOptions env(String key, String value) {
        var merged = new LinkedHashMap<>(env);
        merged.put(key, value);
        return new ClientOptions(binary, callTimeout, margin, startTimeout, grace, checkFrames,
                cwd, merged, maxLineBytes);
    }

    /**
     * These options with another request line limit ({@code --max-line-bytes}).
     *
     * <pre>{@code ClientOptions.defaults().maxLineBytes(1 << 20) }</pre>
     *
     * @param bytes the limit, or 0 for the binary's default
     * @return the new options
     */
    public ClientOptions maxLineBytes(long bytes) {
        return new ClientOptions(binary, callTimeout, margin, startTimeout, grace, checkFrames,
                cwd, env, bytes);
    }

    /** How long the SDK waits for the answer to an upstream request. */
    Duration requestWait() {
        return callTimeout.plus(margin);
    }

    /** A duration as the binary's command line spells it: whole seconds or milliseconds. */
    static String spell(Duration duration) {
        long ms = duration.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }

    private static void positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative() || d.toMillis() == 0) {
            throw new IllegalArgumentException(name + " is at least 1 ms, not " + d);
        }
    }
}

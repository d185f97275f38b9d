/*
 * BinaryLocator: finds the mcptest binary (MCPTEST_BIN, then PATH).
 */
package dev.mcptest;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/** Finds the mcptest binary: the one named outright, then {@code MCPTEST_BIN}, then PATH. */
final class BinaryLocator {
    /** The variable naming the binary. */
    static final String VARIABLE = "MCPTEST_BIN";

    static final String HOW_TO_INSTALL =
            "install it with `cargo install --path mcptest-cli` from a clone of the mcptest"
                    + " repository, then put it on PATH or set " + VARIABLE + " to its path";

    private BinaryLocator() {}

    /**
     * The binary to run.
     *
     * @param explicit the path named in the options, or {@code null}
     * @param env the environment to read {@code MCPTEST_BIN} and {@code PATH} from
     */
    static Path locate(Path explicit, Map<String, String> env) {
        if (explicit != null) {
            return executable(explicit, "the mcptest binary named in ClientOptions");
        }
        String named = env.get(VARIABLE);
        if (named != null && !named.isBlank()) {
            try {
                return executable(Path.of(named), VARIABLE + "=" + named);
            } catch (InvalidPathException e) {
                throw new BinaryNotFoundException(
                        VARIABLE + "=" + named + " is not a path (" + e.getReason() + "); "
                                + HOW_TO_INSTALL);
            }
        }
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate;
            try {
                candidate = Path.of(dir, "mcptest");
            } catch (InvalidPathException e) {
                continue;
            }
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new BinaryNotFoundException(
                "the mcptest binary was not found: " + VARIABLE + " is not set and no `mcptest`"
                        + " is on PATH; " + HOW_TO_INSTALL);
    }

    private static Path executable(Path path, String source) {
        if (!Files.exists(path)) {
            throw new BinaryNotFoundException(
                    source + ": no such file; " + HOW_TO_INSTALL);
        }
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new BinaryNotFoundException(
                    source + ": not an executable file; " + HOW_TO_INSTALL);
        }
        return path;
    }
}

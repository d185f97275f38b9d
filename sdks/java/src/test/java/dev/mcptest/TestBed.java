/*
 * TestBed: where the tests find the binary, the fixture servers, the fake binary and the
 * repository's suites, and how they read the process table.
 */
package dev.mcptest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Paths and options shared by the tests; every one fails with a reason when unset. */
final class TestBed {
    private TestBed() {}

    /** The repository root (system property {@code mcptest.repo}, set by ci.sh). */
    static Path repo() {
        String repo = System.getProperty("mcptest.repo");
        if (repo == null || repo.isBlank()) {
            throw new IllegalStateException(
                    "set -Dmcptest.repo=<repository root> (ci.sh does) so the tests find the"
                            + " suites in tests/suites");
        }
        return Path.of(repo).toAbsolutePath();
    }

    /** The directory of the fixture servers ({@code MCPTEST_FIXTURES}). */
    static Path fixtures() {
        String dir = System.getenv("MCPTEST_FIXTURES");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException(
                    "set MCPTEST_FIXTURES to the directory holding fixture-everything");
        }
        return Path.of(dir).toAbsolutePath();
    }

    /** A fixture server by name, with its arguments. */
    static Server fixture(String name, String... args) {
        var argv = new ArrayList<String>();
        argv.add(fixtures().resolve(name).toString());
        argv.addAll(List.of(args));
        return Server.argv(argv);
    }

    /** The fake binary (a Python script of this SDK's tests). */
    static Path fake() {
        return repo().resolve("sdks/java/src/test/fake/fake-mcptest");
    }

    /** Where the tests keep what they write (under the repository's target/). */
    static Path scratch(String name) {
        Path dir = repo().resolve("target/sdk-java/scratch").resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + dir + ": " + e, e);
        }
        return dir;
    }

    /** Options for the real binary: frames checked by the binary, always. */
    static ClientOptions options() {
        return ClientOptions.defaults().checkFrames(true);
    }

    /** Options for the fake binary in {@code mode}, with short waits. */
    static ClientOptions fake(String mode) {
        return options()
                .binary(fake())
                .env("FAKE_MCPTEST_MODE", mode)
                .startTimeout(Duration.ofSeconds(10))
                .grace(Duration.ofMillis(500));
    }

    /**
     * Whether {@code pid} is a running process. A zombie counts as gone: it runs nothing and
     * holds nothing but its table entry, which only its parent (or init) can clear.
     */
    static boolean alive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The state follows the parenthesised command name, which may hold spaces.
            String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
            return !state.equals("Z") && !state.equals("X");
        } catch (IOException | StringIndexOutOfBoundsException e) {
            return false;
        }
    }

    /** Waits (at most {@code limit}) until {@code pid} is gone; whether it went. */
    static boolean gone(long pid, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (alive(pid)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !alive(pid);
            }
        }
        return true;
    }

    /** The pids of every process below {@code pid}. */
    static List<Long> descendants(long pid) {
        return ProcessHandle.of(pid)
                .map(h -> h.descendants().map(ProcessHandle::pid).toList())
                .orElse(List.of());
    }

    /** Removes a directory tree (bounded: it is the tests' own scratch space). */
    static void remove(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove " + dir + ": " + e, e);
        }
    }
}

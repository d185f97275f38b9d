/*
 * BinaryLocatorTest: MCPTEST_BIN, then PATH, else a failure that says how to install.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BinaryLocatorTest {
    @Test
    void no_variable_and_nothing_on_path_says_how_to_install() {
        BinaryNotFoundException e = assertThrows(BinaryNotFoundException.class,
                () -> BinaryLocator.locate(null, Map.of("PATH", "/nonexistent-a:/nonexistent-b")));
        assertTrue(e.getMessage().startsWith("the mcptest binary was not found: MCPTEST_BIN is"
                + " not set and no `mcptest` is on PATH"), e.getMessage());
        assertTrue(e.getMessage().contains("cargo install --path mcptest-cli"), e.getMessage());
    }

    @Test
    void a_variable_naming_nothing_says_so() {
        BinaryNotFoundException e = assertThrows(BinaryNotFoundException.class,
                () -> BinaryLocator.locate(null, Map.of("MCPTEST_BIN", "/nonexistent/mcptest")));
        assertTrue(e.getMessage().startsWith("MCPTEST_BIN=/nonexistent/mcptest: no such file"),
                e.getMessage());
    }

    @Test
    void a_variable_naming_a_plain_file_says_it_is_not_executable() throws Exception {
        Path scratch = TestBed.scratch("locator-plain");
        Path plain = Files.writeString(scratch.resolve("mcptest"), "not a program");
        BinaryNotFoundException e = assertThrows(BinaryNotFoundException.class,
                () -> BinaryLocator.locate(null, Map.of("MCPTEST_BIN", plain.toString())));
        assertTrue(e.getMessage().contains("not an executable file"), e.getMessage());
        TestBed.remove(scratch);
    }

    @Test
    void the_variable_wins_over_path_and_path_is_searched_in_order() throws Exception {
        Path scratch = TestBed.scratch("locator-path");
        Path first = Files.createDirectories(scratch.resolve("first"));
        Path second = Files.createDirectories(scratch.resolve("second"));
        Path onPath = Files.copy(TestBed.fake(), second.resolve("mcptest"));
        String path = first + ":" + second;
        assertEquals(onPath, BinaryLocator.locate(null, Map.of("PATH", path)));
        assertEquals(TestBed.fake(), BinaryLocator.locate(null,
                Map.of("PATH", path, "MCPTEST_BIN", TestBed.fake().toString())));
        assertEquals(TestBed.fake(), BinaryLocator.locate(TestBed.fake(), Map.of()));
        TestBed.remove(scratch);
    }

    @Test
    void starting_with_a_missing_binary_fails_before_spawning() {
        BinaryNotFoundException e = assertThrows(BinaryNotFoundException.class,
                () -> McpClient.start(TestBed.fixture("fixture-everything"),
                        TestBed.options().binary(Path.of("/nonexistent/mcptest"))));
        assertTrue(e.getMessage().contains("cargo install --path mcptest-cli"), e.getMessage());
    }
}

/*
 * MismatchTest: binaries of another protocol version fail before any test traffic, in the
 * contract's words, and leave no process behind.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

class MismatchTest {
    /** Starts the fake in {@code mode}; returns the failure and checks the fake is gone. */
    private static McpTestException refused(String mode) throws Exception {
        Path scratch = TestBed.scratch("mismatch-" + mode);
        Path pidFile = scratch.resolve("pid");
        McpTestException e = assertThrows(McpTestException.class, () -> McpClient.start(
                TestBed.fixture("fixture-everything"),
                TestBed.fake(mode).env("FAKE_MCPTEST_PIDFILE", pidFile.toString())));
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        assertTrue(TestBed.gone(pid, Duration.ofSeconds(5)), "the fake binary " + pid
                + " still runs after a refused handshake");
        TestBed.remove(scratch);
        return e;
    }

    @Test
    void a_v1_binary_answering_method_not_found_is_told_to_upgrade() throws Exception {
        McpTestException e = refused("v1");
        assertEquals(ProtocolMismatchException.class, e.getClass());
        assertTrue(e.getMessage().startsWith("mcptest binary speaks coprocess v1; this SDK needs"
                + " v3. Upgrade the mcptest binary"), e.getMessage());
        assertTrue(e.getMessage().contains("cargo install --path mcptest-cli"), e.getMessage());
    }

    @Test
    void an_older_binary_shows_its_own_mismatch_message() throws Exception {
        McpTestException e = refused("older");
        assertEquals(ProtocolMismatchException.class, e.getClass());
        assertEquals("coprocess protocol version mismatch: this mcptest binary speaks v2, the java"
                + " SDK sent v3. Upgrade the mcptest binary (or pin the SDK to the matching"
                + " release).", e.getMessage());
    }

    @Test
    void an_older_binary_answering_with_its_version_is_told_to_upgrade() throws Exception {
        McpTestException e = refused("older-result");
        assertEquals(ProtocolMismatchException.class, e.getClass());
        assertTrue(e.getMessage().contains("answered the handshake with v2, the java SDK speaks"
                + " v3. Upgrade the mcptest binary"), e.getMessage());
    }

    @Test
    void a_newer_binary_says_to_upgrade_the_sdk() throws Exception {
        McpTestException e = refused("newer");
        assertEquals(ProtocolMismatchException.class, e.getClass());
        assertTrue(e.getMessage().contains("speaks v4 to v5, the java SDK sent v3. Upgrade the"
                + " java SDK"), e.getMessage());
    }

    @Test
    void a_newer_binary_answering_with_its_version_says_to_upgrade_the_sdk() throws Exception {
        McpTestException e = refused("newer-result");
        assertEquals(ProtocolMismatchException.class, e.getClass());
        assertTrue(e.getMessage().contains("answered the handshake with v4, the java SDK speaks"
                + " v3. Upgrade the java SDK"), e.getMessage());
    }

    /** The real v2 binary, where one is at hand (it is not in CI). */
    @Test
    @EnabledIfEnvironmentVariable(named = "MCPTEST_V2_BIN", matches = ".+")
    void the_real_v2_binary_refuses_a_v3_handshake() {
        ClientOptions v2 = TestBed.options().binary(Path.of(System.getenv("MCPTEST_V2_BIN")))
                .checkFrames(false);
        // v2 takes no `-- PROGRAM`, but it takes a URL (connected only on the first call).
        ProtocolMismatchException e = assertThrows(ProtocolMismatchException.class,
                () -> McpClient.start(Server.url("http://127.0.0.1:9/mcp"), v2));
        assertTrue(e.getMessage().contains("this mcptest binary speaks v2, the java SDK sent v3."
                + " Upgrade the mcptest binary"), e.getMessage());
    }
}

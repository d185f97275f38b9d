/*
 * AbortLedger: writes every aborted test of the main run to a file, so ci.sh can compare them
 * by name with the ones expected (src/test/expected-aborts.txt): an abort nobody expected
 * fails the run.
 */
package dev.mcptest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/** Registered through META-INF/services; active when {@code mcptest.abortLedger} names a file. */
public final class AbortLedger implements TestExecutionListener {
    /** Created by the launcher's service loader. */
    public AbortLedger() {}

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        String file = System.getProperty("mcptest.abortLedger");
        if (file == null || result.getStatus() != TestExecutionResult.Status.ABORTED) {
            return;
        }
        String reason = result.getThrowable().map(Throwable::getMessage).orElse("");
        String line = id.getDisplayName() + "\t" + reason.replace('\n', ' ') + "\n";
        try {
            Files.writeString(Path.of(file), line, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the abort ledger " + file + ": " + e, e);
        }
    }
}

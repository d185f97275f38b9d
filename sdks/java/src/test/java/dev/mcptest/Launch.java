/*
 * Launch: runs test classes through the JUnit Platform Launcher and keeps every outcome, so
 * the tests can check what JUnit itself saw (names, sources, failures, aborts).
 */
package dev.mcptest;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs classes (tagged {@code launched}, so the main run leaves them out) in a launcher. */
final class Launch {
    private Launch() {}

    /** One finished test (or container) as JUnit reported it. */
    record Outcome(String name, boolean isTest, TestExecutionResult.Status status,
            Throwable thrown, TestSource source) {
        /** The failure's or abort's message, or "". */
        String message() {
            return thrown == null ? "" : String.valueOf(thrown.getMessage());
        }
    }

    /** Every outcome of running {@code classes}, in the order JUnit finished them. */
    static List<Outcome> run(Class<?>... classes) {
        return run(Map.of(), classes);
    }

    /** The same, with JUnit configuration parameters (such as {@code mcptest.bin}). */
    static List<Outcome> run(Map<String, String> parameters, Class<?>... classes) {
        var outcomes = Collections.synchronizedList(new ArrayList<Outcome>());
        LauncherConfig config = LauncherConfig.builder()
                // The main run's listeners (the abort ledger) must not see these on-purpose
                // failures and aborts.
                .enableTestExecutionListenerAutoRegistration(false)
                .build();
        Launcher launcher = LauncherFactory.create(config);
        var builder = LauncherDiscoveryRequestBuilder.request();
        for (Class<?> type : classes) {
            builder.selectors(selectClass(type));
        }
        builder.configurationParameters(parameters);
        LauncherDiscoveryRequest request = builder.build();
        launcher.execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                outcomes.add(new Outcome(id.getDisplayName(), id.isTest(), result.getStatus(),
                        result.getThrowable().orElse(null), id.getSource().orElse(null)));
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                outcomes.add(new Outcome(id.getDisplayName(), id.isTest(), null, null,
                        id.getSource().orElse(null)));
            }
        });
        return List.copyOf(outcomes);
    }

    /** The tests (not containers) among {@code outcomes}. */
    static List<Outcome> tests(List<Outcome> outcomes) {
        return outcomes.stream().filter(Outcome::isTest).toList();
    }

    /** The one test named {@code name}; fails when there is none or more. */
    static Outcome test(List<Outcome> outcomes, String name) {
        List<Outcome> found = tests(outcomes).stream().filter(o -> o.name().equals(name)).toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one test named `" + name + "`, found "
                    + found.size() + " among " + tests(outcomes).stream().map(Outcome::name)
                    .toList());
        }
        return found.get(0);
    }

    /** A container's failure, such as a test factory that threw, if any. */
    static Optional<Outcome> failedContainer(List<Outcome> outcomes) {
        return outcomes.stream()
                .filter(o -> !o.isTest() && o.status() == TestExecutionResult.Status.FAILED)
                .findFirst();
    }
}

/*
 * SuiteCollectionTest: suites as JUnit runs them: every test of tests/suites/fail fails with
 * the engine's own text at its file:line, lanes and skips are aborted naming the command, a
 * file that does not load is one failing test at the problem, and a listing of nothing fails.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.engine.TestExecutionResult.Status;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class SuiteCollectionTest {
    @Tag("launched")
    static class FailCorpus {
        @TestFactory
        Stream<DynamicNode> suites_fail() {
            return McpSuite.tests(List.of("suites/fail"), Corpus.options());
        }
    }

    /**
     * A kept fixture copy's path in a failure text (below MCPTEST_KEPT_DIR, which Corpus sets),
     * which the Rust snapshot test writes as [fixture].
     */
    private static final Pattern KEPT =
            Pattern.compile("(" + Pattern.quote(Corpus.kept().toString()) + "/[^/\\s]+)/fixtures");

    /** A fresh fixture copy's path (`$TMPDIR/mcptest-NAME/fixtures`), also [fixture] there. */
    private static final Pattern COPY = Pattern.compile("[^\\s\"(]*/mcptest-[^/\\s\")]*(?:/fixtures)?");

    @Test
    void every_test_of_the_failing_corpus_fails_with_the_engines_text() throws IOException {
        Path tests = TestBed.repo().resolve("tests");
        List<SuiteTest> listed;
        try (McpClient session = McpClient.start(Corpus.options().client())) {
            listed = session.listSuite(List.of("suites/fail"), null);
        }
        assertTrue(listed.size() >= 50, "the failing corpus lists " + listed.size() + " tests");
        var outcomes = Launch.run(FailCorpus.class);
        assertEquals(Optional.empty(), Launch.failedContainer(outcomes));
        List<Launch.Outcome> ran = Launch.tests(outcomes);
        assertEquals(listed.size(), ran.size());
        Map<String, String> mismatches = new TreeMap<>();
        List<Path> keptDirs = new ArrayList<>();
        for (Launch.Outcome o : ran) {
            assertEquals(Status.FAILED, o.status(), o.name() + " should fail");
            assertInstanceOf(AssertionFailedError.class, o.thrown(), o.name());
            FileSource source = assertInstanceOf(FileSource.class, o.source(), o.name());
            SuiteTest test = listed.stream()
                    .filter(t -> tests.resolve(t.file()).equals(source.getFile().toPath())
                            && t.name().equals(o.name()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no listed test " + o.name() + " in "
                            + source.getFile()));
            assertEquals(Optional.of(FilePosition.from(test.line(), test.column())),
                    source.getPosition(), o.name());
            String message = o.message();
            Matcher kept = KEPT.matcher(message);
            while (kept.find()) {
                keptDirs.add(Path.of(kept.group(1)));
            }
            String normalized = COPY.matcher(KEPT.matcher(message).replaceAll("[fixture]"))
                    .replaceAll("[fixture]");
            String stem = source.getFile().getName().replaceFirst("\\.ya?ml$", "");
            String snapshot = snapshotBody(tests.resolve("suites/fail/snapshots/" + stem + ".snap"));
            if (!normalized.equals(snapshot)) {
                mismatches.put(o.name(), "\n--- the engine's snapshot\n" + snapshot
                        + "\n--- what JUnit reported\n" + normalized);
            }
        }
        keptDirs.forEach(TestBed::remove);
        assertEquals(Map.of(), mismatches);
    }

    /** The body of an insta snapshot file (after its second `---` line). */
    private static String snapshotBody(Path file) throws IOException {
        String text = Files.readString(file);
        int header = text.indexOf("\n---\n", 4);
        return text.substring(header + "\n---\n".length()).stripTrailing();
    }

    @Tag("launched")
    static class Lanes {
        @TestFactory
        Stream<DynamicNode> fake_suite() {
            return McpSuite.tests(List.of("suites"),
                    SuiteOptions.defaults().client(TestBed.fake("lanes")));
        }
    }

    @Test
    void skips_and_lanes_this_channel_does_not_drive_are_aborted_naming_the_command() {
        var outcomes = Launch.run(Lanes.class);
        assertEquals(5, Launch.tests(outcomes).size());
        assertEquals(Status.SUCCESSFUL, Launch.test(outcomes, "passes").status());
        Launch.Outcome failed = Launch.test(outcomes, "fails");
        assertEquals(Status.FAILED, failed.status());
        assertEquals("the fake failed `fails` on purpose", failed.message());
        Launch.Outcome file = Launch.test(outcomes, "skipped in the file");
        assertEquals(Status.ABORTED, file.status());
        assertInstanceOf(TestAbortedException.class, file.thrown());
        assertEquals("skipped: skip: true in the file", file.message());
        Launch.Outcome audit = Launch.test(outcomes, "audits");
        assertEquals(Status.ABORTED, audit.status());
        assertEquals("skipped: the security lane runs only from the command line (run it with:"
                + " mcptest audit --server CMD)", audit.message());
        Launch.Outcome lane = Launch.test(outcomes, "prompts elsewhere");
        assertEquals(Status.ABORTED, lane.status());
        assertEquals("skipped: this mcptest binary does not drive the `completion` lane over the"
                + " coprocess channel (run it with: mcptest run suites/fake.yaml)",
                lane.message());
    }

    @Tag("launched")
    static class Broken {
        @TestFactory
        Stream<DynamicNode> broken() {
            return McpSuite.tests(List.of("suites/invalid/unknown_key.yaml"), Corpus.options());
        }
    }

    @Test
    void a_file_that_does_not_load_is_one_failing_test_at_the_problem() {
        var outcomes = Launch.run(Broken.class);
        List<Launch.Outcome> ran = Launch.tests(outcomes);
        assertEquals(1, ran.size());
        Launch.Outcome o = ran.get(0);
        assertEquals(Status.FAILED, o.status());
        SuiteLoadException e = assertInstanceOf(SuiteLoadException.class, o.thrown());
        assertEquals("suites/invalid/unknown_key.yaml", e.file());
        assertTrue(e.line().isPresent(), "the loader gives a line");
        assertEquals("does not load: suites/invalid/unknown_key.yaml:" + e.line().getAsInt(),
                o.name());
        assertTrue(e.binaryMessage().startsWith("suites/invalid/unknown_key.yaml:"
                + e.line().getAsInt() + ":"), e.binaryMessage());
        FileSource source = assertInstanceOf(FileSource.class, o.source());
        assertEquals(TestBed.repo().resolve("tests/suites/invalid/unknown_key.yaml").toFile(),
                source.getFile());
        assertEquals(e.line().getAsInt(), source.getPosition().orElseThrow().getLine());
    }

    @Tag("launched")
    static class Nothing {
        @TestFactory
        Stream<DynamicNode> nothing() {
            return McpSuite.tests(List.of("suites/pass"),
                    Corpus.options().filter("no test is named like this"));
        }
    }

    @Test
    void a_listing_of_nothing_fails_rather_than_passing_vacuously() {
        var outcomes = Launch.run(Nothing.class);
        List<Launch.Outcome> ran = Launch.tests(outcomes);
        assertEquals(1, ran.size());
        assertEquals(Status.FAILED, ran.get(0).status());
        assertTrue(ran.get(0).message().startsWith("the binary lists no tests in [suites/pass]"
                + " matching `no test is named like this`"), ran.get(0).message());
    }

    @Test
    void the_suite_binary_is_shut_down_when_junit_closes_the_stream() {
        List<Long> before = TestBed.descendants(ProcessHandle.current().pid());
        Launch.run(Lanes.class);
        List<Long> after = TestBed.descendants(ProcessHandle.current().pid()).stream()
                .filter(pid -> !before.contains(pid))
                .filter(TestBed::alive)
                .toList();
        assertEquals(List.of(), after, "processes left behind by the suite run");
    }
}

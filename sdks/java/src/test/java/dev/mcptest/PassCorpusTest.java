/*
 * PassCorpusTest: tests/suites/pass as native dynamic tests in this run; every one passes,
 * and the two that skip on purpose are aborted (ci.sh checks the aborted ones by name against
 * src/test/expected-aborts.txt).
 */
package dev.mcptest;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

class PassCorpusTest {
    @TestFactory
    Stream<DynamicNode> suites_pass() {
        return McpSuite.tests(List.of("suites/pass"), Corpus.options());
    }
}

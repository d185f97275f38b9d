//! What kind of test a loaded test is (its lane), and whether its file
//! skips it: what a program that lists tests without running them (the
//! coprocess's `suite.list`) says about each.

use mcptest_suite_format::assertion::Block;

use crate::suite_test::{SuiteTest, TestKind};

/// Every lane, in the order they are documented: the block of an
/// mcp-assert file (`assert` is `tool`, `assert_resources` is `resources`,
/// ...), then `cases` for a document of an MCP Cases file.
///
/// ```
/// assert!(mcptest::suite::LANES.contains(&"cases"));
/// ```
pub const LANES: &[&str] = &[
    "tool",
    "resources",
    "prompts",
    "completion",
    "sampling",
    "logging",
    "notifications",
    "trajectory",
    "cases",
];

/// The reason a test skipped by `skip: true` is reported with.
pub(crate) fn skipped_in(file: &str) -> String {
    format!("`skip: true` in {file}")
}

impl SuiteTest {
    /// The test's lane, one of [`LANES`], from the loaded test.
    ///
    /// ```
    /// use mcptest::suite::Suite;
    ///
    /// let suite = Suite::parse("t.yaml", "name: t\nassert:\n  tool: echo\n  expect:\n    contains: [hi]\n").unwrap();
    /// assert_eq!(suite.tests()[0].lane(), "tool");
    /// ```
    pub fn lane(&self) -> &'static str {
        match &self.kind {
            TestKind::Assertion(a) => match &a.block {
                Block::Tool(_) => "tool",
                Block::Resources(_) => "resources",
                Block::Prompts(_) => "prompts",
                Block::Completion(_) => "completion",
                Block::Sampling(_) => "sampling",
                Block::Logging(_) => "logging",
                Block::Notifications(_) => "notifications",
                Block::Trajectory(_) => "trajectory",
            },
            TestKind::Case(_) => "cases",
        }
    }

    /// Why the test is skipped whatever the server, when its file says
    /// `skip: true`: the reason its run reports. `None` otherwise (a
    /// `skip_unless_env` is decided when it runs).
    ///
    /// ```
    /// use mcptest::suite::Suite;
    ///
    /// let suite = Suite::parse("t.yaml", "name: t\nskip: true\nassert:\n  tool: echo\n  expect:\n    contains: [hi]\n").unwrap();
    /// assert_eq!(suite.tests()[0].skipped_in_file().as_deref(), Some("`skip: true` in t.yaml"));
    /// ```
    pub fn skipped_in_file(&self) -> Option<String> {
        match &self.kind {
            TestKind::Assertion(a) if a.skip => Some(skipped_in(&self.file)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Suite;

    #[test]
    fn every_lane_a_test_can_have_is_listed() {
        let blocks = [
            (
                "assert:\n  tool: echo\n  expect:\n    contains: [hi]",
                "tool",
            ),
            (
                "assert_resources:\n  list: {}\n  expect:\n    not_empty: true",
                "resources",
            ),
            (
                "assert_prompts:\n  list: {}\n  expect:\n    contains: [greeting]",
                "prompts",
            ),
        ];
        for (block, lane) in blocks {
            let text = format!("name: t\n{block}\n");
            let suite = Suite::parse("t.yaml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(suite.tests()[0].lane(), lane);
            assert!(LANES.contains(&lane));
            assert_eq!(suite.tests()[0].skipped_in_file(), None);
        }
        let cases = Suite::parse(
            "c.yaml",
            "case: one\nin: {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\nout: {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}\n",
        )
        .unwrap();
        assert_eq!(cases.tests()[0].lane(), "cases");
    }
}

//! One loaded test, [`SuiteTest`]: its name, file, format and place, and
//! what it runs (an assertion or a case). Its lane, its coverage and its
//! run are added where they are worked out (`lane`, `coverage`, `run_test`).

use mcptest_core::report::Location;
use mcptest_suite_format::Format;

/// One test: an mcp-assert file, or one document of an MCP Cases file.
#[derive(Debug, Clone)]
pub struct SuiteTest {
    /// The assertion's `name` (default: the file name), or the case's name
    /// (default: `case N`).
    pub name: String,
    /// The file it came from, as given.
    pub file: String,
    /// Which format the file is in.
    pub format: Format,
    /// Where it is written: the assertion's block, or the case's document.
    pub location: Location,
    pub(crate) kind: TestKind,
}

/// What a test runs: its file's assertion, or its case.
#[derive(Debug, Clone)]
pub(crate) enum TestKind {
    Assertion(Box<mcptest_suite_format::assertion::Assertion>),
    Case(Box<mcptest_suite_format::cases::Case>),
}

impl SuiteTest {
    /// The file name its session gets under [`RunOptions::record`](crate::RunOptions::record): the
    /// file and the test name, each character outside `[A-Za-z0-9_-]` a `_`.
    pub fn cassette_name(&self) -> String {
        let safe = mcptest_core::__support::file_name_part;
        format!("{}__{}.json", safe(&self.file), safe(&self.name))
    }

    /// True for an mcp-assert file whose `server:` names a command or a
    /// URL of its own (which [`RunOptions::replace_servers`](crate::RunOptions::replace_servers) replaces).
    pub fn names_server(&self) -> bool {
        match &self.kind {
            TestKind::Assertion(a) => a
                .server
                .as_ref()
                .is_some_and(|s| s.http || s.command.is_some()),
            TestKind::Case(_) => false,
        }
    }
}

//! What a run found, whatever ran it: one model shared by suites,
//! conformance runs, audits and fuzz runs, and every way of showing it.
//!
//! A [`Report`] is a list of [`TestResult`]s, each with an [`Outcome`]: it
//! passed, it failed with a [`Failure`] (the same
//! failure layout a fluent check prints: what was called, what was expected,
//! what came back, the server's stderr), it warned (a broken SHOULD rule:
//! shown, but the run still passes), or it was skipped with the reason.
//!
//! ```
//! use std::time::Duration;
//! use mcptest::report::{Outcome, Report, TestResult};
//!
//! let mut report = Report::new("suite tests/evals");
//! report.push(TestResult::new("echo says hello", Outcome::Pass).duration(Duration::from_millis(12)));
//! report.push(TestResult::new("slow tool", Outcome::skip("needs SLOW_TESTS")));
//! assert!(report.passed());
//! assert_eq!(report.counts().skipped, 1);
//! println!("{report}"); // one line per test, then every failure in full
//! let json = report.to_json();
//! assert_eq!(json["counts"]["passed"], 1);
//! ```
//!
//! Renderings: [`Display`](std::fmt::Display) for a terminal,
//! [`to_json`](Report::to_json), `to_junit` (JUnit XML,
//! with the `junit` feature), [`to_markdown`](Report::to_markdown) (a GitHub
//! step summary) and [`badge`](Report::badge) (a shields.io endpoint).

mod json;
#[cfg(feature = "junit")]
mod junit;
mod markdown;
pub(crate) mod safe;
mod terminal;
pub(crate) use safe::safe_text;

use std::{fmt, time::Duration};

use serde::Serialize;

use crate::{
    error::ServerOutput,
    expect::{Evidence, Failure, Miss},
};

/// Pass, fail, warn or skip: an [`Outcome`] without its evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every expectation held.
    Pass,
    /// An expectation did not hold (a broken MUST rule, a failed check, a
    /// crash): the run fails.
    Fail,
    /// A broken SHOULD rule: reported, but the run still passes.
    Warn,
    /// It did not run, for a reason.
    Skip,
}

impl Status {
    /// `PASS`, `FAIL`, `WARN` or `SKIP`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Warn => "WARN",
            Status::Skip => "SKIP",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one test (or check) ended, with what it rests on.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// Every expectation held.
    Pass,
    /// It failed; the failure says what was called, expected and received.
    Fail(Box<Failure>),
    /// A SHOULD rule is broken: shown with its evidence, not a failure of
    /// the run.
    Warn(Box<Failure>),
    /// It did not run, and why.
    Skip(String),
}

impl Outcome {
    /// A failure.
    pub fn fail(failure: Failure) -> Self {
        Outcome::Fail(Box::new(failure))
    }

    /// A failure that is no check's verdict (the server did not start, the
    /// file could not be read): `expected` says what should have happened,
    /// `why` what happened instead.
    pub fn error(expected: impl Into<String>, why: impl Into<String>) -> Self {
        Outcome::fail(Failure::new(
            None,
            vec![Miss::new(expected, Evidence::new().note(why))],
            ServerOutput::default(),
        ))
    }

    /// A warning.
    pub fn warn(failure: Failure) -> Self {
        Outcome::Warn(Box::new(failure))
    }

    /// Skipped, and why.
    pub fn skip(reason: impl Into<String>) -> Self {
        Outcome::Skip(reason.into())
    }

    /// Pass, fail, warn or skip.
    pub fn status(&self) -> Status {
        match self {
            Outcome::Pass => Status::Pass,
            Outcome::Fail(_) => Status::Fail,
            Outcome::Warn(_) => Status::Warn,
            Outcome::Skip(_) => Status::Skip,
        }
    }

    /// True unless it failed (warnings and skips do not fail a run).
    pub fn is_ok(&self) -> bool {
        !matches!(self, Outcome::Fail(_))
    }

    /// The failure (or warning) with its evidence.
    pub fn failure(&self) -> Option<&Failure> {
        match self {
            Outcome::Fail(f) | Outcome::Warn(f) => Some(f),
            Outcome::Pass | Outcome::Skip(_) => None,
        }
    }

    /// Why it was skipped.
    pub fn skip_reason(&self) -> Option<&str> {
        match self {
            Outcome::Skip(reason) => Some(reason),
            _ => None,
        }
    }

    /// One line: the first expectation that failed and what was seen, or the
    /// reason for a skip; `None` for a pass.
    pub fn summary(&self) -> Option<String> {
        match self {
            Outcome::Pass => None,
            Outcome::Skip(reason) => Some(reason.clone()),
            Outcome::Fail(f) | Outcome::Warn(f) => Some(summarize(f)),
        }
    }
}

fn summarize(failure: &Failure) -> String {
    let Some(first) = failure.misses().first() else {
        return "failed".into();
    };
    let mut line = format!("expected {}", first.expected());
    if let Some(note) = first.evidence().explanation() {
        line.push_str(": ");
        line.push_str(note);
    }
    if failure.misses().len() > 1 {
        line.push_str(&format!(" (and {} more)", failure.misses().len() - 1));
    }
    line.replace('\n', " ")
}

/// Where a test (or one of its expectations) is written: a file and a
/// 1-based line and column (0 when unknown).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Location {
    /// The file, as given to the runner.
    pub file: String,
    /// 1-based line; 0 for the file as a whole.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
}

impl Location {
    /// A place in `file`.
    pub fn new(file: impl Into<String>, line: u32, column: u32) -> Self {
        Location {
            file: file.into(),
            line,
            column,
        }
    }

    /// The file as a whole.
    pub fn file(file: impl Into<String>) -> Self {
        Location::new(file, 0, 0)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.file),
            (line, 0) => write!(f, "{}:{line}", self.file),
            (line, column) => write!(f, "{}:{line}:{column}", self.file),
        }
    }
}

/// One test's (or check's) result: its name, where it is written, how it
/// ended, how long it took, and labels for reports.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TestResult {
    /// The test's name, or a check's id.
    pub name: String,
    /// What it belongs to (a suite file, a spec section): JUnit's
    /// `classname`.
    pub group: Option<String>,
    /// Where it is written.
    pub location: Option<Location>,
    /// How it ended.
    pub outcome: Outcome,
    /// How long it took.
    pub duration: Duration,
    /// Labels shown in reports (`level = MUST`, `sep = SEP-2575`), in order.
    pub properties: Vec<(String, String)>,
}

impl TestResult {
    /// A result named `name`.
    pub fn new(name: impl Into<String>, outcome: Outcome) -> Self {
        TestResult {
            name: name.into(),
            group: None,
            location: None,
            outcome,
            duration: Duration::ZERO,
            properties: Vec::new(),
        }
    }

    /// What it belongs to.
    pub fn group(mut self, group: impl Into<String>) -> Self {
        self.group = Some(group.into());
        self
    }

    /// Where it is written.
    pub fn location(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    /// How long it took.
    pub fn duration(mut self, duration: Duration) -> Self {
        self.duration = duration;
        self
    }

    /// Adds a label.
    pub fn property(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.properties.push((name.into(), value.into()));
        self
    }

    /// The value of label `name`.
    pub fn property_value(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Pass, fail, warn or skip.
    pub fn status(&self) -> Status {
        self.outcome.status()
    }
}

/// How many results ended in each status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Counts {
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// Passed with a warning.
    pub warned: usize,
    /// Skipped.
    pub skipped: usize,
}

impl Counts {
    /// All results.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.warned + self.skipped
    }

    /// One more result of `status`.
    pub fn add(&mut self, status: Status) {
        match status {
            Status::Pass => self.passed += 1,
            Status::Fail => self.failed += 1,
            Status::Warn => self.warned += 1,
            Status::Skip => self.skipped += 1,
        }
    }
}

/// The results of one run, in the order they were produced.
///
/// A run with no results did not pass: [`passed`](Report::passed) is false
/// and [`assert_passed`](Report::assert_passed) says that nothing ran.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// What ran: `suite tests/evals`, `MCP conformance of server my-server
    /// over stdio`.
    pub title: String,
    /// One result per test or check.
    pub results: Vec<TestResult>,
    /// How long the whole run took.
    pub duration: Duration,
}

/// Without the `junit` feature, `to_junit` is a compile error that says to
/// turn it on.
#[cfg(not(feature = "junit"))]
impl Report {
    #[doc(hidden)]
    pub fn to_junit<'a>(&self) -> String
    where
        &'a (): crate::needs::Junit,
    {
        unreachable!("no type implements needs::Junit without the `junit` feature")
    }
}

impl Report {
    /// An empty report titled `title`.
    pub fn new(title: impl Into<String>) -> Self {
        Report {
            title: title.into(),
            results: Vec::new(),
            duration: Duration::ZERO,
        }
    }

    /// Adds a result.
    pub fn push(&mut self, result: TestResult) {
        self.results.push(result);
    }

    /// How long the whole run took.
    pub fn with_duration(mut self, duration: Duration) -> Self {
        self.duration = duration;
        self
    }

    /// How many results ended in each status.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for result in &self.results {
            counts.add(result.status());
        }
        counts
    }

    /// The result named `name`, if there is one.
    pub fn result(&self, name: &str) -> Option<&TestResult> {
        self.results.iter().find(|r| r.name == name)
    }

    /// The results that failed.
    pub fn failures(&self) -> impl Iterator<Item = &TestResult> {
        self.results.iter().filter(|r| r.status() == Status::Fail)
    }

    /// True when something ran and nothing failed (warnings and skips
    /// allowed). An empty report has not passed: it checked nothing.
    pub fn passed(&self) -> bool {
        let counts = self.counts();
        counts.failed == 0 && counts.passed + counts.warned > 0
    }

    /// Panics with every failure in full unless the run
    /// [`passed`](Report::passed).
    #[track_caller]
    pub fn assert_passed(&self) {
        if let Err(message) = self.check_passed() {
            panic!("{message}");
        }
    }

    /// The `Result` form of [`assert_passed`](Report::assert_passed).
    pub fn check_passed(&self) -> Result<(), String> {
        if self.passed() {
            return Ok(());
        }
        if self.failures().next().is_none() {
            return Err(format!(
                "{}: nothing was checked ({} result{}, all skipped)",
                self.title,
                self.results.len(),
                if self.results.len() == 1 { "" } else { "s" }
            ));
        }
        Err(terminal::failures_message(self, false))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&terminal::render(self, false))
    }
}

pub(crate) fn millis(duration: Duration) -> u64 {
    duration.as_millis().try_into().unwrap_or(u64::MAX)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::expect::Shown;

    pub(crate) fn failure(expected: &str, note: &str) -> Failure {
        Failure::new(
            Some("tools/call echo {\"message\":\"hi\"}".into()),
            vec![Miss::new(
                expected,
                Evidence::new().actual(Shown::text("text", "hi")).note(note),
            )],
            ServerOutput::default(),
        )
    }

    pub(crate) fn sample() -> Report {
        let mut report = Report::new("suite tests/evals");
        report.push(
            TestResult::new("echo says hi", Outcome::Pass)
                .group("echo.yaml")
                .location(Location::new("tests/evals/echo.yaml", 1, 1))
                .duration(Duration::from_millis(12)),
        );
        report.push(
            TestResult::new(
                "echo says bye",
                Outcome::fail(failure("text equals \"bye\"", "it differs")),
            )
            .group("bye.yaml")
            .location(Location::new("tests/evals/bye.yaml", 7, 5))
            .duration(Duration::from_millis(30))
            .property("level", "MUST"),
        );
        report.push(
            TestResult::new(
                "cursor",
                Outcome::warn(failure("a bad cursor is rejected", "it was accepted")),
            )
            .duration(Duration::from_millis(3)),
        );
        report.push(TestResult::new(
            "slow",
            Outcome::skip("SLOW_TESTS is not set"),
        ));
        report.with_duration(Duration::from_millis(50))
    }

    #[test]
    fn counts_and_verdict() {
        let report = sample();
        assert_eq!(
            report.counts(),
            Counts {
                passed: 1,
                failed: 1,
                warned: 1,
                skipped: 1
            }
        );
        assert_eq!(report.counts().total(), 4);
        assert!(!report.passed());
        assert_eq!(report.failures().count(), 1);
        assert_eq!(report.result("slow").unwrap().status(), Status::Skip);
    }

    #[test]
    fn a_report_that_checked_nothing_has_not_passed() {
        let empty = Report::new("suite empty");
        assert!(!empty.passed());
        assert_eq!(
            empty.check_passed().unwrap_err(),
            "suite empty: nothing was checked (0 results, all skipped)"
        );
        let mut skipped = Report::new("suite skipped");
        skipped.push(TestResult::new("a", Outcome::skip("off")));
        assert!(!skipped.passed());
        let mut warned = Report::new("run");
        warned.push(TestResult::new("w", Outcome::warn(failure("x", "y"))));
        assert!(warned.passed());
    }

    #[test]
    fn assert_passed_lists_every_failure_in_the_shared_layout() {
        let message = sample().check_passed().unwrap_err();
        assert!(
            message.starts_with("suite tests/evals: 1 of 4 failed"),
            "{message}"
        );
        assert!(
            message.contains("FAIL echo says bye (tests/evals/bye.yaml:7:5)"),
            "{message}"
        );
        assert!(
            message.contains("expected: text equals \"bye\""),
            "{message}"
        );
        assert!(!message.contains("cursor"), "{message}");
    }

    #[test]
    fn a_summary_is_one_line() {
        let outcome = Outcome::fail(failure("text equals \"a\nb\"", "two\nlines"));
        assert_eq!(
            outcome.summary().unwrap(),
            "expected text equals \"a b\": two lines"
        );
        assert_eq!(Outcome::Pass.summary(), None);
        assert_eq!(Outcome::skip("why").summary().as_deref(), Some("why"));
        let error = Outcome::error("the server starts", "no such file");
        assert_eq!(
            error.summary().unwrap(),
            "expected the server starts: no such file"
        );
    }

    #[test]
    fn locations_print_like_compiler_messages() {
        assert_eq!(Location::new("a.yaml", 3, 7).to_string(), "a.yaml:3:7");
        assert_eq!(Location::new("a.yaml", 3, 0).to_string(), "a.yaml:3");
        assert_eq!(Location::file("a.yaml").to_string(), "a.yaml");
    }
}

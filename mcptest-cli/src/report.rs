//! From a suite's results to the shared [`report`](mcptest::report) model.
//!
//! The one place the command converts suite results; it goes away when
//! suites produce `report::TestResult`s themselves.

use mcptest::{
    ServerOutput,
    expect::{Evidence, Failure, Miss, Shown},
    report::{Location, Outcome, TestResult},
    suite,
};

/// One suite test's result as a report result: named by the test, grouped
/// and located by its file.
pub fn from_suite(result: suite::TestResult) -> TestResult {
    let outcome = match result.outcome {
        suite::Outcome::Passed => Outcome::Pass,
        suite::Outcome::Skipped(why) => Outcome::skip(why),
        // The suite's message is already rendered: it is shown whole, and
        // the one-line summary stays short.
        suite::Outcome::Failed(message) => Outcome::fail(Failure::new(
            None,
            vec![Miss::new(
                "every expectation of the test holds",
                Evidence::new().actual(Shown::plain("failure", message)),
            )],
            ServerOutput::default(),
        )),
    };
    TestResult::new(result.name, outcome)
        .group(result.file.clone())
        .location(Location::file(result.file))
        .duration(result.elapsed)
}

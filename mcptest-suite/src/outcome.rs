//! How a test ends: its outcome from a failure (keeping the fixture copy),
//! the failure of a test that ran out of time, and the message a failed
//! result prints.

use std::time::Duration;

use mcptest_core::Fixture;
use mcptest_core::report::Outcome;
use mcptest_core::report::TestResult;

/// A test (`what`: "assertion", "case") that did not end within `guard`.
pub(crate) fn timed_out(what: &str, guard: Duration) -> mcptest_core::expect::Failure {
    mcptest_core::expect::Failure::expecting(format!(
        "the {what} to finish within {}",
        mcptest_core::__support::fmt_duration(guard)
    ))
    .but("it did not")
}

/// A test's outcome; a failure keeps the fixture copy and says where.
pub(crate) fn outcome(
    result: Result<(), mcptest_core::expect::Failure>,
    fixture: Option<Fixture>,
) -> Outcome {
    match result {
        Ok(()) => Outcome::Pass,
        Err(mut failure) => {
            if let Some(dir) = fixture {
                failure = failure.fixture_kept(dir.keep_failed());
            }
            Outcome::fail(failure)
        }
    }
}

/// A failed result as a suite prints it: `file:line:column: `name` failed`,
/// then the failure in the layout every check shares. `None` unless it failed.
pub fn failure_message(result: &TestResult, color: bool) -> Option<String> {
    let failure = result.outcome.failure()?;
    let place = result
        .location
        .as_ref()
        .map(|l| format!("{l}: "))
        .unwrap_or_default();
    Some(format!(
        "{place}`{}` failed\n{}",
        mcptest_core::__support::safe_text(&result.name),
        failure.render(color)
    ))
}

//! Tests whose verdict depends on what runs beside them. When tests fail
//! while others ran, the run replays its tests one at a time, in file
//! order, up to the last of them (the way mcp-assert runs every test, one
//! after another): a server whose processes share state (one file for
//! all) may have lost an update while they overlapped, and only the
//! earlier tests, run again in order, rebuild the state a test was written
//! for. A test that failed beside others and passes in the replay passes,
//! marked `interfered`; one that passed beside others keeps its pass, and
//! is marked if it fails in the replay. The summary names every marked
//! test with the ways to run such a suite fully parallel. Nothing that
//! depends on scheduling passes unsaid.

use mcptest_core::report::{Report, Status, TestResult};

/// The property that marks a test whose verdict beside other tests and
/// one at a time differ; its value says which way and what was seen.
///
/// ```
/// use mcptest::{report::TestResult, suite::runner::INTERFERED};
///
/// fn interfered(result: &TestResult) -> Option<&str> {
///     result.property_value(INTERFERED)
/// }
/// ```
pub const INTERFERED: &str = "interfered";

/// The verdict of a test that ran beside others (`beside`) and again in
/// the replay one at a time (`alone`). A failure beside others takes the
/// replay's verdict, marked when it passed; a pass beside others stays a
/// pass (its checks held on a real answer), marked when the replay failed.
pub(super) fn judge(beside: TestResult, alone: TestResult) -> TestResult {
    match (beside.status(), alone.status()) {
        (Status::Fail, Status::Fail) => alone,
        (Status::Fail, _) => {
            let seen = beside.outcome.summary().unwrap_or_else(|| "failed".into());
            alone.property(
                INTERFERED,
                format!("failed beside other tests, passed one at a time ({seen})"),
            )
        }
        (_, Status::Fail) => {
            let seen = alone.outcome.summary().unwrap_or_else(|| "failed".into());
            beside.property(
                INTERFERED,
                format!("passed beside other tests, failed one at a time ({seen})"),
            )
        }
        _ => beside,
    }
}

fn interfered(report: &Report) -> Vec<&TestResult> {
    report
        .results
        .iter()
        .filter(|r| r.property_value(INTERFERED).is_some())
        .collect()
}

const ADVICE: &str = "\
They share state through their server (one file for every process, a fixed
port, ...), so they pass only one at a time, as mcp-assert runs them; each
failure seen beside the others is in the reports (property `interfered`).
For full parallelism, give each test's server state of its own (e.g. an env
var naming a file under {{fixture}}) and pass --independent; or run with
--jobs 1.";

/// The terminal's paragraph on the tests that interfered (each with its
/// file and why, then the ways to run such a suite fully parallel); empty
/// when none.
///
/// ```
/// use mcptest::{report::Report, suite::runner::interference_summary};
///
/// assert_eq!(interference_summary(&Report::new("a run where nothing interfered")), "");
/// ```
pub fn summary(report: &Report) -> String {
    let tests = interfered(report);
    if tests.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "interfered: {} test{} gave another verdict beside other tests than one at a time:\n",
        tests.len(),
        if tests.len() == 1 { "" } else { "s" }
    );
    for test in &tests {
        let place = test
            .location
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        let why = test.property_value(INTERFERED).unwrap_or_default();
        out.push_str(&format!("  {}{place}: {why}\n", test.name));
    }
    out.push_str(ADVICE);
    out.push('\n');
    out
}

/// The same for the Markdown report; empty when none.
pub(super) fn markdown(report: &Report) -> String {
    let tests = interfered(report);
    if tests.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n#### Interfered\n\nThese tests gave another verdict beside other tests than one at a time:\n\n",
    );
    for test in &tests {
        out.push_str(&format!(
            "- {}: {}\n",
            test.name,
            test.property_value(INTERFERED).unwrap_or_default()
        ));
    }
    out.push('\n');
    out.push_str(&ADVICE.replace('\n', " "));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcptest_core::report::Outcome;

    #[test]
    fn a_failure_beside_others_that_passes_alone_passes_marked_and_is_named() {
        let beside = TestResult::new("t", Outcome::error("an empty graph", "it holds 3 entities"));
        let judged = judge(beside, TestResult::new("t", Outcome::Pass));
        assert_eq!(judged.status(), Status::Pass);
        let why = judged.property_value(INTERFERED).unwrap();
        assert!(why.starts_with("failed beside other tests"), "{why}");
        assert!(why.contains("it holds 3 entities"), "{why}");
        let mut report = Report::new("r");
        report.push(judged);
        report.push(TestResult::new("other", Outcome::Pass));
        let text = summary(&report);
        assert!(
            text.starts_with("interfered: 1 test gave another verdict"),
            "{text}"
        );
        assert!(text.contains("  t: failed beside other tests"), "{text}");
        assert!(!text.contains("other:"), "{text}");
        assert!(text.contains("--independent"), "{text}");
        assert!(markdown(&report).contains("- t: failed beside"));
    }

    #[test]
    fn a_test_that_fails_alone_too_keeps_the_lone_failure_unmarked() {
        let beside = TestResult::new("t", Outcome::error("x", "beside"));
        let judged = judge(beside, TestResult::new("t", Outcome::error("x", "alone")));
        assert_eq!(judged.status(), Status::Fail);
        assert!(judged.properties.is_empty());
        let mut report = Report::new("r");
        report.push(judged);
        assert_eq!(summary(&report), "");
        assert_eq!(markdown(&report), "");
    }

    #[test]
    fn a_pass_beside_others_that_fails_alone_stays_a_pass_marked() {
        let beside = TestResult::new("t", Outcome::Pass);
        let judged = judge(beside, TestResult::new("t", Outcome::error("x", "alone")));
        assert_eq!(judged.status(), Status::Pass);
        let why = judged.property_value(INTERFERED).unwrap();
        assert!(
            why.starts_with("passed beside other tests, failed one at a time"),
            "{why}"
        );
        let unmarked = judge(
            TestResult::new("t", Outcome::Pass),
            TestResult::new("t", Outcome::Pass),
        );
        assert!(unmarked.properties.is_empty());
    }
}

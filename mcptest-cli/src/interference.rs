//! Tests whose verdict depends on what runs beside them. A test that
//! failed while other tests ran is rerun alone once the rest are done (the
//! way mcp-assert runs every test, one after another); if it then passes,
//! its verdict is the pass, marked `interfered`, and the summary names it
//! with the ways to run such a suite fully parallel. Nothing that depends
//! on scheduling passes unsaid.

use mcptest::report::{Report, Status, TestResult};

/// The property that marks a test that failed beside others and passed
/// alone; its value is the failure seen beside them.
pub const INTERFERED: &str = "interfered";

/// The verdict of a test that failed beside others (`beside`) and was
/// rerun alone (`alone`): the lone run's, marked when it passed.
pub fn judge(beside: &TestResult, alone: TestResult) -> TestResult {
    if alone.status() == Status::Fail {
        return alone;
    }
    let seen = beside.outcome.summary().unwrap_or_else(|| "failed".into());
    alone.property(
        INTERFERED,
        format!("failed beside other tests, passed alone ({seen})"),
    )
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

/// The terminal's paragraph on the tests that interfered; empty when none.
pub fn summary(report: &Report) -> String {
    let tests = interfered(report);
    if tests.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "interfered: {} test{} failed beside other tests and passed when rerun alone:\n",
        tests.len(),
        if tests.len() == 1 { "" } else { "s" }
    );
    for test in &tests {
        let place = test
            .location
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        out.push_str(&format!("  {}{place}\n", test.name));
    }
    out.push_str(ADVICE);
    out.push('\n');
    out
}

/// The same for the Markdown report; empty when none.
pub fn markdown(report: &Report) -> String {
    let tests = interfered(report);
    if tests.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n#### Interfered\n\nThese tests failed beside other tests and passed when rerun alone:\n\n",
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
    use mcptest::report::Outcome;

    #[test]
    fn a_test_that_passes_alone_passes_marked_and_is_named() {
        let beside = TestResult::new("t", Outcome::error("an empty graph", "it holds 3 entities"));
        let judged = judge(&beside, TestResult::new("t", Outcome::Pass));
        assert_eq!(judged.status(), Status::Pass);
        let why = judged.property_value(INTERFERED).unwrap();
        assert!(why.contains("it holds 3 entities"), "{why}");
        let mut report = Report::new("r");
        report.push(judged);
        report.push(TestResult::new("other", Outcome::Pass));
        let text = summary(&report);
        assert!(text.starts_with("interfered: 1 test failed"), "{text}");
        assert!(text.contains("  t\n"), "{text}");
        assert!(text.contains("--independent"), "{text}");
        assert!(markdown(&report).contains("- t: failed beside"));
    }

    #[test]
    fn a_test_that_fails_alone_too_keeps_the_lone_failure_unmarked() {
        let beside = TestResult::new("t", Outcome::error("x", "beside"));
        let judged = judge(&beside, TestResult::new("t", Outcome::error("x", "alone")));
        assert_eq!(judged.status(), Status::Fail);
        assert!(judged.properties.is_empty());
        let mut report = Report::new("r");
        report.push(judged);
        assert_eq!(summary(&report), "");
        assert_eq!(markdown(&report), "");
    }
}

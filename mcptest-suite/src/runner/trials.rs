//! `--trials N`: one result from N runs of a test, with pass@N (some trial
//! passed) and pass^N (every trial passed) as properties, and the run's
//! rates in the report's title.

use mcptest_core::report::{Report, Status, TestResult};

/// Folds the trials of one test: the first failure if any trial failed
/// (a test passes only when every trial does), a skip if every trial was
/// skipped, otherwise a pass. With one trial the result is unchanged.
pub(super) fn combine(mut trials: Vec<TestResult>) -> TestResult {
    let n = trials.len();
    if n == 1 {
        return trials.pop().expect("one trial");
    }
    let passed = trials.iter().filter(|t| t.status() == Status::Pass).count();
    let ran = trials.iter().filter(|t| t.status() != Status::Skip).count();
    let duration = trials.iter().map(|t| t.duration).sum();
    let index = trials
        .iter()
        .position(|t| t.status() == Status::Fail)
        .or_else(|| trials.iter().position(|t| t.status() != Status::Skip))
        .unwrap_or(0);
    let mut result = trials.swap_remove(index).duration(duration);
    if ran > 0 {
        result = result
            .property("trials", n.to_string())
            .property("passed trials", passed.to_string())
            .property(format!("pass@{n}"), (passed > 0).to_string())
            .property(format!("pass^{n}"), (passed == n).to_string());
    }
    result
}

/// The run's pass@N and pass^N over the tests that ran, as a title suffix:
/// ` (5 trials each: pass@5 100%, pass^5 50%)`.
pub(super) fn title_suffix(report: &Report, n: u32) -> String {
    if n < 2 {
        return String::new();
    }
    let at = format!("pass@{n}");
    let hat = format!("pass^{n}");
    let ran: Vec<&TestResult> = report
        .results
        .iter()
        .filter(|r| r.property_value(&at).is_some())
        .collect();
    if ran.is_empty() {
        return String::new();
    }
    let rate = |key: &str| {
        let yes = ran
            .iter()
            .filter(|r| r.property_value(key) == Some("true"))
            .count();
        yes * 100 / ran.len()
    };
    format!(
        " ({n} trials each: {at} {}%, {hat} {}%)",
        rate(&at),
        rate(&hat)
    )
}

/// The Markdown table of trials, appended to the Markdown report; empty
/// unless the tests ran more than once (their `trials` property says how
/// often, so a merged report's shards tell it too).
pub(super) fn markdown(report: &Report) -> String {
    let n: u32 = report
        .results
        .iter()
        .find_map(|r| r.property_value("trials")?.parse().ok())
        .unwrap_or(1);
    if n < 2 {
        return String::new();
    }
    let mut out = format!(
        "\n#### Trials\n\n| test | passed trials | pass@{n} | pass^{n} |\n|---|---|---|---|\n"
    );
    for result in &report.results {
        if let (Some(passed), Some(at), Some(hat)) = (
            result.property_value("passed trials"),
            result.property_value(&format!("pass@{n}")),
            result.property_value(&format!("pass^{n}")),
        ) {
            let mark = |v: &str| if v == "true" { "✅" } else { "❌" };
            out.push_str(&format!(
                "| {} | {passed}/{n} | {} | {} |\n",
                result.name.replace('|', "\\|"),
                mark(at),
                mark(hat)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcptest_core::report::Outcome;
    use std::time::Duration;

    fn trial(outcome: Outcome) -> TestResult {
        TestResult::new("t", outcome).duration(Duration::from_millis(10))
    }

    #[test]
    fn a_flaky_test_fails_with_pass_at_k_true() {
        let flaky = combine(vec![
            trial(Outcome::Pass),
            trial(Outcome::error("x", "y")),
            trial(Outcome::Pass),
        ]);
        assert_eq!(flaky.status(), Status::Fail);
        assert_eq!(flaky.duration, Duration::from_millis(30));
        assert_eq!(flaky.property_value("passed trials"), Some("2"));
        assert_eq!(flaky.property_value("pass@3"), Some("true"));
        assert_eq!(flaky.property_value("pass^3"), Some("false"));

        let steady = combine(vec![trial(Outcome::Pass), trial(Outcome::Pass)]);
        assert_eq!(steady.status(), Status::Pass);
        assert_eq!(steady.property_value("pass^2"), Some("true"));

        let mut report3 = Report::new("r");
        report3.push(combine(vec![
            trial(Outcome::Pass),
            trial(Outcome::error("x", "y")),
            trial(Outcome::Pass),
        ]));
        report3.push(combine(vec![
            trial(Outcome::Pass),
            trial(Outcome::Pass),
            trial(Outcome::Pass),
        ]));
        assert_eq!(
            title_suffix(&report3, 3),
            " (3 trials each: pass@3 100%, pass^3 50%)"
        );
        assert!(markdown(&report3).contains("| t | 2/3 | ✅ | ❌ |"));
    }

    #[test]
    fn one_trial_is_the_result_itself() {
        let one = combine(vec![trial(Outcome::Pass)]);
        assert!(one.properties.is_empty());
    }
}

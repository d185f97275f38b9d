//! The report for a terminal: a summary line, one line per result, then
//! every failure and warning in full (the shared failure layout).

use std::fmt::Write;

use super::{Counts, Report, Status, TestResult, safe_text};
use crate::error::fmt_duration;

/// The whole report.
pub(super) fn render(report: &Report, color: bool) -> String {
    let mut out = String::new();
    out.push_str(&headline(report));
    out.push('\n');
    for result in &report.results {
        out.push_str(&result.line());
        out.push('\n');
    }
    for result in &report.results {
        if let Some(failure) = result.outcome.failure() {
            out.push('\n');
            out.push_str(&heading(result));
            out.push('\n');
            out.push_str(&indent(&failure.render(color)));
            out.push('\n');
        }
    }
    out
}

/// What a failing run panics with: the count, then each failure in full.
pub(super) fn failures_message(report: &Report, color: bool) -> String {
    let counts = report.counts();
    let mut out = format!(
        "{}: {} of {} failed ({})\n",
        report.title,
        counts.failed,
        counts.total(),
        others(&counts)
    );
    for result in report.failures() {
        out.push('\n');
        out.push_str(&heading(result));
        out.push('\n');
        if let Some(failure) = result.outcome.failure() {
            out.push_str(&indent(&failure.render(color)));
            out.push('\n');
        }
    }
    out
}

fn headline(report: &Report) -> String {
    let counts = report.counts();
    let mut line = format!(
        "{}: {} test{}, {} passed, {} failed, {} warning{}, {} skipped",
        report.title,
        counts.total(),
        plural(counts.total()),
        counts.passed,
        counts.failed,
        counts.warned,
        plural(counts.warned),
        counts.skipped
    );
    if !report.duration.is_zero() {
        let _ = write!(line, " ({})", fmt_duration(report.duration));
    }
    line
}

fn others(counts: &Counts) -> String {
    format!(
        "{} passed, {} warning{}, {} skipped",
        counts.passed,
        counts.warned,
        plural(counts.warned),
        counts.skipped
    )
}

fn heading(result: &TestResult) -> String {
    let name = safe_text(&result.name);
    match &result.location {
        Some(location) => format!("{} {name} ({location})", result.status()),
        None => format!("{} {name}", result.status()),
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("  {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl TestResult {
    /// The result on one line, as a runner prints it when the test ends:
    /// `PASS  echo says hi (12ms)`, `SKIP  slow: SLOW_TESTS is not set`.
    pub fn line(&self) -> String {
        let mut line = format!("{:<4}  {}", self.status(), safe_text(&self.name));
        if self.status() != Status::Skip {
            let _ = write!(line, " ({})", fmt_duration(self.duration));
        }
        match (&self.location, self.status()) {
            (Some(location), Status::Fail | Status::Warn) => {
                let _ = write!(line, "  {location}");
            }
            (_, Status::Skip) => {
                if let Some(reason) = self.outcome.skip_reason() {
                    let _ = write!(line, ": {}", safe_text(reason));
                }
            }
            _ => {}
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn a_line_per_result_then_the_failures_in_full() {
        let text = sample().to_string();
        let expected_start = "\
suite tests/evals: 4 tests, 1 passed, 1 failed, 1 warning, 1 skipped (50ms)
PASS  echo says hi (12ms)
FAIL  echo says bye (30ms)  tests/evals/bye.yaml:7:5
WARN  cursor (3ms)
SKIP  slow: SLOW_TESTS is not set

FAIL echo says bye (tests/evals/bye.yaml:7:5)
  call:     tools/call echo {\"message\":\"hi\"}
  expected: text equals \"bye\"
";
        assert!(text.starts_with(expected_start), "{text}");
        assert!(text.contains("\nWARN cursor\n  call:"), "{text}");
    }
}

//! What a command leaves behind: the lines and the summary on the
//! terminal, and the report files asked for (written by the suite runner's
//! `ReportFiles`, with the GitHub step summary and annotations).

use console::Style;
use mcptest::{
    report::{Report, Status, TestResult},
    suite::runner::ReportFiles,
};

use crate::args::ReportArgs;

/// Styles for the status words, plain unless colour is on.
pub struct Palette {
    color: bool,
}

impl Palette {
    pub fn new(color: bool) -> Self {
        Palette { color }
    }

    pub fn color(&self) -> bool {
        self.color
    }

    /// The result's one line with its status word coloured.
    pub fn line(&self, result: &TestResult) -> String {
        let line = result.line();
        let status = result.status();
        let word = status.as_str();
        let style = match status {
            Status::Pass => Style::new().green(),
            Status::Fail => Style::new().red().bold(),
            Status::Warn => Style::new().yellow(),
            Status::Skip => Style::new().dim(),
        }
        .force_styling(self.color);
        match line.strip_prefix(word) {
            Some(rest) if self.color => format!("{}{rest}", style.apply_to(word)),
            _ => line,
        }
    }
}

/// After the per-test lines: every failure and warning in full, then one
/// summary line.
pub fn summary(report: &Report, palette: &Palette) -> String {
    let mut out = String::new();
    for result in &report.results {
        if let Some(failure) = result.outcome.failure() {
            let name = mcptest_core::__support::safe_text(&result.name);
            let heading = match &result.location {
                Some(l) => format!("{} {name} ({l})", result.status()),
                None => format!("{} {name}", result.status()),
            };
            out.push('\n');
            out.push_str(&heading);
            out.push('\n');
            for line in failure.render(palette.color()).lines() {
                if !line.is_empty() {
                    out.push_str("  ");
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
    }
    let c = report.counts();
    let verdict = if report.passed() { "passed" } else { "FAILED" };
    out.push_str(&format!(
        "\n{}: {verdict}: {} passed, {} failed, {} warned, {} skipped ({} in all, {:.2}s)\n",
        mcptest_core::__support::safe_text(&report.title),
        c.passed,
        c.failed,
        c.warned,
        c.skipped,
        c.total(),
        report.duration.as_secs_f64()
    ));
    if !report.passed() && c.failed == 0 {
        out.push_str("nothing was checked: every test was skipped\n");
    }
    out
}

/// Writes every report asked for, the step summary when
/// `GITHUB_STEP_SUMMARY` is set, and annotations when `GITHUB_ACTIONS` is
/// `true`. A report that cannot be written is said on stderr; the run's
/// verdict is not changed by it.
pub fn write_reports(report: &Report, reports: &ReportArgs) {
    write_reports_with_json(report, &report.to_json(), reports);
}

/// [`write_reports`], with `json` as the JSON report (the report's own JSON
/// with keys of the command's added).
pub fn write_reports_with_json(report: &Report, json: &serde_json::Value, reports: &ReportArgs) {
    let mut files = reports.files();
    files.write_with_json(report, json);
    for problem in files.problems() {
        eprintln!("mcptest: {problem}");
    }
}

impl ReportArgs {
    /// The report files these arguments ask for.
    pub fn files(&self) -> ReportFiles {
        let mut files = ReportFiles::new();
        if let Some(path) = &self.junit {
            files = files.junit(path);
        }
        if let Some(path) = &self.json {
            files = files.json(path);
        }
        if let Some(path) = &self.markdown {
            files = files.markdown(path);
        }
        if let Some(path) = &self.badge {
            files = files.badge(path);
        }
        files
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcptest::report::Outcome;

    #[test]
    fn plain_lines_without_colour() {
        let palette = Palette::new(false);
        let result = TestResult::new("t", Outcome::Pass);
        assert_eq!(palette.line(&result), result.line());
        let colored = Palette::new(true).line(&result);
        assert!(colored.contains("\u{1b}["), "{colored:?}");
    }
}

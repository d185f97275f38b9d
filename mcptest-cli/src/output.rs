//! What a run leaves behind: the lines and the summary on the terminal,
//! report files, the GitHub step summary and GitHub annotations.

use std::{io::Write, path::Path};

use console::Style;
use mcptest::report::{Report, Status, TestResult};

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
pub fn write_reports(report: &Report, reports: &ReportArgs, markdown_extra: &str) {
    write_reports_with_json(report, &report.to_json(), reports, markdown_extra);
}

/// [`write_reports`], with `json` as the JSON report (the report's own JSON
/// with keys of the command's added).
pub fn write_reports_with_json(
    report: &Report,
    json: &serde_json::Value,
    reports: &ReportArgs,
    markdown_extra: &str,
) {
    let markdown = || format!("{}{markdown_extra}", report.to_markdown());
    if let Some(path) = &reports.junit {
        write_file(path, "JUnit", &report.to_junit());
    }
    if reports.json_on_stdout() {
        print!("{}", pretty(json));
    } else if let Some(path) = &reports.json {
        write_file(path, "JSON", &pretty(json));
    }
    if let Some(path) = &reports.markdown {
        write_file(path, "Markdown", &markdown());
    }
    if let Some(path) = &reports.badge {
        write_file(path, "badge", &pretty(&report.badge()));
    }
    if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty()) {
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&summary)
            .and_then(|mut f| f.write_all(markdown().as_bytes()));
        if let Err(e) = appended {
            eprintln!(
                "mcptest: cannot write the step summary to {} (GITHUB_STEP_SUMMARY): {e}",
                Path::new(&summary).display()
            );
        }
    }
    if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
        // The runner reads workflow commands on either stream; stdout may
        // carry the JSON report.
        if reports.json_on_stdout() {
            eprint!("{}", annotations(report));
        } else {
            print!("{}", annotations(report));
        }
    }
}

fn pretty(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}

/// Writes a report, creating its directory first (`reports/junit.xml` in a
/// fresh CI checkout).
fn write_file(path: &Path, what: &str, text: &str) {
    let written = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    }
    .and_then(|()| std::fs::write(path, text));
    if let Err(e) = written {
        eprintln!(
            "mcptest: cannot write the {what} report to {}: {e}",
            path.display()
        );
    }
}

/// GitHub Actions workflow commands: an `::error` per failure and a
/// `::warning` per warning, at the test's file and line.
pub fn annotations(report: &Report) -> String {
    let mut out = String::new();
    for result in &report.results {
        let level = match result.status() {
            Status::Fail => "error",
            Status::Warn => "warning",
            Status::Pass | Status::Skip => continue,
        };
        let mut properties = Vec::new();
        if let Some(location) = &result.location {
            properties.push(format!("file={}", property(&location.file)));
            if location.line > 0 {
                properties.push(format!("line={}", location.line));
            }
            if location.column > 0 {
                properties.push(format!("col={}", location.column));
            }
        }
        properties.push(format!("title={}", property(&result.name)));
        let message = result
            .outcome
            .failure()
            .map(|f| f.render(false))
            .unwrap_or_default();
        out.push_str(&format!(
            "::{level} {}::{}\n",
            properties.join(","),
            data(&message)
        ));
    }
    out
}

/// Escapes a workflow command's message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcptest::report::{Location, Outcome};

    #[test]
    fn annotations_point_at_the_file_and_escape_what_github_reads() {
        let mut report = Report::new("suite");
        report.push(TestResult::new("ok", Outcome::Pass));
        report.push(
            TestResult::new("a, b: c", Outcome::error("50% done", "line one\nline two"))
                .location(Location::new("tests/x.yaml", 4, 2)),
        );
        let text = annotations(&report);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(
            text.starts_with("::error file=tests/x.yaml,line=4,col=2,title=a%2C b%3A c::"),
            "{text}"
        );
        assert!(text.contains("50%25 done"), "{text}");
        assert!(text.contains("line one%0A"), "{text}");
    }

    #[test]
    fn plain_lines_without_colour() {
        let palette = Palette::new(false);
        let result = TestResult::new("t", Outcome::Pass);
        assert_eq!(palette.line(&result), result.line());
        let colored = Palette::new(true).line(&result);
        assert!(colored.contains("\u{1b}["), "{colored:?}");
    }
}

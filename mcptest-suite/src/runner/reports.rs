//! The files a run leaves for CI, rendered from its report: JSON, JUnit,
//! Markdown (with the trials table and the tests that interfered), the
//! shields.io badge, the GitHub step summary and GitHub annotations. The
//! renderings themselves are the core report's; this module chooses where
//! each goes.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use mcptest_core::report::{Report, Status};

use super::{
    events::{Event, Reporter},
    interference, trials,
};

/// Which report files to write; a [`Reporter`] that writes them when the
/// run finishes, or at once with [`write`](ReportFiles::write).
///
/// Beside the files asked for, the Markdown report is appended to
/// `$GITHUB_STEP_SUMMARY` when that is set, and an annotation per failure
/// and warning is printed when `GITHUB_ACTIONS` is `true`.
///
/// ```no_run
/// # async fn demo(suite: mcptest::suite::Suite) {
/// use mcptest::suite::{RunOptions, runner::{self, ReportFiles}};
///
/// let mut files = ReportFiles::new()
///     .json("reports/run.json")
///     .markdown("reports/run.md");
/// runner::run("suite tests/evals", suite.tests(), &RunOptions::new(), &mut files).await;
/// for problem in files.problems() {
///     eprintln!("{problem}");
/// }
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReportFiles {
    junit: Option<PathBuf>,
    json: Option<PathBuf>,
    markdown: Option<PathBuf>,
    badge: Option<PathBuf>,
    problems: Vec<String>,
}

impl ReportFiles {
    /// No files yet (the step summary and annotations still follow the
    /// environment).
    pub fn new() -> Self {
        ReportFiles::default()
    }

    /// A JUnit XML report (with the `junit` feature; without it, writing
    /// it is a problem that says so).
    pub fn junit(mut self, path: impl Into<PathBuf>) -> Self {
        self.junit = Some(path.into());
        self
    }

    /// A JSON report; `-` prints it on stdout.
    pub fn json(mut self, path: impl Into<PathBuf>) -> Self {
        self.json = Some(path.into());
        self
    }

    /// A Markdown report (see [`markdown`](fn@markdown)).
    pub fn markdown(mut self, path: impl Into<PathBuf>) -> Self {
        self.markdown = Some(path.into());
        self
    }

    /// A shields.io endpoint badge (JSON).
    pub fn badge(mut self, path: impl Into<PathBuf>) -> Self {
        self.badge = Some(path.into());
        self
    }

    /// True when the JSON report goes to stdout (`json` is `-`): a command
    /// then says everything else on stderr.
    pub fn json_on_stdout(&self) -> bool {
        self.json.as_deref() == Some(Path::new("-"))
    }

    /// Writes every report asked for, the step summary and the annotations.
    /// A report that cannot be written does not stop the others: what went
    /// wrong is kept for [`problems`](ReportFiles::problems).
    pub fn write(&mut self, report: &Report) {
        self.write_with_json(report, &report.to_json());
    }

    /// [`write`](ReportFiles::write), with `json` as the JSON report: the
    /// report's own JSON with keys of the caller's added (a lint's token
    /// costs and suggested fixes, say).
    ///
    /// ```no_run
    /// use mcptest::{report::Report, suite::runner::ReportFiles};
    ///
    /// let report = Report::new("lint");
    /// let mut json = report.to_json();
    /// json["fixes"] = serde_json::json!([]);
    /// ReportFiles::new().json("reports/lint.json").write_with_json(&report, &json);
    /// ```
    pub fn write_with_json(&mut self, report: &Report, json: &serde_json::Value) {
        let full_markdown = || markdown(report);
        if let Some(path) = &self.junit {
            let junit = junit(report);
            self.problems.extend(write_file(path, "JUnit", junit));
        }
        if self.json_on_stdout() {
            print!("{}", pretty(json));
        } else if let Some(path) = &self.json {
            let json = Ok(pretty(json));
            self.problems.extend(write_file(path, "JSON", json));
        }
        if let Some(path) = &self.markdown {
            self.problems
                .extend(write_file(path, "Markdown", Ok(full_markdown())));
        }
        if let Some(path) = &self.badge {
            let badge = Ok(pretty(&report.badge()));
            self.problems.extend(write_file(path, "badge", badge));
        }
        if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty()) {
            let appended = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&summary)
                .and_then(|mut f| f.write_all(full_markdown().as_bytes()));
            if let Err(e) = appended {
                self.problems.push(format!(
                    "cannot write the step summary to {} (GITHUB_STEP_SUMMARY): {e}",
                    Path::new(&summary).display()
                ));
            }
        }
        if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
            // The runner reads workflow commands on either stream; stdout
            // may carry the JSON report.
            if self.json_on_stdout() {
                eprint!("{}", annotations(report));
            } else {
                print!("{}", annotations(report));
            }
        }
    }

    /// What could not be written, one sentence each (empty when all was).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl Reporter for ReportFiles {
    fn report(&mut self, event: &Event<'_>) {
        if let Event::RunFinished { report } = event {
            self.write(report);
        }
    }
}

/// The run's Markdown report: the core's rendering, then the trials table
/// (when tests ran more than once) and the tests that interfered (when
/// any did).
///
/// ```
/// use mcptest::{report::Report, suite::runner};
///
/// let report = Report::new("suite tests/evals");
/// assert_eq!(runner::markdown(&report), report.to_markdown());
/// ```
pub fn markdown(report: &Report) -> String {
    format!(
        "{}{}{}",
        report.to_markdown(),
        trials::markdown(report),
        interference::markdown(report)
    )
}

#[cfg(feature = "junit")]
fn junit(report: &Report) -> Result<String, String> {
    Ok(report.to_junit())
}

#[cfg(not(feature = "junit"))]
fn junit(_: &Report) -> Result<String, String> {
    Err("JUnit reports need mcptest's `junit` feature".into())
}

fn pretty(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}

/// Writes a report, creating its directory first (`reports/junit.xml` in a
/// fresh CI checkout); what went wrong, if anything.
fn write_file(path: &Path, what: &str, text: Result<String, String>) -> Option<String> {
    let written = text.and_then(|text| {
        match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(dir) => std::fs::create_dir_all(dir),
            None => Ok(()),
        }
        .and_then(|()| std::fs::write(path, text))
        .map_err(|e| e.to_string())
    });
    written
        .err()
        .map(|e| format!("cannot write the {what} report to {}: {e}", path.display()))
}

/// GitHub Actions workflow commands: an `::error` per failure and a
/// `::warning` per warning, at the test's file and line.
///
/// ```
/// use mcptest::{report::{Location, Outcome, Report, TestResult}, suite::runner};
///
/// let mut report = Report::new("suite");
/// report.push(TestResult::new("adds", Outcome::error("5", "6")).location(Location::new("add.yaml", 2, 1)));
/// assert!(runner::annotations(&report).starts_with("::error file=add.yaml,line=2,col=1,title=adds::"));
/// ```
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
    use mcptest_core::report::{Location, Outcome, TestResult};

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
    fn a_report_that_cannot_be_written_is_a_problem_and_the_others_are_written() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("blocker");
        std::fs::write(&blocker, "a file where a directory should be").unwrap();
        let mut files = ReportFiles::new()
            .markdown(blocker.join("run.md"))
            .badge(dir.path().join("badges/badge.json"));
        files.write(&Report::new("suite"));
        assert_eq!(files.problems().len(), 1, "{:?}", files.problems());
        assert!(
            files.problems()[0].starts_with("cannot write the Markdown report to "),
            "{:?}",
            files.problems()
        );
        assert!(dir.path().join("badges/badge.json").is_file());
    }
}

//! A run's baseline: each test's status saved as JSON (`mcptest run
//! --save-baseline`), and how a later run compares with it (`--baseline`):
//! regressions (PASS then, not PASS now), known and new failures, fixed and
//! missing tests.

use std::{collections::BTreeMap, path::Path};

use mcptest_core::report::{Report, Status, TestResult};
use serde::{Deserialize, Serialize};

/// The saved statuses, keyed by `file::name`.
///
/// ```
/// use mcptest::{report::{Location, Outcome, Report, TestResult}, suite::runner::Baseline};
///
/// let mut before = Report::new("yesterday");
/// before.push(TestResult::new("adds", Outcome::Pass).location(Location::file("add.yaml")));
/// let mut now = Report::new("today");
/// now.push(TestResult::new("adds", Outcome::error("5", "6")).location(Location::file("add.yaml")));
/// assert_eq!(Baseline::of(&before).compare(&now).regressions, ["add.yaml::adds"]);
/// ```
#[derive(Debug, Default, Serialize)]
pub struct Baseline {
    /// Each test's status, keyed by `file::name` (the name alone for a
    /// result without a file).
    pub tests: BTreeMap<String, Status>,
}

#[derive(Debug, Deserialize)]
struct Saved {
    tests: BTreeMap<String, String>,
}

/// How a run compares with a baseline (see [`Baseline::compare`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Passed in the baseline, do not pass now.
    pub regressions: Vec<String>,
    /// Failed in the baseline and fail now.
    pub known: Vec<String>,
    /// Fail now and were not in the baseline.
    pub new_failures: Vec<String>,
    /// Did not pass in the baseline and pass now.
    pub fixed: Vec<String>,
    /// In the baseline and not in this run (a file removed, a test renamed,
    /// `--filter`): shown, so a dropped test is never silent.
    pub missing: Vec<String>,
}

/// A test's key in a baseline: `file::name` (the name alone without a file).
fn key(result: &TestResult) -> String {
    match result
        .location
        .as_ref()
        .map(|l| l.file.as_str())
        .or(result.group.as_deref())
    {
        Some(file) => format!("{file}::{}", result.name),
        None => result.name.clone(),
    }
}

impl Baseline {
    /// The statuses of a run's report.
    pub fn of(report: &Report) -> Baseline {
        Baseline {
            tests: report
                .results
                .iter()
                .map(|r| (key(r), r.status()))
                .collect(),
        }
    }

    /// Writes the baseline as pretty JSON; the error says what and where.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut text = serde_json::to_string_pretty(self).expect("a baseline serializes");
        text.push('\n');
        std::fs::write(path, text)
            .map_err(|e| format!("cannot write the baseline to {}: {e}", path.display()))
    }

    /// Reads a baseline [`save`](Baseline::save) wrote; the error names the
    /// file, and the line and column of what is not a baseline.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the baseline: {e}", path.display()))?;
        let saved: Saved = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}:{}:{}: not a baseline saved by --save-baseline: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        let mut tests = BTreeMap::new();
        for (name, status) in saved.tests {
            let status = match status.as_str() {
                "pass" => Status::Pass,
                "fail" => Status::Fail,
                "warn" => Status::Warn,
                "skip" => Status::Skip,
                other => {
                    return Err(format!(
                        "{}: test {name:?} has status {other:?}; expected pass, fail, warn or skip",
                        path.display()
                    ));
                }
            };
            tests.insert(name, status);
        }
        Ok(Baseline { tests })
    }

    /// How `report` compares with this baseline.
    pub fn compare(&self, report: &Report) -> Comparison {
        let mut comparison = Comparison::default();
        for result in &report.results {
            let key = key(result);
            let before = self.tests.get(&key).copied();
            let now = result.status();
            match (before, now) {
                (Some(Status::Pass), now) if now != Status::Pass => {
                    comparison.regressions.push(key)
                }
                (Some(_), Status::Fail) => comparison.known.push(key),
                (None, Status::Fail) => comparison.new_failures.push(key),
                (Some(before), Status::Pass) if before != Status::Pass => {
                    comparison.fixed.push(key)
                }
                _ => {}
            }
        }
        let ran: std::collections::BTreeSet<String> = report.results.iter().map(key).collect();
        comparison.missing = self
            .tests
            .keys()
            .filter(|key| !ran.contains(*key))
            .cloned()
            .collect();
        comparison
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcptest_core::report::{Location, Outcome};

    fn report(results: &[(&str, Outcome)]) -> Report {
        let mut report = Report::new("r");
        for (name, outcome) in results {
            report.push(TestResult::new(*name, outcome.clone()).location(Location::file("s.yaml")));
        }
        report
    }

    #[test]
    fn only_pass_to_non_pass_is_a_regression() {
        let fail = || Outcome::error("x", "y");
        let before = Baseline::of(&report(&[
            ("a", Outcome::Pass),
            ("b", fail()),
            ("c", Outcome::Pass),
            ("d", fail()),
        ]));
        let now = report(&[
            ("a", fail()),
            ("b", fail()),
            ("c", Outcome::skip("off")),
            ("e", fail()),
        ]);
        assert_eq!(before.compare(&now).missing, ["s.yaml::d"]);
        let now = report(&[
            ("a", fail()),
            ("b", fail()),
            ("c", Outcome::skip("off")),
            ("d", Outcome::Pass),
            ("e", fail()),
        ]);
        let comparison = before.compare(&now);
        assert!(comparison.missing.is_empty());
        assert_eq!(comparison.regressions, ["s.yaml::a", "s.yaml::c"]);
        assert_eq!(comparison.known, ["s.yaml::b"]);
        assert_eq!(comparison.fixed, ["s.yaml::d"]);
        assert_eq!(comparison.new_failures, ["s.yaml::e"]);
    }

    #[test]
    fn saved_and_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.json");
        let baseline = Baseline::of(&report(&[("a", Outcome::Pass)]));
        baseline.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"s.yaml::a\": \"pass\""), "{text}");
        assert_eq!(Baseline::load(&path).unwrap().tests, baseline.tests);
        std::fs::write(&path, "{").unwrap();
        let error = Baseline::load(&path).unwrap_err();
        assert!(error.contains("b.json:1:1: not a baseline"), "{error}");
    }
}

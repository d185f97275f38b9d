//! The report as Markdown (a GitHub Actions step summary) and as a
//! shields.io endpoint badge.

use std::fmt::Write;

use serde_json::{Value, json};

use super::{Report, Status, safe_text};
use crate::error::fmt_duration;

impl Report {
    /// The report as Markdown: a headline, a table with a row per result,
    /// and each failure and warning in full inside a `<details>` block.
    pub fn to_markdown(&self) -> String {
        let counts = self.counts();
        let mut out = String::new();
        let mark = if self.passed() { "✅" } else { "❌" };
        let _ = writeln!(
            out,
            "### {mark} {}\n\n{} passed, {} failed, {} warning{}, {} skipped ({} in all, {})\n",
            escape(&self.title),
            counts.passed,
            counts.failed,
            counts.warned,
            if counts.warned == 1 { "" } else { "s" },
            counts.skipped,
            counts.total(),
            fmt_duration(self.duration),
        );
        out.push_str("| | test | where | time | note |\n|---|---|---|---|---|\n");
        for result in &self.results {
            let place = result
                .location
                .as_ref()
                .map(|l| format!("`{l}`"))
                .unwrap_or_default();
            let note = result
                .outcome
                .summary()
                .map(|s| escape(&s))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| {} | {} | {place} | {} | {note} |",
                icon(result.status()),
                escape(&result.name),
                fmt_duration(result.duration),
            );
        }
        for result in &self.results {
            if let Some(failure) = result.outcome.failure() {
                let _ = write!(
                    out,
                    "\n<details><summary>{} {}</summary>\n\n```text\n{}\n```\n\n</details>\n",
                    result.status(),
                    html(&result.name),
                    failure.render(false).replace("```", "'''"),
                );
            }
        }
        out
    }

    /// A shields.io endpoint badge: `{"schemaVersion": 1, "label":
    /// "mcptest", "message": "12/13 passed", "color": "red"}`. Green when
    /// the run passed, yellow when it passed with warnings, red when
    /// something failed, grey when nothing ran.
    pub fn badge(&self) -> Value {
        let counts = self.counts();
        let ran = counts.passed + counts.warned + counts.failed;
        let color = if ran == 0 {
            "lightgrey"
        } else if counts.failed > 0 {
            "red"
        } else if counts.warned > 0 {
            "yellow"
        } else {
            "brightgreen"
        };
        let message = if ran == 0 {
            "nothing ran".to_owned()
        } else {
            format!("{}/{ran} passed", counts.passed + counts.warned)
        };
        json!({
            "schemaVersion": 1,
            "label": "mcptest",
            "message": message,
            "color": color,
        })
    }
}

fn icon(status: Status) -> &'static str {
    match status {
        Status::Pass => "✅",
        Status::Fail => "❌",
        Status::Warn => "⚠️",
        Status::Skip => "⏭️",
    }
}

/// Text in a table cell: no pipes or line breaks.
fn escape(text: &str) -> String {
    safe_text(text).replace('|', "\\|").replace('\n', " ")
}

fn html(text: &str) -> String {
    safe_text(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, Report, TestResult, tests::sample};
    use serde_json::json;

    #[test]
    fn a_table_then_the_failures() {
        let md = sample().to_markdown();
        assert!(md.starts_with("### ❌ suite tests/evals\n\n1 passed, 1 failed, 1 warning, 1 skipped (4 in all, 50ms)\n"), "{md}");
        assert!(md.contains("| ❌ | echo says bye | `tests/evals/bye.yaml:7:5` | 30ms | expected text equals \"bye\": it differs |"), "{md}");
        assert!(
            md.contains("<details><summary>FAIL echo says bye</summary>\n\n```text\ncall:"),
            "{md}"
        );
        assert!(
            md.contains("<details><summary>WARN cursor</summary>"),
            "{md}"
        );
    }

    #[test]
    fn the_badge_says_how_many_passed() {
        assert_eq!(
            sample().badge(),
            json!({"schemaVersion": 1, "label": "mcptest", "message": "2/3 passed", "color": "red"})
        );
        let mut green = Report::new("x");
        green.push(TestResult::new("a", Outcome::Pass));
        assert_eq!(green.badge()["color"], "brightgreen");
        assert_eq!(Report::new("none").badge()["message"], "nothing ran");
    }
}

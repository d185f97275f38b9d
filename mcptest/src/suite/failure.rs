//! A failed suite test as one message that reads top-down: what was called,
//! what was expected, how it differs, what came back, what the server printed.

use std::fmt::{self, Write as _};

use serde_json::Value;

use crate::ServerOutput;

#[derive(Debug, Default)]
pub(crate) struct Failure {
    /// The request that was made, in one line.
    pub(crate) called: Option<String>,
    /// What the check wanted, in words.
    pub(crate) expected: String,
    /// Why what came back does not do.
    pub(crate) but: Option<String>,
    /// Expected and actual text, shown as a line diff.
    pub(crate) diff: Option<Box<(String, String)>>,
    /// What came back.
    pub(crate) got: Option<Box<Got>>,
    /// Anything else worth knowing (a kept fixture copy, ...).
    pub(crate) notes: Vec<String>,
    pub(crate) output: Box<ServerOutput>,
}

#[derive(Debug)]
pub(crate) enum Got {
    Json(Value),
    Text(String),
}

impl Failure {
    /// A test (`what`: "assertion", "case") that did not end within `guard`.
    pub(crate) fn timed_out(what: &str, guard: std::time::Duration) -> Self {
        Failure::new(format!(
            "the {what} to finish within {}",
            crate::error::fmt_duration(guard)
        ))
        .but("it did not")
    }

    /// A test's outcome; a failure keeps the fixture copy and says where.
    pub(crate) fn outcome(
        result: Result<(), Failure>,
        fixture: Option<crate::Fixture>,
        title: &str,
    ) -> super::Outcome {
        match result {
            Ok(()) => super::Outcome::Passed,
            Err(mut failure) => {
                if let Some(dir) = fixture {
                    dir.keep_failed();
                    failure.notes.push(format!(
                        "the fixture copy is kept at {}",
                        dir.path().display()
                    ));
                }
                super::Outcome::Failed(failure.render(title))
            }
        }
    }

    pub(crate) fn new(expected: impl Into<String>) -> Self {
        Failure {
            expected: expected.into(),
            ..Failure::default()
        }
    }

    pub(crate) fn called(mut self, called: impl Into<String>) -> Self {
        self.called = Some(called.into());
        self
    }

    pub(crate) fn but(mut self, but: impl Into<String>) -> Self {
        self.but = Some(but.into());
        self
    }

    pub(crate) fn diff(mut self, expected: impl Into<String>, actual: impl Into<String>) -> Self {
        self.diff = Some(Box::new((expected.into(), actual.into())));
        self
    }

    pub(crate) fn got_json(mut self, value: Value) -> Self {
        self.got = Some(Box::new(Got::Json(value)));
        self
    }

    pub(crate) fn got_text(mut self, text: impl Into<String>) -> Self {
        self.got = Some(Box::new(Got::Text(text.into())));
        self
    }

    pub(crate) fn output(mut self, output: ServerOutput) -> Self {
        self.output = Box::new(output);
        self
    }

    /// The whole message under a first line naming the test.
    pub(crate) fn render(&self, title: &str) -> String {
        format!("{title}\n{self}")
    }
}

pub(crate) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

fn indent(text: &str, by: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(by);
        out.push_str(line);
    }
    if text.is_empty() {
        out.push_str(by);
        out.push_str("(empty)");
    }
    out
}

/// A unified line diff, `-` for expected and `+` for actual.
pub(crate) fn line_diff(expected: &str, actual: &str) -> String {
    // Both end in a newline, so a one-line value does not read as a change
    // of its line ending.
    let expected = format!("{}\n", expected.trim_end_matches('\n'));
    let actual = format!("{}\n", actual.trim_end_matches('\n'));
    let diff = similar::TextDiff::from_lines(&expected, &actual);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
            similar::ChangeTag::Equal => ' ',
        };
        let line = change.value();
        let _ = write!(out, "{sign}{}", line.strip_suffix('\n').unwrap_or(line));
        out.push('\n');
    }
    out.trim_end_matches('\n').to_owned()
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(called) = &self.called {
            writeln!(f, "  called:   {called}")?;
        }
        write!(f, "  expected: {}", self.expected)?;
        if let Some(but) = &self.but {
            write!(f, "\n  but:      {but}")?;
        }
        if let Some((expected, actual)) = self.diff.as_deref() {
            write!(
                f,
                "\n  diff (- expected, + actual):\n{}",
                indent(&line_diff(expected, actual), "    ")
            )?;
        }
        match self.got.as_deref() {
            Some(Got::Json(value)) => write!(f, "\n  got:\n{}", indent(&pretty(value), "    "))?,
            Some(Got::Text(text)) => write!(f, "\n  got:\n{}", indent(text, "    "))?,
            None => {}
        }
        for note in &self.notes {
            write!(f, "\n  note:     {note}")?;
        }
        write!(f, "{}", self.output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_top_down() {
        let failure = Failure::new("text equal to \"b\" (whitespace trimmed)")
            .called("tools/call echo {\"message\":\"a\"}")
            .diff("b", "a")
            .got_json(json!({"content": [{"type": "text", "text": "a"}]}));
        assert_eq!(
            failure.render("t.yaml: `echo` failed"),
            "t.yaml: `echo` failed
  called:   tools/call echo {\"message\":\"a\"}
  expected: text equal to \"b\" (whitespace trimmed)
  diff (- expected, + actual):
    -b
    +a
  got:
    {
      \"content\": [
        {
          \"text\": \"a\",
          \"type\": \"text\"
        }
      ]
    }"
        );
    }
}

//! What a suite test found wrong, gathered while it runs and handed on as an
//! [`expect::Failure`], so a failing suite file prints the same layout as a
//! failing fluent check.

use serde_json::Value;

use crate::{
    Fixture, ServerOutput,
    expect::{self, Evidence, Miss, Shown},
    report::Outcome,
};

#[derive(Debug, Default)]
pub(crate) struct Failure {
    /// The request that was made, in one line.
    pub(crate) called: Option<String>,
    /// What the check wanted, in words.
    pub(crate) expected: String,
    /// Why what came back does not do.
    pub(crate) but: Option<Box<str>>,
    /// Expected and actual text, shown as a line diff.
    pub(crate) diff: Option<Box<(String, String)>>,
    /// What came back.
    pub(crate) got: Option<Box<Got>>,
    /// Anything else worth knowing (a kept fixture copy, ...).
    pub(crate) notes: Vec<String>,
    /// The expectation that failed, as a check of [`expect`] judged it;
    /// when set, it stands for `expected`, `but`, `diff` and `got`.
    pub(crate) miss: Option<Box<Miss>>,
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
    pub(crate) fn outcome(result: Result<(), Failure>, fixture: Option<Fixture>) -> Outcome {
        match result {
            Ok(()) => Outcome::Pass,
            Err(mut failure) => {
                if let Some(dir) = fixture {
                    dir.keep_failed();
                    failure.notes.push(format!(
                        "the fixture copy is kept at {}",
                        dir.path().display()
                    ));
                }
                Outcome::fail(failure.into_failure())
            }
        }
    }

    pub(crate) fn new(expected: impl Into<String>) -> Self {
        Failure {
            expected: expected.into(),
            ..Failure::default()
        }
    }

    /// A check of [`expect`] that did not hold.
    pub(crate) fn miss(miss: Miss) -> Self {
        Failure {
            miss: Some(Box::new(miss)),
            ..Failure::default()
        }
    }

    pub(crate) fn called(mut self, called: impl Into<String>) -> Self {
        self.called = Some(called.into());
        self
    }

    pub(crate) fn but(mut self, but: impl Into<String>) -> Self {
        self.but = Some(but.into().into_boxed_str());
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

    /// The failure in the one layout every check shares (call, expected,
    /// actual, why, diff, server stderr).
    pub(crate) fn into_failure(self) -> expect::Failure {
        if let Some(miss) = self.miss {
            let evidence = miss.evidence().clone();
            let why: Vec<String> = evidence
                .explanation()
                .map(str::to_owned)
                .into_iter()
                .chain(self.notes)
                .collect();
            let evidence = if why.is_empty() {
                evidence
            } else {
                evidence.note(why.join("\n"))
            };
            return expect::Failure::new(
                self.called,
                vec![Miss::new(miss.expected(), evidence)],
                *self.output,
            );
        }
        let mut evidence = Evidence::new();
        match self.got.map(|g| *g) {
            Some(Got::Json(value)) => evidence = evidence.actual(Shown::json("answer", value)),
            Some(Got::Text(text)) => evidence = evidence.actual(Shown::text("text", text)),
            None => {}
        }
        let why: Vec<String> = self
            .but
            .map(String::from)
            .into_iter()
            .chain(self.notes)
            .collect();
        if !why.is_empty() {
            evidence = evidence.note(why.join("\n"));
        }
        if let Some((expected, actual)) = self.diff.map(|d| *d) {
            evidence = evidence.diff(expected, actual);
        }
        expect::Failure::new(
            self.called,
            vec![Miss::new(self.expected, evidence)],
            *self.output,
        )
    }
}

pub(crate) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

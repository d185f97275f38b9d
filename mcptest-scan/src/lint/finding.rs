//! What a lint finds: a rule (its id, severity and why it matters) and one
//! finding of it in one field, shown as a report result.

use std::fmt;

use mcptest_core::expect::{Evidence, Failure, Miss, Shown};
use mcptest_core::report::{Outcome, TestResult};

/// How much a finding matters: an error fails the run, a warning is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Fails the run (`mcptest lint-security` exits 1).
    Error,
    /// Shown; the run still passes.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One lint rule: its stable id, a short name, its severity, what a clean
/// definition looks like and why it matters. See [`RULES`](super::RULES).
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LintRule {
    /// `MCPT-L001`; never reused.
    pub id: &'static str,
    /// `hidden-instructions`.
    pub name: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// What a clean definition does, as a failure's "expected" line.
    pub expected: &'static str,
    /// Why a finding matters.
    pub why: &'static str,
}

/// One thing a rule found in one field.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule.
    pub rule: &'static LintRule,
    /// What it is about: `tool "add"`, `prompt "greet"`, `server instructions`.
    pub subject: String,
    /// The offending field, as a JSON pointer into
    /// [`Definitions::to_json`](mcptest_core::Definitions::to_json).
    pub pointer: String,
    /// What was found there.
    pub detail: String,
    /// The text around it, when it helps.
    pub excerpt: Option<String>,
}

impl Finding {
    pub(crate) fn new(
        rule: &'static LintRule,
        subject: &str,
        pointer: &str,
        detail: String,
        excerpt: Option<String>,
    ) -> Self {
        Finding {
            rule,
            subject: subject.to_owned(),
            pointer: pointer.to_owned(),
            detail,
            excerpt,
        }
    }

    /// The finding as a report result: failed for an error, warned for a
    /// warning, named `<id> <subject> <pointer>`.
    pub fn to_result(&self) -> TestResult {
        let shown = match &self.excerpt {
            Some(excerpt) => Shown::text(self.pointer.clone(), excerpt.clone()),
            None => Shown::plain("field", self.pointer.clone()),
        };
        let evidence = Evidence::new().actual(shown).note(format!(
            "{}. Why it matters: {}",
            self.detail, self.rule.why
        ));
        let listing = match self.pointer.split('/').nth(1) {
            Some("tools") => "tools/list",
            Some("prompts") => "prompts/list",
            Some("resources") => "resources/list",
            Some("resourceTemplates") => "resources/templates/list",
            _ => "initialize",
        };
        let failure = Failure::new(
            Some(format!("{listing}: {}", self.subject)),
            vec![Miss::new(
                format!(
                    "{} {}: {}",
                    self.rule.id, self.rule.name, self.rule.expected
                ),
                evidence,
            )],
            Default::default(),
        );
        let outcome = match self.rule.severity {
            Severity::Error => Outcome::fail(failure),
            Severity::Warning => Outcome::warn(failure),
        };
        TestResult::new(
            format!("{} {} {}", self.rule.id, self.subject, self.pointer),
            outcome,
        )
        .group(self.rule.name)
        .property("rule", self.rule.id)
        .property("severity", self.rule.severity.as_str())
        .property("pointer", self.pointer.clone())
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} [{}] {} at {}: {}",
            self.rule.id,
            self.rule.name,
            self.rule.severity,
            self.subject,
            self.pointer,
            self.detail
        )
    }
}

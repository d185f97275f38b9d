//! What a lint finds: a rule (its id, family, severity and why it
//! matters) and one finding of it in one field, shown as a report result
//! or as JSON.

use std::fmt;

use serde_json::{Value, json};

use mcptest_core::expect::{Evidence, Failure, Miss, Shown};
use mcptest_core::report::{Outcome, Report, TestResult};

/// How much a finding matters: an error fails the run, a warning is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Fails the run (`mcptest lint` exits 1).
    Error,
    /// Shown; the run still passes (unless [`Lint::strict`](super::Lint::strict)).
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

/// What a rule guards: a model's use of the tools, or the model and the
/// user against the definitions themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Can a model choose the right tool and fill its arguments
    /// (`E1xx`, `W1xx`, `E301`)?
    Usability,
    /// Do the definitions attack the model or the user (`MCPT-L`, `E112`,
    /// `E113`)? `mcptest lint-security` runs these alone.
    Security,
}

impl Family {
    /// `usability` or `security`.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Usability => "usability",
            Family::Security => "security",
        }
    }
}

/// One lint rule: its stable id, a short name, its family and severity,
/// what a clean definition looks like and why it matters. See [`RULES`](super::RULES).
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LintRule {
    /// `E101`, `MCPT-L001`; never reused.
    pub id: &'static str,
    /// `missing-description`.
    pub name: &'static str,
    /// Usability or security.
    pub family: Family,
    /// Error or warning.
    pub severity: Severity,
    /// The rule calls tools, and runs only when asked.
    pub calls: bool,
    /// Other codes that name this rule in `--skip-rules` (mcp-assert's
    /// code, where it files the check under another one).
    pub also: &'static [&'static str],
    /// What a clean definition does, as a failure's "expected" line.
    pub expected: &'static str,
    /// Why a finding matters.
    pub why: &'static str,
}

/// One thing a rule found in one field. It carries what a SARIF result
/// needs: the rule id, the level, the message, the tool and parameter, and
/// a JSON pointer into the definitions document.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule.
    pub rule: &'static LintRule,
    /// How much it matters here: the rule's severity, or error for a
    /// warning under [`Lint::strict`](super::Lint::strict).
    pub severity: Severity,
    /// What it is about: `tool "add"`, `prompt "greet"`, `server
    /// instructions`, `the tool list`.
    pub subject: String,
    /// The tool it is in, if any.
    pub tool: Option<String>,
    /// The parameter it is in, if any: `path`, `edits[].oldText`.
    pub parameter: Option<String>,
    /// The offending field, as a JSON pointer into
    /// [`Definitions::to_json`](mcptest_core::Definitions::to_json).
    pub pointer: String,
    /// Other fields the finding involves (the other tool of a similar pair,
    /// the rest of a cycle, where a free-text value comes from).
    pub related: Vec<String>,
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
            severity: rule.severity,
            subject: subject.to_owned(),
            tool: None,
            parameter: None,
            pointer: pointer.to_owned(),
            related: Vec::new(),
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
        let mut evidence = Evidence::new().actual(shown).note(format!(
            "{}. Why it matters: {}",
            self.detail, self.rule.why
        ));
        if !self.related.is_empty() {
            evidence = evidence.note(format!("see also {}", self.related.join(", ")));
        }
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
        let outcome = match self.severity {
            Severity::Error => Outcome::fail(failure),
            Severity::Warning => Outcome::warn(failure),
        };
        let mut result = TestResult::new(
            format!("{} {} {}", self.rule.id, self.subject, self.pointer),
            outcome,
        )
        .group(self.rule.name)
        .property("rule", self.rule.id)
        .property("severity", self.severity.as_str())
        .property("pointer", self.pointer.clone());
        if let Some(tool) = &self.tool {
            result = result.property("tool", tool.clone());
        }
        if let Some(parameter) = &self.parameter {
            result = result.property("parameter", parameter.clone());
        }
        result
    }

    /// The finding as JSON: `{"code", "rule", "severity", "tool",
    /// "parameter", "pointer", "message", "related"}` (mcp-assert's
    /// `tool`, `code`, `severity` and `message`, and where exactly).
    ///
    /// ```
    /// use mcptest::scan::lint::{Definitions, check};
    /// use serde_json::json;
    ///
    /// let defs = Definitions::from_json(json!({"tools": [
    ///     {"name": "login", "description": "Signs in; returns a session.",
    ///      "inputSchema": {"type": "object", "properties": {
    ///          "password": {"type": "string", "description": "The password."}}}}
    /// ]})).unwrap();
    /// let json = check(&defs)[0].to_json();
    /// assert_eq!(json["code"], "E112");
    /// assert_eq!(json["parameter"], "password");
    /// assert_eq!(json["pointer"], "/tools/0/inputSchema/properties/password");
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "code": self.rule.id,
            "rule": self.rule.name,
            "severity": self.severity.as_str(),
            "tool": self.tool,
            "parameter": self.parameter,
            "pointer": self.pointer,
            "message": self.detail,
            "related": self.related,
        })
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} [{}] {} at {}: {}",
            self.rule.id, self.rule.name, self.severity, self.subject, self.pointer, self.detail
        )
    }
}

/// The results of `rule`: its findings, or one passing result.
pub(crate) fn push_rule(report: &mut Report, rule: &'static LintRule, findings: &[Finding]) {
    let mine: Vec<&Finding> = findings.iter().filter(|f| f.rule == rule).collect();
    if mine.is_empty() {
        report.push(rule_result(rule, Outcome::Pass));
    }
    for finding in mine {
        report.push(finding.to_result());
    }
}

/// The one result of a rule as a whole: `<id> <name>`.
pub(crate) fn rule_result(rule: &'static LintRule, outcome: Outcome) -> TestResult {
    TestResult::new(format!("{} {}", rule.id, rule.name), outcome)
        .group(rule.name)
        .property("rule", rule.id)
        .property("severity", rule.severity.as_str())
}

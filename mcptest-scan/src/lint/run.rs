//! [`Lint`]: list a running server's definitions, lint them (calling tools
//! only when asked), and give the findings as a [`Linted`] value or the
//! shared [`Report`].

use std::{
    collections::BTreeSet,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

use mcptest_core::{
    Definitions, Server,
    report::{Outcome, Report, TestResult},
};

use super::{
    calls::{self, Calls},
    document,
    finding::{Family, Finding, LintRule, Severity, push_rule, rule_result},
    rules::{self, RULES},
    tokens::{self, TokenCost},
};
use crate::failure::failure_of_error;

/// E301's limit when none is given: 100 KB, as mcp-assert's.
pub const DEFAULT_MAX_RESPONSE_KB: usize = 100;

/// Each request's timeout when none is given.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);

/// Lists a server's definitions and lints them. See the [module](crate::lint)
/// docs for the rules.
///
/// ```no_run
/// # async fn demo() -> Result<(), String> {
/// use mcptest::{Server, scan::lint::Lint};
///
/// let report = Lint::new(Server::command("my-server --stdio"))
///     .skip_rules(["E107", "W112"])?
///     .strict(true)
///     .call_tools(true)
///     .run()
///     .await;
/// println!("{report}");
/// report.assert_passed(); // fails on error findings (and, strict, on warnings)
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Lint {
    server: Server,
    family: Option<Family>,
    skipped: BTreeSet<&'static str>,
    strict: bool,
    threshold: Option<usize>,
    call_tools: bool,
    max_response_kb: usize,
    nondeterminism: bool,
    timeout: Duration,
}

impl Lint {
    /// A lint of `server`'s definitions by every rule that needs no call.
    ///
    /// ```
    /// use mcptest::{Server, scan::lint::Lint};
    /// let lint = Lint::new(Server::command("my-server --stdio"));
    /// ```
    pub fn new(server: Server) -> Self {
        Lint {
            server,
            family: None,
            skipped: BTreeSet::new(),
            strict: false,
            threshold: None,
            call_tools: false,
            max_response_kb: DEFAULT_MAX_RESPONSE_KB,
            nondeterminism: false,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// Only the rules of `family` (`mcptest lint-security` is
    /// `only(Family::Security)`).
    ///
    /// ```
    /// use mcptest::{Server, scan::lint::{Family, Lint}};
    /// let lint = Lint::new(Server::command("my-server")).only(Family::Security);
    /// ```
    pub fn only(mut self, family: Family) -> Self {
        self.family = Some(family);
        self
    }

    /// Leaves out the rules each spec names (an id such as `E107`, a name
    /// such as `tool-cycle`, or mcp-assert's code for it); the error names
    /// a spec that names no rule.
    ///
    /// ```
    /// use mcptest::{Server, scan::lint::Lint};
    /// let lint = Lint::new(Server::command("my-server")).skip_rules(["E107", "W112"]).unwrap();
    /// assert!(Lint::new(Server::command("my-server")).skip_rules(["E999"]).is_err());
    /// ```
    pub fn skip_rules<I, S>(mut self, specs: I) -> Result<Self, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for spec in specs {
            for rule in rules::named(spec.as_ref())? {
                self.skipped.insert(rule.id);
            }
        }
        Ok(self)
    }

    /// Treat warnings as errors: any finding fails the run.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Fail the run when there are more than `max` findings, whatever their
    /// severity.
    pub fn threshold(mut self, max: usize) -> Self {
        self.threshold = Some(max);
        self
    }

    /// Call each tool that does not say it changes state once, with an
    /// input built from its schema, and flag responses over
    /// [`max_response_kb`](Self::max_response_kb) (E301).
    pub fn call_tools(mut self, call: bool) -> Self {
        self.call_tools = call;
        self
    }

    /// E301's limit, in KB (1024 bytes) [default: 100].
    pub fn max_response_kb(mut self, kb: usize) -> Self {
        self.max_response_kb = kb;
        self
    }

    /// Call each tool that does not say it changes state three times with
    /// the same input, and flag different answers (W107).
    pub fn detect_nondeterminism(mut self, detect: bool) -> Self {
        self.nondeterminism = detect;
        self
    }

    /// How long each request (a listing, a call) may take [default: 15 s].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The rules this lint runs, in id order.
    fn selected(&self) -> impl Iterator<Item = &'static LintRule> + '_ {
        RULES
            .iter()
            .filter(|r| self.family.is_none_or(|f| r.family == f))
    }

    fn runs(&self, rule: &LintRule) -> bool {
        !self.skipped.contains(rule.id)
            && match rule.id {
                "E301" => self.call_tools,
                "W107" => self.nondeterminism,
                _ => true,
            }
    }

    fn title(&self) -> String {
        match self.family {
            Some(Family::Security) => format!("security lint of {}", self.server),
            Some(Family::Usability) => format!("usability lint of {}", self.server),
            None => format!("lint of {}", self.server),
        }
    }

    /// Starts the server, lists its definitions, calls tools if asked,
    /// closes it and lints. `Err` is the report of a server that does not
    /// start, fails a listing, or lists nothing at all (one failed result).
    pub async fn lint(&self) -> Result<Linted, Report> {
        let started = Instant::now();
        let failed = |name: &str, outcome: Outcome| {
            let mut report = Report::new(self.title());
            report.push(TestResult::new(name, outcome).group("lint"));
            report.with_duration(started.elapsed())
        };
        // The definitions are the subject, as sent: one that breaks the
        // protocol's schema (an input schema without `type`, say) is warned
        // about on stderr and still linted, rather than ending the lint
        // before it starts.
        let server = self
            .server
            .clone()
            .wire_schema(mcptest_core::WireSchema::Warn)
            .timeout(self.timeout);
        let mcp = match server.connect().await {
            Ok(mcp) => mcp,
            Err(error) => return Err(failed("initialize", outcome_of("initialize", &error))),
        };
        let name = mcp.server_info().name.clone();
        let definitions = match Definitions::list(&mcp).await {
            Ok(definitions) => definitions,
            Err((method, error)) => {
                mcp.close().await;
                return Err(failed(method, outcome_of(method, &error)));
            }
        };
        if definitions.is_empty() {
            mcp.close().await;
            return Err(failed(
                "definitions",
                Outcome::error(
                    "the server lists at least one tool, prompt or resource to lint",
                    "it declares none, or its lists are empty",
                ),
            ));
        }
        let doc = definitions.to_json();
        let tokens = tokens::of_document(&doc);
        let mut findings = document::check(&doc, &tokens);
        let plan = Calls {
            max_response: (self.call_tools && !self.skipped.contains("E301"))
                .then_some(self.max_response_kb.saturating_mul(1024)),
            nondeterminism: self.nondeterminism && !self.skipped.contains("W107"),
            timeout: self.timeout,
        };
        let mut call_findings = Vec::new();
        let mut not_called = Vec::new();
        calls::check(
            &mcp,
            &doc,
            &definitions.tools,
            plan,
            &mut call_findings,
            &mut not_called,
        )
        .await;
        mcp.close().await;
        document::locate(&doc, &mut call_findings);
        findings.extend(call_findings);
        let selected: BTreeSet<&str> = self.selected().map(|r| r.id).collect();
        findings.retain(|f| selected.contains(f.rule.id) && self.runs(f.rule));
        if self.strict {
            for finding in &mut findings {
                finding.severity = Severity::Error;
            }
        }
        findings.sort_by(|a, b| {
            a.rule
                .id
                .cmp(b.rule.id)
                .then_with(|| super::pointer::order(&a.pointer, &b.pointer))
        });
        Ok(Linted {
            title: self.title(),
            server: name,
            definitions,
            findings,
            tokens,
            lint: self.clone(),
            not_called,
            duration: started.elapsed(),
        })
    }

    /// [`lint`](Self::lint), as a report: one result per finding, one per
    /// quiet rule; a server that cannot be linted is one failed result.
    pub async fn run(&self) -> Report {
        match self.lint().await {
            Ok(linted) => linted.report(),
            Err(report) => report,
        }
    }
}

fn outcome_of(method: &str, error: &mcptest_core::Error) -> Outcome {
    Outcome::fail(failure_of_error(
        Some(method.to_owned()),
        "the server starts and lists its definitions",
        error,
    ))
}

/// A finished lint: what the server listed, what the rules found, and what
/// it costs in tokens.
///
/// ```no_run
/// # async fn demo() {
/// use mcptest::{Server, scan::lint::Lint};
///
/// let linted = Lint::new(Server::command("my-server")).lint().await.expect("it lints");
/// for finding in &linted.findings {
///     println!("{finding}");
/// }
/// println!("tools/list: {} tokens", linted.tokens.tools_list);
/// # }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Linted {
    /// `lint of <server>`.
    pub title: String,
    /// The server's `serverInfo.name`.
    pub server: String,
    /// What it listed.
    pub definitions: Definitions,
    /// What the rules found (without skipped rules; under
    /// [`Lint::strict`], every finding an error), by rule id, then field.
    pub findings: Vec<Finding>,
    /// What the definitions cost in tokens.
    pub tokens: TokenCost,
    lint: Lint,
    not_called: Vec<TestResult>,
    duration: Duration,
}

impl Linted {
    /// How many findings are errors.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }

    /// How many findings are warnings.
    pub fn warnings(&self) -> usize {
        self.findings.len() - self.errors()
    }

    /// Whether there are more findings than the threshold allows.
    pub fn over_threshold(&self) -> bool {
        self.lint
            .threshold
            .is_some_and(|max| self.findings.len() > max)
    }

    /// The report: per selected rule, its findings or a passing result (a
    /// skipped one for a rule left out or not asked for, saying why), the
    /// tools a calling rule could not measure, and the threshold's result
    /// when one is set.
    pub fn report(&self) -> Report {
        let mut report = Report::new(self.title.clone());
        for rule in self.lint.selected() {
            if self.lint.skipped.contains(rule.id) {
                report.push(rule_result(
                    rule,
                    Outcome::skip("left out (skip_rules, --skip-rules)"),
                ));
                continue;
            }
            if !self.lint.runs(rule) {
                let how = if rule.id == "E301" {
                    "it calls tools: ask for it with call_tools (--call-tools)"
                } else {
                    "it calls tools: ask for it with detect_nondeterminism (--detect-nondeterminism)"
                };
                report.push(rule_result(rule, Outcome::skip(how)));
                continue;
            }
            let not_called: Vec<&TestResult> = self
                .not_called
                .iter()
                .filter(|r| r.property_value("rule") == Some(rule.id))
                .collect();
            let quiet = !self.findings.iter().any(|f| f.rule == rule);
            if rule.calls && quiet && not_called.len() >= self.definitions.tools.len() {
                // Nothing was measured: a pass would say nothing.
                report.push(rule_result(
                    rule,
                    Outcome::skip("no tool could be called; each one's reason follows"),
                ));
            } else {
                push_rule(&mut report, rule, &self.findings);
            }
            for result in not_called {
                report.push(result.clone());
            }
        }
        if let Some(max) = self.lint.threshold {
            let count = self.findings.len();
            let outcome = if count > max {
                Outcome::error(
                    format!("at most {max} findings (--threshold)"),
                    format!("{count} findings"),
                )
            } else {
                Outcome::Pass
            };
            report.push(
                TestResult::new("threshold", outcome)
                    .group("lint")
                    .property("findings", count.to_string())
                    .property("threshold", max.to_string()),
            );
        }
        report.with_duration(self.duration)
    }

    /// Everything as JSON: the report ([`Report::to_json`]: title, counts,
    /// results), and mcp-assert's lint keys (`server`, `tools`, `findings`,
    /// `errors`, `warnings`), each finding as [`Finding::to_json`], and the
    /// token cost (`tokens`).
    pub fn to_json(&self) -> Value {
        let mut out = self.report().to_json();
        out["server"] = json!(self.server);
        out["tools"] = json!(self.definitions.tools.len());
        out["errors"] = json!(self.errors());
        out["warnings"] = json!(self.warnings());
        out["findings"] = Value::Array(self.findings.iter().map(Finding::to_json).collect());
        out["tokens"] = serde_json::to_value(&self.tokens).unwrap_or(Value::Null);
        out
    }
}
